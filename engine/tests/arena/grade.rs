//! `arena class --grade`, `arena report --grade` and `--html` end to end, on the test class of
//! per-student folders (engine/tests/class/folders) with a crashing submission: the grading's
//! reference equals `engine-tune blunders` on the same positions, the grading of the records
//! after the fact equals the grading of the run (and with Oska 4's tablebases, the solver's),
//! and the web page holds every student, tells a fault in a student's words, escapes
//! a hostile name and makes no request.

use crate::common::{self, text};

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const ARENA: &str = env!("CARGO_BIN_EXE_arena");
const TUNE: &str = env!("CARGO_BIN_EXE_engine-tune");

/// A fresh folder with a copy of the test class of folders and `crash.py`, removed when dropped.
struct Class(PathBuf);

impl Class {
    fn new(tag: &str) -> Class {
        let dir = std::env::temp_dir().join(format!("grade-test-{}-{tag}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/class");
        let subs = dir.join("subs");
        for student in fs::read_dir(from.join("folders")).unwrap().flatten() {
            if student.file_name() == "dave" && !boardgames_tools::process::on_path("ghc") {
                eprintln!("note: ghc is not installed: the class is graded without dave");
                continue;
            }
            let to = subs.join(student.file_name());
            fs::create_dir_all(&to).unwrap();
            for f in fs::read_dir(student.path()).unwrap().flatten() {
                fs::copy(f.path(), to.join(f.file_name())).unwrap();
            }
        }
        fs::copy(from.join("crash.py"), subs.join("crash.py")).unwrap();
        Class(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Class {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn run(program: &str, args: &[&str]) -> Output {
    let mut cmd = Command::new(program);
    cmd.args(args);
    if args.first() == Some(&"class") && boardgames_tools::adapter::sandbox::bwrap().is_err() {
        cmd.arg("--no-sandbox");
    }
    cmd.output().unwrap()
}

/// The grading section of a report's standard output, without its time.
fn grading_part(out: &str) -> String {
    out.lines()
        .skip_while(|l| !l.starts_with("Grading:"))
        .filter(|l| !l.starts_with("Graded in"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn grading_equals_engine_tune_blunders_and_the_page_is_self_contained() {
    let c = Class::new("class");
    let (records, set, html) = (
        c.path("class.rec"),
        c.path("class.set"),
        c.path("class.html"),
    );
    let out = run(
        ARENA,
        &[
            "class",
            c.path("subs").to_str().unwrap(),
            "--depth",
            "2",
            "--concurrency",
            "2",
            "--move-timeout",
            "20000",
            "--records",
            records.to_str().unwrap(),
            "--grade",
            "--grade-set",
            set.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
        ],
    );
    let all = text(&out);
    assert!(out.status.success(), "{all}");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let grading = grading_part(&stdout);
    assert!(
        grading.contains("the reference is our engine (tuned evaluator) at depth 2"),
        "{all}"
    );
    // The reference over every graded position: its blunders among the critical positions.
    let total = grading
        .lines()
        .find(|l| l.starts_with("(all)"))
        .unwrap_or_else(|| panic!("no (all) row: {all}"));
    let cells: Vec<&str> = total.split_whitespace().collect();
    // (all) moved solved won% drawn% blunders% | ref won% drawn% blunders%: each share is
    // two words (`3/20 15.0%`) or `-`.
    let reference = cells[cells.len() - 2..].join(" ");
    let (ref_blunders, critical) = reference
        .split_whitespace()
        .next()
        .and_then(|s| s.split_once('/'))
        .unwrap_or_else(|| panic!("no reference share in '{total}'"));
    let tune = run(
        TUNE,
        &[
            "blunders",
            set.to_str().unwrap(),
            "--evals",
            "tuned",
            "--depths",
            "2",
        ],
    );
    let tuned = text(&tune);
    assert!(tune.status.success(), "{tuned}");
    assert!(
        tuned.contains(&format!(", {critical} critical\n")),
        "the grading counts {critical} critical positions: {tuned}\n{grading}"
    );
    let percent = cells.last().unwrap();
    let row = tuned
        .lines()
        .find(|l| l.starts_with("tuned"))
        .unwrap_or_else(|| panic!("{tuned}"));
    assert_eq!(
        row.split_whitespace().nth(1),
        Some(*percent),
        "the reference's {ref_blunders}/{critical} blunders: {tuned}\n{grading}"
    );
    // No figure is `nan` or infinite (crash.py scores 0 %: its Elo is a bound).
    for token in stdout.split(|c: char| c.is_whitespace() || c == '%') {
        assert!(
            !["nan", "NaN", "inf", "-inf", "+/-nan"].contains(&token),
            "{token} in {all}"
        );
    }
    // Somebody threw something away, and it is drawn.
    assert!(stdout.contains("Worst moves:"), "{all}");
    assert!(stdout.contains(" keeps the "), "{all}");
    // The grading of the records after the fact is the same.
    let report = run(
        ARENA,
        &[
            "report",
            records.to_str().unwrap(),
            "--grade",
            "--html",
            c.path("report.html").to_str().unwrap(),
        ],
    );
    assert!(report.status.success(), "{}", text(&report));
    assert_eq!(
        grading_part(&String::from_utf8_lossy(&report.stdout)),
        grading,
        "{}",
        text(&report)
    );
    // With Oska 4's tablebases the same grading (only the source of the values differs).
    let tables = c.path("tables");
    fs::create_dir_all(&tables).unwrap();
    let built = run(
        env!("CARGO_BIN_EXE_engine"),
        &common::tablebase_build("oska", "4", &tables),
    );
    assert!(built.status.success(), "{}", text(&built));
    let probed = run(
        ARENA,
        &[
            "report",
            records.to_str().unwrap(),
            "--grade",
            "--tablebase",
            tables.to_str().unwrap(),
        ],
    );
    let probed_out = String::from_utf8_lossy(&probed.stdout).into_owned();
    assert!(probed.status.success(), "{}", text(&probed));
    assert!(
        probed_out.contains("solved by the tablebases in "),
        "{probed_out}"
    );
    let body = |g: &str| g.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(
        body(&grading_part(&probed_out)),
        body(&grading),
        "{probed_out}"
    );
    // A spent time budget leaves the positions ungraded, and says so.
    let hurried = run(
        ARENA,
        &[
            "report",
            records.to_str().unwrap(),
            "--grade",
            "--grade-seconds",
            "0.000001",
        ],
    );
    let hurried_out = String::from_utf8_lossy(&hurried.stdout).into_owned();
    assert!(hurried.status.success(), "{}", text(&hurried));
    assert!(
        hurried_out.contains("were not reached within the budget of 0.000001 s"),
        "{hurried_out}"
    );
    // No absolute path of the class folder in the published report or the records.
    let folder = c.path("subs").display().to_string();
    assert!(!stdout.contains(&folder), "{all}");
    assert!(!fs::read_to_string(&records).unwrap().contains(&folder));
    // The page: every student, the crash drawn, the grading, no request.
    let page = fs::read_to_string(&html).unwrap();
    for name in ["alice", "bob", "carol", "frank", "crash.py"] {
        assert!(page.contains(&format!(">{name}<")), "{name} missing");
    }
    assert!(page.contains("<h2>Grading</h2>") && page.contains("<h2>Crosstable</h2>"));
    assert!(page.contains("aria-label=\"board "), "no board drawn");
    assert!(page.contains("<polyline"), "no chart");
    // crash.py's first fault in a student's words, as the adapter told it: what the function
    // raised, what it was given, how long it ran; no protocol words.
    let faults = &page[page.find("<h2>Notes and faults").unwrap()..];
    for words in [
        "<b>oskaplayer</b> raised an error instead of returning a board: IndexError",
        "to move for ",
        "The call ran ",
    ] {
        assert!(faults.contains(words), "no '{words}' in {faults}");
    }
    for protocol in [
        "bestmove",
        "board-call",
        "the engine said",
        "illegal move by",
    ] {
        assert!(!faults.contains(protocol), "'{protocol}' in {faults}");
    }
    for bad in [
        "http://", "https://", "<script", "src=", "url(", "NaN", ">nan<", "inf<",
    ] {
        assert!(!page.contains(bad), "the page holds {bad}");
    }
    // A hostile name in the records is escaped on the page.
    let hostile = "<img src=x onerror=alert(1)>&'";
    let recs = fs::read_to_string(&records)
        .unwrap()
        .replace("\"alice\"", &format!("\"{hostile}\""));
    let hostile_rec = c.path("hostile.rec");
    fs::write(&hostile_rec, recs).unwrap();
    let hostile_html = c.path("hostile.html");
    let o = run(
        ARENA,
        &[
            "report",
            hostile_rec.to_str().unwrap(),
            "--html",
            hostile_html.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let page = fs::read_to_string(&hostile_html).unwrap();
    assert!(!page.contains("<img"), "the name is not escaped");
    assert!(page.contains("&lt;img src=x onerror=alert(1)&gt;&amp;&#39;"));
}
