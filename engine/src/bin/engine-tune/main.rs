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

use clap::{Parser, Subcommand};

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

/// The tools; each one's help is its `Args`' doc comment.
#[derive(Subcommand, Debug)]
enum Command {
    Positions(commands::positions::Args),
    Blunders(commands::blunders::Args),
    Tune(commands::tune::Args),
    TunePatterns(commands::tune_patterns::Args),
    RefinePatterns(commands::refine_patterns::Args),
    RefineWeights(commands::refine_weights::Args),
}

fn main() -> ExitCode {
    let cli = match cli::parse::<Cli>() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    boardgames_tools::default_sigpipe();
    let result = match cli.command {
        Command::Positions(args) => commands::positions::run(args),
        Command::Blunders(args) => commands::blunders::run(args),
        Command::Tune(args) => commands::tune::run(args),
        Command::TunePatterns(args) => commands::tune_patterns::run(args),
        Command::RefinePatterns(args) => commands::refine_patterns::run(args),
        Command::RefineWeights(args) => commands::refine_weights::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => cli::failure(&e),
    }
}
