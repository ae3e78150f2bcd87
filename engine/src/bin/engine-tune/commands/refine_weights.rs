//! `engine-tune refine-weights ctf SIZE ...`: the games, the teacher's moves, then the
//! refinement of Capture the Flag's weights.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use boardgames_core::eval::{Evaluate, ctf};
use boardgames_core::games::{Ctf, Game, GameKind};
use boardgames_tools::tuning::fit::weights_file;
use boardgames_tools::tuning::positions::Labelled;
use boardgames_tools::tuning::refine::refine_linear;
use boardgames_tools::tuning::teach::{Games, taught};

use super::common::{
    GameSize, RefineArgs, file_name, parse_evals, refine_options, report_epoch, seed, sets_of,
};
use crate::cli::emit;

/// Developer tool: refine Capture the Flag's weights, taught by a deeper search.
///
/// Refine the linear weights of the Capture the Flag evaluator for one board size, and a
/// piece-square term of that size (a weight for each kind of piece on each square, started
/// at 0), with the search, taught by a deeper search. It starts from the weights of
/// `engine-tune tune` (weights_ctf.rs), with which the tuned player plays games at --depth against the
/// classic evaluators; in each position where it is to move before --max-ply, the same
/// player searched to --teacher-depth gives the teacher's move; gradient steps on a
/// pairwise loss then make searches to DEPTHS score the teacher's move above every other
/// (docs/research/2026-11-24-strength.md,
/// "Capture the Flag 5: refined by a deeper search"). Prints each epoch's agreement
/// and, with --write, writes a weights file for that size only.
#[derive(clap::Args, Debug)]
#[command(
    mut_arg("game", |a| a.help("ctf (Oska and Hexapawn have pattern terms: see refine-patterns)")),
    mut_arg("size", |a| a.help("Board width of the games"))
)]
pub struct Args {
    #[command(flatten)]
    at: GameSize,
    /// Openings; each is played twice, the tuned evaluator once with each colour.
    #[arg(long, default_value_t = 300)]
    openings: usize,
    /// Random plies of an opening.
    #[arg(long, default_value_t = 4)]
    plies: usize,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1000, allow_hyphen_values = true, value_parser = seed)]
    seed: u64,
    /// Depth of both players in the games.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
    /// The opponents, comma-separated, in turn from one opening to the next.
    #[arg(long, default_value = "classic-race,material,classic-advance")]
    opponents: String,
    /// Positions are kept before this ply of a game (counted from the start).
    #[arg(long, default_value_t = 200)]
    max_ply: usize,
    /// Depth of the teacher's search.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=64))]
    teacher_depth: u32,
    /// A set file of exactly labelled positions (from `engine-tune positions`) whose critical
    /// positions of SIZE join the taught ones, judged by their exact values (repeat for
    /// several).
    #[arg(long, value_name = "FILE")]
    exact: Vec<PathBuf>,
    /// How many taught positions' pairs one pair of an exact position counts as (few exact
    /// positions have both a move that keeps the value and one that throws it away).
    #[arg(long, default_value_t = 25.0)]
    exact_weight: f64,
    #[command(flatten)]
    refine: RefineArgs,
    /// Write the weights to this file (engine/core/src/eval/weights_ctf_refined.rs, which the
    /// evaluator uses at the size it names).
    #[arg(long)]
    write: Option<PathBuf>,
}

/// Plays the games, refines the weights, reporting each epoch on stderr, and prints them
/// (writing the weights file first with `--write`).
pub fn run(args: Args) -> Result<()> {
    let options = &refine_options(&args.refine, 30, 1.0)?;
    let games = &Games {
        size: args.at.size,
        openings: args.openings,
        plies: args.plies,
        seed: args.seed,
        depth: args.depth,
        opponents: parse_evals(&args.opponents, "--opponents")?,
        max_ply: args.max_ply,
    };
    let (kind, teacher_depth) = (args.at.game, args.teacher_depth);
    let (exact, exact_weight) = (args.exact.as_slice(), args.exact_weight);
    let write_to = args.write.as_deref();
    kind.check_size(games.size)?;
    if kind != GameKind::Ctf {
        bail!(
            "{kind} has pattern terms: refine them with refine-patterns (refine-weights refines ctf's linear weights)"
        );
    }
    if games.openings == 0 || games.max_ply <= games.plies {
        bail!("no positions to refine on: give --openings above 0 and --max-ply above --plies");
    }
    if !(exact_weight.is_finite() && exact_weight > 0.0) {
        bail!("--exact-weight must be a positive number, not {exact_weight}");
    }
    let labelled: Vec<Labelled<Ctf>> = sets_of::<Ctf>(exact)?
        .into_iter()
        .filter(|l| l.line.current().size() == games.size)
        .collect();
    let critical = labelled.iter().filter(|l| l.critical()).count();
    if !exact.is_empty() && critical == 0 {
        bail!(
            "the --exact files hold no critical ctf {} positions",
            games.size
        );
    }
    let started = std::time::Instant::now();
    // Always from the weights of `engine-tune tune`, so that a rerun remakes the committed file.
    let fitted = Ctf::weights();
    let taught = taught::<Ctf>(games, fitted, teacher_depth, options.threads);
    // The piece-square term starts at 0.
    let mut start = fitted.to_vec();
    start.resize(fitted.len() + ctf::piece_square_len(games.size), 0);
    eprintln!(
        "ctf {}: {} positions from {} games, taught at depth {teacher_depth}, {:.0} s",
        games.size,
        taught.len(),
        2 * games.openings,
        started.elapsed().as_secs_f64()
    );
    if critical > 0 {
        eprintln!("and {critical} critical positions of the --exact files");
    }
    let weights = refine_linear(
        &taught,
        &labelled,
        exact_weight,
        &start,
        options,
        &mut |e| {
            report_epoch(e, "moves unlike the teacher's", started);
        },
    );
    // The weights file first, so that a closed output cannot lose it.
    if let Some(path) = write_to {
        let opponents: Vec<String> = games.opponents.iter().map(|e| e.to_string()).collect();
        let depths: Vec<String> = options.depths.iter().map(u32::to_string).collect();
        let by = format!(
            "{}, then engine refine-weights ctf {} --openings {} --plies {} --seed {} --depth {} \
             --opponents {} --max-ply {} --teacher-depth {teacher_depth}{} --depths {} --epochs {} \
             --rate {} --temperature {}",
            boardgames_core::eval::weights_ctf::FITTED_BY,
            games.size,
            games.openings,
            games.plies,
            games.seed,
            games.depth,
            opponents.join(","),
            games.max_ply,
            exact
                .iter()
                .map(|p| format!(" --exact {}", file_name(p)))
                .chain((!exact.is_empty()).then(|| format!(" --exact-weight {exact_weight}")))
                .collect::<String>(),
            depths.join(","),
            options.epochs,
            options.rate,
            options.temperature
        );
        std::fs::write(path, weights_file::<Ctf>(&weights, &by, Some(games.size)))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let now = Ctf::weights_at(games.size);
    let mut out = format!(
        "{:<16} {:>8} {:>8} {:>8}\n",
        "feature", "fitted", "in use", "refined"
    );
    for (i, name) in Ctf::FEATURE_NAMES.iter().enumerate() {
        let _ = writeln!(
            out,
            "{name:<16} {:>8} {:>8} {:>8}",
            fitted[i], now[i], weights[i]
        );
    }
    let k = Ctf::FEATURE_NAMES.len();
    let _ = writeln!(
        out,
        "piece-square term (rows from the home row, each from the edge to the middle):"
    );
    let half = games.size.div_ceil(2);
    let per_kind = ctf::square_classes(games.size);
    for (kind, w) in ["own pawn", "own flag", "enemy pawn", "enemy flag"]
        .iter()
        .zip(weights[k..].chunks(per_kind))
    {
        let rows: Vec<String> = w.chunks(half).map(|r| format!("{r:?}")).collect();
        let _ = writeln!(out, "{kind:<16} {}", rows.join(" "));
    }
    if let Some(path) = write_to {
        let _ = writeln!(out, "wrote {}", path.display());
    }
    emit(out)
}
