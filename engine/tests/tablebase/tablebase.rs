//! Tablebases checked against independent evidence: a naive memoised negamax for every position
//! of the Oska 4 and Hexapawn 4 tables (both sides to move), the alpha-beta solver for a sample,
//! and the files written to disk read back.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use boardgames_core::eval::Evaluate;
use boardgames_core::games::{Game, Hexapawn, Line, MoveList, Oska, Side};
use boardgames_core::score::Score;
use boardgames_core::search::{Limits, Searcher};
use boardgames_core::tablebase::build::{Plan, build};
use boardgames_core::tablebase::file::Header;
use boardgames_core::tablebase::index::Geometry;
use boardgames_core::tablebase::{Retro, Tablebase};

/// The exact value by plain recursion over every move, remembered per position.
pub(crate) fn naive<G: Game>(pos: G, memo: &mut HashMap<G, Score>) -> Score {
    if let Some(&s) = memo.get(&pos) {
        return s;
    }
    let s = if let Some(o) = pos.board_outcome() {
        match o.winner() {
            None => Score::Draw,
            Some(w) if w == pos.side_to_move() => Score::Win(0),
            Some(_) => Score::Loss(0),
        }
    } else {
        let mut moves = MoveList::new();
        pos.generate(&mut moves);
        let mut best: Option<Score> = None;
        for &mv in moves.as_slice() {
            let v = match naive(pos.play(mv), memo) {
                Score::Win(k) => Score::Loss(k + 1),
                Score::Loss(k) => Score::Win(k + 1),
                other => other,
            };
            if best.is_none_or(|b| v.value() > b.value()) {
                best = Some(v);
            }
        }
        best.unwrap_or(Score::Loss(0))
    };
    memo.insert(pos, s);
    s
}

/// Builds the whole game at `size` in memory.
pub(crate) fn tables<G: Retro>(size: usize) -> (Vec<(Header, Vec<u8>)>, Tablebase) {
    let mut out = Vec::new();
    let plan = Plan {
        size,
        max_pieces: size,
        threads: 2,
    };
    build::<G>(plan, &|_| {}, &mut |h, v| {
        out.push((h, v.to_vec()));
        Ok(())
    })
    .expect("the build succeeds");
    let tb = Tablebase::from_tables::<G>(size, out.clone()).expect("the tables are sound");
    (out, tb)
}

/// Every position of every material, both sides to move, against the naive solver.
fn every_position<G: Retro>(size: usize) -> usize {
    let (_, tb) = tables::<G>(size);
    let shape = Geometry::new(G::layout_of(size));
    let mut memo = HashMap::new();
    let mut checked = 0;
    for w in 1..=size {
        for b in 1..=size {
            let whites = shape.sets_by_progress(w, true).concat();
            let blacks = shape.sets_by_progress(b, false).concat();
            for &white in &whites {
                for &black in blacks.iter().filter(|&&s| s & white == 0) {
                    let pos = G::from_sets(size, white, black);
                    for p in [pos, pos.with_side(Side::Black)] {
                        assert_eq!(tb.probe(&p), Some(naive(p, &mut memo)), "{p:?}");
                        checked += 1;
                    }
                }
            }
        }
    }
    checked
}

#[test]
fn oska_4_every_position_matches_a_naive_solver() {
    assert_eq!(every_position::<Oska>(4), 2 * 2_262_220);
}

#[test]
fn hexapawn_4_every_position_matches_a_naive_solver() {
    assert_eq!(every_position::<Hexapawn>(4), 2 * 2_262_220);
}

/// A sample of positions against the alpha-beta solver, and the start values docs/cli.md gives.
fn sample_against_solver<G: Retro + Evaluate>(size: usize, start: Score) {
    let (_, tb) = tables::<G>(size);
    let shape = Geometry::new(G::layout_of(size));
    assert_eq!(tb.probe(&G::start(size).unwrap()), Some(start));
    let mut searcher = Searcher::<G>::new(16);
    let limits = Limits {
        solve: true,
        ..Limits::default()
    };
    let whites = shape.sets_by_progress(size - 1, true).concat();
    let blacks = shape.sets_by_progress(size - 1, false).concat();
    let mut n = 0;
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    while n < 60 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let white = whites[(seed % whites.len() as u64) as usize];
        let black = blacks[((seed >> 32) % blacks.len() as u64) as usize];
        if black & white != 0 {
            continue;
        }
        let pos = G::from_sets(size, white, black);
        if pos.board_outcome().is_some() {
            continue;
        }
        let r = searcher.search(
            &Line::new(pos),
            &limits,
            &AtomicBool::new(false),
            &mut |_| {},
        );
        assert_eq!(tb.probe(&pos), Some(r.score), "{pos:?}");
        // The best move by the tables leads where the solver says.
        let moves = tb.probe_moves(&pos).expect("covered");
        assert_eq!(moves.first().map(|m| m.1), Some(r.score));
        n += 1;
    }
}

#[test]
fn oska_4_sample_matches_the_alpha_beta_solver() {
    sample_against_solver::<Oska>(4, Score::Win(21));
}

#[test]
fn hexapawn_4_sample_matches_the_alpha_beta_solver() {
    sample_against_solver::<Hexapawn>(4, Score::Win(11));
}

#[test]
fn tables_round_trip_through_files_and_partial_builds_agree() {
    let dir = std::env::temp_dir().join(format!("tb-roundtrip-{}", std::process::id()));
    let (built, memory) = tables::<Hexapawn>(4);
    for (h, v) in &built {
        boardgames_core::tablebase::file::write(&dir, *h, v).unwrap();
    }
    let disk = Tablebase::open::<Hexapawn>(&dir, 4, 0).unwrap();
    assert_eq!(disk.materials().len(), 16);
    // Tables up to 2 pieces a side alone give the same values for those materials.
    let mut small = Vec::new();
    build::<Hexapawn>(
        Plan {
            size: 4,
            max_pieces: 2,
            threads: 1,
        },
        &|_| {},
        &mut |h, v| {
            small.push((h, v.to_vec()));
            Ok(())
        },
    )
    .unwrap();
    assert_eq!(small.len(), 4);
    for (h, v) in &small {
        let whole = built
            .iter()
            .find(|(g, _)| g == h)
            .expect("same material, same checksum");
        assert_eq!(&whole.1, v);
    }
    let loaded = Tablebase::open::<Hexapawn>(&dir, 4, u64::MAX).unwrap();
    let start = Hexapawn::start(4).unwrap();
    assert_eq!(disk.probe(&start), memory.probe(&start));
    assert_eq!(loaded.probe(&start), memory.probe(&start));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// With the tables as its probe, a depth-1 search knows the exact value and plays a best move;
/// the exact solver agrees and needs fewer nodes.
fn search_with_tables<G: Retro + Evaluate>(size: usize) {
    let (_, tb) = tables::<G>(size);
    let tb = std::sync::Arc::new(tb);
    let start = G::start(size).unwrap();
    let truth = tb.probe(&start).unwrap();
    let best: Vec<_> = tb
        .probe_moves(&start)
        .unwrap()
        .into_iter()
        .filter(|&(_, s)| s == truth)
        .map(|(m, _)| m)
        .collect();
    let mut searcher = Searcher::<G>::new(16);
    let probe_tb = tb.clone();
    searcher.set_probe(Some(std::sync::Arc::new(move |p: &G| probe_tb.probe(p))));
    let mut hits = 0;
    let depth1 = Limits {
        depth: Some(1),
        ..Limits::default()
    };
    let r = searcher.search(
        &Line::new(start),
        &depth1,
        &AtomicBool::new(false),
        &mut |e| {
            if let boardgames_core::search::Event::Iteration(i) = e {
                hits = i.tbhits;
            }
        },
    );
    assert_eq!((r.score, r.exact), (truth, true));
    assert!(
        best.contains(&r.best.unwrap()),
        "{:?} is a best move",
        r.best
    );
    assert!(hits > 0);
    let solve = Limits {
        solve: true,
        ..Limits::default()
    };
    let with = searcher.search(
        &Line::new(start),
        &solve,
        &AtomicBool::new(false),
        &mut |_| {},
    );
    let mut plain = Searcher::<G>::new(16);
    let without = plain.search(
        &Line::new(start),
        &solve,
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert_eq!(with.score, truth);
    assert_eq!(without.score, truth);
    assert!(
        with.nodes < without.nodes,
        "{} < {}",
        with.nodes,
        without.nodes
    );
    plays_random_positions_perfectly::<G>(&tb, size);
}

/// Inside the tables the engine plays perfectly: on positions reached by random play from the
/// start, a depth-2 search that probes the tables gives the table's value and one of its best
/// moves (a move whose value for the mover is the position's).
fn plays_random_positions_perfectly<G: Retro + Evaluate>(
    tb: &std::sync::Arc<Tablebase>,
    size: usize,
) {
    let mut rng = boardgames_core::splitmix::SplitMix64::new(7);
    let mut searcher = Searcher::<G>::new(16);
    let probe_tb = tb.clone();
    searcher.set_probe(Some(std::sync::Arc::new(move |p: &G| probe_tb.probe(p))));
    let depth2 = Limits {
        depth: Some(2),
        ..Limits::default()
    };
    let mut checked = 0;
    while checked < 300 {
        let mut line = Line::new(G::start(size).unwrap());
        let plies = rng.below(12);
        let mut moves = MoveList::new();
        for _ in 0..plies {
            line.legal_moves(&mut moves);
            if line.outcome().is_some() || moves.is_empty() {
                break;
            }
            line.push(moves.as_slice()[rng.below(moves.len())]);
        }
        if line.outcome().is_some() {
            continue;
        }
        let pos = *line.current();
        let truth = tb.probe(&pos).expect("the whole game is in the tables");
        let best: Vec<_> = tb
            .probe_moves(&pos)
            .unwrap()
            .into_iter()
            .filter(|&(_, v)| v == truth)
            .map(|(m, _)| m)
            .collect();
        searcher.clear();
        let r = searcher.search(&line, &depth2, &AtomicBool::new(false), &mut |_| {});
        assert_eq!(r.score, truth, "{pos:?}");
        let played = r.best.expect("a move");
        assert!(
            best.contains(&played),
            "{pos:?}: {played:?} is not one of {best:?}"
        );
        checked += 1;
    }
}

#[test]
fn searches_probe_the_tables() {
    search_with_tables::<Oska>(4);
    search_with_tables::<Hexapawn>(4);
}

/// The checksums of every table of Oska 4 and Hexapawn 4 whole, as the tables were when the
/// builder was first checked against the naive solver above: a change to the builder that
/// alters one byte of a table fails here (the format has no room for another numbering).
#[test]
fn tables_are_byte_for_byte_as_recorded() {
    let oska4: [((usize, usize), u64); 16] = [
        ((1, 1), 0x79e42758af281f13),
        ((1, 2), 0x849589ad37483d66),
        ((1, 3), 0x4a867871d2aed86c),
        ((1, 4), 0x0ba5271b9b4528fc),
        ((2, 1), 0x21d761cb58762206),
        ((2, 2), 0x98db5a065ee93a62),
        ((2, 3), 0x80d87b65aaeb462a),
        ((2, 4), 0x756ff464b74fe500),
        ((3, 1), 0x03267d7628cd3a40),
        ((3, 2), 0x845c95fe5b28f3d5),
        ((3, 3), 0x6af0bc69be844464),
        ((3, 4), 0x72283b9ed0b6ac71),
        ((4, 1), 0xc35653bffee56250),
        ((4, 2), 0x45d3680de681cc77),
        ((4, 3), 0x095792ace18ad3ce),
        ((4, 4), 0xa2ffffc5a3286f7c),
    ];
    let hexapawn4: [((usize, usize), u64); 16] = [
        ((1, 1), 0x64e625dfda0521ab),
        ((1, 2), 0x03225314aefc9a08),
        ((1, 3), 0xa15ebbc9c42fe0af),
        ((1, 4), 0x7a41bc332569e972),
        ((2, 1), 0xb13bd64965371504),
        ((2, 2), 0xf3b01c4b39b04d09),
        ((2, 3), 0x1c41dff0a4b090ac),
        ((2, 4), 0x9ebb49388628b58b),
        ((3, 1), 0x049ca6826def47ae),
        ((3, 2), 0x61ed5765edbf44a2),
        ((3, 3), 0x600a51c3bbe2b4bf),
        ((3, 4), 0xfb0c69f8703c3c4d),
        ((4, 1), 0xb62b37656040f856),
        ((4, 2), 0xb3c204ef9949ad92),
        ((4, 3), 0x11a98f32507c2eb2),
        ((4, 4), 0x7c21664c2cbaec3d),
    ];
    let sums = |tables: Vec<(Header, Vec<u8>)>| {
        let mut out: Vec<((usize, usize), u64)> = tables
            .iter()
            .map(|(h, v)| {
                assert_eq!(h.checksum, boardgames_core::tablebase::file::checksum(v));
                ((h.white, h.black), h.checksum)
            })
            .collect();
        out.sort();
        out
    };
    assert_eq!(sums(tables::<Oska>(4).0), oska4);
    assert_eq!(sums(tables::<Hexapawn>(4).0), hexapawn4);
    // A sample of Oska 5, as the whole build (release, 2 threads) wrote them.
    let mut oska5 = Vec::new();
    let plan = Plan {
        size: 5,
        max_pieces: 3,
        threads: 2,
    };
    build::<Oska>(plan, &|_| {}, &mut |h, v| {
        oska5.push((h, v.to_vec()));
        Ok(())
    })
    .expect("the build succeeds");
    assert_eq!(sums(oska5), OSKA5_UP_TO_3);
}

/// Checksums of the tables of Oska 5 with at most 3 pieces a side, from the whole Oska 5 build.
const OSKA5_UP_TO_3: [((usize, usize), u64); 9] = [
    ((1, 1), 0xc64cb891e0948629),
    ((1, 2), 0x58ec08b63eb29d16),
    ((1, 3), 0x589e30d214e91bfa),
    ((2, 1), 0x1f85037294a5f968),
    ((2, 2), 0xd01e6ce40c800e17),
    ((2, 3), 0xe72b07328a03852a),
    ((3, 1), 0xd2dcd95c21c20801),
    ((3, 2), 0x8219b85c59e9655b),
    ((3, 3), 0xb13b6f849b2ee87d),
];
