//! Tablebase builder benchmarks: one mid-size material built alone from its input tables, on one
//! thread (`build_material`, as a job of `engine tablebase plan` does): Oska 5 with 3 pieces a
//! side (4 601 400 positions, its own mirror: computed once, by sums of progress) and 2 against
//! 3 with its mirror (658 800 positions each), and Hexapawn 5 with 3 against 3 (2 760 000, its
//! own mirror likewise).

use std::collections::HashMap;

use boardgames_core::games::{Hexapawn, Oska};
use boardgames_core::tablebase::Retro;
use boardgames_core::tablebase::build::{Plan, build, build_material, inputs};

fn main() {
    divan::main();
}

/// The tables of `G` at `size` up to `k` pieces a side, built in memory.
fn tables<G: Retro>(size: usize, k: usize) -> HashMap<(usize, usize), Vec<u8>> {
    let mut out = HashMap::new();
    let plan = Plan {
        size,
        max_pieces: k,
        threads: 2,
    };
    build::<G>(plan, &|_| {}, &mut |h, v| {
        out.insert((h.white, h.black), v.to_vec());
        Ok(())
    })
    .expect("the build succeeds");
    out
}

fn bench<G: Retro>(bencher: divan::Bencher, size: usize, (w, b): (usize, usize)) {
    let all = tables::<G>(size, b);
    let needed: HashMap<(usize, usize), Vec<u8>> = inputs(w, b)
        .into_iter()
        .map(|m| (m, all[&m].clone()))
        .collect();
    bencher.bench_local(|| {
        let mut sum = 0u64;
        build_material::<G>(
            size,
            (w, b),
            1,
            &mut |x, y| Ok(needed[&(x, y)].clone()),
            &|_| {},
            &mut |h, _| {
                sum ^= h.checksum;
                Ok(())
            },
        )
        .expect("the job succeeds");
        sum
    });
}

/// Oska 5, 3 against 3.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn oska5_w3b3(bencher: divan::Bencher) {
    bench::<Oska>(bencher, 5, (3, 3));
}

/// Oska 5, 2 against 3 and 3 against 2.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn oska5_w2b3(bencher: divan::Bencher) {
    bench::<Oska>(bencher, 5, (2, 3));
}

/// Hexapawn 5, 3 against 3.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn hexapawn5_w3b3(bencher: divan::Bencher) {
    bench::<Hexapawn>(bencher, 5, (3, 3));
}
