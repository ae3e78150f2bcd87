//! Drives an engine process over the line protocol (tokio).
//!
//! [`Engine::start`] runs a program directly (never through a shell), performs the `uci`
//! handshake with a timeout and collects the engine's identity, games and options. Messages are
//! typed both ways with [`boardgames_core::protocol`]. Failures are told apart by [`ClientError`]: the
//! program could not start, it crashed (exited or closed its output), it stalled (no answer in
//! time), or it broke the protocol (an unreadable line). The engine's stderr is kept (its last
//! lines) for diagnostics.
//!
//! **Processes.** Each engine runs in a process group of its own (Unix), so that whatever it
//! starts (a wrapper script's real engine, helper processes) is ended with it. On Linux it also
//! gets a parent-death signal (SIGKILL when this program dies, even by SIGKILL; see the
//! `orphans` module), so an engine in the middle of a `go solve` does not outlive a GUI or an
//! arena that was killed. That signal reaches the engine process itself; what it started in its
//! group is left to notice that its input or output closed. Where a pids cgroup can be made,
//! each engine also runs in one of its own, and everything in it (a `setsid` grandchild that
//! left the process group included) is killed when the engine ends; a program that made itself
//! a child subreaper ([`crate::process::contain::become_subreaper`], as `arena` does) also has
//! every process that an ended engine left behind killed. A task waits for
//! the engine's exit: an engine that exits is reported as crashed at once (with its exit status)
//! even when a child of it still holds its output open, and the rest of its group is killed
//! then. [`Engine::shutdown`] sends `quit`, waits a grace period, then sends SIGTERM and, if
//! needed, SIGKILL to the whole group, and reaps the process; dropping an [`Engine`] kills the
//! group too, so neither a zombie nor an orphan remains.
//!
//! **Order.** A `bestmove` is only valid as the answer to a `go` the client sent; one that comes
//! when no `go` is pending is a [`ClientError::Protocol`] violation.
//!
//! **By position.** [`simple::SimpleEngine`] drives an engine by position rather than by line:
//! `play`, `analyse`, `analysis` and `configure`, with `newgame` sent only when the game or the
//! size changes and every `error` reply typed; [`blocking::SimpleEngine`] is the same for
//! callers without tokio. The arena, the conformance suite and the GUI all drive their engines
//! with it (the GUI with [`Strictness::Lenient`]).

use std::collections::VecDeque;
use std::ffi::OsStr;
use std::io;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command as Process};
use tokio::sync::{mpsc, watch};
use tokio::time::timeout;

use crate::process::cgroup::gone;
#[cfg(target_os = "linux")]
use crate::process::contain::{self, EngineCgroup};
use crate::process::group::{self, Cleanup, ProcessGroup, Stop};
#[cfg(target_os = "linux")]
use crate::process::orphans;
use boardgames_core::games::GameKind;
use boardgames_core::games::notation::MoveText;
use boardgames_core::protocol::{Command, Go, OptionDecl, ProtocolError, Reply};

pub mod blocking;
pub mod simple;

pub use simple::{
    Analysis, EngineError, Limit, PlayResult, Position, SimpleEngine, Strictness, pv_moves,
};

/// The margin added to an engine's own time limit before it counts as stalled, unless the user
/// says otherwise (`arena`'s `timeout=`, the GUI's engine settings). It also bounds the
/// handshake and every `isready`.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// The margin of a board-call program (`engine board-call`, `arena`'s `boardcall=`) unless the
/// user says otherwise. Seed programs are plain minimax, often in Python: measured on this
/// project's machine, a straightforward Python Oska player takes 34 s at depth 5 on the 8-piece
/// board and 31 s at depth 7 on the 5-piece board, from the start (more in the middle game),
/// where 10 s would forfeit the game. Two minutes leave room for that, at the cost of waiting
/// that long for a program that hangs.
pub const BOARDCALL_TIMEOUT: Duration = Duration::from_secs(120);

/// How many stderr lines are kept.
pub const STDERR_LINES: usize = 100;

/// The longest stdout line the client reads; longer ones are a protocol violation.
pub const MAX_REPLY_LINE: usize = 64 << 20;

/// Why talking to an engine failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The program could not be started.
    #[error("cannot start engine '{program}': {source}")]
    Spawn {
        /// The program.
        program: String,
        /// Why.
        source: io::Error,
    },
    /// The engine exited or closed its output (or its input).
    #[error("{}{}", crash_text(*status, *closed), tail(stderr))]
    Crashed {
        /// Its exit status, if it was collected.
        status: Option<ExitStatus>,
        /// Its last stderr lines.
        stderr: Vec<String>,
        /// The pipe the engine closed while it kept running (it had not exited a second
        /// later); `None` when it exited.
        closed: Option<Pipe>,
    },
    /// The engine did not answer in time.
    #[error(
        "the engine stalled: no {waiting_for} within {:.1} s",
        after.as_secs_f64()
    )]
    Stalled {
        /// What was awaited.
        waiting_for: String,
        /// How long.
        after: Duration,
    },
    /// The engine wrote a line that is not a reply, or a reply out of place.
    #[error("protocol violation: {why}: '{line}'")]
    Protocol {
        /// The line.
        line: String,
        /// What is wrong with it.
        why: String,
    },
}

impl ClientError {
    /// What went wrong, in words that do not repeat the kind of failure, for reports that name
    /// the kind apart (the arena's faults): the protocol violation without its `protocol
    /// violation:` prefix, every other failure as its message. The one wording of a client
    /// failure: the arena, the GUI and the conformance suite all use this or the message.
    pub fn detail(&self) -> String {
        match self {
            ClientError::Protocol { line, why } => format!("{why}: '{line}'"),
            e => e.to_string(),
        }
    }
}

/// One of the engine's standard streams that the client talks through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pipe {
    /// Its standard input: the client's commands.
    Stdin,
    /// Its standard output: its replies.
    Stdout,
}

impl Pipe {
    /// `standard input` or `standard output`.
    pub fn as_str(self) -> &'static str {
        match self {
            Pipe::Stdin => "standard input",
            Pipe::Stdout => "standard output",
        }
    }
}

/// What happened to an engine that can no longer be talked to: `the engine closed its standard
/// output (still running)`, `the engine exited (exit status: 3)`, `the engine crashed (signal: 11
/// (SIGSEGV))`, or `the engine crashed or exited (status unknown)`.
fn crash_text(status: Option<ExitStatus>, closed: Option<Pipe>) -> String {
    match closed {
        Some(p) => format!("the engine closed its {} (still running)", p.as_str()),
        None => match status {
            Some(s) if s.code().is_some() => format!("the engine exited ({s})"),
            Some(s) => format!("the engine crashed ({s})"),
            None => "the engine crashed or exited (status unknown)".into(),
        },
    }
}

fn tail(lines: &[String]) -> String {
    match lines.last() {
        Some(l) => format!("; last stderr line: {l}"),
        None => String::new(),
    }
}

/// Which way a line went, for a [`Tap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// From the client to the engine.
    Sent,
    /// From the engine to the client.
    Received,
}

/// Sees every line that passes through the client, as it passes (line ending removed). Called on
/// the task that sends or receives, so it must be quick and must not block.
pub type Tap = Arc<dyn Fn(Direction, &str) + Send + Sync>;

/// What the engine said about itself in the handshake.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineInfo {
    /// `id name`.
    pub name: String,
    /// `id author`.
    pub author: String,
    /// `game NAME MIN MAX` lines.
    pub games: Vec<(GameKind, u32, u32)>,
    /// `option` lines.
    pub options: Vec<OptionDecl>,
}

impl EngineInfo {
    /// Whether its `game NAME MIN MAX` lines declare `game` at `size`.
    pub fn plays(&self, game: GameKind, size: usize) -> bool {
        self.games
            .iter()
            .any(|&(g, lo, hi)| g == game && (lo as usize..=hi as usize).contains(&size))
    }
}

/// The end of a `go`: every reply before the `bestmove`, and the best move (`None` for
/// `bestmove none`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoResult {
    /// Replies seen before `bestmove` (`info`, `result`, `perft`, `nodes`, errors...).
    pub replies: Vec<Reply>,
    /// The move of `bestmove`.
    pub best: Option<MoveText>,
}

enum Line {
    Text(String),
    TooLong,
    Eof,
}

/// How long lines written just before an engine exited may take to arrive.
const LAST_WORDS: Duration = Duration::from_millis(100);

/// How long a group gets between SIGTERM and SIGKILL.
const TERM_GRACE: Duration = Duration::from_millis(200);

/// The engine's process as the waiting task sees it.
#[derive(Clone, Copy, Debug)]
enum Exit {
    Running,
    /// Exited and reaped (the status is `None` if waiting failed).
    Exited(Option<ExitStatus>),
}

/// A running engine.
pub struct Engine {
    /// The process id, which is also its process group's id.
    pid: Option<u32>,
    /// Its process group, led by it.
    group: Option<ProcessGroup>,
    exit: watch::Receiver<Exit>,
    /// Asks the waiting task to kill the process (where process groups are not available).
    kill: Option<mpsc::UnboundedSender<()>>,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<Line>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    info: EngineInfo,
    status: Option<ExitStatus>,
    tap: Option<Tap>,
    /// `go` commands sent whose `bestmove` has not come yet.
    pending: usize,
}

/// An engine's cgroup, where there are such (Linux).
#[cfg(target_os = "linux")]
type Cgroup = EngineCgroup;
#[cfg(not(target_os = "linux"))]
type Cgroup = ();

/// Spawns `cmd` from the long-lived spawner thread (inside the caller's tokio runtime), so that
/// the engine's parent-death signal fires when this program ends, not when the calling thread
/// does (see the `orphans` module).
#[cfg(target_os = "linux")]
fn spawn_child(mut cmd: Process) -> io::Result<Child> {
    let runtime = tokio::runtime::Handle::current();
    orphans::on_spawner(move || {
        let _inside = runtime.enter();
        cmd.spawn()
    })?
}

#[cfg(not(target_os = "linux"))]
fn spawn_child(mut cmd: Process) -> io::Result<Child> {
    cmd.spawn()
}

/// An engine that runs now: its process group, and the cleanups to do once it has exited (those
/// registered with [`group::after_exit`] when it was started).
#[derive(Clone)]
struct Live {
    group: ProcessGroup,
    cleanups: Vec<Cleanup>,
}

/// The engines that run now, for [`kill_all`].
static LIVE: Mutex<Vec<Live>> = Mutex::new(Vec::new());

/// Held while an engine is started and entered in [`LIVE`], and while orphans are killed: a
/// child just forked is never taken for an orphan.
static SPAWNING: Mutex<()> = Mutex::new(());

/// Set by [`kill_all`], under [`SPAWNING`]: no engine is started after it (its cgroup would
/// outlive the program).
static ENDING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Kills what ended engines left behind, when this program is a child subreaper (Linux).
fn kill_orphans() {
    #[cfg(target_os = "linux")]
    {
        let _spawning = SPAWNING.lock().unwrap_or_else(|e| e.into_inner());
        let ours: Vec<u32> = live().iter().map(|l| l.group.id()).collect();
        contain::kill_orphans(&ours);
    }
}

fn live() -> std::sync::MutexGuard<'static, Vec<Live>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Kills (SIGKILL) the process group of every engine started by this process that still runs:
/// for a program that is interrupted (Ctrl-C) and cannot shut its engines down one by one.
/// The engines are in process groups of their own, so the terminal's Ctrl-C does not reach them.
/// Each engine's registered cleanups ([`group::after_exit`]: what a killed board-call adapter
/// leaves, say) are done once it is gone, two seconds at most each, and the engines' cgroups
/// are removed (Linux); no engine is started after it.
pub fn kill_all() {
    {
        let _spawning = SPAWNING.lock().unwrap_or_else(|e| e.into_inner());
        ENDING.store(true, std::sync::atomic::Ordering::SeqCst);
    }
    let engines: Vec<Live> = live().clone();
    for e in &engines {
        e.group.kill();
    }
    for e in engines {
        let pid = e.group.id();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
        while !gone(pid) && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        for cleanup in e.cleanups {
            cleanup(pid);
        }
    }
    #[cfg(target_os = "linux")]
    contain::kill_all_cgroups();
    kill_orphans();
}

/// Waits for the engine's exit (or a request to kill it), reaps it, ends the rest of its
/// process group, does the `cleanups` registered when it was started and tells the [`Engine`].
async fn wait_exit_task(
    mut child: Child,
    group: Option<ProcessGroup>,
    cleanups: Vec<Cleanup>,
    mut kill: mpsc::UnboundedReceiver<()>,
    tx: watch::Sender<Exit>,
    cgroup: Option<Cgroup>,
) {
    let status = tokio::select! {
        s = child.wait() => s.ok(),
        _ = kill.recv() => {
            let _ = child.start_kill();
            child.wait().await.ok()
        }
    };
    // The leader is gone; anything it left in its group would be an orphan.
    if let Some(group) = group {
        group.kill();
        live().retain(|l| l.group != group);
        // What a killed engine leaves (a board-call adapter's run folders and cgroups), removed
        // by the cleanups of whoever knows it.
        if !cleanups.is_empty() {
            let pid = group.id();
            let _ = tokio::task::spawn_blocking(move || {
                for cleanup in cleanups {
                    cleanup(pid);
                }
            })
            .await;
        }
    }
    // Its descendants outside the group: in its cgroup, or orphans reparented here.
    let _ = tokio::task::spawn_blocking(move || {
        drop(cgroup);
        kill_orphans();
    })
    .await;
    tx.send_replace(Exit::Exited(status));
}

async fn read_lines(out: impl AsyncRead + Unpin, tx: mpsc::Sender<Line>) {
    let mut out = BufReader::new(out);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let mut limited = (&mut out).take(MAX_REPLY_LINE as u64 + 1);
        match limited.read_until(b'\n', &mut buf).await {
            Ok(0) | Err(_) => {
                let _ = tx.send(Line::Eof).await;
                return;
            }
            Ok(_) => {
                let msg = if buf.len() > MAX_REPLY_LINE && buf.last() != Some(&b'\n') {
                    Line::TooLong
                } else {
                    Line::Text(String::from_utf8_lossy(&buf).into_owned())
                };
                let too_long = matches!(msg, Line::TooLong);
                if tx.send(msg).await.is_err() || too_long {
                    return;
                }
            }
        }
    }
}

async fn keep_stderr(err: impl AsyncRead + Unpin, keep: Arc<Mutex<VecDeque<String>>>) {
    let mut lines = BufReader::new(err).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let mut k = keep.lock().unwrap_or_else(|e| e.into_inner());
        if k.len() == STDERR_LINES {
            k.pop_front();
        }
        k.push_back(line);
    }
}

impl Engine {
    /// Starts `program` with `args` (no shell), and performs the handshake (`uci` .. `uciok`)
    /// within `handshake`.
    pub async fn start<S: AsRef<OsStr>>(
        program: impl AsRef<OsStr>,
        args: &[S],
        handshake: Duration,
    ) -> Result<Engine, ClientError> {
        Self::start_tapped(program, args, handshake, None).await
    }

    /// [`Engine::start`], with every line sent and received (the handshake's too) shown to `tap`.
    pub async fn start_tapped<S: AsRef<OsStr>>(
        program: impl AsRef<OsStr>,
        args: &[S],
        handshake: Duration,
        tap: Option<Tap>,
    ) -> Result<Engine, ClientError> {
        let mut engine = Self::spawn(program, args)?;
        engine.tap = tap;
        // A program that exits at once makes this write fail; what it printed before exiting
        // (read below) tells more than the broken pipe, so the failure is reported from there.
        let sent = engine.send(&Command::Uci).await;
        let mut info = EngineInfo::default();
        let deadline = tokio::time::Instant::now() + handshake;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let reply = match engine.recv_within(left, "uciok").await {
                Ok(r) => r,
                Err(e) => {
                    return Err(if matches!(e, ClientError::Stalled { .. }) {
                        sent.err().unwrap_or(e)
                    } else {
                        e
                    });
                }
            };
            match reply {
                Reply::IdName(n) => info.name = n,
                Reply::IdAuthor(a) => info.author = a,
                Reply::Game { game, min, max } => info.games.push((game, min, max)),
                Reply::Option(o) => info.options.push(o),
                Reply::UciOk => break,
                Reply::Info(_) => {}
                other => {
                    return Err(ClientError::Protocol {
                        line: other.to_string(),
                        why: "unexpected reply during the handshake".into(),
                    });
                }
            }
        }
        engine.info = info;
        Ok(engine)
    }

    /// Starts `program` with `args` without any handshake.
    pub fn spawn<S: AsRef<OsStr>>(
        program: impl AsRef<OsStr>,
        args: &[S],
    ) -> Result<Engine, ClientError> {
        let program = program.as_ref();
        let mut cmd = Process::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        // A group of its own, led by the engine: its group id is its process id.
        #[cfg(unix)]
        cmd.process_group(0);
        let spawning = SPAWNING.lock().unwrap_or_else(|e| e.into_inner());
        if ENDING.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(ClientError::Spawn {
                program: program.to_string_lossy().into_owned(),
                source: io::Error::other("the program is ending"),
            });
        }
        #[cfg(target_os = "linux")]
        let cgroup = EngineCgroup::new();
        #[cfg(not(target_os = "linux"))]
        let cgroup: Option<Cgroup> = None;
        #[cfg(target_os = "linux")]
        {
            let parent = std::process::id();
            let join = cgroup.as_ref().map(EngineCgroup::join_fd);
            // SAFETY: die_with_parent and join only make system calls; they allocate nothing.
            unsafe {
                cmd.pre_exec(move || {
                    if let Some(fd) = join {
                        contain::join(fd);
                    }
                    orphans::die_with_parent(parent)
                });
            }
        }
        let mut child = spawn_child(cmd).map_err(|source| ClientError::Spawn {
            program: program.to_string_lossy().into_owned(),
            source,
        })?;
        let (tx, rx) = mpsc::channel(1024);
        let stdout = child.stdout.take().expect("stdout is piped");
        tokio::spawn(read_lines(stdout, tx));
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let err = child.stderr.take().expect("stderr is piped");
        tokio::spawn(keep_stderr(err, Arc::clone(&stderr)));
        let stdin = child.stdin.take();
        let pid = child.id();
        let group = pid.and_then(ProcessGroup::from_id);
        let cleanups = group::cleanups();
        if let Some(group) = group {
            live().push(Live {
                group,
                cleanups: cleanups.clone(),
            });
        }
        drop(spawning);
        let (exit_tx, exit) = watch::channel(Exit::Running);
        let (kill, kill_rx) = mpsc::unbounded_channel();
        tokio::spawn(wait_exit_task(
            child, group, cleanups, kill_rx, exit_tx, cgroup,
        ));
        Ok(Engine {
            pid,
            group,
            exit,
            kill: Some(kill),
            stdin,
            lines: rx,
            stderr,
            info: EngineInfo::default(),
            status: None,
            tap: None,
            pending: 0,
        })
    }

    /// Shows every later line sent and received to `tap` (`None`: to nobody).
    pub fn set_tap(&mut self, tap: Option<Tap>) {
        self.tap = tap;
    }

    /// What the engine said in the handshake.
    pub fn info(&self) -> &EngineInfo {
        &self.info
    }

    /// The last lines the engine wrote on stderr (at most [`STDERR_LINES`]).
    pub fn stderr_tail(&self) -> Vec<String> {
        let k = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        k.iter().cloned().collect()
    }

    /// The process id (also its process group's id), while it runs.
    pub fn id(&self) -> Option<u32> {
        match *self.exit.borrow() {
            Exit::Running => self.pid,
            Exit::Exited(_) => None,
        }
    }

    /// Sends `stop` to the engine's process group.
    fn signal(&self, stop: Stop) {
        if let Some(group) = self.group {
            group.signal(stop);
        }
    }

    /// Whether the process has exited (and been reaped).
    fn has_exited(&self) -> bool {
        matches!(*self.exit.borrow(), Exit::Exited(_))
    }

    /// Waits up to `within` for the process to exit; its status once it has.
    async fn exited_within(&mut self, within: Duration) -> Option<Option<ExitStatus>> {
        let waited = timeout(within, self.exit.wait_for(|e| matches!(e, Exit::Exited(_)))).await;
        match waited {
            Ok(Ok(e)) => match *e {
                Exit::Exited(s) => Some(s),
                Exit::Running => None,
            },
            _ => None,
        }
    }

    /// The error of an engine that can no longer be talked to through `pipe` (`None`: the
    /// client closed its input itself): a crash or exit when the process has exited within a
    /// second, else the pipe it closed while it keeps running.
    async fn crashed(&mut self, pipe: Option<Pipe>) -> ClientError {
        let mut exited = self.status.is_some();
        if !exited {
            let waited = self.exited_within(Duration::from_secs(1)).await;
            exited = waited.is_some();
            self.status = waited.flatten();
            // Let the stderr reader catch up with the last lines the process wrote.
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        ClientError::Crashed {
            status: self.status,
            stderr: self.stderr_tail(),
            closed: if exited { None } else { pipe },
        }
    }

    /// Ends the process group: SIGTERM, up to [`TERM_GRACE`] to exit, then SIGKILL (elsewhere
    /// than Unix: kills the process). Waits until the process is reaped.
    async fn end_group(&mut self) {
        if !self.has_exited() {
            self.signal(Stop::Term);
            if self.exited_within(TERM_GRACE).await.is_none() {
                self.signal(Stop::Kill);
                if let Some(k) = &self.kill {
                    let _ = k.send(());
                }
            }
        }
        if let Some(s) = self.exited_within(Duration::from_secs(5)).await {
            self.status = self.status.or(s);
        }
    }

    /// Sends a command.
    pub async fn send(&mut self, cmd: &Command) -> Result<(), ClientError> {
        self.send_raw(&format!("{cmd}\n")).await
    }

    /// Sends text exactly as given (it should end with a line ending); for tests of odd input.
    pub async fn send_raw(&mut self, text: &str) -> Result<(), ClientError> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(self.crashed(None).await);
        };
        for line in text.lines() {
            if let Some(tap) = &self.tap {
                tap(Direction::Sent, line);
            }
            let go = line.trim_start().starts_with("go");
            if go && matches!(Command::parse(line), Ok(Command::Go(_))) {
                self.pending += 1;
            }
        }
        let ok = stdin.write_all(text.as_bytes()).await.is_ok() && stdin.flush().await.is_ok();
        if ok {
            Ok(())
        } else {
            Err(self.crashed(Some(Pipe::Stdin)).await)
        }
    }

    /// Closes the engine's input (end of input means `quit`).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line as it was written (line ending removed), within `within`.
    pub async fn recv_line(&mut self, within: Duration) -> Result<String, ClientError> {
        self.recv_line_for(within, "reply").await
    }

    /// The next line within `within`. Once the process has exited, only lines already on their
    /// way (for [`LAST_WORDS`]) are read: a child of the engine that keeps its output open
    /// cannot make a crash look like a stall.
    async fn next_line(&mut self, within: Duration) -> Result<Option<Line>, ()> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            if self.has_exited() {
                // A timeout here is the exit, not a stall.
                return Ok(timeout(LAST_WORDS, self.lines.recv()).await.ok().flatten());
            }
            tokio::select! {
                biased;
                l = self.lines.recv() => return Ok(l),
                changed = self.exit.changed() => {
                    if changed.is_err() {
                        // The waiting task is gone (the runtime is ending): lines only.
                        return timeout(within, self.lines.recv()).await.map_err(|_| ());
                    }
                }
                _ = tokio::time::sleep_until(deadline) => return Err(()),
            }
        }
    }

    async fn recv_line_for(&mut self, within: Duration, what: &str) -> Result<String, ClientError> {
        match self.next_line(within).await {
            Err(()) => Err(ClientError::Stalled {
                waiting_for: what.to_string(),
                after: within,
            }),
            Ok(None | Some(Line::Eof)) => Err(self.crashed(Some(Pipe::Stdout)).await),
            Ok(Some(Line::TooLong)) => Err(ClientError::Protocol {
                line: "...".into(),
                why: format!("a line longer than {MAX_REPLY_LINE} bytes"),
            }),
            Ok(Some(Line::Text(t))) => {
                let line = t.trim_end_matches(['\n', '\r']).to_string();
                if let Some(tap) = &self.tap {
                    tap(Direction::Received, &line);
                }
                Ok(line)
            }
        }
    }

    async fn recv_within(&mut self, within: Duration, what: &str) -> Result<Reply, ClientError> {
        let line = self.recv_line_for(within, what).await?;
        let reply = Reply::parse(&line).map_err(|e: ProtocolError| ClientError::Protocol {
            line: line.clone(),
            why: e.to_string(),
        })?;
        if matches!(reply, Reply::BestMove(_)) {
            if self.pending == 0 {
                return Err(ClientError::Protocol {
                    line,
                    why: "a bestmove with no go pending".into(),
                });
            }
            self.pending -= 1;
        }
        Ok(reply)
    }

    /// The next reply, within `within`.
    pub async fn recv(&mut self, within: Duration) -> Result<Reply, ClientError> {
        self.recv_within(within, "reply").await
    }

    /// Replies until one for which `last` holds (returned last), all within `within`.
    pub async fn recv_until(
        &mut self,
        within: Duration,
        what: &str,
        mut last: impl FnMut(&Reply) -> bool,
    ) -> Result<Vec<Reply>, ClientError> {
        let deadline = tokio::time::Instant::now() + within;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let r = self.recv_within(left, what).await.map_err(|e| match e {
                ClientError::Stalled { waiting_for, .. } => ClientError::Stalled {
                    waiting_for,
                    after: within,
                },
                e => e,
            })?;
            let done = last(&r);
            seen.push(r);
            if done {
                return Ok(seen);
            }
        }
    }

    /// `isready`, then waits for `readyok`; returns the replies that came before it.
    pub async fn ping(&mut self, within: Duration) -> Result<Vec<Reply>, ClientError> {
        self.send(&Command::IsReady).await?;
        let mut seen = self
            .recv_until(within, "readyok", |r| *r == Reply::ReadyOk)
            .await?;
        seen.pop();
        Ok(seen)
    }

    /// Waits for the `bestmove` of the running `go`.
    pub async fn wait_bestmove(&mut self, within: Duration) -> Result<GoResult, ClientError> {
        let mut replies = self
            .recv_until(within, "bestmove", |r| matches!(r, Reply::BestMove(_)))
            .await?;
        let Some(Reply::BestMove(best)) = replies.pop() else {
            unreachable!("recv_until ends with a bestmove");
        };
        Ok(GoResult { replies, best })
    }

    /// Sends `go` and waits for its `bestmove`.
    pub async fn go(&mut self, go: Go, within: Duration) -> Result<GoResult, ClientError> {
        self.send(&Command::Go(go)).await?;
        self.wait_bestmove(within).await
    }

    /// Sends `stop` and waits for the `bestmove` of the running search.
    pub async fn stop(&mut self, within: Duration) -> Result<GoResult, ClientError> {
        self.send(&Command::Stop).await?;
        self.wait_bestmove(within).await
    }

    /// Waits for the process to exit within `within` (after `quit` or closing its input).
    pub async fn wait_exit(&mut self, within: Duration) -> Result<ExitStatus, ClientError> {
        if let Some(s) = self.status {
            return Ok(s);
        }
        match self.exited_within(within).await {
            Some(Some(s)) => {
                self.status = Some(s);
                Ok(s)
            }
            Some(None) => Err(self.crashed(None).await),
            None => Err(ClientError::Stalled {
                waiting_for: "exit".into(),
                after: within,
            }),
        }
    }

    /// Ends the engine: `quit`, up to `grace` to exit, then SIGTERM and SIGKILL to its process
    /// group. The process is always reaped, and nothing of its group is left running. Returns
    /// its exit status, or the `Stalled` error if it had to be killed.
    pub async fn shutdown(mut self, grace: Duration) -> Result<ExitStatus, ClientError> {
        let _ = self.send(&Command::Quit).await;
        self.close_input();
        match self.wait_exit(grace).await {
            Ok(s) => Ok(s),
            Err(e) => {
                self.end_group().await;
                Err(e)
            }
        }
    }
}

impl Drop for Engine {
    /// Kills the process group of an engine still running; the waiting task reaps it.
    fn drop(&mut self) {
        if !self.has_exited() {
            self.signal(Stop::Kill);
            if let Some(k) = &self.kill {
                let _ = k.send(());
            }
        }
    }
}
