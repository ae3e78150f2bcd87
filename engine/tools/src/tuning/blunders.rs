//! The blunder rate of an evaluator: how often a search to depth d with it throws the exact value
//! away (a win to a draw or loss, a draw to a loss) in the critical positions of a labelled set.

use std::sync::atomic::AtomicBool;

use super::positions::{Labelled, Wdl};
use boardgames_core::eval::{EvalKind, Evaluate};
use boardgames_core::games::{Game, Move};
use boardgames_core::score::Score;
use boardgames_core::search::{Limits, Searcher};

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

/// A blunder found in a set: the position, the move the search played and the exact value that
/// move keeps for the mover.
pub struct Blunder<'a, G: Game> {
    /// The position, with its exact value and its moves' values.
    pub pos: &'a Labelled<G>,
    /// The move the search chose.
    pub played: Move,
    /// The exact value `played` keeps, worse than the position's.
    pub keeps: Score,
}

/// The exact value `mv` keeps for the mover in `pos` when that throws the position's value away
/// (a won position to a draw or a loss, a drawn one to a loss); `None` when the move keeps the
/// value or is not one of the position's moves. The one judgment of a move that the blunder
/// rate and the grading of a class (`crate::arena::grade`) share.
pub fn thrown_away<G: Game>(pos: &Labelled<G>, mv: Move) -> Option<Score> {
    let keeps = pos.value_of(mv)?;
    (Wdl::of(keeps) < Wdl::of(pos.value)).then_some(keeps)
}

/// The move a depth-`depth` search with `searcher`'s evaluator chooses in `pos`. The searcher's
/// table is cleared first, so the answer depends on the position alone.
pub fn searched_move<G: Evaluate>(
    searcher: &mut Searcher<G>,
    pos: &Labelled<G>,
    depth: u32,
) -> Option<Move> {
    searcher.clear();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    searcher
        .search(&pos.line, &limits, &AtomicBool::new(false), &mut |_| {})
        .best
}

/// The move a depth-`depth` search chooses in `pos` and the exact value it keeps for the mover,
/// when that throws the position's value away ([`thrown_away`]).
fn blunder<G: Evaluate>(
    searcher: &mut Searcher<G>,
    pos: &Labelled<G>,
    depth: u32,
) -> Option<(Move, Score)> {
    let m = searched_move(searcher, pos, depth)
        .filter(|&m| pos.value_of(m).is_some())
        .expect("a position of a set has legal moves, and the search picks one of them");
    thrown_away(pos, m).map(|s| (m, s))
}

/// The blunders of `eval` at one depth over the critical positions of `set` (those where some
/// move throws the value away): their rate, and each one.
pub fn blunders_in<'a, G: Evaluate>(
    set: &'a [Labelled<G>],
    eval: EvalKind,
    depth: u32,
) -> (Rate, Vec<Blunder<'a, G>>) {
    let mut searcher = Searcher::<G>::new(1);
    searcher.set_evaluator(eval.function::<G>());
    let mut positions = 0;
    let mut found = Vec::new();
    for pos in set.iter().filter(|l| l.critical()) {
        positions += 1;
        if let Some((played, keeps)) = blunder(&mut searcher, pos, depth) {
            found.push(Blunder { pos, played, keeps });
        }
    }
    let rate = Rate {
        depth,
        blunders: found.len(),
        positions,
    };
    (rate, found)
}

/// The blunder rate of `eval` at each depth of `depths`, over the critical positions of `set`.
pub fn rates<G: Evaluate>(
    set: &[Labelled<G>],
    eval: EvalKind,
    depths: impl IntoIterator<Item = u32>,
) -> Vec<Rate> {
    depths
        .into_iter()
        .map(|depth| blunders_in(set, eval, depth).0)
        .collect()
}
