//! `engine best`, `engine solve` and `engine bench` from the outside.

use std::process::Command;

use crate::common::minimax_with;
use boardgames_core::eval::{EvalKind, Evaluate};
use boardgames_core::games::format::{Format, parse_board, print_board};
use boardgames_core::games::notation::move_name;
use boardgames_core::games::{Ctf, Game, GameKind, Hexapawn, Line, MoveList, Oska, Side};
use boardgames_core::score::Score;
use boardgames_core::search::{Limits, Searcher};
use boardgames_core::with_game;

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The board `engine best` should print: the library's choice at the same depth and table size.
fn expected<G: Game + Evaluate>(text: &str, side: Side, depth: u32, format: &Format) -> String {
    expected_with::<G>(EvalKind::Tuned, text, side, depth, format)
}

/// [`expected`] with the evaluator `eval`.
fn expected_with<G: Game + Evaluate>(
    eval: EvalKind,
    text: &str,
    side: Side,
    depth: u32,
    format: &Format,
) -> String {
    let parsed = parse_board::<G>(text, side).unwrap();
    let mut searcher = Searcher::<G>::new(16);
    searcher.set_evaluator(eval.function());
    let r = searcher.search(
        &parsed.line,
        &Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        &std::sync::atomic::AtomicBool::new(false),
        &mut |_| {},
    );
    let pos = *parsed.line.current();
    print_board(&r.best.map_or(pos, |m| pos.play(m)), format)
}

fn check_formats<G: Game + Evaluate>(pos: G, line: Option<&Line<G>>) {
    for format in Format::examples(G::KIND) {
        let text = match (&format, line) {
            (Format::History { quote, sep }, Some(l)) => {
                boardgames_core::games::format::print_history(l, *quote, sep)
            }
            _ => print_board(&pos, &format),
        };
        let side = pos.side_to_move().letter().to_string();
        let (ok, out, err) = run(&["best", G::KIND.name(), &text, &side, "3"]);
        assert!(ok, "{text}: {err}");
        let last = out.lines().last().unwrap();
        assert_eq!(
            last,
            expected::<G>(&text, pos.side_to_move(), 3, &format),
            "{text}"
        );
    }
}

#[test]
fn best_answers_in_every_seed_format() {
    check_formats(Oska::start(4).unwrap(), None);
    check_formats(Oska::start(5).unwrap(), None);
    check_formats(Hexapawn::start(3).unwrap(), None);
    check_formats(Hexapawn::start(5).unwrap(), None);
    let mut line = Line::new(Ctf::start(5).unwrap());
    let mut moves = boardgames_core::games::MoveList::new();
    line.legal_moves(&mut moves);
    line.push(moves.as_slice()[0]);
    check_formats(*line.current(), Some(&line));
    // The seeds' own calls.
    let (ok, out, _) = run(&[
        "best",
        "hexapawn",
        "[\"www\", \"---\", \"bbb\"]",
        "w",
        "2",
        "--size",
        "3",
    ]);
    assert!(ok);
    assert!(
        out.trim_end().starts_with("[\"") && out.contains("\", \""),
        "{out}"
    );
    let (ok, out, _) = run(&[
        "best",
        "oska",
        "((w w w w)(nil nil nil)(nil nil)(nil nil nil)(b b b b))",
        "w",
        "2",
    ]);
    assert!(ok);
    assert!(out.trim_end().starts_with("(("), "{out}");
}

#[test]
fn best_traces_then_answers() {
    let (ok, out, _) = run(&["best", "oska", "wwww/---/--/---/bbbb", "w", "2", "--trace"]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() > 2);
    let (last, trace) = lines.split_last().unwrap();
    assert!(trace.iter().all(|l| l.starts_with("trace ")));
    assert!(!last.starts_with("trace"));
}

/// A score as `engine best --all` prints it (`cp N`, `win K`, `loss K`, `draw`), and the
/// words it took.
fn read_score(words: &[&str]) -> (Score, usize) {
    let number = |w: &str| w.parse().unwrap_or_else(|_| panic!("{words:?}"));
    match words {
        ["draw", ..] => (Score::Draw, 1),
        ["cp", v, ..] => (Score::Cp(number(v)), 2),
        ["win", k, ..] => (Score::Win(number(k) as u32), 2),
        ["loss", k, ..] => (Score::Loss(number(k) as u32), 2),
        _ => panic!("no score in {words:?}"),
    }
}

/// `engine best BOARD SIDE DEPTH --all --eval EVAL` against independent evidence: one line for
/// each legal move, each move's value the negated plain minimax value of the position after it
/// at DEPTH - 1 with the same evaluator, best first, the board after the move in the input's
/// format, and the first line's board the one `engine best` prints without --all.
fn check_all<G: Game + Evaluate>(pos: G, depth: u32, eval: EvalKind) -> Vec<Score> {
    let board = print_board(&pos, &Format::Slash);
    let side = pos.side_to_move().letter().to_string();
    let depth_text = depth.to_string();
    let args = [
        "best",
        G::KIND.name(),
        &board,
        &side,
        &depth_text,
        "--eval",
        eval.name(),
    ];
    let (ok, alone, err) = run(&args);
    assert!(ok, "{args:?}: {err}");
    let (ok, out, err) = run(&[&args[..], &["--all"]].concat());
    assert!(ok, "{args:?} --all: {err}");
    let mut line = Line::new(pos);
    let mut moves = MoveList::new();
    line.legal_moves(&mut moves);
    let listed: Vec<&str> = out.lines().collect();
    assert_eq!(listed.len(), moves.len(), "{args:?} --all:\n{out}");
    let mut seen = Vec::new();
    let mut scores = Vec::new();
    for text in &listed {
        let words: Vec<&str> = text.split_whitespace().collect();
        let mv = *moves
            .as_slice()
            .iter()
            .find(|&&m| move_name(&pos, m) == words[0])
            .unwrap_or_else(|| panic!("{args:?}: '{}' is no legal move: {out}", words[0]));
        assert!(!seen.contains(&mv), "{args:?}: {} twice: {out}", words[0]);
        seen.push(mv);
        let (score, took) = read_score(&words[1..]);
        line.push(mv);
        let value = -minimax_with(&mut line, depth - 1, 1, eval.function::<G>());
        line.pop();
        assert_eq!(
            score.value(),
            value,
            "{args:?}: {text}: minimax says {value}\n{out}"
        );
        assert_eq!(
            words[1 + took..].join(" "),
            print_board(&pos.play(mv), &Format::Slash),
            "{args:?}: {text}"
        );
        scores.push(score);
    }
    assert!(
        scores.windows(2).all(|w| w[0].value() >= w[1].value()),
        "{args:?}: not best first: {out}"
    );
    assert_eq!(
        listed[0].split_whitespace().last(),
        alone.lines().last(),
        "{args:?}: the first line is not the move best plays: {out}"
    );
    scores
}

#[test]
fn best_all_lists_every_move_with_its_value() {
    let ctf = {
        let mut line = Line::new(Ctf::start(5).unwrap());
        for _ in 0..2 {
            let mut moves = MoveList::new();
            line.legal_moves(&mut moves);
            line.push(moves.as_slice()[moves.len() / 2]);
        }
        *line.current()
    };
    for eval in EvalKind::ALL {
        for depth in [1, 2, 3] {
            check_all(Oska::start(4).unwrap(), depth, eval);
            check_all(Oska::start(5).unwrap(), depth, eval);
            check_all(Hexapawn::start(3).unwrap(), depth, eval);
            check_all(Hexapawn::start(5).unwrap(), depth, eval);
            check_all(Ctf::start(5).unwrap(), depth, eval);
            check_all(ctf, depth, eval);
        }
    }
    // A position where the search for every move's value meets the equal moves in another
    // order than the search for the best one: the move best plays is still listed first.
    let reordered = *parse_board::<Ctf>("-wWw---ww-w-----bbbb-bB--", Side::White)
        .unwrap()
        .line
        .current();
    let scores = check_all(reordered, 4, EvalKind::ClassicRace);
    assert!(scores[0] == scores[1], "{scores:?}");
    // A decided position: Hexapawn 3 is lost for White, in plies.
    let scores = check_all(Hexapawn::start(3).unwrap(), 9, EvalKind::Tuned);
    assert!(
        scores.iter().all(|s| matches!(s, Score::Loss(_))),
        "{scores:?}"
    );
    // Ties are visible: from Oska's start, counting material two plies deep, every move is
    // worth the same.
    let scores = check_all(Oska::start(4).unwrap(), 2, EvalKind::Material);
    assert!(
        scores.len() > 1 && scores.iter().all(|s| *s == scores[0]),
        "{scores:?}"
    );
    // A pass is listed as one.
    let (ok, out, err) = run(&["best", "oska", "----/---/--/w--/bb--", "w", "3", "--all"]);
    assert!(ok, "{err}");
    assert!(out.starts_with("pass "), "{out}");
    assert_eq!(out.lines().count(), 1, "{out}");
    // --all and --trace: one or the other.
    let (ok, out, err) = run(&[
        "best",
        "oska",
        "wwww/---/--/---/bbbb",
        "w",
        "2",
        "--all",
        "--trace",
    ]);
    assert!(!ok && out.is_empty(), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn best_help_points_trace_readers_to_pages() {
    let (ok, help, _) = run(&["best", "--help"]);
    assert!(ok);
    assert!(!help.contains("search module"), "{help}");
    assert!(
        help.contains("protocol.md") && help.contains("docs/cli.md"),
        "{help}"
    );
    assert!(help.contains("--all"), "{help}");
}

#[test]
fn best_leaves_the_board_when_there_is_no_move() {
    // White's only piece is blocked (no step, no jump): it passes, the board is printed
    // unchanged.
    let (ok, out, _) = run(&["best", "oska", "----/---/--/w--/bb--", "w", "3"]);
    assert!(ok);
    assert_eq!(out.lines().last(), Some("----/---/--/w--/bb--"));
    // White's only piece already stands on Black's home row: that is no pass but a finished
    // game (White has won), which best reports on stderr with exit status 3.
    let out = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(["best", "oska", "----/b--/--/---/w---", "w", "3"])
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(3));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("the game is over: white wins"));
}

#[test]
fn bad_input_is_refused_cleanly() {
    for args in [
        vec!["best", "hexapawn", "www/---/bbb", "w", "2", "--size", "4"],
        vec!["best", "chess", "www/---/bbb", "w", "2"],
        vec!["best", "oska", "www/---/bbb", "w", "2"],
        vec!["best", "oska", "wwww/---/--/---/bbbb", "x", "2"],
        vec!["best", "ctf", "-wWw--www-----bbb--bBb-", "w", "2"],
        vec!["solve", "hexapawn", "ww/bb", "w"],
    ] {
        let (ok, out, err) = run(&args);
        assert!(!ok, "{args:?}");
        assert!(out.is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn best_takes_an_evaluator() {
    // White can jump b3b5, winning a piece (material's choice), or race (the race count's).
    let board = "ww--/--w/-w/bbb/---b";
    let best = |extra: &[&str]| {
        let args = [&["best", "oska", board, "w", "1"][..], extra].concat();
        let (ok, out, err) = run(&args);
        assert!(ok, "{args:?}: {err}");
        out.lines().last().unwrap().to_string()
    };
    for kind in EvalKind::ALL {
        let want = expected_with::<Oska>(kind, board, Side::White, 1, &Format::Slash);
        assert_eq!(best(&["--eval", kind.name()]), want, "{kind}");
        assert_eq!(
            best(&["--eval", &kind.name().to_uppercase()]),
            want,
            "{kind}"
        );
    }
    assert_eq!(
        best(&[]),
        expected::<Oska>(board, Side::White, 1, &Format::Slash),
        "tuned by default"
    );
    let material = best(&["--eval", "material"]);
    assert_eq!(material, "ww--/--w/--/b-b/-w-b", "the jump");
    assert_ne!(best(&["--eval", "classic-race"]), material);

    // A bad name: nothing on stdout, the names on stderr, a failing status.
    let (ok, out, err) = run(&["best", "oska", board, "w", "1", "--eval", "nope"]);
    assert!(!ok);
    assert!(out.is_empty(), "{out}");
    assert!(
        err.starts_with("error: invalid value 'nope' for '--eval <NAME>'"),
        "{err}"
    );
    let (ok, help, _) = run(&["best", "--help"]);
    assert!(ok);
    for kind in EvalKind::ALL {
        assert!(err.contains(kind.name()), "{err}");
        assert!(help.contains(kind.name()), "{help}");
    }
    assert!(help.contains("--eval <NAME>"), "{help}");
}

#[test]
fn solve_prints_the_value_last() {
    let (ok, out, err) = run(&["solve", "hexapawn", "www/---/bbb", "w"]);
    assert!(ok, "{err}");
    assert_eq!(out, "loss 6\n");
    assert!(err.contains("depth"));
    let (ok, out, _) = run(&["solve", "hexapawn", "www/---/bbb", "b"]);
    assert!(ok);
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("win ") || last.starts_with("loss ") || last == "draw");
}

#[test]
fn bench_matches_its_signature() {
    let (ok, out, err) = run(&["bench"]);
    assert!(ok, "{err}");
    let last = out.lines().last().unwrap();
    let nodes: u64 = last.split_whitespace().nth(1).unwrap().parse().unwrap();
    let sig = include_str!("../../bench.sig").trim();
    assert_eq!(
        nodes.to_string(),
        sig,
        "bench signature changed: update engine/bench.sig"
    );
    // The kinds the bench covers.
    for kind in GameKind::ALL {
        assert!(out.contains(kind.name()));
        with_game!(kind, G => assert!(G::start(4).is_ok()));
    }
}
