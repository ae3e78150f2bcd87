//! The board shared by Oska and Hexapawn: each side's pieces as a bitboard, the size, the side to
//! move and an incrementally kept Zobrist hash of the board.

use super::{GameKind, Layout, Piece, PositionError, Side, bit, zobrist};

/// Pieces of two colours (no flags) on up to 128 squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct TwoSides {
    white: u128,
    black: u128,
    /// Zobrist hash of the board (without the side to move).
    board_hash: u64,
    n: u8,
    side: Side,
}

impl TwoSides {
    /// A board from cells, refusing flags and more than `size` pieces a side.
    pub fn from_cells(
        kind: GameKind,
        layout: &Layout,
        size: usize,
        cells: &[Option<Piece>],
        side: Side,
    ) -> Result<Self, PositionError> {
        assert_eq!(cells.len(), layout.squares(), "cells must match the layout");
        let (mut white, mut black) = (0u128, 0u128);
        for (sq, cell) in cells.iter().enumerate() {
            match cell {
                None => {}
                Some(Piece::WhitePawn) => white |= bit(sq),
                Some(Piece::BlackPawn) => black |= bit(sq),
                Some(p) => {
                    let (r, c) = layout.coords(sq);
                    return Err(PositionError::BadCell {
                        game: kind,
                        row: r + 1,
                        col: c + 1,
                        found: p.to_char().to_string(),
                        allowed: "w, b or -; upper-case W and B are Capture the Flag's flags",
                    });
                }
            }
        }
        for (s, bits) in [(Side::White, white), (Side::Black, black)] {
            let count = bits.count_ones() as usize;
            if count > size {
                return Err(PositionError::TooManyPieces {
                    game: kind,
                    side: s,
                    count,
                    max: size,
                });
            }
        }
        Ok(Self::from_bits(size, white, black, side))
    }

    /// A board from the two sides' squares, unchecked: the sets must be disjoint, inside the
    /// layout and hold at most `size` pieces each (the tablebase builder's fast path).
    pub fn from_bits(size: usize, white: u128, black: u128, side: Side) -> Self {
        let board_hash = zobrist::hash_bits(Piece::WhitePawn.index(), white)
            ^ zobrist::hash_bits(Piece::BlackPawn.index(), black)
            ^ zobrist::size_key(size);
        TwoSides {
            white,
            black,
            board_hash,
            n: size as u8,
            side,
        }
    }

    /// The size.
    #[inline]
    pub fn size(&self) -> usize {
        self.n as usize
    }

    /// The side to move.
    #[inline]
    pub fn side(&self) -> Side {
        self.side
    }

    /// The same board with `side` to move.
    #[inline]
    pub fn with_side(&self, side: Side) -> Self {
        TwoSides { side, ..*self }
    }

    /// `side`'s pieces and the other side's.
    #[inline]
    pub fn own_opp(&self, side: Side) -> (u128, u128) {
        match side {
            Side::White => (self.white, self.black),
            Side::Black => (self.black, self.white),
        }
    }

    /// What stands on a square.
    pub fn piece_at(&self, sq: usize) -> Option<Piece> {
        if self.white & bit(sq) != 0 {
            Some(Piece::WhitePawn)
        } else if self.black & bit(sq) != 0 {
            Some(Piece::BlackPawn)
        } else {
            None
        }
    }

    /// The board hash.
    #[inline]
    pub fn board_hash(&self) -> u64 {
        self.board_hash
    }

    /// The hash of the board and the side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        match self.side {
            Side::White => self.board_hash,
            Side::Black => self.board_hash ^ zobrist::BLACK_TO_MOVE,
        }
    }

    /// Whether the boards are equal (side to move ignored).
    #[inline]
    pub fn same_board(&self, other: &Self) -> bool {
        self.white == other.white && self.black == other.black && self.n == other.n
    }

    /// The other side to move, the board unchanged (a pass).
    #[inline]
    pub fn passed(&self) -> Self {
        self.with_side(self.side.opposite())
    }

    /// The board after the side to move's piece goes from `from` to `to`, removing the opponent's
    /// piece on `captured` if any; the other side is then to move.
    #[inline]
    pub fn moved(&self, from: usize, to: usize, captured: Option<usize>) -> Self {
        let mut next = self.passed();
        let own_key = &zobrist::PIECE_SQUARE[Piece::pawn(self.side).index()];
        let opp_key = &zobrist::PIECE_SQUARE[Piece::pawn(self.side.opposite()).index()];
        next.board_hash ^= own_key[from] ^ own_key[to];
        let (own, opp) = match self.side {
            Side::White => (&mut next.white, &mut next.black),
            Side::Black => (&mut next.black, &mut next.white),
        };
        *own ^= bit(from) | bit(to);
        if let Some(c) = captured {
            *opp &= !bit(c);
            next.board_hash ^= opp_key[c];
        }
        next
    }
}

/// The [`Game`](super::Game) methods that a game held as a newtype around [`TwoSides`] (Oska,
/// Hexapawn) answers from its board alone, the same way in each: the checked construction from
/// cells (at a size the game allows), the size, the side to move, the pieces, the hashes and the
/// comparison of boards. Used inside the game's `impl Game`, whose
/// type must have an inherent `bits(side) -> u128`.
macro_rules! board_methods {
    () => {
        fn from_cells(
            size: usize,
            cells: &[Option<$crate::games::Piece>],
            side: $crate::games::Side,
        ) -> Result<Self, $crate::games::PositionError> {
            Self::KIND.check_size(size)?;
            $crate::games::two_sides::TwoSides::from_cells(
                Self::KIND,
                Self::layout_of(size),
                size,
                cells,
                side,
            )
            .map(Self)
        }

        #[inline]
        fn size(&self) -> usize {
            self.0.size()
        }

        #[inline]
        fn side_to_move(&self) -> $crate::games::Side {
            self.0.side()
        }

        fn with_side(&self, side: $crate::games::Side) -> Self {
            Self(self.0.with_side(side))
        }

        fn piece_at(&self, sq: usize) -> Option<$crate::games::Piece> {
            self.0.piece_at(sq)
        }

        #[inline]
        fn hash(&self) -> u64 {
            self.0.hash()
        }

        #[inline]
        fn board_hash(&self) -> u64 {
            self.0.board_hash()
        }

        #[inline]
        fn same_board(&self, other: &Self) -> bool {
            self.0.same_board(&other.0)
        }

        fn piece_count(&self, side: $crate::games::Side) -> usize {
            self.bits(side).count_ones() as usize
        }
    };
}

pub(crate) use board_methods;
