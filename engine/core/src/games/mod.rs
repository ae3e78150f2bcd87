//! The rules of the three games behind one [`Game`] trait.
//!
//! Positions are small `Copy` values (bitboards over at most 128 squares); playing a move returns a
//! new position (copy-make). The rules are those of `docs/rules.md`; see each game's module.
//!
//! Capture the Flag forbids a move that recreates an earlier board. That depends on the game's
//! history, which a `Copy` position cannot carry, so the trait separates the two: [`Game::generate`]
//! gives the moves the pieces can make, and [`Line`] (a position plus the boards seen before it)
//! filters them and decides the outcome, including "the side to move has no legal move".
//!
//! A game chosen at run time is an [`AnyLine`]; [`with_game!`](crate::with_game) runs generic code
//! on it, or on the position type of a [`GameKind`].

pub mod ctf;
pub mod format;
pub mod hexapawn;
pub mod layout;
pub mod notation;
pub mod openings;
pub mod oska;
pub mod perft;
pub mod setup;
mod two_sides;
pub mod zobrist;

mod any;
mod error;
mod kind;
mod line;
mod moves;
mod outcome;
mod piece;
mod side;

use std::fmt;

pub use ctf::Ctf;
pub use hexapawn::Hexapawn;
pub use layout::Layout;
pub use oska::Oska;

pub use any::AnyLine;
pub use error::PositionError;
pub use kind::GameKind;
pub use line::Line;
pub use moves::{MAX_MOVES, Move, MoveList};
pub use outcome::{Outcome, Reason};
pub use piece::Piece;
pub use side::Side;

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
