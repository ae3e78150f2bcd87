//! protocol.md's error section, replayed through the real engine: every example of its table of
//! error codes (and the examples of its list of which check comes first) is sent to a fresh engine
//! after the lines that set up its context, and must get exactly one `error` line with the code
//! the page gives it. The examples are read from the page: an example the test does not know, or
//! one the page no longer shows, fails the test, so that the page and the engine cannot drift
//! apart unnoticed.
//!
//! Evidence: the real binary on protocol.md's own text.

use crate::common;

use std::collections::BTreeSet;
use std::io::Write;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

/// How long a reply may take (a debug build, a busy machine).
const WAIT: Duration = Duration::from_secs(30);

/// The text of protocol.md.
fn protocol() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../protocol.md");
    std::fs::read_to_string(path).expect("protocol.md is readable")
}

/// The `## Errors` section of protocol.md.
fn errors_section(text: &str) -> &str {
    let start = text
        .find("\n## Errors\n")
        .expect("protocol.md has '## Errors'");
    let rest = &text[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |e| e + 3);
    &rest[..end]
}

/// The examples of the table of error codes: (code, example as the page writes it), one per
/// comma-separated item of the examples column.
fn table_examples(section: &str) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for line in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split(" | ").collect();
        let code = cells[0].trim_start_matches("| ").trim_matches('`');
        let examples = cells.last().unwrap().trim_end_matches(" |").trim();
        for example in examples.split(", ").filter(|e| !e.is_empty() && *e != "|") {
            out.insert((code.to_string(), example.to_string()));
        }
    }
    out
}

/// The examples of the list of which check comes first: each "`LINE` is `CODE`" of the section.
fn order_examples(section: &str) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    let quoted: Vec<&str> = section.split('`').collect();
    // quoted[1], quoted[3], ... are the quoted words; "LINE` is `CODE" puts " is " between.
    for i in (1..quoted.len().saturating_sub(2)).step_by(2) {
        let between: Vec<&str> = quoted[i + 1].split_whitespace().collect();
        if between == ["is"] && !quoted[i + 2].contains(' ') {
            let line: Vec<&str> = quoted[i].split_whitespace().collect();
            out.insert((quoted[i + 2].to_string(), line.join(" ")));
        }
    }
    out
}

/// One documented case: the page's example, the lines that set up its context (no reply
/// expected), the line sent (raw bytes, without the newline), and what follows it.
struct Case {
    example: &'static str,
    code: &'static str,
    setup: Vec<String>,
    line: Vec<u8>,
    /// A search is running: `stop` it after the error.
    searching: bool,
}

fn case(code: &'static str, example: &'static str, setup: &[&str], line: &str) -> Case {
    Case {
        example,
        code,
        setup: setup.iter().map(|s| s.to_string()).collect(),
        line: line.as_bytes().to_vec(),
        searching: setup.contains(&"go infinite"),
    }
}

/// The same, for an example that is the line itself.
fn plain(code: &'static str, line: &'static str) -> Case {
    case(code, line, &[], line.trim_matches('`'))
}

/// Every documented error case, as this test replays it.
fn cases() -> Vec<Case> {
    let hexapawn_12 = vec!["-".repeat(12); 12].join("/");
    let long = format!("position startpos moves {}", "a1a2 ".repeat(2 << 20 >> 2));
    let mut all = vec![
        plain("unknown-command", "`hello`"),
        plain("unknown-command", "`ucinewgame`"),
        plain("syntax", "`go`"),
        plain("syntax", "`go depth x`"),
        plain("syntax", "`go depth +3`"),
        plain("syntax", "`uci now`"),
        case("syntax", "`uci\\x0b`", &[], "uci\x0b"),
        plain("syntax", "`position startpos moves zz`"),
        plain("syntax", "`position startpos moves`"),
        plain("syntax", "`position board w@w/---/bbb w`"),
        plain("bad-value", "`go depth 0`"),
        plain("bad-value", "`go depth 99999999999`"),
        plain("bad-value", "`newgame chess 8`"),
        plain("bad-value", "`newgame OSKA 4`"),
        plain("bad-value", "`setoption name Hash value 0`"),
        plain("bad-value", "`setoption name Hash value +16`"),
        plain("bad-value", "`setoption name MultiPV value 0`"),
        plain("bad-value", "`setoption name Evaluator value best`"),
        plain("unsupported", "`newgame oska 12`"),
        case(
            "unsupported",
            "a 12 x 12 board in Hexapawn",
            &["newgame hexapawn 3"],
            &format!("position board {hexapawn_12} w"),
        ),
        plain("unsupported", "`setoption name Ponder value true`"),
        case(
            "bad-position",
            "`position board www/---/bbb w` in Oska",
            &["newgame oska 4"],
            "position board www/---/bbb w",
        ),
        case(
            "bad-position",
            "a `W` in Hexapawn",
            &["newgame hexapawn 3"],
            "position board wWw/---/bbb w",
        ),
        case(
            "bad-position",
            "a 23-character ctf string",
            &["newgame ctf 5"],
            "position board -wWw--www-----bbb--bBb- w",
        ),
        case(
            "bad-position",
            "a history that is not a game",
            &["newgame hexapawn 3"],
            "position board w-w/-w-/-bb b history www/www/www",
        ),
        plain("illegal-move", "`position startpos moves a1a3`"),
        case(
            "illegal-move",
            "`pass` when a move exists",
            &["newgame oska 4"],
            "position startpos moves pass",
        ),
        case(
            "illegal-move",
            "a move after the game ended",
            &["newgame hexapawn 3"],
            "position board --b/w--/--- w moves a2a3",
        ),
        case(
            "busy",
            "`go depth 3` during `go infinite`",
            &["go infinite"],
            "go depth 3",
        ),
        case(
            "too-long",
            "a `position startpos moves ...` of 2 MiB",
            &[],
            &long,
        ),
        // The list of which check comes first.
        plain("bad-value", "newgame chess x"),
        plain("syntax", "go depth x"),
        plain("syntax", "position startpos moves a1a2 zz"),
        plain("unsupported", "setoption name Ponder value x"),
    ];
    // "also during a search"
    all.push(case(
        "syntax",
        "position startpos moves a1a2 zz",
        &["go infinite"],
        "position startpos moves a1a2 zz",
    ));
    all
}

fn next(rx: &Receiver<String>) -> Result<String, String> {
    loop {
        match rx.recv_timeout(WAIT) {
            Ok(line) if line.starts_with("info ") => continue,
            Ok(line) => return Ok(line),
            Err(RecvTimeoutError::Timeout) => return Err(format!("no reply in {WAIT:?}")),
            Err(RecvTimeoutError::Disconnected) => return Err("the engine ended its output".into()),
        }
    }
}

/// Replays one case on a fresh engine: exactly one `error CODE` line, then the engine still
/// answers `isready`.
fn replay(c: &Case) -> Result<(), String> {
    let (mut child, mut stdin, rx) = common::spawn_engine(&[]);
    let mut send = |bytes: &[u8]| -> Result<(), String> {
        stdin
            .write_all(bytes)
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("cannot write to the engine: {e}"))
    };
    let result = (|| {
        for line in &c.setup {
            send(line.as_bytes())?;
        }
        send(&c.line)?;
        let reply = next(&rx)?;
        let wanted = format!("error {} ", c.code);
        if !reply.starts_with(&wanted) {
            return Err(format!("got '{reply}', expected 'error {} ...'", c.code));
        }
        if c.searching {
            send(b"stop")?;
            let best = next(&rx)?;
            if !best.starts_with("bestmove ") {
                return Err(format!(
                    "after the error: '{best}' where 'bestmove' was due"
                ));
            }
        }
        send(b"isready")?;
        match next(&rx)? {
            r if r == "readyok" => Ok(()),
            r => Err(format!("a second reply '{r}' before 'readyok'")),
        }
    })();
    let _ = send(b"quit");
    let _ = child.wait();
    result
}

#[test]
fn every_documented_error_case_is_tested() {
    let text = protocol();
    let section = errors_section(&text);
    let documented: BTreeSet<(String, String)> = table_examples(section)
        .into_iter()
        .chain(order_examples(section))
        .collect();
    let tested: BTreeSet<(String, String)> = cases()
        .iter()
        .map(|c| (c.code.to_string(), c.example.to_string()))
        .collect();
    let untested: Vec<_> = documented.difference(&tested).collect();
    let gone: Vec<_> = tested.difference(&documented).collect();
    assert!(
        untested.is_empty() && gone.is_empty(),
        "protocol.md's error examples and this test's differ: on the page only {untested:?}; \
         here only {gone:?}"
    );
}

#[test]
fn every_documented_error_case_gets_its_code() {
    let failures: Vec<String> = cases()
        .iter()
        .filter_map(|c| {
            replay(c)
                .err()
                .map(|e| format!("{} ({}): {e}", c.example, c.code))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
