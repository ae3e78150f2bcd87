//! The conformance suite: checks that an engine speaks the protocol of `protocol.md`, driving it
//! only through [`crate::client`], and checking its moves and counts against the rules library.
//!
//! [`run`] starts a fresh engine for each check and returns a [`Report`]. The checks that play
//! positions use the position-level [`SimpleEngine`]; those about single lines use [`Engine`]. The engine to check is
//! any program with arguments; [`engine_from_env`] reads it from `CONFORMANCE_ENGINE`.
//!
//! **What is required.** The handshake must declare at least one game (`game NAME MIN MAX`);
//! every game-specific check runs only on the declared games and sizes ([`Options::games`]
//! narrows them further). The optional features, `Trace`, `MultiPV` and `go solve`, are
//! capabilities: each is detected (from the `option` lines, or by a probe) and reported as
//! supported or not supported; it fails the report only when it is declared but broken.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, Instant};

use crate::client::{ClientError, Engine, EngineError, EngineInfo, Limit, Position, SimpleEngine};
use boardgames_core::games::format::{parse_board, slash};
use boardgames_core::games::notation::{MoveText, legal_move, move_name};
use boardgames_core::games::perft::perft_divide;
use boardgames_core::games::setup::SetupBoard;
use boardgames_core::games::{Ctf, Game, GameKind, Hexapawn, Line, MoveList, Oska, Side};
use boardgames_core::protocol::{
    Command, ErrorCode, GameResult, Go, MAX_LINE, OptionDecl, OptionKind, Reply, shown,
};

mod capabilities;
mod play;
mod rules;

/// One of the suite's own boards, spelt right by construction.
fn board(text: &str) -> SetupBoard {
    text.parse()
        .expect("the suite's boards are spelt with w, b, W, B, - and /")
}

/// The environment variable naming the engine to check: a program path and its arguments,
/// separated by blanks (no shell quoting).
pub const ENV: &str = "CONFORMANCE_ENGINE";

/// The environment variable that narrows the games checked: game names separated by blanks or
/// commas (`oska`, `hexapawn`, `ctf`); unset or empty: every declared game.
pub const GAMES_ENV: &str = "CONFORMANCE_GAMES";

/// The engine command in [`ENV`], split on blanks, if set and not empty.
pub fn engine_from_env() -> Option<(String, Vec<String>)> {
    let text = std::env::var(ENV).ok()?;
    let mut words = text.split_whitespace().map(str::to_string);
    let program = words.next()?;
    Some((program, words.collect()))
}

/// How long any single answer may take.
const ANSWER: Duration = Duration::from_secs(10);
/// The most `stop` may take to produce `bestmove` (the protocol's target is 10 ms).
pub const STOP_LIMIT: Duration = Duration::from_millis(500);

/// Why the suite's options are refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConformanceError {
    /// A word of [`GAMES_ENV`] that names no game.
    #[error("{GAMES_ENV}: '{0}' is not a game (oska, hexapawn, ctf)")]
    NotAGame(String),
}

/// What the suite checks beyond the engine's own declarations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Check only these of the declared games (`None`: every declared game). A board-call
    /// engine declares all three games whatever its function plays, so its checks name the
    /// function's game here.
    pub games: Option<Vec<GameKind>>,
}

impl Options {
    /// The options given by [`GAMES_ENV`]; an unknown game name is an error.
    pub fn from_env() -> Result<Options, ConformanceError> {
        let text = std::env::var(GAMES_ENV).unwrap_or_default();
        let mut games = Vec::new();
        for word in text.split([' ', '\t', ',']).filter(|w| !w.is_empty()) {
            let game = GameKind::ALL
                .into_iter()
                .find(|g| g.name() == word)
                .ok_or_else(|| ConformanceError::NotAGame(word.to_string()))?;
            games.push(game);
        }
        Ok(Options {
            games: (!games.is_empty()).then_some(games),
        })
    }
}

/// How one check came out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A requirement met, with a note (maybe empty).
    Passed(String),
    /// A requirement not met, or a declared capability that is broken: what failed.
    Failed(String),
    /// A check that does not apply to this engine (its games): why.
    Skipped(String),
    /// An optional capability that the engine has and that works, with a note.
    Supported(String),
    /// An optional capability that the engine does not offer: how that was seen.
    NotSupported(String),
}

impl Outcome {
    /// Whether this outcome fails the report.
    pub fn failed(&self) -> bool {
        matches!(self, Outcome::Failed(_))
    }
}

/// The result of one check.
#[derive(Clone, Debug)]
pub struct Check {
    /// Its name.
    pub name: &'static str,
    /// How it came out.
    pub outcome: Outcome,
}

/// The results of every check.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// One entry per check, in order.
    pub checks: Vec<Check>,
}

impl Report {
    /// Whether every check passed (skipped checks and capabilities not supported do not fail).
    pub fn passed(&self) -> bool {
        !self.checks.iter().any(|c| c.outcome.failed())
    }

    /// The outcome of the check named `name`.
    pub fn outcome(&self, name: &str) -> Option<&Outcome> {
        self.checks
            .iter()
            .find(|c| c.name == name)
            .map(|c| &c.outcome)
    }
}

/// One line per check; the notes and failures, which quote the engine, are escaped with
/// [`shown`].
impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in &self.checks {
            let (word, note) = match &c.outcome {
                Outcome::Passed(n) => ("ok   ", n),
                Outcome::Skipped(n) => ("skip ", n),
                Outcome::Supported(n) => ("supported    ", n),
                Outcome::NotSupported(n) => ("not supported", n),
                Outcome::Failed(why) => {
                    writeln!(f, "FAIL  {}: {}", c.name, shown(why))?;
                    continue;
                }
            };
            if note.is_empty() {
                writeln!(f, "{word} {}", c.name)?;
            } else {
                writeln!(f, "{word} {} ({})", c.name, shown(note))?;
            }
        }
        let count = |p: fn(&Outcome) -> bool| self.checks.iter().filter(|c| p(&c.outcome)).count();
        let failed = count(Outcome::failed);
        let skipped = count(|o| matches!(o, Outcome::Skipped(_)));
        let supported = count(|o| matches!(o, Outcome::Supported(_)));
        let optional = count(|o| matches!(o, Outcome::Supported(_) | Outcome::NotSupported(_)));
        write!(
            f,
            "{} checks, {failed} failed, {skipped} skipped; {supported} of {optional} optional capabilities supported",
            self.checks.len()
        )
    }
}

/// A check's outcome; an error is its failure.
type CheckResult = Result<Outcome, String>;

/// A requirement met, with `note`.
fn passed(note: impl Into<String>) -> CheckResult {
    Ok(Outcome::Passed(note.into()))
}

fn fail<T>(why: impl Into<String>) -> Result<T, String> {
    Err(why.into())
}

fn client(e: ClientError) -> String {
    e.to_string()
}

fn simple(e: EngineError) -> String {
    e.to_string()
}

/// The engine to check, and what its handshake declared.
struct Target {
    program: String,
    args: Vec<String>,
    /// The declared games and sizes that are checked (at least one once the handshake passed).
    games: Vec<(GameKind, u32, u32)>,
    /// The declared options.
    options: Vec<OptionDecl>,
}

impl Target {
    async fn start(&self) -> Result<Engine, String> {
        Engine::start(&self.program, &self.args, ANSWER)
            .await
            .map_err(client)
    }

    /// Starts the engine for the position-level client.
    async fn start_simple(&self) -> Result<SimpleEngine, String> {
        Ok(SimpleEngine::from_engine(self.start().await?, ANSWER))
    }

    /// The declared sizes of `game`, if it is checked.
    fn range(&self, game: GameKind) -> Option<(u32, u32)> {
        self.games
            .iter()
            .find(|g| g.0 == game)
            .map(|&(_, lo, hi)| (lo, hi))
    }

    /// Whether `game` of `size` is declared and checked.
    fn has(&self, game: GameKind, size: u32) -> bool {
        self.range(game)
            .is_some_and(|(lo, hi)| (lo..=hi).contains(&size))
    }

    /// The first checked game, and its declared size nearest to `want`.
    fn main(&self, want: u32) -> (GameKind, u32) {
        let (game, lo, hi) = self.games[0];
        (game, want.clamp(lo, hi))
    }

    /// The declared option `name` (case-insensitive).
    fn option(&self, name: &str) -> Option<&OptionDecl> {
        self.options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
    }
}

/// Calls `$f::<G>(args)` with `G` the game type of the [`GameKind`] `$kind`.
macro_rules! by_game {
    ($kind:expr, $f:ident ( $($arg:expr),* ).await) => {
        match $kind {
            GameKind::Oska => $f::<Oska>($($arg),*).await,
            GameKind::Hexapawn => $f::<Hexapawn>($($arg),*).await,
            GameKind::Ctf => $f::<Ctf>($($arg),*).await,
        }
    };
    ($kind:expr, $f:ident ( $($arg:expr),* )) => {
        match $kind {
            GameKind::Oska => $f::<Oska>($($arg),*),
            GameKind::Hexapawn => $f::<Hexapawn>($($arg),*),
            GameKind::Ctf => $f::<Ctf>($($arg),*),
        }
    };
}
use by_game;

/// The start of a game in the rules library: its first legal move and what follows it.
struct Opening {
    /// The name of the first legal move from the start position.
    first: String,
    /// The board after it, in the `/` form.
    board: String,
    /// The side to move after it.
    side: Side,
    /// How many legal moves the start position has.
    moves: usize,
}

fn opening<G: Game>(size: u32) -> Result<Opening, String> {
    let mut line = Line::new(G::start(size as usize).map_err(|x| x.to_string())?);
    let mut moves = MoveList::new();
    line.legal_moves(&mut moves);
    let Some(&mv) = moves.as_slice().first() else {
        return fail(format!("{} {size} has no move at the start", G::KIND));
    };
    let first = move_name(line.current(), mv);
    line.push(mv);
    Ok(Opening {
        first,
        board: slash(line.current()),
        side: line.current().side_to_move(),
        moves: moves.len(),
    })
}

/// The replies that are not `info` lines (which a search may print at any time).
fn without_info(replies: Vec<Reply>) -> Vec<Reply> {
    replies
        .into_iter()
        .filter(|r| !matches!(r, Reply::Info(_)))
        .collect()
}

/// Sends a command that gives no reply, and checks with `isready` that none came.
async fn quiet(e: &mut Engine, cmd: &str) -> Result<(), String> {
    e.send_raw(&format!("{cmd}\n")).await.map_err(client)?;
    let seen = without_info(e.ping(ANSWER).await.map_err(client)?);
    if seen.is_empty() {
        Ok(())
    } else {
        fail(format!("'{cmd}' should give no reply, got '{}'", seen[0]))
    }
}

/// The lines the engine sent, as it sent them, each quoted (`'info depth 1 ...', 'bestmove
/// a1a2'`), or `nothing`: failure lines speak the protocol, not the client's types.
fn quoted(replies: &[Reply]) -> String {
    if replies.is_empty() {
        return "nothing".into();
    }
    replies
        .iter()
        .map(|r| format!("'{r}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The `bestmove` line of a search's best move (`None`: `bestmove none`), quoted.
fn bestmove_line(best: Option<MoveText>) -> String {
    format!("'{}'", Reply::BestMove(best))
}

/// The first 60 characters of a line sent, for a failure line.
fn short(line: &str) -> String {
    let mut s: String = line.chars().take(60).collect();
    if s.len() < line.len() {
        s.push_str("...");
    }
    s
}

/// What protocol.md's section "Errors" asks of every refused line.
const ONE_ERROR: &str =
    "a refused line gets exactly one 'error CODE', with the code protocol.md gives it";

/// Sends a line that must be refused with exactly one `error CODE`.
async fn refused(e: &mut Engine, line: &str, code: ErrorCode) -> Result<(), String> {
    refused_as(e, line, code, ONE_ERROR).await
}

/// [`refused`], the failure line naming `requirement`.
async fn refused_as(
    e: &mut Engine,
    line: &str,
    code: ErrorCode,
    requirement: &str,
) -> Result<(), String> {
    e.send_raw(&format!("{line}\n")).await.map_err(client)?;
    let seen = without_info(e.ping(ANSWER).await.map_err(client)?);
    match seen.as_slice() {
        [Reply::Error { code: c, .. }] if *c == code => Ok(()),
        other => fail(format!(
            "{requirement}: sent '{}', expected 'error {code} ...', got {}",
            short(line),
            quoted(other)
        )),
    }
}

/// The next reply that is not an `info` line.
async fn recv_non_info(e: &mut Engine) -> Result<Reply, String> {
    loop {
        match e.recv(ANSWER).await.map_err(client)? {
            Reply::Info(_) => {}
            r => return Ok(r),
        }
    }
}

/// `show`: the board line and the result line.
async fn show(e: &mut Engine) -> Result<(Reply, Option<GameResult>), String> {
    e.send(&Command::Show).await.map_err(client)?;
    let board = recv_non_info(e).await?;
    if !matches!(board, Reply::Board { .. }) {
        return fail(format!(
            "'show' should start with 'board ...', got '{board}'"
        ));
    }
    match recv_non_info(e).await? {
        Reply::Result(r) => Ok((board, r)),
        other => fail(format!(
            "'show' should end with 'result ...', got '{other}'"
        )),
    }
}

async fn legal(e: &mut Engine) -> Result<Vec<String>, String> {
    e.send(&Command::Legal).await.map_err(client)?;
    match recv_non_info(e).await? {
        Reply::Legal(m) => Ok(m),
        other => fail(format!("'legal' should answer 'legal ...', got '{other}'")),
    }
}

/// Checks that no `bestmove` (or anything) is pending.
async fn nothing_pending(e: &mut Engine, after: &str) -> Result<(), String> {
    let seen = e.ping(ANSWER).await.map_err(client)?;
    if let Some(r) = seen.iter().find(|r| matches!(r, Reply::BestMove(_))) {
        return fail(format!("a second '{r}' after {after}"));
    }
    Ok(())
}

/// The handshake: an `id name` and at least one game, each within its rules' sizes. Gives what
/// the engine declared, narrowed to `options`' games.
async fn handshake(t: &Target, options: &Options) -> Result<(String, EngineInfo), String> {
    let e = t.start().await?;
    let info = e.info().clone();
    e.shutdown(ANSWER).await.map_err(client)?;
    if info.name.is_empty() {
        return fail("no 'id name'");
    }
    if info.games.is_empty() {
        return fail("no 'game NAME MIN MAX' line: an engine must declare at least one game");
    }
    for &(g, lo, hi) in &info.games {
        let (min, max) = g.size_range();
        if lo > hi || (lo as usize) < min || (hi as usize) > max {
            return fail(format!(
                "'game {g} {lo} {hi}': the sizes must lie within {min} to {max}"
            ));
        }
    }
    if !info
        .games
        .iter()
        .any(|g| options.games.as_ref().is_none_or(|o| o.contains(&g.0)))
    {
        return fail("none of the games to check is declared");
    }
    Ok((info.name.clone(), info))
}

/// A `go depth 1` whose result is not checked, so that an engine that loads something at the
/// first search of a game (a board-call adapter starts its function's driver) has done so
/// before a check times its `stop`.
async fn warm_up(e: &mut Engine) -> Result<(), String> {
    e.go(Go::Depth(1), ANSWER).await.map_err(client)?;
    Ok(())
}

/// A size of each game large enough for a search that does not end by itself.
fn large(game: GameKind) -> u32 {
    match game {
        GameKind::Oska => 8,
        GameKind::Hexapawn => 6,
        GameKind::Ctf => 7,
    }
}

async fn isready_during_search(t: &Target) -> CheckResult {
    let mut e = t.start().await?;
    let (game, size) = t.main(large(t.games[0].0));
    quiet(&mut e, &format!("newgame {game} {size}")).await?;
    e.send(&Command::Go(Go::Infinite)).await.map_err(client)?;
    for _ in 0..3 {
        let seen = e.ping(Duration::from_secs(2)).await.map_err(client)?;
        if seen.iter().any(|r| matches!(r, Reply::BestMove(_))) {
            return fail("'go infinite' ended by itself");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    e.stop(ANSWER).await.map_err(client)?;
    nothing_pending(&mut e, "stop").await?;
    e.shutdown(ANSWER).await.map_err(client)?;
    passed("")
}

async fn stop_latency(t: &Target) -> CheckResult {
    let mut e = t.start().await?;
    let mut worst = Duration::ZERO;
    for &(game, lo, hi) in &t.games {
        let game = format!("newgame {game} {}", large(game).clamp(lo, hi));
        quiet(&mut e, &game).await?;
        warm_up(&mut e).await?;
        for go in [Go::Infinite, Go::Depth(u32::MAX)] {
            e.send(&Command::Go(go)).await.map_err(client)?;
            tokio::time::sleep(Duration::from_millis(30)).await;
            let t0 = Instant::now();
            let r = e.stop(ANSWER).await.map_err(client)?;
            let took = t0.elapsed();
            worst = worst.max(took);
            if took > STOP_LIMIT {
                return fail(format!(
                    "bestmove came {took:?} after stop ({game}, {go:?})"
                ));
            }
            if r.best.is_none() {
                return fail(format!(
                    "'bestmove none' after stop in an open game ({game})"
                ));
            }
            nothing_pending(&mut e, "stop").await?;
        }
    }
    quiet(&mut e, "stop").await?;
    e.shutdown(ANSWER).await.map_err(client)?;
    passed(format!("worst {:.1} ms", worst.as_secs_f64() * 1000.0))
}

async fn eof_exit(t: &Target) -> CheckResult {
    let mut e = t.start().await?;
    let (game, size) = t.main(6);
    quiet(&mut e, &format!("newgame {game} {size}")).await?;
    warm_up(&mut e).await?;
    e.send(&Command::Go(Go::Infinite)).await.map_err(client)?;
    tokio::time::sleep(Duration::from_millis(30)).await;
    e.close_input();
    let r = e.wait_bestmove(ANSWER).await.map_err(client)?;
    if r.best.is_none() {
        return fail("end of input during a search should print its bestmove");
    }
    let status = e.wait_exit(ANSWER).await.map_err(client)?;
    if !status.success() {
        return fail(format!("exit status {status} after end of input"));
    }
    // And when idle.
    let mut e = t.start().await?;
    e.close_input();
    let status = e.wait_exit(ANSWER).await.map_err(client)?;
    if !status.success() {
        return fail(format!("exit status {status} after end of input"));
    }
    passed("")
}

async fn perft_one<G: Game>(
    e: &mut Engine,
    size: usize,
    board: Option<(&str, Side)>,
    depth: u32,
) -> Result<u64, String> {
    quiet(e, &format!("newgame {} {size}", G::KIND)).await?;
    let mut line = match board {
        None => Line::new(G::start(size).map_err(|x| x.to_string())?),
        Some((b, side)) => {
            quiet(e, &format!("position board {b} {}", side.letter())).await?;
            parse_board::<G>(b, side).map_err(|x| x.to_string())?.line
        }
    };
    let pos = *line.current();
    let want: Vec<Reply> = perft_divide(&mut line, depth)
        .into_iter()
        .map(|(m, n)| Reply::Perft {
            mv: move_name(&pos, m),
            nodes: n,
        })
        .collect();
    let total = boardgames_core::games::perft::perft(&mut line, depth);
    let r = e.go(Go::Perft(depth), ANSWER).await.map_err(client)?;
    let mut got: Vec<Reply> = r
        .replies
        .iter()
        .filter(|x| matches!(x, Reply::Perft { .. }))
        .cloned()
        .collect();
    let mut want_sorted = want.clone();
    let key = |r: &Reply| r.to_string();
    got.sort_by_key(key);
    want_sorted.sort_by_key(key);
    if got != want_sorted || !r.replies.contains(&Reply::Nodes(total)) || r.best.is_some() {
        return fail(format!(
            "{} {size} perft {depth}: expected {} 'perft MOVE N' lines, 'nodes {total}', 'bestmove none'; got {} then {}",
            G::KIND,
            want.len(),
            quoted(&r.replies),
            bestmove_line(r.best)
        ));
    }
    nothing_pending(e, "perft").await?;
    Ok(total)
}

/// A perft count: the game, its size, the board (`None`: the start) and the depth.
type PerftCase = (GameKind, u32, Option<(&'static str, Side)>, u32);

async fn perft_totals(t: &Target) -> CheckResult {
    let mut e = t.start().await?;
    let cases: [PerftCase; 8] = [
        (GameKind::Oska, 4, None, 4),
        (GameKind::Oska, 5, None, 3),
        (
            GameKind::Oska,
            4,
            Some(("----/---/--/w--/bb--", Side::White)),
            3,
        ),
        (GameKind::Hexapawn, 3, None, 6),
        (GameKind::Hexapawn, 5, None, 4),
        (GameKind::Ctf, 5, None, 3),
        (GameKind::Ctf, 3, None, 6),
        (
            GameKind::Ctf,
            4,
            Some(("-W--/w---/--b-/-B-b", Side::Black)),
            4,
        ),
    ];
    let mut nodes = 0;
    for &(game, lo, _) in &t.games {
        let mut mine: Vec<_> = cases
            .iter()
            .filter(|c| c.0 == game && t.has(game, c.1))
            .map(|c| (c.1 as usize, c.2, c.3))
            .collect();
        if mine.is_empty() {
            mine.push((lo as usize, None, 3));
        }
        for (size, board, depth) in mine {
            nodes += by_game!(game, perft_one(&mut e, size, board, depth).await)?;
        }
    }
    if t.has(GameKind::Hexapawn, 3) {
        let board = Some(("---/-b-/w--", Side::Black));
        if perft_one::<Hexapawn>(&mut e, 3, board, 2).await? != 0 {
            return fail("perft of a finished game should be 0");
        }
    }
    e.shutdown(ANSWER).await.map_err(client)?;
    passed(format!("{nodes} nodes"))
}

async fn stop_when_idle(t: &Target) -> CheckResult {
    let mut s = t.start_simple().await?;
    let (game, size) = t.main(4);
    quiet(s.engine_mut(), "stop").await?;
    let r = s
        .play(&Position::start(game, size), &Limit::Depth(1))
        .await
        .map_err(simple)?;
    if r.best.is_none() {
        return fail("no move from the start position");
    }
    quiet(s.engine_mut(), "stop").await?;
    s.quit().await.map_err(simple)?;
    passed("")
}

/// One check, run as a future.
type PendingCheck<'a> = Pin<Box<dyn Future<Output = CheckResult> + 'a>>;

/// Runs every check against the engine `program` with `args`, with the options of
/// [`GAMES_ENV`] (every declared game when it is unset; a bad value fails the report).
pub async fn run(program: &str, args: &[String]) -> Report {
    match Options::from_env() {
        Ok(o) => run_with(program, args, &o).await,
        Err(why) => Report {
            checks: vec![Check {
                name: "options",
                outcome: Outcome::Failed(why.to_string()),
            }],
        },
    }
}

/// Runs every check against the engine `program` with `args`: the handshake, then each
/// required check on the declared (and chosen) games, then the optional capabilities. When the
/// handshake fails, the other checks run on every game of the protocol.
pub async fn run_with(program: &str, args: &[String], options: &Options) -> Report {
    let mut t = Target {
        program: program.to_string(),
        args: args.to_vec(),
        games: Vec::new(),
        options: Vec::new(),
    };
    let mut report = Report::default();
    let shake = tokio::time::timeout(Duration::from_secs(120), handshake(&t, options)).await;
    let shake = shake.unwrap_or_else(|_| fail("the check took longer than 120 s"));
    report.checks.push(Check {
        name: "handshake",
        outcome: match shake {
            Ok((note, info)) => {
                t.games = info
                    .games
                    .into_iter()
                    .filter(|g| options.games.as_ref().is_none_or(|o| o.contains(&g.0)))
                    .collect();
                t.options = info.options;
                Outcome::Passed(note)
            }
            Err(why) => {
                // The other checks still run, each with an engine of its own, on every game
                // of the protocol: what each of them sees tells more than one failure.
                t.games = GameKind::ALL
                    .into_iter()
                    .map(|g| {
                        let (lo, hi) = g.size_range();
                        (g, lo as u32, hi as u32)
                    })
                    .collect();
                Outcome::Failed(why)
            }
        },
    });
    let t = &t;
    let checks: Vec<(&'static str, PendingCheck<'_>)> = vec![
        ("isready during search", Box::pin(isready_during_search(t))),
        (
            "stop latency and one bestmove per go",
            Box::pin(stop_latency(t)),
        ),
        ("stop while idle", Box::pin(stop_when_idle(t))),
        (
            "bestmoves legal, results as the rules say",
            Box::pin(play::bestmoves_legal(t)),
        ),
        ("oska pass", Box::pin(play::oska_pass(t))),
        ("game-over lines", Box::pin(play::game_over(t))),
        (
            "every error code, state unchanged",
            Box::pin(play::errors_leave_state(t)),
        ),
        (
            "history checked by the rules",
            Box::pin(rules::history_checked(t)),
        ),
        ("show gives the moves", Box::pin(rules::show_gives_moves(t))),
        (
            "legal as the rules say",
            Box::pin(rules::legal_as_the_rules_say(t)),
        ),
        ("start state", Box::pin(rules::start_state(t))),
        ("go with a clock", Box::pin(rules::clock_form(t))),
        (
            "CRLF, blanks and comments",
            Box::pin(rules::crlf_and_comments(t)),
        ),
        ("end of input exits", Box::pin(eof_exit(t))),
        ("perft totals", Box::pin(perft_totals(t))),
        ("Trace option", Box::pin(capabilities::trace(t))),
        ("MultiPV option", Box::pin(capabilities::multipv(t))),
        ("go solve", Box::pin(capabilities::solve(t))),
    ];
    for (name, job) in checks {
        let outcome = match tokio::time::timeout(Duration::from_secs(120), job).await {
            Ok(Ok(o)) => o,
            Ok(Err(why)) => Outcome::Failed(why),
            Err(_) => Outcome::Failed("the check took longer than 120 s".into()),
        };
        report.checks.push(Check { name, outcome });
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_game_is_named_with_the_variable() {
        assert_eq!(
            ConformanceError::NotAGame("chess".into()).to_string(),
            "CONFORMANCE_GAMES: 'chess' is not a game (oska, hexapawn, ctf)"
        );
    }
}
