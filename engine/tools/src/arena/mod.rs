//! The match runner: plays engines against each other over the protocol, referees every move
//! with the rules library, and keeps the statistics (Elo, LOS, SPRT) and the game records.
//!
//! - [`spec`]: an engine as the command line describes it (`cmd=... name=... depth=...`); its
//!   time control (`tc=40/60+0.6`) and clock are [`boardgames_core::clock`]'s.
//! - `schedule.rs`: who plays whom ([`Tournament`]), a run's settings ([`MatchConfig`]) and its
//!   games in order ([`schedule`]).
//! - `runner.rs`: [`run_tournament`] plays a [`MatchConfig`] with a number of workers (tokio
//!   tasks), reporting each finished game through a callback.
//! - `game.rs`: the refereeing of one game, which ends in a [`GameOutcome`]; `fault.rs`: how an
//!   engine failed ([`FaultKind`]).
//! - [`class`]: a class of students' submissions; [`grade`]: the exact grading of their moves;
//!   [`html`]: the class's report as one self-contained web page.
//! - [`table`]: running results and the final table; [`stats`]: Elo, LOS, SPRT;
//!   [`openings`]: the openings file ([`boardgames_core::games::openings`] makes random ones).
//!
//! **Processes.** Each worker keeps the processes of its last game's engines and reuses them
//! when its next game has them (`newgame`, then `isready`); the others are shut down before the
//! next game, so that at most two engine processes per worker are alive at once. An engine that fails in any way (failed start,
//! crash, stall, time forfeit, illegal move, protocol violation) loses the game, is shut down
//! (`quit`, a short grace, then its whole process group is killed, and it is always reaped) and
//! is started again for its next game. When the run ends every worker shuts its engines down, so
//! no process outlives [`run_tournament`].
//!
//! **Moves.** Before each `go` the arena sends `position` and then `isready`, and waits for
//! `readyok`: a `bestmove` that comes before it answers no `go` and is a protocol violation.
//! An engine with a time control gets `go wtime ... btime ...`; the time from sending `go` to
//! reading `bestmove` is charged to its clock, and a move that overruns the clock by more than
//! the engine's `timemargin` is a time forfeit.

pub mod class;
mod fault;
mod files;
mod game;
pub mod grade;
pub mod html;
pub mod openings;
mod runner;
mod schedule;
pub mod spec;
pub mod stats;
pub mod table;

pub use fault::FaultKind;
pub use game::GameOutcome;
pub use runner::{Summary, check_declared, run_jobs, run_tournament};
pub use schedule::{GameJob, MatchConfig, Tournament, schedule};
pub use spec::EngineSpec;

/// A match that cannot be set up.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// An `--engine` word is wrong.
    #[error("--engine: '{word}': {why}")]
    Engine {
        /// The word.
        word: String,
        /// What is wrong with it.
        why: String,
    },
    /// The match as a whole is wrong (too few engines, no openings, ...).
    #[error("{0}")]
    Config(String),
}
