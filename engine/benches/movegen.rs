//! Move generation and perft on each game (Oska n = 5 and 8, Hexapawn 5, Capture the Flag 5).
//!
//! Run with `cargo bench -p engine --bench movegen`. Perft counts the last ply without playing it
//! (bulk counting); divan reports time per call, and the README turns that into leaves a second.

use boardgames_core::games::perft::perft;
use boardgames_core::games::{Ctf, Game, Hexapawn, Line, MoveList, Oska};
use divan::{Bencher, black_box};

fn main() {
    divan::main();
}

/// A few plies into the game, so that the position has captures and blocked pieces.
fn middlegame<G: Game>(size: usize, plies: usize) -> G {
    let mut line = Line::new(G::start(size).expect("supported size"));
    let mut moves = MoveList::new();
    for i in 0..plies {
        line.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let m = moves.as_slice()[(i * 7 + 3) % moves.len()];
        line.push(m);
    }
    *line.current()
}

fn generate<G: Game>(bencher: Bencher, size: usize) {
    let pos = middlegame::<G>(size, 4);
    bencher.bench_local(|| {
        let mut moves = MoveList::new();
        black_box(&pos).generate(&mut moves);
        moves.len()
    });
}

#[divan::bench]
fn generate_oska5(b: Bencher) {
    generate::<Oska>(b, 5);
}

#[divan::bench]
fn generate_oska8(b: Bencher) {
    generate::<Oska>(b, 8);
}

#[divan::bench]
fn generate_hexapawn5(b: Bencher) {
    generate::<Hexapawn>(b, 5);
}

#[divan::bench]
fn generate_ctf5(b: Bencher) {
    generate::<Ctf>(b, 5);
}

fn perft_start<G: Game>(bencher: Bencher, size: usize, depth: u32) {
    let start = G::start(size).expect("supported size");
    bencher
        .counter(divan::counter::ItemsCount::new(perft(
            &mut Line::new(start),
            depth,
        )))
        .bench_local(|| perft(&mut Line::new(black_box(start)), depth));
}

#[divan::bench(sample_count = 10)]
fn perft_oska5_d7(b: Bencher) {
    perft_start::<Oska>(b, 5, 7);
}

#[divan::bench(sample_count = 5)]
fn perft_oska8_d7(b: Bencher) {
    perft_start::<Oska>(b, 8, 7);
}

#[divan::bench(sample_count = 10)]
fn perft_hexapawn5_d7(b: Bencher) {
    perft_start::<Hexapawn>(b, 5, 7);
}

#[divan::bench(sample_count = 10)]
fn perft_ctf5_d5(b: Bencher) {
    perft_start::<Ctf>(b, 5, 5);
}
