//! What the arena shows of text it did not write: a hostile engine (escape sequences, NUL, CR
//! and bytes outside ASCII in its `id name`, `info string`, `bestmove` and stderr; one that closes
//! its output and keeps running), hostile names, openings and record files, and a hostile class
//! submission, in `arena match`, `arena check`, `arena class` and `arena report` (and a set of
//! positions for `engine-tune blunders`): no raw control byte reaches the terminal or a record. And `arena report` fuzzed with damaged real records:
//! it never panics or hangs, and either refuses with the file and line or prints the standings
//! of records that the rules accept.

use crate::common;

use std::collections::BTreeMap;
use std::fs;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use boardgames_core::protocol::shown as escaped;
use boardgames_core::record::{GameRecord, RecordResult, parse_records};
use common::{Scratch, text};

const ARENA: &str = env!("CARGO_BIN_EXE_arena");
const TUNE: &str = env!("CARGO_BIN_EXE_engine-tune");

/// A fresh directory for one test (see [`common::Scratch`]).
fn scratch(name: &str) -> Scratch {
    common::Scratch::new("arena-trust", name)
}

/// Runs the arena with `args`, killing it after `limit` (then the test fails: a hang).
fn arena_within(args: &[&str], limit: Duration) -> Output {
    let mut child = Command::new(ARENA)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out.read_to_end(&mut v);
        v
    });
    let err = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("arena {args:?} still ran after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

fn arena(args: &[&str]) -> Output {
    arena_within(args, Duration::from_secs(300))
}

/// Fails unless `bytes` is UTF-8 without a control character (newlines and tabs aside) or an
/// invisible character that reorders or hides text (bidirectional controls, zero-width ones).
fn assert_clean(bytes: &[u8], what: &str) {
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => panic!("{what}: not UTF-8: {e}"),
    };
    let hidden = |c: char| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
                | '\u{2060}'..='\u{2069}' | '\u{feff}')
    };
    if let Some((i, c)) = text.char_indices().find(|&(_, c)| hidden(c)) {
        let from = text.floor_char_boundary(i.saturating_sub(60));
        let to = text.ceil_char_boundary((i + 20).min(text.len()));
        panic!("{what}: byte {i} is {c:?}, in {:?}", &text[from..to]);
    }
}

/// Escape sequences (colour, window title, clear screen), BEL, NUL, CR, DEL, a C1 control
/// character, a letter outside ASCII and a backslash.
const EVIL: &str = "\x1b[31mred\x1b[0m\x07\x00\r\x1b]0;title\x07\x1b[2J\x7f\u{9b}\u{e9}\\";

/// A proxy in front of our engine that says EVIL in its `id name` and in an `info string` before
/// every `bestmove`; at its second `go`, by MODE: `bestmove` answers `bestmove EVIL`, `illegal`
/// answers the illegal `bestmove a1a1`, `stderr` writes EVIL to stderr and exits 3, `closed`
/// closes its standard output and sleeps; `none` plays on.
const HOSTILE: &str = r#"
import os, subprocess, sys, threading, time
mode, engine = sys.argv[1], sys.argv[2]
EVIL = "\x1b[31mred\x1b[0m\x07\x00\r\x1b]0;title\x07\x1b[2J\x7f\u009b\u00e9\\"
child = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
gos = 0
def out(line):
    sys.stdout.write(line)
    sys.stdout.flush()
def pump():
    for line in child.stdout:
        if line.startswith("id name"):
            line = "id name " + EVIL + "\n"
        if line.startswith("bestmove"):
            out("info string " + EVIL + "\n")
            if gos == 2:
                if mode == "bestmove":
                    line = "bestmove " + EVIL + "\n"
                if mode == "illegal":
                    line = "bestmove a1a1\n"
                if mode == "stderr":
                    sys.stderr.write("oops " + EVIL + "\n")
                    sys.stderr.flush()
                    os._exit(3)
                if mode == "closed":
                    os.close(1)
                    time.sleep(3600)
        out(line)
threading.Thread(target=pump, daemon=True).start()
for line in sys.stdin:
    if line.startswith("go"):
        gos += 1
    child.stdin.write(line)
    child.stdin.flush()
    if line.strip() == "quit":
        break
child.wait()
"#;

/// A fresh directory for one test holding the [`HOSTILE`] proxy; returns it and the proxy's path.
fn with_hostile(name: &str) -> (Scratch, String) {
    let s = scratch(name);
    let fake = s.write("hostile.py", HOSTILE.as_bytes());
    (s, fake)
}

/// EVIL as the arena shows it.
fn shown() -> String {
    escaped(EVIL).into_owned()
}

#[test]
fn hostile_engine_text_reaches_no_terminal_and_no_record_raw() {
    let (s, fake) = with_hostile("hostile");
    let e = s.engine();
    let rec = s.path("games.txt");
    // A command line holds no NUL.
    let evil_name = format!("n{}", EVIL.replace('\0', ""));
    let records = ["--concurrency", "2", "--records", rec.to_str().unwrap()];
    let mut args = common::oska_tournament("gauntlet", "2", &records);
    args.extend([
        "--engine".to_string(),
        format!("cmd={e}"),
        format!("name={evil_name}"),
        "depth=1".into(),
    ]);
    for mode in ["bestmove", "illegal", "stderr", "closed"] {
        args.extend(common::proxy_engine(
            &fake,
            mode,
            &e,
            mode,
            &["depth=1", "timeout=5000"],
        ));
    }
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = arena(&words);
    let all = text(&o);
    assert!(o.status.success(), "{all}");
    assert_clean(&o.stdout, "arena match stdout");
    assert_clean(&o.stderr, "arena match stderr");
    let bytes = fs::read(&rec).unwrap();
    assert_clean(&bytes, "the records");
    // What the engines said is shown escaped, and read back from the records as it was said.
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains(&escaped(&evil_name).into_owned()), "{out}");
    let records = parse_records(&String::from_utf8(bytes).unwrap()).unwrap();
    assert_eq!(records.len(), 8, "{all}");
    for (name, said) in [
        ("bestmove", format!("'bestmove {EVIL}'")),
        ("illegal", format!("{EVIL})")),
        ("stderr", format!("last stderr line: oops {EVIL}")),
        (
            "closed",
            "closed its standard output (still running)".into(),
        ),
    ] {
        let games: Vec<&GameRecord> = records
            .iter()
            .filter(|r| r.white == name || r.black == name)
            .collect();
        assert_eq!(games.len(), 2, "{name}");
        for r in games {
            assert!(r.white == evil_name || r.black == evil_name, "{r}");
            let reason = r.tag("Reason").unwrap();
            assert!(reason.contains(said.as_str()), "{name}: {reason:?}");
            assert!(
                out.contains(&escaped(reason).into_owned()),
                "{name}: the Finished line shows the reason escaped: {out}"
            );
        }
    }
    assert!(out.contains(&shown()), "{out}");
    assert_eq!(common::leftovers(&s.dir), Vec::<String>::new());

    // The report of those records: escaped too.
    let o = arena(&["report", rec.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    assert_clean(&o.stdout, "arena report stdout");
    assert_clean(&o.stderr, "arena report stderr");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("8 games from 1 file(s)"), "{out}");
    assert!(out.contains(&shown()), "{out}");

    // The conformance check quotes the engine's name.
    let o = arena(&["check", "python3", &fake, "none", &e]);
    assert_clean(&o.stdout, "arena check stdout");
    assert_clean(&o.stderr, "arena check stderr");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains(&format!("ok    handshake ({})", shown())),
        "{out}"
    );
    assert_eq!(common::leftovers(&s.dir), Vec::<String>::new());
}

#[test]
fn hostile_files_are_quoted_escaped_in_errors() {
    let s = scratch("files");
    let e = s.engine();
    let engines = [
        "--engine".to_string(),
        format!("cmd={e}"),
        "depth=1".into(),
        "--engine".into(),
        format!("cmd={e}"),
        "depth=1".into(),
    ];
    let openings = s.write(
        "open\x1b[31mings.txt",
        format!("startpos\nwwww/---/--/---/bb{EVIL} w\n").as_bytes(),
    );
    let mut args = vec!["match", "--openings", &openings];
    args.extend(engines.iter().map(String::as_str));
    let o = arena(&args);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_clean(&o.stdout, "stdout");
    assert_clean(&o.stderr, "stderr");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("open\\x1b[31mings.txt"), "{err}");
    assert!(err.contains("openings line 2"), "{err}");
    assert!(err.contains(&shown()), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");

    // Openings that are not UTF-8 on their third line.
    let openings = s.write("bad.txt", b"startpos\n\nwwww/---/--/---/bb\xffbb w\n");
    let mut args = vec!["match", "--openings", &openings];
    args.extend(engines.iter().map(String::as_str));
    let o = arena(&args);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "error: --openings {openings}: openings line 3: byte 19 of the line is not UTF-8 text\n"
        )
    );

    // A set of positions for `engine-tune blunders`, with a side that is none.
    let set = s.write(
        "set.txt",
        format!("# oska size 4: 1 position\n----/b--/--/--w/-w-- b{EVIL} w1 a2a1=w1\n").as_bytes(),
    );
    let o = Command::new(TUNE)
        .args(["blunders", &set])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_clean(&o.stderr, "engine-tune blunders stderr");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("line 2: side must be"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");

    // A record file: a move with control bytes, bytes that are not UTF-8, a tag with raw ones.
    let game = "[Game \"oska\"]\n[Size \"4\"]\n[White \"a\"]\n[Black \"b\"]\n\
                [Start \"startpos\"]\n[Result \"*\"]\n";
    for (body, line) in [
        (format!("{game}b1b2 b5{EVIL}\n").into_bytes(), 7),
        ([game.as_bytes(), b"b1b2 \xff\x1b[2J\n"].concat(), 7),
        (
            format!("{game}[Reason \"{}\"]\nb1b2\n", EVIL.replace('\\', "")).into_bytes(),
            0,
        ),
    ] {
        let path = s.write("games\x07.rec", &body);
        let o = arena(&["report", &path]);
        assert_clean(&o.stdout, "report stdout");
        assert_clean(&o.stderr, "report stderr");
        let err = String::from_utf8_lossy(&o.stderr);
        if line == 0 {
            // Raw control bytes in a tag value are read, and shown escaped.
            assert!(o.status.success(), "{}", text(&o));
        } else {
            assert_eq!(o.status.code(), Some(2), "{}", text(&o));
            assert!(
                err.starts_with(&format!("error: {}: line {line}: ", escaped(&path))),
                "{err}"
            );
            assert_eq!(err.lines().count(), 1, "{err}");
        }
    }
}

/// Records naming more players than a report takes are refused at once, not allocated for.
#[test]
fn a_report_of_too_many_players_is_refused() {
    let s = scratch("players");
    let max = boardgames_tools::arena::class::MAX_PLAYERS;
    let games: String = (0..max / 2 + 1)
        .map(|i| {
            format!(
                "[Game \"oska\"]\n[Size \"4\"]\n[White \"w{i}\"]\n[Black \"b{i}\"]\n\
                 [Start \"startpos\"]\n[Result \"*\"]\nb1b2\n\n"
            )
        })
        .collect();
    let path = s.write("many.rec", games.as_bytes());
    let o = arena_within(&["report", &path], Duration::from_secs(120));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "error: the records name {} players; a report takes at most {max}\n",
            max + 2
        )
    );
}

/// A class submission that prints EVIL and raises an exception that says it, in a file whose
/// name holds an escape sequence.
const EVIL_SUBMISSION: &str = r#"
def oskaplayer(board, side, depth):
    print("\x1b[31mtrace\x07\x00\r\x1b]0;title\x07")
    raise ValueError("bad \x1b[2J\x00\r\u00e9 end")
"#;

#[test]
fn a_hostile_class_submission_is_shown_escaped() {
    let s = scratch("class");
    let subs = s.path("subs");
    fs::create_dir_all(&subs).unwrap();
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/class");
    fs::copy(tests.join("first.py"), subs.join("first.py")).unwrap();
    let evil = "ev\x1b[31mil\x07.py";
    fs::write(subs.join(evil), EVIL_SUBMISSION).unwrap();
    let rec = s.path("class.rec");
    let o = arena(&[
        "class",
        subs.to_str().unwrap(),
        "--depth",
        "1",
        "--move-timeout",
        "20000",
        "--records",
        rec.to_str().unwrap(),
    ]);
    let all = text(&o);
    assert!(o.status.success(), "{all}");
    assert_clean(&o.stdout, "arena class stdout");
    assert_clean(&o.stderr, "arena class stderr");
    assert_clean(&fs::read(&rec).unwrap(), "the class records");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains(&*escaped(evil)), "{out}");
    let records = parse_records(&fs::read_to_string(&rec).unwrap()).unwrap();
    assert_eq!(records.len(), 2, "{all}");
    for r in &records {
        let loser = if r.result == RecordResult::White {
            &r.black
        } else {
            &r.white
        };
        assert_eq!(loser, evil, "{r}");
    }
    let o = arena(&["report", rec.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    assert_clean(&o.stdout, "arena report stdout");
    assert!(
        String::from_utf8_lossy(&o.stdout).contains(&*escaped(evil)),
        "{}",
        text(&o)
    );
    assert_eq!(common::leftovers(&s.dir), Vec::<String>::new());
}

/// Whether the rules accept every record, checked here without the report's code: every start
/// legal, every move legal, where the moves end the game the result is the rules' result, and
/// a `Reason` that names an ending by the rules names the one the moves reach.
fn rules_accept(records: &[GameRecord]) -> bool {
    records.iter().all(|r| {
        let ruled = r.tag("Reason").filter(|t| {
            boardgames_core::games::Reason::ALL
                .iter()
                .any(|x| x.code() == *t)
        });
        boardgames_core::with_game!(r.game, G => match r.replay::<G>() {
            Err(_) => false,
            Ok(lines) => match lines.last().and_then(|l| l.outcome()) {
                Some(o) => {
                    RecordResult::from_outcome(o) == r.result
                        && ruled.is_none_or(|t| t == o.reason().code())
                }
                None => ruled.is_none(),
            },
        })
    })
}

/// The standings table's rows as the report should print them: for each name (escaped), games,
/// score and draws in percent, from the finished games of `records`.
fn expected_rows(records: &[GameRecord]) -> Vec<(String, u64, String, String)> {
    let mut per: BTreeMap<&str, (u64, f64, u64)> = BTreeMap::new();
    for r in records {
        per.entry(&r.white).or_default();
        per.entry(&r.black).or_default();
        let (wp, bp) = match r.result {
            RecordResult::White => (1.0, 0.0),
            RecordResult::Black => (0.0, 1.0),
            RecordResult::Draw => (0.5, 0.5),
            RecordResult::Unfinished => continue,
        };
        let draw = u64::from(r.result == RecordResult::Draw);
        for (name, pts) in [(&r.white, wp), (&r.black, bp)] {
            let e = per.get_mut(name.as_str()).unwrap();
            e.0 += 1;
            e.1 += pts;
            e.2 += draw;
        }
    }
    // A player without a finished game scores half and draws none, as the table says.
    let pct = |x: f64, n: u64, none: f64| {
        let ratio = if n == 0 { none } else { x / n as f64 };
        format!("{:.1}%", 100.0 * ratio)
    };
    let mut rows: Vec<_> = per
        .into_iter()
        .map(|(name, (g, pts, d))| {
            let shown: Vec<String> = escaped(name)
                .split_whitespace()
                .map(str::to_string)
                .collect();
            (shown.join(" "), g, pct(pts, g, 0.5), pct(d as f64, g, 0.0))
        })
        .collect();
    rows.sort();
    rows
}

/// The standings table's rows in the report's output (rank, name, Elo, +/-, games, score,
/// draws): name, games, score, draws.
fn printed_rows(out: &str) -> Vec<(String, u64, String, String)> {
    let mut lines = out.lines().skip_while(|l| !l.starts_with("Rank Name"));
    lines.next().expect("a standings table");
    let mut rows: Vec<_> = lines
        .take_while(|l| !l.trim().is_empty())
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let n = words.len();
            assert!(n >= 6, "a standings row: {l}");
            (
                words[1..n - 5].join(" "),
                words[n - 3].parse().unwrap(),
                words[n - 2].to_string(),
                words[n - 1].to_string(),
            )
        })
        .collect();
    rows.sort();
    rows
}

/// One random change to a record file's bytes.
fn damage(rng: &mut common::Rng, bytes: &mut Vec<u8>) -> &'static str {
    const ODD: [u8; 16] = [
        0x00, 0x1b, 0x07, b'\r', b'\n', 0xff, 0xc3, 0x80, b'[', b']', b'"', b'\\', b' ', b'x',
        b'#', 0x9b,
    ];
    let at = |rng: &mut common::Rng, len: usize| rng.below(len.max(1));
    let lines = |bytes: &[u8]| -> Vec<Vec<u8>> {
        bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect()
    };
    let moves = |bytes: &[u8]| -> Vec<(usize, usize)> {
        // The byte ranges of the words of move lines.
        let mut out = Vec::new();
        let mut start = 0;
        for l in bytes.split(|&b| b == b'\n') {
            if !l.is_empty() && l[0] != b'[' && l[0] != b'#' {
                let mut i = 0;
                while i < l.len() {
                    if l[i] == b' ' {
                        i += 1;
                        continue;
                    }
                    let j = l[i..]
                        .iter()
                        .position(|&b| b == b' ')
                        .map_or(l.len(), |k| i + k);
                    out.push((start + i, start + j));
                    i = j;
                }
            }
            start += l.len() + 1;
        }
        out
    };
    if bytes.is_empty() {
        bytes.push(ODD[rng.below(ODD.len())]);
        return "insert";
    }
    match rng.below(10) {
        0 => {
            let i = at(rng, bytes.len());
            bytes[i] ^= 1 << rng.below(8);
            "flip"
        }
        1 => {
            let i = at(rng, bytes.len());
            let n = rng.range(1, 8).min(bytes.len() - i);
            bytes.drain(i..i + n);
            "delete"
        }
        2 => {
            let i = at(rng, bytes.len() + 1);
            for _ in 0..rng.range(1, 4) {
                let b = if rng.below(4) == 0 {
                    rng.below(256) as u8
                } else {
                    ODD[rng.below(ODD.len())]
                };
                bytes.insert(i.min(bytes.len()), b);
            }
            "insert"
        }
        3 => {
            bytes.truncate(at(rng, bytes.len()));
            "truncate"
        }
        4..=6 => {
            let mut ls = lines(bytes);
            let i = at(rng, ls.len());
            let kind = match rng.below(3) {
                0 => {
                    let l = ls[i].clone();
                    ls.insert(i, l);
                    "duplicate line"
                }
                1 => {
                    ls.remove(i);
                    "delete line"
                }
                _ => {
                    let j = at(rng, ls.len());
                    ls.swap(i, j);
                    "swap lines"
                }
            };
            *bytes = ls.join(&b'\n');
            kind
        }
        7 | 8 => {
            // A move replaced by another move of the file: spelt right, often illegal there.
            let words = moves(bytes);
            if words.len() < 2 {
                return "none";
            }
            let (a, b) = (words[rng.below(words.len())], words[rng.below(words.len())]);
            let with = bytes[b.0..b.1].to_vec();
            bytes.splice(a.0..a.1, with);
            "replace move"
        }
        _ => {
            // Another result on one of the Result lines.
            let tag = b"[Result \"";
            let found: Vec<usize> = (0..bytes.len().saturating_sub(tag.len()))
                .filter(|&i| bytes[i..].starts_with(tag))
                .collect();
            if found.is_empty() {
                return "none";
            }
            let i = found[rng.below(found.len())];
            let end = bytes[i..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |k| i + k);
            let new = ["white", "black", "draw", "*"][rng.below(4)];
            bytes.splice(i..end, format!("[Result \"{new}\"]").into_bytes());
            "result"
        }
    }
}

/// `arena report` on damaged copies of real records (a round robin of our engine at two depths
/// and a proxy whose illegal move and `info string` put escapes in the records): it never panics
/// or hangs; it refuses with one `error: FILE: line N: ...` line, N within the file, or prints
/// the standings of the file's games, which the rules accept, equal to the standings computed
/// here. Runs: `ARENA_FUZZ_RUNS` (default 1000); seed: `ARENA_FUZZ_SEED` (default 1).
#[test]
fn arena_report_survives_damaged_records() {
    let (s, fake) = with_hostile("fuzz");
    let e = s.engine();
    let rec = s.path("games.txt");
    let mut args = common::oska_tournament(
        "round-robin",
        "6",
        &[
            "--random-plies",
            "2",
            // One game at a time: the file, and so the damage a seed does, is the same every run.
            "--concurrency",
            "1",
            "--records",
            rec.to_str().unwrap(),
        ],
    );
    for (name, depth) in [("deep", "depth=3"), ("shallow", "depth=1")] {
        args.extend([
            "--engine".into(),
            format!("cmd={e}"),
            format!("name={name}"),
            depth.into(),
        ]);
    }
    args.extend(common::proxy_engine(
        &fake,
        "illegal",
        &e,
        "hostile",
        &["depth=1", "timeout=5000"],
    ));
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = arena(&words);
    assert!(o.status.success(), "{}", text(&o));
    let original = fs::read(&rec).unwrap();
    let base = parse_records(&String::from_utf8(original.clone()).unwrap()).unwrap();
    assert_eq!(base.len(), 18);
    assert!(
        base.iter()
            .any(|r| r.tag("Reason").is_some_and(|t| t.contains(EVIL)))
    );
    let runs: usize = std::env::var("ARENA_FUZZ_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let seed: u64 = std::env::var("ARENA_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let mut rng = common::Rng::new(seed);
    let path = s.path("damaged.rec");
    let shown_path = escaped(path.to_str().unwrap()).into_owned();
    let mut tally: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    let mut files = (0, 0);
    let started = Instant::now();
    for run in 0..=runs {
        let mut bytes = original.clone();
        let mut kinds = Vec::new();
        // Run 0 is the undamaged file.
        if run > 0 {
            for _ in 0..rng.range(1, 3) {
                kinds.push(damage(&mut rng, &mut bytes));
            }
        }
        fs::write(&path, &bytes).unwrap();
        let o = arena_within(&["report", path.to_str().unwrap()], Duration::from_secs(60));
        let context = || {
            format!(
                "run {run} (seed {seed}), damage {kinds:?}:\n{}\n--- file ---\n{}",
                text(&o),
                String::from_utf8_lossy(&bytes)
            )
        };
        assert_clean(&o.stdout, &format!("stdout of run {run}"));
        assert_clean(&o.stderr, &format!("stderr of run {run}"));
        let err = String::from_utf8_lossy(&o.stderr);
        let out = String::from_utf8_lossy(&o.stdout);
        // What the rules say of the file, found without the report.
        let parsed = std::str::from_utf8(&bytes)
            .ok()
            .and_then(|t| parse_records(t).ok());
        let legal = parsed.as_deref().filter(|r| rules_accept(r));
        match o.status.code() {
            Some(0) => {
                let records = legal
                    .unwrap_or_else(|| panic!("accepted a file the rules refuse: {}", context()));
                let finished = records
                    .iter()
                    .filter(|r| r.result != RecordResult::Unfinished)
                    .count();
                assert!(
                    out.starts_with(&format!("{finished} games from 1 file(s)\n")),
                    "{}",
                    context()
                );
                assert_eq!(printed_rows(&out), expected_rows(records), "{}", context());
                assert!(err.is_empty(), "{}", context());
            }
            Some(2) => {
                let prefix = format!("error: {shown_path}: line ");
                assert!(err.starts_with(&prefix), "{}", context());
                assert_eq!(err.lines().count(), 1, "{}", context());
                let n: usize = err[prefix.len()..]
                    .split(':')
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| panic!("no line number: {}", context()));
                let file_lines = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
                assert!((1..=file_lines).contains(&n), "{}", context());
                // Refused for a reason: the rules or the format refuse it, or a tag the arena
                // writes once is there twice, or a game twice.
                assert!(
                    legal.is_none() || err.contains("a second [") || err.contains("again (first"),
                    "refused a legal file: {}",
                    context()
                );
                assert!(out.is_empty(), "{}", context());
            }
            _ => panic!("neither accepted nor refused: {}", context()),
        }
        if o.status.success() {
            files.0 += 1;
        } else {
            files.1 += 1;
        }
        for k in kinds {
            let t = tally.entry(k).or_default();
            if o.status.success() {
                t.0 += 1;
            } else {
                t.1 += 1;
            }
        }
    }
    eprintln!(
        "arena report fuzz: {runs} damaged files (seed {seed}) in {:.1} s, {} accepted and {} \
         refused (with the undamaged one); by damage (accepted, refused): {tally:?}",
        started.elapsed().as_secs_f64(),
        files.0,
        files.1
    );
}
