//! A toolkit for playing, analysing and solving Oska, Hexapawn and Capture the Flag.
//!
//! - [`games`]: the rules of the three games behind one [`games::Game`] trait, board formats,
//!   move notation and perft.
//! - [`protocol`]: the line protocol's messages as types.
//! - [`process`]: running child processes (their groups, output, run folders and cgroups), for
//!   the client and the adapter.
//! - [`session`]: the engine side of the protocol (the `engine` binary with no arguments).
//! - [`client`]: drives an engine process over the protocol (tokio).
//! - [`clock`]: time controls and game clocks, shared by the match runner and the GUI.
//! - [`conformance`]: checks that an engine speaks the protocol correctly.
//! - [`record`]: the game record format shared by the match runner and the GUI.
//! - [`arena`]: the match runner (tournaments, refereeing, Elo, LOS, SPRT, openings).
//! - [`adapter`]: the board-call adapter, which makes a seed-shaped program (board in, board out)
//!   an engine.
//! - [`score`]: a position's score (won, lost, drawn or heuristic) and its integer values,
//!   below the protocol, the search and the tablebase, which all use it.
//! - [`eval`]: the static evaluators of the three games, their fitted weights and pattern terms,
//!   beside the search, which uses them.
//! - [`search`]: alpha-beta search, the search trace and exact solving.
//! - [`splitmix`]: the crate's one small deterministic random generator.
//! - [`tablebase`]: exact values of every Oska and Hexapawn position, by retrograde analysis.

pub mod adapter;
pub mod arena;
pub mod client;
pub mod clock;
pub mod conformance;
pub mod eval;
pub mod games;
#[cfg(test)]
mod layers;
pub mod process;
pub mod protocol;
pub mod record;
pub mod score;
pub mod search;
pub mod session;
pub mod splitmix;
pub mod tablebase;
pub mod tuning;

/// Lets a closed standard output end the process quietly, as it ends other Unix tools
/// (`engine-tune tune-patterns ... | head`): Rust ignores SIGPIPE, so a print to a closed pipe would
/// otherwise panic. The `engine` binary's one-shot commands call it first thing; the protocol
/// loop handles a closed output itself, and `arena` ends its engines first.
pub fn default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to its default installs no handler code; it is
    // called before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
