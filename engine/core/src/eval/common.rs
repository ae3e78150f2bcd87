//! What the evaluators share: the evaluation range, the dot product of features and weights,
//! the tuned score built on it, and the classic evaluators' material and advancement counts. It imports no other file of
//! the evaluation.

use crate::games::{Game, Side};

/// Static evaluations are clamped to `-EVAL_LIMIT..=EVAL_LIMIT`.
pub const EVAL_LIMIT: i32 = 100_000;

/// The dot product of features and weights, clamped to the evaluation range.
#[inline]
pub fn dot(features: &[i32], weights: &[i32]) -> i32 {
    let s: i64 = features
        .iter()
        .zip(weights)
        .map(|(&f, &w)| i64::from(f) * i64::from(w))
        .sum();
    s.clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT)) as i32
}

/// A tuned evaluation: the features' dot product with the weights ([`dot`]) plus a game's own
/// term (patterns, piece-square), clamped to the evaluation range.
#[inline]
pub fn tuned(features: &[i32], weights: &[i32], term: i32) -> i32 {
    (dot(features, weights) + term).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// A material count: own pieces minus the opponent's, 100 each (flags count as pieces in Capture
/// the Flag, but a side always has its flag while the game goes on).
pub fn material<G: Game>(pos: &G) -> i32 {
    let me = pos.side_to_move();
    100 * (pos.piece_count(me) as i32 - pos.piece_count(me.opposite()) as i32)
}

/// The rows a pawn of `side` on row `r` (of `rows`) has advanced from its home row.
#[inline]
pub(crate) fn advanced(side: Side, r: usize, rows: usize) -> i32 {
    match side {
        Side::White => r as i32,
        Side::Black => (rows - 1 - r) as i32,
    }
}

/// Material plus 10 for every row each pawn (not a flag) has advanced.
pub fn classic_advance<G: Game>(pos: &G) -> i32 {
    let layout = pos.layout();
    let me = pos.side_to_move();
    let mut score = material(pos);
    for sq in 0..layout.squares() {
        if let Some(p) = pos.piece_at(sq)
            && !p.is_flag()
        {
            let a = 10 * advanced(p.side(), layout.coords(sq).0, layout.rows());
            score += if p.side() == me { a } else { -a };
        }
    }
    score
}
