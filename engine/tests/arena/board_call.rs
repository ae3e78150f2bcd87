//! `engine board-call` driven as a referee would, with small programs written to a scratch
//! directory: the answers student programs print (traces, trailers, Python tuples, one row per
//! line) in each game, the failure message of a crashing program, and that nothing a program
//! starts outlives its call (its process group is ended, after an answer and on `stop`).

use crate::common;
use common::Scratch;

use std::fs;
use std::io::Write;
use std::process::{Child, ChildStdin, Command};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// A fresh directory for one test (see [`common::Scratch`]).
fn scratch(name: &str) -> Scratch {
    Scratch::new("board-call-test", name)
}

/// `engine board-call ARGS...` with piped stdin and a thread that sends its stdout lines.
struct Adapter {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
}

impl Adapter {
    fn start(args: &[&str]) -> Adapter {
        let (child, stdin, lines) = common::spawn_engine(&[&["board-call"], args].concat());
        Adapter {
            child,
            stdin: Some(stdin),
            lines,
        }
    }

    fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// The lines up to and including the next `bestmove`, or a panic after 20 seconds (the
    /// adapter hangs).
    fn until_bestmove(&mut self) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let done = l.starts_with("bestmove");
                    got.push(l);
                    if done {
                        return got;
                    }
                }
                Err(_) => {
                    let _ = self.child.kill();
                    panic!("no bestmove within 20 s; got {got:?}");
                }
            }
        }
    }

    /// Closes the input and waits for the exit.
    fn finish(mut self) {
        drop(self.stdin.take());
        assert!(self.child.wait().unwrap().success());
    }
}

/// Runs one `go depth 2` from the start of `GAME SIZE`, the program printing `output` whatever
/// it gets; returns the adapter's lines.
fn one_go(game: &str, output: &str) -> Vec<String> {
    let s = scratch("answer");
    let out = s.write("out.txt", output);
    // `cat FILE` ignores the line on its standard input.
    let mut a = Adapter::start(&["--format", "python", "--input", "stdin", "--", "cat", &out]);
    a.send(&format!("newgame {game}\ngo depth 2\n"));
    let lines = a.until_bestmove();
    a.finish();
    lines
}

fn assert_plays(game: &str, output: &str, want: &str) {
    let lines = one_go(game, output);
    assert_eq!(
        lines.last().map(String::as_str),
        Some(format!("bestmove {want}").as_str()),
        "{game}, output:\n{output}\nreplies: {lines:?}"
    );
}

#[test]
fn oska_answers_after_traces_as_tuples_and_row_lines() {
    let g = "oska 4";
    assert_plays(
        g,
        "depth 2: 6 moves\n('www-', '--w', '--', '---', 'bbbb')\n",
        "d1c2",
    );
    assert_plays(
        g,
        "['www-', '--w', '--', '---', 'bbbb']\nsearched 31 nodes in 0.01 s\n",
        "d1c2",
    );
    assert_plays(
        g,
        "best board:\nw w w -\n - - w\n  - -\n - - -\nb b b b\n\n",
        "d1c2",
    );
}

#[test]
fn hexapawn_answers_after_traces_as_tuples_and_row_lines() {
    let g = "hexapawn 3";
    assert_plays(g, "value 1\n(\"-ww\", \"w--\", \"bbb\")\n", "a1a2");
    assert_plays(g, "-ww\nw--\nbbb\nvalue 1\n", "a1a2");
    assert_plays(
        g,
        "[['-', 'w', 'w'], ['w', '-', '-'], ['b', 'b', 'b']]\n",
        "a1a2",
    );
}

#[test]
fn ctf_answers_after_traces_as_tuples_and_row_lines() {
    let g = "ctf 5";
    let after = "-wWw--w-w---w---bbb--bBb-";
    assert_plays(g, &format!("minimax 2\n('{after}',)\n"), "c2c3");
    assert_plays(g, &format!("\"{after}\"\ndone\n"), "c2c3");
    assert_plays(
        g,
        "trace\n- w W w -\n- w - w -\n- - w - -\n- b b b -\n- b B b -\n",
        "c2c3",
    );
}

#[test]
fn no_board_and_a_crash_are_explained() {
    let lines = one_go("hexapawn 3", "thinking\nI give up\n");
    assert_eq!(lines.last().unwrap(), "bestmove none", "{lines:?}");
    assert!(
        lines[0].starts_with(
            "info string board-call: the program printed no hexapawn board of size 3 for"
        ) && lines[0].ends_with("(its last line: 'I give up')"),
        "{lines:?}"
    );
    // A crash: the exit status and the end of standard error, escaped, on one line.
    let s = scratch("crash");
    let script = s.write(
        "crash.py",
        "import sys\nprint('ignored')\nfor i in range(20):\n    print('noise', i, file=sys.stderr)\n\
         print('Traceback:\\n  File \"crash.py\"\\tline 9\\nZeroDivisionError: \\u00e9', \
         file=sys.stderr)\nsys.exit(3)\n",
    );
    let mut a = Adapter::start(&["--", "python3", &script]);
    a.send("newgame oska 4\ngo depth 3\n");
    let lines = a.until_bestmove();
    a.finish();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(
        lines[0],
        "info string board-call: the program failed (exit status: 3) on \
         'wwww/---/--/---/bbbb w 3'; its standard error ends: 'noise 18 | noise 19 | \
         Traceback: |   File \"crash.py\" line 9 | ZeroDivisionError: \\xc3\\xa9'"
    );
}

/// Whether process `pid` still runs (a zombie waiting for its reaper counts as ended).
fn alive(pid: &str) -> bool {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    stat.rsplit(')')
        .next()
        .is_some_and(|s| !s.trim_start().is_empty() && !s.trim_start().starts_with('Z'))
}

/// Waits up to two seconds for `pid` to end; ends it (so that a failing test leaves nothing)
/// and says whether it was still running.
fn left_running(pid: &str) -> bool {
    let deadline = Instant::now() + Duration::from_secs(2);
    while alive(pid) && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(20));
    }
    let running = alive(pid);
    if running {
        let _ = Command::new("kill").args(["-9", pid]).status();
    }
    running
}

/// Waits for a program to write its child's pid to `file`.
fn pid_in(file: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(t) = fs::read_to_string(file)
            && t.ends_with('\n')
        {
            return t.trim().to_string();
        }
        assert!(Instant::now() < deadline, "the program wrote no pid");
        thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_program_leaves_no_child_behind() {
    let s = scratch("group");
    let pids = s.path("pid").display().to_string();
    // A program that answers, leaving a sleeping child: the child is ended with the call, also
    // when it holds the program's output open.
    for keeps_output in [false, true] {
        let redirect = if keeps_output { "" } else { ">/dev/null 2>&1" };
        let script = s.write(
            "forks.sh",
            &format!(
                "sleep 300 {redirect} &\necho $! > {pids}.tmp\nmv {pids}.tmp {pids}\n\
                 echo \"['-ww', 'w--', 'bbb']\"\n"
            ),
        );
        let _ = fs::remove_file(&pids);
        let mut a = Adapter::start(&["--", "sh", &script]);
        a.send("newgame hexapawn 3\ngo depth 1\n");
        let lines = a.until_bestmove();
        assert_eq!(lines.last().unwrap(), "bestmove a1a2", "{lines:?}");
        let child = pid_in(&pids);
        a.finish();
        assert!(
            !left_running(&child),
            "the child {child} of a program that answered is still running (keeps output: {keeps_output})"
        );
    }
    // A program stopped while it thinks: its child goes with it.
    let script = s.write(
        "slow.sh",
        &format!(
            "sleep 300 >/dev/null 2>&1 &\necho $! > {pids}.tmp\nmv {pids}.tmp {pids}\nsleep 300\n"
        ),
    );
    let _ = fs::remove_file(&pids);
    let mut a = Adapter::start(&["--", "sh", &script]);
    a.send("newgame hexapawn 3\ngo infinite\n");
    let child = pid_in(&pids);
    a.send("stop\n");
    let lines = a.until_bestmove();
    assert!(
        lines[0].contains("stopped before the program answered"),
        "{lines:?}"
    );
    a.finish();
    assert!(
        !left_running(&child),
        "the child {child} of a stopped program is still running"
    );
}
