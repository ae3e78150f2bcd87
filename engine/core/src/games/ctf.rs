//! Capture the Flag: an N x N board (N >= 3), one flag a side (`W`, `B`) and pawns (`w`, `b`).
//!
//! A pawn steps one square forward, left or right to an empty square, or jumps two squares in one
//! of those directions over an adjacent opponent piece (pawn or flag) to an empty square,
//! capturing it. A flag steps one square forward, left, right or backward to an empty square. No
//! move may recreate an earlier board: that rule is applied by [`super::Line`].

use std::sync::LazyLock;

use super::{
    Bits, Game, GameKind, Layout, Move, MoveList, Outcome, Piece, PositionError, Reason, Side, bit,
    layout::grid_offset, zobrist,
};

const NONE: u8 = u8::MAX;

/// Directions: 0 down (White's forward), 1 up (Black's forward), 2 left, 3 right.
const DOWN: usize = 0;
const UP: usize = 1;
const LEFT: usize = 2;
const RIGHT: usize = 3;

/// The directions a pawn of each side may move in.
const PAWN_DIRS: [[usize; 3]; 2] = [[DOWN, LEFT, RIGHT], [UP, LEFT, RIGHT]];

struct Tables {
    layout: Layout,
    /// `step[dir][sq]`: the adjacent square in a direction.
    step: [[u8; 128]; 4],
    /// `jump[dir][sq]`: the square two away in a direction.
    jump: [[u8; 128]; 4],
}

fn build(n: usize) -> Tables {
    let mut t = Tables {
        layout: Layout::square(n),
        step: [[NONE; 128]; 4],
        jump: [[NONE; 128]; 4],
    };
    let as_u8 = |s: Option<usize>| s.map_or(NONE, |s| s as u8);
    let deltas = [(1isize, 0isize), (-1, 0), (0, -1), (0, 1)];
    for sq in 0..n * n {
        for (d, (dr, dc)) in deltas.into_iter().enumerate() {
            t.step[d][sq] = as_u8(grid_offset(n, sq, dr, dc));
            t.jump[d][sq] = as_u8(grid_offset(n, sq, 2 * dr, 2 * dc));
        }
    }
    t
}

static TABLES: LazyLock<Vec<Tables>> = LazyLock::new(|| (3..=11).map(build).collect());

#[inline]
fn tables(n: usize) -> &'static Tables {
    &TABLES[n - 3]
}

/// A Capture the Flag board and the side to move (the history lives in [`super::Line`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Ctf {
    /// Pawns of each side.
    pawns: [u128; 2],
    /// Flag square of each side, `NONE` once captured.
    flags: [u8; 2],
    board_hash: u64,
    n: u8,
    side: Side,
}

impl Ctf {
    /// The squares holding `side`'s pawns, one bit per square index (row-major).
    #[inline]
    pub fn pawn_bits(&self, side: Side) -> u128 {
        self.pawns[side.index()]
    }

    /// The square of `side`'s flag, or `None` once it has been captured.
    #[inline]
    pub fn flag_square(&self, side: Side) -> Option<usize> {
        let f = self.flags[side.index()];
        (f != NONE).then_some(f as usize)
    }

    #[inline]
    fn occupied(&self) -> u128 {
        let mut occ = self.pawns[0] | self.pawns[1];
        for f in self.flags {
            if f != NONE {
                occ |= bit(f as usize);
            }
        }
        occ
    }

    #[inline]
    fn pieces(&self, side: Side) -> u128 {
        let f = self.flags[side.index()];
        self.pawns[side.index()] | if f == NONE { 0 } else { bit(f as usize) }
    }

    /// Whether `side`'s flag stands on a row strictly past every opponent pawn.
    fn flag_past(&self, side: Side) -> bool {
        let n = self.n as usize;
        let flag = self.flags[side.index()];
        let opp = self.pawns[side.opposite().index()];
        if flag == NONE || opp == 0 {
            return false;
        }
        let flag_row = flag as usize / n;
        match side {
            Side::White => flag_row > (127 - opp.leading_zeros() as usize) / n,
            Side::Black => flag_row < opp.trailing_zeros() as usize / n,
        }
    }

    #[inline(always)]
    fn for_each_move(&self, mut f: impl FnMut(Move)) {
        let t = tables(self.n as usize);
        let s = self.side.index();
        let occupied = self.occupied();
        let opp = self.pieces(self.side.opposite());
        for sq in Bits(self.pawns[s]) {
            for d in PAWN_DIRS[s] {
                let to = t.step[d][sq];
                if to == NONE {
                    continue;
                }
                let tb = bit(to as usize);
                if occupied & tb == 0 {
                    f(Move::new(sq as u8, to));
                } else if opp & tb != 0 {
                    let j = t.jump[d][sq];
                    if j != NONE && occupied & bit(j as usize) == 0 {
                        f(Move::new(sq as u8, j));
                    }
                }
            }
        }
        let flag = self.flags[s];
        if flag != NONE {
            for d in [DOWN, UP, LEFT, RIGHT] {
                let to = t.step[d][flag as usize];
                if to != NONE && occupied & bit(to as usize) == 0 {
                    f(Move::new(flag, to));
                }
            }
        }
    }

    /// The start position's cells: the flag centred on the home row with a pawn either side and,
    /// from N = 5, three pawns in front of them; Black mirrored top to bottom.
    fn start_cells(n: usize) -> Vec<Option<Piece>> {
        let mut cells = vec![None; n * n];
        let f = (n - 1) / 2;
        for (side, home, front) in [(Side::White, 0, 1), (Side::Black, n - 1, n - 2)] {
            cells[home * n + f] = Some(Piece::flag(side));
            cells[home * n + f - 1] = Some(Piece::pawn(side));
            cells[home * n + f + 1] = Some(Piece::pawn(side));
            if n >= 5 {
                for c in f - 1..=f + 1 {
                    cells[front * n + c] = Some(Piece::pawn(side));
                }
            }
        }
        cells
    }
}

impl Game for Ctf {
    const KIND: GameKind = GameKind::Ctf;
    const NO_REPEAT: bool = true;

    fn start(size: usize) -> Result<Self, PositionError> {
        GameKind::Ctf.check_size(size)?;
        Self::from_cells(size, &Self::start_cells(size), Side::White)
    }

    fn from_cells(size: usize, cells: &[Option<Piece>], side: Side) -> Result<Self, PositionError> {
        GameKind::Ctf.check_size(size)?;
        assert_eq!(cells.len(), size * size, "cells must match the layout");
        let mut pawns = [0u128; 2];
        let mut flags: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
        for (sq, cell) in cells.iter().enumerate() {
            match cell {
                None => {}
                Some(p) if p.is_flag() => flags[p.side().index()].push(sq),
                Some(p) => pawns[p.side().index()] |= bit(sq),
            }
        }
        let place = |sq: usize| Self::layout_of(size).square_name(sq);
        for side in [Side::White, Side::Black] {
            let f = &flags[side.index()];
            if f.len() > 1 {
                let at: Vec<String> = f.iter().map(|&s| place(s)).collect();
                return Err(PositionError::Flags(format!(
                    "{side} has {} flags ({}): each side has exactly one flag ({})",
                    f.len(),
                    at.join(", "),
                    Piece::flag(side).to_char()
                )));
            }
        }
        if flags[0].is_empty() && flags[1].is_empty() {
            return Err(PositionError::Flags(
                "the board has no flags: each side has exactly one (W for white, B for black)"
                    .into(),
            ));
        }
        let flag_sq = |i: usize| flags[i].first().map_or(NONE, |&s| s as u8);
        let mut pos = Ctf {
            pawns,
            flags: [flag_sq(0), flag_sq(1)],
            board_hash: 0,
            n: size as u8,
            side,
        };
        pos.board_hash = zobrist::hash_bits(Piece::WhitePawn.index(), pawns[0])
            ^ zobrist::hash_bits(Piece::BlackPawn.index(), pawns[1])
            ^ zobrist::size_key(size);
        for side in [Side::White, Side::Black] {
            let f = pos.flags[side.index()];
            if f != NONE {
                pos.board_hash ^= zobrist::PIECE_SQUARE[Piece::flag(side).index()][f as usize];
            }
        }
        Ok(pos)
    }

    #[inline]
    fn size(&self) -> usize {
        self.n as usize
    }

    fn layout_of(size: usize) -> &'static Layout {
        &tables(size).layout
    }

    #[inline]
    fn side_to_move(&self) -> Side {
        self.side
    }

    fn with_side(&self, side: Side) -> Self {
        Ctf { side, ..*self }
    }

    fn piece_at(&self, sq: usize) -> Option<Piece> {
        let b = bit(sq);
        if self.pawns[0] & b != 0 {
            Some(Piece::WhitePawn)
        } else if self.pawns[1] & b != 0 {
            Some(Piece::BlackPawn)
        } else if self.flags[0] as usize == sq {
            Some(Piece::WhiteFlag)
        } else if self.flags[1] as usize == sq {
            Some(Piece::BlackFlag)
        } else {
            None
        }
    }

    fn board_outcome(&self) -> Option<Outcome> {
        let (mover, to_move) = (self.side.opposite(), self.side);
        // The mover first: it captured the flag or the last pawn; then the same for the side to
        // move (only possible in a position handed in).
        for (winner, loser) in [(mover, to_move), (to_move, mover)] {
            if self.flags[loser.index()] == NONE {
                return Some(Outcome::Win(winner, Reason::FlagCaptured));
            }
            if self.pawns[loser.index()] == 0 {
                return Some(Outcome::Win(winner, Reason::NoPawns));
            }
        }
        [mover, to_move]
            .into_iter()
            .find(|&s| self.flag_past(s))
            .map(|s| Outcome::Win(s, Reason::FlagPast))
    }

    fn generate(&self, moves: &mut MoveList) {
        self.for_each_move(|m| moves.push(m));
    }

    #[inline]
    fn play(&self, mv: Move) -> Self {
        let mut next = *self;
        next.side = self.side.opposite();
        let (from, to) = (mv.from as usize, mv.to as usize);
        let (s, o) = (self.side.index(), self.side.opposite().index());
        if self.flags[s] as usize == from {
            let key = &zobrist::PIECE_SQUARE[Piece::flag(self.side).index()];
            next.flags[s] = to as u8;
            next.board_hash ^= key[from] ^ key[to];
            return next;
        }
        let key = &zobrist::PIECE_SQUARE[Piece::pawn(self.side).index()];
        next.pawns[s] ^= bit(from) | bit(to);
        next.board_hash ^= key[from] ^ key[to];
        let dist = from.abs_diff(to);
        if dist == 2 || dist == 2 * self.n as usize {
            let over = (from + to) / 2;
            if next.pawns[o] & bit(over) != 0 {
                next.pawns[o] &= !bit(over);
                next.board_hash ^=
                    zobrist::PIECE_SQUARE[Piece::pawn(self.side.opposite()).index()][over];
            } else {
                next.flags[o] = NONE;
                next.board_hash ^=
                    zobrist::PIECE_SQUARE[Piece::flag(self.side.opposite()).index()][over];
            }
        }
        next
    }

    fn is_capture(&self, mv: Move) -> bool {
        let dist = (mv.from as usize).abs_diff(mv.to as usize);
        dist == 2 || dist == 2 * self.n as usize
    }

    #[inline]
    fn hash(&self) -> u64 {
        match self.side {
            Side::White => self.board_hash,
            Side::Black => self.board_hash ^ zobrist::BLACK_TO_MOVE,
        }
    }

    #[inline]
    fn board_hash(&self) -> u64 {
        self.board_hash
    }

    #[inline]
    fn same_board(&self, other: &Self) -> bool {
        self.pawns == other.pawns && self.flags == other.flags && self.n == other.n
    }

    fn piece_count(&self, side: Side) -> usize {
        self.pieces(side).count_ones() as usize
    }
}
