//! The board-call adapter of a program ([`BoardCall`]): one run of the program a move, and the
//! options both adapters declare.

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command as Process, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use super::answer::{Answer, find_answer};
use super::fault::{Fault, ended_fault};
use super::format::SeedFormat;
use super::limits::ResourceLimits;
use super::sandbox::Jail;
use super::watch::{Watch, cap_reached};
use crate::process::capture::{self, Capture};
use crate::process::group::ProcessGroup;
use crate::session::backend::{Backend, SearchCall};
use boardgames_core::games::AnyLine;
use boardgames_core::games::Move;
use boardgames_core::games::format::{print_board, print_history};
use boardgames_core::games::{Game, GameKind, Line, MoveList};
use boardgames_core::protocol::{Go, Info, OptionDecl};

/// How the program gets its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputMode {
    /// `PROGRAM ARGS... BOARD SIDE DEPTH`.
    Args,
    /// `PROGRAM ARGS...` with one line `BOARD SIDE DEPTH` on its standard input.
    Stdin,
}

/// What a seed-shaped program or function is called with for a position, and what its answer
/// is read against.
pub(super) struct SeedArgs {
    /// The legal moves of the side to move.
    pub moves: MoveList,
    /// The board, as the adapter sends it.
    pub board: String,
    /// The side to move's letter.
    pub side: char,
    /// The depth: `go depth D`'s, else the adapter's own.
    pub depth: u32,
}

impl SeedArgs {
    /// The call for `line`'s position under `go`, its board written as `board`; `default_depth`
    /// when `go` names no depth (go nodes, go movetime, ...).
    pub(super) fn of<G: Game>(line: &Line<G>, go: Go, default_depth: u32, board: String) -> Self {
        let mut moves = MoveList::new();
        line.legal_moves(&mut moves);
        let depth = match go {
            Go::Depth(d) => d,
            _ => default_depth,
        };
        let side = line.current().side_to_move().letter();
        SeedArgs {
            moves,
            board,
            side,
            depth,
        }
    }
}

/// The adapter: a program, its arguments and how to talk to it.
#[derive(Clone, Debug)]
pub struct BoardCall {
    /// The program.
    pub program: PathBuf,
    /// Its arguments, before the board.
    pub args: Vec<String>,
    /// The board format.
    pub format: SeedFormat,
    /// The depth when `go` gives none (`go nodes`, `go movetime`, ...).
    pub depth: u32,
    /// Arguments or standard input.
    pub input: InputMode,
    /// The limits each call runs under (`None`: none, only its own process group). A limited
    /// program runs in a fresh scratch folder (in the sandbox unless `limits.sandbox` is off),
    /// so a relative `program` path is taken from the adapter's directory; it sees its own file
    /// and the files its arguments name by absolute paths, read-only.
    pub limits: Option<ResourceLimits>,
}

/// What a call of the program gave.
enum Called {
    /// It exited with success: its standard output, and its standard error's tail for messages
    /// (`; its standard error ends: '...'`, or empty).
    Answer {
        output: String,
        stderr: String,
    },
    /// It failed: the fault when it is one a function adapter names too, and what happened.
    Failed(Option<Fault>, String),
    Stopped,
}

impl BoardCall {
    /// The board text the program gets for a line.
    pub fn board_text<G: Game>(&self, line: &Line<G>) -> String {
        match (G::KIND, self.format.list()) {
            (GameKind::Ctf, Some((quote, sep))) => print_history(line, quote, sep),
            _ => print_board(line.current(), &self.format.board_format(G::KIND)),
        }
    }

    /// Runs the program once in its own process group (under [`BoardCall::limits`] if set);
    /// polls `stop` while it runs. The group is ended when the call ends, so nothing the program
    /// started outlives it.
    fn call(&self, board: &str, side: char, depth: u32, stop: &AtomicBool) -> Called {
        // The program is found before the working directory changes.
        let program = if self.program.components().count() > 1 {
            std::path::absolute(&self.program).unwrap_or_else(|_| self.program.clone())
        } else {
            self.program.clone()
        };
        let mut args: Vec<std::ffi::OsString> = self.args.iter().map(Into::into).collect();
        if self.input == InputMode::Args {
            args.extend([board.to_string(), side.to_string(), depth.to_string()].map(Into::into));
        }
        let jail = match &self.limits {
            Some(l) => match Jail::new(l) {
                Ok(j) => Some(j),
                Err(e) => return Called::Failed(None, format!("no working directory: {e}")),
            },
            None => None,
        };
        let mut cmd = match (&self.limits, &jail) {
            (Some(limits), Some(jail)) => {
                // In the sandbox the program sees its own file, and the files its arguments name.
                let mut files: Vec<PathBuf> = Vec::new();
                for word in
                    std::iter::once(program.as_os_str()).chain(self.args.iter().map(|a| a.as_ref()))
                {
                    let p = std::path::Path::new(word);
                    if p.is_absolute() && p.is_file() {
                        files.push(p.to_path_buf());
                    }
                }
                let mut cmd = match jail.command(&program, &args, &files) {
                    Ok(c) => c,
                    Err(e) => return Called::Failed(None, e.to_string()),
                };
                limits.apply(&mut cmd, jail.sandboxed());
                cmd
            }
            _ => {
                let mut cmd = Process::new(&program);
                cmd.args(&args);
                let parent = std::process::id();
                cmd.process_group(0);
                // SAFETY: die_with_parent only makes system calls; it allocates nothing.
                unsafe {
                    cmd.pre_exec(move || crate::process::orphans::die_with_parent(parent));
                }
                cmd
            }
        };
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        let request = format!("{board} {side} {depth}");
        match self.input {
            InputMode::Args => cmd.stdin(Stdio::null()),
            InputMode::Stdin => cmd.stdin(Stdio::piped()),
        };
        let mut child = match cmd.spawn() {
            Ok(c) => c,
            Err(e) => {
                return Called::Failed(
                    None,
                    format!("cannot start '{}': {e}", self.program.display()),
                );
            }
        };
        if let Some(mut stdin) = child.stdin.take() {
            // On a thread: a long history must not block a program that does not read it. A
            // program that does not read its input gets a broken pipe: not an error here.
            let line = format!("{request}\n");
            thread::spawn(move || {
                let _ = stdin.write_all(line.as_bytes());
            });
        }
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let out = Capture::start(stdout, capture::STDOUT_KEPT, false);
        let err = Capture::start(stderr, capture::STDERR_KEPT, true);
        let mut watch = self
            .limits
            .as_ref()
            .map(|l| (l, Watch::new(l.move_timeout, 0)));
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Ok(Some(status)),
                Ok(None) if stop.load(Ordering::Relaxed) => {
                    ProcessGroup::led_by(&child).kill();
                    let _ = child.wait();
                    return Called::Stopped;
                }
                Ok(None) => {
                    let printed = out.total() + err.total();
                    if let Some(broken) = watch.as_mut().and_then(|(l, w)| {
                        w.check(
                            l,
                            jail.as_ref().expect("limits make a jail"),
                            child.id(),
                            printed,
                        )
                    }) {
                        break Err(broken);
                    }
                    thread::sleep(Duration::from_millis(1));
                }
                Err(_) => break Ok(None),
            }
        };
        // A fork refused at the cap is the program's fault, even when it answered after it.
        let status = match (&status, &jail, &self.limits) {
            (Ok(_), Some(j), Some(l)) if j.cap_reached() == Some(true) => {
                l.processes.map_or(status, |max| Err(cap_reached(max)))
            }
            _ => status,
        };
        // What the program left running (a child holding its output open, say) ends with it.
        ProcessGroup::led_by(&child).kill();
        let _ = child.wait();
        let output = out.finish();
        let stderr_text = err.finish();
        let stderr = match capture::tail(&stderr_text) {
            Some(t) => format!("; its standard error ends: '{t}'"),
            None => String::new(),
        };
        drop(jail);
        match status {
            Ok(Some(s)) if s.success() => Called::Answer { output, stderr },
            Err((fault, why)) => {
                Called::Failed(Some(fault), format!("{why} on '{request}'{stderr}"))
            }
            Ok(s) => {
                let fault = Some(ended_fault(s, &stderr_text)).filter(|&f| f != Fault::Crash);
                Called::Failed(
                    fault,
                    match s {
                        Some(s) => format!("the program failed ({s}) on '{request}'{stderr}"),
                        None => {
                            format!("the program could not be waited for on '{request}'{stderr}")
                        }
                    },
                )
            }
        }
    }

    fn search_line<G: Game>(&self, line: &Line<G>, call: SearchCall<'_>) -> Option<Move> {
        let SearchCall { go, stop, report } = call;
        let pos = *line.current();
        let SeedArgs {
            moves,
            board,
            side,
            depth,
        } = SeedArgs::of(line, go, self.depth, self.board_text(line));
        let mut say = |text: String| report(Info::String(format!("board-call: {text}")));
        if let Some(limits) = &self.limits {
            // Once per adapter process (one program each).
            static NOTED: AtomicBool = AtomicBool::new(false);
            if !NOTED.swap(true, Ordering::Relaxed) {
                for note in super::sandbox::notes(limits) {
                    say(format!("note: {note}"));
                }
            }
        }
        let (output, stderr) = match self.call(&board, side, depth, stop) {
            Called::Answer { output, stderr } => (output, stderr),
            Called::Failed(fault, why) => {
                say(match fault {
                    Some(f) => format!("[{f}] {why}"),
                    None => why,
                });
                return None;
            }
            Called::Stopped => {
                let first = moves.as_slice().first().copied();
                say("stopped before the program answered: playing the first legal move".into());
                return first;
            }
        };
        let Some(answer) = self.read_answer(line, &moves, &output) else {
            let last = output.lines().rev().find(|l| !l.trim().is_empty());
            say(match last {
                Some(l) => format!(
                    "the program printed no {} board of size {} for '{board} {side} {depth}' (its last line: '{}'){stderr}",
                    G::KIND,
                    pos.size(),
                    capture::escape(&bounded(l.trim()))
                ),
                None => format!("the program printed nothing for '{board} {side} {depth}'{stderr}"),
            });
            return None;
        };
        match answer.best {
            Some(m) => Some(m),
            None => {
                say(format!(
                    "the program's board '{}' is not the result of any legal move from '{board}'",
                    capture::escape(&answer.text)
                ));
                None
            }
        }
    }

    /// The program's answer in its standard output `output` (see [`find_answer`]).
    pub fn read_answer<G: Game>(
        &self,
        line: &Line<G>,
        moves: &MoveList,
        output: &str,
    ) -> Option<Answer> {
        find_answer(output, line, moves, &self.format.board_format(G::KIND))
    }
}

/// At most 200 characters of `text` (its start, then `...`).
fn bounded(text: &str) -> String {
    if text.chars().count() > 200 {
        format!("{}...", text.chars().take(197).collect::<String>())
    } else {
        text.to_string()
    }
}

/// The options of a board-call engine: the engine's own without `Evaluator`, `TablebasePath`
/// and `MultiPV` (the program or function searches with its own and gives one move); `Hash`
/// and `Trace` are accepted and ignored.
pub(crate) fn adapter_options() -> Vec<OptionDecl> {
    crate::session::options()
        .into_iter()
        .filter(|o| !matches!(o.name.as_str(), "Evaluator" | "TablebasePath" | "MultiPV"))
        .collect()
}

impl Backend for BoardCall {
    fn options(&self) -> Vec<OptionDecl> {
        adapter_options()
    }

    fn searched_by(&self) -> &'static str {
        "a board-call program"
    }

    fn clear(&mut self) {}

    fn search(&mut self, line: &AnyLine, call: SearchCall<'_>) -> Option<Move> {
        boardgames_core::with_game!(l in line => self.search_line(l, call))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardgames_core::games::format::parse_board;
    use boardgames_core::games::notation::move_name;
    use boardgames_core::games::{Ctf, Oska, Side};

    fn adapter(format: SeedFormat) -> BoardCall {
        BoardCall {
            program: "true".into(),
            args: Vec::new(),
            format,
            depth: 2,
            input: InputMode::Args,
            limits: None,
        }
    }

    #[test]
    fn boards_in_each_format() {
        let line = parse_board::<Oska>("wwww/---/--/---/bbbb", Side::White)
            .unwrap()
            .line;
        assert_eq!(
            adapter(SeedFormat::Python).board_text(&line),
            "['wwww', '---', '--', '---', 'bbbb']"
        );
        assert_eq!(
            adapter(SeedFormat::Haskell).board_text(&line),
            "[\"wwww\",\"---\",\"--\",\"---\",\"bbbb\"]"
        );
        assert_eq!(
            adapter(SeedFormat::Lisp).board_text(&line),
            "((w w w w)(nil nil nil)(nil nil)(nil nil nil)(b b b b))"
        );
        assert_eq!(
            adapter(SeedFormat::Flat).board_text(&line),
            "wwww--------bbbb"
        );
        let ctf = parse_board::<Ctf>("-wWw--www-------bbb--bBb-", Side::White)
            .unwrap()
            .line;
        assert_eq!(
            adapter(SeedFormat::Python).board_text(&ctf),
            "['-wWw--www-------bbb--bBb-']"
        );
    }

    #[test]
    fn answers_are_matched_loosely() {
        let line = parse_board::<Oska>("wwww/---/--/---/bbbb", Side::White)
            .unwrap()
            .line;
        let mut moves = MoveList::new();
        line.legal_moves(&mut moves);
        let a = adapter(SeedFormat::Python);
        let best = |output: &str| a.read_answer(&line, &moves, output).map(|a| a.best);
        let m = best(" [ \"-www\" , \"w--\",'--','---','bbbb'] ")
            .unwrap()
            .unwrap();
        assert_eq!(move_name(line.current(), m), "a1a2");
        // Another format than the one sent is read too.
        let m = best("www-/--w/--/---/bbbb").unwrap().unwrap();
        assert_eq!(move_name(line.current(), m), "d1c2");
        // A board no legal move gives, and no board at all.
        assert_eq!(best("wwww/---/--/---/bbbb"), Some(None));
        assert_eq!(best("nonsense"), None);
    }
}
