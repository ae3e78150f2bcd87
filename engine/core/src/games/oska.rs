//! Oska: n >= 4 pieces a side on 2n-3 rows of lengths n, n-1, ..., 2, ..., n-1, n.
//!
//! Rows are centred under each other; square j of a row of length L sits at x = 2j - (L-1) in
//! half-squares. A piece steps one row forward diagonally (x changes by 1) to an empty square, or
//! jumps two rows forward in the same direction over an opponent's piece, removing it. A side
//! with no move passes. See `docs/rules.md` for the end of the game.

use std::sync::LazyLock;

use super::two_sides::TwoSides;
use super::{
    Bits, Game, GameKind, Layout, Move, MoveList, Outcome, Piece, PositionError, Reason, Side, bit,
};

/// No square (off the board).
pub(crate) const NONE: u8 = u8::MAX;

/// Precomputed geometry of one size.
pub(crate) struct Tables {
    pub(crate) layout: Layout,
    /// `step[side][dir][sq]`: the square one diagonal step forward (dir 0: x-1, dir 1: x+1).
    pub(crate) step: [[[u8; 128]; 2]; 2],
    /// `jump[side][dir][sq]`: the square two steps forward in the same direction.
    pub(crate) jump: [[[u8; 128]; 2]; 2],
    /// `step_mask[side][sq]`: both step targets as bits.
    pub(crate) step_mask: [[u128; 128]; 2],
    /// Squares of row 1 (White's home) and of the last row (Black's home).
    pub(crate) home: [u128; 2],
}

fn row_lengths(n: usize) -> Vec<usize> {
    let rows = 2 * n - 3;
    (0..rows)
        .map(|r| (r as isize - (n as isize - 2)).unsigned_abs() + 2)
        .collect()
}

fn build(n: usize) -> Tables {
    let layout = Layout::new(row_lengths(n));
    let rows = layout.rows();
    // The square at row r and half-square coordinate x, if any.
    let at = |r: isize, x: isize| -> Option<usize> {
        if r < 0 || r >= rows as isize {
            return None;
        }
        let len = layout.row_len(r as usize) as isize;
        let twice = x + len - 1;
        (twice >= 0 && twice % 2 == 0 && twice / 2 < len)
            .then(|| layout.square_at(r as usize, (twice / 2) as usize))
            .flatten()
    };
    let mut t = Tables {
        step: [[[NONE; 128]; 2]; 2],
        jump: [[[NONE; 128]; 2]; 2],
        step_mask: [[0; 128]; 2],
        home: [0; 2],
        layout: layout.clone(),
    };
    for sq in 0..layout.squares() {
        let (r, c) = layout.coords(sq);
        let len = layout.row_len(r) as isize;
        let x = 2 * c as isize - (len - 1);
        for side in [Side::White, Side::Black] {
            let fwd: isize = if side == Side::White { 1 } else { -1 };
            for (d, dx) in [-1isize, 1].into_iter().enumerate() {
                if let Some(s) = at(r as isize + fwd, x + dx) {
                    t.step[side.index()][d][sq] = s as u8;
                    t.step_mask[side.index()][sq] |= bit(s);
                    if let Some(j) = at(r as isize + 2 * fwd, x + 2 * dx) {
                        t.jump[side.index()][d][sq] = j as u8;
                    }
                }
            }
        }
        if r == 0 {
            t.home[0] |= bit(sq);
        }
        if r == rows - 1 {
            t.home[1] |= bit(sq);
        }
    }
    t
}

static TABLES: LazyLock<Vec<Tables>> = LazyLock::new(|| (4..=11).map(build).collect());

/// The geometry of size `n`.
#[inline]
pub(crate) fn tables(n: usize) -> &'static Tables {
    &TABLES[n - 4]
}

/// An Oska position: the board and the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Oska(TwoSides);

impl Oska {
    /// The squares holding `side`'s pieces, one bit per square index of the [`Layout`].
    #[inline]
    pub fn bits(&self, side: Side) -> u128 {
        self.0.own_opp(side).0
    }

    /// The position with pieces on the squares of `white` and `black`, unchecked: the sets must
    /// be disjoint, inside the layout and hold at most `size` pieces each.
    pub fn from_bits(size: usize, white: u128, black: u128, side: Side) -> Self {
        Oska(TwoSides::from_bits(size, white, black, side))
    }

    /// [`Game::board_outcome`] of the board with White on `white` and Black on `black` at
    /// `size` (the same whichever side is to move), without making the position (the
    /// tablebase builder asks it of every board).
    pub fn outcome_of_bits(size: usize, white: u128, black: u128) -> Option<Outcome> {
        Oska::outcome_by_placement(size, white, black).or_else(|| {
            let t = tables(size);
            (!has_move_bits(t, white, black, Side::White)
                && !has_move_bits(t, black, white, Side::Black))
            .then_some(Oska::STUCK)
        })
    }

    /// The outcome when neither side has a piece move and [`Oska::outcome_by_placement`] says
    /// the game goes on: a draw.
    pub const STUCK: Outcome = Outcome::Draw(Reason::BothStuck);

    /// The rules of [`Oska::outcome_of_bits`] that look only at where the pieces stand (no
    /// pieces left, all home): `None` when the game goes on unless neither side can move
    /// ([`Oska::STUCK`]). The tablebase builder counts the moves itself.
    #[inline]
    pub fn outcome_by_placement(size: usize, white: u128, black: u128) -> Option<Outcome> {
        if white == 0 {
            return Some(Outcome::Win(Side::Black, Reason::NoPieces));
        }
        if black == 0 {
            return Some(Outcome::Win(Side::White, Reason::NoPieces));
        }
        let t = tables(size);
        let white_home = white & !t.home[1] == 0;
        let black_home = black & !t.home[0] == 0;
        match (white_home, black_home) {
            (true, true) => {
                let (w, b) = (white.count_ones(), black.count_ones());
                Some(match w.cmp(&b) {
                    std::cmp::Ordering::Greater => {
                        Outcome::Win(Side::White, Reason::BothHomeMorePieces)
                    }
                    std::cmp::Ordering::Less => {
                        Outcome::Win(Side::Black, Reason::BothHomeMorePieces)
                    }
                    std::cmp::Ordering::Equal => Outcome::Draw(Reason::BothHomeEqual),
                })
            }
            (true, false) => Some(Outcome::Win(Side::White, Reason::AllHome)),
            (false, true) => Some(Outcome::Win(Side::Black, Reason::AllHome)),
            (false, false) => None,
        }
    }
}

/// Whether `side`, on `own` against `opp`, has any piece move.
#[inline]
fn has_move_bits(t: &Tables, own: u128, opp: u128, side: Side) -> bool {
    let empty = t.layout.mask() & !(own | opp);
    let s = side.index();
    for sq in Bits(own) {
        if t.step_mask[s][sq] & empty != 0 {
            return true;
        }
        for d in 0..2 {
            let over = t.step[s][d][sq];
            let to = t.jump[s][d][sq];
            if to != NONE && opp & bit(over as usize) != 0 && empty & bit(to as usize) != 0 {
                return true;
            }
        }
    }
    false
}

impl Oska {
    /// Calls `f` for every piece move of the side to move.
    #[inline(always)]
    fn for_each_move(&self, mut f: impl FnMut(Move)) {
        let t = tables(self.0.size());
        let side = self.0.side();
        let (own, opp) = self.0.own_opp(side);
        let empty = t.layout.mask() & !(own | opp);
        let s = side.index();
        for sq in Bits(own) {
            for d in 0..2 {
                let to = t.step[s][d][sq];
                if to == NONE {
                    continue;
                }
                let tb = bit(to as usize);
                if empty & tb != 0 {
                    f(Move::new(sq as u8, to));
                } else if opp & tb != 0 {
                    let j = t.jump[s][d][sq];
                    if j != NONE && empty & bit(j as usize) != 0 {
                        f(Move::new(sq as u8, j));
                    }
                }
            }
        }
    }
}

impl Game for Oska {
    const KIND: GameKind = GameKind::Oska;
    const NO_REPEAT: bool = false;

    fn start(size: usize) -> Result<Self, PositionError> {
        GameKind::Oska.check_size(size)?;
        let t = tables(size);
        let cells: Vec<Option<Piece>> = (0..t.layout.squares())
            .map(|sq| {
                if t.home[0] & bit(sq) != 0 {
                    Some(Piece::WhitePawn)
                } else if t.home[1] & bit(sq) != 0 {
                    Some(Piece::BlackPawn)
                } else {
                    None
                }
            })
            .collect();
        Self::from_cells(size, &cells, Side::White)
    }

    fn layout_of(size: usize) -> &'static Layout {
        &tables(size).layout
    }

    fn board_outcome(&self) -> Option<Outcome> {
        let (white, black) = self.0.own_opp(Side::White);
        Oska::outcome_of_bits(self.0.size(), white, black)
    }

    fn generate(&self, moves: &mut MoveList) {
        let before = moves.len();
        self.for_each_move(|m| moves.push(m));
        if moves.len() == before {
            moves.push(Move::PASS);
        }
    }

    #[inline]
    fn count_moves(&self) -> usize {
        let mut n = 0;
        self.for_each_move(|_| n += 1);
        n.max(1)
    }

    #[inline]
    fn play(&self, mv: Move) -> Self {
        if mv.is_pass() {
            return Oska(self.0.passed());
        }
        let t = tables(self.0.size());
        let s = self.0.side().index();
        let (from, to) = (mv.from as usize, mv.to as usize);
        let captured = (0..2)
            .find(|&d| t.jump[s][d][from] as usize == to)
            .map(|d| t.step[s][d][from] as usize);
        Oska(self.0.moved(from, to, captured))
    }

    fn is_capture(&self, mv: Move) -> bool {
        if mv.is_pass() {
            return false;
        }
        let t = tables(self.0.size());
        let s = self.0.side().index();
        (0..2).any(|d| t.jump[s][d][mv.from as usize] == mv.to)
    }

    super::two_sides::board_methods!();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_lengths_follow_the_rules() {
        assert_eq!(row_lengths(4), vec![4, 3, 2, 3, 4]);
        assert_eq!(row_lengths(5), vec![5, 4, 3, 2, 3, 4, 5]);
        assert_eq!(Oska::layout_of(11).squares(), 128);
    }
}
