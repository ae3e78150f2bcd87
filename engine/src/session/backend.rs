//! What the session needs from a search, behind one small trait, and a plain built-in search
//! that implements it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::games::format::slash;
use crate::games::notation::move_name;
use crate::games::{Game, Line, Move, MoveList, Outcome};
use crate::protocol::{Go, Info, Score, SearchInfo};

use super::AnyLine;

/// A search as the session drives it. Implementations run on the session's search thread.
pub trait Backend: Send + 'static {
    /// Sets the transposition table size in MiB.
    fn resize(&mut self, hash_mib: usize);
    /// Turns the per-node trace on or off.
    fn set_trace(&mut self, on: bool);
    /// Forgets everything learnt (new game).
    fn clear(&mut self);
    /// Searches the line's position (never a finished game) within the limits of `go` (never
    /// [`Go::Perft`]) until they are reached, the result is proven, or `stop` is set. Reports
    /// through `report`, and returns the best move in protocol notation (`pass` included), which
    /// must be legal.
    fn search(
        &mut self,
        line: &AnyLine,
        go: Go,
        stop: &AtomicBool,
        report: &mut dyn FnMut(Info),
    ) -> String;
}

const WIN: i32 = 1_000_000;
const INF: i32 = WIN + 1;

/// A plain alpha-beta search (material evaluation, no table) used until the real search is
/// connected; it checks `stop`, the node budget and the deadline at every node.
#[derive(Debug, Default)]
pub struct Builtin {
    trace: bool,
}

struct Ctx<'a> {
    stop: &'a AtomicBool,
    nodes: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    aborted: bool,
    /// Whether some line was cut by the depth (so the result is not proven).
    cut: bool,
    trace: bool,
    report: &'a mut dyn FnMut(Info),
}

impl Ctx<'_> {
    fn should_abort(&mut self) -> bool {
        if !self.aborted
            && (self.stop.load(Ordering::Relaxed)
                || self.nodes >= self.max_nodes
                || (self.nodes.is_multiple_of(256)
                    && self.deadline.is_some_and(|d| Instant::now() >= d)))
        {
            self.aborted = true;
        }
        self.aborted
    }
}

fn outcome_value<G: Game>(pos: &G, o: Outcome, ply: i32) -> i32 {
    match o.winner() {
        Some(s) if s == pos.side_to_move() => WIN - ply,
        Some(_) => -(WIN - ply),
        None => 0,
    }
}

fn negamax<G: Game>(
    line: &mut Line<G>,
    depth: u32,
    ply: i32,
    mut alpha: i32,
    beta: i32,
    ctx: &mut Ctx<'_>,
) -> i32 {
    ctx.nodes += 1;
    if ctx.should_abort() {
        return 0;
    }
    let pos = *line.current();
    let value = if let Some(o) = line.outcome() {
        outcome_value(&pos, o, ply)
    } else if depth == 0 {
        ctx.cut = true;
        let me = pos.side_to_move();
        100 * (pos.piece_count(me) as i32 - pos.piece_count(me.opposite()) as i32)
    } else {
        let mut moves = MoveList::new();
        line.legal_moves(&mut moves);
        let mut best = -INF;
        for &m in moves.as_slice() {
            line.push(m);
            let v = -negamax(line, depth - 1, ply + 1, -beta, -alpha, ctx);
            line.pop();
            if ctx.aborted {
                return 0;
            }
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    };
    if ctx.trace {
        (ctx.report)(Info::Trace(format!(
            "ply {ply} board {} side {} value {value}",
            slash(&pos),
            pos.side_to_move().letter()
        )));
    }
    value
}

fn score_of(v: i32, proven: bool) -> Score {
    if v >= WIN - 10_000 {
        Score::Win((WIN - v) as u32)
    } else if v <= -(WIN - 10_000) {
        Score::Loss((WIN + v) as u32)
    } else if proven && v == 0 {
        Score::Draw
    } else {
        Score::Cp(v)
    }
}

fn search_line<G: Game>(
    line: &Line<G>,
    go: Go,
    stop: &AtomicBool,
    trace: bool,
    report: &mut dyn FnMut(Info),
) -> String {
    let start = Instant::now();
    let mut line = line.clone();
    let pos = *line.current();
    let mut moves = MoveList::new();
    line.legal_moves(&mut moves);
    let mut best: Option<Move> = moves.as_slice().first().copied();
    let (max_depth, max_nodes, deadline) = match go {
        Go::Depth(d) => (d, u64::MAX, None),
        Go::Nodes(n) => (u32::MAX, n, None),
        Go::MoveTime(ms) => (
            u32::MAX,
            u64::MAX,
            start.checked_add(Duration::from_millis(ms)),
        ),
        Go::Infinite | Go::Solve | Go::Perft(_) => (u32::MAX, u64::MAX, None),
    };
    let mut ctx = Ctx {
        stop,
        nodes: 0,
        max_nodes,
        deadline,
        aborted: false,
        cut: false,
        trace,
        report,
    };
    let mut depth = 1;
    while depth <= max_depth {
        ctx.cut = false;
        let mut alpha = -INF;
        let mut iteration_best = None;
        // The previous best first, so that a cut-off iteration still starts from it.
        let mut order: Vec<Move> = moves.as_slice().to_vec();
        if let Some(b) = best
            && let Some(i) = order.iter().position(|&m| m == b)
        {
            order[..=i].rotate_right(1);
        }
        for &m in &order {
            line.push(m);
            let v = -negamax(&mut line, depth - 1, 1, -INF, -alpha, &mut ctx);
            line.pop();
            if ctx.aborted {
                break;
            }
            if v > alpha || iteration_best.is_none() {
                alpha = alpha.max(v);
                iteration_best = Some(m);
            }
        }
        if ctx.aborted {
            break;
        }
        best = iteration_best.or(best);
        let elapsed = start.elapsed();
        let ms = elapsed.as_millis() as u64;
        (ctx.report)(Info::Search(SearchInfo {
            depth,
            score: score_of(alpha, !ctx.cut),
            nodes: ctx.nodes,
            nps: (ctx.nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
            time_ms: ms,
            pv: best.iter().map(|&m| move_name(&pos, m)).collect(),
        }));
        if !ctx.cut {
            break;
        }
        depth += 1;
    }
    best.map_or_else(|| "none".to_string(), |m| move_name(&pos, m))
}

impl Backend for Builtin {
    fn resize(&mut self, _hash_mib: usize) {}

    fn set_trace(&mut self, on: bool) {
        self.trace = on;
    }

    fn clear(&mut self) {}

    fn search(
        &mut self,
        line: &AnyLine,
        go: Go,
        stop: &AtomicBool,
        report: &mut dyn FnMut(Info),
    ) -> String {
        crate::on_line!(line, l => search_line(l, go, stop, self.trace, report))
    }
}

/// Perft that gives up (returning `None`) as soon as `stop` is set.
pub fn perft_stoppable<G: Game>(line: &mut Line<G>, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth == 0 {
        return Some(1);
    }
    let mut moves = MoveList::new();
    line.legal_moves(&mut moves);
    if depth == 1 {
        return Some(moves.len() as u64);
    }
    let mut total = 0;
    for &m in moves.as_slice() {
        line.push(m);
        let n = perft_stoppable(line, depth - 1, stop);
        line.pop();
        total += n?;
    }
    Some(total)
}
