//! Search benchmarks: fixed-depth searches of the 5-piece Oska start and exact solves.

use std::sync::atomic::AtomicBool;

use engine::games::{Game, Hexapawn, Line, Oska};
use engine::search::{Evaluate, Limits, SearchResult, Searcher};

fn main() {
    divan::main();
}

fn run<G: Game + Evaluate>(pos: G, limits: &Limits) -> SearchResult {
    let mut searcher = Searcher::<G>::new(64);
    searcher.search(
        &Line::new(pos),
        limits,
        &AtomicBool::new(false),
        &mut |_| {},
    )
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn solve() -> Limits {
    Limits {
        solve: true,
        ..Limits::default()
    }
}

#[divan::bench(args = [6, 12], sample_count = 10)]
fn oska5_start_depth(d: u32) -> SearchResult {
    run(Oska::start(5).unwrap(), &depth(d))
}

#[divan::bench(sample_count = 10)]
fn hexapawn5_solve() -> SearchResult {
    run(Hexapawn::start(5).unwrap(), &solve())
}

#[divan::bench(sample_count = 10)]
fn oska4_solve() -> SearchResult {
    run(Oska::start(4).unwrap(), &solve())
}
