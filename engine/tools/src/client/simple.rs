//! A position-level client: [`SimpleEngine`] plays, analyses and configures an engine by
//! position, on top of the line-level [`Engine`].
//!
//! The caller says what to search ([`Position`]: the game, the size, the set-up and the moves)
//! and how long ([`Limit`]); the client sends `newgame` only when the game or the size changes,
//! sends `position`, checks with `isready` that the engine accepted both, runs `go`, and gathers
//! the `info` lines up to `bestmove`. An `error` reply is a typed [`EngineError::Refused`]; a
//! crash, a stall or a protocol violation is the [`ClientError`] inside [`EngineError::Client`].
//! One timeout per engine ([`SimpleEngine::timeout`]) bounds every answer. Callers without
//! tokio use [`super::blocking::SimpleEngine`].

use std::ffi::OsStr;
use std::process::ExitStatus;
use std::time::Duration;

use super::{ClientError, DEFAULT_TIMEOUT, Engine, EngineInfo, GoResult};
use boardgames_core::games::notation::MoveText;
use boardgames_core::games::setup::SetupBoard;
use boardgames_core::games::{GameKind, Side};
use boardgames_core::protocol::{
    Clock, Command, ErrorCode, GameResult, Go, Info, OptionKind, Reply, SearchInfo, Setup,
};

/// A position to search: a game and size, a set-up, and the moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The game.
    pub game: GameKind,
    /// Its size (pieces a side for Oska, the board's width otherwise).
    pub size: u32,
    /// The board the moves start from.
    pub setup: Setup,
    /// The moves played from it, in order.
    pub moves: Vec<MoveText>,
}

impl Position {
    /// The start position of `game` of `size`.
    pub fn start(game: GameKind, size: u32) -> Position {
        Position {
            game,
            size,
            setup: Setup::StartPos,
            moves: Vec::new(),
        }
    }

    /// A given `board` of `game` of `size`, `side` to move (read one from the protocol's
    /// notation with `"www/---/bbb".parse()`).
    pub fn board(game: GameKind, size: u32, board: SetupBoard, side: Side) -> Position {
        Position {
            game,
            size,
            setup: Setup::Board {
                board,
                side,
                history: Vec::new(),
            },
            moves: Vec::new(),
        }
    }

    /// This position with `mv` played.
    pub fn then(mut self, mv: MoveText) -> Position {
        self.moves.push(mv);
        self
    }

    /// The `position` command that sets it up.
    pub fn command(&self) -> Command {
        Command::Position {
            setup: self.setup.clone(),
            moves: self.moves.clone(),
        }
    }
}

/// How long a search may go: one of the protocol's limits of `go`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// This many plies.
    Depth(u32),
    /// About this many nodes.
    Nodes(u64),
    /// This long.
    MoveTime(Duration),
    /// On a clock: the engine decides how long to think.
    Clock(Clock),
    /// Until stopped (only for [`SimpleEngine::analysis`]).
    Infinite,
    /// Until the game-theoretic value is proven, or stopped (`go solve`). It has no time of its
    /// own: [`SimpleEngine::play`] waits the engine's timeout for it, so a long one belongs to
    /// [`SimpleEngine::analysis`] or [`SimpleEngine::play_within`].
    Solve,
    /// Count the move sequences of this many plies (`go perft N`): the `perft` and `nodes`
    /// lines are in [`PlayResult::replies`], and the `bestmove` is `none`.
    Perft(u32),
}

impl From<Go> for Limit {
    /// The limit of a protocol `go` (the inverse of [`Limit::go`]).
    fn from(go: Go) -> Limit {
        match go {
            Go::Depth(d) => Limit::Depth(d),
            Go::Nodes(n) => Limit::Nodes(n),
            Go::MoveTime(ms) => Limit::MoveTime(Duration::from_millis(ms)),
            Go::Clock(c) => Limit::Clock(c),
            Go::Infinite => Limit::Infinite,
            Go::Solve => Limit::Solve,
            Go::Perft(n) => Limit::Perft(n),
        }
    }
}

impl Limit {
    /// The `go` of this limit.
    pub fn go(&self) -> Go {
        match *self {
            Limit::Depth(d) => Go::Depth(d),
            Limit::Nodes(n) => Go::Nodes(n),
            Limit::MoveTime(t) => Go::MoveTime(u64::try_from(t.as_millis()).unwrap_or(u64::MAX)),
            Limit::Clock(c) => Go::Clock(c),
            Limit::Infinite => Go::Infinite,
            Limit::Solve => Go::Solve,
            Limit::Perft(n) => Go::Perft(n),
        }
    }

    /// How long the engine may take beyond `margin`: the move time, or the larger clock.
    fn own_time(&self) -> Duration {
        match *self {
            Limit::MoveTime(t) => t,
            Limit::Clock(c) => Duration::from_millis(c.wtime.max(c.btime)),
            _ => Duration::ZERO,
        }
    }
}

/// Why a position-level call failed.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The engine could not be started, crashed, stalled or broke the protocol.
    #[error(transparent)]
    Client(#[from] ClientError),
    /// The engine answered a command with `error CODE MESSAGE`.
    #[error("the engine refused '{command}': error {code} {message}")]
    Refused {
        /// The command, as sent.
        command: String,
        /// The error code.
        code: ErrorCode,
        /// The engine's message.
        message: String,
    },
    /// The engine declares no option of this name (so `setoption` would be refused).
    #[error("the engine has no option '{name}'")]
    NoSuchOption {
        /// The name asked for.
        name: String,
    },
    /// A call that cannot be made as asked (a `play` with [`Limit::Infinite`], MultiPV 0).
    #[error("{0}")]
    Usage(String),
}

/// What [`SimpleEngine::play`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayResult {
    /// The move of `bestmove` (`None`: `bestmove none`, the game is over).
    pub best: Option<MoveText>,
    /// The move the engine expects in reply: the second move of the last principal variation
    /// that starts with `best`.
    pub ponder: Option<MoveText>,
    /// The last `info depth` line (of line 1 when there are several).
    pub info: Option<SearchInfo>,
    /// The `result` line, when the game is over.
    pub result: Option<GameResult>,
    /// Every reply before `bestmove`.
    pub replies: Vec<Reply>,
}

/// The moves of a principal variation, typed; a word that is not a move ends it.
pub fn pv_moves(info: &SearchInfo) -> Vec<MoveText> {
    info.pv
        .iter()
        .map_while(|w| MoveText::parse(w).ok())
        .collect()
}

/// How strictly a [`SimpleEngine`] holds its engine to the protocol
/// ([`SimpleEngine::set_strictness`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Strictness {
    /// Every `newgame` and `position` is checked with `isready` before the `go`, so that a
    /// refused position is told from a refused search; an option the engine did not declare is
    /// [`EngineError::NoSuchOption`] and is not sent; any reply but `info` or `error` to a
    /// command that has none is a protocol violation. For referees and scripts.
    #[default]
    Strict,
    /// For a GUI, which drives whatever engine its user chose and shows what the engine says:
    /// `newgame` and `position` are sent without `isready` (an engine that never answers it can
    /// still play; a refusal then comes during the search, as the [`EngineError::Refused`] of
    /// the `go`, and the next search sends `newgame` again); an option the engine did not
    /// declare is sent all the same, so that the engine's own answer decides (an `error` is
    /// [`EngineError::Refused`] with its words, silence is success); and of the replies to a
    /// `setoption` only an `error` counts. `setoption` is still checked with `isready`.
    Lenient,
}

/// An engine driven by position ([`Position`], [`Limit`]), with one timeout for every answer.
pub struct SimpleEngine {
    engine: Engine,
    timeout: Duration,
    /// The game and size of the last `newgame`.
    current: Option<(GameKind, u32)>,
    /// The value of `MultiPV` the engine has now.
    multipv: u32,
    /// Whether a `go` of [`SimpleEngine::analysis`] is still running.
    searching: bool,
    /// How strictly the engine is held to the protocol.
    strictness: Strictness,
    /// How many `isready` of [`Analysis::ping`] are still to be answered: the next this many
    /// `readyok` are theirs, and are dropped wherever they come.
    owed: usize,
}

impl SimpleEngine {
    /// Starts `program` with `args` (no shell) with [`DEFAULT_TIMEOUT`].
    pub async fn start<S: AsRef<OsStr>>(
        program: impl AsRef<OsStr>,
        args: &[S],
    ) -> Result<SimpleEngine, EngineError> {
        Self::start_with(program, args, DEFAULT_TIMEOUT).await
    }

    /// Starts `program` with `args`; `timeout` bounds the handshake and every later answer.
    pub async fn start_with<S: AsRef<OsStr>>(
        program: impl AsRef<OsStr>,
        args: &[S],
        timeout: Duration,
    ) -> Result<SimpleEngine, EngineError> {
        let engine = Engine::start(program, args, timeout).await?;
        Ok(Self::from_engine(engine, timeout))
    }

    /// Drives an engine already started (its handshake done), with `timeout`.
    pub fn from_engine(engine: Engine, timeout: Duration) -> SimpleEngine {
        let multipv = engine
            .info()
            .options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case("MultiPV"))
            .and_then(|o| match o.kind {
                OptionKind::Spin { default, .. } => u32::try_from(default).ok(),
                _ => None,
            })
            .unwrap_or(1);
        SimpleEngine {
            engine,
            timeout,
            current: None,
            multipv,
            searching: false,
            strictness: Strictness::Strict,
            owed: 0,
        }
    }

    /// How strictly the engine is held to the protocol ([`Strictness::Strict`] unless set).
    pub fn strictness(&self) -> Strictness {
        self.strictness
    }

    /// Sets how strictly the engine is held to the protocol, from the next call on.
    pub fn set_strictness(&mut self, strictness: Strictness) {
        self.strictness = strictness;
    }

    /// What the engine said in the handshake.
    pub fn info(&self) -> &EngineInfo {
        self.engine.info()
    }

    /// The process id of the engine (also its process group's), while it runs.
    pub fn id(&self) -> Option<u32> {
        self.engine.id()
    }

    /// The longest any answer may take (beyond a search's own time).
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Sets the longest any answer may take.
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// The line-level engine, for what this client does not do. A `newgame` sent through it
    /// is not seen here: call [`SimpleEngine::forget_game`] after one.
    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// Makes the next search send `newgame` whatever the game (it also clears what the engine
    /// has learnt).
    pub fn forget_game(&mut self) {
        self.current = None;
    }

    /// Whether `reply` is the answer to an owed `isready` of [`Analysis::ping`] (then it is
    /// counted off and is to be dropped).
    fn owed_answer(&mut self, reply: &Reply) -> bool {
        let owed = *reply == Reply::ReadyOk && self.owed > 0;
        if owed {
            self.owed -= 1;
        }
        owed
    }

    /// Sends `isready` and waits for its `readyok` (those owed to earlier pings come first);
    /// returns the other replies that came before it.
    async fn sync(&mut self) -> Result<Vec<Reply>, EngineError> {
        self.engine.send(&Command::IsReady).await?;
        let mut seen = Vec::new();
        loop {
            let mut replies = self
                .engine
                .recv_until(self.timeout, "readyok", |r| *r == Reply::ReadyOk)
                .await?;
            let ours = replies.pop().is_some_and(|r| !self.owed_answer(&r));
            seen.append(&mut replies);
            if ours {
                return Ok(seen);
            }
        }
    }

    /// The replies of a search, less the `readyok` owed to pings.
    fn search_replies(&mut self, mut replies: Vec<Reply>) -> Vec<Reply> {
        replies.retain(|r| !self.owed_answer(r));
        replies
    }

    /// Sends `command`, which gives no reply on success, then `isready`: the engine's `error`
    /// answer is a [`EngineError::Refused`], any other reply but `info` a protocol violation
    /// (ignored when [`Strictness::Lenient`]).
    async fn checked(&mut self, command: &Command) -> Result<(), EngineError> {
        self.engine.send(command).await?;
        let seen = self.sync().await?;
        let lenient = self.strictness == Strictness::Lenient;
        let telling = |r: &Reply| match r {
            Reply::Info(_) => false,
            Reply::Error { .. } => true,
            _ => !lenient,
        };
        match seen.into_iter().find(telling) {
            Some(Reply::Error { code, message }) => Err(EngineError::Refused {
                command: command.to_string(),
                code,
                message,
            }),
            Some(other) => Err(EngineError::Client(ClientError::Protocol {
                line: other.to_string(),
                why: format!("a reply to '{command}', which has none"),
            })),
            None => Ok(()),
        }
    }

    /// Sends `command`, which is checked in [`Strictness::Strict`] only: `newgame` and
    /// `position`.
    async fn set_up(&mut self, command: &Command) -> Result<(), EngineError> {
        match self.strictness {
            Strictness::Strict => self.checked(command).await,
            Strictness::Lenient => Ok(self.engine.send(command).await?),
        }
    }

    /// Ends a search left running by [`SimpleEngine::analysis`].
    async fn settle(&mut self) -> Result<(), EngineError> {
        if self.searching {
            self.searching = false;
            let r = self.engine.stop(self.timeout).await?;
            self.search_replies(r.replies);
        }
        Ok(())
    }

    /// Sends a command that no other call sends (`show`, `legal`, a `position` or `newgame` of
    /// the caller's own, as typed in a console), then `isready`, and returns the replies that
    /// came before its `readyok`, an `error` among them. The next search sends `newgame`, as
    /// the engine's game may have changed. `go`, `stop` and `quit` are refused
    /// ([`EngineError::Usage`]): [`SimpleEngine::play`], [`Analysis::stop`] and
    /// [`SimpleEngine::quit`] send them.
    pub async fn command(&mut self, command: &Command) -> Result<Vec<Reply>, EngineError> {
        if matches!(command, Command::Go(_) | Command::Stop | Command::Quit) {
            return Err(EngineError::Usage(format!(
                "'{command}' is sent by play, analysis, stop and quit, not by command"
            )));
        }
        self.settle().await?;
        self.current = None;
        self.engine.send(command).await?;
        self.sync().await
    }

    /// Sets `options` (name, value) in order. Fails at the first that the engine does not
    /// declare ([`EngineError::NoSuchOption`], not sent; when [`Strictness::Lenient`] it is
    /// sent all the same) or refuses ([`EngineError::Refused`]); those before it are set.
    pub async fn configure(&mut self, options: &[(&str, &str)]) -> Result<(), EngineError> {
        self.settle().await?;
        for &(name, value) in options {
            let declared = self.strictness == Strictness::Lenient
                || self
                    .info()
                    .options
                    .iter()
                    .any(|o| o.name.eq_ignore_ascii_case(name));
            if !declared {
                return Err(EngineError::NoSuchOption { name: name.into() });
            }
            self.checked(&Command::SetOption {
                name: name.into(),
                value: value.into(),
            })
            .await?;
            if name.eq_ignore_ascii_case("MultiPV") {
                self.multipv = value.parse().unwrap_or(self.multipv);
            }
        }
        Ok(())
    }

    /// Sets up `position`: `newgame` when its game or size is not the current one, then
    /// `position` (each checked unless [`Strictness::Lenient`]).
    async fn set_position(&mut self, position: &Position) -> Result<(), EngineError> {
        self.settle().await?;
        let game = (position.game, position.size);
        if self.current != Some(game) {
            self.current = None;
            self.set_up(&Command::NewGame {
                game: game.0,
                size: game.1,
            })
            .await?;
            self.current = Some(game);
        }
        self.set_up(&position.command()).await
    }

    /// The [`EngineError::Refused`] of the `go` of a search; when the position was not checked
    /// the refusal may be its, so the next search sends `newgame` again.
    fn refused_search(&mut self, command: String, code: ErrorCode, message: String) -> EngineError {
        if self.strictness == Strictness::Lenient {
            self.current = None;
        }
        EngineError::Refused {
            command,
            code,
            message,
        }
    }

    /// Sends the `go` of `limit` and waits for its `bestmove` (an `error` instead is refused)
    /// for the engine's timeout beyond the limit's own time.
    async fn search(&mut self, limit: &Limit) -> Result<GoResult, EngineError> {
        let within = self.timeout + limit.own_time();
        self.search_within(limit, within).await
    }

    /// Sends the `go` of `limit` and waits `within` for its `bestmove` (an `error` instead is
    /// refused).
    async fn search_within(
        &mut self,
        limit: &Limit,
        within: Duration,
    ) -> Result<GoResult, EngineError> {
        let go = Command::Go(limit.go());
        self.engine.send(&go).await?;
        let mut replies = self
            .engine
            .recv_until(within, "bestmove", |r| {
                matches!(r, Reply::BestMove(_) | Reply::Error { .. })
            })
            .await?;
        let last = replies.pop();
        let replies = self.search_replies(replies);
        match last {
            Some(Reply::BestMove(best)) => Ok(GoResult { replies, best }),
            Some(Reply::Error { code, message }) => {
                Err(self.refused_search(go.to_string(), code, message))
            }
            _ => unreachable!("recv_until ends with the reply asked for"),
        }
    }

    /// Searches `position` within `limit` and returns the move: [`PlayResult`].
    pub async fn play(
        &mut self,
        position: &Position,
        limit: &Limit,
    ) -> Result<PlayResult, EngineError> {
        if *limit == Limit::Infinite {
            return Err(EngineError::Usage(
                "play needs a limit that ends; use analysis for an infinite search".into(),
            ));
        }
        self.set_position(position).await?;
        let r = self.search(limit).await?;
        Ok(play_result(r))
    }

    /// Like [`SimpleEngine::play`], but the `bestmove` must come within `within` of the `go`
    /// instead of the engine's timeout beyond the limit's own time: a referee's budget, such
    /// as the time left on a clock plus a margin. The position is set up (and checked) before
    /// the `go`, so `within` counts the search alone.
    pub async fn play_within(
        &mut self,
        position: &Position,
        limit: &Limit,
        within: Duration,
    ) -> Result<PlayResult, EngineError> {
        if *limit == Limit::Infinite {
            return Err(EngineError::Usage(
                "play needs a limit that ends; use analysis for an infinite search".into(),
            ));
        }
        self.set_position(position).await?;
        let r = self.search_within(limit, within).await?;
        Ok(play_result(r))
    }

    /// Starts a new game of `game` at `size`: `newgame` (which also clears what the engine has
    /// learnt) whatever the game before, checked with `isready` unless
    /// [`Strictness::Lenient`].
    pub async fn new_game(&mut self, game: GameKind, size: u32) -> Result<(), EngineError> {
        self.settle().await?;
        self.current = None;
        self.set_up(&Command::NewGame { game, size }).await?;
        self.current = Some((game, size));
        Ok(())
    }

    /// Searches `position` within `limit` with `multipv` lines (setting `MultiPV` for the
    /// search and restoring it after), and returns the last line of each: one [`SearchInfo`] per
    /// line, best first. With `multipv` 1 no `MultiPV` option is needed.
    pub async fn analyse(
        &mut self,
        position: &Position,
        limit: &Limit,
        multipv: u32,
    ) -> Result<Vec<SearchInfo>, EngineError> {
        if multipv == 0 {
            return Err(EngineError::Usage("MultiPV must be at least 1".into()));
        }
        if *limit == Limit::Infinite {
            return Err(EngineError::Usage(
                "analyse needs a limit that ends; use analysis for an infinite search".into(),
            ));
        }
        let before = self.multipv;
        if multipv != before {
            self.configure(&[("MultiPV", &multipv.to_string())]).await?;
        }
        self.set_position(position).await?;
        let result = self.search(limit).await;
        if multipv != before {
            // After a failed search the search's error is the one that tells.
            let restored = self.configure(&[("MultiPV", &before.to_string())]).await;
            if result.is_ok() {
                restored?;
            }
        }
        let mut lines: Vec<SearchInfo> = Vec::new();
        for r in result?.replies {
            if let Reply::Info(Info::Search(i)) = r {
                let k = i.multipv.unwrap_or(1);
                match lines.iter_mut().find(|l| l.multipv.unwrap_or(1) == k) {
                    Some(l) => *l = i,
                    None => lines.push(i),
                }
            }
        }
        lines.sort_by_key(|l| l.multipv.unwrap_or(1));
        Ok(lines)
    }

    /// Starts a search of `position` within `limit` (often [`Limit::Infinite`]) and returns it
    /// as a stream of `info` lines ([`Analysis`]), which [`Analysis::stop`] ends. A search
    /// left running is stopped by the next call on this engine.
    pub async fn analysis(
        &mut self,
        position: &Position,
        limit: &Limit,
    ) -> Result<Analysis<'_>, EngineError> {
        self.set_position(position).await?;
        self.engine.send(&Command::Go(limit.go())).await?;
        self.searching = true;
        Ok(Analysis {
            engine: self,
            replies: Vec::new(),
            best: None,
        })
    }

    /// Ends the engine (`quit`, then signals to its process group after the timeout) and
    /// returns its exit status; the process is reaped and nothing of its group is left.
    pub async fn quit(self) -> Result<ExitStatus, EngineError> {
        let grace = self.timeout;
        self.quit_within(grace).await
    }

    /// [`SimpleEngine::quit`] with `grace` instead of the engine's timeout before the signals.
    pub async fn quit_within(self, grace: Duration) -> Result<ExitStatus, EngineError> {
        Ok(self.engine.shutdown(grace).await?)
    }
}

/// The [`PlayResult`] of a finished `go`.
fn play_result(r: GoResult) -> PlayResult {
    let infos: Vec<&SearchInfo> = r
        .replies
        .iter()
        .filter_map(|x| match x {
            Reply::Info(Info::Search(i)) if i.multipv.unwrap_or(1) == 1 => Some(i),
            _ => None,
        })
        .collect();
    let info = infos.last().map(|i| (*i).clone());
    let ponder = infos.iter().rev().find_map(|i| {
        let pv = pv_moves(i);
        (pv.first() == r.best.as_ref())
            .then(|| pv.get(1).copied())
            .flatten()
    });
    let result = r.replies.iter().find_map(|x| match x {
        Reply::Result(res) => res.clone(),
        _ => None,
    });
    PlayResult {
        best: r.best,
        ponder,
        info,
        result,
        replies: r.replies,
    }
}

/// A running search of [`SimpleEngine::analysis`]: its `info` lines one by one, and `stop`.
pub struct Analysis<'a> {
    engine: &'a mut SimpleEngine,
    replies: Vec<Reply>,
    best: Option<PlayResult>,
}

impl Analysis<'_> {
    /// Files one reply of the search: an `info` is kept and returned, `bestmove` ends the
    /// search, `error` is its refusal, a `readyok` (the answer to a ping) is dropped, anything
    /// else is kept.
    fn file(&mut self, reply: Reply) -> Result<Option<Info>, EngineError> {
        match reply {
            Reply::Info(i) => {
                self.replies.push(Reply::Info(i.clone()));
                Ok(Some(i))
            }
            Reply::BestMove(best) => {
                self.engine.searching = false;
                let replies = std::mem::take(&mut self.replies);
                self.best = Some(play_result(GoResult { replies, best }));
                Ok(None)
            }
            Reply::Error { code, message } => {
                self.engine.searching = false;
                Err(self.engine.refused_search("go".into(), code, message))
            }
            Reply::ReadyOk => {
                self.engine.owed = self.engine.owed.saturating_sub(1);
                Ok(None)
            }
            other => {
                self.replies.push(other);
                Ok(None)
            }
        }
    }

    /// The next `info` line, waiting up to `within`; `None` once the search has ended by
    /// itself (its result is then [`Analysis::stop`]'s). A stall here is no failure of the
    /// engine when the search simply goes on: the error says how long was waited.
    pub async fn next(&mut self, within: Duration) -> Result<Option<Info>, EngineError> {
        loop {
            if self.best.is_some() {
                return Ok(None);
            }
            let reply = self.engine.engine.recv(within).await?;
            if let Some(i) = self.file(reply)? {
                return Ok(Some(i));
            }
        }
    }

    /// Asks the engine `isready` and waits up to `within` for its `readyok`, which a searching
    /// engine gives at once: tells a long silent search (a deep `go depth`) from a hung engine,
    /// whose silence is a [`ClientError::Stalled`]. Returns the `info` lines that came before
    /// the answer, which [`Analysis::next`] does not give again. A `bestmove` before it ends the
    /// search and the wait (the `readyok`, when it comes, is dropped): [`Analysis::next`] then
    /// says `None`. Dropped while it waits (in a `select!`), the `readyok` is dropped too
    /// whenever it comes, and the lines read so far are in the result of [`Analysis::stop`].
    pub async fn ping(&mut self, within: Duration) -> Result<Vec<Info>, EngineError> {
        self.engine.engine.send(&Command::IsReady).await?;
        let before = self.engine.owed;
        self.engine.owed += 1;
        let deadline = tokio::time::Instant::now() + within;
        let mut infos = Vec::new();
        while self.engine.owed > before && self.best.is_none() {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let reply = self
                .engine
                .engine
                .recv_within(left, "readyok")
                .await
                .map_err(|e| match e {
                    ClientError::Stalled { waiting_for, .. } => ClientError::Stalled {
                        waiting_for,
                        after: within,
                    },
                    e => e,
                })?;
            if let Some(i) = self.file(reply)? {
                infos.push(i);
            }
        }
        Ok(infos)
    }

    /// Every reply of the search so far, in order (the `info` lines given by
    /// [`Analysis::next`] and [`Analysis::ping`] among them); those of [`Analysis::stop`]'s
    /// result that come after them arrived with the `stop`.
    pub fn replies(&self) -> &[Reply] {
        match &self.best {
            Some(r) => &r.replies,
            None => &self.replies,
        }
    }

    /// Stops the search (if it still runs) and returns its result, the `bestmove` consumed,
    /// waiting the engine's timeout for it.
    pub async fn stop(self) -> Result<PlayResult, EngineError> {
        let timeout = self.engine.timeout;
        self.stop_within(timeout).await
    }

    /// [`Analysis::stop`], waiting `within` for the `bestmove`.
    pub async fn stop_within(mut self, within: Duration) -> Result<PlayResult, EngineError> {
        if let Some(r) = self.best.take() {
            return Ok(r);
        }
        self.engine.searching = false;
        let r = self.engine.engine.stop(within).await?;
        let mut replies = std::mem::take(&mut self.replies);
        replies.append(&mut self.engine.search_replies(r.replies));
        Ok(play_result(GoResult {
            replies,
            best: r.best,
        }))
    }
}
