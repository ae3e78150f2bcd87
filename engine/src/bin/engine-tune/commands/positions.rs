//! `engine-tune positions GAME SIZE --count N --seed S --budget NODES --history H --out FILE
//! [--results EVALS [--depths DEPTHS]] [--opening PLIES] [--tablebase DIR]`: make a labelled set.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use boardgames_core::with_game;
use boardgames_tools::tuning::positions::{
    RESULT_DEPTHS, SetSpec, generate_opening, generate_probed, generate_results, write,
};

use super::common::{GameSize, parse_depths, parse_evals, positive, positive_u64, seed};
use crate::cli::{digits, hash_mib};

/// Developer tool: make a set of positions labelled with exact values.
///
/// Make a set of positions labelled with exact values (random and engine play from the start,
/// each kept position solved with all its moves), or with game results (--results), for
/// `engine-tune blunders` and `engine-tune tune`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    at: GameSize,
    /// Positions wanted.
    #[arg(long, default_value_t = 2000, allow_hyphen_values = true, value_parser = positive)]
    count: usize,
    /// Seed of the random choices (the same seed gives the same set).
    #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = seed)]
    seed: u64,
    /// The most nodes one solve may take; positions that need more are left out.
    #[arg(long, default_value_t = 2_000_000, allow_hyphen_values = true, value_parser = positive_u64)]
    budget: u64,
    /// Capture the Flag: earlier boards kept with each position (the history rule), 0 to 1000.
    #[arg(long, default_value_t = 4, allow_hyphen_values = true, value_parser = history_boards)]
    history: usize,
    /// Transposition table of the solver in MiB, from 1 to the memory free.
    #[arg(long, default_value_t = 256, allow_hyphen_values = true, value_parser = hash_mib)]
    hash: usize,
    /// Label positions with the results of games between engines using these evaluators
    /// (comma-separated, or all) instead of exact values: for sizes too large to solve.
    #[arg(long)]
    results: Option<String>,
    /// With --results: the depths the players search to, each game's side a random one
    /// (a range such as 2-4 or a list such as 4,6).
    #[arg(long, value_name = "DEPTHS", requires = "results")]
    depths: Option<String>,
    /// Instead of games: every distinct position within PLIES plies of the start (at most
    /// --count), each solved with all its moves.
    #[arg(long, value_name = "PLIES", allow_hyphen_values = true, value_parser = plies)]
    opening: Option<usize>,
    /// The file to write.
    #[arg(long)]
    out: PathBuf,
    /// Exact tables (see `engine tablebase`) the solver probes: positions they cover are
    /// labelled at once, so sets of games the solver alone cannot reach can start earlier.
    #[arg(long, value_name = "DIR")]
    tablebase: Option<PathBuf>,
}

/// PLIES of `--opening`: 0 to 40.
fn plies(text: &str) -> Result<usize, String> {
    digits(text, 0, 40)
}

/// Boards of history kept: 0 to 1000.
fn history_boards(text: &str) -> Result<usize, String> {
    digits(text, 0, 1000)
}

/// Makes the set and writes it to `--out`, reporting progress on stderr.
pub fn run(args: Args) -> Result<()> {
    let spec = &SetSpec {
        size: args.at.size,
        count: args.count,
        seed: args.seed,
        budget: args.budget,
        history: args.history,
        hash_mib: args.hash,
    };
    let (results, depths) = (args.results.as_deref(), args.depths.as_deref());
    let (opening, tablebase, out) = (args.opening, args.tablebase.as_deref(), &args.out);
    if results.is_some() && opening.is_some() {
        bail!("--results and --opening cannot be used together: an opening set is solved exactly");
    }
    let evals = results.map(|r| parse_evals(r, "--results")).transpose()?;
    let players = match depths {
        Some(text) => parse_depths(text)?,
        None => RESULT_DEPTHS.to_vec(),
    };
    let kind = args.at.game;
    kind.check_size(spec.size)?;
    let started = std::time::Instant::now();
    let text = with_game!(kind, G => {
        let mut report = |kept: usize, tried: usize| {
            if kept.is_multiple_of(100) {
                eprintln!("{kept} positions kept, {tried} tried, {:.0} s", started.elapsed().as_secs_f64());
            }
        };
        let set = match &evals {
            Some(e) => generate_results::<G>(spec, e, &players, &mut report),
            None => {
                let probe = match tablebase {
                    Some(dir) => boardgames_core::tablebase::probe_for::<G>(dir, spec.size, 1 << 30)
                        .with_context(|| format!("the tablebase in {}", dir.display()))?,
                    None => None,
                };
                match opening {
                    Some(plies) => generate_opening::<G>(spec, plies, probe, &mut report),
                    None => generate_probed::<G>(spec, probe, &mut report),
                }
            }
        };
        let critical = set.iter().filter(|l| l.critical()).count();
        write(&set, &[
            format!(
                "{kind} size {}: {} positions ({critical} where a move throws the value away)",
                spec.size, set.len()
            ),
            format!(
                "made by: engine positions {kind} {} --count {} --seed {} --budget {} --history {}{}{}",
                spec.size, spec.count, spec.seed, spec.budget, spec.history,
                results.map_or(String::new(), |r| format!(" --results {r}"))
                    + &depths.map_or(String::new(), |d| format!(" --depths {d}"))
                    + &opening.map_or(String::new(), |p| format!(" --opening {p}")),
                if tablebase.is_some() { " --tablebase DIR" } else { "" }
            ),
            if results.is_some() {
                "BOARD SIDE RESULT: the result of the game the position came from, for SIDE (rw, rd, rl)".into()
            } else {
                "BOARD SIDE VALUE MOVE=VALUE...: values are exact, wK/lK win/lose in K plies, d draw".into()
            },
        ])
    });
    std::fs::write(out, text).with_context(|| format!("cannot write {}", out.display()))?;
    eprintln!(
        "wrote {} in {:.1} s",
        out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
