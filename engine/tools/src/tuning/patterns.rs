//! Fitting the pattern weights of the Hexapawn and Oska evaluators
//! ([`boardgames_core::eval::patterns`]) to exact values, or to game results where exact values are out
//! of reach.
//!
//! The model is the one of [`super::fit`], `P(win) = 1 / (1 + exp(-score / SCALE))`, with the
//! score the linear features' (fixed, as fitted by `engine-tune tune`) plus one weight per window of
//! the position. Tens of thousands of weights are too many for Newton's method, so they are
//! fitted by Adam over shuffled mini-batches of the log-loss with an L2 penalty; the order of the
//! examples comes from the seed, so a fit is reproducible from its data and seed. Each labelled
//! position gives an example, and so does every position one legal move after it (its value is
//! in the set too). A position of a result set (labelled with the result of the game it came
//! from, no moves) gives one example aimed at that result, as in Texel tuning: so sizes too
//! large to solve (Oska 6) are fitted to engine games. Positions are held out whole (with their
//! children): one in five, by the seed.

use std::collections::HashSet;

use super::fit::SCALE;
use super::positions::{Labelled, Wdl};
use boardgames_core::eval::patterns::{PatternBoard, Shape};
use boardgames_core::eval::{Evaluate, dot};
use boardgames_core::games::Game;
use boardgames_core::score::Score;
use boardgames_core::splitmix::SplitMix64;

/// Passes over the training examples.
const EPOCHS: usize = 30;
/// Examples per step.
const BATCH: usize = 256;
/// Adam's step size, in logistic units.
const RATE: f64 = 0.003;
/// The L2 penalty on each weight used by a batch, in logistic units squared.
const RIDGE: f64 = 1e-4;

/// One example: the linear score, the weight indices of the windows, the target.
struct Example {
    base: f64,
    windows: Vec<u32>,
    target: f64,
}

/// The result of a pattern fit.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternFit {
    /// The weights in score units.
    pub weights: Vec<i16>,
    /// Examples fitted and held out.
    pub train: usize,
    /// Examples held out.
    pub valid: usize,
    /// Labelled positions left out because an excluded set holds them.
    pub excluded: usize,
    /// Held-out mean log-loss of the linear score alone, and with the patterns.
    pub valid_loss: (f64, f64),
    /// Held-out share of decided examples whose winner the sign predicts: linear alone, and with
    /// the patterns.
    pub valid_accuracy: (f64, f64),
    /// Mean log-loss on the fitted examples with the patterns.
    pub train_loss: f64,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn example<G: Evaluate + PatternBoard>(pos: &G, value: Score, shape: Shape) -> Option<Example> {
    let target = Wdl::of(value)?.target();
    let mut f = vec![0; G::FEATURE_NAMES.len()];
    pos.features(&mut f);
    let mut windows = vec![0; shape.windows()];
    shape.indices(pos, &mut windows);
    Some(Example {
        base: f64::from(dot(&f, G::weights())) / SCALE,
        windows,
        target,
    })
}

/// The value for the side to move after a move whose value for the mover is `v`.
fn after(v: Score) -> Score {
    match v {
        Score::Win(k) => Score::Loss(k.saturating_sub(1)),
        Score::Loss(k) => Score::Win(k.saturating_sub(1)),
        other => other,
    }
}

/// The examples of a set, grouped by labelled position (the position and its children), with
/// duplicates and positions in `exclude` left out. Returns the groups and how many positions
/// were excluded.
fn groups<G: Evaluate + PatternBoard>(
    set: &[Labelled<G>],
    exclude: &HashSet<u64>,
    shape: Shape,
) -> (Vec<Vec<Example>>, usize) {
    let mut seen = HashSet::new();
    let mut excluded = 0;
    let mut out = Vec::new();
    for l in set {
        let pos = *l.line.current();
        if pos.shape() != shape {
            continue;
        }
        if exclude.contains(&Game::hash(&pos)) {
            excluded += 1;
            continue;
        }
        let mut group = Vec::new();
        if seen.insert(Game::hash(&pos)) {
            group.extend(example(&pos, l.value, shape));
        }
        for &(mv, v) in &l.moves {
            let child = pos.play(mv);
            if child.board_outcome().is_some()
                || child.count_moves() == 0
                || exclude.contains(&Game::hash(&child))
            {
                continue;
            }
            if seen.insert(Game::hash(&child)) {
                group.extend(example(&child, after(v), shape));
            }
        }
        if !group.is_empty() {
            out.push(group);
        }
    }
    (out, excluded)
}

/// The logit of an example with weights `w` (logistic units).
fn logit(e: &Example, w: &[f64]) -> f64 {
    e.base + e.windows.iter().map(|&i| w[i as usize]).sum::<f64>()
}

/// Mean log-loss and sign accuracy of `data` with `w` (or the linear score alone when `None`).
fn measure(data: &[&Example], w: Option<&[f64]>) -> (f64, f64) {
    let eps = 1e-12;
    let mut loss = 0.0;
    let mut right = 0usize;
    let mut decided = 0usize;
    for e in data {
        let z = w.map_or(e.base, |w| logit(e, w));
        let p = sigmoid(z).clamp(eps, 1.0 - eps);
        loss -= e.target * p.ln() + (1.0 - e.target) * (1.0 - p).ln();
        if e.target != 0.5 {
            decided += 1;
            right += usize::from((z > 0.0) == (e.target > 0.5));
        }
    }
    (
        loss / data.len().max(1) as f64,
        right as f64 / decided.max(1) as f64,
    )
}

/// Fits the pattern weights of `shape` to the set's exact values and game results (its
/// positions of that shape), leaving out the positions whose hashes are in `exclude` (the sets
/// the evaluator is measured on).
pub fn fit_patterns<G: Evaluate + PatternBoard>(
    set: &[Labelled<G>],
    shape: Shape,
    exclude: &HashSet<u64>,
    seed: u64,
) -> PatternFit {
    let (mut groups, excluded) = groups(set, exclude, shape);
    let mut rng = SplitMix64::new(seed);
    for i in (1..groups.len()).rev() {
        groups.swap(i, rng.below(i + 1));
    }
    let valid_groups = groups.len() / 5;
    let valid: Vec<&Example> = groups[..valid_groups].iter().flatten().collect();
    let mut train: Vec<&Example> = groups[valid_groups..].iter().flatten().collect();
    let k = shape.weights();
    let (mut w, mut m, mut v) = (vec![0.0f64; k], vec![0.0f64; k], vec![0.0f64; k]);
    let (b1, b2) = (0.9f64, 0.999f64);
    let mut t = 0i32;
    let mut grad = vec![0.0f64; k];
    let mut touched: Vec<u32> = Vec::new();
    let mut used = vec![false; k];
    for _ in 0..EPOCHS {
        for i in (1..train.len()).rev() {
            train.swap(i, rng.below(i + 1));
        }
        for batch in train.chunks(BATCH) {
            touched.clear();
            for e in batch {
                let g = sigmoid(logit(e, &w)) - e.target;
                for &i in &e.windows {
                    if !used[i as usize] {
                        used[i as usize] = true;
                        touched.push(i);
                    }
                    grad[i as usize] += g / batch.len() as f64;
                }
            }
            t += 1;
            let (c1, c2) = (1.0 - b1.powi(t), 1.0 - b2.powi(t));
            // Sparse Adam: only the weights this batch used move.
            for &i in &touched {
                let i = i as usize;
                let g = grad[i] + RIDGE * w[i];
                m[i] = b1 * m[i] + (1.0 - b1) * g;
                v[i] = b2 * v[i] + (1.0 - b2) * g * g;
                w[i] -= RATE * (m[i] / c1) / ((v[i] / c2).sqrt() + 1e-8);
                grad[i] = 0.0;
                used[i] = false;
            }
        }
    }
    let weights: Vec<i16> = w
        .iter()
        .map(|&x| (x * SCALE).round().clamp(-30000.0, 30000.0) as i16)
        .collect();
    // Measured with the rounded weights, as the engine uses them.
    let used: Vec<f64> = weights.iter().map(|&x| f64::from(x) / SCALE).collect();
    let (base_loss, base_acc) = measure(&valid, None);
    let (loss, acc) = measure(&valid, Some(&used));
    PatternFit {
        weights,
        train: train.len(),
        valid: valid.len(),
        excluded,
        valid_loss: (base_loss, loss),
        valid_accuracy: (base_acc, acc),
        train_loss: measure(&train, Some(&used)).0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tuning::positions::{SetSpec, generate};
    use boardgames_core::games::Hexapawn;

    #[test]
    fn a_fit_is_reproducible_and_beats_the_linear_score() {
        let spec = SetSpec {
            size: 4,
            count: 600,
            seed: 3,
            budget: 200_000,
            history: 0,
            hash_mib: 16,
        };
        let set = generate::<Hexapawn>(&spec, &mut |_, _| {});
        let a = fit_patterns(&set, Shape::Square(4), &HashSet::new(), 7);
        let b = fit_patterns(&set, Shape::Square(4), &HashSet::new(), 7);
        assert_eq!(a, b, "the same data and seed give the same weights");
        assert!(a.train > a.valid && a.valid > 0);
        assert!(
            a.train_loss < a.valid_loss.0,
            "the patterns fit their data better than the linear score: {a:?}"
        );
        let skip: HashSet<u64> = set
            .iter()
            .take(50)
            .map(|l| Game::hash(l.line.current()))
            .collect();
        assert!(fit_patterns(&set, Shape::Square(4), &skip, 7).excluded >= 50);
    }
}
