//! `engine proof check`: proof certificates (see `boardgames_core::certificate`).

mod check;

use anyhow::Result;
use clap::Subcommand;

/// Check proof certificates.
///
/// Proof certificates: the proof tree of a value, written by `engine solve --proof
/// --certificate FILE`. `check` verifies one with the rules and the tables only.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

/// What `engine proof` does.
#[derive(Subcommand, Debug)]
enum Action {
    Check(check::Args),
}

/// Runs the action.
pub fn run(args: Args) -> Result<()> {
    match args.action {
        Action::Check(args) => check::run(args),
    }
}
