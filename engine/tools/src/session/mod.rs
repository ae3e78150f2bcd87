//! The engine side of the line protocol (`protocol.md`): what `engine` with no arguments runs.
//!
//! Three threads: one reads the input (with a bound on line length, see [`reader`]), one runs the
//! searches (owning the [`Backend`]), and the calling thread owns the session state and answers
//! every line; crossbeam channels join them. Only the calling thread changes the state, so every
//! command applies atomically, and it is the one that prints `bestmove`, so a GUI that has read a
//! `bestmove` may send the next `go` at once. Output lines are written whole and flushed, each
//! under one lock.
//!
//! This file is the loop that joins the threads and answers each command. The rest, one part a
//! file: the options and `setoption` (`options.rs`), what a session keeps between lines and the
//! lines that `newgame` and `position` build ([`State`], `state.rs`), what it says (`replies.rs`),
//! and the search thread with its jobs (`worker.rs`).

pub mod backend;
mod options;
pub mod reader;
mod replies;
pub mod searcher;
mod state;
pub mod timing;
mod worker;

use std::io::{self, BufReader, Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

use crossbeam_channel::{Receiver, Sender, bounded, select, unbounded};

pub use backend::{Backend, SearchCall};
pub use options::{HASH_MIB, MULTI_PV, options};
pub use searcher::SearchBackend;
pub use state::State;

use boardgames_core::games::notation::MoveText;
use boardgames_core::games::{Game, GameKind};
use boardgames_core::protocol::{
    Command, ErrorCode, Go, MAX_LINE, OptionDecl, ProtocolError, Reply, Setup, meaningful,
};
use options::Setting;
use replies::{Out, board_reply, error, legal_reply, position_error, result_of};
use state::build_line;
use worker::{Job, worker};

/// The engine's name, as sent after `uci`.
pub const NAME: &str = concat!("boardgames-engine ", env!("CARGO_PKG_VERSION"));

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
    /// The games the backend plays ([`Backend::games`]), declared after `uci`.
    games: Vec<GameKind>,
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
                for &g in &self.games {
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
            Command::SetOption { name, value } => {
                let setting = Setting::read(&name, &value, &self.options, self.searched_by)?;
                self.state.apply(&setting);
                let _ = self.jobs.send(Job::Set(setting));
            }
            Command::NewGame { game, size } => {
                let size = size as usize;
                if !self.games.contains(&game) {
                    let played: Vec<&str> = self.games.iter().map(|g| g.name()).collect();
                    return Err(error(
                        ErrorCode::Unsupported,
                        format!(
                            "{} does not play {} (games: {})",
                            self.searched_by,
                            game.name(),
                            played.join(", ")
                        ),
                    ));
                }
                game.check_size(size).map_err(|e| position_error(&e))?;
                let line = boardgames_core::with_game!(game, G => build_line::<G>(size, &Setup::StartPos, &[])?);
                self.state.game = game;
                self.state.line = line;
                let _ = self.jobs.send(Job::Clear);
            }
            Command::Position { setup, moves } => {
                let game = self.state.game;
                let size = boardgames_core::with_game!(l in &self.state.line => l.current().size());
                let line =
                    boardgames_core::with_game!(game, G => build_line::<G>(size, &setup, &moves)?);
                self.state.line = line;
            }
            Command::Go(go) => {
                let result = boardgames_core::with_game!(l in &self.state.line => result_of(l));
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
                let (board, result) = boardgames_core::with_game!(l in &self.state.line => (board_reply(l), result_of(l)));
                self.send(board);
                self.send(Reply::Result(result));
            }
            Command::Legal => {
                let reply = boardgames_core::with_game!(l in &self.state.line => legal_reply(l));
                self.send(reply);
            }
        }
        Ok(Flow::Continue)
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
    let out = Out::new(output);
    let (line_tx, line_rx) = bounded::<Input>(256);
    thread::Builder::new()
        .name("engine-input".into())
        .spawn(move || read_input(input, line_tx))
        .expect("spawning the input thread");
    let options = backend.options();
    let games = backend.games();
    let searched_by = backend.searched_by();
    let (job_tx, job_rx) = unbounded::<Job>();
    let (done_tx, done_rx) = unbounded::<Option<MoveText>>();
    let worker_out = out.clone();
    let search = thread::Builder::new()
        .name("engine-search".into())
        .stack_size(boardgames_core::search::SEARCH_STACK)
        .spawn(move || worker(backend, job_rx, done_tx, worker_out))
        .expect("spawning the search thread");
    // The start state is a game the backend plays: Oska 4, or its first game's smallest board.
    let mut state = State::default();
    if let Some(&first) = games.first().filter(|_| !games.contains(&state.game)) {
        let size = first.size_range().0;
        let start =
            boardgames_core::with_game!(first, G => build_line::<G>(size, &Setup::StartPos, &[]));
        if let Ok(line) = start {
            state.game = first;
            state.line = line;
        }
    }
    let mut session = Session {
        state,
        options,
        games,
        searched_by,
        out: out.clone(),
        jobs: job_tx,
        done: done_rx.clone(),
        running: None,
        infinite: false,
    };
    loop {
        if out.is_broken() {
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
