//! `engine best GAME BOARD SIDE DEPTH [--trace | --all] [--size N] [--hash MIB] [--threads N]
//! [--eval NAME] [--tablebase DIR]`.

use std::sync::atomic::AtomicBool;

use anyhow::Result;
use boardgames_core::eval::{EvalKind, Evaluate};
use boardgames_core::games::format::print_board;
use boardgames_core::games::notation::move_name;
use boardgames_core::games::{Game, Line, Move, MoveList};
use boardgames_core::search::{Event, IterationInfo, Limits, Searcher};
use boardgames_core::tablebase::memory_limit;
use boardgames_core::with_game;
use clap::builder::{PossibleValuesParser, TypedValueParser};

use super::common::{PositionDepth, TablebaseArg, tables, threads};
use crate::cli::{board_size, digits, emit, hash_mib};

/// Print the board after SIDE's best move, searched to exactly DEPTH plies.
///
/// Search SIDE's best move to exactly DEPTH plies and print the board after it, in the
/// input's format, as the last line (the board unchanged when SIDE must pass). On a finished
/// game: prints "the game is over: ..." on stderr, nothing on stdout, and exits with status 3.
///
/// Scores are SIDE's: positive is good for SIDE. Of moves of equal value the search keeps the
/// first it searched; --all lists every move with its value (see docs/cli.md, "Comparing an
/// assignment's answer").
#[derive(clap::Args, Debug)]
#[command(mut_arg("depth", |a| a
    .help("Plies to search, 1 to 100 (2: SIDE's move and the reply)")
    .value_parser(|t: &str| digits(t, 1u32, 100))))]
pub struct Args {
    #[command(flatten)]
    at: PositionDepth,
    /// Print one line per searched node before the answer (the fields: protocol.md, "info
    /// trace"; an example: docs/cli.md, "The trace").
    #[arg(long, conflicts_with = "all")]
    trace: bool,
    /// Instead of the board: every legal move of SIDE, one line each, `MOVE SCORE BOARD`, with
    /// its value for SIDE at DEPTH (`cp N`, `win K`, `loss K` or `draw`, K plies to the end)
    /// and the board after it; best first, the move printed without --all first of its
    /// value, other moves of equal value after it.
    #[arg(long)]
    all: bool,
    /// The board size, which must agree with the board (Hexapawn's size argument).
    #[arg(long, allow_hyphen_values = true, value_parser = board_size)]
    size: Option<usize>,
    /// Transposition table size in MiB, from 1 to the memory free.
    #[arg(long, default_value_t = 16, allow_hyphen_values = true, value_parser = hash_mib)]
    hash: usize,
    /// Threads to search on, 1 to 256 (not with --trace). The value is the same on any number;
    /// the move may be another of equal value.
    #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = threads)]
    threads: u32,
    /// The static evaluator: tuned (the game's own, fitted to exact values), legacy (the
    /// first version's), or one of the seeds' classic ones: material, classic-advance
    /// (material and rows advanced), classic-race (the race count). Any case.
    #[arg(long, value_name = "NAME", default_value = "tuned", ignore_case = true,
          value_parser = eval_kind())]
    eval: EvalKind,
    #[command(flatten)]
    tablebase: TablebaseArg,
}

/// Reads an evaluator's name; `--help` and errors list every name.
fn eval_kind() -> impl TypedValueParser<Value = EvalKind> {
    PossibleValuesParser::new(EvalKind::ALL.map(EvalKind::name))
        .map(|name| EvalKind::parse(&name).expect("a listed name"))
}

/// `engine best` was given a finished game: there is no move to make. The binary exits with a
/// status of its own (3) so that a caller can tell it from a bad argument (1).
#[derive(Debug, thiserror::Error)]
#[error("the game is over: {0}")]
pub struct GameOver(String);

/// Prints the board after the best move (after a trace of the search with `--trace`), or fails
/// with [`GameOver`] on a finished game.
pub fn run(args: Args) -> Result<()> {
    let Args {
        at: PositionDepth { position, depth },
        trace,
        all,
        size,
        hash,
        threads,
        eval,
        tablebase,
    } = args;
    let kind = position.game;
    let tablebase = tablebase.dir()?;
    let tablebase = tablebase.as_deref();
    if depth == 0 {
        anyhow::bail!("the depth must be at least 1");
    }
    if trace && threads > 1 {
        anyhow::bail!("--trace searches on one thread: leave out --threads {threads}");
    }
    with_game!(kind, G => {
        let parsed = position.read::<G>()?;
        let pos = *parsed.line.current();
        if let Some(o) = parsed.line.outcome() {
            return Err(GameOver(o.to_string()).into());
        }
        if let Some(n) = size
            && n != pos.size()
        {
            anyhow::bail!("--size {n} does not agree with the board, which has size {}", pos.size());
        }
        let new_searcher = || -> Result<Searcher<G>> {
            let mut searcher = Searcher::<G>::new(hash);
            searcher.set_evaluator(eval.function::<G>());
            searcher.set_probe(tables::<G>(tablebase, pos.size(), memory_limit()?)?);
            Ok(searcher)
        };
        let mut searcher = new_searcher()?;
        searcher.set_trace(trace);
        let mut out = String::new();
        let limits = Limits {
            depth: Some(depth),
            threads: threads as usize,
            ..Limits::default()
        };
        let result = searcher.search(&parsed.line, &limits, &AtomicBool::new(false), &mut |e| {
            if let Event::Trace(node) = e {
                out.push_str(&format!("trace {node}"));
                out.push('\n');
            }
        });
        if all {
            // A search of its own for every move's exact value (several lines), in a fresh
            // table, so that the best move's search is the one `best` makes without --all.
            let lines = every_move(&mut new_searcher()?, &parsed.line, &limits);
            for (mv, score) in ranked(lines, result.best) {
                out.push_str(&format!(
                    "{:<5} {:<9} {}\n",
                    move_name(&pos, mv),
                    score.to_string(),
                    print_board(&pos.play(mv), &parsed.format)
                ));
            }
            return emit(out);
        }
        let after = result.best.map_or(pos, |m| pos.play(m));
        out.push_str(&print_board(&after, &parsed.format));
        out.push('\n');
        emit(out)
    })
}

/// Every legal move of `line`'s side to move with its score at `limits`' depth, as a search for
/// that many lines finds them: best first, moves of equal value in the order searched.
fn every_move<G: Game + Evaluate>(
    searcher: &mut Searcher<G>,
    line: &Line<G>,
    limits: &Limits,
) -> Vec<(Move, boardgames_core::score::Score)> {
    let mut moves = MoveList::new();
    line.legal_moves(&mut moves);
    let limits = Limits {
        multipv: moves.len(),
        ..limits.clone()
    };
    let mut last: Vec<IterationInfo> = Vec::new();
    searcher.search(line, &limits, &AtomicBool::new(false), &mut |e| {
        if let Event::Iteration(i) = e {
            if last.first().is_some_and(|f| f.depth != i.depth) {
                last.clear();
            }
            last.push(i.clone());
        }
    });
    last.iter()
        .filter_map(|i| Some((*i.pv.first()?, i.score)))
        .collect()
}

/// The lines of [`every_move`] with `best` (the move of the search for one line) first among
/// those of its value.
fn ranked(
    mut lines: Vec<(Move, boardgames_core::score::Score)>,
    best: Option<Move>,
) -> Vec<(Move, boardgames_core::score::Score)> {
    if let Some(b) = best
        && let Some(at) = lines.iter().position(|&(m, _)| m == b)
    {
        let value = lines[at].1.value();
        let first = lines
            .iter()
            .position(|(_, s)| s.value() == value)
            .unwrap_or(at);
        let line = lines.remove(at);
        lines.insert(first, line);
    }
    lines
}
