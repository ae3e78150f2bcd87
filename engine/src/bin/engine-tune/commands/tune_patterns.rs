//! `engine-tune tune-patterns GAME SIZE FILE... [--exclude FILE]... [--seed S] [--write FILE]`:
//! fit the pattern weights of one size.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use boardgames_core::eval::Evaluate;
use boardgames_core::eval::patterns::{PatternBoard, Shape, encode};
use boardgames_core::games::{Hexapawn, Oska};
use boardgames_tools::tuning::patterns::fit_patterns;

use super::common::{PatternArgs, excluded, file_name, pattern_shape, seed, sets_of};
use crate::cli::emit;

/// Developer tool: fit the pattern weights of one size.
///
/// Fit the pattern weights of the Hexapawn or Oska evaluator of one size to set files (the
/// positions and every position one move after them, with the linear features' score as
/// given; a position of a result set counts alone, aimed at its game's result); prints the
/// fit and, with --write, writes the weights file.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    target: PatternArgs,
    /// Seed deciding the held-out fifth and the order of the examples.
    #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = seed)]
    seed: u64,
    /// Write the weights to this file (engine/core/data/patterns/GAME-SIZE.bin).
    #[arg(long)]
    write: Option<PathBuf>,
}

/// Fits the pattern weights and prints the fit, writing the weights file first with `--write`.
pub fn run(args: Args) -> Result<()> {
    let (target, seed, write_to) = (&args.target, args.seed, args.write.as_deref());
    let shape = pattern_shape(target)?;
    let (files, exclude) = (&target.files, &target.exclude);
    match shape {
        Shape::Square(_) => fit_and_write::<Hexapawn>(shape, files, exclude, seed, write_to),
        Shape::Oska(_) => fit_and_write::<Oska>(shape, files, exclude, seed, write_to),
    }
}

fn fit_and_write<G: Evaluate + PatternBoard>(
    shape: Shape,
    files: &[PathBuf],
    exclude: &[PathBuf],
    seed: u64,
    write_to: Option<&Path>,
) -> Result<()> {
    let (kind, size) = (shape.game(), shape.size());
    let set = sets_of::<G>(files)?;
    // The measured positions and every position one move after them stay out of the fit, so
    // that a blunder rate measured on them does not count positions the weights were fitted on.
    let skip = excluded::<G>(exclude)?;
    let started = std::time::Instant::now();
    let f = fit_patterns(&set, shape, &skip, seed);
    if f.train == 0 {
        bail!("the files hold no {kind} {size} positions to fit");
    }
    // The weights file first, so that a closed output cannot lose it.
    if let Some(path) = write_to {
        let mut by = format!("engine tune-patterns {kind} {size}");
        for p in files {
            by.push_str(&format!(" {}", file_name(p)));
        }
        for p in exclude {
            by.push_str(&format!(" --exclude {}", file_name(p)));
        }
        by.push_str(&format!(" --seed {seed}"));
        std::fs::write(path, encode(shape, &f.weights, &by))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let mut out = format!(
        "{kind} {size}: {} examples fitted, {} held out (seed {seed}), {} positions excluded, {:.1} s\n",
        f.train,
        f.valid,
        f.excluded,
        started.elapsed().as_secs_f64()
    );
    let _ = writeln!(
        out,
        "held-out log-loss: linear features {:.4}, with patterns {:.4} (fitted {:.4})",
        f.valid_loss.0, f.valid_loss.1, f.train_loss
    );
    let _ = writeln!(
        out,
        "held-out decided examples whose winner the score's sign predicts: {:.1}% -> {:.1}%",
        100.0 * f.valid_accuracy.0,
        100.0 * f.valid_accuracy.1
    );
    if let Some(path) = write_to {
        let _ = writeln!(out, "wrote {}", path.display());
    }
    emit(out)
}
