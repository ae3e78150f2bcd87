//! `engine proof job DIR N [--nodes N]`.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use boardgames_core::exact::{Checkpoint, ExactError, ExactSolver, Report};
use boardgames_core::games::Game;
use boardgames_core::tablebase::memory_limit;
use boardgames_core::with_table_game;

use super::{PlanFile, job_file, proof_game};
use crate::commands::common::{read, stop_on_signals, tables, write_file};

/// Run one job of a plan (what the plan's Makefile, Slurm script or list runs).
///
/// Run job N of the plan in DIR: a proof search of its position, going on from its checkpoint
/// if an earlier round left one, for at most --nodes nodes in all (default: the plan's budget
/// this round). Proved, it writes DIR/jobs/N.cert (the certificate) and then DIR/jobs/N.result
/// (`win`, `draw` or `loss` for the position's side to move, and the nodes); not proved, it
/// writes its state to DIR/jobs/N.ckpt and how far it got to DIR/jobs/N.open, and still exits
/// with status 0 (the plan goes on; `engine proof merge` plans it again); its nodes and time
/// there are of all its rounds together. SIGINT or SIGTERM stops it the same way. A job first
/// reads the plan's tables into memory (seconds for large ones: about 5 s for Oska 6's 4.2 GB),
/// so give each job a budget its search takes much longer than that.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The plan's directory.
    dir: PathBuf,
    /// The job's number.
    job: usize,
    /// The node budget of the job, the rounds before counted in.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
}

/// Runs the job.
pub fn run(args: Args) -> Result<()> {
    let dir = std::path::absolute(&args.dir).context("the plan's directory")?;
    let plan = PlanFile::read(&dir)?;
    let Some((board, side)) = plan.jobs.get(args.job) else {
        bail!(
            "the plan in {} has jobs 0 to {}, not {}",
            dir.display(),
            plan.jobs.len().saturating_sub(1),
            args.job
        );
    };
    if job_file(&dir, args.job, "result").exists() {
        eprintln!("job {} is proved already", args.job);
        return Ok(());
    }
    let nodes = args.nodes.unwrap_or(plan.nodes);
    let game = proof_game(plan.game)?;
    with_table_game!(game, G => {
        let parsed = read::<G>(board, *side)?;
        let pos = *parsed.line.current();
        let probe = tables::<G>(plan.tablebase.as_deref(), pos.size(), memory_limit()?)?;
        let mut solver = ExactSolver::<G>::new(plan.hash, probe);
        let checkpoint = job_file(&dir, args.job, "ckpt");
        solver.set_checkpoint(Some(Checkpoint {
            path: checkpoint.clone(),
            every: Duration::from_secs(300),
            resume: checkpoint.exists().then(|| checkpoint.clone()),
        }));
        let stop: &AtomicBool = stop_on_signals()?;
        let mut last = String::new();
        let mut report = |r: Report<'_>| {
            if let Report::Proof(p) = r {
                last = p.to_string();
            }
        };
        match solver.value_certified(&parsed.line, Some(nodes), stop, &mut report) {
            Ok((value, cert)) => {
                let (text, size) = cert.write();
                write_file(&job_file(&dir, args.job, "cert"), &text)?;
                write_file(
                    &job_file(&dir, args.job, "result"),
                    &format!("{} nodes {}\n", value.wdl.name(), value.nodes),
                )?;
                let _ = std::fs::remove_file(&checkpoint);
                let _ = std::fs::remove_file(job_file(&dir, args.job, "open"));
                eprintln!("job {}: {} ({} nodes; certificate: {size})", args.job, value.wdl.name(), value.nodes);
                Ok(())
            }
            Err(ExactError::NotProved { nodes }) => {
                let why = if stop.load(Ordering::SeqCst) { "a signal" } else { "its budget" };
                write_file(
                    &job_file(&dir, args.job, "open"),
                    &format!("unknown nodes {nodes} stopped by {why}; {last}\n"),
                )?;
                eprintln!(
                    "job {}: not proved after {nodes} nodes ({why}); its state is in {}",
                    args.job,
                    checkpoint.display()
                );
                Ok(())
            }
            Err(e) => Err(e.into()),
        }
    })
}
