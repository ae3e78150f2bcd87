//! protocol.md's example sessions, replayed through the real engine: every fenced block that is a
//! whole session (it starts with `> uci` or `> newgame`, and every line is a `> ` command, a `< `
//! reply or blank) is sent line by line, and the engine's replies are compared with the `< `
//! lines shown, so the protocol's examples cannot drift from the code unnoticed
//! (`scripts/transcript.py` remakes them).
//!
//! What may differ, as protocol.md says: `nps` and `time`. A search that depends on the clock
//! (`go movetime`, `go infinite` until `stop`) reaches a depth of its own, so of its replies only
//! the `bestmove` word is compared, and the `info` lines of an infinite search are left out
//! wherever they come.
//!
//! Evidence: the real binary on protocol.md's own text.

use crate::common;

use std::io::Write;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

/// How long a reply may take (a debug build, a busy machine).
const WAIT: Duration = Duration::from_secs(30);

/// One session block: its first line number in protocol.md and its lines.
struct Session {
    line: usize,
    lines: Vec<String>,
}

/// The session blocks of protocol.md.
fn sessions(text: &str) -> Vec<Session> {
    let mut out = Vec::new();
    let mut block: Option<Session> = None;
    for (i, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            match block.take() {
                Some(b) => {
                    let first = b.lines.first().map_or("", String::as_str);
                    let whole = b
                        .lines
                        .iter()
                        .all(|l| l.is_empty() || l.starts_with("> ") || l.starts_with("< "));
                    if whole && (first == "> uci" || first.starts_with("> newgame ")) {
                        out.push(b);
                    }
                }
                None => {
                    block = Some(Session {
                        line: i + 2,
                        lines: Vec::new(),
                    })
                }
            }
        } else if let Some(b) = &mut block {
            b.lines.push(line.to_string());
        }
    }
    out
}

/// The line with its `nps` and `time` values, which vary from run to run, blanked.
fn masked(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let mut out = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        let varies = i > 0 && matches!(words[i - 1], "nps" | "time") && line.starts_with("info ");
        out.push(if varies { "_" } else { w });
    }
    out.join(" ")
}

/// The engine's next line, skipping `info` lines when `skip_info` (a search that depends on the
/// clock).
fn next(rx: &Receiver<String>, skip_info: bool) -> Result<String, String> {
    loop {
        match rx.recv_timeout(WAIT) {
            Ok(line) if skip_info && line.starts_with("info ") => continue,
            Ok(line) => return Ok(line),
            Err(RecvTimeoutError::Timeout) => return Err(format!("no reply in {WAIT:?}")),
            Err(RecvTimeoutError::Disconnected) => return Err("the engine ended its output".into()),
        }
    }
}

/// Replays one session; the first difference, or `Ok`.
fn replay(session: &Session) -> Result<(), String> {
    let (mut child, mut stdin, rx) = common::spawn_engine(&[]);
    let lines = &session.lines;
    let mut infinite = false;
    let mut i = 0;
    let result = loop {
        let Some(line) = lines.get(i) else {
            break Ok(());
        };
        i += 1;
        let Some(command) = line.strip_prefix("> ") else {
            continue;
        };
        if writeln!(stdin, "{command}").is_err() {
            break Err(format!(
                "line {}: the engine no longer reads",
                session.line + i - 1
            ));
        }
        // The replies shown for this command.
        let mut shown = Vec::new();
        while let Some(reply) = lines.get(i).and_then(|l| l.strip_prefix("< ")) {
            shown.push((session.line + i, reply));
            i += 1;
        }
        let timed = command.starts_with("go movetime");
        if command == "go infinite" {
            infinite = true;
            continue;
        }
        let mut wrong = None;
        for &(at, reply) in &shown {
            if infinite && reply.starts_with("info depth ") {
                continue;
            }
            if timed && !reply.starts_with("bestmove") {
                continue;
            }
            let got = match next(&rx, infinite || timed) {
                Ok(got) => got,
                Err(e) => {
                    wrong = Some(format!("line {at}: `{reply}` expected, but {e}"));
                    break;
                }
            };
            let same = if timed || (infinite && command == "stop") {
                got.starts_with("bestmove ")
            } else {
                masked(&got) == masked(reply)
            };
            if !same {
                wrong = Some(format!(
                    "line {at}: `{reply}` expected, the engine printed `{got}`"
                ));
                break;
            }
        }
        if command == "stop" {
            infinite = false;
        }
        if let Some(w) = wrong {
            break Err(w);
        }
    };
    drop(stdin);
    // Nothing more than shown: after `quit` (or the end of input) the output ends.
    let result = result.and_then(|()| match rx.recv_timeout(WAIT) {
        Ok(extra) => Err(format!("the engine printed more than shown: `{extra}`")),
        Err(RecvTimeoutError::Timeout) => Err("the engine did not end".into()),
        Err(RecvTimeoutError::Disconnected) => Ok(()),
    });
    child.kill().ok();
    child.wait().ok();
    result
}

#[test]
fn protocol_example_sessions_are_what_the_engine_prints() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../protocol.md"))
        .expect("protocol.md");
    let sessions = sessions(&text);
    // The four of "Example sessions" and the solve's; a parser that found none would pass.
    assert!(
        sessions.len() >= 4,
        "only {} sessions found",
        sessions.len()
    );
    let wrong: Vec<String> = sessions
        .iter()
        .filter_map(|s| {
            replay(s)
                .err()
                .map(|e| format!("protocol.md session at line {}: {e}", s.line))
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn masking_blanks_only_what_varies() {
    assert_eq!(
        masked("info depth 2 score cp 5 nodes 16 nps 195121 time 3 pv b3a2"),
        "info depth 2 score cp 5 nodes 16 nps _ time _ pv b3a2"
    );
    assert_eq!(masked("bestmove time"), "bestmove time");
    assert_ne!(
        masked("info depth 2 nodes 16 nps 1 time 0"),
        masked("info depth 2 nodes 17 nps 1 time 0")
    );
}
