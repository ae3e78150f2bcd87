//! Everything that can be wrong with a game name, size, board, side, history or move.

use super::{GameKind, Side};

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
