//! `engine tablebase build | probe | verify`: the exact tables of Oska and Hexapawn.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use engine::games::notation::move_name;
use engine::games::{GameKind, Hexapawn, Oska};
use engine::tablebase::build::{Plan, Progress, build as run_build, materials, memory};
use engine::tablebase::index::Shape;
use engine::tablebase::{Retro, Tablebase, file};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::commands::{emit, read};

/// The environment variable naming the default tablebase directory.
pub const DIR_VARIABLE: &str = "TABLEBASE_PATH";

/// The directory to use: `--dir`, else `$TABLEBASE_PATH` (when set and not empty), else
/// `./tablebases`.
pub fn dir_of(dir: Option<PathBuf>) -> PathBuf {
    dir.or_else(|| env_dir().map(|(dir, _)| dir))
        .unwrap_or_else(|| PathBuf::from("tablebases"))
}

/// `$TABLEBASE_PATH` when it is set and not empty, with its name for messages.
fn env_dir() -> Option<(PathBuf, String)> {
    std::env::var_os(DIR_VARIABLE)
        .filter(|v| !v.is_empty())
        .map(|v| (PathBuf::from(v), format!("${DIR_VARIABLE}")))
}

/// The tables a search or the solver probes: `--tablebase DIR` or else `$TABLEBASE_PATH`, either
/// of which must name a directory (a missing one or a file is an error, as the protocol's
/// `TablebasePath` refuses it); else `./tablebases` when it is a directory; else none.
pub fn search_dir(flag: Option<PathBuf>) -> Result<Option<PathBuf>> {
    let named = flag
        .map(|dir| (dir, "--tablebase".to_string()))
        .or_else(env_dir);
    match named {
        Some((dir, what)) => existing_dir(dir, &what).map(Some),
        None => {
            let default = PathBuf::from("tablebases");
            Ok(default.is_dir().then_some(default))
        }
    }
}

/// `dir` if it is a directory, else an error naming `what` gave it.
fn existing_dir(dir: PathBuf, what: &str) -> Result<PathBuf> {
    match std::fs::metadata(&dir) {
        Ok(meta) if meta.is_dir() => Ok(dir),
        Ok(_) => bail!("{what} {}: not a directory", dir.display()),
        Err(e) => bail!("{what} {}: {e}", dir.display()),
    }
}

/// Makes `dir` (and its parents) if missing and checks that a file can be written in it, so a
/// build that cannot write its tables stops before it starts.
fn writable_dir(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot make the tablebase directory {}", dir.display()))?;
    let check = dir.join(format!(".write-check-{}", std::process::id()));
    std::fs::File::create(&check)
        .with_context(|| format!("cannot write in the tablebase directory {}", dir.display()))?;
    let _ = std::fs::remove_file(&check);
    Ok(())
}

/// The game kind, refusing Capture the Flag (its history rule has no table).
fn table_game(game: &str) -> Result<GameKind> {
    let kind = GameKind::parse(game)?;
    if !Tablebase::supports(kind) {
        bail!(
            "{kind} has no tablebases: its no-repetition rule makes a position's value depend on the history (oska and hexapawn only)"
        );
    }
    Ok(kind)
}

/// `engine tablebase build GAME SIZE [--max-pieces K] [--dir DIR] [--threads N]`.
pub fn build(
    game: &str,
    size: usize,
    max_pieces: Option<usize>,
    dir: &Path,
    threads: usize,
) -> Result<()> {
    let kind = table_game(game)?;
    kind.check_size(size)?;
    let max_pieces = max_pieces.unwrap_or(size);
    if max_pieces == 0 || max_pieces > size {
        bail!("--max-pieces {max_pieces}: use 1 to {size} (the pieces a side of {kind} {size})");
    }
    if max_pieces > engine::tablebase::index::MAX_PIECES {
        bail!(
            "--max-pieces {max_pieces}: tables hold at most {} pieces a side",
            engine::tablebase::index::MAX_PIECES
        );
    }
    writable_dir(dir)?;
    let plan = Plan {
        size,
        max_pieces,
        threads,
    };
    match kind {
        GameKind::Oska => build_game::<Oska>(plan, dir),
        _ => build_game::<Hexapawn>(plan, dir),
    }
}

fn build_game<G: Retro>(plan: Plan, dir: &Path) -> Result<()> {
    let shape = Shape::new(G::layout_of(plan.size));
    let total: u64 = materials(plan.max_pieces)
        .iter()
        .map(|&(w, b)| shape.len(w, b))
        .sum();
    eprintln!(
        "building {} {} up to {} pieces a side: {} materials, {total} positions (up to {:.1} GiB in memory), {} threads",
        G::KIND,
        plan.size,
        plan.max_pieces,
        materials(plan.max_pieces).len(),
        memory(&plan, &shape) as f64 / (1u64 << 30) as f64,
        plan.threads
    );
    let started = Instant::now();
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {percent}% {msg} {elapsed_precise} (eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let report = |p: &Progress| {
        bar.set_position(p.done);
        bar.set_message(format!(
            "w{}b{} level {}/{}",
            p.material.0, p.material.1, p.level, p.levels
        ));
    };
    let mut bytes = 0u64;
    run_build::<G>(plan, &report, &mut |header, values| {
        let path = file::write(dir, header, values)?;
        bytes += values.len() as u64 + file::HEADER_LEN as u64;
        bar.suspend(|| eprintln!("wrote {} ({} positions)", path.display(), header.count));
        Ok(())
    })?;
    bar.finish_and_clear();
    let start = G::start(plan.size)?;
    let tb = Tablebase::open::<G>(dir, plan.size, 0)?;
    let start_value = tb.probe(&start).map_or(
        "not covered (fewer pieces a side than the start)".to_string(),
        |s| s.to_string(),
    );
    emit(format!(
        "built {total} positions in {:.1} s, {bytes} bytes on disk in {}, peak memory {}; start position: {start_value}\n",
        started.elapsed().as_secs_f64(),
        dir.display(),
        peak_memory()
    ))
}

/// The process's peak resident memory, from /proc (Linux), or "unknown".
fn peak_memory() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(|l| l["VmHWM:".len()..].trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

/// Opens the tables of `G` at the board's size in `dir`, with a message when there are none.
fn open<G: Retro>(dir: &Path, size: usize) -> Result<Tablebase> {
    // Errors name the file or directory at fault.
    let tb = Tablebase::open::<G>(dir, size, 0)?;
    if tb.materials().is_empty() {
        bail!(
            "no {} {size} tables in {} (build them with: engine tablebase build {} {size} --dir {})",
            G::KIND,
            dir.display(),
            G::KIND,
            dir.display()
        );
    }
    Ok(tb)
}

/// `engine tablebase probe GAME BOARD SIDE [--dir DIR]`: every move with its value, best first,
/// then the position's value.
pub fn probe(game: &str, board: &str, side: &str, dir: &Path) -> Result<()> {
    let kind = table_game(game)?;
    existing_dir(dir.to_path_buf(), "the tablebase directory")?;
    match kind {
        GameKind::Oska => probe_game::<Oska>(board, side, dir),
        _ => probe_game::<Hexapawn>(board, side, dir),
    }
}

fn probe_game<G: Retro>(board: &str, side: &str, dir: &Path) -> Result<()> {
    let parsed = read::<G>(board, side)?;
    let pos = *parsed.line.current();
    let tb = open::<G>(dir, pos.size())?;
    let (Some(value), Some(moves)) = (tb.probe(&pos), tb.probe_moves(&pos)) else {
        bail!(
            "no table in {} covers this position ({} White and {} Black pieces)",
            dir.display(),
            pos.piece_count(engine::games::Side::White),
            pos.piece_count(engine::games::Side::Black)
        );
    };
    let mut out = String::new();
    for (mv, score) in moves {
        out.push_str(&format!("{} {score}\n", move_name(&pos, mv)));
    }
    out.push_str(&format!("{value}\n"));
    emit(out)
}

/// `engine tablebase verify GAME SIZE [--dir DIR]`: reads every table whole, checks checksums.
pub fn verify(game: &str, size: usize, dir: &Path) -> Result<()> {
    let kind = table_game(game)?;
    kind.check_size(size)?;
    existing_dir(dir.to_path_buf(), "the tablebase directory")?;
    let n = Tablebase::verify(dir, kind, size)?;
    if n == 0 {
        bail!("no {kind} {size} tables in {}", dir.display());
    }
    emit(format!(
        "{n} tables of {kind} {size} in {} are sound\n",
        dir.display()
    ))
}
