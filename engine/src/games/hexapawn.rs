//! Hexapawn: n >= 3 pawns a side on an n x n board.
//!
//! A pawn steps straight forward to an empty square or diagonally forward onto an opponent's
//! pawn, capturing it. The mover wins on reaching the far row, taking the last opposing pawn, or
//! leaving the opponent without a legal move.

use std::sync::LazyLock;

use super::{
    Bits, Game, GameKind, Layout, Move, MoveList, Outcome, Piece, PositionError, Reason, Side, bit,
    layout::grid_offset, zobrist,
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
pub struct Hexapawn {
    white: u128,
    black: u128,
    board_hash: u64,
    n: u8,
    side: Side,
}

impl Hexapawn {
    /// The squares holding `side`'s pawns, one bit per square index (row-major).
    #[inline]
    pub fn bits(&self, side: Side) -> u128 {
        self.own_opp(side).0
    }

    #[inline]
    fn own_opp(&self, side: Side) -> (u128, u128) {
        match side {
            Side::White => (self.white, self.black),
            Side::Black => (self.black, self.white),
        }
    }

    #[inline(always)]
    fn for_each_move(&self, mut f: impl FnMut(Move)) {
        let t = tables(self.n as usize);
        let (own, opp) = self.own_opp(self.side);
        let occupied = own | opp;
        let s = self.side.index();
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

    fn from_cells(size: usize, cells: &[Option<Piece>], side: Side) -> Result<Self, PositionError> {
        GameKind::Hexapawn.check_size(size)?;
        assert_eq!(cells.len(), size * size, "cells must match the layout");
        let (mut white, mut black) = (0u128, 0u128);
        for (sq, cell) in cells.iter().enumerate() {
            match cell {
                None => {}
                Some(Piece::WhitePawn) => white |= bit(sq),
                Some(Piece::BlackPawn) => black |= bit(sq),
                Some(p) => {
                    return Err(PositionError::BadCell {
                        game: GameKind::Hexapawn,
                        row: sq / size + 1,
                        col: sq % size + 1,
                        found: p.to_char().to_string(),
                        allowed: "w, b or -",
                    });
                }
            }
        }
        for (s, bits) in [(Side::White, white), (Side::Black, black)] {
            let count = bits.count_ones() as usize;
            if count > size {
                return Err(PositionError::TooManyPieces {
                    game: GameKind::Hexapawn,
                    side: s,
                    count,
                    max: size,
                });
            }
        }
        let board_hash = zobrist::hash_bits(Piece::WhitePawn.index(), white)
            ^ zobrist::hash_bits(Piece::BlackPawn.index(), black)
            ^ zobrist::size_key(size);
        Ok(Hexapawn {
            white,
            black,
            board_hash,
            n: size as u8,
            side,
        })
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
        Hexapawn { side, ..*self }
    }

    fn piece_at(&self, sq: usize) -> Option<Piece> {
        if self.white & bit(sq) != 0 {
            Some(Piece::WhitePawn)
        } else if self.black & bit(sq) != 0 {
            Some(Piece::BlackPawn)
        } else {
            None
        }
    }

    fn board_outcome(&self) -> Option<Outcome> {
        let t = tables(self.n as usize);
        // The side that just moved is judged first (see protocol.md for handed positions).
        let mover = self.side.opposite();
        for winner in [mover, self.side] {
            let (own, opp) = self.own_opp(winner);
            if own & t.far_row[winner.index()] != 0 {
                return Some(Outcome::Win(winner, Reason::ReachedFarRow));
            }
            if opp == 0 {
                return Some(Outcome::Win(winner, Reason::NoPieces));
            }
        }
        None
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
        let mut next = *self;
        next.side = self.side.opposite();
        let (from, to) = (mv.from as usize, mv.to as usize);
        let own_key = &zobrist::PIECE_SQUARE[Piece::pawn(self.side).index()];
        let opp_key = &zobrist::PIECE_SQUARE[Piece::pawn(self.side.opposite()).index()];
        let mut h = self.board_hash ^ own_key[from] ^ own_key[to];
        let moved = bit(from) | bit(to);
        let (own, opp) = match self.side {
            Side::White => (&mut next.white, &mut next.black),
            Side::Black => (&mut next.black, &mut next.white),
        };
        if *opp & bit(to) != 0 {
            *opp &= !bit(to);
            h ^= opp_key[to];
        }
        *own ^= moved;
        next.board_hash = h;
        next
    }

    fn is_capture(&self, mv: Move) -> bool {
        self.own_opp(self.side).1 & bit(mv.to as usize) != 0
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
        self.white == other.white && self.black == other.black && self.n == other.n
    }

    fn piece_count(&self, side: Side) -> usize {
        self.own_opp(side).0.count_ones() as usize
    }
}
