//! Solves a fixed set of Oska 5 positions (random openings) and prints the node counts: a quick
//! yardstick for solver changes. `cargo run --release --example solve_probe [plies] [count]`.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use boardgames_core::games::format::slash;
use boardgames_core::games::{Game, Line, MoveList, Oska};
use boardgames_core::search::{Limits, Searcher};

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().unwrap())
        .collect();
    let plies = args.first().copied().unwrap_or(10);
    let count = args.get(1).copied().unwrap_or(6);
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut total = 0;
    let start = Instant::now();
    let mut done = 0;
    while done < count {
        let mut line = Line::new(Oska::start(5).unwrap());
        let mut moves = MoveList::new();
        for _ in 0..plies {
            line.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let m = moves.as_slice()[(state % moves.len() as u64) as usize];
            line.push(m);
        }
        if line.outcome().is_some() {
            continue;
        }
        done += 1;
        let limits = Limits {
            solve: true,
            ..Limits::default()
        };
        let t = Instant::now();
        let r =
            Searcher::<Oska>::new(256).search(&line, &limits, &AtomicBool::new(false), &mut |_| {});
        total += r.nodes;
        println!(
            "{} {} {} nodes {} {:.2}s",
            slash(line.current()),
            line.current().side_to_move().letter(),
            r.score,
            r.nodes,
            t.elapsed().as_secs_f64()
        );
    }
    println!(
        "total nodes {total} time {:.2}s",
        start.elapsed().as_secs_f64()
    );
}
