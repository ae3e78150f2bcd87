//! The search against plain minimax and brute-force solving, determinism, the trace and the
//! depth limit.

use crate::common;

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use boardgames_core::eval::{Evaluate, SearchStyle};
use boardgames_core::games::format::parse_board;
use boardgames_core::games::{Ctf, Game, Hexapawn, Line, MoveList, Oska, Side};
use boardgames_core::score::{Score, WIN};
use boardgames_core::search::trace::{NodeKind, TraceNode, rebuild};
use boardgames_core::search::{Event, Limits, SearchResult, Searcher};
use common::{XorShift as Rng, minimax, random_playout};

fn search<G: Game + Evaluate>(
    searcher: &mut Searcher<G>,
    line: &Line<G>,
    limits: &Limits,
) -> SearchResult {
    searcher.search(line, limits, &AtomicBool::new(false), &mut |_| {})
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// Alpha-beta with every enhancement gives minimax's root value, and a move minimax rates best.
fn check_against_minimax<G: Game + Evaluate>(size: usize, positions: usize, max_depth: u32) {
    check_threads_against_minimax::<G>(size, positions, max_depth, 1);
}

/// [`check_against_minimax`] on `threads` threads. With several threads one searcher (one
/// table, filled by every thread) serves all the searches, so that entries the helpers stored
/// in earlier searches are met too.
fn check_threads_against_minimax<G: Game + Evaluate>(
    size: usize,
    positions: usize,
    max_depth: u32,
    threads: usize,
) {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ size as u64 ^ (G::KIND as u64) << 8);
    let mut checked = 0;
    let mut shared = Searcher::<G>::new(1);
    while checked < positions {
        let Some(mut line) = random_playout::<G>(size, 14, &mut rng) else {
            continue;
        };
        checked += 1;
        for d in 1..=max_depth {
            let mut fresh = Searcher::<G>::new(1);
            let searcher = if threads > 1 { &mut shared } else { &mut fresh };
            let limits = Limits {
                threads,
                ..depth(d)
            };
            let result = search(searcher, &line, &limits);
            let expected = minimax(&mut line, d, 0);
            assert_eq!(
                result.score.value(),
                expected,
                "{:?} depth {d}: search {:?}",
                line.current(),
                result
            );
            let best = result.best.expect("a move");
            let pos = *line.current();
            line.push(best);
            let of_best = -minimax(&mut line, d - 1, 1);
            line.pop();
            assert_eq!(
                of_best, expected,
                "{pos:?} depth {d}: {best:?} is not a best move"
            );
        }
    }
}

#[test]
fn oska_matches_minimax() {
    check_against_minimax::<Oska>(4, 60, 5);
    check_against_minimax::<Oska>(5, 40, 5);
    // Oska 6 searches with null windows (`SearchStyle`): deeper, where they change the tree.
    check_against_minimax::<Oska>(6, 20, 5);
}

/// Oska 6 tries captures by the history heuristic like other moves and searches with null
/// windows (its `SearchStyle`), which its tuned evaluator needs: with captures first and full
/// windows, depth 10 from the start takes 108 327 nodes; the value stays minimax's (above).
#[test]
fn oska_6_search_style_shrinks_the_tree() {
    let start = Oska::start(6).unwrap();
    let r = search(
        &mut Searcher::<Oska>::new(16),
        &Line::new(start),
        &depth(10),
    );
    assert!(r.nodes < 100_000, "{} nodes to depth 10", r.nodes);
    // A searcher told to keep the classic style (the players of the training sets) searches as
    // before, to the same value.
    let mut classic = Searcher::<Oska>::new(16);
    classic.set_style(Some(SearchStyle::CLASSIC));
    let c = search(&mut classic, &Line::new(start), &depth(10));
    assert_eq!(c.nodes, 108_327);
    assert_eq!(c.score, r.score);
    assert_eq!(
        start.search_style(),
        SearchStyle {
            captures_first: false,
            null_window: true
        }
    );
    for size in [4, 5] {
        assert_eq!(
            Oska::start(size).unwrap().search_style(),
            SearchStyle::CLASSIC
        );
    }
}

#[test]
fn hexapawn_matches_minimax() {
    check_against_minimax::<Hexapawn>(3, 60, 5);
    check_against_minimax::<Hexapawn>(4, 60, 5);
    check_against_minimax::<Hexapawn>(5, 30, 5);
}

#[test]
fn ctf_matches_minimax() {
    check_against_minimax::<Ctf>(3, 60, 5);
    check_against_minimax::<Ctf>(4, 40, 4);
    check_against_minimax::<Ctf>(5, 15, 3);
}

/// A depth-limited search on several threads (helpers sharing the table) keeps minimax's
/// value in every game: the table cuts only at the depth an entry was searched to, whichever
/// thread stored it.
#[test]
fn threaded_search_matches_minimax() {
    check_threads_against_minimax::<Oska>(4, 20, 5, 3);
    check_threads_against_minimax::<Oska>(5, 15, 5, 4);
    check_threads_against_minimax::<Hexapawn>(4, 20, 5, 3);
    check_threads_against_minimax::<Hexapawn>(5, 10, 5, 2);
    check_threads_against_minimax::<Ctf>(4, 15, 4, 3);
}

/// The node limit counts every thread's nodes, and the count reported is everyone's.
#[test]
fn threaded_search_counts_every_thread() {
    let line = Line::new(Oska::start(6).unwrap());
    let limits = Limits {
        nodes: Some(20_000),
        threads: 4,
        ..Limits::default()
    };
    let r = search(&mut Searcher::<Oska>::new(4), &line, &limits);
    assert!(r.best.is_some());
    assert!(r.nodes >= 20_000, "{} nodes", r.nodes);
    assert!(r.nodes < 20_000 + 4 * 1024 + 1024, "{} nodes", r.nodes);
    // Without a node limit, the depth is reached, as on one thread.
    let r = search(
        &mut Searcher::<Oska>::new(4),
        &line,
        &Limits {
            threads: 4,
            ..depth(7)
        },
    );
    assert_eq!(r.depth, 7);
}

#[test]
fn search_is_deterministic() {
    let mut rng = Rng(7);
    for _ in 0..20 {
        let Some(line) = random_playout::<Oska>(5, 10, &mut rng) else {
            continue;
        };
        let a = search(&mut Searcher::<Oska>::new(4), &line, &depth(6));
        let b = search(&mut Searcher::<Oska>::new(4), &line, &depth(6));
        assert_eq!(a, b);
        let mut reused = Searcher::<Oska>::new(4);
        search(&mut reused, &line, &depth(3));
        reused.clear();
        assert_eq!(search(&mut reused, &line, &depth(6)), a);
    }
    let line = Line::new(Ctf::start(5).unwrap());
    let a = search(&mut Searcher::<Ctf>::new(4), &line, &depth(4));
    let b = search(&mut Searcher::<Ctf>::new(4), &line, &depth(4));
    assert_eq!(a, b);
}

/// Brute-force game value with distance, memoised (games without the history rule only); value
/// relative to the node: `WIN - k` for a win in k plies.
fn brute<G: Game>(pos: G, memo: &mut HashMap<G, i32>) -> i32 {
    if let Some(&v) = memo.get(&pos) {
        return v;
    }
    let v = if let Some(o) = pos.board_outcome() {
        match o.winner() {
            None => 0,
            Some(w) if w == pos.side_to_move() => WIN,
            Some(_) => -WIN,
        }
    } else {
        let mut moves = MoveList::new();
        pos.generate(&mut moves);
        if moves.is_empty() {
            -WIN
        } else {
            moves
                .as_slice()
                .iter()
                .map(|&m| step_back(-brute(pos.play(m), memo)))
                .max()
                .unwrap()
        }
    };
    memo.insert(pos, v);
    v
}

/// A child's value seen one ply further from the end.
fn step_back(v: i32) -> i32 {
    if v > WIN / 2 {
        v - 1
    } else if v < -WIN / 2 {
        v + 1
    } else {
        v
    }
}

/// Full-width minimax along a line to exactly `depth` plies, with 0 at the depth limit (Capture
/// the Flag: the value depends on the boards seen). A decided value (a win or loss) is the game's
/// value with its distance. `None` when it would visit more than `budget` nodes.
fn brute_line<G: Game>(line: &mut Line<G>, depth: u32, ply: i32, budget: &mut u64) -> Option<i32> {
    *budget = budget.checked_sub(1)?;
    let mut moves = MoveList::new();
    if let Some(value) = common::value_if_over(line, ply, &mut moves) {
        return Some(value);
    }
    if depth == 0 {
        return Some(0);
    }
    let mut best = i32::MIN;
    for &m in moves.as_slice() {
        line.push(m);
        let v = brute_line(line, depth - 1, ply + 1, budget);
        line.pop();
        best = best.max(-v?);
    }
    Some(best)
}

/// The decided value of a line by deepening [`brute_line`], if found within the budget.
fn brute_decided<G: Game>(line: &mut Line<G>) -> Option<i32> {
    let mut budget = 20_000_000u64;
    for d in 1..=40 {
        let v = brute_line(line, d, 0, &mut budget)?;
        if v.abs() > WIN / 2 {
            return Some(v);
        }
    }
    None
}

fn solve<G: Game + Evaluate>(line: &Line<G>) -> SearchResult {
    let limits = Limits {
        solve: true,
        ..Limits::default()
    };
    let r = search(&mut Searcher::<G>::new(8), line, &limits);
    assert!(r.score.is_decided(), "not solved: {r:?}");
    r
}

#[test]
fn solver_matches_brute_force() {
    for n in [3, 4] {
        let line = Line::new(Hexapawn::start(n).unwrap());
        let expected = brute(*line.current(), &mut HashMap::new());
        assert_eq!(solve(&line).score.value(), expected, "hexapawn {n}");
    }
    // Black wins 3x3 Hexapawn.
    assert_eq!(
        solve(&Line::new(Hexapawn::start(3).unwrap())).score,
        Score::Loss(6)
    );
    let mut rng = Rng(99);
    let mut done = 0;
    while done < 12 {
        let Some(line) = random_playout::<Oska>(4, 8, &mut rng) else {
            continue;
        };
        if line.len() < 4 {
            continue;
        }
        done += 1;
        let expected = brute(*line.current(), &mut HashMap::new());
        assert_eq!(solve(&line).score.value(), expected, "{:?}", line.current());
    }
    let mut verified = 0;
    for (board, side) in [
        ("wW-/---/-Bb", Side::White),
        ("W-w/---/bB-", Side::Black),
        ("-Ww/---/bB-", Side::White),
        ("wW-/-b-/--B", Side::White),
        ("W-w/---/b-B", Side::White),
        ("Ww-/---/-bB", Side::Black),
        ("W--/w-b/--B", Side::White),
        ("-W-/w-b/-B-", Side::Black),
    ] {
        let mut line = parse_board::<Ctf>(board, side).unwrap().line;
        if let Some(expected) = brute_decided(&mut line) {
            assert_eq!(solve(&line).score.value(), expected, "ctf {board}");
            verified += 1;
        }
    }
    assert!(
        verified >= 2,
        "only {verified} Capture the Flag positions small enough"
    );
}

/// The solver with two threads, and a searcher reused across depth-limited searches and solves,
/// stay exact: the value is brute force's, the move reaches it, and a depth-limited search after a
/// solve still gives its own value.
#[test]
fn parallel_and_reused_solves_stay_exact() {
    fn check<G: Game + Evaluate>(line: &Line<G>) {
        let pos = *line.current();
        let expected = brute(pos, &mut HashMap::new());
        let parallel = Limits {
            solve: true,
            threads: 2,
            ..Limits::default()
        };
        let r = search(&mut Searcher::<G>::new(8), line, &parallel);
        assert_eq!(r.score.value(), expected, "{pos:?} (2 threads)");
        assert!(r.exact);
        let best = r.best.expect("a move");
        let mut memo = HashMap::new();
        assert_eq!(
            step_back(-brute(pos.play(best), &mut memo)),
            expected,
            "{pos:?}: {best:?} is not a best move"
        );
        let mut reused = Searcher::<G>::new(1);
        let before = search(&mut reused, line, &depth(4));
        let solved = search(
            &mut reused,
            line,
            &Limits {
                solve: true,
                ..Limits::default()
            },
        );
        assert_eq!(solved.score.value(), expected, "{pos:?} (reused)");
        // Solving again finds the whole tree in the table and still names a best move.
        let again = search(
            &mut reused,
            line,
            &Limits {
                solve: true,
                ..Limits::default()
            },
        );
        assert_eq!((again.score, again.exact), (solved.score, true));
        assert_eq!(
            step_back(-brute(pos.play(again.best.unwrap()), &mut memo)),
            expected
        );
        assert_eq!(search(&mut reused, line, &depth(4)).score, before.score);
    }
    for n in [3, 4] {
        check(&Line::new(Hexapawn::start(n).unwrap()));
    }
    let mut rng = Rng(4242);
    let mut done = 0;
    while done < 12 {
        let Some(line) = random_playout::<Oska>(4, 10, &mut rng) else {
            continue;
        };
        if line.len() < 4 {
            continue;
        }
        done += 1;
        check(&line);
    }
}

#[test]
fn solved_draw_is_proven() {
    // Both sides' pieces all home with equal counts: a draw, already over.
    let over = parse_board::<Oska>("b---/---/--/---/w---", Side::White).unwrap();
    let r = solve(&over.line);
    assert_eq!((r.best, r.score), (None, Score::Draw));
    // Positions whose brute-force value is a draw: the solver must prove it (Score::Draw, not a
    // heuristic zero).
    let mut rng = Rng(2024);
    let mut draws = 0;
    for _ in 0..3000 {
        let Some(line) = random_playout::<Oska>(4, 14, &mut rng) else {
            continue;
        };
        if line.len() < 8 {
            continue;
        }
        if brute(*line.current(), &mut HashMap::new()) == 0 {
            let r = solve(&line);
            assert_eq!(r.score, Score::Draw, "{:?}", line.current());
            assert!(r.exact);
            draws += 1;
        }
    }
    assert!(draws > 0, "no drawn position found");
}

fn traced<G: Game + Evaluate>(line: &Line<G>, d: u32) -> (SearchResult, Vec<TraceNode>) {
    let mut searcher = Searcher::<G>::new(1);
    searcher.set_trace(true);
    let mut lines = Vec::new();
    let r = searcher.search(line, &depth(d), &AtomicBool::new(false), &mut |e| {
        if let Event::Trace(t) = e {
            lines.push(t.clone());
        }
    });
    (r, lines)
}

fn check_trace<G: Game + Evaluate>(line: &Line<G>, d: u32) {
    let (r, lines) = traced(line, d);
    assert!(!lines.is_empty());
    for t in &lines {
        let text = t.to_string();
        assert!(!text.contains('\n'));
        assert_eq!(text.parse::<TraceNode>().unwrap(), *t, "{text}");
        // The depth limit is exact: nothing beyond the iteration's depth, leaves exactly on it.
        assert!(t.ply <= t.iteration && t.iteration <= d, "{text}");
        if t.kind == NodeKind::Leaf {
            assert_eq!(t.ply, t.iteration, "{text}");
        }
    }
    assert!(lines.iter().any(|t| t.iteration == r.depth));
    let (tree, value) = rebuild(&lines).unwrap();
    assert_eq!(value, r.score.value());
    assert!(tree.max_ply() <= d);
    assert_eq!(tree.node.iteration, r.depth);
}

#[test]
fn trace_round_trips_and_rebuilds() {
    let mut rng = Rng(5);
    for _ in 0..10 {
        if let Some(line) = random_playout::<Oska>(4, 6, &mut rng) {
            check_trace(&line, 5);
        }
        if let Some(line) = random_playout::<Hexapawn>(4, 6, &mut rng) {
            check_trace(&line, 5);
        }
        if let Some(line) = random_playout::<Ctf>(4, 6, &mut rng) {
            check_trace(&line, 4);
        }
    }
    check_trace(&Line::new(Oska::start(5).unwrap()), 6);
    assert!("trace iter=1".parse::<TraceNode>().is_err());
    assert!("nonsense".parse::<TraceNode>().is_err());
}

#[test]
fn limits_stop_the_search() {
    let line = Line::new(Oska::start(6).unwrap());
    let r = search(
        &mut Searcher::<Oska>::new(1),
        &line,
        &Limits {
            nodes: Some(5000),
            ..Limits::default()
        },
    );
    assert!(r.best.is_some());
    assert!(r.nodes < 5000 + 1024);
    let stop = AtomicBool::new(true);
    let r = Searcher::<Oska>::new(1).search(&line, &Limits::default(), &stop, &mut |_| {});
    assert!(r.best.is_some());
}

/// With a clock's target time, iterative deepening starts no iteration that would not fit: a
/// target of zero ends the search after its first iteration, a generous one lets the depth
/// limit end it.
#[test]
fn target_time_stops_the_deepening() {
    let line = Line::new(Ctf::start(7).unwrap());
    let depths = |target: Duration| {
        let limits = Limits {
            depth: Some(4),
            target_time: Some(target),
            ..Limits::default()
        };
        let mut seen = Vec::new();
        let r = Searcher::<Ctf>::new(1).search(&line, &limits, &AtomicBool::new(false), &mut |e| {
            if let Event::Iteration(i) = e {
                seen.push(i.depth);
            }
        });
        assert!(r.best.is_some());
        seen
    };
    assert_eq!(depths(Duration::ZERO), [1]);
    assert_eq!(depths(Duration::from_secs(3600)), [1, 2, 3, 4]);
}
