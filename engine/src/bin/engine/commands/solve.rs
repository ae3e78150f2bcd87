//! `engine solve GAME BOARD SIDE [--hash MIB] [--threads N] [--tablebase DIR] [--proof [--nodes N]]`.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::Result;
use boardgames_core::games::{Game, GameKind};
use boardgames_core::score::Score;
use boardgames_core::search::{Event, Limits, Proof, ProofSearch, SEARCH_STACK, Searcher};
use boardgames_core::tablebase::memory_limit;
use boardgames_core::with_game;

use super::common::{Position, TablebaseArg, tables, threads};
use crate::cli::{emit, hash_mib};

/// Solve a position exactly: win K, loss K or draw.
///
/// Solve the position exactly: the last line is `win K`, `loss K` or `draw` for SIDE (K plies
/// to the end with best play); with --proof, `win`, `loss` or `draw` by proof-number search.
/// Progress goes to stderr.
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
    /// Win, draw or loss only, by proof-number search (Oska and Hexapawn; one thread): it grows
    /// the tree where a proof looks cheapest instead of searching every reply, and gives no
    /// distance (on the sizes the exact solver settles, it is not faster).
    #[arg(long, conflicts_with = "threads")]
    proof: bool,
    /// With --proof: give up after this many nodes (an error, "not proved").
    #[arg(long, requires = "proof", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
}

/// Answers from the tables when they cover the position, else by the solver (which probes the
/// tables at its nodes).
pub fn run(args: Args) -> Result<()> {
    let Args {
        position,
        hash,
        threads,
        tablebase,
        proof,
        nodes,
    } = args;
    let threads = threads as usize;
    let kind = GameKind::parse(&position.game)?;
    let tablebase = tablebase.dir()?;
    let tablebase = tablebase.as_deref();
    with_game!(kind, G => {
        let parsed = position.read::<G>()?;
        let pos = *parsed.line.current();
        // `--proof` answers win, draw or loss alone (a covered position too, from its table).
        if proof {
            if G::NO_REPEAT {
                anyhow::bail!(
                    "--proof is for Oska and Hexapawn: in {} a position's value depends on the \
                     boards before it",
                    G::KIND
                );
            }
            let probe = tables::<G>(tablebase, pos.size(), memory_limit()?)?;
            return prove::<G>(pos, hash, probe, nodes);
        }
        // A covered position is answered at once, reading a few values from the files.
        if let (Some(dir), Some(value)) =
            (tablebase, tables::<G>(tablebase, pos.size(), 0)?.and_then(|p| p(&pos)))
        {
            eprintln!("from the tablebase in {}", dir.display());
            return emit(format!("{value}\n"));
        }
        let mut searcher = Searcher::<G>::new(hash);
        searcher.set_probe(tables::<G>(tablebase, pos.size(), memory_limit()?)?);
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

/// `--proof`: the proof-number search on a thread with the search's stack; one progress report
/// in ten goes to stderr (about every 10 M nodes), and each stage's proof or disproof.
fn prove<G: Game>(
    pos: G,
    hash: usize,
    probe: Option<boardgames_core::search::Probe<G>>,
    nodes: Option<u64>,
) -> Result<()> {
    let (proof, searched) = std::thread::Builder::new()
        .stack_size(SEARCH_STACK)
        .spawn(move || {
            let mut search = ProofSearch::<G>::new(hash, probe);
            let mut reports = 0u64;
            let proof = search.run(&pos, nodes, &AtomicBool::new(false), &mut |p| {
                reports += 1;
                if reports % 10 == 1 || p.root.0 == 0 || p.root.1 == 0 {
                    eprintln!("{p}");
                }
            });
            (proof, search.nodes())
        })?
        .join()
        .map_err(|_| anyhow::anyhow!("the proof-number search failed"))?;
    if proof == Proof::Unknown {
        anyhow::bail!(
            "not proved: the proof-number search stopped after {searched} nodes (--nodes) \
             without a result"
        );
    }
    emit(format!("{proof}\n"))
}
