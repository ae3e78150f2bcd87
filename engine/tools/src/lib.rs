//! The tools of the boardgames toolkit, built on `boardgames-core`: everything that runs
//! processes, speaks to engines or grades programs.
//!
//! - [`process`]: running child processes (their groups, output, run folders and cgroups), for
//!   the client and the adapter.
//! - [`client`]: drives an engine process over the protocol (tokio).
//! - [`adapter`]: the board-call adapter, which makes a seed-shaped program (board in, board out)
//!   an engine, inside a sandbox.
//! - [`session`]: the engine side of the protocol (the `engine` binary with no arguments).
//! - [`conformance`]: checks that an engine speaks the protocol correctly.
//! - [`arena`]: the match runner (tournaments, refereeing, Elo, LOS, SPRT, openings) and class
//!   grading.
//! - [`tuning`]: fitting the evaluators' weights to exact values.

pub mod adapter;
pub mod arena;
pub mod client;
pub mod conformance;
pub mod process;
pub mod session;
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
