//! The rules of the three games behind one [`Game`] trait.
//!
//! Positions are small `Copy` values (bitboards over at most 128 squares); playing a move returns a
//! new position (copy-make). The rules are those of `shared/rules.md`; see each game's module.
//!
//! Capture the Flag forbids a move that recreates an earlier board. That depends on the game's
//! history, which a `Copy` position cannot carry, so the trait separates the two: [`Game::generate`]
//! gives the moves the pieces can make, and [`Line`] (a position plus the boards seen before it)
//! filters them and decides the outcome, including "the side to move has no legal move".

pub mod ctf;
pub mod format;
pub mod hexapawn;
pub mod layout;
pub mod notation;
pub mod oska;
pub mod perft;
pub mod setup;
mod two_sides;
pub mod zobrist;

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

pub use ctf::Ctf;
pub use hexapawn::Hexapawn;
pub use layout::Layout;
pub use oska::Oska;

/// One of the two players. White starts at the top (row 1) and moves first from the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The side that starts on row 1 and moves down.
    White,
    /// The side that starts on the last row and moves up.
    Black,
}

impl Side {
    /// The other side.
    #[inline]
    pub const fn opposite(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The letter the seeds use: `w` or `b`.
    pub const fn letter(self) -> char {
        match self {
            Side::White => 'w',
            Side::Black => 'b',
        }
    }

    /// The side's name in words.
    pub const fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }

    /// Parses `w` or `b` (also `white`/`black`, quoted like `'w'`, `"b"` or Lisp's `'w`).
    pub fn parse(text: &str) -> Result<Side, PositionError> {
        let t = text.trim();
        let t = t.strip_prefix('\'').unwrap_or(t);
        let t = t.strip_suffix('\'').unwrap_or(t);
        let t = t.trim_matches('"');
        match t.to_ascii_lowercase().as_str() {
            "w" | "white" => Ok(Side::White),
            "b" | "black" => Ok(Side::Black),
            _ => Err(PositionError::BadSide(text.trim().to_string())),
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What stands on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// A white piece (`w`): Oska piece, Hexapawn pawn or Capture the Flag pawn.
    WhitePawn,
    /// A black piece (`b`).
    BlackPawn,
    /// White's flag (`W`, Capture the Flag only).
    WhiteFlag,
    /// Black's flag (`B`, Capture the Flag only).
    BlackFlag,
}

impl Piece {
    /// The owner of the piece.
    pub const fn side(self) -> Side {
        match self {
            Piece::WhitePawn | Piece::WhiteFlag => Side::White,
            Piece::BlackPawn | Piece::BlackFlag => Side::Black,
        }
    }

    /// Whether the piece is a flag.
    pub const fn is_flag(self) -> bool {
        matches!(self, Piece::WhiteFlag | Piece::BlackFlag)
    }

    /// The character the seeds use for it.
    pub const fn to_char(self) -> char {
        match self {
            Piece::WhitePawn => 'w',
            Piece::BlackPawn => 'b',
            Piece::WhiteFlag => 'W',
            Piece::BlackFlag => 'B',
        }
    }

    /// Index 0..4, used by hashing.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// A side's pawn.
    pub const fn pawn(side: Side) -> Piece {
        match side {
            Side::White => Piece::WhitePawn,
            Side::Black => Piece::BlackPawn,
        }
    }

    /// A side's flag.
    pub const fn flag(side: Side) -> Piece {
        match side {
            Side::White => Piece::WhiteFlag,
            Side::Black => Piece::BlackFlag,
        }
    }
}

/// The three games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Oska: n pieces a side on 2n-3 rows.
    Oska,
    /// Hexapawn: n pawns a side on an n x n board.
    Hexapawn,
    /// Capture the Flag: N x N board with a flag a side and no repeated board.
    Ctf,
}

impl GameKind {
    /// Every game, in a fixed order.
    pub const ALL: [GameKind; 3] = [GameKind::Oska, GameKind::Hexapawn, GameKind::Ctf];

    /// The name used on the command line and in the protocol.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Oska => "oska",
            GameKind::Hexapawn => "hexapawn",
            GameKind::Ctf => "ctf",
        }
    }

    /// The supported sizes (pieces a side for Oska, board width otherwise), inclusive.
    pub const fn size_range(self) -> (usize, usize) {
        match self {
            GameKind::Oska => (4, 11),
            GameKind::Hexapawn | GameKind::Ctf => (3, 11),
        }
    }

    /// Parses a game name (`oska`, `hexapawn`, `ctf`; `capture` is accepted for `ctf`).
    pub fn parse(text: &str) -> Result<GameKind, PositionError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "oska" => Ok(GameKind::Oska),
            "hexapawn" => Ok(GameKind::Hexapawn),
            "ctf" | "capture" | "capture-the-flag" => Ok(GameKind::Ctf),
            _ => Err(PositionError::UnknownGame(text.trim().to_string())),
        }
    }

    /// Checks a size against [`GameKind::size_range`].
    pub fn check_size(self, size: usize) -> Result<(), PositionError> {
        let (lo, hi) = self.size_range();
        if (lo..=hi).contains(&size) {
            Ok(())
        } else {
            Err(PositionError::UnsupportedSize { game: self, size })
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A move: origin and landing square indices (see [`Layout`]), or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Move {
    /// Origin square index.
    pub from: u8,
    /// Landing square index.
    pub to: u8,
}

impl Move {
    /// The move of an Oska side that has no legal move.
    pub const PASS: Move = Move {
        from: u8::MAX,
        to: u8::MAX,
    };

    /// A move from one square index to another.
    #[inline]
    pub const fn new(from: u8, to: u8) -> Move {
        Move { from, to }
    }

    /// Whether this is the pass.
    #[inline]
    pub const fn is_pass(self) -> bool {
        self.from == u8::MAX
    }
}

/// The largest number of moves a position of any supported game can have (Capture the Flag on
/// 11 x 11 with 118 pawns of one side: three moves a pawn and four for the flag).
pub const MAX_MOVES: usize = 384;

/// A fixed-capacity list of moves, filled by [`Game::generate`]; lives on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub const fn new() -> Self {
        MoveList {
            moves: [Move::PASS; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move. The capacity is enough for every legal position of every supported game.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        debug_assert!(self.len < MAX_MOVES);
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves, mutable (for ordering).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Keeps only the moves for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[j] = m;
                j += 1;
            }
        }
        self.len = j;
    }

    /// Whether the list holds `mv`.
    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The loser has no pieces (Oska) or pawns (Hexapawn, Capture the Flag) left.
    NoPieces,
    /// Oska: the winner's remaining pieces all stand on the opponent's home row.
    AllHome,
    /// Oska: both sides' pieces all stand on the far rows; the side with more pieces wins.
    BothHomeMorePieces,
    /// Oska: both sides' pieces all stand on the far rows with equal counts.
    BothHomeEqual,
    /// Oska: neither side has a legal move.
    BothStuck,
    /// Hexapawn: a pawn reached the far row.
    ReachedFarRow,
    /// The side to move has no legal move (Hexapawn, Capture the Flag).
    NoLegalMove,
    /// Capture the Flag: the opponent's flag was captured.
    FlagCaptured,
    /// Capture the Flag: the winner's flag stands past every opponent pawn.
    FlagPast,
}

impl Reason {
    /// A short machine-friendly name (used by the protocol).
    pub const fn code(self) -> &'static str {
        match self {
            Reason::NoPieces => "no-pieces",
            Reason::AllHome => "all-home",
            Reason::BothHomeMorePieces => "both-home-more-pieces",
            Reason::BothHomeEqual => "both-home-equal",
            Reason::BothStuck => "both-stuck",
            Reason::ReachedFarRow => "far-row",
            Reason::NoLegalMove => "no-legal-move",
            Reason::FlagCaptured => "flag-captured",
            Reason::FlagPast => "flag-past",
        }
    }

    /// The reason in words, from the point of view of the game (winner, if any, given separately).
    pub const fn describe(self) -> &'static str {
        match self {
            Reason::NoPieces => "the loser has no pieces left",
            Reason::AllHome => "all the winner's remaining pieces stand on the opponent's home row",
            Reason::BothHomeMorePieces => {
                "both sides' pieces all stand on the far rows and the winner has more pieces"
            }
            Reason::BothHomeEqual => {
                "both sides' pieces all stand on the far rows with equal piece counts"
            }
            Reason::BothStuck => "neither side has a legal move",
            Reason::ReachedFarRow => "a pawn of the winner reached the far row",
            Reason::NoLegalMove => "the loser is to move and has no legal move",
            Reason::FlagCaptured => "the loser's flag was captured",
            Reason::FlagPast => "the winner's flag stands past every opponent pawn",
        }
    }
}

/// The end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The given side has won.
    Win(Side, Reason),
    /// Nobody has won.
    Draw(Reason),
}

impl Outcome {
    /// The winner, if any.
    pub const fn winner(self) -> Option<Side> {
        match self {
            Outcome::Win(s, _) => Some(s),
            Outcome::Draw(_) => None,
        }
    }

    /// The reason.
    pub const fn reason(self) -> Reason {
        match self {
            Outcome::Win(_, r) | Outcome::Draw(r) => r,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(s, r) => write!(f, "{s} wins: {}", r.describe()),
            Outcome::Draw(r) => write!(f, "draw: {}", r.describe()),
        }
    }
}

/// Everything that can be wrong with a game name, size, board, side, history or move.
///
/// The messages say what is wrong and where, in words a student understands. Rows and columns
/// are counted from 1, rows from the top, columns from the left of the row.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// Not a game this toolkit knows.
    #[error("unknown game '{0}': expected oska, hexapawn or ctf")]
    UnknownGame(String),
    /// A size outside the supported range.
    #[error("{game} size {size} is not supported: sizes {lo} to {hi} are", lo = game.size_range().0, hi = game.size_range().1)]
    UnsupportedSize {
        /// The game.
        game: GameKind,
        /// The size asked for.
        size: usize,
    },
    /// A side that is not `w` or `b`.
    #[error("side must be 'w' or 'b', not '{0}'")]
    BadSide(String),
    /// The board text could not be read at all.
    #[error("cannot read the board: {0}")]
    Syntax(String),
    /// The number of rows does not fit any supported size of the game.
    #[error("{game} board has {rows} rows: {expected}")]
    RowCount {
        /// The game.
        game: GameKind,
        /// Rows found.
        rows: usize,
        /// What was expected, in words.
        expected: String,
    },
    /// A row of the wrong length.
    #[error("row {row} has {found} squares but should have {expected}")]
    RowLength {
        /// Row, from 1.
        row: usize,
        /// Squares found.
        found: usize,
        /// Squares expected.
        expected: usize,
    },
    /// A character that is no piece of this game.
    #[error("row {row}, column {col}: '{found}' is not a piece of {game} (use {allowed})")]
    BadCell {
        /// The game.
        game: GameKind,
        /// Row, from 1.
        row: usize,
        /// Column, from 1.
        col: usize,
        /// What was found.
        found: String,
        /// The allowed characters, in words.
        allowed: &'static str,
    },
    /// More pieces of a side than it starts with.
    #[error("{side} has {count} pieces but a side starts with only {max} in {game} of size {max}")]
    TooManyPieces {
        /// The game.
        game: GameKind,
        /// The side.
        side: Side,
        /// Pieces found.
        count: usize,
        /// The most allowed.
        max: usize,
    },
    /// Capture the Flag: a side with more than one flag, or a board with no flag at all.
    #[error("{0}")]
    Flags(String),
    /// A flat board string whose length is not a square.
    #[error("a board string of {len} characters fits no {game} board: {hint}")]
    NotSquare {
        /// The game.
        game: GameKind,
        /// Characters found.
        len: usize,
        /// The nearest square sizes, in words.
        hint: String,
    },
    /// A history whose boards are not one legal move apart, or that repeats a board.
    #[error("history: {0}")]
    History(String),
    /// A move text that is not of the form `d1c2` or `pass`.
    #[error("'{text}' is not a move: {why}")]
    MoveSyntax {
        /// The text.
        text: String,
        /// Why.
        why: String,
    },
    /// A well-formed move that is not legal in the position.
    #[error("{text} is not a legal move here: {why}")]
    IllegalMove {
        /// The text.
        text: String,
        /// Why.
        why: String,
    },
}

/// One of the three games: a position with its side to move.
///
/// Positions are small `Copy` values. Everything above the rules (search, protocol, GUI) is
/// generic over this trait.
pub trait Game: Copy + Eq + std::hash::Hash + fmt::Debug + Send + Sync + 'static {
    /// Which game this is.
    const KIND: GameKind;
    /// Whether a move may not recreate a board that occurred before (Capture the Flag).
    const NO_REPEAT: bool;

    /// The standard start position of a size, White to move.
    fn start(size: usize) -> Result<Self, PositionError>;

    /// A position from its squares (indexed as in [`Layout`]) and side to move, checked against
    /// the game's limits (piece counts, flags). Does not check the history.
    fn from_cells(size: usize, cells: &[Option<Piece>], side: Side) -> Result<Self, PositionError>;

    /// The size (pieces a side for Oska, board width otherwise).
    fn size(&self) -> usize;

    /// The shape of the board of a size.
    fn layout_of(size: usize) -> &'static Layout;

    /// The shape of this position's board.
    fn layout(&self) -> &'static Layout {
        Self::layout_of(self.size())
    }

    /// The side to move.
    fn side_to_move(&self) -> Side;

    /// The same board with the other side to move.
    fn with_side(&self, side: Side) -> Self;

    /// What stands on square `sq`.
    fn piece_at(&self, sq: usize) -> Option<Piece>;

    /// The outcome that the board alone decides, whichever side moved last. "The side to move has
    /// no legal move" is decided by [`Line::outcome`] (it depends on the history in Capture the
    /// Flag).
    fn board_outcome(&self) -> Option<Outcome>;

    /// The moves the pieces of the side to move can make by the movement rules, in a fixed order.
    /// An Oska side with no move gets [`Move::PASS`]. The result is meaningless when
    /// [`Game::board_outcome`] is `Some`. Capture the Flag's history rule is applied by [`Line`].
    fn generate(&self, moves: &mut MoveList);

    /// The number of moves [`Game::generate`] would give (games may count faster).
    fn count_moves(&self) -> usize {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list.len()
    }

    /// The position after `mv`, which must be one that [`Game::generate`] gave.
    fn play(&self, mv: Move) -> Self;

    /// Whether `mv` captures a piece.
    fn is_capture(&self, mv: Move) -> bool;

    /// A Zobrist hash of the board and the side to move.
    fn hash(&self) -> u64;

    /// A hash of the board alone (for the no-repetition rule: only the board is compared).
    fn board_hash(&self) -> u64;

    /// Whether two positions have the same board (side to move ignored).
    fn same_board(&self, other: &Self) -> bool;

    /// Number of pieces (pawns and flags) of a side.
    fn piece_count(&self, side: Side) -> usize;
}

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

/// Iterates the set bits of a 128-bit board, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Bits(pub u128);

impl Iterator for Bits {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(i)
        }
    }
}

/// The bit of square `sq`.
#[inline]
pub const fn bit(sq: usize) -> u128 {
    1u128 << sq
}

/// Runs a generic function with the position type of a [`GameKind`]:
/// `with_game!(kind, G => run::<G>(args))`.
#[macro_export]
macro_rules! with_game {
    ($kind:expr, $g:ident => $body:expr) => {
        match $kind {
            $crate::games::GameKind::Oska => {
                type $g = $crate::games::Oska;
                $body
            }
            $crate::games::GameKind::Hexapawn => {
                type $g = $crate::games::Hexapawn;
                $body
            }
            $crate::games::GameKind::Ctf => {
                type $g = $crate::games::Ctf;
                $body
            }
        }
    };
}
