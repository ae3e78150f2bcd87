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
