//! The exact solver for games without the history rule (Oska, Hexapawn).
//!
//! These games are finite and acyclic (pieces only move forward; two passes in a row cannot
//! happen, the board is then a draw), and a position's game value, wins and losses counted in
//! plies from the position, depends on the position alone. The solver is a negamax alpha-beta
//! over the *whole* game tree: no depth limit and no static evaluation, so every value it meets
//! is a game-theoretic value and every table entry it stores is a true bound, valid on every path
//! and at every depth. That is what makes it exact, and what lets threads share the table.
//!
//! - Stage 1 ("wdl") searches with the window (-1, 1): the result is a draw (exact), or a bound
//!   on a win or loss (fail-soft: some win is proven; the fastest may be faster).
//! - Stage 2 ("distance", for a win or loss only) moves that bound by null-window tests (MTD(f)):
//!   for a win worth at least `b`, is it worth at least `b + 1`? A test failing high gives a new
//!   bound (fail-soft, often several plies better); one failing low proves `b` exact. So the
//!   result is the exact fastest win or slowest loss.
//! - Mate-distance pruning clips each node's window to what is reachable from its ply (a win at
//!   the earliest next ply, a loss at the latest now), which turns stage 2 into a depth-bounded
//!   search. Table bounds narrow the window too; the bound type of a stored result is always
//!   judged against the window actually searched, so stored bounds stay true.
//! - The table uses entries of the depth-limited search only when they are *complete* (game-
//!   theoretic bounds); its own entries are complete and carry depths from
//!   [`SOLVED_DEPTH`](super::tt::SOLVED_DEPTH) up, which the depth-limited search never cuts with.
//! - With more than one thread, helpers run the same stages on the same root with perturbed move
//!   ordering, sharing the table (Lazy SMP); only the main thread's result is returned, and it is
//!   exact whatever the helpers stored (true bounds only). Node counts then vary between runs.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use super::tt::{Bound, SOLVED_DEPTH};
use super::{
    Ctx, Event, INFINITY, IterationInfo, SEARCH_STACK, SearchResult, Searcher, from_table,
    history_index, outcome_value, to_table,
};
use crate::games::{Game, MAX_MOVES, Move, MoveList};
use crate::score::{MAX_PLY, Score, WIN};
use crate::splitmix::mix;

use super::Evaluate;

/// How far an exact solve has got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// `wdl` (win, draw or loss) or `distance` (the exact length of a win or loss).
    pub stage: &'static str,
    /// Root moves finished in this stage, out of `root_moves`.
    pub root_done: usize,
    /// Legal moves at the root.
    pub root_moves: usize,
    /// Nodes searched so far by this thread.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// What the last finished stage proved, if any (`win K` or `loss K` in stage 1: at least
    /// that good or bad; the exact value after stage 2).
    pub bound: Option<Score>,
}

impl Progress {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let us = self.time.as_micros().max(1);
        (self.nodes as u128 * 1_000_000 / us) as u64
    }
}

impl fmt::Display for Progress {
    /// `solve stage wdl root 3/6 nodes N time 12.3s nps M`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "solve stage {} root {}/{} nodes {} time {:.1}s nps {}",
            self.stage,
            self.root_done,
            self.root_moves,
            self.nodes,
            self.time.as_secs_f64(),
            self.nps()
        )?;
        if let Some(b) = self.bound {
            write!(f, " bound {b}")?;
        }
        Ok(())
    }
}

/// Time between progress reports (besides one at the end of each stage but the last).
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

impl<G: Game + Evaluate> Searcher<G> {
    /// A helper for a parallel solve or search: shares the table, has its own ordering state.
    pub(super) fn helper(&self, skew: u64) -> Searcher<G> {
        let mut h = Searcher::<G>::with_table(self.table.clone());
        h.eval = Arc::clone(&self.eval);
        h.probe = self.probe.clone();
        h.style = self.style;
        h.skew = skew;
        h.started = self.started;
        h
    }

    /// Solves `root` (not over) exactly with `threads` threads; see the module doc.
    pub(super) fn solve_exact(
        &mut self,
        ctx: &mut Ctx<'_, '_>,
        root: G,
        threads: usize,
    ) -> SearchResult {
        let done = AtomicBool::new(false);
        let helper_nodes = AtomicU64::new(0);
        let outcome = std::thread::scope(|scope| {
            for i in 1..threads {
                let mut h = self.helper(mix(i as u64) | 1);
                let (done, helper_nodes) = (&done, &helper_nodes);
                // A helper that cannot be started only leaves the solve with fewer threads.
                let _ = std::thread::Builder::new()
                    .name("engine-solve".into())
                    .stack_size(SEARCH_STACK)
                    .spawn_scoped(scope, move || {
                        let mut sink = |_: Event<'_>| {};
                        let mut hctx = Ctx {
                            stop: done,
                            report: &mut sink,
                        };
                        h.stages(&mut hctx, root);
                        helper_nodes.fetch_add(h.nodes, Ordering::Relaxed);
                    });
            }
            let r = self.stages(ctx, root);
            done.store(true, Ordering::Relaxed);
            r
        });
        let nodes = self.nodes + helper_nodes.load(Ordering::Relaxed);
        let mut moves = MoveList::new();
        root.generate(&mut moves);
        let first = moves.as_slice()[0];
        match outcome {
            Some((value, best)) => {
                let score = Score::from_value(value, true);
                let pv = self.table_pv(root, best);
                let info = IterationInfo {
                    depth: match score {
                        Score::Win(k) | Score::Loss(k) => k,
                        _ => pv.len() as u32,
                    },
                    score,
                    nodes,
                    tbhits: self.tbhits,
                    time: self.started.elapsed(),
                    pv: pv.clone(),
                    exact: true,
                    multipv: 1,
                };
                (ctx.report)(Event::Iteration(&info));
                SearchResult {
                    best: Some(best),
                    score,
                    depth: info.depth,
                    nodes,
                    pv,
                    exact: true,
                }
            }
            None => SearchResult {
                best: Some(first),
                score: Score::Cp(0),
                depth: 0,
                nodes,
                pv: vec![first],
                exact: false,
            },
        }
    }

    /// Runs the stages; the exact value and the best move, or `None` when stopped.
    fn stages(&mut self, ctx: &mut Ctx<'_, '_>, root: G) -> Option<(i32, Move)> {
        self.next_progress = PROGRESS_EVERY;
        self.stage = "wdl";
        self.root_best = None;
        let v = self.prove(ctx, &root, 0, -1, 1);
        if self.aborted {
            return None;
        }
        if v == 0 {
            return self.root_best.map(|m| (0, m));
        }
        self.report_progress(ctx, Some(Score::from_value(v, true)));
        self.stage = "distance";
        // Null-window tests toward the bound's far end (MTD(f)): a win is at least `bound`, a loss
        // at most. The best move is the root move of the last test that failed high (a move worth
        // at least its beta); for a win stage 1 was one.
        let mut bound = v;
        let mut best = if v > 0 { self.root_best } else { None };
        loop {
            let beta = if v > 0 { bound + 1 } else { bound };
            let r = self.prove(ctx, &root, 0, beta - 1, beta);
            if self.aborted {
                return None;
            }
            if r >= beta {
                best = self.root_best;
            }
            // Moved toward the far end (a faster win, a slower loss): a new bound; else exact.
            if (v > 0 && r > bound) || (v < 0 && r < bound) {
                bound = r;
            } else {
                return best.map(|m| (bound, m));
            }
            self.report_progress(ctx, Some(Score::from_value(bound, true)));
        }
    }

    #[cold]
    fn report_progress(&mut self, ctx: &mut Ctx<'_, '_>, bound: Option<Score>) {
        let p = Progress {
            stage: self.stage,
            root_done: self.root_done,
            root_moves: self.root_total,
            nodes: self.nodes,
            time: self.started.elapsed(),
            bound,
        };
        self.next_progress = p.time + PROGRESS_EVERY;
        (ctx.report)(Event::Progress(&p));
    }

    /// The principal variation: `best`, then the table's moves while they are legal.
    fn table_pv(&self, root: G, best: Move) -> Vec<Move> {
        let mut pv = vec![best];
        let mut pos = root.play(best);
        let mut moves = MoveList::new();
        while pv.len() < MAX_PLY && pos.board_outcome().is_none() {
            let Some(m) = self.table.probe(Game::hash(&pos)).and_then(|e| e.best()) else {
                break;
            };
            moves.clear();
            pos.generate(&mut moves);
            if !moves.contains(m) {
                break;
            }
            pv.push(m);
            pos = pos.play(m);
        }
        pv
    }

    /// The game value of `pos` at `ply` within the window: exact inside it, a true bound outside
    /// (fail-soft).
    fn prove(&mut self, ctx: &mut Ctx<'_, '_>, pos: &G, ply: usize, alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.poll(ctx);
            if self.skew == 0 && self.started.elapsed() >= self.next_progress {
                self.report_progress(ctx, None);
            }
        }
        if self.aborted {
            return 0;
        }
        if let Some(outcome) = pos.board_outcome() {
            return outcome_value(outcome, pos, ply);
        }
        if ply > 0
            && let Some(value) = self.probe_value(pos, ply)
        {
            return value;
        }
        if ply >= MAX_PLY {
            // Longer than any line the search follows: give up (the solve reports no result).
            self.aborted = true;
            return 0;
        }
        let ply_i = ply as i32;
        // Mate-distance pruning: the side to move wins at ply + 1 at best, loses now at worst.
        let mut alpha = alpha.max(-(WIN - ply_i));
        let mut beta = beta.min(WIN - ply_i - 1);
        if alpha >= beta {
            return alpha;
        }

        let key = Game::hash(pos);
        let mut table_move = None;
        if let Some(e) = self.table.probe(key) {
            table_move = e.best();
            // The root always searches, so that it names the move behind its value.
            if e.complete() && ply > 0 {
                let s = from_table(e.score, ply);
                match e.bound() {
                    Bound::Exact => return s,
                    Bound::Lower => alpha = alpha.max(s),
                    Bound::Upper => beta = beta.min(s),
                }
                if alpha >= beta {
                    return s;
                }
            }
        }

        let mut moves = MoveList::new();
        pos.generate(&mut moves);
        if moves.is_empty() {
            // Hexapawn: the side to move has no legal move and has lost.
            return -(WIN - ply_i);
        }

        // A move that wins at once is the best there is: no need to order or search.
        let me = pos.side_to_move();
        for &m in moves.as_slice() {
            if let Some(o) = pos.play(m).board_outcome()
                && o.winner() == Some(me)
            {
                let v = WIN - ply_i - 1;
                if ply == 0 {
                    self.root_best = Some(m);
                }
                self.table.store(
                    key,
                    to_table(v, ply),
                    SOLVED_DEPTH,
                    Bound::Exact,
                    true,
                    Some(m),
                );
                return v;
            }
        }

        let side = me.index();
        let killers = self.killers[ply];
        let n = moves.len();
        // Oska and Hexapawn have at most 33 moves (11 pieces); a small array is cheaper to clear.
        let mut small = [0u32; 64];
        let mut large;
        let keys: &mut [u32] = if n <= small.len() {
            &mut small[..n]
        } else {
            large = [0u32; MAX_MOVES];
            &mut large[..n]
        };
        for (k, &m) in keys.iter_mut().zip(moves.as_slice()) {
            *k = super::fixed_order_key(pos, m, table_move, &killers, true).unwrap_or_else(|| {
                if self.skew != 0 {
                    (mix(key ^ self.skew ^ ((m.from as u64) << 8 | m.to as u64)) >> 40) as u32
                } else {
                    self.history[history_index(side, m)]
                }
            });
        }

        if ply == 0 {
            self.root_total = n;
            self.root_done = 0;
        }
        let alpha0 = alpha;
        let nodes0 = self.nodes;
        let mut best_value = -INFINITY;
        let mut best_move = None;
        for i in 0..n {
            let m = super::pick_next(&mut keys[..n], &mut moves, i);
            let child = pos.play(m);
            let v = -self.prove(ctx, &child, ply + 1, -beta, -alpha);
            if self.aborted {
                return 0;
            }
            if ply == 0 {
                self.root_done = i + 1;
            }
            if v > best_value {
                best_value = v;
                best_move = Some(m);
                if ply == 0 {
                    self.root_best = Some(m);
                }
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        if !pos.is_capture(m) && !m.is_pass() {
                            self.reward(ply, side, m, 1);
                        }
                        break;
                    }
                }
            }
        }

        let bound = Bound::of(best_value, alpha0, beta);
        let size = 64 - (self.nodes - nodes0).leading_zeros();
        self.table.store(
            key,
            to_table(best_value, ply),
            SOLVED_DEPTH + size,
            bound,
            true,
            best_move,
        );
        best_value
    }
}
