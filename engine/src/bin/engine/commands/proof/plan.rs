//! `engine proof plan GAME BOARD SIDE --depth D --dir DIR [--format make|slurm|list] [--nodes N]
//! [--hash MIB] [--tablebase DIR]`.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use boardgames_core::games::Game;
use boardgames_core::games::format::slash;
use boardgames_core::split::Split;
use boardgames_core::tablebase::memory_limit;
use boardgames_core::with_table_game;

use super::{PlanFile, proof_game};
use crate::cli::{emit, hash_mib};
use crate::commands::common::{Position, TablebaseArg, tables};

/// Cut a proof into independent jobs for make, Slurm or GNU parallel.
///
/// Cut the tree below the position at --depth plies into independent proof jobs, one per
/// frontier position (a position reached by several move orders once; positions over, without a
/// move, or in the tables are settled at once), and write them to DIR: `plan` (the root, the
/// depth and each job's position), and by --format a Makefile (`make -f DIR/Makefile -jN`),
/// submit.sh (a Slurm job array and a merge after it; run it with bash) or jobs.list (a command
/// a line, e.g. for GNU parallel). Each job (`engine proof job DIR N`) runs a proof search of
/// at most --nodes nodes, writing its value and certificate, or its state to go on from; then
/// `engine proof merge DIR` works the values up to the root.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    position: Position,
    /// Plies from the root to the frontier, 0 to 12.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=12))]
    depth: u32,
    /// The directory of the plan and of the jobs' files (made if missing; made absolute).
    #[arg(long)]
    dir: PathBuf,
    /// make, slurm or list.
    #[arg(long, default_value = "make", value_parser = ["make", "slurm", "list"])]
    format: String,
    /// Each job's node budget in the first round (merge multiplies it for the jobs still open).
    #[arg(long, default_value_t = 100_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Each job's table size in MiB.
    #[arg(long, default_value_t = 64, allow_hyphen_values = true, value_parser = hash_mib)]
    hash: usize,
    #[command(flatten)]
    tablebase: TablebaseArg,
}

/// Cuts, writes the plan and the scheduler's file.
pub fn run(args: Args) -> Result<()> {
    let kind = args.position.game;
    let game = proof_game(kind)?;
    let dir = std::path::absolute(&args.dir).context("the plan's directory")?;
    if dir.join("plan").exists() {
        bail!(
            "{} already holds a plan: merge it (engine proof merge {0}) or choose another --dir",
            dir.display()
        );
    }
    std::fs::create_dir_all(dir.join("jobs"))
        .with_context(|| format!("cannot make {}", dir.join("jobs").display()))?;
    let tablebase = args
        .tablebase
        .dir()?
        .map(std::path::absolute)
        .transpose()
        .context("the tablebase directory")?;
    let engine = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .context("cannot find this engine binary's path")?;
    with_table_game!(game, G => {
        let parsed = args.position.read::<G>()?;
        let root = *parsed.line.current();
        let probe = tables::<G>(tablebase.as_deref(), root.size(), memory_limit()?)?;
        let split = Split::cut(&root, args.depth, probe.as_ref());
        let plan = PlanFile {
            game: kind,
            size: root.size(),
            board: slash(&root),
            side: root.side_to_move(),
            depth: args.depth,
            nodes: args.nodes,
            round: 1,
            hash: args.hash,
            tablebase,
            format: args.format,
            engine,
            jobs: split
                .job_positions()
                .map(|p| (slash(p), p.side_to_move()))
                .collect(),
        };
        plan.write(&dir)?;
        let all: Vec<usize> = (0..plan.jobs.len()).collect();
        let file = plan.schedule(&dir, &all)?;
        let settled = split
            .nodes
            .iter()
            .filter(|n| matches!(n.kind, boardgames_core::split::Kind::Settled(_)))
            .count();
        let run = match plan.format.as_str() {
            "make" => format!("make -f {} -j$(nproc)", file.display()),
            "slurm" => format!("bash {}", file.display()),
            _ => format!("parallel < {}", file.display()),
        };
        emit(format!(
            "{} jobs at depth {} ({} positions in the cut, {settled} settled without a search) in {}\nrun: {run}\nthen: engine proof merge {}\n",
            plan.jobs.len(),
            plan.depth,
            split.nodes.len(),
            dir.display(),
            dir.display()
        ))
    })
}
