//! What stands on a square.

use super::Side;

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
