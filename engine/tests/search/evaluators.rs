//! The evaluators and their fitting: colour symmetry of every evaluator of every game, the
//! issue's example position, the weights files against the features, the committed position sets
//! against fresh solves, and the fit reproducible from its seed.

use crate::common;

use std::sync::atomic::AtomicBool;

use boardgames_core::eval::{EvalKind, Evaluate};
use boardgames_core::games::{Ctf, Game, Hexapawn, Line, Oska, Piece, Side};
use boardgames_core::score::Score;
use boardgames_core::search::{Limits, Searcher};
use boardgames_tools::tuning::blunders::rates;
use boardgames_tools::tuning::fit::fit;
use boardgames_tools::tuning::positions::{
    Labelled, RESULT_DEPTHS, SetSpec, generate, generate_opening, generate_results, read, write,
};
use common::{Rng, random_line, sizes};

/// The position seen from the other side: rows reversed, colours swapped, the other side to
/// move. Every board of the three games is symmetric top to bottom (Oska's rows too).
fn mirror<G: Game>(pos: &G) -> G {
    let layout = pos.layout();
    let rows = layout.rows();
    let mut cells = vec![None; layout.squares()];
    for (sq, cell) in cells.iter_mut().enumerate() {
        let (r, c) = layout.coords(sq);
        let from = layout
            .square_at(rows - 1 - r, c)
            .expect("boards are symmetric top to bottom");
        *cell = pos.piece_at(from).map(|p| match p {
            Piece::WhitePawn => Piece::BlackPawn,
            Piece::BlackPawn => Piece::WhitePawn,
            Piece::WhiteFlag => Piece::BlackFlag,
            Piece::BlackFlag => Piece::WhiteFlag,
        });
    }
    G::from_cells(pos.size(), &cells, pos.side_to_move().opposite())
        .expect("the mirror of a legal position is legal")
}

fn check_symmetry<G: Evaluate>(seed: u64) {
    let mut rng = Rng::new(seed);
    let mut checked = 0;
    for &size in sizes(G::KIND) {
        for _ in 0..300 {
            let line: Line<G> = random_line(&mut rng, size, 40);
            let pos = *line.current();
            if pos.board_outcome().is_some() {
                continue;
            }
            let m = mirror(&pos);
            assert_eq!(mirror(&m), pos, "mirroring twice gives the position back");
            for kind in EvalKind::ALL {
                let f = kind.function::<G>();
                // From the side to move's view the two are the same position; from White's view
                // the mirrored one has the negated value.
                assert_eq!(
                    f(&pos),
                    f(&m),
                    "{kind} of {} {pos:?} and its mirror {m:?}",
                    G::KIND
                );
            }
            let (mut a, mut b) = (
                vec![0; G::FEATURE_NAMES.len()],
                vec![0; G::FEATURE_NAMES.len()],
            );
            pos.features(&mut a);
            m.features(&mut b);
            assert_eq!(a, b, "features of {pos:?} and its mirror");
            checked += 1;
        }
    }
    assert!(checked > 300, "only {checked} positions checked");
}

#[test]
fn every_evaluator_is_colour_symmetric() {
    check_symmetry::<Oska>(1);
    check_symmetry::<Hexapawn>(2);
    check_symmetry::<Ctf>(3);
}

#[test]
fn weights_files_name_the_features_of_their_evaluator() {
    use boardgames_core::eval::{weights_ctf, weights_ctf_refined, weights_hexapawn, weights_oska};
    assert_eq!(&weights_oska::NAMES[..], Oska::FEATURE_NAMES);
    assert_eq!(&weights_hexapawn::NAMES[..], Hexapawn::FEATURE_NAMES);
    assert_eq!(&weights_ctf::NAMES[..], Ctf::FEATURE_NAMES);
    assert_eq!(&weights_ctf_refined::NAMES[..], Ctf::FEATURE_NAMES);
    assert_eq!(
        weights_ctf_refined::SQUARES.len(),
        boardgames_core::eval::ctf::piece_square_len(weights_ctf_refined::SIZE)
    );
    // The refined file is exactly what `engine refine-weights` writes for its weights.
    assert_eq!(
        boardgames_tools::tuning::fit::weights_file::<Ctf>(
            &boardgames_core::eval::ctf::refined_weights(),
            weights_ctf_refined::FITTED_BY,
            Some(weights_ctf_refined::SIZE)
        ),
        include_str!("../../core/src/eval/weights_ctf_refined.rs")
    );
    // The refinement starts from the fitted weights: after a new fit it must be rerun.
    let from = format!(
        "{}, then engine refine-weights ctf {} ",
        weights_ctf::FITTED_BY,
        weights_ctf_refined::SIZE
    );
    assert!(
        weights_ctf_refined::FITTED_BY.starts_with(&from),
        "{}",
        weights_ctf_refined::FITTED_BY
    );
    for fitted_by in [
        weights_oska::FITTED_BY,
        weights_hexapawn::FITTED_BY,
        weights_ctf::FITTED_BY,
    ] {
        assert!(fitted_by.starts_with("engine tune "), "{fitted_by}");
    }
}

#[test]
fn ctf_uses_its_refined_weights_at_their_size_only() {
    use boardgames_core::eval::ctf::piece_square_counts;
    use boardgames_core::eval::dot;
    use boardgames_core::eval::weights_ctf_refined::{SIZE, SQUARES};
    assert_ne!(Ctf::weights_at(SIZE), Ctf::weights());
    assert!(SQUARES.iter().any(|&w| w != 0), "a piece-square term");
    let mut rng = Rng::new(11);
    let (mut differ, mut squares) = (0, Vec::new());
    for size in 4..=7 {
        let expected = if size == SIZE {
            Ctf::weights_at(SIZE)
        } else {
            Ctf::weights()
        };
        assert_eq!(Ctf::weights_at(size), expected, "size {size}");
        for _ in 0..50 {
            let line: Line<Ctf> = random_line(&mut rng, size, 30);
            let pos = *line.current();
            let mut f = vec![0; Ctf::FEATURE_NAMES.len()];
            pos.features(&mut f);
            piece_square_counts(&pos, &mut squares);
            let term = if size == SIZE {
                dot(&squares, &SQUARES)
            } else {
                0
            };
            assert_eq!(pos.evaluate(), dot(&f, expected) + term, "{pos:?}");
            differ += usize::from(dot(&f, Ctf::weights()) != dot(&f, Ctf::weights_at(SIZE)));
        }
    }
    assert!(
        differ > 20,
        "the two sets score most positions differently: {differ}"
    );
}

/// The piece-square term's features count each piece on its square seen from the side to move,
/// the columns folded: the 5 x 5 start, counted by hand.
#[test]
fn piece_squares_are_counted_from_the_side_to_move() {
    use boardgames_core::eval::ctf::{piece_square_counts, piece_square_len};
    assert_eq!(piece_square_len(5), 60);
    assert_eq!(piece_square_len(4), 32);
    assert_eq!(piece_square_len(7), 112);
    let start = Line::new(Ctf::start(5).expect("5 x 5"));
    let mut expected = vec![0; 60];
    // Own pawns (classes 0-14, row * 3 + folded column): b1, d1; b2, d2; c2.
    expected[1] = 2;
    expected[4] = 2;
    expected[5] = 1;
    // Own flag (15-29): c1.
    expected[17] = 1;
    // The opponent's pawns (30-44): b4, d4, c4 on row 3 from White's side; b5, d5 on row 4.
    expected[40] = 2;
    expected[41] = 1;
    expected[43] = 2;
    // Its flag (45-59): c5.
    expected[59] = 1;
    let mut counts = Vec::new();
    piece_square_counts(start.current(), &mut counts);
    assert_eq!(counts, expected);
    // After White's first move Black's pieces are the own ones, each on the square the
    // matching white piece had, seen from Black's side; White's flag is on Black's far row.
    let mut moves = boardgames_core::games::MoveList::new();
    start.legal_moves(&mut moves);
    let mut line = start.clone();
    line.push(moves.as_slice()[0]);
    piece_square_counts(line.current(), &mut counts);
    assert_eq!(counts[..30], expected[..30]);
    assert_eq!(counts[30..45].iter().sum::<i32>(), 5);
    assert_eq!(counts[59], 1);
}

fn solve<G: Evaluate>(line: &Line<G>) -> Score {
    let mut s = Searcher::<G>::new(16);
    let limits = Limits {
        solve: true,
        ..Limits::default()
    };
    s.search(line, &limits, &AtomicBool::new(false), &mut |_| {})
        .score
}

fn search_move<G: Evaluate>(line: &Line<G>, depth: u32) -> boardgames_core::games::Move {
    let mut s = Searcher::<G>::new(4);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    s.search(line, &limits, &AtomicBool::new(false), &mut |_| {})
        .best
        .expect("not over")
}

/// The position: the capture b2a4 loses (Black then wins in 7), the quiet moves win.
#[test]
fn the_race_position_is_played_right() {
    let line: Line<Oska> = common::line("w-w-/-w-/b-/-b-/b--w", Side::White);
    assert_eq!(solve(&line), Score::Win(12));
    for depth in 1..=8 {
        let m = search_move(&line, depth);
        let mut after = line.clone();
        after.push(m);
        assert!(
            matches!(solve(&after), Score::Loss(_)),
            "depth {depth} plays {} which does not keep the win",
            boardgames_core::games::format::slash(after.current())
        );
    }
}

fn committed<G: Game>(name: &str) -> Vec<Labelled<G>> {
    let path = format!("{}/data/positions/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the committed set exists");
    read::<G>(&text).expect("the committed set reads back")
}

/// Some positions of each committed exact set, solved afresh: the stored values hold.
fn check_labels<G: Evaluate>(name: &str, every: usize) {
    let set = committed::<G>(name);
    assert!(set.len() >= 1000, "{name} has {} positions", set.len());
    for l in set.iter().step_by(every) {
        assert_eq!(solve(&l.line), l.value, "{name}: {:?}", l.line.current());
        let (m, v) = l.moves[l.moves.len() / 2];
        let mut child = l.line.clone();
        child.push(m);
        let fresh = match child.outcome() {
            Some(o) if o.winner().is_none() => Score::Draw,
            Some(_) => Score::Win(1),
            None => match solve(&child) {
                Score::Win(k) => Score::Loss(k + 1),
                Score::Loss(k) => Score::Win(k + 1),
                s => s,
            },
        };
        assert_eq!(fresh, v, "{name}: move {m:?} of {:?}", l.line.current());
    }
}

#[test]
fn committed_sets_hold_exact_values() {
    check_labels::<Oska>("oska-4.txt", 100);
    check_labels::<Oska>("oska-5.txt", 200);
    check_labels::<Hexapawn>("hexapawn-5.txt", 200);
    check_labels::<Hexapawn>("hexapawn-6.txt", 200);
    check_labels::<Ctf>("ctf-4.txt", 150);
}

/// The tuned evaluators blunder less than the first version's at depth 3 on the committed sets.
#[test]
fn tuned_evaluators_blunder_less_than_legacy() {
    fn check<G: Evaluate>(name: &str) {
        let set: Vec<Labelled<G>> = committed::<G>(name).into_iter().step_by(2).collect();
        let tuned = rates(&set, EvalKind::Tuned, [3])[0];
        let legacy = rates(&set, EvalKind::Legacy, [3])[0];
        eprintln!("{name}: depth 3 tuned {tuned:?}, legacy {legacy:?}");
        assert!(tuned.positions > 100, "{name}: {tuned:?}");
        assert!(
            tuned.blunders < legacy.blunders,
            "{name}: {tuned:?} {legacy:?}"
        );
    }
    check::<Oska>("oska-4.txt");
    check::<Hexapawn>("hexapawn-5.txt");
}

#[test]
fn sets_and_fits_are_reproducible_from_their_seeds() {
    let spec = SetSpec {
        size: 4,
        count: 150,
        seed: 9,
        budget: 200_000,
        history: 4,
        hash_mib: 16,
    };
    let a = generate::<Oska>(&spec, &mut |_, _| {});
    let b = generate::<Oska>(&spec, &mut |_, _| {});
    let text = write(&a, &["test".into()]);
    assert_eq!(text, write(&b, &["test".into()]), "same seed, same set");
    let back = read::<Oska>(&text).expect("reads back");
    assert_eq!(write(&back, &["test".into()]), text, "round trip");
    let other = generate::<Oska>(&SetSpec { seed: 10, ..spec }, &mut |_, _| {});
    assert_ne!(
        write(&other, &[]),
        write(&a, &[]),
        "another seed, another set"
    );

    let f1 = fit(&a, 3);
    let f2 = fit(&back, 3);
    assert_eq!(f1, f2, "same data and seed, same fit");
    assert_eq!(f1.weights.len(), Oska::FEATURE_NAMES.len());
    assert!(
        f1.train_loss < std::f64::consts::LN_2,
        "the fit beats a coin: {f1:?}"
    );

    // Capture the Flag sets keep the history (written as a history list) and read back.
    let ctf = generate::<Ctf>(
        &SetSpec {
            size: 4,
            count: 20,
            seed: 4,
            ..spec
        },
        &mut |_, _| {},
    );
    let text = write(&ctf, &[]);
    assert_eq!(write(&read::<Ctf>(&text).expect("reads back"), &[]), text);
}

/// Every distinct position within `plies` of the start of Hexapawn `n` with at least two moves,
/// found by plain recursion (a second implementation of the opening set's enumeration).
fn naive_opening(pos: Hexapawn, plies: usize, seen: &mut std::collections::HashSet<Hexapawn>) {
    let line = Line::new(pos);
    if line.outcome().is_some() || !seen.insert(pos) || plies == 0 {
        return;
    }
    let mut moves = boardgames_core::games::MoveList::new();
    line.legal_moves(&mut moves);
    for &m in moves.as_slice() {
        naive_opening(pos.play(m), plies - 1, seen);
    }
}

#[test]
fn opening_sets_hold_every_early_position_with_its_exact_value() {
    let spec = SetSpec {
        size: 4,
        count: 100_000,
        seed: 1,
        budget: 2_000_000,
        history: 4,
        hash_mib: 16,
    };
    let set = generate_opening::<Hexapawn>(&spec, 4, None, &mut |_, _| {});
    let mut seen = std::collections::HashSet::new();
    naive_opening(Hexapawn::start(4).unwrap(), 4, &mut seen);
    let two_moves = |p: &Hexapawn| {
        let mut moves = boardgames_core::games::MoveList::new();
        Line::new(*p).legal_moves(&mut moves);
        moves.len() >= 2
    };
    let mut want: Vec<_> = seen.into_iter().filter(two_moves).collect();
    let mut got: Vec<_> = set.iter().map(|l| *l.line.current()).collect();
    want.sort_by_key(Game::hash);
    got.sort_by_key(Game::hash);
    assert_eq!(got.len(), want.len());
    assert_eq!(got, want, "the same positions as the naive enumeration");
    for l in set.iter().step_by(7) {
        assert_eq!(l.value, solve(&l.line), "{:?}", l.line.current());
    }
    // --count caps the set, earliest positions first.
    let few = generate_opening::<Hexapawn>(&SetSpec { count: 5, ..spec }, 4, None, &mut |_, _| {});
    assert_eq!(few.len(), 5);
    assert_eq!(*few[0].line.current(), Hexapawn::start(4).unwrap());
}

/// The value of Capture the Flag feature `name` of `pos` (from its side to move's view).
fn ctf_feature(pos: &Ctf, name: &str) -> i32 {
    let at = boardgames_core::eval::ctf::FEATURES
        .iter()
        .position(|&f| f == name)
        .expect("a feature of the evaluator");
    boardgames_core::eval::ctf::features(pos)[at]
}

/// A pawn on its own home row closes the enemy flag's race (the flag can never stand past it):
/// the race counts for nothing then, and the evaluator would rather keep that pawn at home than
/// step it forward and open the race.
#[test]
fn a_home_row_pawn_closes_the_enemy_flag_race() {
    let closed: Ctf = common::pos("-w---/-----/--W--/-b---/B---b", Side::Black);
    let open: Ctf = common::pos("-w---/-----/--W--/-b--b/B----", Side::Black);
    // Both sides have a pawn at home: both races are closed.
    assert_eq!(ctf_feature(&closed, "home_guard"), 0);
    assert_eq!(ctf_feature(&closed, "open_race"), 0);
    // Open, White's flag needs 2 rows (to row 4, past the pawns on row 3): 5 - 2 = 3 against
    // Black, whose own race is closed by White's pawn at home.
    assert_eq!(ctf_feature(&open, "home_guard"), -1);
    assert_eq!(ctf_feature(&open, "open_race"), -3);
    assert!(
        closed.evaluate() > open.evaluate(),
        "closed {} open {}",
        closed.evaluate(),
        open.evaluate()
    );
}

/// The jump lines over the enemy flag that a pawn could use: none over a flag flanked by its
/// pawns on its home row (the start) or in a corner, two over a lone flag on its home row.
#[test]
fn jump_lines_over_the_enemy_flag_are_counted() {
    let start = Ctf::start(5).expect("5 x 5");
    assert_eq!(ctf_feature(&start, "flag_lines"), 0);
    let corner: Ctf = common::pos("--W--/-www-/-----/-bbb-/B----", Side::White);
    let lone: Ctf = common::pos("--W--/-www-/-----/-bbb-/--B--", Side::White);
    // White's pawns jump down, left or right: over B on a5 no line fits the board; over B on
    // c5 the sideways lines do, down does not. Black's pawns have two lines over W on c1.
    assert_eq!(ctf_feature(&corner, "flag_lines"), -2);
    assert_eq!(ctf_feature(&lone, "flag_lines"), 0);
}

/// At equal depth the tuned evaluator beats the plain race count in Capture the Flag 5: at
/// least 32 of 40 points here, where the evaluator before the home guard, the open race and the
/// jump lines scored 28 (with the threat features it scores 34).
#[test]
fn tuned_beats_classic_race_in_capture_the_flag() {
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut rng = Rng::new(1);
    let mut points = 0;
    let mut games = 0;
    while games < 20 {
        let mut opening = Line::new(Ctf::start(5).expect("5 x 5"));
        for _ in 0..2 {
            let moves = common::legal(&opening);
            opening.push(moves.as_slice()[rng.below(moves.len())]);
        }
        if opening.outcome().is_some() {
            continue;
        }
        for tuned_side in [Side::White, Side::Black] {
            let mut line = opening.clone();
            let mut players = [Searcher::<Ctf>::new(1), Searcher::<Ctf>::new(1)];
            players[tuned_side.opposite().index()]
                .set_evaluator(EvalKind::ClassicRace.function::<Ctf>());
            while line.outcome().is_none() && line.len() < 400 {
                let s = line.current().side_to_move().index();
                let mv = players[s].search(&line, &limits, &stop, &mut |_| {}).best;
                line.push(mv.expect("the game is not over"));
            }
            points += match line.outcome().and_then(|o| o.winner()) {
                Some(w) if w == tuned_side => 2,
                None => 1,
                Some(_) => 0,
            };
            games += 1;
        }
    }
    assert!(
        points >= 32,
        "tuned scored {points} of {} points",
        2 * games
    );
}

/// A result set keeps the games a match would stop at its cap (`RESULT_CAP` plies), labelled as draws (Capture the
/// Flag games between material counts often go on that long): the fit sees the positions that
/// are never converted, where it once saw only games that ended.
#[test]
fn result_sets_count_games_stopped_at_the_cap_as_draws() {
    let spec = SetSpec {
        size: 7,
        count: 300,
        seed: 1,
        budget: 0,
        history: 4,
        hash_mib: 1,
    };
    let set = generate_results::<Ctf>(&spec, &[EvalKind::Material], &[2, 3, 4], &mut |_, _| {});
    assert_eq!(set.len(), 300);
    let draws: Vec<&Labelled<Ctf>> = set.iter().filter(|l| l.value == Score::Draw).collect();
    assert!(!draws.is_empty(), "no position of a stopped game");
    for l in draws {
        // A Capture the Flag game has no drawn ending: it was stopped, so it was not over.
        assert!(l.line.outcome().is_none());
    }
}

/// A pawn is hanging when an enemy pawn can jump it and the jumper cannot be jumped back where
/// it lands; the side to move can take such a pawn now, the other side can only save one of its
/// hanging pawns a move.
#[test]
fn hanging_pawns_and_who_can_take_them() {
    // White's pawn on c2 can jump c3 to c4; a Black pawn on c5 would jump it back to c3. The
    // flag on c1 stops Black's pawn from jumping c2 in turn.
    let hanging: Ctf = common::pos("--W--/--w--/--b--/-----/b---B", Side::White);
    let covered: Ctf = common::pos("--W--/--w--/--b--/-----/--b-B", Side::White);
    assert_eq!(ctf_feature(&hanging, "safe_take"), 1);
    assert_eq!(ctf_feature(&covered, "safe_take"), 0);
    // The same boards with Black to move: its pawn on c3 is hanging, or covered.
    let black =
        |p: &Ctf| common::pos::<Ctf>(&boardgames_core::games::format::slash(p), Side::Black);
    assert_eq!(ctf_feature(&black(&hanging), "hanging"), 1);
    assert_eq!(ctf_feature(&black(&hanging), "safe_take"), 0);
    assert_eq!(ctf_feature(&black(&covered), "hanging"), 0);
    assert_eq!(ctf_feature(&black(&hanging), "double_threat"), 0);
    // Two Black pawns hanging at once: the pawn on c2 can jump c3 (down) or b2 (sideways).
    let two: Ctf = common::pos("--W--/-bw--/--b--/-----/b---B", Side::Black);
    assert_eq!(ctf_feature(&two, "hanging"), 2);
    assert_eq!(ctf_feature(&two, "double_threat"), 1);
}

/// The players of a result set search to the depths given (`engine positions --depths`, usually
/// [`RESULT_DEPTHS`]): deeper players make another set.
#[test]
fn result_sets_are_played_at_the_depths_given() {
    let spec = SetSpec {
        size: 5,
        count: 200,
        seed: 3,
        budget: 0,
        history: 4,
        hash_mib: 1,
    };
    let evals = [EvalKind::Legacy, EvalKind::ClassicRace];
    let boards = |depths: &[u32]| -> Vec<String> {
        generate_results::<Oska>(&spec, &evals, depths, &mut |_, _| {})
            .iter()
            .map(|l| format!("{:?}", l.line.current()))
            .collect()
    };
    let usual = boards(&RESULT_DEPTHS);
    assert_eq!(RESULT_DEPTHS, [2, 3, 4]);
    assert_eq!(usual.len(), 200);
    assert_ne!(boards(&[5, 6]), usual);
}

/// The search refinement of pattern weights (`engine refine-patterns`): its evaluation with the
/// committed weights is the engine's, the weights it returns do not depend on the threads, and
/// its steps lower the pairwise loss it reports on its own positions.
#[test]
fn search_refinement_is_reproducible_and_lowers_its_loss() {
    use boardgames_core::eval::patterns::{PatternBoard, committed as committed_weights};
    use boardgames_tools::tuning::refine::{Epoch, Options, evaluate_with, refine};

    let set: Vec<Labelled<Oska>> = committed::<Oska>("oska-4.txt")
        .into_iter()
        .filter(|l| l.critical())
        .take(150)
        .collect();
    let shape = set[0].line.current().shape();
    let start = &committed_weights(shape)
        .expect("Oska 4 has pattern weights")
        .weights;
    for l in set.iter().step_by(10) {
        let pos = l.line.current();
        assert_eq!(evaluate_with(pos, start), pos.evaluate(), "{pos:?}");
    }
    let options = Options {
        depths: vec![2, 3],
        epochs: 4,
        rate: 0.05,
        temperature: 100.0,
        threads: 1,
    };
    let mut epochs: Vec<Epoch> = Vec::new();
    let one = refine(&set, start, &options, &mut |e| epochs.push(e.clone()));
    let two = refine(
        &set,
        start,
        &Options {
            threads: 2,
            ..options.clone()
        },
        &mut |_| {},
    );
    assert_eq!(one, two, "the same weights with one thread or two");
    assert_ne!(&one, start, "the weights moved");
    assert_eq!(epochs.len(), 5, "the start and each of the 4 epochs");
    assert_eq!(epochs[0].searches, 2 * set.len());
    assert!(epochs[0].pairs > 0);
    assert!(
        epochs[4].loss < epochs[0].loss,
        "the steps lower the pairwise loss: {epochs:?}"
    );
    let none = refine(
        &set,
        start,
        &Options {
            epochs: 0,
            ..options
        },
        &mut |_| {},
    );
    assert_eq!(&none, start, "no epoch, no change");
}

/// The refinement of Capture the Flag's linear weights by a deeper search (`engine
/// refine-weights`): the games' positions and the teacher's moves do not depend on the threads,
/// each is a legal move of a position within the plies asked for; the evaluation with the
/// committed weights is the engine's; the refined weights do not depend on the threads, and the
/// steps lower the pairwise loss.
#[test]
fn teacher_refinement_is_reproducible_and_lowers_its_loss() {
    use boardgames_core::games::MoveList;
    use boardgames_tools::tuning::refine::{
        Epoch, Options, Taught, evaluate_linear, linear_evaluator, refine_linear,
    };
    use boardgames_tools::tuning::teach::{Games, taught};

    let games = Games {
        size: 5,
        openings: 4,
        plies: 4,
        seed: 3,
        depth: 2,
        opponents: vec![EvalKind::ClassicRace, EvalKind::Material],
        max_ply: 16,
    };
    let one = taught::<Ctf>(&games, Ctf::weights(), 4, 1);
    let refined = boardgames_core::eval::ctf::refined_weights();
    let two = taught::<Ctf>(&games, Ctf::weights(), 4, 2);
    let key = |t: &[Taught<Ctf>]| -> Vec<(Ctf, usize, String)> {
        t.iter()
            .map(|t| (*t.line.current(), t.line.len(), format!("{:?}", t.teacher)))
            .collect()
    };
    assert_eq!(
        key(&one),
        key(&two),
        "the same positions and moves with 1 or 2 threads"
    );
    // Eight games, the tuned side moving on about half of plies 4 to 15 of each.
    assert!(one.len() >= 8 * 4, "{} positions", one.len());
    let mut moves = MoveList::new();
    for t in &one {
        assert!((4..16).contains(&t.line.len()));
        assert!(t.line.outcome().is_none());
        t.line.legal_moves(&mut moves);
        assert!(moves.as_slice().contains(&t.teacher));
        let pos = t.line.current();
        assert_eq!(evaluate_linear(pos, &refined), pos.evaluate());
    }
    // The teacher is the fitted weights' search to depth 4, from an empty table.
    for t in one.iter().step_by(7) {
        let mut s = Searcher::<Ctf>::new(16);
        s.set_evaluator_with(linear_evaluator(Ctf::weights()));
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let r = s.search(&t.line, &limits, &AtomicBool::new(false), &mut |_| {});
        assert_eq!(r.best, Some(t.teacher));
    }
    let options = Options {
        depths: vec![2, 3],
        epochs: 4,
        rate: 1.0,
        temperature: 100.0,
        threads: 1,
    };
    let mut epochs: Vec<Epoch> = Vec::new();
    let w1 = refine_linear(&one, &[], 1.0, Ctf::weights(), &options, &mut |e| {
        epochs.push(e.clone())
    });
    let w2 = refine_linear(
        &one,
        &[],
        1.0,
        Ctf::weights(),
        &Options {
            threads: 2,
            ..options.clone()
        },
        &mut |_| {},
    );
    assert_eq!(w1, w2, "the same weights with one thread or two");
    assert_ne!(w1, Ctf::weights(), "the weights moved");
    assert_eq!(w1[0], Ctf::weights()[0], "tempo stays");
    assert_eq!(epochs.len(), 5);
    assert_eq!(epochs[0].searches, 2 * one.len());
    assert!(
        epochs[4].loss < epochs[0].loss,
        "the steps lower the pairwise loss: {epochs:?}"
    );
    assert!(epochs.iter().all(|e| e.exact.is_none()));
    // Exactly labelled positions join the loss with their own count.
    let exact: Vec<Labelled<Ctf>> = committed::<Ctf>("ctf-4.txt")
        .into_iter()
        .filter(|l| l.critical())
        .take(30)
        .collect();
    let mut mixed: Vec<Epoch> = Vec::new();
    let w3 = refine_linear(
        &one,
        &exact,
        10.0,
        Ctf::weights(),
        &Options {
            epochs: 1,
            ..options.clone()
        },
        &mut |e| mixed.push(e.clone()),
    );
    let (blunders, searches) = mixed[0].exact.expect("an exact count");
    assert_eq!(searches, 2 * exact.len());
    assert!(blunders <= searches);
    assert_eq!(
        (mixed[0].blunders, mixed[0].searches),
        (epochs[0].blunders, epochs[0].searches),
        "the taught positions are counted apart"
    );
    assert!(mixed[0].pairs > epochs[0].pairs, "the exact pairs join");
    assert_ne!(w3, Ctf::weights());
    // With a piece-square term, started at 0, its weights move as well and the loss falls.
    let k = Ctf::FEATURE_NAMES.len();
    let mut start = Ctf::weights().to_vec();
    start.resize(k + boardgames_core::eval::ctf::piece_square_len(5), 0);
    let mut with_squares: Vec<Epoch> = Vec::new();
    let w4 = refine_linear(&one, &[], 1.0, &start, &options, &mut |e| {
        with_squares.push(e.clone())
    });
    assert_eq!(w4.len(), start.len());
    assert!(w4[k..].iter().any(|&w| w != 0), "{w4:?}");
    assert_eq!(
        with_squares[0], epochs[0],
        "the same start: a zero term adds nothing"
    );
    assert!(
        with_squares[4].loss < with_squares[0].loss,
        "{with_squares:?}"
    );
}
