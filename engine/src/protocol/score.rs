//! The score of a search, as `info depth ... score ...` writes it.

use std::fmt;

use crate::search::{DECIDED, WIN};

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
