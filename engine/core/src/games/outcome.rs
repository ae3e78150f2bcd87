//! How a game ends: the winner (or a draw) and why.

use std::fmt;

use super::Side;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// Oska: the loser has no pieces left.
    NoPieces,
    /// Hexapawn, Capture the Flag: the loser has no pawns left (a Capture the Flag flag may
    /// still stand). Same protocol code as [`Reason::NoPieces`].
    NoPawns,
    /// Oska: the winner's remaining pieces all stand on the opponent's home row.
    AllHome,
    /// Oska: both sides' pieces all stand on the far rows; the side with more pieces wins.
    BothHomeMorePieces,
    /// Oska: both sides' pieces all stand on the far rows with equal counts.
    BothHomeEqual,
    /// Oska: neither side has a legal move.
    BothStuck,
    /// Hexapawn: a pawn reached the far row.
    ReachedFarRow,
    /// The side to move has no legal move (Hexapawn, Capture the Flag).
    NoLegalMove,
    /// Capture the Flag: the opponent's flag was captured.
    FlagCaptured,
    /// Capture the Flag: the winner's flag stands past every opponent pawn.
    FlagPast,
}

impl Reason {
    /// Every reason.
    pub const ALL: [Reason; 10] = [
        Reason::NoPieces,
        Reason::NoPawns,
        Reason::AllHome,
        Reason::BothHomeMorePieces,
        Reason::BothHomeEqual,
        Reason::BothStuck,
        Reason::ReachedFarRow,
        Reason::NoLegalMove,
        Reason::FlagCaptured,
        Reason::FlagPast,
    ];

    /// A short machine-friendly name (used by the protocol).
    pub const fn code(self) -> &'static str {
        match self {
            // One code for both, as the protocol has always written it.
            Reason::NoPieces | Reason::NoPawns => "no-pieces",
            Reason::AllHome => "all-home",
            Reason::BothHomeMorePieces => "both-home-more-pieces",
            Reason::BothHomeEqual => "both-home-equal",
            Reason::BothStuck => "both-stuck",
            Reason::ReachedFarRow => "far-row",
            Reason::NoLegalMove => "no-legal-move",
            Reason::FlagCaptured => "flag-captured",
            Reason::FlagPast => "flag-past",
        }
    }

    /// The reason in words, from the point of view of the game (winner, if any, given separately).
    pub const fn describe(self) -> &'static str {
        match self {
            Reason::NoPieces => "the loser has no pieces left",
            Reason::NoPawns => "the loser has no pawns left",
            Reason::AllHome => "all the winner's remaining pieces stand on the opponent's home row",
            Reason::BothHomeMorePieces => {
                "both sides' pieces all stand on the far rows and the winner has more pieces"
            }
            Reason::BothHomeEqual => {
                "both sides' pieces all stand on the far rows with equal piece counts"
            }
            Reason::BothStuck => "neither side has a legal move",
            Reason::ReachedFarRow => "a pawn of the winner reached the far row",
            Reason::NoLegalMove => "the loser is to move and has no legal move",
            Reason::FlagCaptured => "the loser's flag was captured",
            Reason::FlagPast => "the winner's flag stands past every opponent pawn",
        }
    }
}

/// The end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The given side has won.
    Win(Side, Reason),
    /// Nobody has won.
    Draw(Reason),
}

impl Outcome {
    /// The winner, if any.
    pub const fn winner(self) -> Option<Side> {
        match self {
            Outcome::Win(s, _) => Some(s),
            Outcome::Draw(_) => None,
        }
    }

    /// The reason.
    pub const fn reason(self) -> Reason {
        match self {
            Outcome::Win(_, r) | Outcome::Draw(r) => r,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(s, r) => write!(f, "{s} wins: {}", r.describe()),
            Outcome::Draw(r) => write!(f, "draw: {}", r.describe()),
        }
    }
}
