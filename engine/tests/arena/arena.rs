//! The `arena` binary end to end: real matches between our engine at two depths, faulty fake
//! engines (crash, stall, illegal move, garbage, failed start), the board-call adapter with a
//! seed-shaped toy program, tournament tables and `arena check`. Every run must finish and leave
//! no process behind.

use crate::common;

use std::fs;
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use boardgames_core::record::{GameRecord, RecordResult, parse_records};
use common::Scratch;

const ARENA: &str = env!("CARGO_BIN_EXE_arena");
const ENGINE: &str = env!("CARGO_BIN_EXE_engine");

/// A fresh directory for one test (see [`common::Scratch`]).
fn scratch(name: &str) -> Scratch {
    common::Scratch::new("arena-test", name)
}

fn arena(args: &[&str]) -> Output {
    Command::new(ARENA).args(args).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The standard output of a run that must succeed; the assertion shows its standard error too.
fn succeeded(o: &Output) -> String {
    let out = stdout(o);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// Asserts that every game of `recs` was played to its end without a fault.
fn assert_finished_without_fault(recs: &[GameRecord]) {
    for r in recs {
        assert!(r.tag("Fault").is_none(), "{r}");
        assert_ne!(r.result, RecordResult::Unfinished, "{r}");
    }
}

/// `arena match` of two Hexapawn 3 games between the engine the `--engine` settings `first`
/// describe and ours (`e`) at depth 1, named `ours`, its records written to `rec`.
fn against_ours(first: &[&str], e: &str, rec: &Path) -> Output {
    let mut args = vec![
        "match", "--game", "hexapawn", "--size", "3", "--games", "2", "--engine",
    ];
    args.extend_from_slice(first);
    let ours = format!("cmd={e}");
    args.extend(["--engine", &ours, "name=ours", "depth=1", "--records"]);
    args.push(rec.to_str().unwrap());
    arena(&args)
}

fn records(path: &Path) -> Vec<GameRecord> {
    parse_records(&fs::read_to_string(path).unwrap()).unwrap()
}

/// The first engine's score fraction from the final `Score of` line.
fn final_score(out: &str) -> f64 {
    let line = out
        .lines()
        .rev()
        .find(|l| l.starts_with("Score of "))
        .expect("a Score line");
    let ratio = line.split('[').nth(1).unwrap().split(']').next().unwrap();
    ratio.parse().unwrap()
}

/// A deeper engine (tuned, DEPTH) against a shallow one (the first version's evaluator, depth 1):
/// it must win clearly, both colours, every game replaying by the rules to its recorded result.
fn deep_vs_shallow(game: &str, size: &str, depth: &str) {
    let s = scratch(game);
    let e = s.engine();
    let rec = s.path("games.txt");
    let o = arena(&[
        "match",
        "--game",
        game,
        "--size",
        size,
        "--engine",
        &format!("cmd={e}"),
        "name=deep",
        &format!("depth={depth}"),
        "--engine",
        &format!("cmd={e}"),
        "name=shallow",
        "depth=1",
        // The tuned evaluator alone at depth 1 holds its own in Oska 4, whose openings are
        // decided games: the shallow engine evaluates as the first version did.
        "option.Evaluator=legacy",
        "--games",
        "8",
        "--concurrency",
        "2",
        "--random-plies",
        "2",
        "--seed",
        "3",
        "--records",
        rec.to_str().unwrap(),
    ]);
    let out = succeeded(&o);
    let lines: Vec<&str> = out.lines().collect();
    let n = lines.len();
    assert!(
        lines[n - 2].starts_with("Score of deep vs shallow: "),
        "{out}"
    );
    assert!(lines[n - 1].starts_with("Elo difference: "), "{out}");
    assert!(
        final_score(&out) >= 0.7,
        "{game}: the deeper engine should win clearly:\n{out}"
    );
    let recs = records(&rec);
    assert_eq!(recs.len(), 8);
    // Both colours, and every game replays by the rules to its recorded result.
    assert_eq!(recs.iter().filter(|r| r.white == "deep").count(), 4);
    for r in &recs {
        assert!(r.tag("Fault").is_none(), "{r}");
        boardgames_core::with_game!(r.game, G => {
            let lines = r.replay::<G>().unwrap();
            let end = lines.last().unwrap().outcome().expect("finished");
            assert_eq!(RecordResult::from_outcome(end), r.result, "{r}");
        });
    }
    assert!(s.leftovers().is_empty(), "{:?}", s.leftovers());
}

#[test]
fn deeper_engine_wins_hexapawn() {
    deep_vs_shallow("hexapawn", "4", "4");
}

#[test]
fn deeper_engine_wins_ctf() {
    deep_vs_shallow("ctf", "5", "5");
}

#[test]
fn deeper_engine_wins_oska() {
    deep_vs_shallow("oska", "4", "4");
}

/// A fake engine: a proxy in front of our engine that misbehaves at its second `go` (or, for
/// `deaf`, ignores `quit` and SIGTERM). `orphan` and `deaf` write the pid of the process that
/// must not survive to `MODE.pid` next to the script.
const FAKE: &str = r#"
import os, signal, subprocess, sys, threading, time
mode, engine = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(sys.argv[0]))
def write_pid(pid):
    with open(os.path.join(here, mode + ".pid.tmp"), "w") as f:
        f.write(str(pid))
    os.rename(os.path.join(here, mode + ".pid.tmp"), os.path.join(here, mode + ".pid"))
if mode == "deaf":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    write_pid(os.getpid())
child = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
gos = 0
def out(line):
    sys.stdout.write(line)
    sys.stdout.flush()
def pump():
    for line in child.stdout:
        if line.startswith("bestmove") and gos == 2:
            if mode == "crash":
                os._exit(3)
            if mode == "orphan":
                # A child that keeps our output open outlives us.
                write_pid(subprocess.Popen(["sleep", "3600"]).pid)
                os._exit(3)
            if mode == "stall":
                continue
            if mode == "slow":
                time.sleep(3)
            if mode == "illegal":
                line = "bestmove a1a1\n"
            if mode == "garbage":
                line = "hello, I am not an engine\n"
            if mode == "twice":
                out(line)
        out(line)
threading.Thread(target=pump, daemon=True).start()
for line in sys.stdin:
    if line.startswith("go"):
        gos += 1
    if mode == "stall" and gos == 2 and not line.startswith("go"):
        time.sleep(3600)
    if line.strip() == "quit" and mode == "deaf":
        continue
    child.stdin.write(line)
    child.stdin.flush()
    if line.strip() == "quit":
        break
child.wait()
"#;

/// Whether the process whose id `MODE.pid` in the scratch directory holds is still alive after
/// up to two seconds (zombies count as gone; a killed process may take a moment to exit).
fn pid_alive(s: &Scratch, mode: &str) -> bool {
    let pid = fs::read_to_string(s.path(&format!("{mode}.pid")))
        .unwrap_or_else(|e| panic!("{mode}.pid: {e}"));
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        let stat = fs::read_to_string(format!("/proc/{}/stat", pid.trim())).unwrap_or_default();
        let alive = !stat.is_empty()
            && !stat
                .rsplit(')')
                .next()
                .is_some_and(|s| s.trim_start().starts_with('Z'));
        if !alive || Instant::now() > deadline {
            return alive;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn faulty_engines_lose_with_the_right_reason_and_leave_nothing_behind() {
    let s = scratch("faults");
    let fake = s.write("fake.py", FAKE);
    let e = s.engine();
    let rec = s.path("games.txt");
    let options = ["--concurrency", "2", "--records", rec.to_str().unwrap()];
    let mut args = common::oska_tournament("gauntlet", "2", &options);
    args.extend([
        "--engine".into(),
        format!("cmd={e}"),
        "name=ours".into(),
        "depth=1".into(),
    ]);
    for mode in [
        "crash", "stall", "illegal", "garbage", "twice", "orphan", "slow",
    ] {
        // The slow one plays on a clock, the others at depth 1.
        let limit = if mode == "slow" {
            "tc=1+0.01"
        } else {
            "depth=1"
        };
        args.extend(common::proxy_engine(
            &fake,
            mode,
            &e,
            mode,
            &[limit, "timeout=1500"],
        ));
    }
    args.extend([
        "--engine".to_string(),
        format!("cmd={}", s.path("missing-engine").display()),
        "name=missing".into(),
    ]);
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = arena(&words);
    let out = succeeded(&o);
    // The table: ours first with every game won.
    assert!(out.contains("Rank Name"), "{out}");
    assert!(
        out.contains("Faults: ") && out.contains("slow 2 time forfeit"),
        "{out}"
    );
    let recs = records(&rec);
    assert_eq!(recs.len(), 16, "{out}");
    for (name, kind, detail) in [
        ("crash", "crash", "the engine exited (exit status: 3)"),
        ("stall", "stall", "no bestmove"),
        ("illegal", "illegal move", "'a1a1'"),
        ("garbage", "protocol violation", "hello, I am not an engine"),
        (
            "twice",
            "protocol violation",
            "a bestmove with no go pending: 'bestmove ",
        ),
        // Its child holds the output open: still a crash, with the exit status.
        ("orphan", "crash", "the engine exited (exit status: 3)"),
        ("slow", "time forfeit", "no bestmove within the "),
        ("missing", "failed start", "cannot start engine"),
    ] {
        let games: Vec<&GameRecord> = recs
            .iter()
            .filter(|r| r.white == name || r.black == name)
            .collect();
        assert_eq!(games.len(), 2, "{name}");
        for r in games {
            let reason = r.tag("Reason").unwrap();
            let loser_is_white = r.white == name;
            let expected = if loser_is_white {
                RecordResult::Black
            } else {
                RecordResult::White
            };
            assert_eq!(r.result, expected, "{name}: {r}");
            assert_eq!(r.tag("Fault"), Some(kind), "{name}: {r}");
            assert!(
                reason.starts_with(&format!("{kind} by {name} (")),
                "{reason}"
            );
            assert!(reason.contains(detail), "{name}: {reason}");
            // The faults come at the fake's second go: mid-game, after legal moves.
            if name != "missing" {
                assert!(r.moves.len() >= 2, "{name}: {r}");
                boardgames_core::with_game!(r.game, G => { r.replay::<G>().unwrap(); });
            }
        }
    }
    assert!(s.leftovers().is_empty(), "left behind: {:?}", s.leftovers());
    assert!(
        !pid_alive(&s, "orphan"),
        "the crashed engine's child survived"
    );
}

/// Writes the fake engine and a wrapper script that runs it without `exec` (so the engine is
/// the wrapper's child, not the process the arena started); returns the wrapper's path.
fn fake_wrapper(s: &Scratch) -> String {
    let fake = s.write("fake.py", FAKE);
    s.write(
        "wrapper.sh",
        &format!("python3 {fake} \"$@\"\necho after\n"),
    )
}

/// A wrapper script without `exec` in front of an engine that ignores `quit` and SIGTERM: the
/// arena ends the whole process group, after a match and after a check.
#[test]
fn wrapped_deaf_engines_leave_nothing_behind() {
    let s = scratch("deaf");
    let wrapper = fake_wrapper(&s);
    let e = s.engine();
    let o = deaf_match(&e, ["sh", &wrapper], "2").output().unwrap();
    let out = succeeded(&o);
    assert!(out.contains("Score of engine vs deaf"), "{out}");
    assert!(s.leftovers().is_empty(), "left behind: {:?}", s.leftovers());
    assert!(
        !pid_alive(&s, "deaf"),
        "the wrapped engine survived the match"
    );
    // `arena check` starts the engine once per check: here a wrapped program that ignores
    // SIGTERM, answers every line with garbage and never exits by itself.
    let garbage = s.write(
        "garbage.py",
        &format!(
            "import os, signal, sys, time\n\
             signal.signal(signal.SIGTERM, signal.SIG_IGN)\n\
             open({:?}, 'a').write(str(os.getpid()) + '\\n')\n\
             sys.stdin.readline()\n\
             print('what?', flush=True)\n\
             time.sleep(3600)\n",
            s.path("garbage.pids").display().to_string()
        ),
    );
    let wrapper = s.write("garbage.sh", &format!("python3 {garbage}\necho after\n"));
    let o = arena(&["check", "sh", &wrapper]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(s.leftovers().is_empty(), "left behind: {:?}", s.leftovers());
    let pids = fs::read_to_string(s.path("garbage.pids")).unwrap();
    assert!(pids.lines().count() >= 10, "{pids}");
    for pid in pids.lines() {
        fs::write(s.path("one.pid"), pid).unwrap();
        assert!(!pid_alive(&s, "one"), "{pid} survived the check");
    }
}

/// `arena match` of `games` Hexapawn 3 games between our engine (`e`) and the fake `deaf`
/// engine started by `deaf[0] deaf[1] deaf ENGINE`, both at depth 1.
fn deaf_match(e: &str, deaf: [&str; 2], games: &str) -> Command {
    let mut arena = Command::new(ARENA);
    arena.args([
        "match",
        "--game",
        "hexapawn",
        "--size",
        "3",
        "--engine",
        &format!("cmd={e}"),
        "depth=1",
        "--engine",
        &format!("cmd={}", deaf[0]),
        &format!("arg={}", deaf[1]),
        "arg=deaf",
        &format!("arg={e}"),
        "name=deaf",
        "depth=1",
        "--games",
        games,
    ]);
    arena
}

/// An endless Hexapawn 3 match of our engine against the fake `deaf` engine (see
/// [`deaf_match`]), its output to `stdout`, its errors piped.
fn endless_match(e: &str, deaf: [&str; 2], stdout: std::process::Stdio) -> std::process::Child {
    deaf_match(e, deaf, "100000")
        .stdout(stdout)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Ctrl-C (SIGINT) to the arena ends every engine's process group, which the terminal's signal
/// no longer reaches.
#[test]
fn interrupted_arena_ends_its_engines() {
    let s = scratch("sigint");
    let wrapper = fake_wrapper(&s);
    let e = s.engine();
    let arena = endless_match(&e, ["sh", &wrapper], std::process::Stdio::null());
    let deadline = Instant::now() + Duration::from_secs(20);
    while !s.path("deaf.pid").exists() {
        assert!(Instant::now() < deadline, "the engine did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = Command::new("kill")
        .args(["-INT", &arena.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = arena.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted: every engine was ended"), "{err}");
    assert!(s.leftovers().is_empty(), "left behind: {:?}", s.leftovers());
    assert!(!pid_alive(&s, "deaf"), "the wrapped engine survived");
}

/// `arena match ... | head -1`: when its output is closed, the arena ends its engines (a deaf one
/// included) and exits with 141, without a panic.
#[test]
fn closed_output_ends_the_run_and_its_engines() {
    use std::io::{BufRead, BufReader};
    let s = scratch("sigpipe");
    let fake = s.write("fake.py", FAKE);
    let e = s.engine();
    let mut arena = endless_match(&e, ["python3", &fake], std::process::Stdio::piped());
    let mut first = String::new();
    BufReader::new(arena.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("Finished game 1 "), "{first}");
    // The reader is dropped here: the pipe is closed.
    let out = arena.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(141), "{err}");
    assert!(
        err.contains("output closed: every engine was ended"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(s.leftovers().is_empty(), "left behind: {:?}", s.leftovers());
    assert!(!pid_alive(&s, "deaf"), "the deaf engine survived");
}

/// Our engine on a short clock against itself: every game ends by the rules, none on time; the
/// records and the output name no fault.
#[test]
fn clock_games_end_without_time_forfeits() {
    let s = scratch("clock");
    let e = s.engine();
    let rec = s.path("games.txt");
    let o = arena(&[
        "match",
        "--game",
        "hexapawn",
        "--size",
        "4",
        "--engine",
        &format!("cmd={e}"),
        "name=a",
        "tc=1+0.01",
        "--engine",
        &format!("cmd={e}"),
        "name=b",
        "tc=2/0.5",
        "timemargin=20",
        "--games",
        "4",
        "--random-plies",
        "1",
        "--records",
        rec.to_str().unwrap(),
    ]);
    let out = succeeded(&o);
    assert!(!out.contains("Faults:"), "{out}");
    let recs = records(&rec);
    assert_eq!(recs.len(), 4, "{out}");
    assert_finished_without_fault(&recs);
}

/// The move our library chooses at depth 1 with evaluator `kind` (what the engine must play).
fn depth1_move(board: &str, kind: boardgames_core::eval::EvalKind) -> String {
    use boardgames_core::games::{Oska, Side};
    let line = boardgames_core::games::format::parse_board::<Oska>(board, Side::White)
        .unwrap()
        .line;
    let mut s = boardgames_core::search::Searcher::<Oska>::new(16);
    s.set_evaluator(kind.function());
    let limits = boardgames_core::search::Limits {
        depth: Some(1),
        ..Default::default()
    };
    let r = s.search(
        &line,
        &limits,
        &std::sync::atomic::AtomicBool::new(false),
        &mut |_| {},
    );
    boardgames_core::games::notation::move_name(line.current(), r.best.unwrap())
}

#[test]
fn evaluator_option_reaches_the_engine() {
    use boardgames_core::eval::EvalKind;
    // White can jump b3b5 (material's choice at depth 1) or race (the race count's choice).
    let board = "ww--/--w/-w/bbb/---b";
    let race_move = depth1_move(board, EvalKind::ClassicRace);
    assert_eq!(depth1_move(board, EvalKind::Material), "b3b5");
    assert_ne!(race_move, "b3b5");

    let s = scratch("evaluator");
    let e = s.engine();
    let openings = s.write("openings.txt", &format!("{board} w\n"));
    let rec = s.path("games.txt");
    let options = ["--openings", &openings, "--records", rec.to_str().unwrap()];
    let mut args = common::oska_tournament("gauntlet", "2", &options);
    for (name, evaluator) in [
        ("material", "material"),
        ("race", "CLASSIC-RACE"),
        ("bad", "best"),
    ] {
        args.extend([
            "--engine".into(),
            format!("cmd={e}"),
            format!("name={name}"),
            "depth=1".into(),
            format!("option.Evaluator={evaluator}"),
        ]);
    }
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = arena(&words);
    let out = succeeded(&o);
    for name in ["material", "race", "bad"] {
        assert!(
            out.lines()
                .any(|l| l.split_whitespace().nth(1) == Some(name)),
            "{name} in the table:\n{out}"
        );
    }
    let recs = records(&rec);
    assert_eq!(recs.len(), 4, "{out}");
    for r in &recs {
        match (r.white.as_str(), r.black.as_str()) {
            ("material", "race") | ("race", "material") => {
                assert!(r.tag("Fault").is_none(), "{r}");
                let want = if r.white == "material" {
                    "b3b5"
                } else {
                    &race_move
                };
                assert_eq!(r.moves.first().map(String::as_str), Some(want), "{r}");
                boardgames_core::with_game!(r.game, G => { r.replay::<G>().unwrap(); });
            }
            (w, b) => {
                assert!(w == "bad" || b == "bad", "{r}");
                assert_eq!(r.tag("Fault"), Some("failed start"), "{r}");
                let reason = r.tag("Reason").unwrap();
                assert!(
                    reason.contains("error bad-value Evaluator 'best' must be one of tuned,"),
                    "{reason}"
                );
            }
        }
    }
    assert!(s.leftovers().is_empty(), "left behind: {:?}", s.leftovers());
}

#[test]
fn board_call_adapter_plays_a_seed_program() {
    let s = scratch("boardcall");
    let e = s.engine();
    let player = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/seed_player.py");
    let player = s.write("seed_player.py", &fs::read_to_string(player).unwrap());
    let rec = s.path("games.txt");
    // The long form, through `engine board-call`, with the board on stdin.
    let o = against_ours(
        &[
            &format!("cmd={e}"),
            "arg=board-call",
            "arg=--format",
            "arg=python",
            "arg=--input",
            "arg=stdin",
            "arg=--",
            "arg=python3",
            &format!("arg={player}"),
            "name=seed",
        ],
        &e,
        &rec,
    );
    succeeded(&o);
    let recs = records(&rec);
    assert_eq!(recs.len(), 2);
    assert_finished_without_fault(&recs);
    // The seed player opens a1a2 from the start (its first straight step).
    assert_eq!(recs[0].moves[0], "a1a2", "{}", recs[0]);
    // A program that answers the board it was given is refereed as an illegal move, and its
    // board is in the reason.
    let lazy = s.write("lazy.py", "import sys\nprint(sys.argv[1])\n");
    let o = against_ours(
        &[
            &format!("boardcall=python3 {lazy}"),
            "format=python",
            "name=lazy",
        ],
        &e,
        &rec,
    );
    succeeded(&o);
    let recs = records(&rec);
    for r in &recs {
        let reason = r.tag("Reason").unwrap();
        assert_eq!(r.tag("Fault"), Some("illegal move"), "{r}");
        assert!(reason.contains("bestmove none"), "{reason}");
        assert!(
            reason.contains("is not the result of any legal move"),
            "{reason}"
        );
    }
    assert!(
        recs[0]
            .tag("Reason")
            .unwrap()
            .contains("'['www', '---', 'bbb']'"),
        "{}",
        recs[0]
    );
    assert!(s.leftovers().is_empty(), "left behind: {:?}", s.leftovers());
}

#[test]
fn round_robin_prints_a_table() {
    let s = scratch("rr");
    let e = s.engine();
    let o = arena(&[
        "match",
        "--game",
        "hexapawn",
        "--size",
        "3",
        "--tournament",
        "round-robin",
        "--rounds",
        "1",
        "--concurrency",
        "3",
        "--engine",
        &format!("cmd={e}"),
        "name=d1",
        "depth=1",
        "--engine",
        &format!("cmd={e}"),
        "name=d2",
        "depth=2",
        "--engine",
        &format!("cmd={e}"),
        "name=d3",
        "depth=3",
    ]);
    let out = succeeded(&o);
    let lines: Vec<&str> = out.lines().collect();
    let n = lines.len();
    assert!(lines[n - 4].starts_with("Rank Name"), "{out}");
    let mut names: Vec<&str> = lines[n - 3..]
        .iter()
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["d1", "d2", "d3"]);
    // Every engine played two games against each of the two others.
    for l in &lines[n - 3..] {
        assert_eq!(l.split_whitespace().nth(4), Some("4"), "{l}");
    }
    assert_eq!(out.matches("Finished game").count(), 6);
    assert!(s.leftovers().is_empty());
}

/// More rounds than distinct random openings: the arena says it reuses them.
#[test]
fn reused_random_openings_are_announced() {
    let s = scratch("reuse");
    let e = s.engine();
    let run = |games: &str| {
        arena(&[
            "match",
            "--game",
            "hexapawn",
            "--size",
            "3",
            "--engine",
            &format!("cmd={e}"),
            "depth=1",
            "--engine",
            &format!("cmd={e}"),
            "depth=1",
            "--random-plies",
            "1",
            "--games",
            games,
        ])
    };
    // Hexapawn 3 has three first moves: three openings for four rounds.
    let o = run("8");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains(
            "warning: --random-plies 1 found 3 distinct openings of hexapawn 3 for 4 rounds: \
             openings are reused"
        ),
        "{err}"
    );
    let o = run("6");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success() && !err.contains("warning"), "{err}");
}

#[test]
fn bad_arguments_are_refused_clearly() {
    for (args, wanted) in [
        (
            vec![
                "match",
                "--engine",
                "cmd=x",
                "depth=zero",
                "--engine",
                "cmd=y",
            ],
            "depth=zero",
        ),
        (vec!["match", "--engine", "cmd=x"], "at least two engines"),
        (
            vec![
                "match", "--game", "chess", "--engine", "cmd=x", "--engine", "cmd=y",
            ],
            "chess",
        ),
        (
            vec![
                "match", "--engine", "cmd=x", "--engine", "cmd=y", "--engine", "cmd=z",
            ],
            "round-robin or gauntlet",
        ),
        (
            vec![
                "match", "--engine", "cmd=x", "--engine", "cmd=y", "--sprt", "elo1=-5",
            ],
            "elo1 must be greater",
        ),
        (
            vec!["match", "--engine", "cmd=x", "tc=inf", "--engine", "cmd=y"],
            "'tc=inf': an unlimited time control is not supported",
        ),
        (
            vec![
                "match",
                "--engine",
                "cmd=x",
                "tc=40/60+0.6",
                "movetime=100",
                "--engine",
                "cmd=y",
            ],
            "give either tc= or one of depth=, nodes=, movetime=",
        ),
    ] {
        let o = arena(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{args:?}");
        assert!(err.contains(wanted), "{args:?}: {err}");
    }
}

/// A fake engine that declares Hexapawn alone, and writes a line into `games.log` beside it for
/// every `newgame` it is sent.
const HEXAPAWN_ONLY: &str = r#"
import os, sys
log = os.path.join(os.path.dirname(os.path.abspath(sys.argv[0])), "games.log")
for line in sys.stdin:
    w = line.split()
    if w[:1] == ["uci"]:
        print("id name hexonly\nid author test\ngame hexapawn 3 11\nuciok", flush=True)
    elif w[:1] == ["isready"]:
        print("readyok", flush=True)
    elif w[:1] == ["newgame"]:
        with open(log, "a") as f:
            f.write(line)
    elif w[:1] == ["quit"]:
        break
"#;

/// `arena match` refuses an engine that does not declare the game and size played before any
/// game, with one line naming the engine and what it declares, and a failing status.
#[test]
fn match_refuses_an_engine_that_does_not_declare_the_game() {
    let s = scratch("undeclared");
    let fake = s.write("hexonly.py", HEXAPAWN_ONLY);
    let e = s.engine();
    let o = arena(&[
        "match",
        "--game",
        "oska",
        "--size",
        "4",
        "--engine",
        &format!("cmd={e}"),
        "name=ours",
        "depth=1",
        "--engine",
        "cmd=python3",
        &format!("arg={fake}"),
        "name=hexonly",
        "depth=1",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{}{err}", stdout(&o));
    assert_eq!(
        err.trim_end(),
        "error: engine hexonly declares game hexapawn 3 11, not oska 4: it cannot play this \
         match (an engine plays the games and sizes its 'game NAME MIN MAX' lines declare)",
        "{}",
        stdout(&o)
    );
    assert!(!stdout(&o).contains("Finished game"), "{}", stdout(&o));
    assert!(!s.path("games.log").exists());
    assert_eq!(s.leftovers(), Vec::<String>::new());
}

#[test]
fn check_tells_a_conforming_engine_from_a_broken_one() {
    let o = arena(&["check", ENGINE]);
    let out = succeeded(&o);
    assert!(out.contains("The engine conforms"), "{out}");
    let s = scratch("check");
    let broken = s.write(
        "broken.py",
        "import sys\nfor l in sys.stdin:\n    print('what?', flush=True)\n",
    );
    let o = arena(&["check", "python3", &broken]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("FAIL"), "{out}");
    assert!(out.contains("does NOT conform"), "{out}");
    assert!(s.leftovers().is_empty());
    // An engine that exits: its status in words, as `arena match` gives it.
    let o = arena(&["check", "sh", "-c", "read l; echo oops >&2; exit 3"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("(exit status: 3); last stderr line: oops"),
        "{out}"
    );
    assert!(!out.contains("ExitStatus"), "{out}");
}

#[test]
fn board_call_shorthand_takes_a_quoted_path_with_blanks() {
    let s = scratch("boardcall-blanks");
    let e = s.engine();
    fs::create_dir_all(s.path("my games")).unwrap();
    let player = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/seed_player.py");
    let player = s.write(
        "my games/seed player.py",
        &fs::read_to_string(player).unwrap(),
    );
    let rec = s.path("games.txt");
    let o = against_ours(
        &[&format!("boardcall=python3 '{player}'"), "format=python"],
        &e,
        &rec,
    );
    let out = succeeded(&o);
    assert!(out.contains("Score of seed player.py vs ours"), "{out}");
    let recs = records(&rec);
    assert_eq!(recs.len(), 2);
    assert_finished_without_fault(&recs);
    assert!(s.leftovers().is_empty(), "left behind: {:?}", s.leftovers());
}

/// `arena -h` sums up each command on one line.
#[test]
fn short_help_fits_one_line_a_command() {
    let names = common::short_help_commands(ARENA, &[]);
    let expected = ["match", "class", "report", "check", "help"];
    assert_eq!(names, expected.into_iter().map(String::from).collect());
}
