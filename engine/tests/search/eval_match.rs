//! Each game's evaluator against a pure material count: depth 4 against depth 4, both colours,
//! openings made by a few random plies from the start. The evaluator must score more wins than
//! losses. Run with `--nocapture` to see the numbers.

use crate::common;

use std::sync::atomic::AtomicBool;

use boardgames_core::eval::{Evaluate, material};
use boardgames_core::games::{Ctf, Game, Hexapawn, Line, Oska, Side};
use boardgames_core::search::{Limits, Searcher};
use common::{XorShift as Rng, random_playout};

/// Wins, losses and draws of the evaluator.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    wins: u32,
    losses: u32,
    draws: u32,
}

/// Plays one game from `line`; `eval_side` uses the evaluator, the other side material only.
/// Games longer than `max_plies` count as draws.
fn play<G: Game + Evaluate>(mut line: Line<G>, eval_side: Side, max_plies: usize) -> Option<Side> {
    let mut with_eval = Searcher::<G>::new(2);
    let mut with_material = Searcher::<G>::new(2);
    with_material.set_evaluator(material::<G>);
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    for _ in 0..max_plies {
        if let Some(o) = line.outcome() {
            return o.winner();
        }
        let searcher = if line.current().side_to_move() == eval_side {
            &mut with_eval
        } else {
            &mut with_material
        };
        let r = searcher.search(&line, &limits, &stop, &mut |_| {});
        line.push(r.best.expect("game not over"));
    }
    line.outcome().and_then(|o| o.winner())
}

fn match_up<G: Game + Evaluate>(size: usize, openings: usize, seed: u64) -> Tally {
    let mut rng = Rng(seed);
    let mut tally = Tally::default();
    let mut played = 0;
    while played < openings {
        let Some(opening) = random_playout::<G>(size, 4, &mut rng) else {
            continue;
        };
        played += 1;
        for eval_side in [Side::White, Side::Black] {
            match play(opening.clone(), eval_side, 200) {
                Some(w) if w == eval_side => tally.wins += 1,
                Some(_) => tally.losses += 1,
                None => tally.draws += 1,
            }
        }
    }
    eprintln!("{} size {size}: evaluator vs material {tally:?}", G::KIND);
    tally
}

#[test]
fn oska_evaluator_beats_material() {
    let t = match_up::<Oska>(5, 20, 11);
    assert!(t.wins > t.losses, "{t:?}");
}

#[test]
fn hexapawn_evaluator_beats_material() {
    let t = match_up::<Hexapawn>(5, 20, 12);
    assert!(t.wins > t.losses, "{t:?}");
}

#[test]
fn ctf_evaluator_beats_material() {
    let t = match_up::<Ctf>(5, 20, 13);
    assert!(t.wins > t.losses, "{t:?}");
}
