//! The `engine-tune` binary: the developer tools that make labelled position sets, measure the
//! evaluators' blunder rates on them, and fit and refine the evaluators' weights (see
//! docs/development.md, "The evaluator tools"). They are kept out of the user's `engine`.
//!
//! What the tools write (the line of a weights file naming the command that fitted it, the
//! `made by` line of a set, their messages) still names them `engine COMMAND`, as the committed
//! files do, so that a rerun remakes those files byte for byte.

#[path = "../common/cli.rs"]
mod cli;
mod commands;

use std::process::ExitCode;

use clap::Parser;

use commands::{blunders, positions, refine_patterns, refine_weights, tune, tune_patterns};

/// Developer tools that fit the engine's evaluators to exact game values.
///
/// Make sets of positions labelled with exact values or game results, measure the evaluators'
/// blunder rates on them, fit the weights of the evaluators and refine them with the search.
/// The committed weights files name the command that made them. See docs/development.md, "The
/// evaluator tools". Arguments are spelt as in `engine`; a bad argument prints one line on
/// stderr and exits with status 1.
#[derive(Parser, Debug)]
#[command(name = "engine-tune", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

cli::subcommands! {
    /// The tools; each one's help is its `Args`' doc comment.
    enum Command {
        Positions(positions),
        Blunders(blunders),
        Tune(tune),
        TunePatterns(tune_patterns),
        RefinePatterns(refine_patterns),
        RefineWeights(refine_weights),
    }
}

fn main() -> ExitCode {
    let cli = match cli::parse::<Cli>() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    boardgames_tools::default_sigpipe();
    let result = cli.command.run();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => cli::failure(&e),
    }
}
