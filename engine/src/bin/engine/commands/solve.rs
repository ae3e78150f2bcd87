//! `engine solve GAME BOARD SIDE [--hash MIB] [--threads N] [--tablebase DIR] [--proof [--nodes N]
//! [--checkpoint FILE] [--resume FILE] [--checkpoint-every SECS] [--certificate FILE]]`.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context, Result};
use boardgames_core::certificate::Certificate;
use boardgames_core::exact::{Checkpoint, Exact, ExactError, ExactSolver, Method, Report, Source};
use boardgames_core::games::Game;
use boardgames_core::search::Event;
use boardgames_core::tablebase::memory_limit;
use boardgames_core::with_game;

use super::common::{Position, TablebaseArg, stop_on_signals, tables, threads, write_file};
use crate::cli::{emit, hash_mib};

/// Solve a position exactly: win K, loss K or draw.
///
/// Solve the position exactly: the last line is `win K`, `loss K` or `draw` for SIDE (K plies
/// to the end with best play); with --proof, `win`, `loss` or `draw` by proof-number search,
/// and with --certificate FILE its proof tree, which `engine proof check` verifies. Progress
/// goes to stderr.
///
/// A long proof can stop and go on: with --checkpoint FILE it writes its state to FILE every
/// --checkpoint-every seconds and when it stops before a result (at --nodes, or on SIGINT or
/// SIGTERM: the first signal stops it cleanly, a second ends it at once), and --resume FILE goes
/// on from that state with the same answer. Stopped before a result, it exits with status 1.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    position: Position,
    /// Transposition table size in MiB, from 1 to the memory free.
    #[arg(long, default_value_t = 64, allow_hyphen_values = true, value_parser = hash_mib)]
    hash: usize,
    /// Threads sharing the table (Oska and Hexapawn; 1 is deterministic, more are faster but
    /// their node counts vary from run to run; the value is exact either way). With --proof,
    /// workers proving the jobs of the tree cut at a depth, each with its share of --hash.
    #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = threads)]
    threads: u32,
    #[command(flatten)]
    tablebase: TablebaseArg,
    /// Win, draw or loss only, by proof-number search (Oska and Hexapawn): it grows the tree
    /// where a proof looks cheapest instead of searching every reply, and gives no distance (on
    /// the sizes the exact solver settles, it is not faster).
    #[arg(long)]
    proof: bool,
    /// With --proof: give up after this many nodes (an error, "not proved"); a resumed proof
    /// counts the nodes of the runs before it.
    #[arg(long, requires = "proof", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// With --proof: write the search's state to FILE (as it goes and when it stops before a
    /// result), for --resume.
    #[arg(long, requires = "proof", value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// With --proof: go on from the state in FILE (written by --checkpoint for this position);
    /// the state is written back to FILE unless --checkpoint names another file.
    #[arg(long, requires = "proof", value_name = "FILE")]
    resume: Option<PathBuf>,
    /// Seconds of search between two checkpoints.
    #[arg(long, default_value_t = 300, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..))]
    checkpoint_every: u64,
    /// With --proof: write the proof tree of the value to FILE (Oska and Hexapawn), for
    /// `engine proof check`; its size goes to stderr. A position the game's end or the tables
    /// answer is a certificate of one leaf.
    #[arg(long, value_name = "FILE", requires = "proof")]
    certificate: Option<PathBuf>,
}

/// Answers through the core's one exact-value function ([`ExactSolver::value`]): the game's end,
/// else the tables when they cover the position, else the solver (which probes the tables at its
/// nodes) or, with `--proof`, the proof-number search.
pub fn run(args: Args) -> Result<()> {
    let Args {
        position,
        hash,
        threads,
        tablebase,
        proof,
        nodes,
        checkpoint,
        resume,
        checkpoint_every,
        certificate,
    } = args;
    let threads = threads as usize;
    let kind = position.game;
    let tablebase = tablebase.dir()?;
    let tablebase = tablebase.as_deref();
    with_game!(kind, G => {
        let parsed = position.read::<G>()?;
        let pos = *parsed.line.current();
        if certificate.is_some() && G::NO_REPEAT {
            anyhow::bail!(
                "--certificate is for Oska and Hexapawn: in {} a position's value depends on the \
                 boards before it, and the proof search that writes certificates refuses it",
                G::KIND
            );
        }
        if proof && G::NO_REPEAT {
            anyhow::bail!(
                "--proof is for Oska and Hexapawn: in {} a position's value depends on the \
                 boards before it",
                G::KIND
            );
        }
        // A covered position is answered at once, reading a few values from the files: the
        // search's probe below reads whole tables into memory.
        let mut quick = ExactSolver::<G>::new(0, tables::<G>(tablebase, pos.size(), 0)?);
        if let Some(known) = quick.known(&parsed.line) {
            if let (Source::Tables, Some(dir)) = (known.source, tablebase) {
                eprintln!("from the tablebase in {}", dir.display());
            }
            if let Some(file) = &certificate {
                let stop = AtomicBool::new(false);
                let (_, cert) = quick.value_certified(&parsed.line, None, &stop, &mut |_| {})?;
                write_certificate(file, &cert)?;
            }
            return emit(format!("{}\n", answer(known, proof)));
        }
        let probe = tables::<G>(tablebase, pos.size(), memory_limit()?)?;
        let mut solver = ExactSolver::<G>::new(hash, probe);
        let method = if proof {
            Method::Prove { nodes }
        } else {
            Method::Solve { nodes: None, threads }
        };
        // The solver reports once a second; stderr gets one line in ten, and each stage's end.
        // The proof search reports about every million nodes; stderr gets one in ten.
        let mut shown = Duration::ZERO;
        let mut reports = 0u64;
        let local_stop = AtomicBool::new(false);
        let mut stop = &local_stop;
        let saving = checkpoint.clone().or_else(|| resume.clone());
        if proof && threads > 1 {
            if saving.is_some() {
                anyhow::bail!(
                    "--checkpoint and --resume are of the one-thread proof: with --threads, cut \
                     a long proof into jobs instead (engine proof plan)"
                );
            }
            solver.set_proof_threads(threads);
        }
        if let Some(path) = &saving {
            solver.set_checkpoint(Some(Checkpoint {
                path: path.clone(),
                every: Duration::from_secs(checkpoint_every),
                resume: resume.clone(),
            }));
            stop = stop_on_signals()?;
        }
        let mut show = |r: Report<'_>| match r {
            Report::Search(Event::Iteration(i)) => eprintln!(
                "depth {} score {} nodes {} time {:.3}s nps {}",
                i.depth,
                i.score,
                i.nodes,
                i.time.as_secs_f64(),
                i.nps()
            ),
            Report::Search(Event::Progress(p))
                if p.bound.is_some() || p.time >= shown + Duration::from_secs(10) =>
            {
                shown = p.time;
                eprintln!("{p}");
            }
            Report::Proof(p) => {
                reports += 1;
                if reports % 10 == 1 || p.root.0 == 0 || p.root.1 == 0 {
                    eprintln!("{p}");
                }
            }
            Report::Search(_) => {}
        };
        let started = std::time::Instant::now();
        let value = match &certificate {
            Some(file) => solver.value_certified(&parsed.line, nodes, stop, &mut show).map(
                |(value, cert)| write_certificate(file, &cert).map(|()| value),
            ),
            None => solver.value(&parsed.line, method, stop, &mut show).map(Ok),
        };
        let value = match value {
            Err(ExactError::NotProved { nodes }) => {
                let why = if stop.load(Ordering::SeqCst) { "a signal" } else { "--nodes" };
                match &saving {
                    Some(path) => anyhow::bail!(
                        "not proved: the proof-number search stopped after {nodes} nodes ({why}) \
                         without a result; its state is in {}: go on with --resume {0}",
                        path.display()
                    ),
                    None => anyhow::bail!(
                        "not proved: the proof-number search stopped after {nodes} nodes ({why}) \
                         without a result"
                    ),
                }
            }
            other => other??,
        };
        if proof {
            let secs = started.elapsed().as_secs_f64();
            eprintln!(
                "proved: {} nodes in {secs:.1}s ({:.0} nodes a second)",
                value.nodes,
                value.nodes as f64 / secs.max(1e-9)
            );
        }
        emit(format!("{}\n", answer(value, proof)))
    })
}

/// The last line: `win K`, `loss K` or `draw`; with `--proof`, `win`, `loss` or `draw` alone
/// (as the proof search gives it), whatever answered.
fn answer(value: Exact, proof: bool) -> String {
    if proof {
        Exact {
            plies: None,
            ..value
        }
        .to_string()
    } else {
        value.to_string()
    }
}

/// Writes `cert` to `file` and its size to stderr: `certificate FILE: N nodes, L leaves, B
/// bytes`.
fn write_certificate(file: &Path, cert: &Certificate) -> Result<()> {
    let (text, size) = cert.write();
    write_file(file, &text).context("the certificate")?;
    eprintln!("certificate {}: {size}", file.display());
    Ok(())
}
