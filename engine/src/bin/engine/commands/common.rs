//! What several `engine` commands share: the position arguments GAME BOARD SIDE, the
//! `--tablebase DIR` option and where its directory comes from, and the value parsers of their
//! numbers.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use boardgames_core::games::format::{Parsed, parse_board};
use boardgames_core::games::{Game, GameKind, Side};
use boardgames_core::search::Probe;
use clap::Args;

use crate::cli::{digits, game_kind};

/// The position a command reads: GAME BOARD SIDE.
#[derive(Args, Debug, Clone)]
pub struct Position {
    /// oska, hexapawn or ctf.
    #[arg(value_parser = game_kind)]
    pub game: GameKind,
    /// The board, in any seed format.
    #[arg(allow_hyphen_values = true)]
    pub board: String,
    /// The side to move: w or b.
    #[arg(value_parser = side_letter)]
    pub side: Side,
}

impl Position {
    /// The board and side read as a position of `G`.
    pub fn read<G: Game>(&self) -> Result<Parsed<G>> {
        read::<G>(&self.board, self.side)
    }
}

/// A position and a count of plies, DEPTH (`best`, `perft`). DEPTH is digits only; each
/// command words its help and narrows its range with `#[command(mut_arg("depth", ...))]`.
#[derive(Args, Debug, Clone)]
pub struct PositionDepth {
    #[command(flatten)]
    pub position: Position,
    /// Plies.
    #[arg(allow_hyphen_values = true, value_parser = |t: &str| digits(t, 0, u32::MAX))]
    pub depth: u32,
}

/// Reads BOARD with SIDE to move.
pub fn read<G: Game>(board: &str, side: Side) -> Result<Parsed<G>> {
    Ok(parse_board::<G>(board, side)?)
}

/// `--tablebase DIR`: the tables a search or the solver probes.
#[derive(Args, Debug, Clone)]
pub struct TablebaseArg {
    /// Tablebase directory: positions its tables cover get their exact values (default:
    /// $TABLEBASE_PATH, else ./tablebases if it exists; a named directory must exist; see
    /// `engine tablebase`).
    #[arg(long, value_name = "DIR")]
    pub tablebase: Option<PathBuf>,
}

impl TablebaseArg {
    /// The directory to probe: `--tablebase DIR` or else `$TABLEBASE_PATH`, either of which must
    /// name a directory (a missing one or a file is an error, as the protocol's `TablebasePath`
    /// refuses it); else `./tablebases` when it is a directory; else none.
    pub fn dir(self) -> Result<Option<PathBuf>> {
        let named = self
            .tablebase
            .map(|dir| (dir, "--tablebase".to_string()))
            .or_else(env_dir);
        match named {
            Some((dir, what)) => existing_dir(dir, &what).map(Some),
            None => {
                let default = PathBuf::from(DEFAULT_DIR);
                Ok(default.is_dir().then_some(default))
            }
        }
    }
}

/// The environment variable naming the default tablebase directory.
pub const DIR_VARIABLE: &str = "TABLEBASE_PATH";

/// The tablebase directory when neither an option nor [`DIR_VARIABLE`] names one.
pub const DEFAULT_DIR: &str = "tablebases";

/// `$TABLEBASE_PATH` when it is set and not empty, with its name for messages.
pub fn env_dir() -> Option<(PathBuf, String)> {
    std::env::var_os(DIR_VARIABLE)
        .filter(|v| !v.is_empty())
        .map(|v| (PathBuf::from(v), format!("${DIR_VARIABLE}")))
}

/// `dir` if it is a directory, else an error naming `what` gave it.
pub fn existing_dir(dir: PathBuf, what: &str) -> Result<PathBuf> {
    match std::fs::metadata(&dir) {
        Ok(meta) if meta.is_dir() => Ok(dir),
        Ok(_) => bail!("{what} {}: not a directory", dir.display()),
        Err(e) => bail!("{what} {}: {e}", dir.display()),
    }
}

/// The tables of `G` at `size` in `dir`, if a directory is given and holds any; tables up to
/// `memory_limit` bytes are read into memory (see `Tablebase::open`). A table that fails its
/// checks is an error, never used.
pub fn tables<G: Game>(
    dir: Option<&Path>,
    size: usize,
    memory_limit: u64,
) -> Result<Option<Probe<G>>> {
    let Some(dir) = dir else {
        return Ok(None);
    };
    Ok(boardgames_core::tablebase::probe_for::<G>(
        dir,
        size,
        memory_limit,
    )?)
}

/// SIDE as the protocol spells it: `w` or `b`.
pub(crate) fn side_letter(text: &str) -> Result<Side, String> {
    match text {
        "w" => Ok(Side::White),
        "b" => Ok(Side::Black),
        _ => Err(format!("'{text}' is not a side: write w or b")),
    }
}

/// Threads, 1 to [`boardgames_core::search::MAX_THREADS`].
pub(crate) fn threads(text: &str) -> Result<u32, String> {
    digits(text, 1, boardgames_core::search::MAX_THREADS as u32)
}

/// Set by the first SIGINT or SIGTERM once [`stop_on_signals`] has run.
static STOPPED_BY_SIGNAL: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// From now on the first SIGINT or SIGTERM sets the flag returned, for a long search to stop
/// cleanly (and write its checkpoint); a second one ends the process at once with status 130.
/// The handlers are in place when this returns.
pub fn stop_on_signals() -> Result<&'static std::sync::atomic::AtomicBool> {
    use std::sync::atomic::Ordering;
    use tokio::signal::unix::{SignalKind, signal};
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()?;
    let (mut interrupt, mut terminate) = {
        let _inside = runtime.enter();
        (
            signal(SignalKind::interrupt())?,
            signal(SignalKind::terminate())?,
        )
    };
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            runtime.block_on(async {
                loop {
                    let name = tokio::select! {
                        _ = interrupt.recv() => "SIGINT",
                        _ = terminate.recv() => "SIGTERM",
                    };
                    if STOPPED_BY_SIGNAL.swap(true, Ordering::SeqCst) {
                        std::process::exit(130);
                    }
                    eprintln!("{name}: stopping at the next report (a second signal ends at once)");
                }
            })
        })?;
    Ok(&STOPPED_BY_SIGNAL)
}

/// `text` quoted for the shell: as is when it has only safe characters, else in single quotes.
pub fn quote(text: &str) -> String {
    if !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+,=@%:".contains(&b))
    {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// The start of a Slurm submission script: `about` as comments; the settings read from the
/// environment (ENGINE, the script's own `setting` as name, meaning and default, LOGS, WAIT=1
/// meaning `wait`, SBATCH_OPTIONS) and their defaults; DIR (`dir`, quoted) and the logs' folder
/// made; and a check that sbatch is on PATH. `engine` is quoted already.
pub fn slurm_preamble(
    about: &str,
    engine: &str,
    dir: &str,
    setting: (&str, &str, &dyn std::fmt::Display),
    wait: &str,
) -> String {
    let (name, meaning, default) = setting;
    let about: String = about.lines().map(|l| format!("# {l}\n")).collect();
    format!(
        r#"#!/usr/bin/env bash
{about}# Run with bash on a submit host, not with sbatch. DIR and the engine must be at the same paths
# on every node (a shared file system).
#   ENGINE   the engine binary (default: the one that wrote this script)
#   {name:<8} {meaning}
#   LOGS     where the jobs' logs go (default: DIR/slurm-logs)
#   WAIT=1   {wait}
#   SBATCH_OPTIONS  more sbatch options for every job (partition, account, time limit...)
set -euo pipefail
ENGINE=${{ENGINE:-{engine}}}
{name}=${{{name}:-{default}}}
DIR={dir}
LOGS=${{LOGS:-$DIR/slurm-logs}}
mkdir -p "$DIR" "$LOGS"
command -v sbatch >/dev/null || {{ echo "$0: sbatch is not on PATH (Slurm's client)" >&2; exit 2; }}
"#,
        dir = quote(dir),
    )
}

/// Writes `text` to `path` through a temporary file renamed over it (a reader, or a shell running
/// the old file, never sees half of it).
pub fn write_file(path: &Path, text: &str) -> Result<()> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp"));
    std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
}

/// `path` as a Makefile may name it (letters, digits and `/._-+,@` only); else an error naming
/// `what` and the other formats.
pub fn make_path(path: &Path, what: &str) -> Result<String> {
    let text = path.to_string_lossy().into_owned();
    if text.is_empty()
        || !text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+,@".contains(&b))
    {
        bail!(
            "{what} {}: a Makefile cannot name paths with spaces or characters such as $ # : % (use --format slurm or list)",
            path.display()
        );
    }
    Ok(text)
}
