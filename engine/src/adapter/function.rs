//! Function adapters: a seed *function* (`FILE.py:FUNCTION`, `FILE.hs:FUNCTION`,
//! `FILE.lisp:FUNCTION`) as an engine.
//!
//! A small generated driver loads the submission once and then loops: it reads one request a
//! line on its standard input (`GAME`, `BOARD`, `SIDE`, `DEPTH`, `SIZE`, separated by tabs),
//! calls the function with the seed's argument order for the game, and writes the result on
//! file descriptor 3 (`=` and the value, or `!` and the error), so that whatever the function
//! prints stays apart from its answer. The driver lives for one game (it is started at the
//! game's first move and ended by `newgame`), unless reuse is turned off, when it lives one
//! move. It runs under [`Limits`], in the sandbox ([`super::sandbox`]): the driver and the
//! submission's file read-only, a scratch folder as its working directory.

use std::collections::hash_map::DefaultHasher;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use super::limits::{Limits, Watch};
use super::process::{self, Capture};
use super::sandbox::{self, Jail};
use super::{BoardCall, InputMode, SeedFormat};
use crate::games::Move;
use crate::games::{AnyLine, Game, GameKind, Line, MoveList};
use crate::protocol::{Go, Info, OptionDecl};
use crate::search::EvalKind;
use crate::session::backend::Backend;

const PYTHON_DRIVER: &str = include_str!("drivers/driver.py");
const LISP_DRIVER: &str = include_str!("drivers/driver.lisp");
const HASKELL_DRIVER: &str = include_str!("drivers/Main.hs");

/// How long a driver may take to load the submission (after any compilation).
const LOAD_TIMEOUT: Duration = Duration::from_secs(60);
/// How long compiling a Haskell submission may take.
const COMPILE_TIMEOUT: Duration = Duration::from_secs(600);

/// A language of submissions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Language {
    /// `.py`, run by `python3`.
    Python,
    /// `.hs`, compiled by `ghc` with a generated driver, cached.
    Haskell,
    /// `.lisp`, `.lsp` or `.cl`, run by `sbcl`.
    Lisp,
}

impl Language {
    /// The language of a file, by its extension.
    pub fn of(path: &Path) -> Option<Language> {
        match path.extension()?.to_str()? {
            "py" => Some(Language::Python),
            "hs" => Some(Language::Haskell),
            "lisp" | "lsp" | "cl" => Some(Language::Lisp),
            _ => None,
        }
    }

    /// The program that runs (or compiles) it.
    pub fn tool(self) -> &'static str {
        match self {
            Language::Python => "python3",
            Language::Haskell => "ghc",
            Language::Lisp => "sbcl",
        }
    }

    /// What to install when [`Language::tool`] is missing.
    fn install(self) -> &'static str {
        match self {
            Language::Python => "Python 3 (Debian/Ubuntu: apt-get install python3)",
            Language::Haskell => {
                "the Glasgow Haskell Compiler (Debian/Ubuntu: apt-get install ghc; or ghcup)"
            }
            Language::Lisp => "Steel Bank Common Lisp (Debian/Ubuntu: apt-get install sbcl)",
        }
    }

    /// The board format its functions take.
    pub fn format(self) -> SeedFormat {
        match self {
            Language::Python => SeedFormat::Python,
            Language::Haskell => SeedFormat::Haskell,
            Language::Lisp => SeedFormat::Lisp,
        }
    }

    /// Its name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Language::Python => "Python",
            Language::Haskell => "Haskell",
            Language::Lisp => "Common Lisp",
        }
    }
}

/// A function adapter that cannot be set up.
#[derive(Debug, thiserror::Error)]
pub enum FunctionError {
    /// `FILE:FUNCTION` is malformed.
    #[error("'{0}': expected FILE.py:FUNCTION, FILE.hs:FUNCTION or FILE.lisp:FUNCTION")]
    Syntax(String),
    /// The file cannot be read.
    #[error("cannot read {path}: {why}")]
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        why: String,
    },
    /// The language's toolchain is not installed.
    #[error("{language} submissions need '{tool}', which is not on PATH: install {install}")]
    Toolchain {
        /// The language.
        language: &'static str,
        /// The missing program.
        tool: &'static str,
        /// What to install.
        install: &'static str,
    },
}

/// A seed function: its file, its name and its language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionSpec {
    /// The file (absolute).
    pub file: PathBuf,
    /// The function's name.
    pub function: String,
    /// The language, from the file's extension.
    pub language: Language,
}

impl FunctionSpec {
    /// Reads `FILE.EXT:FUNCTION`; `None` when `text` is not of that shape (a program, then).
    /// The file must exist; its path is made absolute.
    pub fn parse(text: &str) -> Option<Result<FunctionSpec, FunctionError>> {
        let (file, function) = text.rsplit_once(':')?;
        let language = Language::of(Path::new(file))?;
        let ok = !function.is_empty()
            && function
                .chars()
                .all(|c| c.is_alphanumeric() || "_-'.*+!?<>=/".contains(c));
        if !ok {
            return Some(Err(FunctionError::Syntax(text.to_string())));
        }
        Some(
            std::path::absolute(file)
                .and_then(|p| std::fs::metadata(&p).map(|_| p))
                .map_err(|e| FunctionError::File {
                    path: file.into(),
                    why: e.to_string(),
                })
                .map(|file| FunctionSpec {
                    file,
                    function: function.to_string(),
                    language,
                }),
        )
    }

    /// Fails with what to install when the language's toolchain is not on `PATH`.
    pub fn check_toolchain(&self) -> Result<(), FunctionError> {
        let tool = self.language.tool();
        if on_path(tool) {
            Ok(())
        } else {
            Err(FunctionError::Toolchain {
                language: self.language.name(),
                tool,
                install: self.language.install(),
            })
        }
    }
}

impl fmt::Display for FunctionSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file.display(), self.function)
    }
}

/// Whether `tool` is an executable file in a directory of `PATH`.
pub fn on_path(tool: &str) -> bool {
    find_on_path(tool).is_some()
}

/// The first executable file named `tool` in the directories of `PATH`.
pub fn find_on_path(tool: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths)
        .map(|d| d.join(tool))
        .find(|f| {
            std::fs::metadata(f).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

/// The seed's name for the top-level function of `game` in `language`, found in the source
/// `text`: Python `oskaplayer`, `hexapawn`, `capture`; Haskell `oska_XXXX` (any suffix),
/// `hexapawn`, `capture`; Lisp `oskamaniac`, `hexapawn`, `capture`. `None` when the file
/// defines none of them.
pub fn seed_function(game: GameKind, language: Language, text: &str) -> Option<String> {
    let defined: Vec<String> = text
        .lines()
        .filter_map(|l| match language {
            Language::Python => l.strip_prefix("def ").map(|r| {
                r.split(|c: char| c == '(' || c.is_whitespace())
                    .next()
                    .unwrap_or("")
            }),
            Language::Haskell => (!l.starts_with(char::is_whitespace))
                .then(|| l.split_whitespace().next().unwrap_or("")),
            Language::Lisp => {
                let t = l.trim_start().to_ascii_lowercase();
                t.strip_prefix("(defun ").map(|r| {
                    let end = r
                        .find(|c: char| c == '(' || c.is_whitespace())
                        .unwrap_or(r.len());
                    &l.trim_start()[7..7 + end]
                })
            }
        })
        .map(str::to_string)
        .collect();
    let wanted = |name: &str| match (game, language) {
        (GameKind::Oska, Language::Python) => name == "oskaplayer",
        (GameKind::Oska, Language::Haskell) => name.starts_with("oska_") || name == "oska",
        (GameKind::Oska, Language::Lisp) => name.eq_ignore_ascii_case("oskamaniac"),
        (GameKind::Hexapawn, _) => name.eq_ignore_ascii_case("hexapawn"),
        (GameKind::Ctf, _) => name.eq_ignore_ascii_case("capture"),
    };
    defined.into_iter().find(|n| wanted(n))
}

/// A named way a submission failed; the adapter's `info string` says `board-call: [NAME] ...`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The file did not load, compile, or define the function.
    Load,
    /// The function raised an exception (or signalled a condition).
    Exception,
    /// The interpreter died.
    Crash,
    /// The move took longer than the move timeout.
    Timeout,
    /// It ran out of the memory limit.
    Memory,
    /// It used up its CPU time.
    Cpu,
    /// Its group held more processes than allowed.
    Processes,
    /// It printed more than allowed during a move.
    Output,
    /// Its result is not a board of the game.
    NoBoard,
    /// Its board is not the result of a legal move.
    Illegal,
}

impl Fault {
    /// The name in brackets.
    pub fn as_str(self) -> &'static str {
        match self {
            Fault::Load => "load",
            Fault::Exception => "exception",
            Fault::Crash => "crash",
            Fault::Timeout => "timeout",
            Fault::Memory => "memory",
            Fault::Cpu => "cpu",
            Fault::Processes => "processes",
            Fault::Output => "output",
            Fault::NoBoard => "no board",
            Fault::Illegal => "illegal",
        }
    }

    /// Every fault.
    pub const ALL: [Fault; 10] = [
        Fault::Load,
        Fault::Exception,
        Fault::Crash,
        Fault::Timeout,
        Fault::Memory,
        Fault::Cpu,
        Fault::Processes,
        Fault::Output,
        Fault::NoBoard,
        Fault::Illegal,
    ];

    /// The fault named in a message `... board-call: [NAME] ...`, if any.
    pub fn find_in(text: &str) -> Option<Fault> {
        let rest = &text[text.find("board-call: [")? + "board-call: [".len()..];
        let name = &rest[..rest.find(']')?];
        Fault::ALL.into_iter().find(|f| f.as_str() == name)
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether an error text is about memory running out.
fn about_memory(text: &str) -> bool {
    let t = text.to_ascii_lowercase();
    [
        "memoryerror",
        "heap overflow",
        "heap exhausted",
        "heap-exhausted",
        "out of memory",
        "cannot allocate memory",
        "memory exhausted",
    ]
    .iter()
    .any(|m| t.contains(m))
}

/// A running driver.
struct Driver {
    child: Child,
    stdin: ChildStdin,
    answers: mpsc::Receiver<String>,
    out: Capture,
    err: Capture,
    game: GameKind,
    jail: Jail,
}

impl Drop for Driver {
    fn drop(&mut self) {
        process::kill_group(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A failure with its fault and message.
type Failed = (Fault, String);

/// What waiting for the driver gave.
enum Waited {
    Line(String),
    Failed(Failed),
    Stopped,
}

impl Driver {
    /// Waits for the next answer line, watching the limits and `stop`.
    fn wait(&mut self, limits: &Limits, timeout: Option<Duration>, stop: &AtomicBool) -> Waited {
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
        process::kill_group(self.child.id());
        thread::sleep(Duration::from_millis(20));
        let stderr = self.err.take();
        let tail = process::tail(&stderr)
            .map(|t| format!("; its standard error ends: '{t}'"))
            .unwrap_or_default();
        let how = status.map_or_else(|| "did not exit".into(), |s| s.to_string());
        (
            ended_fault(status, &stderr),
            format!("the interpreter ended ({how}){tail}"),
        )
    }
}

/// The fault of a program that ended (`status`, `None` when it could not be waited for) with
/// `stderr` on its standard error: [`Fault::Cpu`] when the CPU limit's signal ended it (in the
/// sandbox, `bwrap` exits with 128 plus the signal's number), [`Fault::Memory`] when it says
/// memory ran out, else [`Fault::Crash`].
pub(super) fn ended_fault(status: Option<ExitStatus>, stderr: &str) -> Fault {
    let signal = status.and_then(|s| s.signal().or_else(|| s.code().map(|c| c - 128)));
    match signal {
        Some(libc::SIGXCPU) => Fault::Cpu,
        _ if about_memory(stderr) => Fault::Memory,
        _ => Fault::Crash,
    }
}

/// The adapter: a seed function as a [`Backend`].
#[derive(Debug)]
pub struct FunctionCall {
    /// The function.
    pub spec: FunctionSpec,
    /// The depth when `go` gives none.
    pub depth: u32,
    /// The limits the driver runs under.
    pub limits: Limits,
    /// Keep the driver for the whole game (else one driver a move).
    pub reuse: bool,
    driver: Option<DriverSlot>,
    noted: bool,
}

/// The driver and what it is for (a `Debug` stand-in).
struct DriverSlot(Driver);

impl fmt::Debug for DriverSlot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Driver(pid {})", self.0.child.id())
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

/// The cache of compiled Haskell drivers: `$XDG_CACHE_HOME/engine-board-call` or
/// `~/.cache/engine-board-call`, else the temporary directory.
fn cache_dir() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("engine-board-call")
}

fn set_mode(path: &Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

/// The submission as module `Submission`: its `module ... where` header replaced, or one added
/// after the leading comments and pragmas.
pub fn haskell_module(text: &str) -> String {
    let mut offset = 0;
    let mut in_block = false;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if in_block {
            in_block = !t.contains("-}");
        } else if t.starts_with("module ") || t == "module" {
            let rest = &text[offset..];
            let end = rest
                .match_indices("where")
                .find(|(i, _)| {
                    let after = rest[i + 5..].chars().next();
                    let before = rest[..*i].chars().last();
                    !after.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '\'')
                        && before.is_some_and(|c| !c.is_alphanumeric() && c != '_')
                })
                .map(|(i, _)| i + 5);
            if let Some(end) = end {
                return format!("{}module Submission where{}", &text[..offset], &rest[end..]);
            }
        } else if t.starts_with("{-") {
            in_block = !t.contains("-}");
        } else if !(t.is_empty() || t.starts_with("--")) {
            return format!(
                "{}module Submission where\n{}",
                &text[..offset],
                &text[offset..]
            );
        }
        offset += line.len();
    }
    format!("{text}\nmodule Submission where\n")
}

/// The Haskell call of the function for `game`.
fn haskell_call(game: GameKind, function: &str) -> String {
    match game {
        GameKind::Hexapawn => {
            format!("Submission.{function} (read board) (read size) (head side) (read depth)")
        }
        _ => format!("Submission.{function} (read board) (head side) (read depth)"),
    }
}

/// Compiles the Haskell driver of `spec` for `game` once: the executable in the cache, keyed by
/// the source, the function, the game and the driver; compiled in a fresh directory and
/// renamed into place, so that concurrent adapters never see half a build.
fn compile_haskell(
    spec: &FunctionSpec,
    game: GameKind,
    limits: &Limits,
) -> Result<PathBuf, Failed> {
    let source = std::fs::read_to_string(&spec.file).map_err(|e| {
        (
            Fault::Load,
            format!("cannot read {}: {e}", spec.file.display()),
        )
    })?;
    let main = HASKELL_DRIVER.replace("CALL", &haskell_call(game, &spec.function));
    let mut h = DefaultHasher::new();
    (&source, &spec.function, game.name(), &main).hash(&mut h);
    let cache = cache_dir();
    let dir = cache.join(format!("{:016x}", h.finish()));
    let exe = dir.join("driver");
    if exe.exists() {
        return Ok(exe);
    }
    // Compiling runs the submission's Template Haskell, if any: in the sandbox and limited
    // too, but with time and memory for the compiler.
    let mut compile_limits = limits.clone();
    compile_limits.cpu_seconds = Some(COMPILE_TIMEOUT.as_secs());
    compile_limits.memory_mib = limits.memory_mib.map(|m| m.max(4096));
    compile_limits.file_mib = limits.file_mib.map(|m| m.max(512));
    let build =
        Jail::new(&compile_limits).map_err(|e| (Fault::Load, format!("cannot build: {e}")))?;
    let b = build.scratch();
    let written = std::fs::write(b.join("Submission.hs"), haskell_module(&source))
        .and_then(|()| std::fs::write(b.join("Main.hs"), &main));
    written.map_err(|e| (Fault::Load, format!("cannot write the driver: {e}")))?;
    let args = [
        "-O1",
        "-rtsopts",
        "-v0",
        "-outputdir",
        "out",
        "-o",
        "driver",
        "Main.hs",
    ]
    .map(std::ffi::OsString::from);
    let mut cmd = build
        .command(&sandbox::tool("ghc"), &args, &[])
        .map_err(|e| (Fault::Load, e.to_string()))?;
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    compile_limits.apply(&mut cmd, &build);
    let mut child = cmd
        .spawn()
        .map_err(|e| (Fault::Load, format!("cannot start ghc: {e}")))?;
    let out = Capture::start(
        child.stdout.take().expect("piped"),
        process::STDERR_KEPT,
        false,
    );
    let err = Capture::start(
        child.stderr.take().expect("piped"),
        process::STDERR_KEPT,
        false,
    );
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Ok(s),
            Ok(None) if started.elapsed() < COMPILE_TIMEOUT => {
                thread::sleep(Duration::from_millis(20))
            }
            Ok(None) => break Err("ghc took too long".to_string()),
            Err(e) => break Err(e.to_string()),
        }
    };
    process::kill_group(child.id());
    let _ = child.kill();
    let _ = child.wait();
    let text = format!("{}{}", out.finish(), err.finish());
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => {
            let tail = process::tail(&text).unwrap_or_default();
            return Err((Fault::Load, format!("ghc failed ({s}): '{tail}'")));
        }
        Err(why) => return Err((Fault::Load, why)),
    }
    std::fs::create_dir_all(&cache).map_err(|e| {
        (
            Fault::Load,
            format!("cannot create {}: {e}", cache.display()),
        )
    })?;
    let tmp = cache.join(format!("tmp-{}-{:x}", std::process::id(), h.finish()));
    let _ = std::fs::remove_dir_all(&tmp);
    // Read-only for everyone: a submission never sees the cache (the sandbox binds only its
    // own driver, read-only), and without the sandbox an accidental write is refused too.
    std::fs::create_dir_all(&tmp)
        .and_then(|()| std::fs::copy(b.join("driver"), tmp.join("driver")).map(|_| ()))
        .and_then(|()| set_mode(&tmp.join("driver"), 0o555))
        .and_then(|()| set_mode(&tmp, 0o555))
        .map_err(|e| (Fault::Load, format!("cannot cache the driver: {e}")))?;
    // Another adapter may have finished first: its build is as good.
    if std::fs::rename(&tmp, &dir).is_err() {
        let _ = set_mode(&tmp, 0o755);
        let _ = std::fs::remove_dir_all(&tmp);
    }
    if exe.exists() {
        Ok(exe)
    } else {
        Err((
            Fault::Load,
            format!("the compiled driver is missing from {}", dir.display()),
        ))
    }
}

impl FunctionCall {
    /// An adapter for `spec`; fails when the file is unreadable or the toolchain is missing.
    pub fn new(
        spec: FunctionSpec,
        depth: u32,
        limits: Limits,
        reuse: bool,
    ) -> Result<FunctionCall, FunctionError> {
        spec.check_toolchain()?;
        Ok(FunctionCall {
            spec,
            depth,
            limits,
            reuse,
            driver: None,
            noted: false,
        })
    }

    fn shape(&self) -> BoardCall {
        BoardCall {
            program: self.spec.file.clone(),
            args: Vec::new(),
            format: self.spec.language.format(),
            depth: self.depth,
            input: InputMode::Stdin,
            limits: None,
        }
    }

    /// Starts the driver for `game` and waits until the submission is loaded.
    fn start(&mut self, game: GameKind, stop: &AtomicBool) -> Result<Driver, Failed> {
        if self.spec.language == Language::Lisp && game == GameKind::Ctf {
            return Err((
                Fault::Load,
                "the Lisp board format is for Oska and Hexapawn only: Capture the Flag cannot be played by a Lisp function".into(),
            ));
        }
        let jail = Jail::new(&self.limits)
            .map_err(|e| (Fault::Load, format!("no working directory: {e}")))?;
        let file = self.spec.file.clone();
        let write_driver = |name: &str, text: &str| {
            let (host, seen) = jail.driver_file(name);
            std::fs::write(&host, text)
                .map(|()| seen)
                .map_err(|e| (Fault::Load, format!("cannot write the driver: {e}")))
        };
        let mut args: Vec<std::ffi::OsString> = Vec::new();
        let mut files = vec![file.clone()];
        let program = match self.spec.language {
            Language::Python => {
                let script = write_driver("board_call_driver.py", PYTHON_DRIVER)?;
                args.extend(["-B".into(), script.into()]);
                args.extend([file.into(), self.spec.function.clone().into()]);
                sandboxed_tool(&jail, "python3")
            }
            Language::Lisp => {
                let script = write_driver("board-call-driver.lisp", LISP_DRIVER)?;
                args.extend(
                    ["--noinform", "--disable-ldb", "--lose-on-corruption"].map(Into::into),
                );
                if let Some(m) = self.limits.memory_mib {
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
                args.extend([file.into(), self.spec.function.clone().into()]);
                sandboxed_tool(&jail, "sbcl")
            }
            Language::Haskell => {
                let exe = compile_haskell(&self.spec, game, &self.limits)?;
                if let Some(m) = self.limits.memory_mib {
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
        self.limits.apply(&mut cmd, &jail);
        // SAFETY: dup2 in the child before exec; the copy on 3 is not close-on-exec.
        unsafe {
            use std::os::unix::process::CommandExt;
            cmd.pre_exec(move || {
                let done = if write_fd == 3 {
                    libc::fcntl(3, libc::F_SETFD, 0)
                } else {
                    libc::dup2(write_fd, 3)
                };
                if done < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let spawned = cmd.spawn();
        drop(write);
        let mut child = spawned.map_err(|e| {
            (
                Fault::Load,
                format!("cannot start {}: {e}", self.spec.language.tool()),
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
            process::STDERR_KEPT,
            false,
        );
        let err = Capture::start(
            child.stderr.take().expect("piped"),
            process::STDERR_KEPT,
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
        match driver.wait(&self.limits, Some(LOAD_TIMEOUT), stop) {
            Waited::Line(l) if l == "ready" => Ok(driver),
            Waited::Line(l) => {
                let why = l.strip_prefix('!').unwrap_or(&l);
                Err((Fault::Load, format!("{} did not load: {why}", self.spec)))
            }
            Waited::Failed((_, why)) => {
                Err((Fault::Load, format!("{} did not load: {why}", self.spec)))
            }
            Waited::Stopped => Err((Fault::Load, "stopped while loading".into())),
        }
    }

    /// One call of the function: the text it returned.
    fn call(
        &mut self,
        game: GameKind,
        board: &str,
        side: char,
        depth: u32,
        size: usize,
        stop: &AtomicBool,
    ) -> Result<Option<String>, Failed> {
        if self.driver.as_ref().is_some_and(|d| d.0.game != game) {
            self.driver = None;
        }
        if self.driver.is_none() {
            let d = self.start(game, stop)?;
            self.driver = Some(DriverSlot(d));
        }
        let limits = self.limits.clone();
        let d = &mut self.driver.as_mut().expect("started above").0;
        let _ = d.out.take();
        let _ = d.err.take();
        let request = format!("{}\t{board}\t{side}\t{depth}\t{size}\n", game.name());
        if d.stdin
            .write_all(request.as_bytes())
            .and_then(|()| d.stdin.flush())
            .is_err()
        {
            let failed = d.died();
            self.driver = None;
            return Err(failed);
        }
        let mut waited = d.wait(&limits, limits.move_timeout, stop);
        // A fork refused at the cap is the program's fault, even when it answered after it.
        let capped = matches!(waited, Waited::Failed((Fault::Processes, _)));
        if !capped
            && !matches!(waited, Waited::Stopped)
            && d.jail.cap_reached() == Some(true)
            && let Some(max) = limits.processes
        {
            waited = Waited::Failed(super::limits::cap_reached(max));
        }
        if let Waited::Failed((Fault::Processes, why)) = &mut waited {
            // Its last words, as it learnt of the refusal.
            thread::sleep(Duration::from_millis(100));
            if let Some(t) = process::tail(&d.err.take()) {
                why.push_str(&format!("; its standard error ends: '{t}'"));
            }
        }
        let result = match waited {
            Waited::Line(l) => match (l.chars().next(), l.get(1..)) {
                (Some('='), Some(v)) => Ok(Some(v.to_string())),
                (Some('!'), Some(why)) => {
                    let tail = process::tail(&d.err.take())
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
                    format!("the driver wrote '{}'", process::escape(&l)),
                )),
            },
            Waited::Failed(f) => Err(f),
            Waited::Stopped => Ok(None),
        };
        if result.is_err() || !self.reuse || matches!(result, Ok(None)) {
            self.driver = None;
        }
        result
    }

    fn search_line<G: Game>(
        &mut self,
        line: &Line<G>,
        go: Go,
        stop: &AtomicBool,
        report: &mut dyn FnMut(Info),
    ) -> Option<Move> {
        let pos = *line.current();
        let mut moves = MoveList::new();
        line.legal_moves(&mut moves);
        let depth = match go {
            Go::Depth(d) => d,
            _ => self.depth,
        };
        let shape = self.shape();
        let board = shape.board_text(line);
        let side = pos.side_to_move().letter();
        if !self.noted {
            self.noted = true;
            for note in self.limits.notes() {
                report(Info::String(format!("board-call: note: {note}")));
            }
        }
        let function = self.spec.function.clone();
        let mut fail = |fault: Fault, why: String| {
            report(Info::String(format!(
                "board-call: [{fault}] {function}: {why} (called with '{board}' {side} {depth})"
            )));
            None
        };
        match self.call(G::KIND, &board, side, depth, pos.size(), stop) {
            Err((fault, why)) => fail(fault, why),
            Ok(None) => moves.as_slice().first().copied(),
            Ok(Some(value)) => match shape.read_answer(line, &moves, &value) {
                None => fail(
                    Fault::NoBoard,
                    format!(
                        "it returned '{}', not a {} board of size {}",
                        process::escape(&value),
                        G::KIND,
                        pos.size()
                    ),
                ),
                Some(a) => match a.best {
                    Some(m) => Some(m),
                    None => fail(
                        Fault::Illegal,
                        format!(
                            "its board '{}' is not the result of any legal move",
                            process::escape(&a.text)
                        ),
                    ),
                },
            },
        }
    }
}

impl Backend for FunctionCall {
    fn resize(&mut self, _hash_mib: usize) {}

    fn set_trace(&mut self, _on: bool) {}

    /// Never called: the function's evaluator is its own.
    fn set_evaluator(&mut self, _kind: EvalKind) {}

    fn options(&self) -> Vec<OptionDecl> {
        super::adapter_options()
    }

    fn searched_by(&self) -> &'static str {
        "a board-call function"
    }

    /// A new game: the driver of the last one ends.
    fn clear(&mut self) {
        self.driver = None;
    }

    fn search(
        &mut self,
        line: &AnyLine,
        go: Go,
        stop: &AtomicBool,
        report: &mut dyn FnMut(Info),
    ) -> Option<Move> {
        crate::with_game!(l in line => self.search_line(l, go, stop, report))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_and_seed_names() {
        assert!(FunctionSpec::parse("python3").is_none());
        assert!(FunctionSpec::parse("x.txt:f").is_none());
        assert!(matches!(
            FunctionSpec::parse("x.py:"),
            Some(Err(FunctionError::Syntax(_)))
        ));
        assert!(matches!(
            FunctionSpec::parse("/no/such/file.py:f"),
            Some(Err(FunctionError::File { .. }))
        ));
        let py = "import x\ndef helper(a):\n    pass\ndef oskaplayer(board, side, depth):\n    return board\n";
        assert_eq!(
            seed_function(GameKind::Oska, Language::Python, py).as_deref(),
            Some("oskaplayer")
        );
        assert_eq!(
            seed_function(GameKind::Hexapawn, Language::Python, py),
            None
        );
        let hs = "module Main where\noska_x1y2 :: [String] -> Char -> Int -> [String]\noska_x1y2 b _ _ = b\n";
        assert_eq!(
            seed_function(GameKind::Oska, Language::Haskell, hs).as_deref(),
            Some("oska_x1y2")
        );
        let lisp = "(defun helper (x) x)\n(DEFUN OSKAMANIAC (board side depth trace) board)\n";
        assert_eq!(
            seed_function(GameKind::Oska, Language::Lisp, lisp).as_deref(),
            Some("OSKAMANIAC")
        );
    }

    #[test]
    fn haskell_headers_are_replaced_or_added() {
        assert_eq!(
            haskell_module("-- c\nmodule Main (main) where\nimport X\n"),
            "-- c\nmodule Submission where\nimport X\n"
        );
        assert_eq!(
            haskell_module("module Oska\n  ( oska_x1y2\n  ) where\nf = 1\n"),
            "module Submission where\nf = 1\n"
        );
        assert_eq!(
            haskell_module("{-# LANGUAGE X #-}\n{- a\n b -}\nimport Y\n"),
            "{-# LANGUAGE X #-}\n{- a\n b -}\nmodule Submission where\nimport Y\n"
        );
    }

    #[test]
    fn faults_are_found_in_messages() {
        assert_eq!(
            Fault::find_in(
                "illegal move by x (white): bestmove none (the engine said: board-call: [memory] f: MemoryError)"
            ),
            Some(Fault::Memory)
        );
        assert_eq!(Fault::find_in("crash by x"), None);
    }
}
