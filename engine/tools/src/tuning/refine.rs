//! Refining a size's pattern weights with the search itself (`engine-tune refine-patterns`).
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
//!
//! [`refine_linear`] is the same loss for a game without pattern terms (Capture the Flag),
//! where the solver cannot label mid-game positions: the good move is a teacher's (a deeper
//! search's, [`super::teach`]), exactly labelled positions may join it, and the linear weights
//! are what moves: `engine-tune refine-weights` writes them for one board size.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::in_parts;
use super::positions::{Labelled, Wdl};
use boardgames_core::eval::patterns::{PatternBoard, score_with};
use boardgames_core::eval::{EVAL_LIMIT, Evaluate, dot};
use boardgames_core::games::{Game, Line, Move, Side};
use boardgames_core::score::Score;
use boardgames_core::search::{Evaluator, Event, Limits, Searcher};

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
    /// [`refine_linear`] with exactly labelled positions besides the taught ones: the searches
    /// of those that chose a move throwing the value away, and the searches made. `blunders`
    /// and `searches` then count the taught positions alone.
    pub exact: Option<(usize, usize)>,
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

/// The leaves of the best-scored good and bad root moves' lines, with the root's side to move.
type Pair<P> = (P, P, Side);

/// Which root moves of a position count as good: by exact values, or by a teacher's choice.
#[derive(Clone, Copy)]
enum Judge<'a, P: Game> {
    /// A move is good when it keeps the position's exact value.
    Exact(&'a Labelled<P>),
    /// Only the teacher's move is good.
    Teacher(&'a Line<P>, Move),
}

impl<P: Game> Judge<'_, P> {
    fn line(&self) -> &Line<P> {
        match self {
            Judge::Exact(l) => &l.line,
            Judge::Teacher(line, _) => line,
        }
    }

    fn good(&self, m: Move) -> bool {
        match self {
            Judge::Exact(l) => {
                let value = Wdl::of(l.value);
                l.value_of(m).is_some_and(|s| Wdl::of(s) >= value)
            }
            Judge::Teacher(_, t) => m == *t,
        }
    }
}

/// Searches each position to `depth` with evaluator `eval`: how many searches chose a bad move,
/// and the pair of leaves of each position that has both a good and a bad move with a line.
fn search_pairs<P: Evaluate>(
    items: &[Judge<'_, P>],
    depth: u32,
    eval: Evaluator<P>,
) -> (usize, Vec<Pair<P>>) {
    let mut searcher = Searcher::<P>::new(1);
    searcher.set_evaluator_with(eval);
    let limits = Limits {
        depth: Some(depth),
        multipv: boardgames_core::games::MAX_MOVES,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut misses = 0;
    let mut pairs = Vec::new();
    for item in items {
        let line = item.line();
        searcher.clear();
        let mut lines: Vec<(i32, Vec<Move>)> = Vec::new();
        let r = searcher.search(line, &limits, &stop, &mut |e| {
            if let Event::Iteration(it) = e
                && it.depth == depth
                && !it.pv.is_empty()
            {
                lines.push((rank(it.score), it.pv.clone()));
            }
        });
        if r.best.is_some_and(|m| !item.good(m)) {
            misses += 1;
        }
        let best_of = |good: bool| {
            lines
                .iter()
                .filter(|(_, pv)| item.good(pv[0]) == good)
                .max_by_key(|(s, _)| *s)
                .and_then(|(_, pv)| leaf(line, pv))
        };
        if let (Some(good), Some(bad)) = (best_of(true), best_of(false)) {
            pairs.push((good, bad, line.current().side_to_move()));
        }
    }
    (misses, pairs)
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

/// One epoch's searches of every item at every depth with evaluator `eval`, split among
/// `threads` (the parts are joined in order, so the result does not depend on the threads):
/// the searches that chose a bad move and the pairs of leaves.
fn epoch_pairs<P: Evaluate>(
    items: &[Judge<'_, P>],
    depths: &[u32],
    threads: usize,
    eval: &Evaluator<P>,
) -> (usize, Vec<Pair<P>>) {
    let mut misses = 0;
    let mut pairs = Vec::new();
    for &depth in depths {
        let parts = in_parts(items, threads, |part| {
            vec![search_pairs(part, depth, Arc::clone(eval))]
        });
        for (m, p) in parts {
            misses += m;
            pairs.extend(p);
        }
    }
    (misses, pairs)
}

/// The mean pairwise loss of `pairs` under `eval`, adding to `grad` (through `add`, which
/// spreads a leaf's weight `g` over the parameters its score depends on) minus the loss's
/// gradient.
fn pair_loss<P: Game>(
    pairs: &[Pair<P>],
    temperature: f64,
    eval: &dyn Fn(&P) -> i32,
    add: &mut dyn FnMut(&P, f64),
) -> f64 {
    let mut loss = 0.0;
    for (good, bad, root) in pairs {
        let sign_of = |x: &P| if x.side_to_move() == *root { 1.0 } else { -1.0 };
        let seen = |x: &P| sign_of(x) * f64::from(eval(x));
        let margin = (seen(good) - seen(bad)) / temperature;
        loss += (-margin).exp().ln_1p();
        // Minus the loss's derivative by the margin.
        let g = 1.0 / (1.0 + margin.exp());
        add(good, g * sign_of(good));
        add(bad, -g * sign_of(bad));
    }
    loss / pairs.len().max(1) as f64
}

/// Refines `start` (the pattern weights of the set's size) on the critical positions of `set`;
/// calls `report` at the start of every epoch and once for the weights returned.
pub fn refine<P: Evaluate + PatternBoard>(
    set: &[Labelled<P>],
    start: &[i16],
    opts: &Options,
    report: &mut dyn FnMut(&Epoch),
) -> Vec<i16> {
    let items: Vec<Judge<'_, P>> = set
        .iter()
        .filter(|l| l.critical())
        .map(Judge::Exact)
        .collect();
    let mut w: Vec<f64> = start.iter().map(|&x| f64::from(x)).collect();
    let mut current: Vec<i16> = start.to_vec();
    let Some(first) = set.first() else {
        return current;
    };
    let shape = first.line.current().shape();
    let mut idx = vec![0u32; shape.windows()];
    for epoch in 0..=opts.epochs {
        let snapshot = Arc::new(current.clone());
        let eval: Evaluator<P> = Arc::new(move |p: &P| evaluate_with(p, &snapshot));
        let (blunders, pairs) = epoch_pairs(&items, &opts.depths, opts.threads, &eval);
        let mut grad = vec![0.0f64; w.len()];
        let loss = pair_loss(&pairs, opts.temperature, &*eval, &mut |x, g| {
            shape.indices(x, &mut idx);
            for &i in &idx {
                grad[i as usize] += g;
            }
        });
        report(&Epoch {
            epoch,
            blunders,
            searches: items.len() * opts.depths.len(),
            pairs: pairs.len(),
            loss,
            exact: None,
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

/// A position and the move a teacher (a deeper search) plays in it.
#[derive(Clone, Debug)]
pub struct Taught<P: Game> {
    /// The position with its history.
    pub line: Line<P>,
    /// The teacher's move.
    pub teacher: Move,
}

/// The features of `pos` that linear weights score: [`Evaluate::features`], then those of its
/// piece-square term ([`Evaluate::piece_square_counts`]), in `out`.
fn linear_features<P: Evaluate>(pos: &P, out: &mut Vec<i32>, squares: &mut Vec<i32>) {
    out.clear();
    out.resize(P::FEATURE_NAMES.len(), 0);
    pos.features(out);
    pos.piece_square_counts(squares);
    out.extend_from_slice(squares);
}

/// The score of `pos` with linear weights `w` (the features' then, if `w` has them, the
/// piece-square term's) in place of the committed ones, for a game without pattern terms
/// (Capture the Flag).
pub fn evaluate_linear<P: Evaluate>(pos: &P, w: &[i32]) -> i32 {
    let mut f = [0i32; 32];
    let k = P::FEATURE_NAMES.len();
    let f = &mut f[..k];
    pos.features(f);
    let mut score = dot(f, &w[..k]);
    if w.len() > k {
        let mut squares = Vec::new();
        pos.piece_square_counts(&mut squares);
        score += dot(&squares, &w[k..]);
    }
    score.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// An evaluator scoring with [`evaluate_linear`] and its own copy of the weights `w`.
pub fn linear_evaluator<P: Evaluate>(w: &[i32]) -> Evaluator<P> {
    let w = w.to_vec();
    Arc::new(move |p: &P| evaluate_linear(p, &w))
}

/// Refines the linear weights `start` of a game without pattern terms so that searches to the
/// depths score the teacher's move above every other (`Epoch::blunders` then counts the
/// searches that chose another move), and, in the critical positions of `exact`, a move that
/// keeps the value above every move that throws it away (as [`refine`]; their pairs join the
/// same loss, each counting as `exact_weight` taught ones, since few of them have a pair). The
/// reported loss is the weighted mean. The step is normalised per weight (a running mean of
/// the squared gradient), so each weight moves by about `rate` units an epoch whatever the
/// scale of its feature; the first weight (the constant `tempo`) is left as it is, as a pair's
/// two leaves have the same side to move. Calls `report` as [`refine`] does.
pub fn refine_linear<P: Evaluate>(
    taught: &[Taught<P>],
    exact: &[Labelled<P>],
    exact_weight: f64,
    start: &[i32],
    opts: &Options,
    report: &mut dyn FnMut(&Epoch),
) -> Vec<i32> {
    let items: Vec<Judge<'_, P>> = taught
        .iter()
        .map(|t| Judge::Teacher(&t.line, t.teacher))
        .collect();
    let exact_items: Vec<Judge<'_, P>> = exact
        .iter()
        .filter(|l| l.critical())
        .map(Judge::Exact)
        .collect();
    let n = start.len();
    let mut w: Vec<f64> = start.iter().map(|&x| f64::from(x)).collect();
    let mut current = start.to_vec();
    let mut mean_square = vec![0.0f64; n];
    let (mut f, mut squares) = (Vec::new(), Vec::new());
    for epoch in 0..=opts.epochs {
        let eval = linear_evaluator::<P>(&current);
        let (misses, pairs) = epoch_pairs(&items, &opts.depths, opts.threads, &eval);
        let (blunders, exact_pairs) = epoch_pairs(&exact_items, &opts.depths, opts.threads, &eval);
        let mut grad = vec![0.0f64; n];
        let mut loss_of = |pairs: &[Pair<P>], weight: f64| {
            let mean = pair_loss(pairs, opts.temperature, &*eval, &mut |x, g| {
                linear_features(x, &mut f, &mut squares);
                for (gi, &fi) in grad.iter_mut().zip(f.iter()) {
                    *gi += weight * g * f64::from(fi);
                }
            });
            (
                mean * weight * pairs.len() as f64,
                weight * pairs.len() as f64,
            )
        };
        let (taught_sum, taught_n) = loss_of(&pairs, 1.0);
        let (exact_sum, exact_n) = loss_of(&exact_pairs, exact_weight);
        let loss = (taught_sum + exact_sum) / (taught_n + exact_n).max(1.0);
        report(&Epoch {
            epoch,
            blunders: misses,
            searches: items.len() * opts.depths.len(),
            pairs: pairs.len() + exact_pairs.len(),
            loss,
            exact: (!exact_items.is_empty())
                .then_some((blunders, exact_items.len() * opts.depths.len())),
        });
        if epoch == opts.epochs {
            break;
        }
        for i in 1..n {
            mean_square[i] = 0.9 * mean_square[i] + 0.1 * grad[i] * grad[i];
            if mean_square[i] > 0.0 {
                w[i] += opts.rate * grad[i] / mean_square[i].sqrt();
                current[i] = w[i].round() as i32;
            }
        }
    }
    current
}
