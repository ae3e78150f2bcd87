//! A position with the boards that occurred before it.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::{Game, Move, MoveList, Outcome, PositionError, Reason};

/// A position together with the boards that occurred before it in the game.
///
/// For games without the no-repetition rule the history is kept but never consulted. Pushing and
/// popping are cheap, so the search uses the same structure along its line. For Capture the Flag
/// the line indexes its boards by hash, so that [`Line::seen`] costs the same whatever the length
/// of the history.
#[derive(Clone, Debug)]
pub struct Line<G: Game> {
    current: G,
    /// Earlier positions, oldest first.
    earlier: Vec<G>,
    /// Capture the Flag only: the board index (see [`BoardIndex`]) of `earlier`.
    index: BoardIndex,
}

/// Passes a board hash (already a Zobrist hash, uniformly spread) through as the map's hash.
#[derive(Clone, Copy, Debug, Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// No earlier entry: the end of a chain in [`BoardIndex::previous`].
const NONE: u32 = u32::MAX;

/// The earlier boards of a line by board hash: for each hash the index (in `earlier`) of its
/// latest board, and for each board the index of the one before it with the same hash. A chain
/// is longer than one only on a hash collision (the rule forbids equal boards), so a lookup is a
/// map probe and, almost always, one board comparison.
#[derive(Clone, Debug, Default)]
struct BoardIndex {
    latest: HashMap<u64, u32, BuildHasherDefault<PassThrough>>,
    previous: Vec<u32>,
}

impl<G: Game> Line<G> {
    /// A line with no history.
    pub fn new(current: G) -> Self {
        Line {
            current,
            earlier: Vec::new(),
            index: BoardIndex::default(),
        }
    }

    /// A line from boards oldest first, the last being the current position. Each must be one
    /// legal move after the one before it (checked), the sides alternating.
    pub fn from_history(boards_oldest_first: &[G]) -> Result<Self, PositionError> {
        let (last, before) = boards_oldest_first
            .split_last()
            .ok_or_else(|| PositionError::History("the history is empty".into()))?;
        let total = boards_oldest_first.len();
        let mut line = Line::new(before.first().copied().unwrap_or(*last));
        for (i, next) in boards_oldest_first.iter().enumerate().skip(1) {
            // Board numbers as the user wrote them: 1 is the most recent.
            let from_no = total - (i - 1);
            let to_no = total - i;
            let prev = line.current;
            if let Some(o) = line.outcome() {
                return Err(PositionError::History(format!(
                    "board {from_no} (counting from 1 = the most recent) already ends the game ({o}), yet board {to_no} follows it"
                )));
            }
            let mut moves = MoveList::new();
            line.legal_moves(&mut moves);
            let found = moves
                .as_slice()
                .iter()
                .find(|&&m| prev.play(m).same_board(next) && !m.is_pass());
            match found {
                Some(&m) => line.push(m),
                None => {
                    let repeated =
                        line.earlier.iter().any(|b| b.same_board(next)) || prev.same_board(next);
                    let why = if repeated {
                        "it repeats an earlier board, which the rules forbid".to_string()
                    } else {
                        format!("no legal move of {} leads to it", prev.side_to_move())
                    };
                    return Err(PositionError::History(format!(
                        "board {to_no} (counting from 1 = the most recent) does not follow from board {from_no}: {why}"
                    )));
                }
            }
        }
        Ok(line)
    }

    /// The current position.
    #[inline]
    pub fn current(&self) -> &G {
        &self.current
    }

    /// Earlier positions, oldest first (not including the current one).
    pub fn earlier(&self) -> &[G] {
        &self.earlier
    }

    /// Number of plies in the line (earlier positions).
    pub fn len(&self) -> usize {
        self.earlier.len()
    }

    /// Whether there is no earlier position.
    pub fn is_empty(&self) -> bool {
        self.earlier.is_empty()
    }

    /// Whether `pos`'s board occurred in the line (current or earlier). For Capture the Flag
    /// this takes the same time whatever the line's length; for the other games (whose rules
    /// never consult the history) it scans the earlier boards.
    #[inline]
    pub fn seen(&self, pos: &G) -> bool {
        if self.current.same_board(pos) {
            return true;
        }
        if !G::NO_REPEAT {
            return self.earlier.iter().rev().any(|b| b.same_board(pos));
        }
        let mut i = match self.index.latest.get(&pos.board_hash()) {
            Some(&i) => i,
            None => return false,
        };
        while i != NONE {
            if self.earlier[i as usize].same_board(pos) {
                return true;
            }
            i = self.index.previous[i as usize];
        }
        false
    }

    /// Plays `mv` (which must be legal) and remembers the board it left.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        let next = self.current.play(mv);
        self.push_position(next);
    }

    /// Makes `next` the current position, remembering the previous one.
    ///
    /// # Panics
    ///
    /// For Capture the Flag, when the line would hold more than `u32::MAX - 1` earlier boards.
    #[inline]
    pub fn push_position(&mut self, next: G) {
        let prev = std::mem::replace(&mut self.current, next);
        if G::NO_REPEAT {
            let i = u32::try_from(self.earlier.len())
                .ok()
                .filter(|&i| i != NONE)
                .expect("a line holds fewer than 2^32 - 1 boards");
            let before = self.index.latest.insert(prev.board_hash(), i);
            self.index.previous.push(before.unwrap_or(NONE));
        }
        self.earlier.push(prev);
    }

    /// Undoes the last [`Line::push`]; returns false when there was nothing to undo.
    #[inline]
    pub fn pop(&mut self) -> bool {
        match self.earlier.pop() {
            Some(prev) => {
                if G::NO_REPEAT {
                    let before = self.index.previous.pop().unwrap_or(NONE);
                    if before == NONE {
                        self.index.latest.remove(&prev.board_hash());
                    } else {
                        self.index.latest.insert(prev.board_hash(), before);
                    }
                }
                self.current = prev;
                true
            }
            None => false,
        }
    }

    /// The legal moves of the current position: the pieces' moves less, in Capture the Flag, those
    /// recreating an earlier board. Empty when the game is over.
    pub fn legal_moves(&self, moves: &mut MoveList) {
        moves.clear();
        if self.current.board_outcome().is_some() {
            return;
        }
        self.current.generate(moves);
        self.filter_repetitions(moves);
    }

    /// Removes from `moves` (generated for the current position) those that recreate a board of
    /// the line. Does nothing for games without the rule.
    #[inline]
    pub fn filter_repetitions(&self, moves: &mut MoveList) {
        if G::NO_REPEAT {
            let cur = self.current;
            moves.retain(|m| !self.seen(&cur.play(m)));
        }
    }

    /// The outcome of the current position, if the game is over: the board's verdict, or a loss
    /// for the side to move when it has no legal move.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.current.board_outcome() {
            return Some(o);
        }
        let mut moves = MoveList::new();
        self.current.generate(&mut moves);
        self.filter_repetitions(&mut moves);
        moves
            .is_empty()
            .then(|| Outcome::Win(self.current.side_to_move().opposite(), Reason::NoLegalMove))
    }
}
