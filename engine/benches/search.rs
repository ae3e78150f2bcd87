//! Search benchmarks: fixed-depth searches of the 5-piece Oska start and exact solves.

use std::sync::atomic::AtomicBool;

use boardgames_core::eval::Evaluate;
use boardgames_core::games::{Game, Hexapawn, Line, Oska};
use boardgames_core::search::{Limits, SearchResult, Searcher};

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

/// A one-shot search as `engine best` makes it: the table of `hash_mib` MiB made, the depth-6
/// search of the 5-piece Oska start, the table freed, all timed. A table's size should cost
/// little beyond the buckets the search touches.
#[divan::bench(args = [1, 64], sample_count = 20)]
fn oska5_one_shot_depth6(bencher: divan::Bencher, hash_mib: usize) {
    let pos = Oska::start(5).unwrap();
    let limits = depth(6);
    bencher.bench_local(|| {
        let mut searcher = Searcher::<Oska>::new(hash_mib);
        searcher.search(
            &Line::new(pos),
            &limits,
            &AtomicBool::new(false),
            &mut |_| {},
        )
    });
}
