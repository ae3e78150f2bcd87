//! Every recursive walk is bounded (issue 33, item 1): the search and the solver recurse once a
//! ply up to `MAX_PLY`, and these tests run them to that depth (or to the end of the longest game
//! found) on the largest board of each game, on a thread with the stack the engine gives its
//! search threads, measuring the stack they take; a trace deeper than `MAX_PLY` is refused. Then
//! the `engine` binary, over a pipe, is given every endless `go` the grammar accepts (perft,
//! depth and MultiPV at their largest, infinite, solve, with the trace on) on the largest board
//! of each game, and must answer `stop` and `isready` and stay alive.

use crate::common;

use std::collections::HashMap;
use std::io::Write;
use std::process::ChildStdin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use boardgames_core::eval::Evaluate;
use boardgames_core::games::{Ctf, Game, GameKind, Hexapawn, Line, Oska};
use boardgames_core::score::{MAX_PLY, Score};
use boardgames_core::search::trace::{NodeKind, TraceNode, rebuild};
use boardgames_core::search::{Limits, SEARCH_STACK, Searcher};
use common::{Rng, legal, long_ctf_game, spawn_engine};

/// The longest of a few seeded games of `size` in which each side plays, where it can, a move
/// that neither captures nor ends the game nor lets the opponent end it at once: the positions
/// from the start to the end, and the index of the first at which the side to move could not
/// (from there on a side may have a move that ends the game, which the search then finds and
/// needs to look no deeper).
fn long_game<G: Game>(size: usize) -> (Vec<G>, usize) {
    let mut longest = (Vec::new(), 0);
    for seed in 0..40 {
        let mut rng = Rng::new(seed);
        let mut line = Line::new(G::start(size).unwrap());
        let mut path = vec![*line.current()];
        let mut free = None;
        loop {
            let moves = legal(&line);
            if moves.is_empty() {
                break;
            }
            let pos = *line.current();
            let slow: Vec<_> = moves
                .as_slice()
                .iter()
                .copied()
                .filter(|&m| {
                    let next = pos.play(m);
                    let mut replies = boardgames_core::games::MoveList::new();
                    next.generate(&mut replies);
                    !pos.is_capture(m)
                        && next.board_outcome().is_none()
                        && replies.as_slice().iter().all(|&r| {
                            let after = next.play(r);
                            after.board_outcome().is_none() && after.count_moves() > 0
                        })
                })
                .collect();
            let pool = if slow.is_empty() {
                free.get_or_insert(path.len() - 1);
                moves.as_slice().to_vec()
            } else {
                slow
            };
            line.push(pool[rng.below(pool.len())]);
            path.push(*line.current());
        }
        if path.len() > longest.0.len() {
            let free = free.unwrap_or(path.len() - 1);
            longest = (path, free);
        }
    }
    longest
}

/// What a search along a forced line took.
struct Depth {
    /// The deepest ply of the line the search reached.
    ply: usize,
    /// Stack bytes in use at the deepest point, from the start of the thread's work.
    stack: usize,
}

/// Searches from the first position of `path` with a tablebase probe that answers every
/// position off the path as won for its side to move, so that every move off the path loses and
/// never cuts the search off: the search follows the path alone, as deep as the limits let it.
/// Runs on a thread with [`SEARCH_STACK`]; measures the deepest ply and the stack.
fn along<G: Game + Evaluate>(path: &[G], limits: Limits, trace: bool) -> Depth {
    let index: HashMap<u64, usize> = path
        .iter()
        .enumerate()
        .map(|(i, p)| (Game::hash(p), i))
        .collect();
    let deepest = Arc::new(AtomicUsize::new(0));
    let lowest = Arc::new(AtomicUsize::new(usize::MAX));
    let root = path[0];
    let (d, l) = (Arc::clone(&deepest), Arc::clone(&lowest));
    let base = std::thread::Builder::new()
        .stack_size(SEARCH_STACK)
        .spawn(move || {
            let marker = 0u8;
            let base = std::ptr::addr_of!(marker) as usize;
            let mut searcher = Searcher::<G>::new(16);
            searcher.set_trace(trace);
            searcher.set_probe(Some(Arc::new(move |pos: &G| {
                let here = 0u8;
                l.fetch_min(std::ptr::addr_of!(here) as usize, Ordering::Relaxed);
                match index.get(&Game::hash(pos)) {
                    Some(&i) => {
                        d.fetch_max(i, Ordering::Relaxed);
                        None
                    }
                    None => Some(Score::Win(1)),
                }
            })));
            let mut traced = 0u64;
            let result = searcher.search(
                &Line::new(root),
                &limits,
                &AtomicBool::new(false),
                &mut |_| traced += 1,
            );
            assert!(result.best.is_some());
            assert!(!trace || traced > 0);
            std::hint::black_box(&marker);
            base
        })
        .unwrap()
        .join()
        .expect("the search thread ran to its end");
    Depth {
        ply: deepest.load(Ordering::Relaxed),
        stack: base - lowest.load(Ordering::Relaxed),
    }
}

/// Checks a measured walk: it reached position `want` of the path (or a later one: a Capture the
/// Flag move may reach a later position of the path directly), and a line of `MAX_PLY` plies at
/// the same cost a ply would take under a quarter of [`SEARCH_STACK`].
fn check(what: &str, got: Depth, want: usize) {
    assert!(
        got.ply >= want,
        "{what}: the deepest ply reached {}",
        got.ply
    );
    let plies = got.ply.min(MAX_PLY);
    let per_ply = got.stack / plies;
    eprintln!(
        "{what}: {plies} plies, {} KiB of stack ({per_ply} bytes a ply; {} KiB for {MAX_PLY} plies)",
        got.stack / 1024,
        per_ply * MAX_PLY / 1024
    );
    assert!(
        per_ply * MAX_PLY < SEARCH_STACK / 4,
        "{what}: {per_ply} bytes a ply"
    );
}

#[test]
fn the_search_reaches_max_ply_on_the_largest_capture_the_flag_board_within_its_stack() {
    let (_, hi) = GameKind::Ctf.size_range();
    let (line, _) = long_ctf_game(hi, MAX_PLY + 20, 7);
    let mut path: Vec<Ctf> = line.earlier().to_vec();
    path.push(*line.current());
    let limits = |multipv| Limits {
        depth: Some(u32::MAX),
        multipv,
        ..Limits::default()
    };
    // The search deepens to MAX_PLY and no further.
    check("ctf 11 search", along(&path, limits(1), false), MAX_PLY);
    check(
        "ctf 11 search, MultiPV 384",
        along(&path, limits(384), false),
        MAX_PLY,
    );
    let solve = Limits {
        solve: true,
        ..Limits::default()
    };
    check("ctf 11 solve", along(&path, solve, false), MAX_PLY);
}

/// The search, the exact solver and the traced search along the longest game found.
fn deepest_game<G: Game + Evaluate>() {
    let (_, hi) = G::KIND.size_range();
    let (path, free) = long_game::<G>(hi);
    let end = path.len() - 1;
    assert!(
        free >= 4 * hi,
        "{} {hi}: a game of {free} free plies",
        G::KIND
    );
    let name = format!("{} {hi} ({end} plies, {free} free)", G::KIND);
    // The last position is over (never probed) or has no move.
    let want = free.min(end - 1);
    let deep = Limits {
        depth: Some(u32::MAX),
        multipv: 3,
        ..Limits::default()
    };
    check(&format!("{name} search"), along(&path, deep, false), want);
    let solve = Limits {
        solve: true,
        ..Limits::default()
    };
    check(&format!("{name} solve"), along(&path, solve, false), want);
    let traced = Limits {
        depth: Some(u32::MAX),
        ..Limits::default()
    };
    check(&format!("{name} traced"), along(&path, traced, true), want);
}

#[test]
fn the_search_and_the_solver_reach_the_end_of_long_oska_games_within_their_stack() {
    deepest_game::<Oska>();
}

#[test]
fn the_search_and_the_solver_reach_the_end_of_long_hexapawn_games_within_their_stack() {
    deepest_game::<Hexapawn>();
}

#[test]
fn a_trace_deeper_than_the_search_goes_is_refused() {
    let node = |ply: u32| TraceNode {
        iteration: ply,
        ply,
        path: vec!["a1a2".to_string(); ply as usize],
        side: boardgames_core::games::Side::White,
        board: "www/---/bbb".into(),
        alpha: -1,
        beta: 1,
        value: 0,
        kind: NodeKind::Leaf,
        cutoff: false,
        best: None,
    };
    let deep = MAX_PLY as u32 + 1;
    let e = rebuild(&[node(deep), node(0)]).unwrap_err().to_string();
    assert!(e.contains(&format!("ply {deep} is deeper")), "{e}");
    assert!(rebuild(&[node(0)]).is_ok());
}

/// The engine binary over a pipe, read with timeouts.
struct Engine {
    child: std::process::Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
}

/// Generous: the machine is shared and the build may be a debug one.
const PATIENCE: Duration = Duration::from_secs(60);

impl Engine {
    fn start() -> Engine {
        let (child, stdin, lines) = spawn_engine(&[]);
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the engine reads its input");
        self.stdin.flush().unwrap();
    }

    /// The lines up to and including the first that `last` accepts.
    fn until(&mut self, what: &str, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            match self.lines.recv_timeout(PATIENCE) {
                Ok(l) => {
                    let done = last(&l);
                    seen.push(l);
                    if done {
                        return seen;
                    }
                }
                Err(e) => panic!("waiting for {what}: {e:?}; got {seen:?}"),
            }
        }
    }

    /// Asserts that the engine runs and answers `isready` at once.
    fn alive(&mut self, what: &str) {
        self.send("isready");
        let got = self.until("readyok", |l| l == "readyok");
        assert_eq!(got, ["readyok"], "{what}");
        assert!(self.child.try_wait().unwrap().is_none(), "{what}: exited");
    }

    /// Starts `go`, lets it run a while, stops it; returns what it printed.
    fn go_then_stop(&mut self, setup: &[&str], go: &str) -> Vec<String> {
        for l in setup {
            self.send(l);
        }
        self.send(go);
        std::thread::sleep(Duration::from_millis(700));
        assert!(
            self.child.try_wait().unwrap().is_none(),
            "{setup:?} {go}: the engine exited"
        );
        self.send("stop");
        let out = self.until("bestmove", |l| l.starts_with("bestmove"));
        let what = format!("{setup:?} {go}");
        assert!(
            !out.iter().any(|l| l.starts_with("error")),
            "{what}: {out:?}"
        );
        self.alive(&what);
        out
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
    }
}

/// `newgame` of each game at its largest size, and Capture the Flag 5 (whose perft lines grow
/// longest fastest).
fn games() -> Vec<String> {
    let mut games: Vec<String> = GameKind::ALL
        .iter()
        .map(|g| format!("newgame {g} {}", g.size_range().1))
        .collect();
    games.push("newgame ctf 5".into());
    games
}

#[test]
fn a_perft_of_the_largest_depth_runs_until_stop_on_every_game() {
    let mut e = Engine::start();
    for game in games() {
        let out = e.go_then_stop(&[&game], "go perft 4294967295");
        // protocol.md: the lines of the moves counted so far, then 'info string perft stopped',
        // then 'bestmove none'.
        let n = out.len();
        assert_eq!(
            out[n - 2..],
            ["info string perft stopped", "bestmove none"],
            "{game}"
        );
        assert!(
            out[..n - 2].iter().all(|l| l.starts_with("perft ")),
            "{game}: {out:?}"
        );
    }
    e.quit();
}

#[test]
fn endless_searches_run_until_stop_on_every_game() {
    let mut e = Engine::start();
    for game in games() {
        for (options, go) in [
            (&[][..], "go depth 4294967295"),
            (&[], "go infinite"),
            (&[], "go solve"),
            (&["setoption name MultiPV value 384"], "go depth 4294967295"),
            (&["setoption name Trace value true"], "go depth 4294967295"),
        ] {
            let mut setup = vec![game.as_str()];
            setup.extend_from_slice(options);
            let out = e.go_then_stop(&setup, go);
            let best = out.last().unwrap();
            assert!(best != "bestmove none", "{setup:?} {go}: {out:?}");
            e.send("setoption name MultiPV value 1");
            e.send("setoption name Trace value false");
        }
    }
    e.quit();
}
