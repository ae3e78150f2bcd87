//! A quick in-process match between two evaluators at equal depth, for trying evaluator changes
//! before an `arena` gauntlet: `cargo run --release --example duel -- GAME SIZE DEPTH A B
//! [OPENINGS] [SEED] [PLIES]`. Each opening (PLIES random plies from the start, default 2) is
//! played twice, A as White and as Black; prints A's wins, draws and losses and its score.
//!
//! `CHECK=1` referees every move with the exact solver (for sizes it solves quickly): a move
//! that throws the mover's value away (a win to a draw or a loss, a draw to a loss) is a
//! blunder; prints each side's blunders and critical moves, and with `DUEL_VERBOSE` each blunder
//! of A (position, move, value before and after).
//!
//! `TABLEBASE=DIR`: the exact tables in DIR (`engine tablebase build`) serve `CHECK` and
//! `ORACLE`, for sizes the solver alone is too slow for (Oska 5). The players never see them.
//!
//! `DUEL_VERBOSE=1` prints how each game ended; `DUEL_VERBOSE=2` also every position on the way
//! (ply, who moves, board, the mover's search value), to replay lost games.

use std::sync::atomic::AtomicBool;

use boardgames_core::eval::{EvalKind, Evaluate};
use boardgames_core::games::format::slash;
use boardgames_core::games::{GameKind, Line, MoveList, Side};
use boardgames_core::score::Score;
use boardgames_core::search::{Limits, Probe, Searcher};
use boardgames_core::splitmix::SplitMix64;
use boardgames_core::with_game;

/// A game still going after this many plies is a draw. Capture the Flag has no draw (no board may
/// come back), but its games can run to thousands of plies; Oska and Hexapawn end far sooner.
const MAX_PLIES: usize = 10_000;

/// The exact value of the position for the side to move: 1 win, 0 draw, -1 loss.
fn value<G: Evaluate>(solver: &mut Searcher<G>, line: &Line<G>) -> i32 {
    if let Some(o) = line.outcome() {
        return match o.winner() {
            Some(w) if w == line.current().side_to_move() => 1,
            Some(_) => -1,
            None => 0,
        };
    }
    let limits = Limits {
        solve: true,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    match solver.search(line, &limits, &stop, &mut |_| {}).score {
        Score::Win(_) => 1,
        Score::Loss(_) => -1,
        _ => 0,
    }
}

/// Blunders and critical moves (moves where some move throws the value away) of A and of B.
#[derive(Default)]
struct Check {
    blunders: [u32; 2],
    critical: [u32; 2],
}

fn play<G: Evaluate>(
    mut line: Line<G>,
    a_side: Side,
    depth: u32,
    a: EvalKind,
    b: EvalKind,
    check: &mut Option<(Searcher<G>, Check)>,
    tables: &Option<Probe<G>>,
) -> Option<Side> {
    let mut sa = Searcher::<G>::new(4);
    sa.set_evaluator(a.function::<G>());
    if std::env::var_os("ORACLE").is_some() {
        // A only solves (never searches to a depth), so the tables only make it quicker.
        sa.set_probe(tables.clone());
    }
    let mut sb = Searcher::<G>::new(4);
    sb.set_evaluator(b.function::<G>());
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    for _ in 0..MAX_PLIES {
        if let Some(o) = line.outcome() {
            if std::env::var_os("DUEL_VERBOSE").is_some() {
                eprintln!("{o} after {} plies; A is {a_side}", line.len());
            }
            return o.winner();
        }
        let s = if line.current().side_to_move() == a_side {
            &mut sa
        } else {
            &mut sb
        };
        // ORACLE=1: A plays perfectly (the exact solver), the ceiling of any evaluator.
        let oracle = Limits {
            solve: true,
            ..Limits::default()
        };
        let perfect =
            std::env::var_os("ORACLE").is_some() && line.current().side_to_move() == a_side;
        let r = s.search(
            &line,
            if perfect { &oracle } else { &limits },
            &stop,
            &mut |_| {},
        );
        if std::env::var("DUEL_VERBOSE").is_ok_and(|v| v == "2") {
            let pos = line.current();
            let mover = if pos.side_to_move() == a_side {
                "A"
            } else {
                "B"
            };
            eprintln!("{:3} {mover} {} {:?}", line.len(), slash(pos), r.score);
        }
        let best = r.best.expect("the game is not over");
        if let Some((solver, c)) = check.as_mut() {
            let who = usize::from(line.current().side_to_move() != a_side);
            let before = value(solver, &line);
            let mut moves = MoveList::new();
            line.legal_moves(&mut moves);
            let after_of = |solver: &mut Searcher<G>, m| {
                let mut next = line.clone();
                next.push(m);
                -value(solver, &next)
            };
            let after = after_of(solver, best);
            let critical = moves
                .as_slice()
                .iter()
                .any(|&m| after_of(solver, m) < before);
            c.critical[who] += u32::from(critical);
            if after < before {
                c.blunders[who] += 1;
                if who == 0 && std::env::var_os("DUEL_VERBOSE").is_some() {
                    eprintln!(
                        "A blunder: {} to move in {}, plays {}: {before} -> {after}",
                        line.current().side_to_move(),
                        slash(line.current()),
                        boardgames_core::games::notation::move_name(line.current(), best)
                    );
                }
            }
        }
        line.push(best);
    }
    None
}

fn run<G: Evaluate>(
    size: usize,
    depth: u32,
    a: EvalKind,
    b: EvalKind,
    n: usize,
    seed: u64,
    plies: usize,
) {
    let mut rng = SplitMix64::new(seed);
    let (mut w, mut d, mut l) = (0, 0, 0);
    let mut played = 0;
    let tables = std::env::var_os("TABLEBASE").and_then(|dir| {
        boardgames_core::tablebase::probe_for::<G>(std::path::Path::new(&dir), size, 1 << 32)
            .expect("TABLEBASE: the tables")
    });
    let mut check = std::env::var_os("CHECK").map(|_| {
        let mut solver = Searcher::<G>::new(256);
        solver.set_probe(tables.clone());
        (solver, Check::default())
    });
    while played < n {
        let mut line = Line::new(G::start(size).expect("size"));
        let mut ok = true;
        for _ in 0..plies {
            let mut moves = MoveList::new();
            line.legal_moves(&mut moves);
            if moves.is_empty() {
                ok = false;
                break;
            }
            line.push(moves.as_slice()[rng.below(moves.len())]);
        }
        if !ok || line.outcome().is_some() {
            continue;
        }
        played += 1;
        for side in [Side::White, Side::Black] {
            match play(line.clone(), side, depth, a, b, &mut check, &tables) {
                Some(s) if s == side => w += 1,
                Some(_) => l += 1,
                None => d += 1,
            }
        }
    }
    let score = (w as f64 + d as f64 / 2.0) / (w + d + l) as f64;
    println!(
        "{} {size} depth {depth}: {a} vs {b}: +{w} ={d} -{l} score {:.1}%",
        G::KIND,
        100.0 * score
    );
    if let Some((_, c)) = check {
        for (i, name) in [a, b].iter().enumerate() {
            println!(
                "  {name}: {} blunders in {} critical moves",
                c.blunders[i], c.critical[i]
            );
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 5 {
        eprintln!("usage: duel GAME SIZE DEPTH EVAL_A EVAL_B [OPENINGS] [SEED] [PLIES]");
        std::process::exit(2);
    }
    let kind = GameKind::parse(&args[0]).expect("game");
    let size: usize = args[1].parse().expect("size");
    let depth: u32 = args[2].parse().expect("depth");
    let a = EvalKind::parse(&args[3]).expect("evaluator A");
    let b = EvalKind::parse(&args[4]).expect("evaluator B");
    let n = args.get(5).map_or(20, |s| s.parse().expect("openings"));
    let seed = args.get(6).map_or(1, |s| s.parse().expect("seed"));
    let plies = args.get(7).map_or(2, |s| s.parse().expect("plies"));
    with_game!(kind, G => run::<G>(size, depth, a, b, n, seed, plies));
}
