//! `engine proof check|plan|job|merge`: proof certificates (see `boardgames_core::certificate`)
//! and proofs cut into jobs for a scheduler (see `boardgames_core::split`).

mod check;
mod job;
mod merge;
mod plan;

pub use merge::Undecided;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use boardgames_core::games::{GameKind, Side};
use boardgames_core::tablebase::TableGame;

use crate::commands::common::{make_path, quote, slurm_preamble, write_file};

crate::cli::subcommands! {
    /// Check proof certificates; cut a proof into jobs for make, Slurm or GNU parallel.
    ///
    /// Proof certificates: the proof tree of a value, written by `engine solve --proof
    /// --certificate FILE`; `check` verifies one with the rules and the tables only. `plan` cuts
    /// the tree below a position at a depth into independent proof jobs (one per frontier
    /// position) for a scheduler, `job` runs one of them, and `merge` works their values up to
    /// the root, writes the root's certificate, or re-plans the jobs still open with a larger
    /// budget.
    pub struct Args;
    /// What `engine proof` does.
    enum Action {
        Check(check),
        Plan(plan),
        Job(job),
        Merge(merge),
    }
}

/// The first line of a plan file.
const PLAN_FORMAT: &str = "boardgames-proof-plan 1";

/// A plan: `DIR/plan`, written by `engine proof plan` and read by `job` and `merge`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct PlanFile {
    game: GameKind,
    size: usize,
    /// The root's board, rows joined with '/'.
    board: String,
    /// The root's side to move.
    side: Side,
    depth: u32,
    /// Each job's node budget in this round.
    nodes: u64,
    /// Rounds planned so far (merge re-plans the open jobs as the next round).
    round: u32,
    /// Each job's table size in MiB.
    hash: usize,
    tablebase: Option<PathBuf>,
    /// make, slurm or list.
    format: String,
    /// The engine binary the scheduler's files run.
    engine: PathBuf,
    /// Each job's position: board and side.
    jobs: Vec<(String, Side)>,
}

impl PlanFile {
    fn path(dir: &Path) -> PathBuf {
        dir.join("plan")
    }

    fn write(&self, dir: &Path) -> Result<()> {
        let mut out = format!("{PLAN_FORMAT}\n");
        let _ = writeln!(out, "game {}", self.game.name());
        let _ = writeln!(out, "size {}", self.size);
        let _ = writeln!(out, "board {}", self.board);
        let _ = writeln!(out, "side {}", self.side.letter());
        let _ = writeln!(out, "depth {}", self.depth);
        let _ = writeln!(out, "nodes {}", self.nodes);
        let _ = writeln!(out, "round {}", self.round);
        let _ = writeln!(out, "hash {}", self.hash);
        match &self.tablebase {
            Some(tb) => {
                let _ = writeln!(out, "tablebase {}", tb.display());
            }
            None => out.push_str("tablebase -\n"),
        }
        let _ = writeln!(out, "format {}", self.format);
        let _ = writeln!(out, "engine {}", self.engine.display());
        let _ = writeln!(out, "jobs {}", self.jobs.len());
        for (i, (board, side)) in self.jobs.iter().enumerate() {
            let _ = writeln!(out, "job {i} {board} {}", side.letter());
        }
        write_file(&Self::path(dir), &out)
    }

    fn read(dir: &Path) -> Result<PlanFile> {
        let path = Self::path(dir);
        let text = std::fs::read_to_string(&path).with_context(|| {
            format!(
                "cannot read {} (made by `engine proof plan`)",
                path.display()
            )
        })?;
        let name = path.display();
        let mut lines = text.lines().enumerate();
        match lines.next() {
            Some((_, first)) if first == PLAN_FORMAT => {}
            _ => bail!("{name} is not a proof plan: its first line is not `{PLAN_FORMAT}`"),
        }
        let mut field = |key: &str| -> Result<String> {
            match lines.next() {
                Some((_, line)) if line.split_once(' ').is_some_and(|(k, _)| k == key) => {
                    Ok(line[key.len() + 1..].to_string())
                }
                Some((n, line)) => bail!("{name}, line {}: `{line}`, expected `{key} ...`", n + 1),
                None => bail!("{name} ends before its `{key}` line"),
            }
        };
        let number = |text: String, key: &str| -> Result<u64> {
            text.parse()
                .with_context(|| format!("{name}: `{key} {text}` is not a number"))
        };
        let game = GameKind::parse(&field("game")?)?;
        let size = number(field("size")?, "size")? as usize;
        let board = field("board")?;
        let side = Side::parse(&field("side")?).with_context(|| format!("{name}: `side`"))?;
        let depth = number(field("depth")?, "depth")? as u32;
        let nodes = number(field("nodes")?, "nodes")?;
        let round = number(field("round")?, "round")? as u32;
        let hash = number(field("hash")?, "hash")? as usize;
        let tablebase = match field("tablebase")?.as_str() {
            "-" => None,
            dir => Some(PathBuf::from(dir)),
        };
        let format = field("format")?;
        let engine = PathBuf::from(field("engine")?);
        let count = number(field("jobs")?, "jobs")? as usize;
        let mut jobs = Vec::with_capacity(count);
        for i in 0..count {
            let line = field("job")?;
            let parts: Vec<&str> = line.split(' ').collect();
            match parts.as_slice() {
                [n, board, side] if n.parse() == Ok(i) => jobs.push((
                    board.to_string(),
                    Side::parse(side).with_context(|| format!("{name}: job {i}"))?,
                )),
                _ => bail!("{name}: job line `job {line}` is not `job {i} BOARD SIDE`"),
            }
        }
        Ok(PlanFile {
            game,
            size,
            board,
            side,
            depth,
            nodes,
            round,
            hash,
            tablebase,
            format,
            engine,
            jobs,
        })
    }

    /// `hexapawn 5 BOARD w`.
    fn what(&self) -> String {
        format!(
            "{} {} {} {}",
            self.game,
            self.size,
            self.board,
            self.side.letter()
        )
    }

    /// Writes the scheduler's file for `jobs` (job numbers) of this round: `DIR/Makefile`,
    /// `DIR/submit.sh` or `DIR/jobs.list` by the plan's format; returns its path.
    fn schedule(&self, dir: &Path, jobs: &[usize]) -> Result<PathBuf> {
        let engine = self.engine.to_string_lossy();
        let dir_text = dir.to_string_lossy();
        let what = format!(
            "The proof of {}: {} of its {} jobs (the positions {} pl{} down), round {}, \
             {} nodes each.",
            self.what(),
            jobs.len(),
            self.jobs.len(),
            self.depth,
            if self.depth == 1 { "y" } else { "ies" },
            self.round,
            self.nodes
        );
        let (file, text) = match self.format.as_str() {
            "make" => {
                make_path(&self.engine, "the engine binary")?;
                make_path(dir, "the plan's directory")?;
                let targets: Vec<String> = jobs
                    .iter()
                    .map(|j| format!("$(DIR)/jobs/{j}.result"))
                    .collect();
                let mut out = format!(
                    "# {what}\n# Run with: make -f THIS_FILE -jN; then: engine proof merge DIR. ENGINE= and NODES= \
                     override.\n\nENGINE ?= {engine}\nNODES ?= {}\nDIR := {dir_text}\n\nall: {}\n.PHONY: all\n\n",
                    self.nodes,
                    targets.join(" ")
                );
                for j in jobs {
                    let _ = writeln!(
                        out,
                        "$(DIR)/jobs/{j}.result:\n\t$(ENGINE) proof job $(DIR) {j} --nodes $(NODES)\n"
                    );
                }
                ("Makefile", out)
            }
            "slurm" => {
                let ids: Vec<String> = jobs.iter().map(|j| j.to_string()).collect();
                let tables = if self.tablebase.is_some() { 2048 } else { 0 };
                let mem = self.hash + tables + 256;
                let mut out = slurm_preamble(
                    &format!(
                        "{what}\nOne Slurm job array (a task per job), then a job that merges \
                         (engine proof merge) after them."
                    ),
                    &quote(&engine),
                    &dir_text,
                    ("NODES", "each job's node budget", &self.nodes),
                    "wait for the merge; the exit status is 0 once the root is decided",
                );
                let _ = write!(
                    out,
                    r#"ids=({ids})
# The task runs under sh: the job of a task is the task's place in the list.
task="set -- ${{ids[*]}}; shift \$SLURM_ARRAY_TASK_ID; exec $(printf '%q ' "$ENGINE") proof job $(printf '%q' "$DIR") \"\$1\" --nodes $NODES"
array=$(sbatch --parsable --job-name=proof-{game}-{size} --array=0-$((${{#ids[@]}} - 1)) \
    --cpus-per-task=1 --mem={mem}M --output="$LOGS/job-%A_%a.log" ${{SBATCH_OPTIONS:-}} \
    --wrap="$task" | cut -d';' -f1)
echo "submitted ${{#ids[@]}} proof jobs as array $array"
# The merge exits 2 when jobs are still open: for Slurm that is a success.
merge() {{
    # shellcheck disable=SC2086
    sbatch --parsable --job-name=proof-{game}-{size}-merge --dependency="afterany:$array" \
        --mem=1024M --output="$LOGS/merge-%j.log" "$@" ${{SBATCH_OPTIONS:-}} \
        --wrap="$(printf '%q ' "$ENGINE" proof merge "$DIR"); [ \$? -le 2 ]"
}}
if [ "${{WAIT:-0}}" = 1 ]; then
    merge --wait >/dev/null || {{ echo "$0: the merge failed: see $LOGS" >&2; exit 1; }}
    if [ -f "$DIR/result" ]; then
        echo "decided: $(cat "$DIR/result"); logs in $LOGS"
    else
        echo "not decided yet: the merge planned the open jobs again; run $DIR/submit.sh again"
        exit 2
    fi
else
    echo "the merge is job $(merge); logs in $LOGS"
fi
"#,
                    ids = ids.join(" "),
                    game = self.game,
                    size = self.size,
                );
                ("submit.sh", out)
            }
            _ => {
                let mut out = String::new();
                for j in jobs {
                    let _ = writeln!(
                        out,
                        "{} proof job {} {j} --nodes {}",
                        quote(&engine),
                        quote(&dir_text),
                        self.nodes
                    );
                }
                ("jobs.list", out)
            }
        };
        let path = dir.join(file);
        write_file(&path, &text)?;
        Ok(path)
    }
}

/// The game of a proof: Oska or Hexapawn (the proof search refuses Capture the Flag).
fn proof_game(kind: GameKind) -> Result<TableGame> {
    if kind == GameKind::Ctf {
        bail!(
            "proofs are of Oska and Hexapawn: in {kind} a position's value depends on the boards \
             before it"
        );
    }
    Ok(TableGame::of(kind)?)
}

/// A job's files: `DIR/jobs/N.result` (its value, once proved), `.cert`, `.ckpt` (its search's
/// state between rounds), `.open` (how far it got, while not proved).
fn job_file(dir: &Path, job: usize, ext: &str) -> PathBuf {
    dir.join("jobs").join(format!("{job}.{ext}"))
}
