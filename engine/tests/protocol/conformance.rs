//! Runs the conformance suite (`boardgames_tools::conformance`) against this crate's `engine` binary, or
//! against the engine named in `CONFORMANCE_ENGINE` ("program arg1 arg2 ..."); and against
//! engines that offer less, which conform: a Capture-the-Flag-only engine written from
//! protocol.md (`ctf_engine.py`, no option, no `go solve`), the smallest engine
//! (`examples/minimal-engine.py`, Hexapawn 3 alone, random moves; run by `arena check`), our
//! engine behind a filter that declares Capture the Flag alone and hides `Trace` and `MultiPV`
//! (`ctf_only.py`), and a seed
//! function run by `engine board-call`; and engines that do not: one that declares `MultiPV` but
//! ignores it, and our engine behind `faulty.py`, which drops a `position`'s history (or the
//! moves before its board), starts it at Oska 5, hands it a clock's `go` late, or drops the
//! `from ... moves` of `show`, each failed by `arena check` with a line naming the requirement.

use boardgames_tools::conformance::{self, Options, Outcome, Report, engine_from_env};

const ENGINE: &str = env!("CARGO_BIN_EXE_engine");

fn data(name: &str) -> String {
    format!("{}/tests/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn supported(report: &Report, name: &str) -> bool {
    matches!(report.outcome(name), Some(Outcome::Supported(_)))
}

/// The suite's report of `python3 ARGS...`, a Capture the Flag engine that does not play Oska:
/// it must pass, the Oska check skipped, and support none of `unsupported`.
async fn ctf_engine_conforms(args: &[String], unsupported: &[&str]) -> Report {
    let report = conformance::run_with("python3", args, &Options::default()).await;
    eprintln!("{report}");
    assert!(report.passed(), "{report}");
    assert!(
        matches!(report.outcome("oska pass"), Some(Outcome::Skipped(_))),
        "{report}"
    );
    for name in unsupported {
        assert!(
            matches!(report.outcome(name), Some(Outcome::NotSupported(_))),
            "{name}:\n{report}"
        );
    }
    report
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conformance_suite() {
    let from_env = engine_from_env();
    let (program, args) = from_env
        .clone()
        .unwrap_or_else(|| (ENGINE.to_string(), Vec::new()));
    let report = conformance::run(&program, &args).await;
    eprintln!("conformance of {program} {}:\n{report}", args.join(" "));
    assert!(report.passed(), "{report}");
    if from_env.is_none() {
        for name in ["Trace option", "MultiPV option", "go solve"] {
            assert!(supported(&report, name), "{name}:\n{report}");
        }
        assert!(
            !report
                .checks
                .iter()
                .any(|c| matches!(c.outcome, Outcome::Skipped(_))),
            "{report}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_independent_capture_the_flag_engine_conforms() {
    let args = [data("protocol/ctf_engine.py")];
    ctf_engine_conforms(&args, &["Trace option", "MultiPV option", "go solve"]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn our_engine_limited_to_capture_the_flag_conforms() {
    let args = [data("protocol/ctf_only.py"), ENGINE.to_string()];
    let report = ctf_engine_conforms(&args, &["Trace option", "MultiPV option"]).await;
    assert!(
        matches!(report.outcome("game-over lines"), Some(Outcome::Passed(n)) if n == "1 finished games"),
        "{report}"
    );
    assert!(
        report.to_string().contains("not supported Trace option"),
        "{report}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declared_but_broken_capability_fails() {
    let args = vec![
        data("protocol/ctf_only.py"),
        ENGINE.to_string(),
        "--broken-multipv".to_string(),
    ];
    let report = conformance::run_with("python3", &args, &Options::default()).await;
    assert!(!report.passed(), "{report}");
    let failed: Vec<&str> = report
        .checks
        .iter()
        .filter(|c| c.outcome.failed())
        .map(|c| c.name)
        .collect();
    assert_eq!(failed, ["MultiPV option"], "{report}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_call_seed_function_conforms() {
    let function = format!("{}:oskaplayer", data("class/first.py"));
    let args: Vec<String> = ["board-call", "--no-sandbox", "--", &function]
        .map(str::to_string)
        .to_vec();
    // No games given: the adapter declares the seed's game only (Oska for `oskaplayer`), and
    // the suite checks what it declares.
    let report = conformance::run_with(ENGINE, &args, &Options::default()).await;
    eprintln!("{report}");
    assert!(report.passed(), "{report}");
    assert!(matches!(
        report.outcome("Trace option"),
        Some(Outcome::NotSupported(_))
    ));
}

/// `arena check` on our engine behind `faulty.py MODE`, which must fail (exit status 1): its
/// standard output.
fn failed_check(mode: &str) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "check",
            "python3",
            &data("protocol/faulty.py"),
            ENGINE,
            mode,
        ])
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{report}");
    report
}

/// [`failed_check`] of `mode`, which must fail exactly one check: the report and its `FAIL`
/// line.
fn one_failure(mode: &str) -> (String, String) {
    let report = failed_check(mode);
    let failed = failures(&report);
    assert_eq!(failed.len(), 1, "{report}");
    let line = failed[0].to_string();
    (report, line)
}

/// `arena check` passes `examples/minimal-engine.py`, the smallest engine of protocol.md's
/// section "The smallest engine" (Hexapawn 3 alone, random moves, no option).
#[test]
fn arena_check_passes_the_smallest_engine() {
    if std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: python3 is not installed");
        return;
    }
    let example = format!(
        "{}/../examples/minimal-engine.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["check", "python3", &example])
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert!(failures(&report).is_empty(), "{report}");
    assert!(report.contains("ok    perft totals"), "{report}");
    assert!(report.contains("skip  oska pass"), "{report}");
}

/// The `FAIL` lines of a report.
fn failures(report: &str) -> Vec<&str> {
    report.lines().filter(|l| l.starts_with("FAIL")).collect()
}

#[test]
fn an_engine_that_ignores_history_fails() {
    let report = failed_check("ignore-history");
    // The check of histories fails (and the check of error codes, whose lines include a
    // history of Oska 5 where Oska 5 is declared).
    let failed = failures(&report);
    assert!(failed.iter().all(|l| l.contains(" history ")), "{report}");
    assert!(
        failed.iter().any(|l| l.starts_with(
            "FAIL  history checked by the rules: a history that is not a game is refused \
             (protocol.md, position: each history board follows from the one before it by one \
             legal move, the sides alternating): sent 'position board "
        ) && l.ends_with("expected 'error bad-position ...', got nothing")),
        "{report}"
    );
}

#[test]
fn an_engine_that_forgets_the_moves_before_a_board_fails() {
    let report = failed_check("forget-moves");
    // It offers a Capture the Flag move that brings back an earlier board.
    assert!(
        failures(&report).iter().any(|l| l.starts_with(
            "FAIL  legal as the rules say: 'legal' lists every legal move of the position and \
             no other (protocol.md, legal; a move that would bring back an earlier board of the \
             game is none: rules, Capture the Flag): after 'position startpos moves "
        ) && l.contains("' the engine sent 'legal ")
            && l.ends_with("' (in any order)")),
        "{report}"
    );
}

#[test]
fn an_engine_that_starts_away_from_oska_4_fails() {
    let (report, failed) = one_failure("start-elsewhere");
    assert_eq!(
        failed,
        "FAIL  start state: a fresh engine is at Oska 4's start position, or, where Oska 4 is \
          not declared, at a game and size it declares (protocol.md, the session state): sent \
          'show' first, expected 'board oska 4 wwww/---/--/---/bbbb w', got 'board oska 5 \
          wwwww/----/---/--/---/----/bbbbb w'",
        "{report}"
    );
}

#[test]
fn an_engine_that_overruns_its_clock_fails() {
    let (report, failed) = one_failure("slow-clock");
    assert!(
        failed.starts_with(
            "FAIL  go with a clock: 'go wtime MS btime MS' gives a legal bestmove within the time \
             left of the side to move (protocol.md, go): after 'position startpos moves "
        ) && failed.contains("sent 'go wtime 400 btime 400', got 'bestmove ")
            && failed.ends_with("more than the 400 ms left (and 300 ms for the pipes)"),
        "{report}"
    );
}

#[test]
fn an_engine_whose_show_leaves_out_the_moves_fails() {
    let (report, failed) = one_failure("show-without-moves");
    assert!(
        failed.starts_with(
            "FAIL  show gives the moves: 'show' names the line's first board and every move \
             since (protocol.md, show: 'from ... moves'): after 'position startpos moves "
        ) && failed.contains("the engine sent 'board ")
            && failed.contains(" from startpos moves "),
        "{report}"
    );
    // Failure lines quote the protocol's lines, not the client's types.
    assert!(
        !report.contains("Some(") && !report.contains("Board {"),
        "{report}"
    );
}
