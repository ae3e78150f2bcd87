//! What the evaluator tools share: reading set files, the spelling of their depths, evaluators
//! and numbers, and the argument groups of the pattern-weights commands (`tune-patterns`,
//! `refine-patterns`) and of the refinements with the search (`refine-patterns`,
//! `refine-weights`).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use boardgames_core::eval::patterns::Shape;
use boardgames_core::eval::{EvalKind, Evaluate};
use boardgames_core::games::{Game, GameKind};
use boardgames_tools::tuning::positions::{Labelled, read};
use boardgames_tools::tuning::refine::{Epoch, Options as RefineOptions};
use clap::Args;

use crate::cli::{board_size, digits, game_kind};

/// GAME and SIZE of `positions` and `refine-weights` (a command may reword their help with
/// `#[command(mut_arg(...))]`).
#[derive(Args, Debug, Clone)]
pub struct GameSize {
    /// oska, hexapawn or ctf.
    #[arg(value_parser = game_kind)]
    pub game: GameKind,
    /// The size (pieces a side for Oska, board width otherwise).
    #[arg(allow_hyphen_values = true, value_parser = board_size)]
    pub size: usize,
}

/// The game, size and set files of a pattern-weights command (`tune-patterns`,
/// `refine-patterns`).
#[derive(Args, Debug, Clone)]
pub struct PatternArgs {
    /// hexapawn or oska.
    #[arg(value_parser = game_kind)]
    pub game: GameKind,
    /// The size (board width, or Oska's pieces a side).
    #[arg(allow_hyphen_values = true, value_parser = board_size)]
    pub size: usize,
    /// Set files of GAME made by `engine-tune positions` (exact values; `tune-patterns` also
    /// takes game results made with --results).
    pub files: Vec<PathBuf>,
    /// Set files whose positions, and the positions one move after them, are left out (the
    /// sets `engine-tune blunders` measures on); may be given more than once.
    #[arg(long)]
    pub exclude: Vec<PathBuf>,
}

/// The settings of a refinement with the search (`refine-patterns`, `refine-weights`).
#[derive(Args, Debug, Clone)]
pub struct RefineArgs {
    /// Depths searched: a range such as 3-4 or a list such as 3,4.
    #[arg(long, default_value = "3,4")]
    pub depths: String,
    /// Gradient steps (default 100 for refine-patterns, 30 for refine-weights).
    #[arg(long)]
    pub epochs: Option<usize>,
    /// Step size (default 0.05 for refine-patterns; for refine-weights, about how many units
    /// each weight moves an epoch, default 1).
    #[arg(long)]
    pub rate: Option<f64>,
    /// Temperature of the pairwise loss, in evaluation units.
    #[arg(long, default_value_t = 100.0)]
    pub temperature: f64,
    /// Threads searching, 1 to 64 (the weights do not depend on it).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: u16,
}

/// A whole number from 1.
pub(crate) fn positive(text: &str) -> Result<usize, String> {
    digits(text, 1, usize::MAX)
}

/// A whole number from 1, of 64 bits.
pub(crate) fn positive_u64(text: &str) -> Result<u64, String> {
    digits(text, 1, u64::MAX)
}

/// A seed: any whole number of 64 bits.
pub(crate) fn seed(text: &str) -> Result<u64, String> {
    digits(text, 0, u64::MAX)
}

/// A set file read from disk: its game (from the `# GAME size N` header) and its text.
pub struct SetFile<'a> {
    /// The file.
    pub path: &'a Path,
    /// Its game.
    pub kind: GameKind,
    /// The header's `# GAME size N`, without what follows its colon.
    pub game_size: String,
    text: String,
}

impl<'a> SetFile<'a> {
    /// Reads the file and its header, naming the file in errors.
    pub fn open(path: &'a Path) -> Result<Self> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let first = text
            .lines()
            .find(|l| l.starts_with("# ") && l.contains(" size "))
            .with_context(|| format!("{}: no '# GAME size N' header line", path.display()))?;
        let word = first[2..].split_whitespace().next().unwrap_or_default();
        let kind = GameKind::parse(word)?;
        let game_size = first.split(':').next().unwrap_or_default().to_string();
        Ok(SetFile {
            path,
            kind,
            game_size,
            text,
        })
    }

    /// The positions, naming the file in errors.
    pub fn positions<G: Game>(&self) -> Result<Vec<Labelled<G>>> {
        read::<G>(&self.text).map_err(|e| anyhow::anyhow!("{}: {e}", self.path.display()))
    }
}

/// Parses `1-6` or `3` or `1,3,5`.
pub fn parse_depths(text: &str) -> Result<Vec<u32>> {
    let mut out = Vec::new();
    for part in text.split(',') {
        let bad = || anyhow::anyhow!("--depths '{text}': use a range such as 1-6 or a list 3,4");
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (u32, u32) =
                    (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
                if a == 0 || a > b || b > 64 {
                    return Err(bad());
                }
                out.extend(a..=b);
            }
            None => {
                let d: u32 = part.parse().map_err(|_| bad())?;
                if d == 0 || d > 64 {
                    return Err(bad());
                }
                out.push(d);
            }
        }
    }
    Ok(out)
}

/// Parses `tuned,legacy` (or `all`).
pub fn parse_evals(text: &str, option: &str) -> Result<Vec<EvalKind>> {
    if text == "all" {
        return Ok(EvalKind::ALL.to_vec());
    }
    text.split(',')
        .map(|t| EvalKind::parse(t).map_err(|e| anyhow::anyhow!("{option}: {e}")))
        .collect()
}

/// Reads set files of game `G`, naming the file in errors.
pub fn sets_of<G: Game>(files: &[PathBuf]) -> Result<Vec<Labelled<G>>> {
    let mut set = Vec::new();
    for path in files {
        let file = SetFile::open(path)?;
        if file.kind != G::KIND {
            bail!(
                "{} holds {} positions, not {}",
                path.display(),
                file.kind,
                G::KIND
            );
        }
        set.extend(file.positions::<G>()?);
    }
    Ok(set)
}

/// The pattern shape of the target's game and size, checked to have pattern terms and set files.
pub fn pattern_shape(target: &PatternArgs) -> Result<Shape> {
    let kind = target.game;
    kind.check_size(target.size)?;
    let Some(shape) = Shape::of(kind, target.size) else {
        bail!("{kind} has no pattern terms (hexapawn and oska have)");
    };
    if target.files.is_empty() {
        bail!("give at least one {kind} set file (made by engine positions)");
    }
    Ok(shape)
}

/// The refinement settings of `args`, with the command's default epochs and rate, checked.
pub fn refine_options(args: &RefineArgs, epochs: usize, rate: f64) -> Result<RefineOptions> {
    let rate = args.rate.unwrap_or(rate);
    if !(rate.is_finite() && rate > 0.0) {
        bail!("--rate must be a positive number, not {rate}");
    }
    if !(args.temperature.is_finite() && args.temperature > 0.0) {
        bail!(
            "--temperature must be a positive number, not {}",
            args.temperature
        );
    }
    Ok(RefineOptions {
        depths: parse_depths(&args.depths)?,
        epochs: args.epochs.unwrap_or(epochs),
        rate,
        temperature: args.temperature,
        threads: usize::from(args.threads),
    })
}

/// Prints one epoch of a refinement; `misses` names the searches it counts.
pub fn report_epoch(e: &Epoch, misses: &str, started: std::time::Instant) {
    let share = |n: usize, of: usize| 100.0 * n as f64 / of.max(1) as f64;
    let exact = e.exact.map_or(String::new(), |(b, n)| {
        format!(
            ", {b} blunders in {n} searches of exact positions ({:.2}%)",
            share(b, n)
        )
    });
    eprintln!(
        "epoch {}: {} {misses} in {} searches ({:.2}%){exact}, pair loss {:.4} over {} pairs, {:.0} s",
        e.epoch,
        e.blunders,
        e.searches,
        share(e.blunders, e.searches),
        e.loss,
        e.pairs,
        started.elapsed().as_secs_f64()
    );
}

/// The hashes of the positions of the `exclude` sets and of every position one move after them.
pub fn excluded<G: Evaluate>(exclude: &[PathBuf]) -> Result<HashSet<u64>> {
    let mut skip = HashSet::new();
    for l in sets_of::<G>(exclude)? {
        let pos = *l.line.current();
        skip.insert(Game::hash(&pos));
        skip.extend(l.moves.iter().map(|&(mv, _)| Game::hash(&pos.play(mv))));
    }
    Ok(skip)
}

/// A set file's name without its directory, as the fitting commands name their inputs.
pub fn file_name(p: &Path) -> String {
    p.file_name().map_or_else(
        || p.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}
