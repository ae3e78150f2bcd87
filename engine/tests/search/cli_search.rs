//! `engine best`, `engine solve` and `engine bench` from the outside.

use std::process::Command;

use boardgames_core::eval::{EvalKind, Evaluate};
use boardgames_core::games::format::{Format, parse_board, print_board};
use boardgames_core::games::{Ctf, Game, GameKind, Hexapawn, Line, Oska, Side};
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
