//! Drives an engine process over the line protocol (tokio).
//!
//! [`Engine::start`] runs a program directly (never through a shell), performs the `uci`
//! handshake with a timeout and collects the engine's identity, games and options. Messages are
//! typed both ways with [`crate::protocol`]. Failures are told apart by [`ClientError`]: the
//! program could not start, it crashed (exited or closed its output), it stalled (no answer in
//! time), or it broke the protocol (an unreadable line). The engine's stderr is kept (its last
//! lines) for diagnostics. [`Engine::shutdown`] sends `quit`, waits a grace period, then kills and
//! reaps the process; dropping an [`Engine`] kills it too (`kill_on_drop`), so no zombie remains.

use std::collections::VecDeque;
use std::ffi::OsStr;
use std::io;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command as Process};
use tokio::sync::mpsc;
use tokio::time::timeout;

use crate::games::GameKind;
use crate::protocol::{Command, Go, OptionDecl, ProtocolError, Reply};

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
    /// The engine exited or closed its output.
    #[error("the engine crashed or exited (status {status:?}){}", tail(stderr))]
    Crashed {
        /// Its exit status, if it was collected.
        status: Option<ExitStatus>,
        /// Its last stderr lines.
        stderr: Vec<String>,
    },
    /// The engine did not answer in time.
    #[error("the engine stalled: no {waiting_for} within {after:?}")]
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

/// The end of a `go`: every reply before the `bestmove`, and the best move (`None` for
/// `bestmove none`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoResult {
    /// Replies seen before `bestmove` (`info`, `result`, `perft`, `nodes`, errors...).
    pub replies: Vec<Reply>,
    /// The move of `bestmove`.
    pub best: Option<String>,
}

enum Line {
    Text(String),
    TooLong,
    Eof,
}

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<Line>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    info: EngineInfo,
    status: Option<ExitStatus>,
    tap: Option<Tap>,
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
        let mut child = Process::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|source| ClientError::Spawn {
                program: program.to_string_lossy().into_owned(),
                source,
            })?;
        let (tx, rx) = mpsc::channel(1024);
        let stdout = child.stdout.take().expect("stdout is piped");
        tokio::spawn(read_lines(stdout, tx));
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let err = child.stderr.take().expect("stderr is piped");
        tokio::spawn(keep_stderr(err, Arc::clone(&stderr)));
        Ok(Engine {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            stderr,
            info: EngineInfo::default(),
            status: None,
            tap: None,
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

    /// The process id, while it runs.
    pub fn id(&self) -> Option<u32> {
        self.child.id()
    }

    async fn crashed(&mut self) -> ClientError {
        if self.status.is_none() {
            self.status = timeout(Duration::from_secs(1), self.child.wait())
                .await
                .ok()
                .and_then(Result::ok);
            // Let the stderr reader catch up with the last lines the process wrote.
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        ClientError::Crashed {
            status: self.status,
            stderr: self.stderr_tail(),
        }
    }

    /// Sends a command.
    pub async fn send(&mut self, cmd: &Command) -> Result<(), ClientError> {
        self.send_raw(&format!("{cmd}\n")).await
    }

    /// Sends text exactly as given (it should end with a line ending); for tests of odd input.
    pub async fn send_raw(&mut self, text: &str) -> Result<(), ClientError> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(self.crashed().await);
        };
        if let Some(tap) = &self.tap {
            for line in text.lines() {
                tap(Direction::Sent, line);
            }
        }
        let ok = stdin.write_all(text.as_bytes()).await.is_ok() && stdin.flush().await.is_ok();
        if ok {
            Ok(())
        } else {
            Err(self.crashed().await)
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

    async fn recv_line_for(&mut self, within: Duration, what: &str) -> Result<String, ClientError> {
        match timeout(within, self.lines.recv()).await {
            Err(_) => Err(ClientError::Stalled {
                waiting_for: what.to_string(),
                after: within,
            }),
            Ok(None | Some(Line::Eof)) => Err(self.crashed().await),
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
        Reply::parse(&line).map_err(|e: ProtocolError| ClientError::Protocol {
            line,
            why: e.to_string(),
        })
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
        match timeout(within, self.child.wait()).await {
            Ok(Ok(s)) => {
                self.status = Some(s);
                Ok(s)
            }
            Ok(Err(_)) => Err(self.crashed().await),
            Err(_) => Err(ClientError::Stalled {
                waiting_for: "exit".into(),
                after: within,
            }),
        }
    }

    /// Ends the engine: `quit`, up to `grace` to exit, then kill. The process is always reaped.
    /// Returns its exit status, or the `Stalled` error if it had to be killed.
    pub async fn shutdown(mut self, grace: Duration) -> Result<ExitStatus, ClientError> {
        let _ = self.send(&Command::Quit).await;
        self.close_input();
        match self.wait_exit(grace).await {
            Ok(s) => Ok(s),
            Err(e) => {
                let _ = self.child.kill().await;
                let _ = self.child.wait().await;
                Err(e)
            }
        }
    }
}
