//! The score of a position from the side to move's view, as `info depth ... score ...` writes
//! it, and the integer values it stands for.
//!
//! This is the bottom of the layers above the rules: the protocol writes scores, the search
//! computes them and the tablebase stores them, and all three take them from here. The module
//! imports nothing from the crate.
//!
//! A won game is worth [`WIN`] minus its distance in plies, a lost one the negation; a line is
//! at most [`MAX_PLY`] plies long, so every value beyond `DECIDED` is a decided game.

use std::fmt;

/// The value of a game won now by the side to move; a win in `k` plies is `WIN - k`.
pub const WIN: i32 = 1_000_000;
/// The longest line the search follows, and so the longest distance to a decided result that a
/// value counts.
pub const MAX_PLY: usize = 400;
/// Values beyond this (in absolute value) are wins or losses.
pub(crate) const DECIDED: i32 = WIN - MAX_PLY as i32 - 1;

/// A search score from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// A heuristic value (roughly hundredths of a pawn).
    Cp(i32),
    /// The side to move wins; the game ends in this many plies.
    Win(u32),
    /// The side to move loses; the game ends in this many plies.
    Loss(u32),
    /// A proven draw.
    Draw,
}

impl Score {
    /// The score of an internal value; `exact` says whether the value is proven (then a zero is
    /// a draw).
    pub fn from_value(value: i32, exact: bool) -> Score {
        if value > DECIDED {
            Score::Win((WIN - value) as u32)
        } else if value < -DECIDED {
            Score::Loss((WIN + value) as u32)
        } else if exact && value == 0 {
            Score::Draw
        } else {
            Score::Cp(value)
        }
    }

    /// The internal value of the score.
    pub fn value(self) -> i32 {
        match self {
            Score::Cp(v) => v,
            Score::Win(k) => WIN - k as i32,
            Score::Loss(k) => -(WIN - k as i32),
            Score::Draw => 0,
        }
    }

    /// Whether the score is a proven game result.
    pub fn is_decided(self) -> bool {
        !matches!(self, Score::Cp(_))
    }
}

impl fmt::Display for Score {
    /// `cp 12`, `win 5`, `loss 3` or `draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(v) => write!(f, "cp {v}"),
            Score::Win(k) => write!(f, "win {k}"),
            Score::Loss(k) => write!(f, "loss {k}"),
            Score::Draw => f.write_str("draw"),
        }
    }
}
