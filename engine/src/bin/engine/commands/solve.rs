//! `engine solve GAME BOARD SIDE [--hash MIB] [--threads N] [--tablebase DIR]`.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::Result;
use engine::games::{Game, GameKind};
use engine::score::Score;
use engine::search::{Event, Limits, Searcher};
use engine::tablebase::MEMORY_LIMIT;
use engine::with_game;

use super::common::{Position, TablebaseArg, tables, threads};
use crate::cli::{emit, hash_mib};

/// Solve a position exactly: win K, loss K or draw.
///
/// Solve the position exactly: the last line is `win K`, `loss K` or `draw` for SIDE (K plies
/// to the end with best play). Progress goes to stderr.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    position: Position,
    /// Transposition table size in MiB, from 1 to the memory free.
    #[arg(long, default_value_t = 64, allow_hyphen_values = true, value_parser = hash_mib)]
    hash: usize,
    /// Threads sharing the table (Oska and Hexapawn; 1 is deterministic, more are faster but
    /// their node counts vary from run to run; the value is exact either way).
    #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = threads)]
    threads: u32,
    #[command(flatten)]
    tablebase: TablebaseArg,
}

/// Answers from the tables when they cover the position, else by the solver (which probes the
/// tables at its nodes).
pub fn run(args: Args) -> Result<()> {
    let Args {
        position,
        hash,
        threads,
        tablebase,
    } = args;
    let threads = threads as usize;
    let kind = GameKind::parse(&position.game)?;
    let tablebase = tablebase.dir()?;
    let tablebase = tablebase.as_deref();
    with_game!(kind, G => {
        let parsed = position.read::<G>()?;
        let pos = *parsed.line.current();
        // A covered position is answered at once, reading a few values from the files.
        if let (Some(dir), Some(value)) =
            (tablebase, tables::<G>(tablebase, pos.size(), 0)?.and_then(|p| p(&pos)))
        {
            eprintln!("from the tablebase in {}", dir.display());
            return emit(format!("{value}\n"));
        }
        let mut searcher = Searcher::<G>::new(hash);
        searcher.set_probe(tables::<G>(tablebase, pos.size(), MEMORY_LIMIT)?);
        let limits = Limits { solve: true, threads, ..Limits::default() };
        // The search reports once a second; stderr gets one line in ten, and each stage's end.
        let mut shown = Duration::ZERO;
        let result = searcher.search(&parsed.line, &limits, &AtomicBool::new(false), &mut |e| {
            if let Event::Iteration(i) = e {
                eprintln!(
                    "depth {} score {} nodes {} time {:.3}s nps {}",
                    i.depth,
                    i.score,
                    i.nodes,
                    i.time.as_secs_f64(),
                    i.nps()
                );
            }
            if let Event::Progress(p) = e
                && (p.bound.is_some() || p.time >= shown + Duration::from_secs(10))
            {
                shown = p.time;
                eprintln!("{p}");
            }
        });
        let answer = match result.score {
            Score::Win(k) => format!("win {k}"),
            Score::Loss(k) => format!("loss {k}"),
            Score::Draw => "draw".to_string(),
            Score::Cp(_) => anyhow::bail!(
                "not solved: the search reached its limit of {} plies without proving a result",
                result.depth
            ),
        };
        emit(format!("{answer}\n"))
    })
}
