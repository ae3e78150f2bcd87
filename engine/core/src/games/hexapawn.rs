//! Hexapawn: n >= 3 pawns a side on an n x n board.
//!
//! A pawn steps straight forward to an empty square or diagonally forward onto an opponent's
//! pawn, capturing it. The mover wins on reaching the far row, taking the last opposing pawn, or
//! leaving the opponent without a legal move.

use std::sync::LazyLock;

use super::two_sides::TwoSides;
use super::{
    Bits, Game, GameKind, Layout, Move, MoveList, Outcome, Piece, PositionError, Reason, Side, bit,
    layout::grid_offset,
};

const NONE: u8 = u8::MAX;

struct Tables {
    layout: Layout,
    /// `forward[side][sq]`: the square straight ahead.
    forward: [[u8; 128]; 2],
    /// `diagonal[side][dir][sq]`: the squares diagonally ahead (dir 0 left, 1 right).
    diagonal: [[[u8; 128]; 2]; 2],
    /// `far_row[side]`: the row that side wins by reaching (last row for White, row 1 for Black).
    far_row: [u128; 2],
}

fn build(n: usize) -> Tables {
    let layout = Layout::square(n);
    let mut t = Tables {
        layout,
        forward: [[NONE; 128]; 2],
        diagonal: [[[NONE; 128]; 2]; 2],
        far_row: [0; 2],
    };
    let as_u8 = |s: Option<usize>| s.map_or(NONE, |s| s as u8);
    for sq in 0..n * n {
        for (side, fwd) in [(0, 1isize), (1, -1)] {
            t.forward[side][sq] = as_u8(grid_offset(n, sq, fwd, 0));
            t.diagonal[side][0][sq] = as_u8(grid_offset(n, sq, fwd, -1));
            t.diagonal[side][1][sq] = as_u8(grid_offset(n, sq, fwd, 1));
        }
        if sq / n == n - 1 {
            t.far_row[0] |= bit(sq);
        }
        if sq / n == 0 {
            t.far_row[1] |= bit(sq);
        }
    }
    t
}

static TABLES: LazyLock<Vec<Tables>> = LazyLock::new(|| (3..=11).map(build).collect());

#[inline]
fn tables(n: usize) -> &'static Tables {
    &TABLES[n - 3]
}

/// A Hexapawn position: the board and the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Hexapawn(TwoSides);

impl Hexapawn {
    /// [`Game::board_outcome`] of the board with White on `white` and Black on `black` at
    /// `size`, `to_move` to move, without making the position (the tablebase builder asks it
    /// of every board). The side that just moved is judged first (see protocol.md for handed
    /// positions).
    pub fn outcome_of_bits(
        size: usize,
        white: u128,
        black: u128,
        to_move: Side,
    ) -> Option<Outcome> {
        let t = tables(size);
        for winner in [to_move.opposite(), to_move] {
            let (own, opp) = match winner {
                Side::White => (white, black),
                Side::Black => (black, white),
            };
            if own & t.far_row[winner.index()] != 0 {
                return Some(Outcome::Win(winner, Reason::ReachedFarRow));
            }
            if opp == 0 {
                return Some(Outcome::Win(winner, Reason::NoPawns));
            }
        }
        None
    }

    /// The squares holding `side`'s pawns, one bit per square index (row-major).
    #[inline]
    pub fn bits(&self, side: Side) -> u128 {
        self.0.own_opp(side).0
    }

    /// The position with pieces on the squares of `white` and `black`, unchecked: the sets must
    /// be disjoint, inside the layout and hold at most `size` pieces each.
    pub fn from_bits(size: usize, white: u128, black: u128, side: Side) -> Self {
        Hexapawn(TwoSides::from_bits(size, white, black, side))
    }

    #[inline(always)]
    fn for_each_move(&self, mut f: impl FnMut(Move)) {
        let t = tables(self.0.size());
        let side = self.0.side();
        let (own, opp) = self.0.own_opp(side);
        let occupied = own | opp;
        let s = side.index();
        for sq in Bits(own) {
            let fwd = t.forward[s][sq];
            if fwd != NONE && occupied & bit(fwd as usize) == 0 {
                f(Move::new(sq as u8, fwd));
            }
            for d in 0..2 {
                let to = t.diagonal[s][d][sq];
                if to != NONE && opp & bit(to as usize) != 0 {
                    f(Move::new(sq as u8, to));
                }
            }
        }
    }
}

impl Game for Hexapawn {
    const KIND: GameKind = GameKind::Hexapawn;
    const NO_REPEAT: bool = false;

    fn start(size: usize) -> Result<Self, PositionError> {
        GameKind::Hexapawn.check_size(size)?;
        let cells: Vec<Option<Piece>> = (0..size * size)
            .map(|sq| match sq / size {
                0 => Some(Piece::WhitePawn),
                r if r == size - 1 => Some(Piece::BlackPawn),
                _ => None,
            })
            .collect();
        Self::from_cells(size, &cells, Side::White)
    }

    fn layout_of(size: usize) -> &'static Layout {
        &tables(size).layout
    }

    fn board_outcome(&self) -> Option<Outcome> {
        let (white, black) = self.0.own_opp(Side::White);
        Hexapawn::outcome_of_bits(self.0.size(), white, black, self.0.side())
    }

    fn generate(&self, moves: &mut MoveList) {
        self.for_each_move(|m| moves.push(m));
    }

    #[inline]
    fn count_moves(&self) -> usize {
        let mut n = 0;
        self.for_each_move(|_| n += 1);
        n
    }

    #[inline]
    fn play(&self, mv: Move) -> Self {
        let (from, to) = (mv.from as usize, mv.to as usize);
        let captured = self.is_capture(mv).then_some(to);
        Hexapawn(self.0.moved(from, to, captured))
    }

    fn is_capture(&self, mv: Move) -> bool {
        self.0.own_opp(self.0.side()).1 & bit(mv.to as usize) != 0
    }

    super::two_sides::board_methods!();
}
