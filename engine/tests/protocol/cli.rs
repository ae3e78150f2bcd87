//! The `engine` binary, driven as a user would: `movegen` answers in the format of its input
//! (and prints nothing for a forced pass), `perft` prints `MOVE COUNT` lines then `nodes TOTAL`
//! agreeing with the library, and bad arguments fail with a non-zero status, one clear message
//! on stderr and nothing on stdout. The developer tools of `engine-tune` are driven the same way.
//!
//! Evidence: the real binary, built by Cargo for the tests, run on the seeds' board spellings.

use crate::common;

use std::collections::BTreeSet;
use std::process::{Command, Output};

use boardgames_core::games::format::{parse_board, print_board};
use boardgames_core::games::notation::move_name;
use boardgames_core::games::perft::{perft, perft_divide};
use boardgames_core::games::{Ctf, Game, Hexapawn, Oska, Side};

/// The user's binary.
const ENGINE: &str = env!("CARGO_BIN_EXE_engine");

/// The developer tools' binary.
const TUNE: &str = env!("CARGO_BIN_EXE_engine-tune");

/// Runs `binary` with `args`.
fn run_in(binary: &str, args: &[&str]) -> Output {
    Command::new(binary)
        .args(args)
        .output()
        .expect("the binary runs")
}

fn run(args: &[&str]) -> Output {
    run_in(ENGINE, args)
}

fn stdout_lines(out: &Output) -> Vec<String> {
    String::from_utf8(out.stdout.clone())
        .expect("utf-8")
        .lines()
        .map(str::to_string)
        .collect()
}

/// Runs a command that must succeed and returns its stdout lines.
fn ok(args: &[&str]) -> Vec<String> {
    ok_in(ENGINE, args)
}

/// Runs a command of `binary` that must succeed, with nothing on stderr; returns its stdout
/// lines.
fn ok_in(binary: &str, args: &[&str]) -> Vec<String> {
    let out = run_in(binary, args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty(), "{args:?} wrote to stderr");
    stdout_lines(&out)
}

/// Runs a command that must fail; checks stdout is empty and returns stderr.
fn fails(args: &[&str]) -> String {
    fails_in(ENGINE, args)
}

/// Runs a command of `binary` that must fail; checks stdout is empty and returns stderr.
fn fails_in(binary: &str, args: &[&str]) -> String {
    let out = run_in(binary, args);
    assert!(!out.status.success(), "{args:?} should fail");
    assert!(
        out.stdout.is_empty(),
        "{args:?} printed on stdout: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8(out.stderr).expect("utf-8")
}

/// What `movegen` must print for a board: every legal move's board, in the input's format.
fn expected_movegen<G: Game>(board: &str, side: Side) -> BTreeSet<String> {
    let parsed = parse_board::<G>(board, side).expect("valid board");
    let pos = parsed.line.current();
    common::legal(&parsed.line)
        .as_slice()
        .iter()
        .filter(|m| !m.is_pass())
        .map(|&m| print_board(&pos.play(m), &parsed.format))
        .collect()
}

fn movegen_set(game: &str, board: &str, side: &str) -> BTreeSet<String> {
    let lines = ok(&["movegen", game, board, side]);
    let set: BTreeSet<String> = lines.iter().cloned().collect();
    assert_eq!(set.len(), lines.len(), "no board printed twice");
    set
}

#[test]
fn movegen_oska_start_lists_the_six_boards() {
    assert_eq!(
        movegen_set("oska", "wwww/---/--/---/bbbb", "w"),
        common::set(&common::OSKA_4_FIRST_BOARDS)
    );
}

#[test]
fn movegen_answers_in_the_input_format() {
    let oska = [
        "wwww/---/--/---/bbbb",
        "['wwww','---','--','---','bbbb']",
        r#"["wwww", "---", "--", "---", "bbbb"]"#,
        "((w w w w)(nil nil nil)(nil nil)(nil nil nil)(b b b b))",
        "'((w w w w) (nil nil nil) (nil nil) (nil nil nil) (b b b b))",
        "wwww--------bbbb",
        "\"wwww--------bbbb\"",
    ];
    for board in oska {
        let got = movegen_set("oska", board, "w");
        assert_eq!(got.len(), 6, "{board}");
        assert_eq!(got, expected_movegen::<Oska>(board, Side::White), "{board}");
    }
    // One literal answer per format, so the expectation does not rest on the library alone.
    assert!(movegen_set("oska", oska[1], "w").contains("['-www','w--','--','---','bbbb']"));
    assert!(
        movegen_set("oska", oska[3], "w")
            .contains("((nil w w w)(w nil nil)(nil nil)(nil nil nil)(b b b b))")
    );
    assert!(movegen_set("oska", oska[5], "w").contains("-wwww-------bbbb"));

    let hexapawn = ["www/---/bbb", r#"["www","---","bbb"]"#, "www---bbb"];
    for board in hexapawn {
        let got = movegen_set("hexapawn", board, "b");
        assert_eq!(got.len(), 3, "{board}");
        assert_eq!(got, expected_movegen::<Hexapawn>(board, Side::Black));
    }
    assert!(movegen_set("hexapawn", "www---bbb", "b").contains("www-b-b-b"));

    let ctf = [
        "-wWw--www-------bbb--bBb-",
        "-wWw-/-www-/-----/-bbb-/-bBb-",
        "['-wWw--www-------bbb--bBb-']",
        r#"["-wWw---ww--w----bbb--bBb-", "-wWw--www-------bbb--bBb-"]"#,
    ];
    let sides = ["w", "w", "w", "b"];
    for (board, side) in ctf.into_iter().zip(sides) {
        let got = movegen_set("ctf", board, side);
        assert!(!got.is_empty(), "{board}");
        assert_eq!(
            got,
            expected_movegen::<Ctf>(board, Side::parse(side).unwrap())
        );
    }
    // A history is answered as the seed's `capture` returns a board: one quoted string (here
    // Black b4 jumps up over the pawn White just moved to b3).
    let got = movegen_set("ctf", ctf[3], "b");
    assert!(got.contains(r#""-wWw--bww--------bb--bBb-""#), "{got:?}");
}

#[test]
fn movegen_prints_nothing_when_the_side_must_pass() {
    let out = run(&["movegen", "oska", "----/---/--/w--/bb--", "w"]);
    assert!(out.status.success());
    assert!(out.stdout.is_empty(), "a pass prints no board");
    assert!(out.stderr.is_empty());
    // And a finished game has no moves either.
    let out = run(&["movegen", "hexapawn", "w--/b--/---", "w"]);
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
}

/// Checks `perft` output against the library for one board and depth.
fn check_perft<G: Game>(game: &str, board: &str, side: &str, depth: u32) {
    let lines = ok(&["perft", game, board, side, &depth.to_string()]);
    let parsed = parse_board::<G>(board, Side::parse(side).unwrap()).unwrap();
    let mut line = parsed.line.clone();
    let pos = *line.current();
    let divide: Vec<String> = perft_divide(&mut line, depth)
        .into_iter()
        .map(|(m, n)| format!("{} {n}", move_name(&pos, m)))
        .collect();
    let total = perft(&mut line, depth);
    let (last, moves) = lines.split_last().expect("at least the total");
    assert_eq!(last, &format!("nodes {total}"), "{game} {board} {depth}");
    assert_eq!(moves, divide.as_slice(), "{game} {board} {depth}");
    let sum: u64 = moves
        .iter()
        .map(|l| {
            let (_, n) = l.split_once(' ').expect("MOVE COUNT");
            n.parse::<u64>().expect("a count")
        })
        .sum();
    if depth > 0 {
        assert_eq!(sum, total, "the lines add up to the total");
    }
}

#[test]
fn perft_prints_moves_then_the_total() {
    let lines = ok(&["perft", "oska", "wwww/---/--/---/bbbb", "w", "1"]);
    assert_eq!(lines.len(), 7);
    assert_eq!(lines[6], "nodes 6");
    assert!(lines[..6].iter().all(|l| l.ends_with(" 1")), "{lines:?}");
    check_perft::<Oska>("oska", "wwww/---/--/---/bbbb", "w", 4);
    check_perft::<Oska>("oska", "----/---/--/w--/bb--", "w", 3);
    check_perft::<Hexapawn>("hexapawn", "www/---/bbb", "w", 5);
    check_perft::<Ctf>("ctf", "-wWw--www-------bbb--bBb-", "w", 3);
    check_perft::<Ctf>(
        "ctf",
        r#"["W-w---bB-", "-Ww---bB-", "-Ww---b-B", "W-w---b-B"]"#,
        "b",
        4,
    );
    assert_eq!(
        ok(&["perft", "oska", "----/---/--/w--/bb--", "w", "1"]),
        vec!["pass 1", "nodes 1"]
    );
    assert_eq!(
        ok(&["perft", "hexapawn", "www/---/bbb", "w", "0"]),
        vec!["nodes 1"]
    );
}

/// The one line of an error from the engine itself.
fn one_line_error(args: &[&str], needle: &str) {
    let err = fails(args);
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(
        err.contains(needle),
        "{args:?}: expected '{needle}' in {err}"
    );
}

#[test]
fn bad_arguments_fail_cleanly() {
    one_line_error(
        &["movegen", "chess", "www/---/bbb", "w"],
        "'chess' is not a game: write oska, hexapawn or ctf",
    );
    one_line_error(
        &["movegen", "hexapawn", "www/---/bbb", "x"],
        "'x' is not a side: write w or b",
    );
    one_line_error(
        &["movegen", "ctf", "-wWw--www-----bbb--bBb-", "w"],
        "23 characters fits no ctf board: 23 is not a square number",
    );
    one_line_error(
        &["perft", "oska", "wwww/---/-x/---/bbbb", "w", "2"],
        "row 3, column 2: 'x' is not a piece of oska",
    );
    one_line_error(
        &[
            "movegen",
            "ctf",
            r#"["-wWw--w-w-------bbb--bBb-", "-wWw--www-------bbb--bBb-"]"#,
            "b",
        ],
        "history: board 1 (counting from 1 = the most recent) does not follow from board 2",
    );
    // Errors found by the argument parser: still non-zero, nothing on stdout, and the first
    // line of stderr says what is wrong.
    for args in [
        &["perft", "oska", "wwww/---/--/---/bbbb", "w", "two"][..],
        &["movegen", "oska"][..],
        &["frobnicate"][..],
    ] {
        let err = fails(args);
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
}

/// Runs a command that must fail with exit status `status`, nothing on stdout and exactly one
/// line on stderr; returns that line.
fn fails_with(status: i32, args: &[&str]) -> String {
    fails_with_in(ENGINE, status, args)
}

/// [`fails_with`] for a command of `binary`.
fn fails_with_in(binary: &str, status: i32, args: &[&str]) -> String {
    let out = run_in(binary, args);
    let err = String::from_utf8(out.stderr).expect("utf-8");
    assert_eq!(out.status.code(), Some(status), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?} printed on stdout");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    err
}

#[test]
fn every_bad_argument_is_one_line_and_exit_status_1() {
    const START: &str = "wwww/---/--/---/bbbb";
    let engine_cases = [
        (
            &["best", "oska", START, "w", "-1"][..],
            "'-1' is not a whole number from 1 to 100",
        ),
        (
            &["best", "oska", START, "w", "0"][..],
            "0 is out of range: a whole number from 1 to 100",
        ),
        (
            &["best", "oska", START, "w", "101"][..],
            "101 is out of range",
        ),
        (
            &["best", "oska", START, "w", "99999999999"][..],
            "99999999999 is out of range",
        ),
        (
            &["best", "oska", START, "w", "+2"][..],
            "'+2' is not a whole number",
        ),
        (
            &["best", "oska", START, "w"][..],
            "required arguments were not provided: <DEPTH>",
        ),
        (
            &["best", "oska", START, "w", "2", "extra"][..],
            "unexpected argument 'extra'",
        ),
        (
            &["best", "oska", START, "white", "2"][..],
            "'white' is not a side: write w or b",
        ),
        (&["best", "oska", START, "W", "2"][..], "'W' is not a side"),
        (
            &["best", "OSKA", START, "w", "2"][..],
            "'OSKA' is not a game: write oska, hexapawn or ctf",
        ),
        (
            &["best", "oska", START, "w", "2", "--hash", "0"][..],
            "0 is out of range: a whole number from 1 to 1048576",
        ),
        (
            &["best", "oska", START, "w", "2", "--size", "-4"][..],
            "'-4' is not a whole number from 3 to 11",
        ),
        (
            &["perft", "oska", START, "w", "31"][..],
            "31 is out of range: a whole number from 0 to 30",
        ),
        (
            &["perft", "oska", START, "w", "-1"][..],
            "'-1' is not a whole number from 0 to 30",
        ),
        (
            &["perft", "capture", START, "w", "1"][..],
            "'capture' is not a game",
        ),
        (
            &["movegen", "oska", START, "b", "3"][..],
            "unexpected argument '3'",
        ),
        (
            &["movegen", "oska"][..],
            "required arguments were not provided: <BOARD> <SIDE>",
        ),
        (&["solve", "oska", START, "'w'"][..], "''w'' is not a side"),
        (
            &["solve", "oska", START, "w", "--threads", "0"][..],
            "0 is out of range: a whole number from 1 to 256",
        ),
        (&["frobnicate"][..], "unrecognized subcommand 'frobnicate'"),
    ];
    // The developer tools spell their arguments the same way.
    let tune_cases = [
        (
            &[
                "positions",
                "oska",
                "4",
                "--count",
                "+5",
                "--out",
                "/nonexistent/x",
            ][..],
            "'+5' is not a whole number",
        ),
        (
            &["positions", "Oska", "4", "--out", "/nonexistent/x"][..],
            "'Oska' is not a game",
        ),
        (
            &[
                "positions",
                "oska",
                "6",
                "--depths",
                "4-6",
                "--out",
                "/nonexistent/x",
            ][..],
            "required arguments were not provided: --results <RESULTS>",
        ),
        (
            &[
                "positions",
                "oska",
                "6",
                "--results",
                "legacy",
                "--depths",
                "6-4",
                "--out",
                "/nonexistent/x",
            ][..],
            "--depths '6-4': use a range such as 1-6 or a list 3,4",
        ),
        (
            &["tune", "oska", "x.txt", "--seed", "-1"][..],
            "'-1' is not a whole number from 0",
        ),
    ];
    let cases = engine_cases.iter().map(|c| (ENGINE, c));
    for (binary, (args, needle)) in cases.chain(tune_cases.iter().map(|c| (TUNE, c))) {
        let err = fails_with_in(binary, 1, args);
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(
            err.contains(needle),
            "{args:?}: expected '{needle}' in {err}"
        );
    }
    // --help still works, on stdout, with exit status 0, and states the limits.
    let help = ok(&["best", "--help"]).join("\n");
    assert!(help.contains("1 to 100"), "{help}");
    assert!(help.contains("status 3"), "{help}");
    assert!(ok(&["perft", "--help"]).join("\n").contains("0 to 30"));
}

#[test]
fn best_on_a_finished_game_says_so_with_exit_status_3() {
    let err = fails_with(3, &["best", "hexapawn", "---/-b-/w--", "b", "2"]);
    assert!(err.starts_with("the game is over: white wins"), "{err}");
    let err = fails_with(
        3,
        &["best", "ctf", "-w-w-/-----/-----/-bbb-/-bBb-", "b", "1"],
    );
    assert!(err.starts_with("the game is over: black wins"), "{err}");
    // A forced pass is not the end of the game: the board comes back unchanged, status 0.
    assert_eq!(
        ok(&["best", "oska", "----/---/--/w--/bb--", "w", "2"]),
        vec!["----/---/--/w--/bb--"]
    );
}

/// Runs a command of `binary` that must succeed and may report progress on stderr.
fn succeeds_in(binary: &str, args: &[&str]) {
    let out = run_in(binary, args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `engine-tune positions`, `blunders` and `tune` through the binary: a small set made and read
/// back, blunder rates printed for each evaluator asked, a fit printed for each feature; bad
/// input named.
#[test]
fn positions_blunders_and_tune() {
    let ok = |args: &[&str]| ok_in(TUNE, args);
    let fails = |args: &[&str]| fails_in(TUNE, args);
    let succeeds = |args: &[&str]| succeeds_in(TUNE, args);
    let dir = std::env::temp_dir().join(format!("cli-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let set = dir.join("hex4.txt");
    let set_s = set.to_str().expect("utf-8 path");
    succeeds(&[
        "positions",
        "hexapawn",
        "4",
        "--count",
        "40",
        "--seed",
        "2",
        "--out",
        set_s,
    ]);
    let text = std::fs::read_to_string(&set).expect("the set was written");
    assert!(
        text.starts_with("# hexapawn size 4: 40 positions"),
        "{text}"
    );
    assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 40);

    let lines = ok(&[
        "blunders",
        set_s,
        "--evals",
        "tuned,material",
        "--depths",
        "1,2",
    ]);
    assert!(lines[0].contains("40 positions"), "{lines:?}");
    assert!(
        lines[1].contains("d1") && lines[1].contains("d2"),
        "{lines:?}"
    );
    for (row, name) in lines[2..4].iter().zip(["tuned", "material"]) {
        assert!(row.starts_with(name), "{lines:?}");
        assert_eq!(row.matches('%').count(), 2, "{row}");
    }

    // --show: each blunder as a line of a set; read back, the set is all blunders for the same
    // evaluator at the same depth.
    let shown = ok(&[
        "blunders", set_s, "--evals", "material", "--depths", "1", "--show",
    ]);
    let blunders: Vec<&String> = shown[3..]
        .iter()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .collect();
    assert!(
        !blunders.is_empty(),
        "material blunders at depth 1: {shown:?}"
    );
    assert_eq!(
        shown[3..]
            .iter()
            .filter(|l| l.starts_with("# material at depth 1 plays "))
            .count(),
        blunders.len(),
        "{shown:?}"
    );
    let again = dir.join("blunders.txt");
    std::fs::write(&again, shown[3..].join("\n")).expect("write the blunders");
    let again_s = again.to_str().expect("utf-8 path");
    let rates = ok(&["blunders", again_s, "--evals", "material", "--depths", "1"]);
    assert!(
        rates[0].ends_with(&format!("{n} positions, {n} critical", n = blunders.len())),
        "{rates:?}"
    );
    assert!(rates[2].ends_with("100.0%"), "{rates:?}");

    let fit = ok(&["tune", "hexapawn", set_s, "--seed", "1"]);
    assert!(
        fit[0].starts_with("hexapawn: 32 positions fitted, 8 held out"),
        "{fit:?}"
    );
    for name in boardgames_core::eval::weights_hexapawn::NAMES {
        assert!(
            fit.iter().any(|l| l.starts_with(name)),
            "{name} missing: {fit:?}"
        );
    }

    let err = fails(&["tune", "oska", set_s]);
    assert!(err.contains("holds hexapawn positions, not oska"), "{err}");
    let err = fails(&["blunders", "/no/such/set.txt"]);
    assert!(err.contains("cannot read /no/such/set.txt"), "{err}");
    let results = dir.join("results.txt");
    let results_s = results.to_str().expect("utf-8 path");
    // A result set of 20 positions from games of `material`, with more arguments.
    let results_set = |more: &[&str]| {
        let mut args = vec![
            "positions",
            "oska",
            "4",
            "--count",
            "20",
            "--results",
            "material",
        ];
        args.extend_from_slice(more);
        args.extend_from_slice(&["--out", results_s]);
        succeeds(&args);
        std::fs::read_to_string(&results).expect("the set was written")
    };
    let text = results_set(&[]);
    assert!(!text.contains("--depths"), "{text}");
    let text = results_set(&["--depths", "1,5"]);
    assert!(text.contains("--results material --depths 1,5"), "{text}");
    let err = fails(&["blunders", results_s]);
    assert!(
        err.contains("holds game results, not exact values"),
        "{err}"
    );
    let err = fails(&["blunders", set_s, "--depths", "0-3"]);
    assert!(err.contains("--depths '0-3'"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A one-shot command whose output is already closed (`engine-tune tune-patterns ... | true`) ends
/// quietly by SIGPIPE, as other Unix tools do, instead of panicking; the weights file it was
/// asked for is written before anything is printed, so it is not lost.
#[test]
fn closed_output_ends_a_one_shot_command_quietly_and_loses_nothing() {
    use std::os::unix::process::ExitStatusExt;
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let weights = std::env::temp_dir().join(format!("closed-output-{}.bin", std::process::id()));
    let _ = std::fs::remove_file(&weights);
    let set = concat!(env!("CARGO_MANIFEST_DIR"), "/data/positions/oska-4.txt");
    let out = Command::new(TUNE)
        .args(["tune-patterns", "oska", "4", set, "--seed", "1", "--write"])
        .arg(&weights)
        .stdout(writer)
        .output()
        .expect("the engine binary runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.signal(), Some(libc::SIGPIPE), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let bytes = std::fs::read(&weights).expect("the weights file was written");
    let _ = std::fs::remove_file(&weights);
    boardgames_core::eval::patterns::decode(
        boardgames_core::eval::patterns::Shape::Oska(4),
        &bytes,
    )
    .expect("a whole weights file");
}

/// `engine -h` lists the user's commands only, each summed up on one line, as do `engine
/// tablebase -h` and `engine proof -h` their actions; the developer tools are not `engine` commands at all but those of
/// `engine-tune`, whose `-h` lists them, one line each.
#[test]
fn short_help_lists_the_user_commands_on_one_line_each() {
    let names = common::short_help_commands(ENGINE, &[]);
    let user = [
        "movegen",
        "perft",
        "board-call",
        "best",
        "solve",
        "bench",
        "tablebase",
        "proof",
        "help",
    ];
    assert_eq!(names, user.into_iter().map(String::from).collect());
    let actions = common::short_help_commands(ENGINE, &["tablebase"]);
    let want = ["build", "plan", "probe", "verify", "help"];
    assert_eq!(actions, want.into_iter().map(String::from).collect());
    let actions = common::short_help_commands(ENGINE, &["proof"]);
    let want = ["check", "plan", "job", "merge", "help"];
    assert_eq!(actions, want.into_iter().map(String::from).collect());
    let tools = [
        "positions",
        "blunders",
        "tune",
        "tune-patterns",
        "refine-patterns",
        "refine-weights",
    ];
    let err = fails_with(1, &["tune"]);
    assert!(err.contains("unrecognized subcommand 'tune'"), "{err}");
    for tool in tools {
        let err = fails_with(1, &[tool, "--help"]);
        assert!(
            err.contains(&format!("unrecognized subcommand '{tool}'")),
            "{tool}: {err}"
        );
    }
    let names = common::short_help_commands(TUNE, &[]);
    let want = tools
        .into_iter()
        .chain(["help"])
        .map(String::from)
        .collect();
    assert_eq!(names, want);
    for tool in tools {
        let help = ok_in(TUNE, &[tool, "--help"]);
        assert!(
            help[0].starts_with("Developer tool: "),
            "{tool}: {:?}",
            help[0]
        );
    }
}
