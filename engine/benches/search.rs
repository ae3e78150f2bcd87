//! Search benchmarks: fixed-depth searches of the 5-piece Oska start and exact solves.

use std::sync::atomic::AtomicBool;

use engine::eval::Evaluate;
use engine::games::{Game, Hexapawn, Line, Oska};
use engine::search::{Limits, SearchResult, Searcher};

fn main() {
    divan::main();
}

/// Times the search alone: the 64 MiB table is allocated (and touched) outside the timing, and
/// freed outside it too (the searcher is returned, and divan drops outputs after timing).
fn run<G: Game + Evaluate>(bencher: divan::Bencher, pos: G, limits: &Limits) {
    bencher
        .with_inputs(|| {
            let mut s = Searcher::<G>::new(64);
            s.clear();
            s
        })
        .bench_local_values(|mut searcher| -> (Searcher<G>, SearchResult) {
            let r = searcher.search(
                &Line::new(pos),
                limits,
                &AtomicBool::new(false),
                &mut |_| {},
            );
            (searcher, r)
        });
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
fn oska5_start_depth(bencher: divan::Bencher, d: u32) {
    run(bencher, Oska::start(5).unwrap(), &depth(d));
}

#[divan::bench(sample_count = 10)]
fn hexapawn5_solve(bencher: divan::Bencher) {
    run(bencher, Hexapawn::start(5).unwrap(), &solve());
}

#[divan::bench(sample_count = 10)]
fn oska4_solve(bencher: divan::Bencher) {
    run(bencher, Oska::start(4).unwrap(), &solve());
}
