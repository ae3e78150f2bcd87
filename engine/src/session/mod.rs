//! The engine side of the line protocol (`protocol.md`): what `engine` with no arguments runs.
//!
//! Three threads: one reads the input (with a bound on line length, see [`reader`]), one runs the
//! searches (owning the [`Backend`]), and the calling thread owns the session state and answers
//! every line; crossbeam channels join them. Only the calling thread changes the state, so every
//! command applies atomically, and it is the one that prints `bestmove`, so a GUI that has read a
//! `bestmove` may send the next `go` at once. Output lines are written whole and flushed, each
//! under one lock.

pub mod backend;
pub mod reader;
pub mod searcher;
pub mod timing;

use std::io::{self, BufReader, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender, bounded, select, unbounded};

pub use backend::Backend;
pub use searcher::SearchBackend;

use crate::games::format::slash;
use crate::games::notation::{MoveText, legal_move, move_name};
use crate::games::{AnyLine, Game, GameKind, Line, MAX_MOVES, Move, MoveList, Oska, PositionError};
use crate::protocol::{
    Command, ErrorCode, GameResult, Go, Info, MAX_LINE, OptionDecl, OptionKind, ProtocolError,
    Reply, Setup, meaningful, printable,
};
use crate::search::EvalKind;

/// The engine's name, as sent after `uci`.
pub const NAME: &str = concat!("boardgames-engine ", env!("CARGO_PKG_VERSION"));
/// The hash size options: default, least, greatest (MiB).
pub const HASH_MIB: (i64, i64, i64) = (16, 1, 4096);
/// The `MultiPV` option (principal variations reported): default, least, greatest. The greatest
/// is the most moves a position can have, so every legal move can always be asked for.
pub const MULTI_PV: (i64, i64, i64) = (1, 1, MAX_MOVES as i64);

/// The options of the engine's own search, as listed after `uci` (a [`Backend`] may take fewer:
/// see [`Backend::options`]).
pub fn options() -> Vec<OptionDecl> {
    vec![
        OptionDecl {
            name: "Hash".into(),
            kind: OptionKind::Spin {
                default: HASH_MIB.0,
                min: HASH_MIB.1,
                max: HASH_MIB.2,
            },
        },
        OptionDecl {
            name: "Trace".into(),
            kind: OptionKind::Check { default: false },
        },
        OptionDecl {
            name: "Evaluator".into(),
            kind: OptionKind::Combo {
                default: EvalKind::default().name().into(),
                vars: EvalKind::ALL.iter().map(|k| k.name().into()).collect(),
            },
        },
        OptionDecl {
            name: "TablebasePath".into(),
            kind: OptionKind::String {
                default: NO_PATH.into(),
            },
        },
        OptionDecl {
            name: "MultiPV".into(),
            kind: OptionKind::Spin {
                default: MULTI_PV.0,
                min: MULTI_PV.1,
                max: MULTI_PV.2,
            },
        },
    ]
}

/// The `TablebasePath` value that means no tables.
const NO_PATH: &str = "<empty>";

/// The names of some options, for messages: `Hash, Trace, Evaluator`.
fn option_names(options: &[OptionDecl]) -> String {
    let names: Vec<&str> = options.iter().map(|o| o.name.as_str()).collect();
    names.join(", ")
}

/// An option's value as a number: digits only, as every number of the protocol (no sign, no
/// '+'); `None` when it is not one or does not fit.
fn whole_number(value: &str) -> Option<i64> {
    Some(value)
        .filter(|v| v.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|v| v.parse().ok())
}

/// Where replies go: whole lines, flushed, one writer at a time.
struct Out<W: Write> {
    inner: Arc<Mutex<W>>,
    broken: Arc<AtomicBool>,
}

impl<W: Write> Clone for Out<W> {
    fn clone(&self) -> Self {
        Out {
            inner: Arc::clone(&self.inner),
            broken: Arc::clone(&self.broken),
        }
    }
}

impl<W: Write> Out<W> {
    fn send(&self, reply: &Reply) {
        let mut text = printable(&reply.to_string()).into_owned();
        text.push('\n');
        let mut w = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if w.write_all(text.as_bytes())
            .and_then(|()| w.flush())
            .is_err()
        {
            self.broken.store(true, Ordering::Relaxed);
        }
    }
}

fn error(code: ErrorCode, message: impl Into<String>) -> ProtocolError {
    ProtocolError::new(code, message)
}

fn position_error(e: &PositionError) -> ProtocolError {
    let code = match e {
        PositionError::UnsupportedSize { .. } => ErrorCode::Unsupported,
        PositionError::MoveSyntax { .. } => ErrorCode::Syntax,
        PositionError::IllegalMove { .. } => ErrorCode::IllegalMove,
        _ => ErrorCode::BadPosition,
    };
    error(code, e.to_string())
}

/// The state a session keeps between lines.
#[derive(Clone, Debug)]
pub struct State {
    /// The game of the last `newgame` (Oska at first).
    pub game: GameKind,
    /// The position with its earlier boards.
    pub line: AnyLine,
    /// The `Hash` option, MiB.
    pub hash_mib: usize,
    /// The `Trace` option.
    pub trace: bool,
    /// The `Evaluator` option.
    pub evaluator: EvalKind,
    /// The `MultiPV` option: how many principal variations a search reports.
    pub multipv: usize,
}

impl Default for State {
    fn default() -> Self {
        State {
            game: GameKind::Oska,
            line: Line::new(Oska::start(4).expect("size 4 is supported")).into(),
            hash_mib: HASH_MIB.0 as usize,
            trace: false,
            evaluator: EvalKind::default(),
            multipv: MULTI_PV.0 as usize,
        }
    }
}

fn result_of<G: Game>(line: &Line<G>) -> Option<GameResult> {
    line.outcome().map(|o| GameResult {
        winner: o.winner(),
        reason: o.reason().code().to_string(),
    })
}

/// The `board` line of `show`: the current board, and when the line has earlier boards, its first
/// board (`startpos` when that is the game's start) with the moves played since.
fn board_reply<G: Game>(line: &Line<G>) -> Reply {
    let pos = line.current();
    let from = line.earlier().first().map(|first| {
        let later = line.earlier().iter().skip(1).chain([pos]);
        let moves = line
            .earlier()
            .iter()
            .zip(later)
            .map(|(a, b)| MoveText::of(a, move_between(a, b)))
            .collect();
        let is_start = G::start(pos.size())
            .is_ok_and(|s| s.same_board(first) && s.side_to_move() == first.side_to_move());
        let setup = if is_start {
            Setup::StartPos
        } else {
            Setup::Board {
                board: slash(first),
                side: first.side_to_move(),
                history: Vec::new(),
            }
        };
        (setup, moves)
    });
    Reply::Board {
        game: G::KIND,
        size: pos.size() as u32,
        board: slash(pos),
        side: pos.side_to_move(),
        from,
    }
}

/// The move that leads from `a` to `b`, consecutive positions of a line (the session builds lines
/// from legal moves only).
fn move_between<G: Game>(a: &G, b: &G) -> Move {
    let mut moves = MoveList::new();
    a.generate(&mut moves);
    moves
        .as_slice()
        .iter()
        .copied()
        .find(|&m| {
            let next = a.play(m);
            next.same_board(b) && next.side_to_move() == b.side_to_move()
        })
        .expect("consecutive boards of a line are one move apart")
}

fn legal_reply<G: Game>(line: &Line<G>) -> Reply {
    let mut moves = MoveList::new();
    line.legal_moves(&mut moves);
    let pos = line.current();
    Reply::Legal(
        moves
            .as_slice()
            .iter()
            .map(|&m| move_name(pos, m))
            .collect(),
    )
}

/// Builds the line a `position` command asks for, or says which token fails and why.
fn build_line<G: Game>(
    size: usize,
    setup: &Setup,
    moves: &[MoveText],
) -> Result<AnyLine, ProtocolError>
where
    Line<G>: Into<AnyLine>,
{
    let mut line = setup.line::<G>(size).map_err(|e| {
        let code = position_error(&e.cause).code;
        error(code, e.message)
    })?;
    for (i, &syntax) in moves.iter().enumerate() {
        let mv = match fast_move(&line, syntax) {
            Some(mv) => mv,
            None => legal_move(&line, syntax, &syntax.to_string()).map_err(|e| {
                let p = position_error(&e);
                error(p.code, format!("move {} '{syntax}': {}", i + 1, p.message))
            })?,
        };
        line.push(mv);
    }
    Ok(line.into())
}

/// The move `text` if it is certainly legal in the line's position, found without listing the
/// line's legal moves (so that long move lists apply in linear time). `None` when it is not:
/// [`parse_move`] then decides and explains.
fn fast_move<G: Game>(line: &Line<G>, syntax: MoveText) -> Option<Move> {
    let pos = line.current();
    if pos.board_outcome().is_some() {
        return None;
    }
    let mv = match syntax {
        MoveText::Pass => Move::PASS,
        MoveText::Squares { from, to } => {
            let layout = pos.layout();
            let a = layout.square_at(from.0, from.1)?;
            let b = layout.square_at(to.0, to.1)?;
            Move::new(u8::try_from(a).ok()?, u8::try_from(b).ok()?)
        }
    };
    let mut list = MoveList::new();
    pos.generate(&mut list);
    if !list.contains(mv) {
        return None;
    }
    if G::NO_REPEAT {
        let next = pos.play(mv);
        if line.seen(&next) {
            return None;
        }
    }
    Some(mv)
}

/// A job for the search thread.
enum Job {
    Search {
        line: AnyLine,
        go: Go,
        stop: Arc<AtomicBool>,
    },
    Resize(usize),
    Trace(bool),
    Evaluator(EvalKind),
    Tablebase(Option<std::path::PathBuf>),
    MultiPv(usize),
    Clear,
}

fn worker<W: Write + Send + 'static>(
    mut backend: impl Backend,
    jobs: Receiver<Job>,
    done: Sender<Option<MoveText>>,
    out: Out<W>,
) {
    for job in jobs {
        match job {
            Job::Resize(mib) => backend.resize(mib),
            Job::Trace(on) => backend.set_trace(on),
            Job::Evaluator(kind) => backend.set_evaluator(kind),
            Job::Tablebase(dir) => backend.set_tablebase(dir),
            Job::MultiPv(n) => backend.set_multipv(n),
            Job::Clear => backend.clear(),
            Job::Search { line, go, stop } => {
                // A panic (a bug) must not end this thread: the session would then answer every
                // later `go` with `bestmove none` and no word why. It is said, and the search
                // ends without a move; the backend's state is rebuilt by each search.
                let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match go {
                    Go::Perft(depth) => {
                        perft(&line, depth, &stop, &out);
                        None
                    }
                    _ => {
                        let mut report = |info: Info| out.send(&Reply::Info(info));
                        let best = backend.search(&line, go, &stop, &mut report);
                        if go == Go::Infinite {
                            while !stop.load(Ordering::Relaxed) {
                                thread::sleep(Duration::from_millis(1));
                            }
                        }
                        crate::with_game!(l in &line => best.map(|m| MoveText::of(l.current(), m)))
                    }
                }));
                let best = run.unwrap_or_else(|panic| {
                    let why = panic
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_default();
                    out.send(&Reply::Info(Info::String(format!(
                        "the search failed (a bug in the engine): {why}"
                    ))));
                    None
                });
                if done.send(best).is_err() {
                    return;
                }
            }
        }
    }
}

fn perft<W: Write>(line: &AnyLine, depth: u32, stop: &AtomicBool, out: &Out<W>) {
    crate::with_game!(l in line => {
        let mut l = l.clone();
        let pos = *l.current();
        let mut moves = MoveList::new();
        l.legal_moves(&mut moves);
        if depth == 0 {
            out.send(&Reply::Nodes(1));
            return;
        }
        let mut total = 0;
        for &m in moves.as_slice() {
            l.push(m);
            let n = crate::games::perft::perft_until(&mut l, depth - 1, stop);
            l.pop();
            let n = match n {
                Ok(n) => n,
                Err(crate::games::perft::Halt::Stopped) => {
                    out.send(&Reply::Info(Info::String("perft stopped".into())));
                    return;
                }
                Err(halt) => {
                    out.send(&Reply::Info(Info::String(format!("perft stopped: {halt}"))));
                    return;
                }
            };
            total += n;
            out.send(&Reply::Perft { mv: move_name(&pos, m), nodes: n });
        }
        out.send(&Reply::Nodes(total));
    })
}

/// A line from the reader thread.
enum Input {
    Line(String),
    Bad(ProtocolError),
    Eof,
}

fn read_input(input: impl Read, lines: Sender<Input>) {
    let mut input = BufReader::with_capacity(64 * 1024, input);
    loop {
        let msg = match reader::read_line(&mut input, MAX_LINE) {
            Ok(reader::Read::Line(l)) => Input::Line(l),
            Ok(reader::Read::TooLong) => Input::Bad(error(
                ErrorCode::TooLong,
                format!("the line is longer than {MAX_LINE} bytes and was ignored"),
            )),
            Ok(reader::Read::NotUtf8) => Input::Bad(error(
                ErrorCode::Syntax,
                "the line is not UTF-8 text and was ignored",
            )),
            Ok(reader::Read::Eof) => Input::Eof,
            Err(e) => {
                eprintln!("engine: reading the input failed: {e}");
                Input::Eof
            }
        };
        let eof = matches!(msg, Input::Eof);
        if lines.send(msg).is_err() || eof {
            return;
        }
    }
}

/// The controller: the state and the running search, if any.
struct Session<W: Write> {
    state: State,
    /// The options the backend takes ([`Backend::options`]), listed after `uci`.
    options: Vec<OptionDecl>,
    /// Who searches, for messages ([`Backend::searched_by`]).
    searched_by: &'static str,
    out: Out<W>,
    jobs: Sender<Job>,
    done: Receiver<Option<MoveText>>,
    /// The stop flag of the running search.
    running: Option<Arc<AtomicBool>>,
    /// Whether the running search is `go infinite` (which never ends by itself).
    infinite: bool,
}

enum Flow {
    Continue,
    Quit,
}

impl<W: Write> Session<W> {
    fn send(&self, reply: Reply) {
        self.out.send(&reply);
    }

    /// Prints the `bestmove` of a finished search.
    fn finish(&mut self, best: Option<MoveText>) {
        self.running = None;
        self.send(Reply::BestMove(best));
    }

    /// At the end of input: lets a running search that ends by itself (depth, nodes, movetime,
    /// perft, solve) finish, so that piped commands get whole answers; stops `go infinite`.
    fn finish_at_end_of_input(&mut self) {
        if self.running.is_some() && !self.infinite {
            let best = self.done.recv().unwrap_or(None);
            self.finish(best);
        }
        self.stop_and_wait();
    }

    /// Stops the running search, if any, and prints its `bestmove`.
    fn stop_and_wait(&mut self) {
        if let Some(stop) = self.running.take() {
            stop.store(true, Ordering::Relaxed);
            match self.done.recv() {
                Ok(best) => self.finish(best),
                Err(_) => self.finish(None),
            }
        }
    }

    fn line(&mut self, raw: &str) -> Flow {
        let Some(text) = meaningful(raw) else {
            return Flow::Continue;
        };
        match Command::parse(text).and_then(|cmd| self.command(cmd)) {
            Ok(flow) => flow,
            Err(e) => {
                self.send(e.to_reply());
                Flow::Continue
            }
        }
    }

    fn command(&mut self, cmd: Command) -> Result<Flow, ProtocolError> {
        if self.running.is_some() && cmd.changes_state() {
            return Err(error(
                ErrorCode::Busy,
                format!(
                    "a search is running: send stop first ('{}' was ignored)",
                    cmd.to_string().chars().take(60).collect::<String>()
                ),
            ));
        }
        match cmd {
            Command::Uci => {
                self.send(Reply::IdName(NAME.into()));
                self.send(Reply::IdAuthor(
                    env!("CARGO_PKG_AUTHORS").replace(':', ", "),
                ));
                for g in GameKind::ALL {
                    let (min, max) = g.size_range();
                    self.send(Reply::Game {
                        game: g,
                        min: min as u32,
                        max: max as u32,
                    });
                }
                for o in &self.options {
                    self.send(Reply::Option(o.clone()));
                }
                self.send(Reply::UciOk);
            }
            Command::IsReady => self.send(Reply::ReadyOk),
            Command::SetOption { name, value } => self.set_option(&name, &value)?,
            Command::NewGame { game, size } => {
                let size = size as usize;
                game.check_size(size).map_err(|e| position_error(&e))?;
                let line =
                    crate::with_game!(game, G => build_line::<G>(size, &Setup::StartPos, &[])?);
                self.state.game = game;
                self.state.line = line;
                let _ = self.jobs.send(Job::Clear);
            }
            Command::Position { setup, moves } => {
                let game = self.state.game;
                let size = crate::with_game!(l in &self.state.line => l.current().size());
                let line = crate::with_game!(game, G => build_line::<G>(size, &setup, &moves)?);
                self.state.line = line;
            }
            Command::Go(go) => {
                let result = crate::with_game!(l in &self.state.line => result_of(l));
                if let (Some(r), false) = (&result, matches!(go, Go::Perft(_))) {
                    self.send(Reply::Result(Some(r.clone())));
                    self.send(Reply::BestMove(None));
                } else {
                    let stop = Arc::new(AtomicBool::new(false));
                    self.running = Some(Arc::clone(&stop));
                    self.infinite = matches!(go, Go::Infinite);
                    let job = Job::Search {
                        line: self.state.line.clone(),
                        go,
                        stop,
                    };
                    if self.jobs.send(job).is_err() {
                        self.finish(None);
                    }
                }
            }
            Command::Stop => self.stop_and_wait(),
            Command::Quit => {
                self.stop_and_wait();
                return Ok(Flow::Quit);
            }
            Command::Show => {
                let (board, result) =
                    crate::with_game!(l in &self.state.line => (board_reply(l), result_of(l)));
                self.send(board);
                self.send(Reply::Result(result));
            }
            Command::Legal => {
                let reply = crate::with_game!(l in &self.state.line => legal_reply(l));
                self.send(reply);
            }
        }
        Ok(Flow::Continue)
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), ProtocolError> {
        let declared =
            |options: &[OptionDecl]| options.iter().any(|o| o.name.eq_ignore_ascii_case(name));
        if !declared(&self.options) {
            let listed = option_names(&self.options);
            let message = if declared(&options()) {
                format!(
                    "the option '{name}' is not supported by {} (options: {listed})",
                    self.searched_by
                )
            } else {
                format!("there is no option '{name}' (options: {listed})")
            };
            return Err(error(ErrorCode::Unsupported, message));
        }
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                let (_, lo, hi) = HASH_MIB;
                let mib = whole_number(value).ok_or_else(|| {
                    error(
                        ErrorCode::BadValue,
                        format!(
                            "Hash '{value}' is not a whole number of MiB (digits only); unchanged"
                        ),
                    )
                })?;
                if !(lo..=hi).contains(&mib) {
                    return Err(error(
                        ErrorCode::BadValue,
                        format!("Hash {mib} is out of range {lo} to {hi} (MiB); unchanged"),
                    ));
                }
                self.state.hash_mib = mib as usize;
                let _ = self.jobs.send(Job::Resize(mib as usize));
            }
            "trace" => {
                let on = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(error(
                            ErrorCode::BadValue,
                            format!("Trace '{value}' must be true or false"),
                        ));
                    }
                };
                self.state.trace = on;
                let _ = self.jobs.send(Job::Trace(on));
            }
            "evaluator" => {
                let kind = EvalKind::parse(value).map_err(|_| {
                    let names: Vec<&str> = EvalKind::ALL.iter().map(|k| k.name()).collect();
                    error(
                        ErrorCode::BadValue,
                        format!(
                            "Evaluator '{value}' must be one of {}; unchanged",
                            names.join(", ")
                        ),
                    )
                })?;
                self.state.evaluator = kind;
                let _ = self.jobs.send(Job::Evaluator(kind));
            }
            "multipv" => {
                let (_, lo, hi) = MULTI_PV;
                let n = whole_number(value).ok_or_else(|| {
                    error(
                        ErrorCode::BadValue,
                        format!("MultiPV '{value}' is not a whole number (digits only); unchanged"),
                    )
                })?;
                if !(lo..=hi).contains(&n) {
                    return Err(error(
                        ErrorCode::BadValue,
                        format!("MultiPV {n} is out of range {lo} to {hi}; unchanged"),
                    ));
                }
                self.state.multipv = n as usize;
                let _ = self.jobs.send(Job::MultiPv(n as usize));
            }
            "tablebasepath" => {
                let dir = (value != NO_PATH).then(|| std::path::PathBuf::from(value));
                if let Some(d) = &dir
                    && !d.is_dir()
                {
                    return Err(error(
                        ErrorCode::BadValue,
                        format!("TablebasePath '{value}' is not a directory; unchanged"),
                    ));
                }
                let _ = self.jobs.send(Job::Tablebase(dir));
            }
            _ => {
                return Err(error(
                    ErrorCode::Unsupported,
                    format!("the option '{name}' is declared but not handled by the session"),
                ));
            }
        }
        Ok(())
    }
}

/// Runs a session: reads commands from `input` until `quit` or its end, answers on `output`.
/// Returns once the session is over (any running search stopped and its `bestmove` printed).
/// The reading thread is left to end on its own when `input` ends or its next line arrives.
pub fn run<R, W, B>(input: R, output: W, backend: B)
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
    B: Backend,
{
    let out = Out {
        inner: Arc::new(Mutex::new(output)),
        broken: Arc::new(AtomicBool::new(false)),
    };
    let (line_tx, line_rx) = bounded::<Input>(256);
    thread::Builder::new()
        .name("engine-input".into())
        .spawn(move || read_input(input, line_tx))
        .expect("spawning the input thread");
    let options = backend.options();
    let searched_by = backend.searched_by();
    let (job_tx, job_rx) = unbounded::<Job>();
    let (done_tx, done_rx) = unbounded::<Option<MoveText>>();
    let worker_out = out.clone();
    let search = thread::Builder::new()
        .name("engine-search".into())
        .stack_size(crate::search::SEARCH_STACK)
        .spawn(move || worker(backend, job_rx, done_tx, worker_out))
        .expect("spawning the search thread");
    let mut session = Session {
        state: State::default(),
        options,
        searched_by,
        out: out.clone(),
        jobs: job_tx,
        done: done_rx.clone(),
        running: None,
        infinite: false,
    };
    loop {
        if out.broken.load(Ordering::Relaxed) {
            session.stop_and_wait();
            break;
        }
        select! {
            recv(line_rx) -> msg => match msg {
                Ok(Input::Line(l)) => {
                    if let Flow::Quit = session.line(&l) {
                        break;
                    }
                }
                Ok(Input::Bad(e)) => session.send(e.to_reply()),
                Ok(Input::Eof) | Err(_) => {
                    session.finish_at_end_of_input();
                    break;
                }
            },
            recv(done_rx) -> best => {
                if session.running.is_some() {
                    session.finish(best.unwrap_or(None));
                }
            }
        }
    }
    drop(session);
    let _ = search.join();
}

/// Runs a session on the process's stdin and stdout with the given backend.
pub fn run_stdio(backend: impl Backend) -> io::Result<()> {
    run(io::stdin(), io::stdout(), backend);
    Ok(())
}

#[cfg(test)]
mod tests;
