//! `arena class` and `arena report` end to end, with the seed-shaped submissions of
//! engine/tests/class/ (Python, Haskell, Common Lisp; a language is left out, with a note, when
//! its toolchain is not installed): a full class with the right faults for a crashing
//! submission and a memory hog, runaways (sleeping, forking, printing for ever) stopped by the
//! limits (executable programs too), shards merged by `arena report` equal to one run, the GNU parallel example run for
//! real, and a clear error for a missing toolchain. Every run must leave no process behind.

use crate::common;
use common::text;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use boardgames_core::record::parse_records;
use boardgames_tools::arena::class::{ClassReport, Entry};
use boardgames_tools::process::on_path;

const ARENA: &str = env!("CARGO_BIN_EXE_arena");
const ENGINE: &str = env!("CARGO_BIN_EXE_engine");

/// The submissions written for these tests.
fn sources() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/class")
}

/// A fresh directory (see [`common::Scratch`]) holding copies of some submissions in `subs`;
/// every process a run starts names it on its command line (the drivers get the submission's
/// path).
struct Scratch(common::Scratch);

impl Scratch {
    /// A fresh directory holding copies of `files` (see [`Scratch::add`]).
    fn with(name: &str, files: &[&str]) -> Scratch {
        let s = Scratch::new(name);
        for file in files {
            s.add(file);
        }
        s
    }

    /// A fresh directory holding copies of the steady submission of engine/tests/class/runaway
    /// (an opponent that always moves) and of the runaways `files` there.
    fn runaways(name: &str, files: &[&str]) -> Scratch {
        let s = Scratch::with(name, &["runaway/steady.py"]);
        for file in files {
            s.add(&format!("runaway/{file}"));
        }
        s
    }

    fn new(name: &str) -> Scratch {
        let s = common::Scratch::new("class-test", name);
        fs::create_dir_all(s.path("subs")).unwrap();
        Scratch(s)
    }

    fn subs(&self) -> PathBuf {
        self.0.path("subs")
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.path(name)
    }

    /// Copies `file` (relative to engine/tests/class) into the submissions.
    fn add(&self, file: &str) {
        let from = sources().join(file);
        let name = Path::new(file).file_name().unwrap();
        fs::copy(&from, self.subs().join(name)).unwrap();
    }

    /// Copies the folder `dir` (relative to engine/tests/class) into the submissions, one level
    /// of subfolders deep.
    fn add_folders(&self, dir: &str) {
        for student in fs::read_dir(sources().join(dir)).unwrap().flatten() {
            let to = self.subs().join(student.file_name());
            fs::create_dir_all(&to).unwrap();
            for f in fs::read_dir(student.path()).unwrap().flatten() {
                fs::copy(f.path(), to.join(f.file_name())).unwrap();
            }
        }
    }

    /// `arena class` of the submissions with `options` (words parted by blanks), its records
    /// written to `records`: the run must succeed. Returns the run and its [`text`].
    fn class_run(&self, options: &str, records: &Path) -> (Output, String) {
        let subs = self.subs();
        let mut args = vec!["class", subs.to_str().unwrap()];
        args.extend(options.split_whitespace());
        args.extend(["--records", records.to_str().unwrap()]);
        let out = arena(&args);
        let all = text(&out);
        assert!(out.status.success(), "{all}");
        (out, all)
    }

    /// Live processes (zombies aside) whose command line mentions this directory, after giving
    /// them up to two seconds to go.
    fn leftovers(&self) -> Vec<String> {
        self.0.leftovers()
    }
}

/// `--no-sandbox` where bubblewrap cannot make a sandbox (with a note), so that the limits are
/// still tested there; nothing where it can (engine/tests/arena/sandbox.rs tests the sandbox).
fn unsandboxed() -> Option<&'static str> {
    let why = boardgames_tools::adapter::sandbox::bwrap().as_ref().err()?;
    eprintln!("note: no sandbox here ({why}): the class runs with --no-sandbox");
    Some("--no-sandbox")
}

fn arena(args: &[&str]) -> Output {
    let mut cmd = Command::new(ARENA);
    cmd.args(args);
    if args.first() == Some(&"class") {
        cmd.args(unsandboxed());
    }
    cmd.output().unwrap()
}

fn report_of(paths: &[PathBuf]) -> ClassReport {
    let mut records = Vec::new();
    for p in paths {
        records.extend(parse_records(&fs::read_to_string(p).unwrap()).unwrap());
    }
    ClassReport::from_records(&records).unwrap()
}

/// The report's entry of the submission `name`; panics showing `all` (the run's output) when
/// there is none.
pub(crate) fn entry_of<'a>(report: &'a ClassReport, name: &str, all: &str) -> &'a Entry {
    let i = report
        .standings
        .names
        .iter()
        .position(|m| m == name)
        .unwrap_or_else(|| panic!("no {name} in: {all}"));
    &report.entries[i]
}

/// Asserts that each submission of `losers` lost every game in which it had to move (at least
/// two) by its fault and by nothing else; `all` is the run's output.
fn assert_lost_by_faults(report: &ClassReport, losers: &[(&str, &str)], all: &str) {
    for &(name, fault) in losers {
        let e = entry_of(report, name, all);
        // It loses every game in which it has to move (against the steady one always).
        assert!(
            e.faults.get(fault).is_some_and(|&c| c >= 2),
            "{name}: {all}"
        );
        assert_eq!(e.faults.len(), 1, "{name}: {:?}", e.faults);
    }
}

/// Whether `command` is on the PATH; where it is not, a note says so and what is `left_out`.
fn installed(command: &str, left_out: &str) -> bool {
    let found = on_path(command);
    if !found {
        eprintln!("note: {command} is not installed: {left_out}");
    }
    found
}

/// The submission table's row of `name`.
fn row<'a>(out: &'a str, name: &str) -> &'a str {
    out.lines()
        .find(|l| l.starts_with(&format!("{name} ")) && l.contains('%') && !l.contains("Elo"))
        .unwrap_or_else(|| panic!("no row for {name} in:\n{out}"))
}

#[test]
fn a_class_in_three_languages_with_a_crash_and_a_memory_hog() {
    let mut names = vec!["first.py", "greedy.py", "crash.py", "hog.py"];
    let s = Scratch::with("full", &names);
    if installed("ghc", "the class is played without its Haskell submission") {
        s.add("oska_hs.hs");
        names.push("oska_hs.hs");
    }
    if installed("sbcl", "the class is played without its Lisp submission") {
        s.add("oskamaniac.lisp");
        names.push("oskamaniac.lisp");
    }
    let records = s.path("class.rec");
    let (_, all) = s.class_run(
        "--game oska --size 4 --depth 2 --concurrency 2 --memory 1024 --move-timeout 20000",
        &records,
    );
    let n = names.len() as u64;
    let report = report_of(std::slice::from_ref(&records));
    assert_eq!(report.games as u64, n * (n - 1), "{all}");
    let entry = |name: &str| entry_of(&report, name, &all);
    // The hog loses every game by the memory limit, on its first move.
    let hog = entry("hog.py");
    assert_eq!(hog.faults.get("memory"), Some(&(2 * (n - 1))), "{all}");
    assert_eq!(hog.points, 0.0);
    // The crashing one raises on its second move of each game (unless the game ended first).
    let crash = entry("crash.py");
    assert!(
        crash.faults.get("exception").is_some_and(|&c| c >= n - 1),
        "{all}"
    );
    let first = crash.first_failure.as_ref().unwrap();
    assert_eq!(first.fault, "exception");
    assert!(first.message.contains("IndexError"), "{}", first.message);
    assert!(first.board.is_some());
    // Everyone else plays without fault: what `first.py` prints is kept apart from its answer.
    for good in names.iter().filter(|n| !["hog.py", "crash.py"].contains(n)) {
        assert!(entry(good).faults.is_empty(), "{good}: {all}");
        assert!(entry(good).timed_moves > 0);
    }
    assert!(row(&all, "hog.py").contains("0.0%"), "{all}");
    assert!(all.contains("First failures:"), "{all}");
    assert!(all.contains("[memory]"), "{all}");
    assert_eq!(s.leftovers(), Vec::<String>::new());
}

#[test]
fn runaways_lose_by_the_limits_and_leave_nothing_behind() {
    let s = Scratch::runaways("runaway", &["sleeper.py", "forker.py", "flooder.py"]);
    let records = s.path("r.rec");
    let (_, all) = s.class_run("--depth 2 --concurrency 2 --move-timeout 3000", &records);
    let report = report_of(&[records]);
    assert_lost_by_faults(
        &report,
        &[
            ("sleeper.py", "timeout"),
            ("forker.py", "processes"),
            ("flooder.py", "output"),
        ],
        &all,
    );
    assert_eq!(entry_of(&report, "steady.py", &all).points, 6.0, "{all}");
    assert_eq!(s.leftovers(), Vec::<String>::new());
}

#[test]
fn runaway_executables_lose_by_the_limits_and_leave_nothing_behind() {
    use std::os::unix::fs::PermissionsExt;
    let s = Scratch::runaways("runaway-exe", &["hog-program", "forker-program"]);
    for exe in ["hog-program", "forker-program"] {
        let path = s.subs().join(exe);
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    }
    let records = s.path("r.rec");
    let (_, all) = s.class_run(
        "--depth 2 --concurrency 2 --memory 512 --move-timeout 20000 --format python",
        &records,
    );
    let report = report_of(&[records]);
    let entry = |name: &str| entry_of(&report, name, &all);
    assert_lost_by_faults(
        &report,
        &[("hog-program", "memory"), ("forker-program", "processes")],
        &all,
    );
    assert_eq!(entry("steady.py").points, 4.0, "{all}");
    assert!(
        all.contains("[memory]") && all.contains("[processes]"),
        "{all}"
    );
    assert_eq!(s.leftovers(), Vec::<String>::new());
}

fn standings_part(out: &str) -> String {
    out.lines()
        .skip_while(|l| !l.starts_with("Rank"))
        .take_while(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn shards_merged_by_report_equal_one_run() {
    let s = Scratch::with("shards", &["first.py", "greedy.py", "crash.py"]);
    let dir = s.subs();
    let common = |extra: &[&str]| {
        let mut a = vec![
            "class",
            dir.to_str().unwrap(),
            "--depth",
            "2",
            "--rounds",
            "2",
            "--random-plies",
            "2",
            "--seed",
            "5",
        ];
        a.extend_from_slice(extra);
        a.iter().map(|x| x.to_string()).collect::<Vec<_>>()
    };
    let whole = s.path("whole.rec");
    let args = common(&["--records", whole.to_str().unwrap()]);
    let one = arena(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(one.status.success(), "{}", text(&one));
    let mut parts = Vec::new();
    for k in 1..=3 {
        let p = s.path(&format!("shard-{k}.rec"));
        let shard = format!("{k}/3");
        let args = common(&["--shard", &shard, "--records", p.to_str().unwrap()]);
        let o = arena(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(o.status.success(), "{}", text(&o));
        parts.push(p);
    }
    let a = report_of(std::slice::from_ref(&whole));
    let b = report_of(&parts);
    assert_eq!(a.games, 12);
    assert_eq!(a.standings, b.standings);
    let mut args = vec!["report".to_string()];
    args.extend(parts.iter().map(|p| p.display().to_string()));
    let merged = arena(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(merged.status.success(), "{}", text(&merged));
    let merged = text(&merged);
    assert!(merged.starts_with("12 games from 3 file(s)"), "{merged}");
    assert_eq!(standings_part(&merged), standings_part(&text(&one)));
    // A game in two files is refused.
    let twice = arena(&[
        "report",
        whole.to_str().unwrap(),
        parts[0].to_str().unwrap(),
    ]);
    assert!(!twice.status.success());
    assert!(text(&twice).contains("appears twice"), "{}", text(&twice));
    assert_eq!(s.leftovers(), Vec::<String>::new());
}

#[test]
fn the_gnu_parallel_example_runs() {
    if !installed("parallel", "examples/class-parallel.sh is not run") {
        return;
    }
    let s = Scratch::with("parallel", &["first.py", "greedy.py", "crash.py"]);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/class-parallel.sh");
    let bin = Path::new(ARENA).parent().unwrap();
    // Where the binaries are those of the repository's target/debug, the script finds them
    // beside itself (no ARENA=, not on PATH); elsewhere (another CARGO_TARGET_DIR) on PATH.
    let beside = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/debug");
    let found_beside = beside.canonicalize().ok() == bin.canonicalize().ok() && !on_path("arena");
    let path = if found_beside {
        std::env::var("PATH").unwrap_or_default()
    } else {
        format!(
            "{}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        )
    };
    let outdir = s.path("out");
    let out = Command::new("bash")
        .arg(&script)
        .arg(s.subs())
        .arg(&outdir)
        .arg("3")
        .args(["--depth", "2"])
        .args(unsandboxed())
        .env("PATH", path)
        .env_remove("ARENA")
        .output()
        .unwrap();
    let all = text(&out);
    assert!(out.status.success(), "{all}");
    assert!(all.contains("6 games from 3 file(s)"), "{all}");
    let one = arena(&["class", s.subs().to_str().unwrap(), "--depth", "2"]);
    assert_eq!(standings_part(&all), standings_part(&text(&one)), "{all}");
    assert_eq!(s.leftovers(), Vec::<String>::new());
}

#[test]
fn a_missing_toolchain_says_what_to_install() {
    let s = Scratch::new("toolchain");
    s.add("oska_hs.hs");
    let file = format!("{}:oska_t3st", s.subs().join("oska_hs.hs").display());
    let empty = s.path("empty-path");
    fs::create_dir_all(&empty).unwrap();
    let out = Command::new(ENGINE)
        .args(["board-call", "--", &file])
        .env("PATH", &empty)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("Haskell submissions need 'ghc'") && err.contains("apt-get install ghc"),
        "{err}"
    );
    let out = Command::new(ENGINE)
        .args(["board-call", "--", "/no/such/file.py:oskaplayer"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("/no/such/file.py"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The test class of per-student folders (engine/tests/class/folders): the same file names
/// across students, helper modules beside the players, a player in `movegen.py`, a Haskell
/// file whose opening comment names another function, a student without the function and one
/// whose function keeps state. `arena class` and `arena report` of its records name every
/// student, with the right note, nothing renamed.
#[test]
fn a_class_of_student_folders_names_every_student_with_its_note() {
    let s = Scratch::new("folders");
    s.add_folders("folders");
    let mut players = vec!["alice", "bob", "carol", "frank"];
    if installed("ghc", "the class is played without its Haskell student") {
        players.push("dave");
    } else {
        fs::remove_dir_all(s.subs().join("dave")).unwrap();
    }
    let records = s.path("class.rec");
    let (out, all) = s.class_run("--depth 2 --concurrency 2 --move-timeout 20000", &records);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    // Standard output is the result alone: the games' progress is on standard error, and no
    // margin is `nan` or `inf`.
    let n = players.len();
    assert!(!stdout.contains("Finished game"), "{all}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr)
            .matches("Finished game")
            .count(),
        n * (n - 1),
        "{all}"
    );
    assert!(!stdout.contains("nan") && !stdout.contains("inf"), "{all}");
    let report = arena(&["report", records.to_str().unwrap()]);
    assert!(report.status.success(), "{}", text(&report));
    let reported = String::from_utf8_lossy(&report.stdout).into_owned();
    assert!(reported.starts_with(&format!("{} games from 1 file(s)", n * (n - 1))));
    for shown in [&stdout, &reported] {
        // Everyone who plays is in both tables, by the folder's name, without a fault: the
        // helper modules imported, the Haskell function is the one the comment does not name.
        for p in &players {
            let standing = shown
                .lines()
                .find(|l| l.split_whitespace().nth(1) == Some(p))
                .unwrap_or_else(|| panic!("{p} not in the standings: {all}"));
            assert!(standing.contains('%'), "{standing}");
            assert!(
                row(shown, p).contains(" 0       0        0       0 "),
                "{all}"
            );
        }
        assert!(!shown.contains("First failures"), "{all}");
        let notes: Vec<&str> = shown
            .lines()
            .skip_while(|l| *l != "Notes:")
            .skip(1)
            .take_while(|l| !l.is_empty())
            .collect();
        assert_eq!(notes.len(), 2, "{shown}");
        assert!(
            notes[0].starts_with("erin: does not play: none of its 1 source file(s) defines")
                && notes[0].ends_with("name the file and function in class.csv"),
            "{shown}"
        );
        assert!(
            notes[1].starts_with(
                "frank: keeps state between calls (global calls (line 44) of player.py)"
            ),
            "{shown}"
        );
    }
    assert_eq!(s.leftovers(), Vec::<String>::new());
}

/// A student's folder is visible to its submission read-only, and no other student's is: a
/// submission that reads another's folder or writes into its own raises, and loses.
#[test]
fn a_student_sees_its_own_folder_read_only_and_no_other() {
    if unsandboxed().is_some() {
        return;
    }
    let s = Scratch::new("folder-sandbox");
    s.add_folders("folders");
    for other in ["bob", "carol", "dave", "erin", "frank"] {
        fs::remove_dir_all(s.subs().join(other)).unwrap();
    }
    let mallory = s.subs().join("mallory");
    fs::create_dir_all(&mallory).unwrap();
    fs::copy(
        s.subs().join("alice/OskaBoard.py"),
        mallory.join("OskaBoard.py"),
    )
    .unwrap();
    let alice = s.subs().join("alice/oskaplayer.py");
    fs::write(
        mallory.join("player.py"),
        format!(
            "from OskaBoard import movegen\n\n\n\
             def oskaplayer(board, side, depth):\n    \
                 done = []\n    \
                 for p in ['../alice/oskaplayer.py', {alice:?}]:\n        \
                     try:\n            \
                         open(p).read()\n            \
                         done.append('read ' + p)\n        \
                     except OSError:\n            \
                         pass\n    \
                 try:\n        \
                     open('mine.txt', 'w').write('x')\n        \
                     done.append('wrote its folder')\n    \
                 except OSError:\n        \
                     pass\n    \
                 if done:\n        \
                     raise RuntimeError('ESCAPED: ' + ', '.join(done))\n    \
                 return movegen(board, side)[0]\n",
            alice = alice.display().to_string()
        ),
    )
    .unwrap();
    let out = arena(&["class", s.subs().to_str().unwrap(), "--depth", "1"]);
    let all = text(&out);
    assert!(out.status.success(), "{all}");
    assert!(!all.contains("ESCAPED"), "{all}");
    assert!(!all.contains("First failures"), "{all}");
    assert!(
        row(&all, "mallory").contains(" 0       0        0       0 "),
        "{all}"
    );
    assert!(!mallory.join("mine.txt").exists());
    assert_eq!(s.leftovers(), Vec::<String>::new());
}

/// A compiler's message keeps its non-ASCII characters (ghc's curly quotes) in the report of
/// `arena class` and in that of `arena report`, not `\xe2\x80\x98`.
#[test]
fn a_compiler_message_is_shown_as_text() {
    if !installed("ghc", "no compiler message to show") {
        return;
    }
    let s = Scratch::new("ghc-message");
    s.add("first.py");
    fs::write(
        s.subs().join("broken.hs"),
        "{- Oska, by a student -}\nmodule Main where\n\n\
         oska_b4d :: [String] -> Char -> Int -> [String]\n\
         oska_b4d board _ _ = board ++ 1\n",
    )
    .unwrap();
    let records = s.path("class.rec");
    let (out, _) = s.class_run("--depth 1", &records);
    let report = arena(&["report", records.to_str().unwrap()]);
    for shown in [
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&report.stdout),
    ] {
        assert!(shown.contains("[load]"), "{shown}");
        assert!(shown.contains("\u{2018}oska_b4d\u{2019}"), "{shown}");
        assert!(!shown.contains("\\xe2"), "{shown}");
    }
    assert_eq!(s.leftovers(), Vec::<String>::new());
}

/// A class of two: `first.py` at the top and the course site's folder of Erin's
/// `hw3 (1).py`, with `manifest` as the class's class.csv.
fn erin_class(
    s: &Scratch,
    manifest: &str,
) -> Result<boardgames_tools::arena::class::Class, String> {
    s.add("first.py");
    let erin = s.subs().join("Erin O'Neil_4711_assignsubmission_file_");
    fs::create_dir_all(&erin).unwrap();
    fs::copy(sources().join("greedy.py"), erin.join("hw3 (1).py")).unwrap();
    fs::write(s.subs().join("class.csv"), manifest).unwrap();
    boardgames_tools::arena::class::discover(
        &s.subs(),
        boardgames_core::games::GameKind::Oska,
        None,
    )
    .map_err(|e| e.to_string())
}

/// A manifest line naming the file that discovery found in a student's folder replaces the
/// folder's entry: the file plays once, under the manifest's name, and a note says so.
#[test]
fn a_manifest_naming_a_detected_file_gives_one_entry() {
    let s = Scratch::new("manifest-once");
    let class = erin_class(
        &s,
        "student,file,function,language\nerin,Erin O'Neil_4711_assignsubmission_file_/hw3 (1).py,,\n",
    )
    .unwrap();
    let names: Vec<&str> = class.subs.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["erin", "first.py"], "{class:?}");
    let notes: Vec<String> = class
        .notes
        .iter()
        .map(|n| format!("{}: {}", n.name, n.text))
        .collect();
    assert_eq!(
        notes,
        [
            "Erin O'Neil_4711_assignsubmission_file_: plays as erin (class.csv line 2 names its \
          file Erin O'Neil_4711_assignsubmission_file_/hw3 (1).py)"
        ]
    );
}

/// Two manifest lines naming one file (by two spellings of its path) are an error naming both
/// lines.
#[test]
fn two_manifest_lines_naming_one_file_are_an_error_naming_both() {
    let s = Scratch::new("manifest-twice");
    let err = erin_class(
        &s,
        "erin,Erin O'Neil_4711_assignsubmission_file_/hw3 (1).py\n\
         # a second try\n\
         erin2,./Erin O'Neil_4711_assignsubmission_file_/../Erin O'Neil_4711_assignsubmission_file_/hw3 (1).py,oskaplayer\n",
    )
    .unwrap_err();
    assert!(
        err.contains("class.csv: line 1 (erin,Erin O'Neil_4711_assignsubmission_file_/hw3 (1).py) and line 3 (erin2,")
            && err.contains("name the same file Erin O'Neil_4711_assignsubmission_file_/hw3 (1).py"),
        "{err}"
    );
}
