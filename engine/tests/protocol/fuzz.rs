//! A seeded fuzz test of the protocol through the real `engine` binary (issue 33): commands of
//! protocol.md's grammar with random arguments on every game and size, the same mutated (bytes
//! replaced, inserted, deleted; words swapped, doubled, cased; numbers made huge, signed,
//! padded), random bytes (control bytes, invalid UTF-8, other scripts), lines longer than the
//! 1 MiB limit, `go` with small limits, endless searches stopped later, `setoption` with odd
//! values. After each line the fuzzer sends `show`, an unknown command as a marker, and now and
//! then `legal` and `isready`, and checks what protocol.md promises:
//!
//! - the process never exits except on `quit`, and then with status 0;
//! - every `isready` is answered `readyok` and every marker its error, within a generous time;
//! - every output line is printable ASCII and spaces, and parses as a reply of the grammar;
//! - a refused line gets exactly one `error` line and nothing else, and changes nothing: the
//!   board (`show`) and the options the fuzzer can observe (MultiPV and Trace, checked now and
//!   then by a `go depth 1`) stay as they were; an accepted line other than `newgame` and
//!   `position` leaves the board as it was;
//! - `bestmove` comes only after an accepted `go`, and every search ends at `stop`.
//!
//! `FUZZ_LINES` (default 100 000) sets the number of fuzzed lines, `FUZZ_SEED` (default 33) the
//! seed; a failure names both, the line and the last exchanges. `FUZZ_LOG=FILE` keeps every byte
//! sent since the engine's last start, to replay a failure with `engine < FILE`. The figures are
//! printed at the end (run with `--nocapture` to see them).

use crate::common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use boardgames_core::games::GameKind;
use boardgames_core::protocol::Reply;
use common::Rng;

/// Generous: the machine is shared, the build may be a debug one, and a search may be running.
const PATIENCE: Duration = Duration::from_secs(60);

/// The protocol's longest line (protocol.md: 1 MiB, the line ending excluded).
const MAX_LINE: usize = 1 << 20;

/// A number from the environment, or the default.
fn setting(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v:?} is not a whole number")),
        Err(_) => default,
    }
}

/// The engine, its input and its output lines as raw bytes (without the `\n`).
struct Engine {
    child: Child,
    stdin: ChildStdin,
    /// The lines, in batches of those that were read together (fewer wake-ups).
    batches: Receiver<Vec<Vec<u8>>>,
    /// Lines received and not yet taken.
    pending: std::collections::VecDeque<Vec<u8>>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = common::start_engine(&[], Stdio::null());
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, batches) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut batch = Vec::new();
                // One line, waiting for it, then those already buffered.
                while batch.is_empty() || reader.buffer().contains(&b'\n') {
                    let mut line = Vec::new();
                    match reader.read_until(b'\n', &mut line) {
                        Ok(0) | Err(_) => {
                            let _ = tx.send(batch);
                            return;
                        }
                        Ok(_) => {
                            if line.last() == Some(&b'\n') {
                                line.pop();
                            }
                            batch.push(line);
                        }
                    }
                }
                if tx.send(batch).is_err() {
                    return;
                }
            }
        });
        Engine {
            child,
            stdin,
            batches,
            pending: std::collections::VecDeque::new(),
        }
    }

    /// The next output line, waiting at most `patience`; `Disconnected` once the output ended.
    fn line(&mut self, patience: Duration) -> Result<Vec<u8>, RecvTimeoutError> {
        while self.pending.is_empty() {
            let batch = self.batches.recv_timeout(patience)?;
            if batch.is_empty() {
                return Err(RecvTimeoutError::Disconnected);
            }
            self.pending.extend(batch);
        }
        Ok(self.pending.pop_front().expect("not empty"))
    }
}

/// What the fuzzer believes of the session: the options it can observe.
#[derive(Clone, Debug, PartialEq)]
struct Options {
    multipv: u64,
    trace: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            multipv: 1,
            trace: false,
        }
    }
}

/// Counts for the report.
#[derive(Default)]
struct Figures {
    lines: u64,
    bytes: u64,
    errors: BTreeMap<String, u64>,
    searches: u64,
    stopped: u64,
    quits: u64,
    too_long: u64,
    option_checks: u64,
}

/// The fuzzer: the engine, the generator and what it knows of the session.
struct Fuzz {
    seed: u64,
    rng: Rng,
    engine: Engine,
    /// The `show` reply (board and result lines) after the last line.
    shown: Vec<String>,
    /// The legal moves after the last line.
    legal: Vec<String>,
    options: Options,
    /// Whether a search runs (an accepted `go` whose `bestmove` has not come), and since when.
    running: Option<u64>,
    step: u64,
    marker: u64,
    figures: Figures,
    /// A directory and a regular file for `TablebasePath` values.
    dir: std::path::PathBuf,
    /// The last exchanges (what was sent, what came back), for a failure's message.
    recent: std::collections::VecDeque<(Vec<u8>, Vec<String>)>,
    /// `FUZZ_LOG`: a file that gets every byte sent to the engine (since its last start), to
    /// replay a failure with `engine < FILE`.
    log: Option<std::fs::File>,
}

/// The first word of a line, as the engine splits words (spaces and tabs).
fn first_word(line: &[u8]) -> &[u8] {
    let start = line
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(line.len());
    let rest = &line[start..];
    let end = rest
        .iter()
        .position(|&b| b == b' ' || b == b'\t')
        .unwrap_or(rest.len());
    &rest[..end]
}

/// A line for messages: printable, bounded.
fn shown(line: &[u8]) -> String {
    let text = line.escape_ascii().to_string();
    if text.len() > 300 {
        format!("{}... ({} bytes)", &text[..300], line.len())
    } else {
        text
    }
}

/// The number of `bestmove` lines.
fn bestmoves(lines: &[String]) -> usize {
    lines.iter().filter(|l| l.starts_with("bestmove")).count()
}

/// Lines the running search prints, at any time.
fn search_line(l: &str) -> bool {
    l.starts_with("info ")
        || l.starts_with("bestmove")
        || l.starts_with("perft ")
        || l.starts_with("nodes ")
}

impl Fuzz {
    fn new(seed: u64, dir: std::path::PathBuf) -> Fuzz {
        let mut f = Fuzz {
            seed,
            rng: Rng::new(seed),
            engine: Engine::start(),
            shown: Vec::new(),
            legal: Vec::new(),
            options: Options::default(),
            running: None,
            step: 0,
            marker: 0,
            figures: Figures::default(),
            dir,
            recent: std::collections::VecDeque::new(),
            log: std::env::var_os("FUZZ_LOG").map(|p| std::fs::File::create(p).unwrap()),
        };
        f.exchange(b"setoption name Hash value 1", true);
        f
    }

    fn fail(&self, line: &[u8], why: &str) -> ! {
        let recent: Vec<String> = self
            .recent
            .iter()
            .map(|(sent, got)| format!("{} -> {got:?}", shown(sent)))
            .collect();
        panic!(
            "FUZZ_SEED={} line {} {:?}: {why}\nthe last exchanges: {recent:#?}",
            self.seed,
            self.step,
            shown(line)
        );
    }

    /// Sends `line`, then `show`, `legal` (when asked), a marker and `isready`; returns the lines the engine
    /// wrote before the `show` reply (the line's own and the search's), or `None` when the
    /// engine exited. Checks every output line, updates the board, the legal moves and whether
    /// a search runs.
    fn exchange(&mut self, line: &[u8], with_legal: bool) -> Option<Vec<String>> {
        self.marker += 1;
        let marker = format!("zz-sync-{}", self.marker);
        let mut input = line.to_vec();
        let legal = if with_legal { "legal\n" } else { "" };
        // `isready` after every 8th line (the marker's answer alone shows that the line was
        // read and answered; fuzzed `isready` lines are checked too).
        let ready = with_legal || self.marker.is_multiple_of(8);
        let isready = if ready { "isready\n" } else { "" };
        input.extend_from_slice(format!("\nshow\n{legal}{marker}\n{isready}").as_bytes());
        if let Some(log) = &mut self.log {
            log.write_all(&input).unwrap();
        }
        if self.engine.stdin.write_all(&input).is_err() || self.engine.stdin.flush().is_err() {
            return None;
        }
        let mut got: Vec<String> = Vec::new();
        let mut marked = false;
        loop {
            let raw = match self.engine.line(PATIENCE) {
                Ok(raw) => raw,
                Err(RecvTimeoutError::Disconnected) => return None,
                Err(RecvTimeoutError::Timeout) => self.fail(
                    line,
                    &format!("no answer to the probes within {PATIENCE:?}; got {got:?}"),
                ),
            };
            if let Some(b) = raw.iter().find(|&&b| !(b' '..=b'~').contains(&b)) {
                self.fail(line, &format!("output byte {b:#04x} in {:?}", shown(&raw)));
            }
            let text = String::from_utf8(raw).expect("checked ASCII");
            if let Err(e) = Reply::parse(&text) {
                self.fail(
                    line,
                    &format!("the reply {text:?} is not of the grammar: {e}"),
                );
            }
            // The marker's error, and then the readyok when asked for (a search line may come
            // between them).
            let mark = text.starts_with("error unknown-command") && text.contains(&marker);
            let done = (marked && text == "readyok") || (mark && !ready);
            marked |= mark;
            got.push(text);
            if done {
                break;
            }
        }
        if self.recent.len() == 8 {
            self.recent.pop_front();
        }
        self.recent.push_back((line.to_vec(), got.clone()));
        // From the end: readyok, the marker's error, legal, result, board; search lines may
        // come between them.
        let mut own: Vec<String> = got.clone();
        let mut suffix = Vec::new();
        let wanted = ["readyok", "error", "legal", "result", "board"];
        for want in wanted
            .into_iter()
            .filter(|&w| (ready || w != "readyok") && (with_legal || w != "legal"))
        {
            loop {
                let Some(l) = own.pop() else {
                    self.fail(line, &format!("no '{want}' reply to the probes: {got:?}"));
                };
                if l.starts_with(want) {
                    suffix.push(l);
                    break;
                }
                if !search_line(&l) {
                    self.fail(line, &format!("'{l}' where '{want}' was expected: {got:?}"));
                }
            }
        }
        let expected_marker = format!("error unknown-command '{marker}' is not a command");
        let at = usize::from(ready);
        if suffix[at] != expected_marker {
            self.fail(line, &format!("the marker got {:?}", suffix[at]));
        }
        let n = suffix.len();
        self.shown = vec![suffix[n - 1].clone(), suffix[n - 2].clone()];
        if with_legal {
            self.legal = suffix[at + 1]
                .split(' ')
                .skip(1)
                .map(str::to_string)
                .collect();
        }
        // The search lines among the probes' replies belong with the line's own.
        own.extend(got[own.len()..].iter().filter(|l| search_line(l)).cloned());
        Some(own)
    }

    /// Ends a running search with `stop`; checks that it prints its `bestmove`.
    fn stop(&mut self) {
        if self.running.is_some() {
            let out = self
                .exchange(b"stop", false)
                .unwrap_or_else(|| self.fail(b"stop", "the engine exited"));
            if bestmoves(&out) != 1 {
                self.fail(b"stop", &format!("not one bestmove after stop: {out:?}"));
            }
            self.running = None;
            self.figures.stopped += 1;
        }
    }

    /// Feeds one fuzzed line and checks the answer.
    fn feed(&mut self, line: Vec<u8>) {
        self.step += 1;
        self.figures.lines += 1;
        self.figures.bytes += line.len() as u64 + 1;
        let before = self.shown.clone();
        let was_running = self.running.is_some();
        let word = first_word(&line).to_vec();
        // The legal moves change only with the board.
        let with_legal = word == b"newgame" || word == b"position";
        let Some(own) = self.exchange(&line, with_legal) else {
            // Only `quit` ends the session (blanks around it allowed; one `\r` at the end is
            // dropped as part of the line ending).
            let status = self.engine.child.wait().unwrap();
            let text = line.strip_suffix(b"\r").unwrap_or(&line);
            let trimmed = String::from_utf8_lossy(text);
            if trimmed.trim_matches([' ', '\t']) != "quit" {
                self.fail(&line, &format!("the engine exited ({status})"));
            }
            if !status.success() {
                self.fail(&line, &format!("quit ended the engine with {status}"));
            }
            self.figures.quits += 1;
            if let Some(log) = &mut self.log {
                log.set_len(0).unwrap();
                std::io::Seek::rewind(log).unwrap();
            }
            self.engine = Engine::start();
            self.options = Options::default();
            self.running = None;
            self.exchange(b"setoption name Hash value 1", true);
            return;
        };
        let replies: Vec<&String> = own.iter().filter(|l| !search_line(l)).collect();
        let errors: Vec<&&String> = replies.iter().filter(|l| l.starts_with("error")).collect();
        let accepted_go = errors.is_empty() && word == b"go";
        match errors.as_slice() {
            [] => {
                if word == b"isready" && !own.iter().any(|l| l == "readyok") {
                    self.fail(&line, &format!("no readyok: {own:?}"));
                }
                if word != b"newgame" && word != b"position" && self.shown != before {
                    self.fail(
                        &line,
                        &format!("the board changed: {before:?} -> {:?}", self.shown),
                    );
                }
                if word == b"setoption" {
                    self.note_option(&line);
                }
            }
            [e] => {
                let code = e.split(' ').nth(1).unwrap_or("").to_string();
                if code == "too-long" {
                    self.figures.too_long += 1;
                }
                *self.figures.errors.entry(code).or_default() += 1;
                if replies.len() != 1 {
                    self.fail(
                        &line,
                        &format!("a refused line got more than its error: {own:?}"),
                    );
                }
                if self.shown != before {
                    self.fail(
                        &line,
                        &format!(
                            "a refused line changed the board: {before:?} -> {:?}",
                            self.shown
                        ),
                    );
                }
                // A refused setoption of the options the fuzzer can observe.
                let text = String::from_utf8_lossy(&line).to_ascii_lowercase();
                let observed = text.contains("multipv") || text.contains("trace");
                if word == b"setoption" && observed && self.running.is_none() {
                    self.check_options(&line);
                }
            }
            _ => self.fail(&line, &format!("more than one error: {own:?}")),
        }
        // Searches in flight: the one running before, one more for an accepted `go` (a `go`
        // while one runs is refused as busy, unless that one has just ended), less one for each
        // `bestmove`. Never below 0 (a bestmove without a search) or above 1.
        if accepted_go {
            self.figures.searches += 1;
        }
        let in_flight = i64::from(was_running) + i64::from(accepted_go) - bestmoves(&own) as i64;
        match in_flight {
            0 => self.running = None,
            1 => {
                if !was_running || accepted_go {
                    self.running = Some(self.step);
                }
            }
            n => self.fail(&line, &format!("{n} searches in flight: {own:?}")),
        }
        // Searches run a while (lines meanwhile meet `error busy`), then are stopped.
        if self.running.is_some_and(|since| self.step - since > 6) {
            self.stop();
        }
        if self.step.is_multiple_of(2000) {
            self.check_options(&line);
        }
    }

    /// Applies an accepted `setoption` to the options the fuzzer follows.
    fn note_option(&mut self, line: &[u8]) {
        let text = String::from_utf8_lossy(line).into_owned();
        let words: Vec<&str> = text
            .split([' ', '\t', '\r'])
            .filter(|w| !w.is_empty())
            .collect();
        let [_, _, name, _, value] = words[..] else {
            self.fail(line, "an accepted setoption that is not of five words");
        };
        match name.to_ascii_lowercase().as_str() {
            "multipv" => {
                self.options.multipv = value
                    .parse()
                    .unwrap_or_else(|_| self.fail(line, "an accepted MultiPV that is no number"))
            }
            "trace" => self.options.trace = value.eq_ignore_ascii_case("true"),
            _ => {}
        }
    }

    /// Checks MultiPV and Trace by a `go depth 1` (when no search runs and the game goes on):
    /// as many `info depth 1` lines as the lesser of MultiPV and the legal moves, `info trace`
    /// lines exactly when Trace is on.
    fn check_options(&mut self, after: &[u8]) {
        self.stop();
        if self.legal.is_empty() {
            return;
        }
        self.figures.option_checks += 1;
        let moves = self.legal.len() as u64;
        let mut out = self
            .exchange(b"go depth 1", false)
            .unwrap_or_else(|| self.fail(after, "the engine exited on go depth 1"));
        // The search may end after the probes were answered.
        while bestmoves(&out) == 0 {
            match self.engine.line(PATIENCE) {
                Ok(raw) => out.push(String::from_utf8_lossy(&raw).into_owned()),
                Err(e) => self.fail(after, &format!("go depth 1 did not end: {e:?} {out:?}")),
            }
        }
        if bestmoves(&out) != 1 || out.iter().any(|l| l.starts_with("error")) {
            self.fail(after, &format!("go depth 1: {out:?}"));
        }
        let lines = out
            .iter()
            .filter(|l| l.starts_with("info depth 1 "))
            .count() as u64;
        let traced = out.iter().any(|l| l.starts_with("info trace "));
        let want = self.options.multipv.min(moves);
        if lines != want || traced != self.options.trace {
            self.fail(
                after,
                &format!(
                    "options: {:?} with {moves} legal moves, yet {lines} depth-1 lines and trace {traced}: {out:?}",
                    self.options
                ),
            );
        }
    }

    // The generator.

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.rng.below(items.len())]
    }

    fn chance(&mut self, n: usize) -> bool {
        self.rng.below(n) == 0
    }

    /// A number as the fuzzer writes it: mostly small, sometimes at or past a type's end.
    fn number(&mut self, small: u64) -> String {
        match self.rng.below(20) {
            0 => self
                .pick(&[
                    "0",
                    "4294967295",
                    "4294967296",
                    "18446744073709551615",
                    "18446744073709551616",
                    "99999999999999999999999999",
                    "-1",
                    "+3",
                    "007",
                    "1e3",
                    "0x10",
                    "",
                    "3.5",
                ])
                .to_string(),
            _ => (1 + self.rng.below(small as usize) as u64).to_string(),
        }
    }

    /// A valid-looking command of the grammar with random arguments.
    fn command(&mut self) -> String {
        match self.rng.below(24) {
            0 => "uci".into(),
            1 | 2 => "isready".into(),
            3..=5 => {
                let kind = GameKind::ALL[self.rng.below(GameKind::ALL.len())];
                let (lo, hi) = kind.size_range();
                let size = if self.chance(8) {
                    self.number(20)
                } else {
                    self.rng.range(lo, hi).to_string()
                };
                let name = if self.chance(20) {
                    self.pick(&["capture", "CTF", "chess", "Oska"])
                } else {
                    kind.name()
                };
                format!("newgame {name} {size}")
            }
            6..=8 => self.setoption(),
            9..=11 => self.position(),
            12..=16 => self.go(),
            17 | 18 => "stop".into(),
            19 => "show".into(),
            20 => "legal".into(),
            21 => self
                .pick(&["", "   ", "\t", "# a comment", "#", "  # also a comment \t"])
                .into(),
            22 => {
                if self.chance(50) {
                    "quit".into()
                } else {
                    "isready".into()
                }
            }
            _ => self
                .pick(&[
                    "bestmove a1a2",
                    "readyok",
                    "go",
                    "position",
                    "setoption",
                    "info",
                ])
                .into(),
        }
    }

    fn setoption(&mut self) -> String {
        let name = self.pick(&[
            "Hash",
            "hash",
            "Trace",
            "TRACE",
            "Evaluator",
            "MultiPV",
            "multipv",
            "TablebasePath",
            "Threads",
            "",
        ]);
        let dir = self.dir.display().to_string();
        let file = self.dir.join("file").display().to_string();
        let missing = self.dir.join("missing").display().to_string();
        let value = match name.to_ascii_lowercase().as_str() {
            // Small tables: each `newgame` after a search clears them (a 16 MiB table costs
            // milliseconds in a debug build).
            "hash" => self
                .pick(&["1", "2", "1", "0", "1048577", "-1", "abc", "1.5"])
                .into(),
            "trace" => self
                .pick(&["true", "false", "TRUE", "False", "yes", "1", ""])
                .into(),
            "evaluator" => self
                .pick(&["tuned", "material", "TUNED", "nonsense", "classic-race"])
                .into(),
            "multipv" => self.number(5),
            "tablebasepath" => {
                let values = [dir.as_str(), file.as_str(), missing.as_str(), "<empty>"];
                self.pick(&values).to_string()
            }
            _ => self.number(10),
        };
        if self.chance(10) {
            format!("setoption name {name}")
        } else {
            format!("setoption name {name} value {value}")
        }
    }

    fn position(&mut self) -> String {
        let moves = |f: &mut Fuzz, n: usize| -> String {
            (0..n)
                .map(|_| {
                    if !f.legal.is_empty() && !f.chance(4) {
                        let i = f.rng.below(f.legal.len());
                        f.legal[i].clone()
                    } else {
                        f.pick(&["a1a2", "pass", "b2c3", "z9z9", "a1", "e1d1"])
                            .into()
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        let board: Vec<String> = self.shown[0].split(' ').map(str::to_string).collect();
        let setup = match self.rng.below(4) {
            0 => "startpos".to_string(),
            1 => format!("board {} {}", board[3], board[4]),
            2 => format!("board {} {} history {}", board[3], board[4], board[3]),
            _ => format!(
                "board {} {}",
                self.pick(&[
                    "www/---/bbb",
                    "wwww/---/--/---/bbbb",
                    "-wWw--www-------bbb--bBb-"
                ]),
                self.pick(&["w", "b", "x"])
            ),
        };
        let n = self.rng.below(3);
        if n == 0 {
            format!("position {setup}")
        } else {
            let m = moves(self, n);
            format!("position {setup} moves {m}")
        }
    }

    fn go(&mut self) -> String {
        match self.rng.below(14) {
            0..=2 => format!("go depth {}", self.number(2)),
            3 | 4 => format!("go nodes {}", self.number(300)),
            5 | 6 => format!("go movetime {}", self.number(3)),
            7 | 8 => format!("go perft {}", self.number(2)),
            9 => format!(
                "go wtime {} btime {} winc {} movestogo {}",
                self.number(100),
                self.number(100),
                self.number(5),
                self.number(10)
            ),
            10 => "go infinite".into(),
            11 => "go solve".into(),
            12 => format!("go depth {} movetime 5", self.number(3)),
            _ => "go".into(),
        }
    }

    /// A line of the grammar, mutated.
    fn mutated(&mut self) -> Vec<u8> {
        let mut line = self.command().into_bytes();
        for _ in 0..1 + self.rng.below(3) {
            let at = self.rng.below(line.len() + 1);
            match self.rng.below(10) {
                0 | 1 => {
                    if at < line.len() {
                        line[at] = self.rng.below(256) as u8;
                    }
                }
                2 => line.insert(at, self.rng.below(256) as u8),
                3 => {
                    if at < line.len() {
                        line.remove(at);
                    }
                }
                4 => line.insert(at, [b'\t', b'\r', 0x0b, 0, 0x1b][self.rng.below(5)]),
                5 => {
                    let text = String::from_utf8_lossy(&line).into_owned();
                    let mut words: Vec<&str> = text.split(' ').collect();
                    let (i, j) = (self.rng.below(words.len()), self.rng.below(words.len()));
                    words.swap(i, j);
                    line = words.join(" ").into_bytes();
                }
                6 => {
                    let text = String::from_utf8_lossy(&line).into_owned();
                    let mut words: Vec<String> = text.split(' ').map(str::to_string).collect();
                    let i = self.rng.below(words.len());
                    let w = words[i].clone();
                    words.insert(i, w);
                    line = words.join(" ").into_bytes();
                }
                7 => line = line.to_ascii_uppercase(),
                8 => {
                    let text = String::from_utf8_lossy(&line).into_owned();
                    let mut words: Vec<String> = text.split(' ').map(str::to_string).collect();
                    let i = self.rng.below(words.len());
                    words[i] = self.number(10);
                    line = words.join(" ").into_bytes();
                }
                _ => line.extend_from_slice(
                    self.pick(&["\r", " \u{a0}", "\u{3000}", "\u{661}", " extra", "\t\t"])
                        .as_bytes(),
                ),
            }
        }
        line
    }

    /// Random bytes, any but `\n`.
    fn random_bytes(&mut self) -> Vec<u8> {
        let n = self.rng.below(64);
        (0..n)
            .map(|_| match self.rng.below(256) as u8 {
                b'\n' => b'\r',
                b => b,
            })
            .collect()
    }

    /// A line just past the limit (refused as too long), or at it (a comment: no reply).
    fn long_line(&mut self) -> Vec<u8> {
        if self.chance(2) {
            let mut line = b"# ".to_vec();
            line.resize(MAX_LINE, b'x');
            line
        } else {
            let mut line = b"go depth 1 ".to_vec();
            line.resize(MAX_LINE + 1 + self.rng.below(1000), b'y');
            line
        }
    }

    /// The next line to feed. Never one that sets a hash table above 64 MiB (memory).
    fn next_line(&mut self) -> Vec<u8> {
        loop {
            let line = match self.rng.below(100) {
                0..=54 => self.command().into_bytes(),
                55..=87 => self.mutated(),
                88..=98 => self.random_bytes(),
                _ if self.chance(100) => self.long_line(),
                _ => self.random_bytes(),
            };
            if line.contains(&b'\n')
                || self.huge_hash(&line)
                || line.windows(7).any(|w| w == b"zz-sync")
            {
                continue;
            }
            return line;
        }
    }

    /// Whether the line might set Hash above 64 MiB (anything up to the memory free is accepted).
    fn huge_hash(&self, line: &[u8]) -> bool {
        let text = String::from_utf8_lossy(line).to_ascii_lowercase();
        text.contains("hash")
            && text
                .split(|c: char| !c.is_ascii_digit())
                .any(|d| d.parse::<u64>().map_or(!d.is_empty(), |n| n >= 65))
    }
}

#[test]
fn the_engine_survives_fuzzed_protocol_lines() {
    let lines = setting("FUZZ_LINES", 100_000);
    let seed = setting("FUZZ_SEED", 33);
    let dir = std::env::temp_dir().join(format!("engine-fuzz-{}-{seed}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("file"), b"not a table").unwrap();
    let start = Instant::now();
    let mut fuzz = Fuzz::new(seed, dir.clone());
    while fuzz.figures.lines < lines {
        let line = fuzz.next_line();
        fuzz.feed(line);
    }
    fuzz.stop();
    fuzz.check_options(b"(the end)");
    writeln!(fuzz.engine.stdin, "quit").unwrap();
    let status = fuzz.engine.child.wait().unwrap();
    assert!(status.success(), "{status}");
    let _ = std::fs::remove_dir_all(&dir);
    let f = &fuzz.figures;
    let refused: u64 = f.errors.values().sum();
    eprintln!(
        "fuzz: seed {seed}, {} lines ({} bytes) in {:.1} s: {refused} refused {:?}, {} searches \
         ({} stopped), {} quits, {} lines too long, {} option checks",
        f.lines,
        f.bytes,
        start.elapsed().as_secs_f64(),
        f.errors,
        f.searches,
        f.stopped,
        f.quits,
        f.too_long,
        f.option_checks
    );
    // The fuzzer reached every kind of answer it aims at.
    assert!(
        refused > lines / 10 && refused < lines * 9 / 10,
        "{refused}"
    );
    assert!(f.searches > lines / 100, "{}", f.searches);
    for code in ["syntax", "bad-value", "unknown-command", "busy"] {
        assert!(
            f.errors.contains_key(code),
            "no '{code}' errors: {:?}",
            f.errors
        );
    }
}

/// Found by the fuzzer (issue 33, item 2): with a tables directory set, a search on Oska 11 (128
/// squares) panicked the search thread, and every later `go` answered `bestmove none`. Every size
/// of every game searches with an empty tables directory set.
#[test]
fn every_game_and_size_searches_with_a_tables_directory_set() {
    let dir = std::env::temp_dir().join(format!("engine-fuzz-tables-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut child, mut stdin, lines) = common::spawn_engine(&[]);
    writeln!(
        stdin,
        "setoption name TablebasePath value {}",
        dir.display()
    )
    .unwrap();
    for kind in GameKind::ALL {
        let (lo, hi) = kind.size_range();
        for size in lo..=hi {
            writeln!(stdin, "newgame {kind} {size}\ngo depth 1\nlegal").unwrap();
            let mut got = Vec::new();
            let (mut best, mut legal) = (None, None);
            while best.is_none() || legal.is_none() {
                match lines.recv_timeout(PATIENCE) {
                    Ok(l) if l.starts_with("bestmove") => best = Some(l),
                    Ok(l) if l.starts_with("legal") => legal = Some(l),
                    Ok(l) => got.push(l),
                    Err(e) => panic!("{kind} {size}: {e:?} after {got:?}"),
                }
            }
            let (best, legal) = (best.unwrap(), legal.unwrap());
            let mv = best.strip_prefix("bestmove ").unwrap();
            assert!(
                legal.split(' ').skip(1).any(|m| m == mv),
                "{kind} {size}: {best} is not among '{legal}' ({got:?})"
            );
            assert!(!got.iter().any(|l| l.starts_with("error")), "{got:?}");
        }
    }
    writeln!(stdin, "quit").unwrap();
    assert!(child.wait().unwrap().success());
    let _ = std::fs::remove_dir_all(&dir);
}
