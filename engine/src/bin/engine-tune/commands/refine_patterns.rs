//! `engine-tune refine-patterns GAME SIZE FILE... [--exclude FILE]... [--from FILE] [--depths D]
//! [--epochs N] [--rate R] [--temperature T] [--threads K] [--write FILE]`: refine the pattern
//! weights with the search.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use boardgames_core::eval::Evaluate;
use boardgames_core::eval::patterns::{PatternBoard, Shape, Weights, committed, decode, encode};
use boardgames_core::games::{Game, Hexapawn, Oska};
use boardgames_tools::tuning::positions::Labelled;
use boardgames_tools::tuning::refine::{Options as RefineOptions, refine};

use super::common::{
    PatternArgs, RefineArgs, excluded, file_name, pattern_shape, refine_options, report_epoch,
    sets_of,
};
use crate::cli::emit;

/// Developer tool: refine the pattern weights with the search.
///
/// Refine the pattern weights of the Hexapawn or Oska evaluator of one size with the search:
/// gradient steps on a pairwise loss so that searches to DEPTHS, in the critical positions
/// of the set files, score a move that keeps the exact value above every move that throws
/// it away (docs/research/2026-11-24-strength.md,
/// "Refining the weights with the search"); prints each epoch's blunders
/// and, with --write, writes the weights file.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    target: PatternArgs,
    /// The weights to start from: a file written by `engine-tune tune-patterns` (default: the
    /// committed weights of the size).
    #[arg(long)]
    from: Option<PathBuf>,
    #[command(flatten)]
    refine: RefineArgs,
    /// Write the weights to this file (engine/core/data/patterns/GAME-SIZE.bin).
    #[arg(long)]
    write: Option<PathBuf>,
}

/// Refines the weights, reporting each epoch on stderr, and writes them with `--write`.
pub fn run(args: Args) -> Result<()> {
    let options = &refine_options(&args.refine, 100, 0.05)?;
    let (target, from, write_to) = (&args.target, args.from.as_deref(), args.write.as_deref());
    let shape = pattern_shape(target)?;
    let (files, exclude) = (&target.files, &target.exclude);
    let start = match from {
        Some(path) => {
            let bytes =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            decode(shape, &bytes).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
        }
        None => committed(shape).cloned().with_context(|| {
            format!(
                "{} {} has no committed pattern weights: give --from",
                shape.game(),
                shape.size()
            )
        })?,
    };
    match shape {
        Shape::Square(_) => {
            refine_and_write::<Hexapawn>(shape, files, exclude, &start, options, write_to)
        }
        Shape::Oska(_) => {
            refine_and_write::<Oska>(shape, files, exclude, &start, options, write_to)
        }
    }
}

fn refine_and_write<G: Evaluate + PatternBoard>(
    shape: Shape,
    files: &[PathBuf],
    exclude: &[PathBuf],
    start: &Weights,
    options: &RefineOptions,
    write_to: Option<&Path>,
) -> Result<()> {
    let (kind, size) = (shape.game(), shape.size());
    let skip = excluded::<G>(exclude)?;
    let all = sets_of::<G>(files)?;
    let total = all.len();
    let set: Vec<Labelled<G>> = all
        .into_iter()
        .filter(|l| {
            let pos = l.line.current();
            pos.shape() == shape && !skip.contains(&Game::hash(pos))
        })
        .collect();
    if set.iter().all(|l| !l.critical()) {
        bail!("the files hold no critical {kind} {size} positions to refine on");
    }
    let started = std::time::Instant::now();
    eprintln!(
        "{kind} {size}: {} positions of {total} ({} critical), depths {:?}",
        set.len(),
        set.iter().filter(|l| l.critical()).count(),
        options.depths
    );
    let weights = refine(&set, &start.weights, options, &mut |e| {
        report_epoch(e, "blunders", started);
    });
    if let Some(path) = write_to {
        let depths: Vec<String> = options.depths.iter().map(u32::to_string).collect();
        let mut by = format!(
            "{}, then engine refine-patterns {kind} {size}",
            start.fitted_by
        );
        for p in files {
            by.push_str(&format!(" {}", file_name(p)));
        }
        for p in exclude {
            by.push_str(&format!(" --exclude {}", file_name(p)));
        }
        by.push_str(&format!(
            " --depths {} --epochs {} --rate {} --temperature {}",
            depths.join(","),
            options.epochs,
            options.rate,
            options.temperature
        ));
        std::fs::write(path, encode(shape, &weights, &by))
            .with_context(|| format!("cannot write {}", path.display()))?;
        emit(format!("wrote {}\n", path.display()))?;
    }
    Ok(())
}
