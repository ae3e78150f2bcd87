//! The match runner: plays engines against each other over the protocol, referees every move
//! with the rules library, and keeps the statistics (Elo, LOS, SPRT) and the game records.
//!
//! - [`spec`]: an engine as the command line describes it (`cmd=... name=... depth=...`); its
//!   time control (`tc=40/60+0.6`) and clock are [`crate::clock`]'s.
//! - [`run_tournament`]: plays a [`MatchConfig`] with a number of workers (tokio tasks), reporting
//!   each finished game through a callback.
//! - [`table`]: running results and the final table; [`stats`]: Elo, LOS, SPRT;
//!   [`openings`]: the openings file ([`crate::games::openings`] makes random ones).
//!
//! **Processes.** Each worker keeps its own process of every engine it needs and reuses it from
//! game to game (`newgame`, then `isready`). An engine that fails in any way (failed start,
//! crash, stall, time forfeit, illegal move, protocol violation) loses the game, is shut down
//! (`quit`, a short grace, then its whole process group is killed, and it is always reaped) and
//! is started again for its next game. When the run ends every worker shuts its engines down, so
//! no process outlives [`run_tournament`].
//!
//! **Moves.** Before each `go` the arena sends `position` and then `isready`, and waits for
//! `readyok`: a `bestmove` that comes before it answers no `go` and is a protocol violation.
//! An engine with a time control gets `go wtime ... btime ...`; the time from sending `go` to
//! reading `bestmove` is charged to its clock, and a move that overruns the clock by more than
//! the engine's `timemargin` is a time forfeit.

pub mod class;
pub mod openings;
pub mod spec;
pub mod stats;
pub mod table;

use std::collections::VecDeque;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::client::{ClientError, Engine, crash_text, status_text};
use crate::games::notation::{MoveText, legal_move, move_name};
use crate::games::{Game, GameKind, Line, Side};
use crate::protocol::{Command, Go, Info, Reply, Setup};
use crate::record::{GameRecord, RecordResult};
use crate::with_game;

use crate::clock::{SideClock, go_clock};
pub use spec::EngineSpec;
use stats::{Sprt, SprtVerdict};
use table::Standings;

/// How long a failed engine gets to exit after `quit` before it is killed.
const GRACE: Duration = Duration::from_millis(300);

/// A match that cannot be set up.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// An `--engine` word is wrong.
    #[error("--engine: '{word}': {why}")]
    Engine {
        /// The word.
        word: String,
        /// What is wrong with it.
        why: String,
    },
    /// The match as a whole is wrong (too few engines, no openings, ...).
    #[error("{0}")]
    Config(String),
}

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tournament {
    /// Exactly two engines.
    Match,
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

impl Tournament {
    /// Reads `match`, `round-robin` or `gauntlet`.
    pub fn parse(text: &str) -> Result<Tournament, ArenaError> {
        match text {
            "match" => Ok(Tournament::Match),
            "round-robin" | "roundrobin" => Ok(Tournament::RoundRobin),
            "gauntlet" => Ok(Tournament::Gauntlet),
            _ => Err(ArenaError::Config(format!(
                "--tournament '{text}': use match, round-robin or gauntlet"
            ))),
        }
    }

    /// The pairings of `n` engines, the first of each pair as listed.
    pub fn pairings(self, n: usize) -> Result<Vec<(usize, usize)>, ArenaError> {
        if n < 2 {
            return Err(ArenaError::Config(format!(
                "a match needs at least two engines (--engine ...), got {n}"
            )));
        }
        Ok(match self {
            Tournament::Match if n != 2 => {
                return Err(ArenaError::Config(format!(
                    "a match is between two engines, got {n}: use --tournament round-robin or gauntlet"
                )));
            }
            Tournament::Match => vec![(0, 1)],
            Tournament::RoundRobin => (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .collect(),
            Tournament::Gauntlet => (1..n).map(|b| (0, b)).collect(),
        })
    }
}

/// Everything a run needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game.
    pub game: GameKind,
    /// Its size.
    pub size: usize,
    /// The engines, at least two.
    pub engines: Vec<EngineSpec>,
    /// Who plays whom.
    pub tournament: Tournament,
    /// Games of each pairing; openings are played in pairs with colours swapped.
    pub games_per_pairing: usize,
    /// The openings (at least one), used in turn, one per pair of games.
    pub openings: Vec<Setup>,
    /// Games played at once.
    pub concurrency: usize,
    /// Plies after which a game is adjudicated a draw.
    pub max_plies: usize,
    /// Stop a two-engine match once this test decides.
    pub sprt: Option<Sprt>,
}

/// One game to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameJob {
    /// Its number in the run, from 1.
    pub number: usize,
    /// The round (the opening pair) within its pairing, from 1.
    pub round: usize,
    /// The pairing, as listed by [`Tournament::pairings`].
    pub pair: (usize, usize),
    /// White's engine.
    pub white: usize,
    /// Black's engine.
    pub black: usize,
    /// Which opening (index into [`MatchConfig::openings`]).
    pub opening: usize,
}

/// The games of a run in the order they are handed out: round by round, each pairing's game
/// with the first engine as White followed by the one with colours swapped.
pub fn schedule(config: &MatchConfig) -> Result<Vec<GameJob>, ArenaError> {
    let pairs = config.tournament.pairings(config.engines.len())?;
    if config.openings.is_empty() {
        return Err(ArenaError::Config("there is no opening to play".into()));
    }
    let rounds = config.games_per_pairing.div_ceil(2);
    let mut jobs = Vec::new();
    for r in 0..rounds {
        for &(a, b) in &pairs {
            for k in 0..2 {
                if 2 * r + k >= config.games_per_pairing {
                    break;
                }
                let (white, black) = if k == 0 { (a, b) } else { (b, a) };
                jobs.push(GameJob {
                    number: jobs.len() + 1,
                    round: r + 1,
                    pair: (a, b),
                    white,
                    black,
                    opening: r % config.openings.len(),
                });
            }
        }
    }
    Ok(jobs)
}

/// What went wrong with an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FaultKind {
    /// It could not be started, failed the handshake or refused its setup.
    FailedStart,
    /// It exited, or closed its output or input while it kept running.
    Crash,
    /// It did not answer in time.
    Stall,
    /// It overran its clock (time control) by more than its margin.
    TimeForfeit,
    /// Its `bestmove` is not a legal move of the position.
    IllegalMove,
    /// It wrote a line that is not a protocol reply.
    Protocol,
}

impl FaultKind {
    /// The words used in reasons: `failed start`, `crash`, `stall`, `time forfeit`,
    /// `illegal move`, `protocol violation`.
    pub fn as_str(self) -> &'static str {
        match self {
            FaultKind::FailedStart => "failed start",
            FaultKind::Crash => "crash",
            FaultKind::Stall => "stall",
            FaultKind::TimeForfeit => "time forfeit",
            FaultKind::IllegalMove => "illegal move",
            FaultKind::Protocol => "protocol violation",
        }
    }

    /// What went wrong, in words that do not repeat the kind.
    fn detail(e: &ClientError) -> String {
        match e {
            ClientError::Crashed {
                status,
                stderr,
                closed,
            } => {
                let what = match closed {
                    Some(_) => crash_text(*status, *closed),
                    None => format!("the engine exited ({})", status_text(*status)),
                };
                match stderr.last() {
                    Some(l) => format!("{what}; last stderr line: {l}"),
                    None => what,
                }
            }
            ClientError::Protocol { line, why } => format!("{why}: '{line}'"),
            e => e.to_string(),
        }
    }

    fn of(e: &ClientError) -> FaultKind {
        match e {
            ClientError::Spawn { .. } => FaultKind::FailedStart,
            ClientError::Crashed { .. } => FaultKind::Crash,
            ClientError::Stalled { .. } => FaultKind::Stall,
            ClientError::Protocol { .. } => FaultKind::Protocol,
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameOutcome {
    /// The job it was.
    pub job: GameJob,
    /// Its record (tags `Reason`, `Round`, `Opening`, `GameNumber`, and `Fault` when an engine
    /// failed).
    pub record: GameRecord,
    /// The engine that failed, and how, if one did.
    pub fault: Option<(usize, FaultKind)>,
    /// How long White's and Black's engines took over their moves in all (from `go` to
    /// `bestmove`).
    pub thinking: [Duration; 2],
}

impl GameOutcome {
    /// The result.
    pub fn result(&self) -> RecordResult {
        self.record.result
    }

    /// Why the game ended.
    pub fn reason(&self) -> &str {
        self.record.tag("Reason").unwrap_or("")
    }

    /// Whether the first engine of the pairing won (`Some(true)`), lost, or drew (`None`).
    pub fn first_won(&self) -> Option<bool> {
        let winner = match self.record.result {
            RecordResult::White => self.job.white,
            RecordResult::Black => self.job.black,
            RecordResult::Draw | RecordResult::Unfinished => return None,
        };
        Some(winner == self.job.pair.0)
    }
}

/// The end of a run.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The results.
    pub standings: Standings,
    /// The SPRT's verdict after the last game, when one was asked for.
    pub sprt: Option<SprtVerdict>,
    /// Games scheduled but not played because the SPRT decided first.
    pub skipped: usize,
}

/// Plays the whole run with `config.concurrency` workers. `on_game` is called in the caller's
/// task after each game, with the standings that include it.
pub async fn run_tournament(
    config: MatchConfig,
    on_game: impl FnMut(&GameOutcome, &Standings),
) -> Result<Summary, ArenaError> {
    let jobs = schedule(&config)?;
    run_jobs(config, jobs, on_game).await
}

/// Plays `jobs`, a part of [`schedule`]'s games (a shard), as [`run_tournament`] plays them all.
pub async fn run_jobs(
    config: MatchConfig,
    jobs: Vec<GameJob>,
    mut on_game: impl FnMut(&GameOutcome, &Standings),
) -> Result<Summary, ArenaError> {
    if config.sprt.is_some() && config.engines.len() != 2 {
        return Err(ArenaError::Config(
            "--sprt needs exactly two engines".into(),
        ));
    }
    if config.concurrency == 0 {
        return Err(ArenaError::Config(
            "--concurrency must be at least 1".into(),
        ));
    }
    for (i, s) in config.openings.iter().enumerate() {
        with_game!(config.game, G => s.line::<G>(config.size).map(|_| ()))
            .map_err(|e| ArenaError::Config(format!("opening {} ('{s}'): {e}", i + 1)))?;
    }
    let total = jobs.len();
    let workers = config.concurrency.min(total.max(1));
    let config = Arc::new(config);
    let queue = Arc::new(Mutex::new(VecDeque::from(jobs)));
    let cancel = Arc::new(AtomicBool::new(false));
    let (tx, mut rx) = mpsc::unbounded_channel();
    let handles: Vec<JoinHandle<()>> = (0..workers)
        .map(|_| {
            let (config, queue, cancel, tx) = (
                Arc::clone(&config),
                Arc::clone(&queue),
                Arc::clone(&cancel),
                tx.clone(),
            );
            tokio::spawn(worker(config, queue, cancel, tx))
        })
        .collect();
    drop(tx);
    let mut standings = Standings::new(config.engines.iter().map(|e| e.name.clone()).collect());
    let mut verdict = config.sprt.map(|_| SprtVerdict::Continue);
    let mut played = 0;
    while let Some(outcome) = rx.recv().await {
        played += 1;
        let (a, b) = outcome.job.pair;
        standings.add(a, b, outcome.first_won());
        if let Some((idx, kind)) = outcome.fault {
            standings.add_fault(idx, kind);
        }
        on_game(&outcome, &standings);
        if let Some(sprt) = &config.sprt {
            let v = sprt.verdict(&standings.pairs[0][1]);
            verdict = Some(v);
            if v != SprtVerdict::Continue {
                cancel.store(true, Ordering::Relaxed);
            }
        }
    }
    for h in handles {
        let _ = h.await;
    }
    Ok(Summary {
        standings,
        sprt: verdict,
        skipped: total - played,
    })
}

async fn worker(
    config: Arc<MatchConfig>,
    queue: Arc<Mutex<VecDeque<GameJob>>>,
    cancel: Arc<AtomicBool>,
    tx: mpsc::UnboundedSender<GameOutcome>,
) {
    let mut pool: Vec<Option<Engine>> = config.engines.iter().map(|_| None).collect();
    let mut reaping = Vec::new();
    loop {
        if cancel.load(Ordering::Relaxed) {
            break;
        }
        let job = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front();
        let Some(job) = job else { break };
        let outcome = with_game!(config.game, G => play::<G>(&config, &job, &mut pool).await);
        if let Some((idx, _)) = outcome.fault
            && let Some(e) = pool[idx].take()
        {
            reaping.push(tokio::spawn(e.shutdown(GRACE)));
        }
        if tx.send(outcome).is_err() {
            break;
        }
    }
    for e in pool.into_iter().flatten() {
        reaping.push(tokio::spawn(e.shutdown(Duration::from_secs(2))));
    }
    for r in reaping {
        let _ = r.await;
    }
}

/// Starts the engine if it is not running, then `newgame` and `isready`.
async fn prepare(
    spec: &EngineSpec,
    slot: &mut Option<Engine>,
    game: GameKind,
    size: usize,
) -> Result<(), (FaultKind, String)> {
    let fresh = slot.is_none();
    if fresh {
        let mut e = Engine::start(&spec.program, &spec.args, spec.timeout)
            .await
            .map_err(|err| (FaultKind::FailedStart, FaultKind::detail(&err)))?;
        let supported = e
            .info()
            .games
            .iter()
            .any(|&(g, lo, hi)| g == game && (lo as usize..=hi as usize).contains(&size));
        if !supported {
            return Err((
                FaultKind::FailedStart,
                format!(
                    "the engine does not list {} {size} among its games",
                    game.name()
                ),
            ));
        }
        for (name, value) in &spec.options {
            let cmd = Command::SetOption {
                name: name.clone(),
                value: value.clone(),
            };
            e.send(&cmd)
                .await
                .map_err(|err| (FaultKind::FailedStart, FaultKind::detail(&err)))?;
        }
        *slot = Some(e);
    }
    let e = slot.as_mut().expect("started above");
    let cmd = Command::NewGame {
        game,
        size: size as u32,
    };
    let replies = async {
        e.send(&cmd).await?;
        e.ping(spec.timeout).await
    }
    .await
    .map_err(|err| {
        let kind = if fresh {
            FaultKind::FailedStart
        } else {
            FaultKind::of(&err)
        };
        (kind, FaultKind::detail(&err))
    })?;
    if let Some(err) = replies.iter().find(|r| matches!(r, Reply::Error { .. })) {
        return Err((
            FaultKind::FailedStart,
            format!("the engine answered '{err}'"),
        ));
    }
    Ok(())
}

/// The `info string` texts among replies, joined (the board-call adapter explains itself there).
fn info_strings(replies: &[Reply]) -> String {
    let texts: Vec<&str> = replies
        .iter()
        .filter_map(|r| match r {
            Reply::Info(Info::String(s)) => Some(s.as_str()),
            _ => None,
        })
        .collect();
    texts.join("; ")
}

/// Plays one game, refereeing every move.
async fn play<G: Game>(
    config: &MatchConfig,
    job: &GameJob,
    pool: &mut [Option<Engine>],
) -> GameOutcome {
    let start = &config.openings[job.opening];
    let players = [job.white, job.black];
    let mut moves: Vec<String> = Vec::new();
    let thinking = Mutex::new([Duration::ZERO; 2]);
    // The same moves as `position` sends them.
    let mut played: Vec<MoveText> = Vec::new();
    let end = |moves: Vec<String>,
               result: RecordResult,
               reason: String,
               fault: Option<(usize, FaultKind)>| {
        let mut tags = vec![
            ("Reason".to_string(), reason),
            ("Round".to_string(), job.round.to_string()),
            ("GameNumber".to_string(), job.number.to_string()),
            ("Opening".to_string(), (job.opening + 1).to_string()),
        ];
        if let Some((_, kind)) = fault {
            tags.push(("Fault".to_string(), kind.to_string()));
        }
        GameOutcome {
            job: job.clone(),
            record: GameRecord {
                game: config.game,
                size: config.size,
                white: config.engines[job.white].name.clone(),
                black: config.engines[job.black].name.clone(),
                start: start.clone(),
                moves,
                result,
                tags,
            },
            fault,
            thinking: *thinking.lock().unwrap_or_else(|e| e.into_inner()),
        }
    };
    let loss = |side: Side| match side {
        Side::White => RecordResult::Black,
        Side::Black => RecordResult::White,
    };
    let describe = |side: Side, kind: FaultKind, detail: &str| {
        let name = &config.engines[players[side.index()]].name;
        format!("{kind} by {name} ({}): {detail}", side.name())
    };
    let mut line: Line<G> = match crate::record::start_line::<G>(start, config.size) {
        Ok(l) => l,
        Err(e) => {
            return end(
                moves,
                RecordResult::Unfinished,
                format!("bad opening: {e}"),
                None,
            );
        }
    };
    for side in [Side::White, Side::Black] {
        let idx = players[side.index()];
        if let Err((kind, detail)) = prepare(
            &config.engines[idx],
            &mut pool[idx],
            config.game,
            config.size,
        )
        .await
        {
            let reason = describe(side, kind, &detail);
            return end(moves, loss(side), reason, Some((idx, kind)));
        }
    }
    let setup = start.clone();
    let mut clocks = players.map(|p| config.engines[p].tc.map(SideClock::new));
    loop {
        if let Some(o) = line.outcome() {
            return end(
                moves,
                RecordResult::from_outcome(o),
                o.reason().code().to_string(),
                None,
            );
        }
        if moves.len() >= config.max_plies {
            let reason = format!("adjudicated: {} plies reached", config.max_plies);
            return end(moves, RecordResult::Draw, reason, None);
        }
        let side = line.current().side_to_move();
        let idx = players[side.index()];
        let spec = &config.engines[idx];
        let Some(engine) = pool[idx].as_mut() else {
            let reason = describe(side, FaultKind::Crash, "the engine is not running");
            return end(moves, loss(side), reason, Some((idx, FaultKind::Crash)));
        };
        let cmd = Command::Position {
            setup: setup.clone(),
            moves: played.clone(),
        };
        // `isready` after `position`: whatever the engine said before (errors, a stray
        // `bestmove`) is read before the `go`, and the clock starts with the `go`.
        let ready = async {
            engine.send(&cmd).await?;
            engine.ping(spec.timeout).await
        }
        .await;
        let fail = |e: ClientError| {
            let kind = FaultKind::of(&e);
            (kind, describe(side, kind, &FaultKind::detail(&e)))
        };
        let before = match ready {
            Ok(r) => r,
            Err(e) => {
                let (kind, reason) = fail(e);
                return end(moves, loss(side), reason, Some((idx, kind)));
            }
        };
        let other = clocks[side.opposite().index()];
        let (go, within) = match &clocks[side.index()] {
            Some(c) => (
                Go::Clock(go_clock(side == Side::White, c, other.as_ref())),
                c.left + spec.timemargin,
            ),
            None => (spec.limit, spec.go_budget()),
        };
        let started = Instant::now();
        let answer = engine.go(go, within).await;
        let used = started.elapsed();
        thinking.lock().unwrap_or_else(|e| e.into_inner())[side.index()] += used;
        let mut answer = match (answer, &clocks[side.index()]) {
            (Ok(a), _) => a,
            (Err(ClientError::Stalled { .. }), Some(c)) => {
                let why = format!(
                    "no bestmove within the {} ms left (margin {} ms)",
                    c.left.as_millis(),
                    spec.timemargin.as_millis()
                );
                let reason = describe(side, FaultKind::TimeForfeit, &why);
                return end(
                    moves,
                    loss(side),
                    reason,
                    Some((idx, FaultKind::TimeForfeit)),
                );
            }
            (Err(e), _) => {
                let (kind, reason) = fail(e);
                return end(moves, loss(side), reason, Some((idx, kind)));
            }
        };
        if let Some(c) = clocks[side.index()].as_mut()
            && let Err(over) = c.charge(used, spec.timemargin)
        {
            let why = format!("{over} (margin {} ms)", spec.timemargin.as_millis());
            let reason = describe(side, FaultKind::TimeForfeit, &why);
            return end(
                moves,
                loss(side),
                reason,
                Some((idx, FaultKind::TimeForfeit)),
            );
        }
        answer.replies.splice(0..0, before);
        let said = info_strings(&answer.replies);
        let said = if said.is_empty() {
            String::new()
        } else {
            format!(" (the engine said: {said})")
        };
        let refused = answer.replies.iter().find_map(|r| match r {
            Reply::Error { .. } => Some(r.to_string()),
            _ => None,
        });
        let mv = match &answer.best {
            None => Err(format!(
                "bestmove none in a position with legal moves{}{said}",
                refused.map_or_else(String::new, |r| format!(", after '{r}'"))
            )),
            Some(text) => legal_move(&line, *text, &text.to_string())
                .map_err(|e| format!("'{text}': {e}{said}")),
        };
        match mv {
            Ok(mv) => {
                moves.push(move_name(line.current(), mv));
                played.push(MoveText::of(line.current(), mv));
                line.push(mv);
            }
            Err(why) => {
                let reason = describe(side, FaultKind::IllegalMove, &why);
                return end(
                    moves,
                    loss(side),
                    reason,
                    Some((idx, FaultKind::IllegalMove)),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn config(engines: usize, tournament: Tournament, games: usize) -> MatchConfig {
        let spec = |i: usize| {
            EngineSpec::parse(&[format!("cmd=e{i}")], Path::new("engine")).expect("a spec")
        };
        MatchConfig {
            game: GameKind::Oska,
            size: 4,
            engines: (0..engines).map(spec).collect(),
            tournament,
            games_per_pairing: games,
            openings: vec![Setup::StartPos, Setup::StartPos],
            concurrency: 1,
            max_plies: 100,
            sprt: None,
        }
    }

    #[test]
    fn colours_are_swapped_per_opening() {
        let jobs = schedule(&config(2, Tournament::Match, 5)).unwrap();
        let seen: Vec<(usize, usize, usize, usize)> = jobs
            .iter()
            .map(|j| (j.round, j.white, j.black, j.opening))
            .collect();
        assert_eq!(
            seen,
            [
                (1, 0, 1, 0),
                (1, 1, 0, 0),
                (2, 0, 1, 1),
                (2, 1, 0, 1),
                (3, 0, 1, 0)
            ]
        );
        assert_eq!(
            jobs.iter().map(|j| j.number).collect::<Vec<_>>(),
            [1, 2, 3, 4, 5]
        );
    }

    #[test]
    fn pairings_of_each_tournament() {
        assert_eq!(
            Tournament::RoundRobin.pairings(3).unwrap(),
            [(0, 1), (0, 2), (1, 2)]
        );
        assert_eq!(Tournament::Gauntlet.pairings(3).unwrap(), [(0, 1), (0, 2)]);
        assert!(Tournament::Match.pairings(3).is_err());
        assert!(Tournament::RoundRobin.pairings(1).is_err());
        let jobs = schedule(&config(3, Tournament::RoundRobin, 2)).unwrap();
        assert_eq!(jobs.len(), 6);
        for e in 0..3 {
            assert_eq!(jobs.iter().filter(|j| j.white == e).count(), 2);
        }
    }
}
