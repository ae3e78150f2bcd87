//! Evaluator benchmarks: every evaluator of every game on the positions of a committed labelled
//! set (the first 200), so the cost of the tuned evaluators can be compared with the first
//! version's (`legacy`) and the classic ones.

use boardgames_core::eval::{EvalKind, Evaluate};
use boardgames_core::games::{Ctf, Game, Hexapawn, Oska};
use boardgames_tools::tuning::positions::read;

fn main() {
    divan::main();
}

fn positions<G: Game>(file: &str) -> Vec<G> {
    let path = format!("{}/data/positions/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("the committed set");
    read::<G>(&text)
        .expect("a valid set")
        .into_iter()
        .take(200)
        .map(|l| *l.line.current())
        .collect()
}

fn bench<G: Evaluate>(bencher: divan::Bencher, file: &str, kind: &str) {
    let set = positions::<G>(file);
    let f = EvalKind::parse(kind).expect("an evaluator").function::<G>();
    bencher.bench_local(|| {
        set.iter()
            .map(|p| i64::from(f(divan::black_box(p))))
            .sum::<i64>()
    });
}

const KINDS: [&str; 3] = ["tuned", "legacy", "classic-race"];

/// 200 Oska 5 positions.
#[divan::bench(args = KINDS)]
fn oska5_200(bencher: divan::Bencher, kind: &str) {
    bench::<Oska>(bencher, "oska-5.txt", kind);
}

/// 200 Hexapawn 6 positions.
#[divan::bench(args = KINDS)]
fn hexapawn6_200(bencher: divan::Bencher, kind: &str) {
    bench::<Hexapawn>(bencher, "hexapawn-6.txt", kind);
}

/// 200 Capture the Flag 5 positions.
#[divan::bench(args = KINDS)]
fn ctf5_200(bencher: divan::Bencher, kind: &str) {
    bench::<Ctf>(bencher, "ctf-5.txt", kind);
}

/// The two parts of the tuned Hexapawn 6 evaluation apart, on the same 200 positions: the
/// linear features and the pattern term.
#[divan::bench(args = ["features", "patterns"])]
fn hexapawn6_parts(bencher: divan::Bencher, part: &str) {
    let set = positions::<Hexapawn>("hexapawn-6.txt");
    bencher.bench_local(|| {
        set.iter()
            .map(|p| {
                let p = divan::black_box(p);
                i64::from(if part == "features" {
                    boardgames_core::eval::hexapawn::features(p)
                        .iter()
                        .sum::<i32>()
                } else {
                    boardgames_core::eval::patterns::score(p)
                })
            })
            .sum::<i64>()
    });
}
