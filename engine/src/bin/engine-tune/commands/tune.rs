//! `engine-tune tune GAME FILE... [--seed S] [--write FILE]`: fit an evaluator's weights to
//! sets.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use boardgames_core::eval::Evaluate;
use boardgames_core::games::GameKind;
use boardgames_core::with_game;
use boardgames_tools::tuning::fit::{fit, loss_of, weights_file};

use super::common::{file_name, seed, sets_of};
use crate::cli::{emit, game_kind};

/// Developer tool: fit a game's tuned evaluator to position sets.
///
/// Fit the weights of GAME's tuned evaluator to set files by logistic regression on the
/// exact values; prints the fit and, with --write, writes the weights file.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// oska, hexapawn or ctf.
    #[arg(value_parser = game_kind)]
    game: GameKind,
    /// Set files made by `engine-tune positions`.
    files: Vec<PathBuf>,
    /// Seed deciding the held-out fifth.
    #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = seed)]
    seed: u64,
    /// Write the weights to this file (engine/core/src/eval/weights_GAME.rs).
    #[arg(long)]
    write: Option<PathBuf>,
}

/// Fits the weights and prints the fit, writing the weights file first with `--write`.
pub fn run(args: Args) -> Result<()> {
    let (kind, files, seed) = (args.game, &args.files, args.seed);
    let write_to = args.write.as_deref();
    if files.is_empty() {
        bail!("give at least one set file of {kind} (made by engine positions)");
    }
    with_game!(kind, G => {
        let set = sets_of::<G>(files)?;
        let before = loss_of(&set, G::weights());
        let f = fit(&set, seed);
        // The weights file first, so that a closed output cannot lose it.
        if let Some(path) = write_to {
            let names: Vec<String> = files.iter().map(|p| file_name(p)).collect();
            let by = format!("engine tune {kind} {} --seed {seed}", names.join(" "));
            std::fs::write(path, weights_file::<G>(&f.weights, &by, None))
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        let mut out = String::new();
        let _ = writeln!(out, "{kind}: {} positions fitted, {} held out (seed {seed})", f.train, f.valid);
        let _ = writeln!(out, "log-loss: fitted {:.4}, held out {:.4}; current weights {:.4} on all", f.train_loss, f.valid_loss, before);
        let _ = writeln!(out, "held-out decided positions whose winner the score's sign predicts: {:.1}%", 100.0 * f.valid_accuracy);
        let _ = writeln!(out, "{:<16} {:>8} {:>8}", "feature", "current", "fitted");
        for (i, name) in G::FEATURE_NAMES.iter().enumerate() {
            let _ = writeln!(out, "{name:<16} {:>8} {:>8}", G::weights()[i], f.weights[i]);
        }
        if let Some(path) = write_to {
            let _ = writeln!(out, "wrote {}", path.display());
        }
        emit(out)
    })
}
