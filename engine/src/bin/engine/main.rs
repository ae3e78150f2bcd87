//! The `engine` binary: with no arguments it speaks the line protocol of `protocol.md` on stdin
//! and stdout; with a subcommand it runs one-shot commands that mirror the seeds' functions, one
//! module each under `commands/`. The developer tools that fit the evaluators are the
//! `engine-tune` binary.

#[path = "../common/cli.rs"]
mod cli;
mod commands;
#[path = "../common/limits.rs"]
mod limits;

use std::process::ExitCode;

use clap::Parser;

use commands::best::GameOver;
use commands::{bench, best, board_call, movegen, perft, proof, solve, tablebase};

/// Rules engine for Oska, Hexapawn and Capture the Flag.
///
/// Without a subcommand, the engine speaks the line protocol of protocol.md on stdin/stdout
/// (send `uci` to start, `quit` to end).
///
/// GAME is oska, hexapawn or ctf. BOARD is in any seed format: rows joined with '/'
/// (wwww/---/--/---/bbbb), a Python or Haskell list of rows (['www','---','bbb']), a Lisp list
/// ((w w w w)(nil nil nil)(nil nil)(nil nil nil)(b b b b)), one row-major string, or for ctf a
/// history list of such strings, most recent first. SIDE is w or b. Results are printed in the
/// format of the input.
///
/// GAME, SIDE and every number are spelt exactly as in the protocol: the names in lower case,
/// numbers with digits only (no sign). A bad argument prints one line on stderr and exits with
/// status 1; `best` on a finished game exits with status 3.
#[derive(Parser, Debug)]
#[command(name = "engine", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

cli::subcommands! {
    /// The one-shot commands; each one's help is its `Args`' doc comment.
    enum Command {
        Movegen(movegen),
        Perft(perft),
        BoardCall(board_call),
        Best(best),
        Solve(solve),
        Bench(bench),
        Tablebase(tablebase),
        Proof(proof),
    }
}

/// The exit status of `engine best` on a finished game.
const GAME_OVER: u8 = 3;

/// The exit status of `engine proof merge` when jobs are still open.
const UNDECIDED: u8 = 2;

fn main() -> ExitCode {
    let cli = match cli::parse::<Cli>() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    // The protocol loop (no subcommand, and board-call) handles a closed output itself.
    if !matches!(cli.command, None | Some(Command::BoardCall(_))) {
        boardgames_tools::default_sigpipe();
    }
    let result = match cli.command {
        None => boardgames_tools::session::run_stdio(
            boardgames_tools::session::SearchBackend::default(),
        )
        .map_err(anyhow::Error::from),
        Some(command) => command.run(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is::<GameOver>() => {
            eprintln!("{e}");
            ExitCode::from(GAME_OVER)
        }
        Err(e) if e.is::<commands::proof::Undecided>() => {
            eprintln!("{e}");
            ExitCode::from(UNDECIDED)
        }
        Err(e) => cli::failure(&e),
    }
}
