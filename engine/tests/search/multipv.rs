//! Several principal variations (`Limits::multipv`) against independent evidence: every root
//! move's plain-minimax value, for all three games.

use crate::common;

use std::io::Write;
use std::process::Stdio;
use std::sync::atomic::AtomicBool;

use boardgames_core::eval::Evaluate;
use boardgames_core::games::notation::move_name;
use boardgames_core::games::{Ctf, Game, Hexapawn, Line, Move, MoveList, Oska};
use boardgames_core::protocol::{Info, Reply, SearchInfo};
use boardgames_core::search::{Event, IterationInfo, Limits, SearchResult, Searcher};
use common::{XorShift as Rng, minimax, random_playout};

fn limits(depth: u32, multipv: usize) -> Limits {
    Limits {
        depth: Some(depth),
        multipv,
        ..Limits::default()
    }
}

/// Searches and returns the result with every reported iteration line, in order.
fn search<G: Game + Evaluate>(
    searcher: &mut Searcher<G>,
    line: &Line<G>,
    limits: &Limits,
) -> (SearchResult, Vec<IterationInfo>) {
    let mut infos = Vec::new();
    let result = searcher.search(line, limits, &AtomicBool::new(false), &mut |e| {
        if let Event::Iteration(i) = e {
            infos.push(i.clone());
        }
    });
    (result, infos)
}

/// Each legal root move with its plain-minimax value at `depth` (seen from the root), best
/// first.
fn ranked<G: Game + Evaluate>(line: &mut Line<G>, depth: u32) -> Vec<(Move, i32)> {
    let mut moves = MoveList::new();
    line.legal_moves(&mut moves);
    let mut ranked: Vec<(Move, i32)> = moves
        .as_slice()
        .iter()
        .map(|&m| {
            line.push(m);
            let v = -minimax(line, depth - 1, 1);
            line.pop();
            (m, v)
        })
        .collect();
    ranked.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
    ranked
}

/// Checks the lines of one iteration of depth `depth` against minimax: as many as asked (or
/// every legal move), numbered from 1, distinct first moves, line K's score the K-th best
/// value, each line's move of that value and its PV legal.
fn check_lines<G: Game + Evaluate>(
    line: &mut Line<G>,
    depth: u32,
    want: usize,
    lines: &[&IterationInfo],
) {
    let expected = ranked(line, depth);
    let pos = *line.current();
    assert_eq!(
        lines.len(),
        want.min(expected.len()),
        "{pos:?} depth {depth} multipv {want}: {lines:?}"
    );
    let mut firsts = Vec::new();
    for (k, info) in lines.iter().enumerate() {
        assert_eq!(info.multipv, k + 1, "{pos:?}: {lines:?}");
        assert_eq!(
            info.score.value(),
            expected[k].1,
            "{pos:?} depth {depth} line {}: {info:?}, minimax {expected:?}",
            k + 1
        );
        let first = info.pv[0];
        assert!(
            !firsts.contains(&first),
            "{pos:?}: {first:?} twice: {lines:?}"
        );
        firsts.push(first);
        let of_first = expected
            .iter()
            .find(|&&(m, _)| m == first)
            .expect("a legal move")
            .1;
        assert_eq!(of_first, expected[k].1, "{pos:?} line {}: {info:?}", k + 1);
        let mut l = line.clone();
        for &m in &info.pv {
            let mut legal = MoveList::new();
            l.legal_moves(&mut legal);
            assert!(legal.contains(m), "{pos:?}: PV {:?} is not legal", info.pv);
            l.push(m);
        }
    }
}

/// Searches random positions with several lines at depths 1 to `max_depth`, checking every
/// iteration's lines against minimax, and line 1 and the best move against a one-line search.
fn check_against_minimax<G: Game + Evaluate>(size: usize, positions: usize, max_depth: u32) {
    let mut rng = Rng(0x51AB_0C7E_D00D_F00D ^ size as u64 ^ (G::KIND as u64) << 8);
    // One searcher for everything: its table carries over between searches and line counts.
    let mut reused = Searcher::<G>::new(1);
    let mut checked = 0;
    while checked < positions {
        let Some(mut line) = random_playout::<G>(size, 14, &mut rng) else {
            continue;
        };
        checked += 1;
        for want in [2, 3, 1 + rng.below(6), 400] {
            let mut searcher = Searcher::<G>::new(1);
            let (result, infos) = search(&mut searcher, &line, &limits(max_depth, want));
            let mut depths: Vec<u32> = infos.iter().map(|i| i.depth).collect();
            depths.dedup();
            for &d in &depths {
                let lines: Vec<&IterationInfo> = infos.iter().filter(|i| i.depth == d).collect();
                check_lines(&mut line, d, want, &lines);
            }
            let last = infos
                .iter()
                .find(|i| i.depth == result.depth)
                .expect("a line 1");
            assert_eq!(result.best, Some(last.pv[0]), "the best move is line 1's");
            // Line 1 scores as a one-line search at every depth both reached (the depth a
            // search stops at when proven may differ: windows differ, so do the leaves seen).
            let (_, one) = search(&mut Searcher::<G>::new(1), &line, &limits(max_depth, 1));
            for o in &one {
                if let Some(l1) = infos.iter().find(|i| i.depth == o.depth) {
                    assert_eq!(l1.multipv, 1);
                    assert_eq!(o.score.value(), l1.score.value(), "{:?}", line.current());
                }
            }

            let (r, infos) = search(&mut reused, &line, &limits(max_depth, want));
            let lines: Vec<&IterationInfo> = infos.iter().filter(|i| i.depth == r.depth).collect();
            check_lines(&mut line, r.depth, want, &lines);
            // A one-line search from the position before, which reaches this one below its
            // root, is not misled by what the searches for several lines stored.
            if let Some(&before) = line.earlier().last() {
                let mut parent = line.clone();
                parent.pop();
                assert_eq!(*parent.current(), before);
                let (r, _) = search(&mut reused, &parent, &limits(max_depth, 1));
                assert_eq!(
                    r.score.value(),
                    minimax(&mut parent, r.depth, 0),
                    "{before:?} after a search for several lines of its child"
                );
            }
        }
    }
}

#[test]
fn oska_lines_match_minimax() {
    check_against_minimax::<Oska>(4, 30, 4);
    check_against_minimax::<Oska>(5, 15, 4);
}

#[test]
fn hexapawn_lines_match_minimax() {
    check_against_minimax::<Hexapawn>(3, 30, 5);
    check_against_minimax::<Hexapawn>(4, 20, 4);
}

#[test]
fn ctf_lines_match_minimax() {
    check_against_minimax::<Ctf>(3, 30, 4);
    check_against_minimax::<Ctf>(4, 15, 3);
}

/// MultiPV 1 (and 0) is the plain search: the same result and the same reports, without
/// numbering beyond 1.
#[test]
fn one_line_is_the_normal_search() {
    let line = Line::new(Oska::start(5).unwrap());
    let plain = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let (r, infos) = search(&mut Searcher::<Oska>::new(4), &line, &plain);
    for want in [0, 1] {
        let (r1, infos1) = search(&mut Searcher::<Oska>::new(4), &line, &limits(6, want));
        assert_eq!(r1, r);
        assert_eq!(infos1.len(), infos.len());
        for (a, b) in infos1.iter().zip(&infos) {
            assert_eq!(
                (a.depth, a.score, a.nodes, &a.pv, a.multipv),
                (b.depth, b.score, b.nodes, &b.pv, 1)
            );
        }
    }
}

/// More lines than legal moves: one line per legal move, every legal move once.
#[test]
fn more_lines_than_moves_gives_every_move() {
    fn every_move<G: Game + Evaluate>(line: Line<G>, depth: u32) {
        let mut moves = MoveList::new();
        line.legal_moves(&mut moves);
        let (r, infos) = search(
            &mut Searcher::<G>::new(1),
            &line,
            &limits(depth, moves.len() + 5),
        );
        let last: Vec<&IterationInfo> = infos.iter().filter(|i| i.depth == r.depth).collect();
        let mut firsts: Vec<Move> = last.iter().map(|i| i.pv[0]).collect();
        let mut legal = moves.as_slice().to_vec();
        firsts.sort_by_key(|m| (m.from, m.to));
        legal.sort_by_key(|m| (m.from, m.to));
        assert_eq!(firsts, legal);
    }
    every_move(Line::new(Oska::start(4).unwrap()), 3);
    every_move(Line::new(Hexapawn::start(3).unwrap()), 3);
    every_move(Line::new(Ctf::start(4).unwrap()), 3);
}

/// Searched to the end of the game, every line's score is proven (`win K`, `loss K` or `draw`)
/// and is the move's exact game value, as minimax to the same depth finds it; the search stops
/// there. Random positions late enough for a depth-14 search to exhaust the tree.
#[test]
fn proven_scores_per_line() {
    fn proven<G: Game + Evaluate>(size: usize, plies: usize) {
        let mut rng = Rng(0xD1CE ^ (G::KIND as u64) << 8);
        let (mut found, mut tries, mut mixed) = (0, 0, 0);
        while found < 8 {
            tries += 1;
            assert!(tries < 2000, "too few positions proven within depth 14");
            let Some(mut line) = random_playout::<G>(size, plies, &mut rng) else {
                continue;
            };
            if line.earlier().len() + 4 < plies {
                continue;
            }
            let (r, infos) = search(&mut Searcher::<G>::new(4), &line, &limits(14, 50));
            if !r.exact {
                continue;
            }
            found += 1;
            let last: Vec<&IterationInfo> = infos.iter().filter(|i| i.depth == r.depth).collect();
            for info in &last {
                assert!(info.exact && info.score.is_decided(), "{info:?}");
            }
            check_lines(&mut line, r.depth, 50, &last);
            if last.iter().any(|i| i.score != last[0].score) {
                mixed += 1;
            }
        }
        assert!(mixed > 0, "no position with lines of different values");
    }
    proven::<Hexapawn>(3, 2);
    proven::<Hexapawn>(4, 8);
    proven::<Oska>(4, 12);
    proven::<Ctf>(3, 6);
}

/// Runs the engine binary with `input` piped in (the end of input lets the search finish) and
/// returns its replies, read back.
fn engine(input: &str) -> Vec<Reply> {
    let mut child = common::start_engine(&[], Stdio::piped());
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| Reply::parse(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

fn search_infos(replies: &[Reply]) -> Vec<&SearchInfo> {
    replies
        .iter()
        .filter_map(|r| match r {
            Reply::Info(Info::Search(i)) => Some(i),
            _ => None,
        })
        .collect()
}

/// Through the real binary: the lines of `MultiPV 3` on Hexapawn 4 score as minimax ranks the
/// root moves at each depth, `bestmove` is line 1's move, more lines than moves give every
/// move, and `go solve` gives one line.
#[test]
fn engine_binary_prints_the_lines() {
    let replies = engine("uci\nsetoption name MultiPV value 3\nnewgame hexapawn 4\ngo depth 4\n");
    assert!(
        replies
            .iter()
            .any(|r| r.to_string() == "option name MultiPV type spin default 1 min 1 max 384"),
        "{replies:?}"
    );
    let infos = search_infos(&replies);
    let mut line = Line::new(Hexapawn::start(4).unwrap());
    let pos = *line.current();
    assert_eq!(infos.len(), 4 * 3, "{replies:?}");
    for (d, lines) in infos.chunks(3).enumerate() {
        let depth = d as u32 + 1;
        let expected = ranked(&mut line, depth);
        for (k, info) in lines.iter().enumerate() {
            assert_eq!((info.depth, info.multipv), (depth, Some(k as u32 + 1)));
            assert_eq!(info.score.value(), expected[k].1, "{info:?} {expected:?}");
            let first = expected
                .iter()
                .find(|&&(m, _)| move_name(&pos, m) == info.pv[0])
                .expect("a legal first move");
            assert_eq!(first.1, expected[k].1, "{info:?}");
        }
        let mut firsts: Vec<&String> = lines.iter().map(|i| &i.pv[0]).collect();
        firsts.sort();
        firsts.dedup();
        assert_eq!(firsts.len(), 3);
    }
    let best = replies.last().unwrap().to_string();
    assert_eq!(best, format!("bestmove {}", infos[9].pv[0]));

    // Capture the Flag 4 at the start: more lines than legal moves.
    let line = Line::new(Ctf::start(4).unwrap());
    let mut moves = MoveList::new();
    line.legal_moves(&mut moves);
    let replies = engine("setoption name MultiPV value 384\nnewgame ctf 4\ngo depth 2\n");
    let infos = search_infos(&replies);
    assert_eq!(infos.len(), 2 * moves.len(), "{replies:?}");

    // An exact solve proves the root value only: one line.
    let replies = engine("setoption name MultiPV value 3\nnewgame oska 4\ngo solve\n");
    let infos = search_infos(&replies);
    assert_eq!(infos.len(), 1, "{replies:?}");
    assert_eq!(infos[0].multipv, Some(1));
    assert!(infos[0].score.is_decided());
}
