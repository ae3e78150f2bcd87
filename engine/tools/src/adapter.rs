//! The board-call adapter: a [`Backend`](crate::session::backend::Backend) that lets a
//! seed-shaped program (board in, board out) act as an engine.
//!
//! For each `go`, [`BoardCall`] runs the program once, in its own process group, with the
//! position's board in a seed format, the side to move (`w` or `b`) and the depth (from
//! `go depth N`, otherwise the default depth), either as three more command-line arguments or as
//! one line `BOARD SIDE DEPTH` on its standard input. Its answer, the board after its move, is
//! the board that ends last in what it prints: one line, or one row per line, in any seed format
//! or as a Python tuple ([`find_answer`]). The adapter turns it into a move by comparing it with
//! every legal move's resulting board.
//!
//! When the answer matches no legal move, or the program fails (cannot start, exits with an
//! error status, prints no board), the adapter prints one `info string board-call: ...` line
//! saying what happened (with the program's answer, or its exit status and the end of its
//! standard error) and answers `bestmove none`, which a referee rejects: `none` is only allowed
//! on a finished game. On `stop` before the program answered, the program's process group is
//! killed and the first legal move is played (with an `info string` saying so). When the program
//! ends, its group is killed too, so nothing it started outlives the call.
//!
//! With [`BoardCall::limits`] set, each call runs under those [`ResourceLimits`] as a function's
//! driver does: in the sandbox ([`sandbox`]: bubblewrap, its own file read-only, a scratch folder,
//! no network, its own PID namespace, a pids cgroup as the process cap), with resource limits and a
//! watch on the move's time and its output. A broken limit ends the program and names the fault as
//! a function adapter does (`board-call: [timeout] ...`, `[output]`, `[processes]`, `[cpu]`,
//! `[memory]`).
//!
//! The files, each importing only those listed before it: `fault.rs` (the named faults),
//! `format.rs` (the seed board formats), `language.rs` (the languages of seed functions),
//! `answer.rs` (reading a program's answer), `limits.rs` (resource limits), `sandbox.rs` (the
//! sandbox), `watch.rs` (the watch over a move), `spec.rs` (a function named on the command
//! line), `compile.rs` (the Haskell compile cache), `driver.rs` (a function's driver process),
//! `board_call.rs` (the adapter of a program) and `function.rs` (the adapter of a function).

mod answer;
mod board_call;
mod compile;
mod driver;
mod fault;
mod format;
pub mod function;
mod language;
pub mod limits;
pub mod sandbox;
mod spec;
mod watch;

pub use answer::{Answer, find_answer};
pub use board_call::{BoardCall, InputMode};
pub use fault::Fault;
pub use format::{SeedFormat, UnknownFormat};
pub use function::FunctionCall;
pub use language::{Language, defines, keeps_state, seed_function, seed_functions};
pub use limits::ResourceLimits;
pub use spec::{FunctionError, FunctionSpec};
