//! The core of the boardgames toolkit: the rules of Oska, Hexapawn and Capture the Flag, their
//! evaluators, the search, the solver and proof search, the tablebases, and the protocol's
//! messages. No async runtime, no command line, no child processes: a crate to build on when
//! all you need is the games and their exact values.
//!
//! - [`games`]: the rules of the three games behind one [`games::Game`] trait, board formats,
//!   move notation and perft.
//! - [`score`]: a position's score (won, lost, drawn or heuristic) and its integer values,
//!   below the protocol, the search and the tablebase, which all use it.
//! - [`eval`]: the static evaluators of the three games, their fitted weights and pattern terms,
//!   beside the search, which uses them.
//! - [`search`]: alpha-beta search, the search trace, exact solving and proof search.
//! - [`tablebase`]: exact values of every Oska and Hexapawn position, by retrograde analysis.
//! - [`certificate`]: proof certificates of Oska and Hexapawn values, their text format and a
//!   checker that uses the rules and the tables only.
//! - [`exact`]: the exact value of a position (the game's end, else the tables, else the solver or
//!   the proof search), the one function every surface asks.
//! - [`protocol`]: the line protocol's messages as types.
//! - [`record`]: the game record format shared by the match runner and the GUI.
//! - [`clock`]: time controls and game clocks, shared by the match runner and the GUI.
//! - [`splitmix`]: the crate's one small deterministic random generator.
//!
//! The tools above it (the engine client, the sandboxed adapter, the arena, class grading and
//! tuning) live in the `boardgames-tools` crate; the binaries in the `engine` package.

pub mod certificate;
pub mod clock;
pub mod eval;
pub mod exact;
pub mod games;
pub mod protocol;
pub mod record;
pub mod score;
pub mod search;
pub mod split;
pub mod splitmix;
pub mod tablebase;

/// `FromStr` for the types read by their own `parse`, so that `"oska".parse::<GameKind>()` reads
/// what `GameKind::parse("oska")` reads: one rule for every type the crate reads from text.
macro_rules! from_str_by_parse {
    ($($ty:ty => $err:ty),+ $(,)?) => {$(
        impl std::str::FromStr for $ty {
            type Err = $err;

            fn from_str(text: &str) -> Result<Self, Self::Err> {
                <$ty>::parse(text)
            }
        }
    )+};
}

from_str_by_parse! {
    games::GameKind => games::PositionError,
    games::Side => games::PositionError,
    games::notation::MoveText => games::PositionError,
    games::setup::Setup => games::setup::SetupSyntax,
    eval::EvalKind => eval::EvalError,
    protocol::Command => protocol::ProtocolError,
    protocol::Reply => protocol::ProtocolError,
}

#[cfg(test)]
mod text_tests {
    use std::fmt::Display;
    use std::str::FromStr;

    use crate::clock::TimeControl;
    use crate::eval::EvalKind;
    use crate::games::notation::MoveText;
    use crate::games::setup::{Setup, SetupBoard};
    use crate::games::{GameKind, Side};
    use crate::protocol::{Command, Reply};

    /// `text` read by `FromStr`, written by `Display` and read again: the same text and value.
    fn round_trip<T: FromStr + Display + PartialEq + std::fmt::Debug>(text: &str)
    where
        T::Err: std::fmt::Debug,
    {
        let value: T = text.parse().unwrap_or_else(|e| panic!("{text}: {e:?}"));
        assert_eq!(value.to_string(), text);
        assert_eq!(value.to_string().parse::<T>().ok(), Some(value));
    }

    #[test]
    fn every_text_type_reads_by_from_str_what_it_writes() {
        for kind in GameKind::ALL {
            round_trip::<GameKind>(kind.name());
        }
        round_trip::<Side>("white");
        round_trip::<Side>("black");
        round_trip::<MoveText>("a1b2");
        round_trip::<MoveText>("pass");
        round_trip::<Setup>("startpos");
        round_trip::<Setup>(
            "board -wWw-/-w-w-/--w--/-bbb-/-bBb- b history -wWw-/-www-/-----/-bbb-/-bBb-",
        );
        for kind in EvalKind::ALL {
            round_trip::<EvalKind>(kind.name());
        }
        round_trip::<Command>("position startpos moves a1b2 pass");
        round_trip::<Command>("go depth 3");
        round_trip::<Reply>("bestmove a1b2");
        round_trip::<SetupBoard>("w-W/---/bBb");
        round_trip::<TimeControl>("300+3");
    }

    #[test]
    fn from_str_refuses_what_parse_refuses() {
        assert!("chess".parse::<GameKind>().is_err());
        assert!("green".parse::<Side>().is_err());
        assert!("board wxw/---/bbb w".parse::<Setup>().is_err());
        assert!("go sideways".parse::<Command>().is_err());
    }
}
