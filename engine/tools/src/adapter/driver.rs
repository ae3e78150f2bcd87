//! The driver of a function adapter: a small generated program that loads a submission once
//! and then loops: it reads one request a line on its standard input (`GAME`, `BOARD`, `SIDE`,
//! `DEPTH`, `SIZE`, separated by tabs), calls the function with the seed's argument order for
//! the game, and writes the result on file descriptor 3 (`=` and the value, or `!` and the
//! error), so that whatever the function prints stays apart from its answer. It runs under
//! [`ResourceLimits`], in the sandbox ([`super::sandbox`]): the driver and the submission's file
//! read-only, a scratch folder as its working directory.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use super::compile::compile_haskell;
use super::fault::{Failed, Fault, about_memory, ended_fault};
use super::language::Language;
use super::limits::ResourceLimits;
use super::sandbox::{self, Jail};
use super::spec::FunctionSpec;
use super::watch::{Watch, cap_reached};
use crate::process::capture::{self, Capture};
use crate::process::group::ProcessGroup;
use boardgames_core::games::GameKind;

const PYTHON_DRIVER: &str = include_str!("drivers/driver.py");
const LISP_DRIVER: &str = include_str!("drivers/driver.lisp");

/// A running driver: one submission loaded for one game.
pub(super) struct Driver {
    child: Child,
    stdin: ChildStdin,
    answers: mpsc::Receiver<String>,
    out: Capture,
    err: Capture,
    /// The game it was started for.
    pub(super) game: GameKind,
    jail: Jail,
}

impl Drop for Driver {
    fn drop(&mut self) {
        ProcessGroup::led_by(&self.child).kill();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What waiting for the driver gave.
enum Waited {
    Line(String),
    Failed(Failed),
    Stopped,
}

impl Driver {
    /// Starts the driver of `spec` for `game` under `limits`, and waits until the submission
    /// is loaded.
    pub(super) fn start(
        spec: &FunctionSpec,
        limits: &ResourceLimits,
        game: GameKind,
        stop: &AtomicBool,
    ) -> Result<Driver, Failed> {
        if spec.language == Language::Lisp && game == GameKind::Ctf {
            return Err((
                Fault::Load,
                "the Lisp board format is for Oska and Hexapawn only: Capture the Flag cannot be played by a Lisp function".into(),
            ));
        }
        let mut jail =
            Jail::new(limits).map_err(|e| (Fault::Load, format!("no working directory: {e}")))?;
        if let Some(folder) = &spec.folder {
            jail.work_in(folder.clone());
        }
        let file = spec.file.clone();
        let write_driver = |name: &str, text: &str| {
            let (host, seen) = jail.driver_file(name);
            std::fs::write(&host, text)
                .map(|()| seen)
                .map_err(|e| (Fault::Load, format!("cannot write the driver: {e}")))
        };
        let mut args: Vec<std::ffi::OsString> = Vec::new();
        // A student's folder is bound whole (helper modules beside the file) and is the working
        // directory; else only the file.
        let mut files = vec![spec.folder.clone().unwrap_or_else(|| file.clone())];
        let program = match spec.language {
            Language::Python => {
                let script = write_driver("board_call_driver.py", PYTHON_DRIVER)?;
                args.extend(["-B".into(), script.into()]);
                args.extend([file.into(), spec.function.clone().into()]);
                sandboxed_tool(&jail, "python3")
            }
            Language::Lisp => {
                let script = write_driver("board-call-driver.lisp", LISP_DRIVER)?;
                args.extend(
                    ["--noinform", "--disable-ldb", "--lose-on-corruption"].map(Into::into),
                );
                if let Some(m) = limits.memory_mib {
                    // The heap inside the address-space limit, so that the Lisp reports
                    // exhaustion itself.
                    args.push("--dynamic-space-size".into());
                    args.push(format!("{}MB", (m / 2).max(256)).into());
                }
                args.extend([
                    "--end-runtime-options".into(),
                    "--script".into(),
                    script.into(),
                ]);
                args.extend([file.into(), spec.function.clone().into()]);
                sandboxed_tool(&jail, "sbcl")
            }
            Language::Haskell => {
                let exe = compile_haskell(spec, game, limits)?;
                if let Some(m) = limits.memory_mib {
                    args.extend([
                        "+RTS".into(),
                        format!("-M{}m", (m * 3 / 4).max(64)).into(),
                        "-RTS".into(),
                    ]);
                }
                // Only the compiled driver, read-only: the cache's folder stays out of view.
                files.push(exe.clone());
                exe
            }
        };
        let mut cmd = jail
            .command(&program, &args, &files)
            .map_err(|e| (Fault::Load, e.to_string()))?;
        let (read, write) =
            answer_pipe().map_err(|e| (Fault::Load, format!("cannot make a pipe: {e}")))?;
        let write_fd = {
            use std::os::fd::AsRawFd;
            write.as_raw_fd()
        };
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        limits.apply(&mut cmd, jail.sandboxed());
        sandbox::inherit_as_fd3(&mut cmd, write_fd);
        let spawned = cmd.spawn();
        drop(write);
        let mut child = spawned.map_err(|e| {
            (
                Fault::Load,
                format!("cannot start {}: {e}", spec.language.tool()),
            )
        })?;
        let (tx, answers) = mpsc::channel();
        let reader = std::fs::File::from(read);
        thread::spawn(move || {
            for line in BufReader::new(reader).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let out = Capture::start(
            child.stdout.take().expect("piped"),
            capture::STDERR_KEPT,
            false,
        );
        let err = Capture::start(
            child.stderr.take().expect("piped"),
            capture::STDERR_KEPT,
            true,
        );
        let stdin = child.stdin.take().expect("piped");
        let mut driver = Driver {
            child,
            stdin,
            answers,
            out,
            err,
            game,
            jail,
        };
        match driver.wait(limits, limits.load_timeout, stop) {
            Waited::Line(l) if l == "ready" => Ok(driver),
            Waited::Line(l) => {
                let why = l.strip_prefix('!').unwrap_or(&l);
                Err((Fault::Load, format!("{spec} did not load: {why}")))
            }
            Waited::Failed((Fault::Timeout, _)) => Err((
                Fault::Load,
                format!(
                    "{spec} did not load within {} ms (--load-timeout)",
                    limits.load_timeout.map_or(0, |t| t.as_millis())
                ),
            )),
            Waited::Failed((_, why)) => Err((Fault::Load, format!("{spec} did not load: {why}"))),
            Waited::Stopped => Err((Fault::Load, "stopped while loading".into())),
        }
    }

    /// One call of the function on `board` (the side to move `side`, the depth `depth`, the
    /// board's size `size`): the text it returned, `None` when stopped. The request is one
    /// tab-separated line; the answer, on file descriptor 3, is `=` and the value, or `!` and
    /// the error.
    pub(super) fn ask(
        &mut self,
        board: &str,
        side: char,
        depth: u32,
        size: usize,
        limits: &ResourceLimits,
        stop: &AtomicBool,
    ) -> Result<Option<String>, Failed> {
        let _ = self.out.take();
        let _ = self.err.take();
        let request = format!("{}\t{board}\t{side}\t{depth}\t{size}\n", self.game.name());
        if self
            .stdin
            .write_all(request.as_bytes())
            .and_then(|()| self.stdin.flush())
            .is_err()
        {
            return Err(self.died());
        }
        let mut waited = self.wait(limits, limits.move_timeout, stop);
        // A fork refused at the cap is the program's fault, even when it answered after it.
        let capped = matches!(waited, Waited::Failed((Fault::Processes, _)));
        if !capped
            && !matches!(waited, Waited::Stopped)
            && self.jail.cap_reached() == Some(true)
            && let Some(max) = limits.processes
        {
            waited = Waited::Failed(cap_reached(max));
        }
        if let Waited::Failed((Fault::Processes, why)) = &mut waited {
            // Its last words, as it learnt of the refusal.
            thread::sleep(Duration::from_millis(100));
            if let Some(t) = capture::tail(&self.err.take()) {
                why.push_str(&format!("; its standard error ends: '{t}'"));
            }
        }
        match waited {
            Waited::Line(l) => match (l.chars().next(), l.get(1..)) {
                (Some('='), Some(v)) => Ok(Some(v.to_string())),
                (Some('!'), Some(why)) => {
                    let tail = capture::tail(&self.err.take())
                        .map(|t| format!("; its standard error ends: '{t}'"))
                        .unwrap_or_default();
                    let fault = if about_memory(why) {
                        Fault::Memory
                    } else {
                        Fault::Exception
                    };
                    Err((fault, format!("{why}{tail}")))
                }
                _ => Err((
                    Fault::Crash,
                    format!("the driver wrote '{}'", capture::escape(&l)),
                )),
            },
            Waited::Failed(f) => Err(f),
            Waited::Stopped => Ok(None),
        }
    }

    /// Waits for the next answer line, watching the limits and `stop`.
    fn wait(
        &mut self,
        limits: &ResourceLimits,
        timeout: Option<Duration>,
        stop: &AtomicBool,
    ) -> Waited {
        let mut watch = Watch::new(timeout, self.out.total() + self.err.total());
        loop {
            match self.answers.recv_timeout(Duration::from_millis(5)) {
                Ok(line) => return Waited::Line(line),
                Err(mpsc::RecvTimeoutError::Disconnected) => return Waited::Failed(self.died()),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            if stop.load(Ordering::Relaxed) {
                return Waited::Stopped;
            }
            let printed = self.out.total() + self.err.total();
            if let Some(failed) = watch.check(limits, &self.jail, self.child.id(), printed) {
                return Waited::Failed(failed);
            }
        }
    }

    /// Why the driver closed its answers: its exit status and the end of its standard error.
    fn died(&mut self) -> Failed {
        let deadline = Instant::now() + Duration::from_secs(2);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(s)) => break Some(s),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => break None,
            }
        };
        ProcessGroup::led_by(&self.child).kill();
        thread::sleep(Duration::from_millis(20));
        let stderr = self.err.take();
        let tail = capture::tail(&stderr)
            .map(|t| format!("; its standard error ends: '{t}'"))
            .unwrap_or_default();
        let how = status.map_or_else(|| "did not exit".into(), |s| s.to_string());
        (
            ended_fault(status, &stderr),
            format!("the interpreter ended ({how}){tail}"),
        )
    }
}

impl fmt::Debug for Driver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Driver(pid {})", self.child.id())
    }
}

/// The interpreter `name` as run in `jail`: the resolved executable in the sandbox, else the
/// name, found on `PATH` as before.
fn sandboxed_tool(jail: &Jail, name: &str) -> PathBuf {
    if jail.sandboxed() {
        sandbox::tool(name)
    } else {
        PathBuf::from(name)
    }
}

/// A pipe whose write end is inherited as file descriptor 3 by the child.
fn answer_pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 fills two descriptors that we then own.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just created and are owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}
