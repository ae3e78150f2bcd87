//! `engine tablebase plan GAME SIZE [--max-pieces K] [--format make|slurm|list] [--dir DIR]
//! [--threads N] [--estimate]`: the build as a graph of jobs for a scheduler, or what it takes.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use boardgames_core::games::Game;
use boardgames_core::tablebase::TableGame;
use boardgames_core::tablebase::build::{Plan, memory};
use boardgames_core::tablebase::file::file_name;
use boardgames_core::tablebase::index::Geometry;
use boardgames_core::tablebase::jobs::{Job, estimate, jobs, ns_per_position};
use boardgames_core::with_table_game;

use super::{GameSize, dir_of};
use crate::cli::{digits, emit};
use crate::commands::common::{make_path, quote, slurm_preamble, threads};

/// Print the build as jobs for make, Slurm or GNU parallel, or estimate what it takes.
///
/// Print the build of the tables of GAME at SIZE (up to K pieces a side) as a graph of jobs, one
/// material and its colour mirror each (`engine tablebase build --material W,B`), after the
/// jobs that write the tables it reads: a Makefile (one target per table file, the tables read
/// as prerequisites; run with `make -f FILE -jN`, GNU make 4.3 or later), a bash script that
/// submits one Slurm job per material with `--dependency=afterok` on the jobs it needs (run it
/// with bash; WAIT=1 waits for the last job, which checks every table), or a list of
/// `LEVEL<tab>COMMAND` lines (the jobs of a level can run at once, e.g. with GNU parallel).
/// DIR (made absolute) is where the jobs read and write the tables; the commands run this
/// engine binary, or $ENGINE. With --estimate, print instead the number of jobs, the largest
/// job's memory and disk, the core-hours and the critical path, from the tables' sizes and a
/// cost per position measured on this builder.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    game: GameSize,
    /// Plan only positions with at most this many pieces a side, 1 to 8 and at most SIZE
    /// (default: the whole game).
    #[arg(long, value_name = "K", allow_hyphen_values = true, value_parser = super::build::max_pieces)]
    max_pieces: Option<usize>,
    /// make, slurm or list.
    #[arg(long, default_value = "make", value_parser = ["make", "slurm", "list"])]
    format: String,
    /// The directory the jobs read and write the table files in.
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Worker threads of each job, 1 to 64 (Slurm's --cpus-per-task).
    #[arg(long, default_value_t = 2, allow_hyphen_values = true, value_parser = threads)]
    threads: u32,
    /// Print what the build takes instead of the jobs.
    #[arg(long)]
    estimate: bool,
    /// The cost of a position in nanoseconds of one core, for --estimate (default: measured
    /// for the game on this builder).
    #[arg(long, value_name = "NS", value_parser = ns)]
    ns_per_position: Option<f64>,
}

/// NS of `--ns-per-position`: 1 to 100 000.
fn ns(text: &str) -> Result<f64, String> {
    digits(text, 1u32, 100_000).map(f64::from)
}

/// Prints the jobs or the estimate.
pub fn run(args: Args) -> Result<()> {
    let (kind, size) = args.game.checked()?;
    let k = args.max_pieces.unwrap_or(size);
    if k > size {
        bail!("--max-pieces {k}: use 1 to {size} (the pieces a side of {kind} {size})");
    }
    let shape = with_table_game!(kind, G => Geometry::new(G::layout_of(size)));
    let plan = jobs(&shape, k);
    let threads = args.threads as usize;
    let what = format!("{kind} {size} up to {k} pieces a side");
    if args.estimate {
        let ns = args.ns_per_position.unwrap_or(ns_per_position(kind));
        let one = memory(
            &Plan {
                size,
                max_pieces: k,
                threads,
            },
            &shape,
        );
        return emit(estimate_text(&what, &plan, ns, threads, one));
    }
    let dir = std::path::absolute(dir_of(args.dir)).context("the tablebase directory")?;
    let engine = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .context("cannot find this engine binary's path")?;
    let job = Jobs {
        kind,
        size,
        plan: &plan,
        dir: &dir,
        engine: &engine,
        threads,
        what: &what,
    };
    if let Some(warning) = total_memory().and_then(|total| too_large(&plan, total)) {
        eprintln!("{warning}");
    }
    emit(match args.format.as_str() {
        "make" => job.makefile()?,
        "slurm" => job.slurm(),
        _ => job.list(),
    })
}

/// The memory of this machine in bytes (`MemTotal` of `/proc/meminfo`); `None` where it cannot
/// be read (not Linux).
fn total_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// One warning line when jobs of the plan hold more tables in memory than `total` bytes: how
/// many, and the largest with both figures; `None` when every job fits.
fn too_large(plan: &[Job], total: u64) -> Option<String> {
    let over: Vec<&Job> = plan.iter().filter(|j| j.memory > total).collect();
    let largest = over.iter().max_by_key(|j| j.memory)?;
    Some(format!(
        "warning: {} of {} jobs need more memory than this machine has ({}, MemTotal); the largest, {}, needs {}",
        over.len(),
        plan.len(),
        bytes(total),
        job_name(largest.material),
        bytes(largest.memory),
    ))
}

/// A byte count with a binary unit (the largest that leaves at least 1: `9.0 MiB`, `2.3 GiB`).
pub(super) fn bytes(n: u64) -> String {
    let units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < units.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} bytes")
    } else {
        format!("{v:.1} {}", units[u])
    }
}

/// A time in hours, in the unit that suits it.
fn duration(hours: f64) -> String {
    let seconds = hours * 3600.0;
    if seconds < 120.0 {
        format!("{seconds:.1} s")
    } else if hours < 2.0 {
        format!("{:.1} min", seconds / 60.0)
    } else if hours < 48.0 {
        format!("{hours:.1} h")
    } else {
        format!("{:.1} days", hours / 24.0)
    }
}

/// A material and its mirror, as a job names them.
fn job_name((w, b): (usize, usize)) -> String {
    if w == b {
        format!("w{w}b{b}")
    } else {
        format!("w{w}b{b}+w{b}b{w}")
    }
}

/// The text of `--estimate`.
fn estimate_text(what: &str, plan: &[Job], ns: f64, threads: usize, one: u64) -> String {
    let e = estimate(plan, ns, threads);
    let mut out = String::new();
    let _ = writeln!(out, "plan: {what}, {} jobs in {} levels", e.jobs, e.levels);
    let _ = writeln!(
        out,
        "disk: {} in all; the largest job, {}, writes {}",
        bytes(e.disk),
        job_name(e.largest_disk.0),
        bytes(e.largest_disk.1)
    );
    let _ = writeln!(
        out,
        "memory: the largest job, {}, holds {} of tables (one process building all: {})",
        job_name(e.largest_memory.0),
        bytes(e.largest_memory.1),
        bytes(one)
    );
    let _ = writeln!(
        out,
        "work: {:.3e} positions at {ns} ns each: {:.3} core-hours ({} of one core)",
        e.work as f64,
        e.core_hours,
        duration(e.core_hours)
    );
    let path: Vec<String> = e.critical_path.iter().map(|&m| job_name(m)).collect();
    let _ = writeln!(
        out,
        "critical path: {} with {threads} threads a job ({})",
        duration(e.critical_hours),
        path.join(" > ")
    );
    out
}

/// What the three formats are written from.
struct Jobs<'a> {
    kind: TableGame,
    size: usize,
    plan: &'a [Job],
    dir: &'a Path,
    engine: &'a Path,
    threads: usize,
    what: &'a str,
}

impl Jobs<'_> {
    /// The table file of a material.
    fn file(&self, (w, b): (usize, usize)) -> String {
        file_name(self.kind.kind(), self.size, w, b)
    }

    /// The build command of a job, with the engine and the directory as given.
    fn command(&self, job: &Job, engine: &str, dir: &str, threads: &str) -> String {
        let (w, b) = job.material;
        format!(
            "{engine} tablebase build {} {} --material {w},{b} --threads {threads} --dir {dir}",
            self.kind, self.size
        )
    }

    /// The Makefile.
    fn makefile(&self) -> Result<String> {
        let dir = make_path(self.dir, "the tablebase directory")?;
        let engine = make_path(self.engine, "the engine binary")?;
        let mut out = String::new();
        let levels = self.plan.iter().map(|j| j.level).max().unwrap_or(0);
        let _ = writeln!(
            out,
            "# The tables of {}: {} jobs in {levels} levels, one material and its mirror each.\n# Run with: make -f THIS_FILE -jN (GNU make 4.3 or later); ENGINE= and THREADS= override.\n",
            self.what,
            self.plan.len()
        );
        let _ = writeln!(
            out,
            "ENGINE ?= {engine}\nTHREADS ?= {}\nDIR := {dir}\n",
            self.threads
        );
        let all: Vec<String> = self
            .plan
            .iter()
            .flat_map(|j| j.writes.iter().map(|&m| format!("$(DIR)/{}", self.file(m))))
            .collect();
        let _ = writeln!(out, "all: {}\n.PHONY: all\n", all.join(" "));
        for job in self.plan {
            let targets: Vec<String> = job
                .writes
                .iter()
                .map(|&m| format!("$(DIR)/{}", self.file(m)))
                .collect();
            let needs: Vec<String> = job
                .reads
                .iter()
                .map(|&m| format!("$(DIR)/{}", self.file(m)))
                .collect();
            let _ = writeln!(
                out,
                "{} &:{}{}\n\t{}\n",
                targets.join(" "),
                if needs.is_empty() { "" } else { " " },
                needs.join(" "),
                self.command(job, "$(ENGINE)", "$(DIR)", "$(THREADS)")
            );
        }
        Ok(out)
    }

    /// The Slurm submission script.
    fn slurm(&self) -> String {
        let levels = self.plan.iter().map(|j| j.level).max().unwrap_or(0);
        let mut out = slurm_preamble(
            &format!(
                "The tables of {}: {} Slurm jobs in {levels} levels, one material and its mirror \
                 each, each\nsubmitted with --dependency=afterok on the jobs that write the tables \
                 it reads; a last job\nchecks every table (engine tablebase verify).",
                self.what,
                self.plan.len()
            ),
            &quote(&self.engine.to_string_lossy()),
            &self.dir.to_string_lossy(),
            (
                "THREADS",
                "threads of each job (--cpus-per-task)",
                &self.threads,
            ),
            "wait for the last job; the exit status is 0 only if every job succeeded",
        );
        let _ = writeln!(
            out,
            r#"# submit NAME MEM_MIB DEPENDENCIES COMMAND...: the job's id
submit() {{
    local name=$1 mem=$2 deps=$3
    shift 3
    local dep=()
    if [ -n "$deps" ]; then
        dep=(--dependency="afterok:$deps" --kill-on-invalid-dep=yes)
    fi
    # shellcheck disable=SC2086
    sbatch --parsable --job-name="$name" --cpus-per-task="$THREADS" --mem="${{mem}}M" \
        --output="$LOGS/$name-%j.log" "${{dep[@]}}" ${{SBATCH_OPTIONS:-}} \
        --wrap="$(printf '%q ' "$@")" | cut -d';' -f1
}}"#,
        );
        let var = |m: (usize, usize)| format!("job_w{}b{}", m.0, m.1);
        for job in self.plan {
            let deps: Vec<String> = job
                .needs
                .iter()
                .map(|&i| format!("${}", var(self.plan[i].material)))
                .collect();
            // The tables, plus room for the binary and the reading of the inputs.
            let mem = job.memory.div_ceil(1 << 20) + 256;
            let (w, b) = job.material;
            let _ = writeln!(
                out,
                "{}=$(submit {}-{}-w{w}b{b} {mem} \"{}\" \"$ENGINE\" tablebase build {} {} --material {w},{b} --threads \"$THREADS\" --dir \"$DIR\")",
                var(job.material),
                self.kind,
                self.size,
                deps.join(":"),
                self.kind,
                self.size,
            );
        }
        let all: Vec<String> = self
            .plan
            .iter()
            .map(|j| format!("${}", var(j.material)))
            .collect();
        let _ = writeln!(
            out,
            r#"echo "submitted {n} build jobs for {what}"
verify=(submit {kind}-{size}-verify 256 "{all}" "$ENGINE" tablebase verify {kind} {size} --dir "$DIR")
if [ "${{WAIT:-0}}" = 1 ]; then
    if SBATCH_OPTIONS="${{SBATCH_OPTIONS:-}} --wait" "${{verify[@]}}" >/dev/null; then
        echo "every job of {what} succeeded and every table is sound; logs in $LOGS"
    else
        echo "$0: a job failed or was cancelled: see the logs in $LOGS and sacct" >&2
        exit 1
    fi
else
    echo "the check of every table is job $("${{verify[@]}}"); logs in $LOGS"
fi"#,
            n = self.plan.len(),
            what = self.what,
            kind = self.kind,
            size = self.size,
            all = all.join(":"),
        );
        out
    }

    /// The list by level.
    fn list(&self) -> String {
        let engine = quote(&self.engine.to_string_lossy());
        let dir = quote(&self.dir.to_string_lossy());
        let mut order: Vec<&Job> = self.plan.iter().collect();
        order.sort_by_key(|j| j.level);
        order
            .iter()
            .map(|j| {
                format!(
                    "{}\t{}\n",
                    j.level,
                    self.command(j, &engine, &dir, &self.threads.to_string())
                )
            })
            .collect()
    }
}
