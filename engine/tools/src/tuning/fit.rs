//! Fitting an evaluator's weights to exact values: logistic regression of the game result (1 a
//! win, 0.5 a draw, 0 a loss for the side to move) on the evaluator's features.
//!
//! The model is `P(win) = 1 / (1 + exp(-eval / SCALE))` with `eval` the dot product of features
//! and weights, so a score of `SCALE` means about 73 % and the weights come out in the engine's
//! score units. The log-loss plus a small L2 penalty is convex; Newton's method finds its minimum
//! in a few dozen steps, with no learning rate to choose and no randomness. The seed only decides
//! which positions are held out to validate the fit (one in five), so a fit is reproducible from
//! its data and seed.

use super::positions::{Labelled, Wdl};
use boardgames_core::eval::Evaluate;
use boardgames_core::splitmix::SplitMix64;

/// The score that means a 73 % expectation (one logistic unit).
pub const SCALE: f64 = 200.0;
/// The L2 penalty on the weights, in logistic units squared per position.
const RIDGE: f64 = 1e-3;
/// Newton steps.
const STEPS: usize = 40;

/// The result of a fit.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The weights, rounded to whole score units, in the order of the features.
    pub weights: Vec<i32>,
    /// Positions fitted and held out.
    pub train: usize,
    /// Positions held out.
    pub valid: usize,
    /// Mean log-loss on the fitted and on the held-out positions.
    pub train_loss: f64,
    /// Mean log-loss on the held-out positions.
    pub valid_loss: f64,
    /// Share of held-out decided positions (won or lost) whose winner the sign of the score
    /// predicts.
    pub valid_accuracy: f64,
}

/// One example: features and target.
type Example = (Vec<f64>, f64);

fn examples<G: Evaluate>(set: &[Labelled<G>]) -> Vec<Example> {
    let k = G::FEATURE_NAMES.len();
    let mut f = vec![0i32; k];
    set.iter()
        .filter_map(|l| {
            let wdl = Wdl::of(l.value)?;
            l.line.current().features(&mut f);
            Some((f.iter().map(|&x| f64::from(x)).collect(), wdl.target()))
        })
        .collect()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean log-loss of weights `w` (in logistic units) on `data`.
fn log_loss(w: &[f64], data: &[Example]) -> f64 {
    let eps = 1e-12;
    let total: f64 = data
        .iter()
        .map(|(x, y)| {
            let p = sigmoid(dot(w, x)).clamp(eps, 1.0 - eps);
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        })
        .sum();
    total / data.len().max(1) as f64
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting (`a` is k x k, positive
/// definite here thanks to the ridge).
fn solve_linear(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let k = b.len();
    for col in 0..k {
        let pivot = (col..k)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        b.swap(col, pivot);
        let p = a[col][col];
        if p.abs() < 1e-300 {
            continue;
        }
        let (top, rest) = a.split_at_mut(col + 1);
        let pivot_row = &top[col];
        for (i, row) in rest.iter_mut().enumerate() {
            let factor = row[col] / p;
            for (cell, &above) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *cell -= factor * above;
            }
            b[col + 1 + i] -= factor * b[col];
        }
    }
    let mut x = vec![0.0; k];
    for row in (0..k).rev() {
        let s: f64 = (row + 1..k).map(|c| a[row][c] * x[c]).sum();
        x[row] = if a[row][row].abs() < 1e-300 {
            0.0
        } else {
            (b[row] - s) / a[row][row]
        };
    }
    x
}

/// Fits the weights of `G`'s evaluator to the labelled positions; `seed` picks the held-out fifth.
pub fn fit<G: Evaluate>(set: &[Labelled<G>], seed: u64) -> Fit {
    let mut data = examples(set);
    // A seeded shuffle (Fisher-Yates), then the first fifth is held out.
    let mut rng = SplitMix64::new(seed);
    for i in (1..data.len()).rev() {
        data.swap(i, rng.below(i + 1));
    }
    let valid_n = data.len() / 5;
    let (valid, train) = data.split_at(valid_n);
    let k = G::FEATURE_NAMES.len();
    let n = train.len().max(1) as f64;
    let mut w = vec![0.0; k];
    for _ in 0..STEPS {
        let mut grad = vec![0.0; k];
        let mut hess = vec![vec![0.0; k]; k];
        for (x, y) in train {
            let p = sigmoid(dot(&w, x));
            let s = p * (1.0 - p);
            for i in 0..k {
                grad[i] += (p - y) * x[i];
                for j in 0..k {
                    hess[i][j] += s * x[i] * x[j];
                }
            }
        }
        for i in 0..k {
            grad[i] = grad[i] / n + RIDGE * w[i];
            for h in &mut hess[i] {
                *h /= n;
            }
            hess[i][i] += RIDGE;
        }
        let step = solve_linear(hess, grad);
        for i in 0..k {
            w[i] -= step[i];
        }
    }
    let decided: Vec<&Example> = valid.iter().filter(|(_, y)| *y != 0.5).collect();
    let right = decided
        .iter()
        .filter(|(x, y)| (dot(&w, x) > 0.0) == (*y > 0.5))
        .count();
    Fit {
        weights: w.iter().map(|&x| (x * SCALE).round() as i32).collect(),
        train: train.len(),
        valid: valid.len(),
        train_loss: log_loss(&w, train),
        valid_loss: log_loss(&w, valid),
        valid_accuracy: right as f64 / decided.len().max(1) as f64,
    }
}

/// The mean log-loss of integer weights (as the engine uses them) on a set.
pub fn loss_of<G: Evaluate>(set: &[Labelled<G>], weights: &[i32]) -> f64 {
    let w: Vec<f64> = weights.iter().map(|&x| f64::from(x) / SCALE).collect();
    log_loss(&w, &examples(set))
}

/// The text of a `weights_GAME.rs` file for these weights; with `size`, of a
/// `weights_GAME_refined.rs` file, whose weights serve that board size only: there the weights
/// after the features' are the piece-square term's (`SQUARES`).
pub fn weights_file<G: Evaluate>(weights: &[i32], fitted_by: &str, size: Option<usize>) -> String {
    let game = G::KIND.name();
    let names: Vec<String> = G::FEATURE_NAMES
        .iter()
        .map(|n| format!("\"{n}\""))
        .collect();
    let k = names.len();
    let list = |w: &[i32]| w.iter().map(i32::to_string).collect::<Vec<_>>().join(", ");
    let (what, size_item, squares_item) = match size {
        None => (
            format!(
                "//! The tuned weights of the {game} evaluator, in the order of its features.\n\
                 //! Written by `engine tune`; rerun rather than editing by hand."
            ),
            String::new(),
            String::new(),
        ),
        Some(n) => (
            format!(
                "//! The {game} evaluator's weights refined for one board size by `engine refine-weights`,\n\
                 //! starting from those of `engine tune`; other sizes use those. Rerun rather than\n\
                 //! editing by hand."
            ),
            format!("/// The board size these weights serve.\npub const SIZE: usize = {n};\n\n"),
            format!(
                "\n/// The piece-square term's weights (see `eval::{game}::piece_square_len`).\n\
                 #[rustfmt::skip]\n\
                 pub const SQUARES: [i32; {}] = [{}];\n",
                weights.len().saturating_sub(k),
                list(weights.get(k..).unwrap_or_default())
            ),
        ),
    };
    format!(
        "{what}\n\n\
         /// The fitting that produced these weights.\n\
         pub const FITTED_BY: &str = \"{fitted_by}\";\n\n\
         {size_item}\
         /// The feature names the weights belong to (checked against the evaluator by a test).\n\
         #[rustfmt::skip]\n\
         pub const NAMES: [&str; {k}] = [{}];\n\n\
         /// One weight a feature.\n\
         #[rustfmt::skip]\n\
         pub const WEIGHTS: [i32; {k}] = [{}];\n{squares_item}",
        names.join(", "),
        list(&weights[..k.min(weights.len())]),
    )
}
