//! The one-shot commands. Each writes its whole answer to stdout only once it has succeeded, so
//! a bad argument leaves stdout empty.

use std::io::Write;

use std::path::{Path, PathBuf};

use anyhow::Result;
use engine::adapter::{BoardCall, FunctionCall, FunctionSpec, InputMode, SeedFormat};
use engine::eval::{EvalKind, Evaluate};
use engine::games::format::{Parsed, parse_board, print_board};
use engine::games::notation::move_name;
use engine::games::perft::{perft as count, perft_divide};
use engine::games::{Game, GameKind, MoveList, Side};
use engine::score::Score;
use engine::search::{Event, Limits, Probe, Searcher};
use engine::tablebase::MEMORY_LIMIT;
use engine::with_game;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Reads GAME, BOARD and SIDE.
pub(crate) fn read<G: Game>(board: &str, side: &str) -> Result<Parsed<G>> {
    let side = Side::parse(side)?;
    Ok(parse_board::<G>(board, side)?)
}

pub(crate) fn emit(out: String) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out.as_bytes())?;
    stdout.flush()?;
    Ok(())
}

/// `engine movegen GAME BOARD SIDE`.
pub fn movegen(game: &str, board: &str, side: &str) -> Result<()> {
    let kind = GameKind::parse(game)?;
    with_game!(kind, G => {
        let parsed = read::<G>(board, side)?;
        let mut moves = MoveList::new();
        parsed.line.legal_moves(&mut moves);
        let pos = parsed.line.current();
        let mut out = String::new();
        for &m in moves.as_slice().iter().filter(|m| !m.is_pass()) {
            out.push_str(&print_board(&pos.play(m), &parsed.format));
            out.push('\n');
        }
        emit(out)
    })
}

/// `engine perft GAME BOARD SIDE DEPTH`.
pub fn perft(game: &str, board: &str, side: &str, depth: u32) -> Result<()> {
    let kind = GameKind::parse(game)?;
    with_game!(kind, G => {
        let mut parsed = read::<G>(board, side)?;
        let pos = *parsed.line.current();
        let divide = perft_divide(&mut parsed.line, depth);
        let total = if depth == 0 { count(&mut parsed.line, 0) } else { divide.iter().map(|d| d.1).sum() };
        let mut out = String::new();
        for (m, n) in divide {
            out.push_str(&format!("{} {n}\n", move_name(&pos, m)));
        }
        out.push_str(&format!("nodes {total}\n"));
        emit(out)
    })
}

/// `engine board-call [--format F] [--depth N] [--input args|stdin] [LIMITS] -- PROGRAM
/// [ARGS...]`, or `-- FILE.EXT:FUNCTION` for a function.
pub fn board_call(
    format: &str,
    depth: u32,
    input: &str,
    args: &crate::LimitArgs,
    command: Vec<String>,
) -> Result<()> {
    let some = |v: u64| (v > 0).then_some(v);
    let limits = engine::adapter::ResourceLimits {
        cpu_seconds: some(args.cpu),
        memory_mib: some(args.memory),
        processes: some(args.processes),
        move_timeout: some(args.move_timeout).map(std::time::Duration::from_millis),
        output_bytes: some(args.output).map(|m| m << 20),
        file_mib: engine::adapter::ResourceLimits::untrusted().file_mib,
        no_network: !args.allow_network,
        sandbox: !args.no_sandbox,
    };
    let function = match command.as_slice() {
        [one] => FunctionSpec::parse(one),
        _ => None,
    };
    // An untrusted run needs the sandbox, or says on every run that it has none.
    let check_sandbox = || -> Result<()> {
        if args.no_sandbox {
            eprintln!(
                "warning: --no-sandbox: the submission runs unconfined: it can read and write every \
                 file this user can, and what it starts may outlive it"
            );
        } else if let Err(e) = engine::adapter::sandbox::bwrap() {
            anyhow::bail!("{e}");
        }
        // Stopped by a signal, it removes its runs' folders and cgroups first.
        engine::adapter::sandbox::clean_on_signals();
        Ok(())
    };
    if let Some(spec) = function {
        let spec = spec?;
        let backend = FunctionCall::new(spec, depth, limits, !args.no_reuse)?;
        check_sandbox()?;
        engine::session::run_stdio(backend)?;
        return Ok(());
    }
    let format = SeedFormat::parse(format).map_err(|e| anyhow::anyhow!("--format: {e}"))?;
    let input = match input {
        "args" => InputMode::Args,
        "stdin" => InputMode::Stdin,
        other => anyhow::bail!("--input '{other}': use args or stdin"),
    };
    if args.limited {
        check_sandbox()?;
    }
    let mut words = command.into_iter();
    let program = words
        .next()
        .ok_or_else(|| anyhow::anyhow!("board-call needs a PROGRAM after --"))?;
    let backend = BoardCall {
        program: program.into(),
        args: words.collect(),
        format,
        depth,
        input,
        limits: args.limited.then_some(limits),
    };
    engine::session::run_stdio(backend)?;
    Ok(())
}

/// `engine best` was given a finished game: there is no move to make. The binary exits with a
/// status of its own (3) so that a caller can tell it from a bad argument (1).
#[derive(Debug, thiserror::Error)]
#[error("the game is over: {0}")]
pub struct GameOver(String);

/// `engine best GAME BOARD SIDE DEPTH [--trace] [--size N] [--hash MIB] [--eval NAME]`.
#[allow(clippy::too_many_arguments)]
pub fn best(
    game: &str,
    board: &str,
    side: &str,
    depth: u32,
    trace: bool,
    size: Option<usize>,
    hash: usize,
    eval: EvalKind,
    tablebase: Option<PathBuf>,
) -> Result<()> {
    let kind = GameKind::parse(game)?;
    let tablebase = crate::tablebase::search_dir(tablebase)?;
    let tablebase = tablebase.as_deref();
    if depth == 0 {
        anyhow::bail!("the depth must be at least 1");
    }
    with_game!(kind, G => {
        let parsed = read::<G>(board, side)?;
        let pos = *parsed.line.current();
        if let Some(o) = parsed.line.outcome() {
            return Err(GameOver(o.to_string()).into());
        }
        if let Some(n) = size
            && n != pos.size()
        {
            anyhow::bail!("--size {n} does not agree with the board, which has size {}", pos.size());
        }
        let mut searcher = Searcher::<G>::new(hash);
        searcher.set_trace(trace);
        searcher.set_evaluator(eval.function::<G>());
        searcher.set_probe(tables::<G>(tablebase, pos.size(), MEMORY_LIMIT)?);
        let mut out = String::new();
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let result = searcher.search(&parsed.line, &limits, &AtomicBool::new(false), &mut |e| {
            if let Event::Trace(node) = e {
                out.push_str(&format!("trace {node}"));
                out.push('\n');
            }
        });
        let after = result.best.map_or(pos, |m| pos.play(m));
        out.push_str(&print_board(&after, &parsed.format));
        out.push('\n');
        emit(out)
    })
}

/// The tables of `G` at `size` in `dir`, if a directory is given and holds any; tables up to
/// `memory_limit` bytes are read into memory (see `Tablebase::open`). A table that fails its
/// checks is an error, never used.
fn tables<G: Game>(dir: Option<&Path>, size: usize, memory_limit: u64) -> Result<Option<Probe<G>>> {
    let Some(dir) = dir else {
        return Ok(None);
    };
    Ok(engine::tablebase::probe_for::<G>(dir, size, memory_limit)?)
}

/// `engine solve GAME BOARD SIDE [--hash MIB] [--threads N] [--tablebase DIR]`: from the tables
/// when they cover the position, else by the solver (which probes the tables at its nodes).
pub fn solve(
    game: &str,
    board: &str,
    side: &str,
    hash: usize,
    threads: usize,
    tablebase: Option<PathBuf>,
) -> Result<()> {
    let kind = GameKind::parse(game)?;
    let tablebase = crate::tablebase::search_dir(tablebase)?;
    let tablebase = tablebase.as_deref();
    with_game!(kind, G => {
        let parsed = read::<G>(board, side)?;
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

/// The bench positions: game, board, side, depth.
const BENCH: &[(GameKind, &str, char, u32)] = &[
    (GameKind::Oska, "wwww/---/--/---/bbbb", 'w', 10),
    (GameKind::Oska, "wwwww/----/---/--/---/----/bbbbb", 'w', 13),
    (
        GameKind::Oska,
        "wwwwww/-----/----/---/--/---/----/-----/bbbbbb",
        'w',
        10,
    ),
    (GameKind::Oska, "w-ww-/-w--/---/--/-b-/b---/b-b-b", 'b', 12),
    (GameKind::Hexapawn, "wwww/----/----/bbbb", 'w', 12),
    (GameKind::Hexapawn, "wwwww/-----/-----/-----/bbbbb", 'w', 10),
    (
        GameKind::Hexapawn,
        "wwwwww/------/------/------/------/bbbbbb",
        'w',
        8,
    ),
    (GameKind::Ctf, "-wWw-/-www-/-----/-bbb-/-bBb-", 'w', 7),
    (GameKind::Ctf, "wWw/---/bBb", 'w', 14),
];

fn bench_one<G: Game + Evaluate>(board: &str, side: char, depth: u32) -> Result<u64> {
    let parsed = read::<G>(board, &side.to_string())?;
    let mut searcher = Searcher::<G>::new(16);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let result = searcher.search(&parsed.line, &limits, &AtomicBool::new(false), &mut |_| {});
    Ok(result.nodes)
}

/// `engine bench`.
pub fn bench() -> Result<()> {
    let start = std::time::Instant::now();
    let mut total = 0u64;
    let mut out = String::new();
    for &(kind, board, side, depth) in BENCH {
        let nodes = with_game!(kind, G => bench_one::<G>(board, side, depth))?;
        out.push_str(&format!(
            "{kind} {board} {side} depth {depth} nodes {nodes}\n"
        ));
        total += nodes;
    }
    let us = start.elapsed().as_micros().max(1);
    out.push_str(&format!(
        "nodes {total} nps {}\n",
        total as u128 * 1_000_000 / us
    ));
    emit(out)
}
