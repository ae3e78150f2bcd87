//! Positions labelled by a teacher, for sizes the solver cannot label (`engine-tune refine-weights`):
//! the positions the tuned evaluator meets in games at a fixed depth against the classic
//! evaluators, each with the move a deeper search (the teacher) plays there.

use std::sync::atomic::AtomicBool;

use super::in_parts;
use super::refine::{Taught, linear_evaluator};
use boardgames_core::eval::{EvalKind, Evaluate};
use boardgames_core::games::openings::random_openings;
use boardgames_core::games::{Line, Side};
use boardgames_core::search::{Evaluator, Limits, Searcher};

/// Which games are played and which of their positions are kept.
#[derive(Clone, Debug, PartialEq)]
pub struct Games {
    /// Board size.
    pub size: usize,
    /// Openings; each is played twice, the tuned evaluator once with each colour.
    pub openings: usize,
    /// Random plies of an opening.
    pub plies: usize,
    /// Seed of the openings.
    pub seed: u64,
    /// Depth of both players.
    pub depth: u32,
    /// The opponents, in turn: opening `i` is played against `opponents[i % len]`.
    pub opponents: Vec<EvalKind>,
    /// Positions are kept before this ply (counted from the start); the game stops there.
    pub max_ply: usize,
}

/// The positions where the player of evaluator `tuned` is to move in the games of `spec`, in
/// order.
fn positions<G: Evaluate>(
    spec: &Games,
    tuned: &Evaluator<G>,
    openings: &[(usize, Line<G>)],
) -> Vec<Line<G>> {
    let limits = Limits {
        depth: Some(spec.depth),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut out = Vec::new();
    for (i, opening) in openings {
        let opponent = spec.opponents[i % spec.opponents.len()];
        for tuned_side in [Side::White, Side::Black] {
            let mut player = Searcher::<G>::new(4);
            player.set_evaluator_with(tuned.clone());
            let mut other = Searcher::<G>::new(4);
            other.set_evaluator(opponent.function::<G>());
            let mut line = opening.clone();
            while line.len() < spec.max_ply && line.outcome().is_none() {
                let mine = line.current().side_to_move() == tuned_side;
                if mine {
                    out.push(line.clone());
                }
                let s = if mine { &mut player } else { &mut other };
                let Some(best) = s.search(&line, &limits, &stop, &mut |_| {}).best else {
                    break;
                };
                line.push(best);
            }
        }
    }
    out
}

/// The games' positions, each with the teacher's move: the tuned player's search to
/// `teacher_depth` (from an empty table, so the result does not depend on `threads`); none
/// without opponents. The tuned player and its teacher score positions with the linear weights
/// `weights` alone (a game without pattern terms, Capture the Flag).
pub fn taught<G: Evaluate>(
    spec: &Games,
    weights: &[i32],
    teacher_depth: u32,
    threads: usize,
) -> Vec<Taught<G>> {
    if spec.opponents.is_empty() {
        return Vec::new();
    }
    let tuned = linear_evaluator::<G>(weights);
    let openings: Vec<(usize, Line<G>)> =
        random_openings::<G>(spec.size, spec.plies, spec.openings, spec.seed)
            .iter()
            .filter_map(|s| s.line::<G>(spec.size).ok())
            .enumerate()
            .collect();
    let lines = in_parts(&openings, threads, |part| positions(spec, &tuned, part));
    let limits = Limits {
        depth: Some(teacher_depth),
        ..Limits::default()
    };
    in_parts(&lines, threads, |part| {
        let mut teacher = Searcher::<G>::new(16);
        teacher.set_evaluator_with(tuned.clone());
        let stop = AtomicBool::new(false);
        part.iter()
            .filter_map(|line| {
                teacher.clear();
                let best = teacher.search(line, &limits, &stop, &mut |_| {}).best?;
                Some(Taught {
                    line: line.clone(),
                    teacher: best,
                })
            })
            .collect()
    })
}
