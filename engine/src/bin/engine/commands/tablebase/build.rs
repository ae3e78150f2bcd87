//! `engine tablebase build GAME SIZE [--max-pieces K | --material W,B] [--dir DIR] [--threads N]`.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use boardgames_core::tablebase::build::{
    BuildProgress, Plan, build as run_build, build_material, inputs, material_memory, materials,
    memory,
};
use boardgames_core::tablebase::index::Geometry;
use boardgames_core::tablebase::{Retro, Tablebase, TablebaseError, file};
use boardgames_core::with_table_game;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::plan::bytes;
use super::{GameSize, dir_of};
use crate::cli::{digits, emit};
use crate::commands::common::threads;

/// Compute the exact tables of GAME at SIZE and write them, one file per material.
///
/// Compute the value (win or loss with its distance in plies, or draw) of every position of
/// GAME at SIZE with at most K pieces a side, both sides to move, and write one file per
/// material. Memory: one byte per position with White to move (Black to move is its mirror),
/// plus a second copy of the largest materials while they are built (the start says how much).
/// With --material W,B, build only that material and its colour mirror from the tables it
/// reads, already in DIR (a job of `engine tablebase plan`).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    game: GameSize,
    /// Build only positions with at most this many pieces a side, 1 to 8 and at most SIZE
    /// (default: the whole game).
    #[arg(long, value_name = "K", allow_hyphen_values = true, value_parser = max_pieces)]
    max_pieces: Option<usize>,
    /// Build only material W,B (White, Black pieces) and its mirror, reading the tables of
    /// the materials one capture away from DIR: one job of `engine tablebase plan`.
    #[arg(long, value_name = "W,B", value_parser = material, conflicts_with = "max_pieces")]
    material: Option<(usize, usize)>,
    /// The directory for the table files.
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Worker threads, 1 to 64.
    #[arg(long, default_value_t = 2, allow_hyphen_values = true, value_parser = threads)]
    threads: u32,
}

/// K of `--max-pieces`: 1 to the most pieces a side a table holds.
pub(super) fn max_pieces(text: &str) -> Result<usize, String> {
    digits(text, 1, boardgames_core::tablebase::index::MAX_PIECES)
}

/// W,B of `--material`: two piece counts, 1 to the most a table holds.
fn material(text: &str) -> Result<(usize, usize), String> {
    let (w, b) = text
        .split_once(',')
        .ok_or_else(|| format!("'{text}' is not a material: write W,B (White, Black pieces)"))?;
    let count = |t: &str| digits(t, 1, boardgames_core::tablebase::index::MAX_PIECES);
    Ok((count(w)?, count(b)?))
}

/// Builds the tables, then prints their size and the start position's value.
pub fn run(args: Args) -> Result<()> {
    let Args {
        game,
        max_pieces,
        material,
        dir,
        threads,
    } = args;
    let dir = &dir_of(dir);
    let threads = threads as usize;
    let (kind, size) = game.checked()?;
    if let Some((w, b)) = material {
        if w.max(b) > size {
            bail!("--material {w},{b}: {kind} {size} has at most {size} pieces a side");
        }
        writable_dir(dir)?;
        return with_table_game!(kind, G => build_one::<G>(size, (w, b), threads, dir));
    }
    let max_pieces = max_pieces.unwrap_or(size);
    if max_pieces == 0 || max_pieces > size {
        bail!("--max-pieces {max_pieces}: use 1 to {size} (the pieces a side of {kind} {size})");
    }
    if max_pieces > boardgames_core::tablebase::index::MAX_PIECES {
        bail!(
            "--max-pieces {max_pieces}: tables hold at most {} pieces a side",
            boardgames_core::tablebase::index::MAX_PIECES
        );
    }
    writable_dir(dir)?;
    let plan = Plan {
        size,
        max_pieces,
        threads,
    };
    with_table_game!(kind, G => build_game::<G>(plan, dir))
}

fn build_game<G: Retro>(plan: Plan, dir: &Path) -> Result<()> {
    let shape = Geometry::new(G::layout_of(plan.size));
    let total: u64 = materials(plan.max_pieces)
        .iter()
        .map(|&(w, b)| shape.len(w, b))
        .sum();
    eprintln!(
        "building {} {} up to {} pieces a side: {} materials, {total} positions (up to {} in memory), {} threads",
        G::KIND,
        plan.size,
        plan.max_pieces,
        materials(plan.max_pieces).len(),
        bytes(memory(&plan, &shape)),
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
    let report = |p: &BuildProgress| {
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
    // The start's table read back from its file, with every check of a probe.
    let (white, black) = start.sets();
    let material = (white.count_ones() as usize, black.count_ones() as usize);
    let tb = Tablebase::open_materials::<G>(dir, plan.size, &[material], 0)?;
    let start_value = tb.try_probe(&start)?.map_or(
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

/// Builds material `(w, b)` and its mirror from the tables it reads in `dir`, refusing a missing
/// or damaged one before any work.
fn build_one<G: Retro>(
    size: usize,
    (w, b): (usize, usize),
    threads: usize,
    dir: &Path,
) -> Result<()> {
    let (w, b) = (w.min(b), w.max(b));
    let shape = Geometry::new(G::layout_of(size));
    let kind = G::KIND;
    // Every input is there with a sound header before any is read, and each is read whole
    // (its checksum checked) before the work starts; a bad one names the job that writes it.
    let needs = |(x, y): (usize, usize)| {
        format!(
            "material w{w}b{b} needs the table of w{x}b{y}, written by `engine tablebase build {kind} {size} --material {},{} --dir {}`",
            x.min(y),
            x.max(y),
            dir.display()
        )
    };
    for m in inputs(w, b) {
        Tablebase::check_input::<G>(dir, size, m).with_context(|| needs(m))?;
    }
    eprintln!(
        "building {kind} {size} material w{w}b{b}{}: {} positions (up to {:.1} MiB of tables in memory), {threads} threads",
        if w == b {
            String::new()
        } else {
            format!(" with w{b}b{w}")
        },
        // A material that is its own mirror is one table.
        if w == b { 1 } else { 2 } * shape.len(w, b),
        material_memory(&shape, (w, b)) as f64 / (1u64 << 20) as f64,
    );
    let started = Instant::now();
    let mut bytes = 0u64;
    let held = build_material::<G>(
        size,
        (w, b),
        threads,
        &mut |x, y| {
            Tablebase::read_input::<G>(dir, size, (x, y)).map_err(|e| match e {
                TablebaseError::BadFile { path, why } => TablebaseError::BadFile {
                    path,
                    why: format!("{why}; {}", needs((x, y))),
                },
                TablebaseError::Io { path, error } => TablebaseError::Io {
                    path,
                    error: format!("{error}; {}", needs((x, y))),
                },
                other => other,
            })
        },
        &|_| {},
        &mut |header, values| {
            let path = file::write(dir, header, values)?;
            bytes += values.len() as u64 + file::HEADER_LEN as u64;
            eprintln!("wrote {} ({} positions)", path.display(), header.count);
            Ok(())
        },
    )?;
    emit(format!(
        "built material w{w}b{b} of {kind} {size} in {:.1} s, {bytes} bytes on disk in {}, {held} bytes of tables at most, peak memory {}\n",
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
