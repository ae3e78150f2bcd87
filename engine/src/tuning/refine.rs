//! Refining a size's pattern weights with the search itself (`engine refine-patterns`).
//!
//! The logistic fit ([`super::patterns`]) makes each position's static score predict its exact
//! value; what a fixed-depth player needs is narrower: that a depth-d search ranks a move that
//! keeps the value above every move that throws it away. For each critical position of a
//! labelled set and each depth, the search (with every root move's line, as `MultiPV`) gives
//! the best-scored move that keeps the value and the best-scored one that throws it away; their
//! scores are the static scores of the leaves their lines end in. One epoch lowers a pairwise
//! logistic loss, `ln(1 + exp(-(keep - lose) / T))`, by a gradient step on the pattern weights
//! of those two leaves, then searches again with the new weights. The linear weights, shared
//! by every size of the game, stay as they are.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::positions::{Labelled, Wdl};
use crate::games::{Game, Line, Move, Side};
use crate::search::eval::dot;
use crate::search::patterns::{PatternBoard, score_with};
use crate::search::{EVAL_LIMIT, Evaluate, Event, Limits, Score, Searcher};

/// How a refinement runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The depths searched in every critical position (each one a pair of leaves).
    pub depths: Vec<u32>,
    /// Gradient steps.
    pub epochs: usize,
    /// The step's size (weight units per unit of summed gradient).
    pub rate: f64,
    /// The temperature `T` of the pairwise loss, in evaluation units.
    pub temperature: f64,
    /// Threads searching (the result does not depend on it).
    pub threads: usize,
}

/// The state of the weights at the start of one epoch (and, for the last, the result).
#[derive(Clone, Debug, PartialEq)]
pub struct Epoch {
    /// 0 for the starting weights.
    pub epoch: usize,
    /// Searches (critical positions times depths) that chose a move throwing the value away.
    pub blunders: usize,
    /// Searches made.
    pub searches: usize,
    /// Pairs of leaves in the loss (searches where both kinds of move have a line to a leaf).
    pub pairs: usize,
    /// The mean pairwise loss.
    pub loss: f64,
}

/// The tuned score of `pos` with pattern weights `w`: [`Evaluate::evaluate`] with `w` in place
/// of the committed pattern weights.
pub fn evaluate_with<P: Evaluate + PatternBoard>(pos: &P, w: &[i16]) -> i32 {
    let mut f = [0i32; 32];
    let f = &mut f[..P::FEATURE_NAMES.len()];
    pos.features(f);
    (dot(f, P::weights()) + score_with(pos, w)).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// The leaf a line from `line` ends in, unless the game ends on the way.
fn leaf<P: Game>(line: &Line<P>, pv: &[Move]) -> Option<P> {
    let mut l = line.clone();
    for &m in pv {
        l.push(m);
    }
    l.outcome().is_none().then(|| *l.current())
}

/// The leaves of the best-scored value-keeping and value-losing root moves' lines, with the
/// root's side to move.
type Pair<P> = (P, P, Side);

/// Searches each position of `set` to `depth` with pattern weights `weights`: how many searches
/// chose a move throwing the value away, and the pair of leaves of each position.
fn search_pairs<P: Evaluate + PatternBoard>(
    set: &[&Labelled<P>],
    depth: u32,
    weights: &Arc<Vec<i16>>,
) -> (usize, Vec<Pair<P>>) {
    let mut searcher = Searcher::<P>::new(1);
    let w = Arc::clone(weights);
    searcher.set_evaluator_with(Arc::new(move |p: &P| evaluate_with(p, &w)));
    let limits = Limits {
        depth: Some(depth),
        multipv: crate::games::MAX_MOVES,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut blunders = 0;
    let mut pairs = Vec::new();
    for pos in set {
        searcher.clear();
        let mut lines: Vec<(i32, Vec<Move>)> = Vec::new();
        let r = searcher.search(&pos.line, &limits, &stop, &mut |e| {
            if let Event::Iteration(it) = e
                && it.depth == depth
                && !it.pv.is_empty()
            {
                lines.push((rank(it.score), it.pv.clone()));
            }
        });
        let value = Wdl::of(pos.value);
        let keeps = |m: Move| pos.value_of(m).is_some_and(|s| Wdl::of(s) >= value);
        if r.best.is_some_and(|m| !keeps(m)) {
            blunders += 1;
        }
        let best_of = |keep: bool| {
            lines
                .iter()
                .filter(|(_, pv)| keeps(pv[0]) == keep)
                .max_by_key(|(s, _)| *s)
                .and_then(|(_, pv)| leaf(&pos.line, pv))
        };
        if let (Some(good), Some(bad)) = (best_of(true), best_of(false)) {
            pairs.push((good, bad, pos.line.current().side_to_move()));
        }
    }
    (blunders, pairs)
}

/// A root line's score as one ordered number (wins above every evaluation, losses below).
fn rank(s: Score) -> i32 {
    match s {
        Score::Win(k) => 2 * EVAL_LIMIT - k as i32,
        Score::Loss(k) => -2 * EVAL_LIMIT + k as i32,
        Score::Cp(c) => c,
        _ => 0,
    }
}

/// Refines `start` (the pattern weights of the set's size) on the critical positions of `set`;
/// calls `report` at the start of every epoch and once for the weights returned.
pub fn refine<P: Evaluate + PatternBoard>(
    set: &[Labelled<P>],
    start: &[i16],
    opts: &Options,
    report: &mut dyn FnMut(&Epoch),
) -> Vec<i16> {
    let critical: Vec<&Labelled<P>> = set.iter().filter(|l| l.critical()).collect();
    let mut w: Vec<f64> = start.iter().map(|&x| f64::from(x)).collect();
    let mut current: Vec<i16> = start.to_vec();
    let Some(first) = set.first() else {
        return current;
    };
    let shape = first.line.current().shape();
    let windows = shape.windows();
    let threads = opts.threads.max(1);
    let chunk = critical.len().div_ceil(threads).max(1);
    for epoch in 0..=opts.epochs {
        let snapshot = Arc::new(current.clone());
        let mut blunders = 0;
        let mut pairs = Vec::new();
        for &depth in &opts.depths {
            // Each thread its part of the set; the parts are joined in order, so the sums
            // below do not depend on the threads.
            let parts: Vec<(usize, Vec<Pair<P>>)> = std::thread::scope(|s| {
                let handles: Vec<_> = critical
                    .chunks(chunk)
                    .map(|part| {
                        let snapshot = &snapshot;
                        s.spawn(move || search_pairs(part, depth, snapshot))
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a refinement thread does not panic"))
                    .collect()
            });
            for (b, p) in parts {
                blunders += b;
                pairs.extend(p);
            }
        }
        let mut grad = vec![0.0f64; w.len()];
        let mut loss = 0.0;
        let mut idx = vec![0u32; windows];
        for (good, bad, root) in &pairs {
            let seen = |x: &P| {
                let e = f64::from(evaluate_with(x, &current));
                if x.side_to_move() == *root { e } else { -e }
            };
            let margin = (seen(good) - seen(bad)) / opts.temperature;
            loss += (-margin).exp().ln_1p();
            // Minus the loss's derivative by the margin.
            let g = 1.0 / (1.0 + margin.exp());
            for (x, sign) in [(good, 1.0), (bad, -1.0)] {
                let s = if x.side_to_move() == *root { 1.0 } else { -1.0 };
                shape.indices(x, &mut idx);
                for &i in &idx {
                    grad[i as usize] += g * sign * s;
                }
            }
        }
        report(&Epoch {
            epoch,
            blunders,
            searches: critical.len() * opts.depths.len(),
            pairs: pairs.len(),
            loss: loss / pairs.len().max(1) as f64,
        });
        if epoch == opts.epochs {
            break;
        }
        for ((wi, gi), ci) in w.iter_mut().zip(&grad).zip(current.iter_mut()) {
            *wi = (*wi + opts.rate * gi).clamp(f64::from(i16::MIN), f64::from(i16::MAX));
            *ci = wi.round() as i16;
        }
    }
    current
}
