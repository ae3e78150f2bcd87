//! The blunder rate of an evaluator: how often a search to depth d with it throws the exact value
//! away (a win to a draw or loss, a draw to a loss) in the critical positions of a labelled set.

use std::sync::atomic::AtomicBool;

use super::positions::{Labelled, Wdl};
use crate::games::Move;
use crate::search::{EvalKind, Evaluate, Limits, Score, Searcher};

/// Blunders at one depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// The search depth.
    pub depth: u32,
    /// Critical positions in which the chosen move threw the value away.
    pub blunders: usize,
    /// Critical positions searched (those where some move throws the value away).
    pub positions: usize,
}

impl Rate {
    /// Blunders as a percentage of the critical positions.
    pub fn percent(&self) -> f64 {
        100.0 * self.blunders as f64 / self.positions.max(1) as f64
    }
}

/// Whether the move a depth-`depth` search with `eval` chooses in `pos` throws the value away.
/// The searcher's table is cleared first, so the answer depends on the position alone.
pub fn blunders_at<G: Evaluate>(searcher: &mut Searcher<G>, pos: &Labelled<G>, depth: u32) -> bool {
    blunder(searcher, pos, depth).is_some()
}

/// The move a depth-`depth` search chooses in `pos` and the exact value it keeps for the mover,
/// when that throws the position's value away; the searcher's table is cleared first.
pub fn blunder<G: Evaluate>(
    searcher: &mut Searcher<G>,
    pos: &Labelled<G>,
    depth: u32,
) -> Option<(Move, Score)> {
    searcher.clear();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let r = searcher.search(&pos.line, &limits, &AtomicBool::new(false), &mut |_| {});
    let (m, s) = r
        .best
        .and_then(|m| Some((m, pos.value_of(m)?)))
        .expect("a position of a set has legal moves, and the search picks one of them");
    (Wdl::of(s) < Wdl::of(pos.value)).then_some((m, s))
}

/// The blunder rate of `eval` at each depth of `depths`, over the critical positions of `set`.
pub fn rates<G: Evaluate>(
    set: &[Labelled<G>],
    eval: EvalKind,
    depths: impl IntoIterator<Item = u32>,
) -> Vec<Rate> {
    let mut searcher = Searcher::<G>::new(1);
    searcher.set_evaluator(eval.function::<G>());
    let critical: Vec<&Labelled<G>> = set.iter().filter(|l| l.critical()).collect();
    depths
        .into_iter()
        .map(|depth| Rate {
            depth,
            blunders: critical
                .iter()
                .filter(|l| blunders_at(&mut searcher, l, depth))
                .count(),
            positions: critical.len(),
        })
        .collect()
}
