//! One engine process, driven on the tokio runtime of the engine hub ([`crate::hub`]), never on
//! the UI thread.
//!
//! Each engine process has one task (an "actor") that owns its [`SimpleEngine`], the
//! position-level client that the arena and the conformance suite use too, set to
//! [`Strictness::Lenient`]: the GUI drives whatever engine its user chose, so `newgame` and
//! `position` go without an `isready` check, and an option the engine did not declare is sent
//! all the same, so that the engine's own refusal is what the user reads. The UI sends the
//! actor [`Request`]s through a tokio channel and receives [`EngineEvent`]s through a std
//! channel; every event also asks the UI for a repaint. A search is the client's
//! [`boardgames_tools::client::Analysis`], whose `info` lines become events as they come. When the UI
//! changes its mind while an engine thinks (new position, pause, new game), the actor stops the
//! search and waits for the `bestmove`, which it discards, before it sends anything else. On
//! [`Request::Quit`], or when the UI side of the channel is dropped, the actor sends `quit`,
//! waits a short grace, then kills and reaps the process.
//!
//! Every line sent to and received from an engine is appended to its [`SharedLog`] (the engine
//! console), from the engine's task: a short lock, never held by the UI while it waits.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc as std_mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use boardgames_core::games::GameKind;
use boardgames_core::games::notation::MoveText;
use boardgames_core::protocol::{Command, Go, Info, ProgressInfo, Reply, SearchInfo, Setup};
use boardgames_tools::client::{
    Analysis, ClientError, Direction, Engine, EngineError, EngineInfo, Limit, Position,
    SimpleEngine, Strictness, Tap,
};
use tokio::sync::mpsc;

/// How long the handshake may take.
pub const HANDSHAKE: Duration = Duration::from_secs(10);
/// How long an engine has to exit after `quit` before it is killed.
pub const GRACE: Duration = Duration::from_millis(500);
/// How long an engine has to answer `stop` with its `bestmove`.
pub const STOP_WAIT: Duration = Duration::from_secs(3);

/// The most lines an engine log keeps; older ones are dropped (and counted).
pub const LOG_LINES: usize = 5_000;

/// The raw lines to (`> ...`) and from (`< ...`) one engine, the last [`LOG_LINES`] of them, and
/// notes from the GUI (`# ...`: the engine started, failed, ended). Each line carries a stamp
/// from one counter shared by every log, so lines of several engines merge in time order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineLog {
    lines: VecDeque<(u64, String)>,
    dropped: u64,
}

/// The next line's stamp, for every log.
static NEXT_STAMP: AtomicU64 = AtomicU64::new(0);

impl EngineLog {
    /// Appends a line, dropping the oldest beyond [`LOG_LINES`].
    pub fn push(&mut self, line: String) {
        if self.lines.len() == LOG_LINES {
            self.lines.pop_front();
            self.dropped += 1;
        }
        // Stamped under the log's lock, so a log's stamps increase.
        let stamp = NEXT_STAMP.fetch_add(1, Ordering::Relaxed);
        self.lines.push_back((stamp, line));
    }

    /// The lines kept, oldest first.
    pub fn lines(&self) -> impl Iterator<Item = &str> {
        self.lines.iter().map(|(_, line)| line.as_str())
    }

    /// The lines kept with their stamps, oldest first.
    pub fn stamped(&self) -> impl Iterator<Item = (u64, &str)> {
        self.lines
            .iter()
            .map(|(stamp, line)| (*stamp, line.as_str()))
    }

    /// How many lines are kept.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether no line is kept.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// How many older lines were dropped.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Forgets every line.
    pub fn clear(&mut self) {
        self.lines.clear();
        self.dropped = 0;
    }
}

/// An engine log shared between the engine's task (which writes) and the UI (which reads).
pub type SharedLog = Arc<Mutex<EngineLog>>;

/// Appends a line to a shared log.
pub fn log_line(log: &SharedLog, line: String) {
    log.lock().unwrap_or_else(|e| e.into_inner()).push(line);
}

fn tap_into(log: SharedLog) -> Tap {
    Arc::new(move |direction, line| {
        let mark = match direction {
            Direction::Sent => '>',
            Direction::Received => '<',
        };
        log_line(&log, format!("{mark} {line}"));
    })
}

/// Something that wants to know when an event arrives (the UI's repaint).
pub type Waker = Arc<dyn Fn() + Send + Sync>;

/// One search asked of an engine: a position (as a start and the moves played from it) and a
/// limit.
#[derive(Clone, Debug)]
pub struct Search {
    /// Identifies the answer.
    pub id: u64,
    /// The game and size (`newgame` is sent when they change).
    pub game: GameKind,
    /// The size.
    pub size: u32,
    /// The start of the game.
    pub setup: Setup,
    /// The moves played from it.
    pub moves: Vec<String>,
    /// The search limit.
    pub go: Go,
}

/// What the UI asks an engine to do.
#[derive(Clone, Debug)]
pub enum Request {
    /// Search a position and answer with a move.
    Think(Search),
    /// Set an engine option (`setoption name NAME value VALUE`) before the next search.
    SetOption {
        /// The option's name.
        name: String,
        /// Its value.
        value: String,
    },
    /// Send a protocol command typed in the console (not `go`, `stop` or `quit`, which the GUI
    /// drives), then `isready`; the answers pass through the console's tap.
    Typed(String),
    /// Stop the running search and forget its answer.
    Stop,
    /// End the engine.
    Quit,
}

/// What an engine's actor tells the UI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineEvent {
    /// The handshake succeeded (and the launch's options were sent): what the engine said about
    /// itself (its `id name`, or the program's path when it gave none, and its `option` lines).
    Ready(EngineInfo),
    /// The engine refused a `setoption` (the engine goes on with the option unchanged); the text
    /// says which and why.
    Refused(String),
    /// A search has started.
    Thinking(u64),
    /// An `info depth ...` line of search `id`.
    Search {
        /// The request.
        id: u64,
        /// What the engine reported.
        info: SearchInfo,
    },
    /// An `info nodes ...` progress line of search `id` (the exact solver's, during `go solve`).
    Progress {
        /// The request.
        id: u64,
        /// What the engine reported.
        info: ProgressInfo,
    },
    /// The text of an `info trace` line of search `id` (when the `Trace` option is on).
    Trace {
        /// The request.
        id: u64,
        /// The text after `info trace`.
        text: String,
    },
    /// The text of an `info string` line of search `id`: the engine's own words (a board-call
    /// program's failure, for example), shown when the search gives no move.
    Said {
        /// The request.
        id: u64,
        /// The text after `info string`.
        text: String,
    },
    /// The answer to [`Request::Think`] `id` (`None` for `bestmove none`).
    BestMove {
        /// The request.
        id: u64,
        /// The move.
        best: Option<String>,
    },
    /// Search `id` was stopped on a request ([`Request::Stop`] or a new search): `stop` was sent
    /// and its `bestmove` (the move given) has arrived.
    Stopped {
        /// The request.
        id: u64,
        /// The move of the `bestmove` that answered `stop`.
        best: Option<String>,
    },
    /// The engine failed (could not start, crashed, stalled, broke the protocol or refused a
    /// command); it has been shut down. The text is in plain words.
    Failed(String),
    /// The engine has ended (after [`Request::Quit`] or a failure) and its process is reaped.
    Ended,
}

/// How to start an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// The program to run.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Gives up on a search that has not answered this long after its expected end.
    pub patience: Duration,
    /// The options sent with `setoption` after the handshake, as (name, value), in order.
    pub options: Vec<(String, String)>,
}

/// The UI's handle on one engine.
pub struct EngineHandle {
    requests: mpsc::UnboundedSender<Request>,
    events: std_mpsc::Receiver<EngineEvent>,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl EngineHandle {
    /// Starts an engine's actor on `runtime`; the handshake happens in the background. Every
    /// line to and from the engine goes to `log`, when there is one. Only the engine hub
    /// ([`crate::hub::Hub::spawn`]) calls it.
    pub(crate) fn spawn(
        runtime: &tokio::runtime::Handle,
        launch: Launch,
        waker: Waker,
        log: Option<SharedLog>,
    ) -> EngineHandle {
        let (req_tx, req_rx) = mpsc::unbounded_channel();
        let (ev_tx, ev_rx) = std_mpsc::channel();
        let out = Outbox {
            tx: ev_tx,
            waker,
            log: None,
        };
        let task = runtime.spawn(actor(launch, req_rx, out, log));
        EngineHandle {
            requests: req_tx,
            events: ev_rx,
            task: Some(task),
        }
    }

    /// Sends a request (ignored when the actor has ended).
    pub fn send(&self, request: Request) {
        let _ = self.requests.send(request);
    }

    /// The events that have arrived, without waiting.
    pub fn poll(&self) -> Vec<EngineEvent> {
        self.events.try_iter().collect()
    }

    /// Asks the engine to quit and returns the actor's task, to be awaited by whoever wants to
    /// be sure that the process is gone.
    pub fn quit(mut self) -> Option<tokio::task::JoinHandle<()>> {
        let _ = self.requests.send(Request::Quit);
        self.task.take()
    }
}

struct Outbox {
    tx: std_mpsc::Sender<EngineEvent>,
    waker: Waker,
    log: Option<SharedLog>,
}

impl Outbox {
    fn send(&self, event: EngineEvent) {
        if let Some(log) = &self.log {
            match &event {
                EngineEvent::Failed(why) => log_line(log, format!("# failed: {why}")),
                EngineEvent::Ended => log_line(log, "# ended".into()),
                _ => {}
            }
        }
        let _ = self.tx.send(event);
        (self.waker)();
    }
}

/// How long a search may run before the engine is deemed stalled. Searches that only end on
/// `stop` (`go infinite`, and `go solve`, which may take as long as it takes) have no limit; a
/// search on the clock may take the longer of the two times left (the GUI's own clock ends a
/// search that overruns the mover's time sooner).
fn limit_time(go: Go, patience: Duration) -> Duration {
    match go {
        Go::MoveTime(ms) => Duration::from_millis(ms) + patience,
        Go::Clock(c) => Duration::from_millis(c.wtime.max(c.btime)) + patience,
        Go::Infinite | Go::Solve => UNLIMITED,
        _ => patience,
    }
}

/// A time limit that never runs out in practice (a year).
const UNLIMITED: Duration = Duration::from_secs(365 * 24 * 3600);

async fn actor(
    launch: Launch,
    mut requests: mpsc::UnboundedReceiver<Request>,
    out: Outbox,
    log: Option<SharedLog>,
) {
    let program = launch.program.display().to_string();
    let note = |text: String| {
        if let Some(log) = &log {
            log_line(log, format!("# {text}"));
        }
    };
    let mut shown = vec![program.clone()];
    shown.extend(launch.args.iter().cloned());
    note(format!("starting {}", shown.join(" ")));
    let tap = log.clone().map(tap_into);
    let started = Engine::start_tapped(&launch.program, &launch.args, HANDSHAKE, tap).await;
    let mut engine = match started {
        Ok(e) => SimpleEngine::from_engine(e, HANDSHAKE),
        Err(e) => {
            let why = e.to_string();
            note(format!("failed: {why}"));
            out.send(EngineEvent::Failed(why));
            out.send(EngineEvent::Ended);
            return;
        }
    };
    engine.set_strictness(Strictness::Lenient);
    let out = Outbox {
        tx: out.tx,
        waker: out.waker,
        log: log.clone(),
    };
    for (name, value) in &launch.options {
        if let Err(why) = set_option(&mut engine, &out, (name, value)).await {
            return fail(engine, &out, why).await;
        }
    }
    let mut info = engine.info().clone();
    if info.name.is_empty() {
        info.name = program.clone();
    }
    out.send(EngineEvent::Ready(info));
    let mut next: Option<Request> = None;
    loop {
        let request = match next.take() {
            Some(r) => r,
            None => match requests.recv().await {
                Some(r) => r,
                None => break,
            },
        };
        match request {
            Request::Quit => break,
            Request::Stop => {}
            Request::SetOption { name, value } => {
                if let Err(why) = set_option(&mut engine, &out, (&name, &value)).await {
                    return fail(engine, &out, why).await;
                }
            }
            Request::Typed(text) => match Command::parse(&text) {
                Ok(Command::Go(_) | Command::Stop | Command::Quit) => note(format!(
                    "not sent: '{text}': the GUI sends go, stop and quit itself \
                     (Analyse, Move now, closing)"
                )),
                // The answers (an `error` too) pass through the console's tap; the next
                // search starts with `newgame`, as the engine's game may have changed.
                Ok(command) => {
                    if let Err(e) = engine.command(&command).await {
                        return fail(engine, &out, e.to_string()).await;
                    }
                }
                Err(e) => note(format!("not sent: '{text}': {e}")),
            },
            Request::Think(search) => {
                let result = think(&mut engine, &mut requests, &out, search, launch.patience).await;
                match result {
                    Ok(Some(interrupt)) => next = Some(interrupt),
                    Ok(None) => {}
                    Err(message) => return fail(engine, &out, message).await,
                }
            }
        }
    }
    let _ = engine.quit_within(GRACE).await;
    out.send(EngineEvent::Ended);
}

/// Sets an option (`setoption name NAME value VALUE`, synchronised with `isready`); a refusal
/// (an `error` reply) is reported as [`EngineEvent::Refused`] and is no failure. `Err` is a
/// failure that ends the engine, in plain words.
async fn set_option(
    engine: &mut SimpleEngine,
    out: &Outbox,
    (name, value): (&str, &str),
) -> Result<(), String> {
    match engine.configure(&[(name, value)]).await {
        Ok(()) => Ok(()),
        Err(EngineError::Refused { code, message, .. }) => {
            out.send(EngineEvent::Refused(format!(
                "the engine refused 'setoption name {name} value {value}': {code} {message}"
            )));
            Ok(())
        }
        Err(e) => Err(e.to_string()),
    }
}

/// Reports a failure, ends the engine and says it has ended.
async fn fail(engine: SimpleEngine, out: &Outbox, why: String) {
    out.send(EngineEvent::Failed(why));
    let _ = engine.quit_within(GRACE).await;
    out.send(EngineEvent::Ended);
}

/// A failure of a search in plain words: the engine's `error` (the position's or the `go`'s,
/// as the position is not checked apart), or what went wrong with the engine.
fn search_failure(e: EngineError) -> String {
    match e {
        EngineError::Refused { code, message, .. } => {
            format!("the engine refused the position: {code} {message}")
        }
        e => e.to_string(),
    }
}

/// Passes one `info` line of search `id` on to the UI.
fn report(out: &Outbox, id: u64, info: Info) {
    match info {
        Info::Search(info) => out.send(EngineEvent::Search { id, info }),
        Info::Trace(text) => out.send(EngineEvent::Trace { id, text }),
        Info::String(text) => out.send(EngineEvent::Said { id, text }),
        Info::Progress(info) => out.send(EngineEvent::Progress { id, info }),
        Info::Other(_) => {}
    }
}

/// Runs one search. Returns the request that interrupted it, if any (after the interrupted
/// search's `bestmove` has been read and discarded), or a plain-words failure.
async fn think(
    engine: &mut SimpleEngine,
    requests: &mut mpsc::UnboundedReceiver<Request>,
    out: &Outbox,
    search: Search,
    patience: Duration,
) -> Result<Option<Request>, String> {
    let Search {
        id,
        game,
        size,
        setup,
        moves,
        go,
    } = search;
    let moves = moves
        .iter()
        .map(|m| MoveText::parse(m))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let position = Position {
        game,
        size,
        setup,
        moves,
    };
    let mut analysis = engine
        .analysis(&position, &Limit::from(go))
        .await
        .map_err(search_failure)?;
    out.send(EngineEvent::Thinking(id));
    let mut deadline = tokio::time::Instant::now() + limit_time(go, patience);
    // A depth or nodes search has no time of its own, so a long one cannot be told from a hung
    // engine by the clock: after `patience` of silence the engine is asked `isready`, which a
    // searching engine answers at once (protocol.md), and it is given up only when that answer
    // does not come within `patience` either.
    let pings = matches!(go, Go::Depth(_) | Go::Nodes(_));
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        tokio::select! {
            next = analysis.next(left) => match next {
                Ok(Some(info)) => report(out, id, info),
                Ok(None) => {
                    let result = analysis.stop().await.map_err(search_failure)?;
                    let best = result.best.map(|m| m.to_string());
                    out.send(EngineEvent::BestMove { id, best });
                    return Ok(None);
                }
                Err(EngineError::Client(ClientError::Stalled { .. })) if pings => {
                    tokio::select! {
                        answered = analysis.ping(patience) => {
                            for info in answered.map_err(search_failure)? {
                                report(out, id, info);
                            }
                            deadline = tokio::time::Instant::now() + patience;
                        }
                        request = requests.recv() => {
                            return interrupt(analysis, out, id, request).await;
                        }
                    }
                }
                Err(e) => return Err(search_failure(e)),
            },
            request = requests.recv() => return interrupt(analysis, out, id, request).await,
        }
    }
}

/// Ends search `id` for `request` (`None`: the UI is gone, which is [`Request::Quit`]) and
/// returns the request. `quit` stops the search itself; anything else stops it and waits for
/// its discarded answer, passing on the lines that came with it.
async fn interrupt(
    analysis: Analysis<'_>,
    out: &Outbox,
    id: u64,
    request: Option<Request>,
) -> Result<Option<Request>, String> {
    let request = request.unwrap_or(Request::Quit);
    if !matches!(request, Request::Quit) {
        let seen = analysis.replies().len();
        let stopped = analysis
            .stop_within(STOP_WAIT)
            .await
            .map_err(search_failure)?;
        for reply in stopped.replies.iter().skip(seen) {
            match reply {
                Reply::Info(Info::Search(info)) => out.send(EngineEvent::Search {
                    id,
                    info: info.clone(),
                }),
                Reply::Info(Info::String(text)) => out.send(EngineEvent::Said {
                    id,
                    text: text.clone(),
                }),
                _ => {}
            }
        }
        out.send(EngineEvent::Stopped {
            id,
            best: stopped.best.map(|m| m.to_string()),
        });
    }
    Ok(Some(request))
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;
    use std::time::Instant;

    use super::*;

    /// A shell engine that answers the handshake and `isready`, and runs `on_go` on `go`.
    fn script(name: &str, on_go: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("gui-controller-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        let body = format!(
            "#!/bin/sh\nwhile read line; do case \"$line\" in\n\
             uci) echo 'id name {name}'; echo uciok;;\n\
             isready) echo readyok;;\n\
             go*) {on_go};;\n\
             quit) exit 0;;\n\
             esac; done\n"
        );
        std::fs::write(&path, body).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    /// Asks the engine for a depth-3 search with `patience` and returns the first answer or
    /// failure, and how long it took.
    fn think(program: PathBuf, patience: Duration) -> (EngineEvent, Duration) {
        let rt = tokio::runtime::Runtime::new().unwrap();
        let launch = Launch {
            program,
            args: Vec::new(),
            patience,
            options: Vec::new(),
        };
        let handle = EngineHandle::spawn(rt.handle(), launch, Arc::new(|| {}), None);
        handle.send(Request::Think(Search {
            id: 1,
            game: GameKind::Hexapawn,
            size: 3,
            setup: Setup::StartPos,
            moves: Vec::new(),
            go: Go::Depth(3),
        }));
        let started = Instant::now();
        loop {
            assert!(started.elapsed() < Duration::from_secs(20), "no answer");
            for event in handle.poll() {
                if matches!(event, EngineEvent::BestMove { .. } | EngineEvent::Failed(_)) {
                    let took = started.elapsed();
                    if let Some(task) = handle.quit() {
                        let _ = rt.block_on(task);
                    }
                    return (event, took);
                }
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    #[test]
    fn a_long_depth_search_that_answers_isready_is_waited_for() {
        // Three times the patience before the move, while the engine keeps reading its input.
        let slow = script("slow", "(sleep 1.5; echo bestmove a1a2) &");
        let (event, took) = think(slow, Duration::from_millis(500));
        assert!(
            matches!(&event, EngineEvent::BestMove { best: Some(m), .. } if m == "a1a2"),
            "{event:?}"
        );
        assert!(took >= Duration::from_millis(1400), "{took:?}");
    }

    #[test]
    fn a_depth_search_of_an_engine_that_stops_reading_is_given_up() {
        let hung = script("hung", "sleep 30");
        let (event, took) = think(hung, Duration::from_millis(500));
        assert!(
            matches!(&event, EngineEvent::Failed(why) if why.contains("the engine stalled")),
            "{event:?}"
        );
        assert!(took < Duration::from_secs(10), "{took:?}");
    }

    #[test]
    fn a_search_the_engine_refuses_is_a_failure_in_its_words() {
        let refusing = script("refusing", "echo 'error illegal-move a1a5 is not legal'");
        let (event, _) = think(refusing, Duration::from_secs(5));
        assert!(
            matches!(&event, EngineEvent::Failed(why)
                if why == "the engine refused the position: illegal-move a1a5 is not legal"),
            "{event:?}"
        );
    }
}
