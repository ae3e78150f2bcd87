//! `engine-tune blunders FILE... [--evals E,...] [--depths 1-6] [--show]`: the blunder rates
//! of evaluators on sets.

use std::path::PathBuf;

use anyhow::{Result, bail};
use boardgames_core::eval::{EvalKind, Evaluate};
use boardgames_core::games::notation::move_name;
use boardgames_core::with_game;
use boardgames_tools::tuning::blunders::blunders_in;
use boardgames_tools::tuning::positions::{score_text, write};

use super::common::{SetFile, parse_depths, parse_evals};
use crate::cli::emit;

/// Developer tool: measure the evaluators' blunder rates on position sets.
///
/// Print blunder rates: for each evaluator and depth, the share of a set's critical positions
/// (where some move throws the value away) in which the searched move throws it away.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Set files made by `engine-tune positions`.
    files: Vec<PathBuf>,
    /// Evaluators, comma-separated, or all: tuned, legacy, material, classic-advance,
    /// classic-race.
    #[arg(long, default_value = "all")]
    evals: String,
    /// Depths: a range such as 1-6 or a list such as 3,4.
    #[arg(long, default_value = "1-6")]
    depths: String,
    /// After the table, each blunder as a line of a set, under a comment naming the
    /// evaluator, the depth and the move it plays.
    #[arg(long)]
    show: bool,
}

/// Prints a table of rates for each set file (and each blunder with `--show`).
pub fn run(args: Args) -> Result<()> {
    let (files, show) = (&args.files, args.show);
    let (evals, depths) = (args.evals.as_str(), args.depths.as_str());
    let evals = parse_evals(evals, "--evals")?;
    let depths = parse_depths(depths)?;
    if files.is_empty() {
        bail!("give at least one set file (made by engine positions)");
    }
    for path in files {
        let file = SetFile::open(path)?;
        let table = with_game!(file.kind, G => blunders_of::<G>(&file, &evals, &depths, show))?;
        emit(format!("{table}\n"))?;
    }
    Ok(())
}

fn blunders_of<G: Evaluate>(
    file: &SetFile,
    evals: &[EvalKind],
    depths: &[u32],
    show: bool,
) -> Result<String> {
    let path = file.path;
    let set = file.positions::<G>()?;
    if !set.iter().any(|l| l.exact) {
        bail!(
            "{} holds game results, not exact values: blunder rates need a set made without --results",
            path.display()
        );
    }
    let mut out = format!("{}: {} positions", path.display(), set.len());
    let critical = set.iter().filter(|l| l.critical()).count();
    out.push_str(&format!(", {critical} critical\n"));
    out.push_str(&format!("{:<16}", "evaluator"));
    for d in depths {
        out.push_str(&format!(" {:>7}", format!("d{d}")));
    }
    out.push('\n');
    // Each evaluator and depth searched once: the table's rate, and with `show` each blunder
    // as a line of a set under a comment naming the evaluator, the depth and the move played.
    let mut shown = String::new();
    for &e in evals {
        out.push_str(&format!("{:<16}", e.name()));
        for &d in depths {
            let (rate, found) = blunders_in(&set, e, d);
            out.push_str(&format!(" {:>6.1}%", rate.percent()));
            if !show {
                continue;
            }
            for b in &found {
                let played = move_name(b.pos.line.current(), b.played);
                let chose = format!(
                    "{} at depth {d} plays {played}={}",
                    e.name(),
                    score_text(b.keeps)
                );
                shown.push_str(&write(std::slice::from_ref(b.pos), &[chose]));
            }
        }
        out.push('\n');
    }
    if show {
        // The set's own `# GAME size N` header first, so that the lines shown read as a set.
        out.push_str(&format!(
            "{}: blunders in {}\n",
            file.game_size,
            path.display()
        ));
        out.push_str(&shown);
    }
    Ok(out)
}
