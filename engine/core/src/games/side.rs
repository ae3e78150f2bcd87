//! The two players.

use std::fmt;

use super::PositionError;

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
