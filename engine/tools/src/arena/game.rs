//! The refereeing of one game: both engines made ready, then every move asked for, timed and
//! checked by the rules, until the game ends or an engine fails.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::fault::FaultKind;
use super::schedule::{GameJob, MatchConfig};
use super::spec::EngineSpec;
use crate::client::{ClientError, EngineError, Limit, Position, SimpleEngine};
use boardgames_core::clock::{SideClock, go_clock};
use boardgames_core::games::notation::{MoveText, legal_move, move_name};
use boardgames_core::games::{Game, GameKind, Line, Side};
use boardgames_core::protocol::{Info, Reply};
use boardgames_core::record::{GameRecord, RecordResult};

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

/// The fault an engine's failure is, and its detail: what the client saw ([`ClientError`]), or
/// an `error` answer to a command that a conforming engine accepts (a protocol violation).
fn fault_of(e: &EngineError) -> (FaultKind, String) {
    match e {
        EngineError::Client(c) => (FaultKind::of(c), c.detail()),
        EngineError::Refused {
            command,
            code,
            message,
        } => (
            FaultKind::Protocol,
            format!("the engine answered 'error {code} {message}' to '{command}'"),
        ),
        EngineError::NoSuchOption { name } => (
            FaultKind::FailedStart,
            format!("the engine has no option '{name}'"),
        ),
        EngineError::Usage(why) => (FaultKind::Protocol, why.clone()),
    }
}

/// Starts the engine if it is not running (its options set), then starts a new game.
async fn prepare(
    spec: &EngineSpec,
    slot: &mut Option<SimpleEngine>,
    game: GameKind,
    size: usize,
) -> Result<(), (FaultKind, String)> {
    let fresh = slot.is_none();
    if fresh {
        let mut e = SimpleEngine::start_with(&spec.program, &spec.args, spec.timeout)
            .await
            .map_err(|err| (FaultKind::FailedStart, fault_of(&err).1))?;
        if !e.info().plays(game, size) {
            return Err((
                FaultKind::FailedStart,
                format!(
                    "the engine does not list {} {size} among its games",
                    game.name()
                ),
            ));
        }
        let options: Vec<(&str, &str)> = spec
            .options
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        e.configure(&options)
            .await
            .map_err(|err| (FaultKind::FailedStart, fault_of(&err).1))?;
        *slot = Some(e);
    }
    let e = slot.as_mut().expect("started above");
    e.set_timeout(spec.timeout);
    e.new_game(game, size as u32).await.map_err(|err| {
        let (kind, detail) = fault_of(&err);
        // Refusing the game, or failing before its first move, is a failed start for a new
        // engine; a running one that fails here faulted as it would in a game.
        let kind = if fresh || matches!(err, EngineError::Refused { .. }) {
            FaultKind::FailedStart
        } else {
            kind
        };
        (kind, detail)
    })?;
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
pub(super) async fn play<G: Game>(
    config: &MatchConfig,
    job: &GameJob,
    pool: &mut [Option<SimpleEngine>],
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
    // The game lost by `side`, whose engine faulted with `kind` (`detail` says how).
    let forfeit = |moves: Vec<String>, side: Side, kind: FaultKind, detail: &str| {
        let idx = players[side.index()];
        let name = &config.engines[idx].name;
        let result = match side {
            Side::White => RecordResult::Black,
            Side::Black => RecordResult::White,
        };
        let reason = format!("{kind} by {name} ({}): {detail}", side.name());
        end(moves, result, reason, Some((idx, kind)))
    };
    let mut line: Line<G> = match boardgames_core::record::start_line::<G>(start, config.size) {
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
            return forfeit(moves, side, kind, &detail);
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
            return forfeit(moves, side, FaultKind::Crash, "the engine is not running");
        };
        let position = Position {
            game: config.game,
            size: config.size as u32,
            setup: setup.clone(),
            moves: played.clone(),
        };
        let other = clocks[side.opposite().index()];
        let (limit, within) = match &clocks[side.index()] {
            Some(c) => (
                Limit::Clock(go_clock(side == Side::White, c, other.as_ref())),
                c.left + spec.timemargin,
            ),
            None => (Limit::from(spec.limit), spec.go_budget()),
        };
        // The position is set up and checked (`isready`) before the clock starts with the `go`.
        let started = Instant::now();
        let answer = engine.play_within(&position, &limit, within).await;
        let used = started.elapsed();
        thinking.lock().unwrap_or_else(|e| e.into_inner())[side.index()] += used;
        let answer = match (answer, &clocks[side.index()]) {
            (Ok(a), _) => a,
            (Err(EngineError::Client(ClientError::Stalled { .. })), Some(c)) => {
                let why = format!(
                    "no bestmove within the {} ms left (margin {} ms)",
                    c.left.as_millis(),
                    spec.timemargin.as_millis()
                );
                return forfeit(moves, side, FaultKind::TimeForfeit, &why);
            }
            (Err(e), _) => {
                let (kind, detail) = fault_of(&e);
                return forfeit(moves, side, kind, &detail);
            }
        };
        if let Some(c) = clocks[side.index()].as_mut()
            && let Err(over) = c.charge(used, spec.timemargin)
        {
            let why = format!("{over} (margin {} ms)", spec.timemargin.as_millis());
            return forfeit(moves, side, FaultKind::TimeForfeit, &why);
        }
        let said = info_strings(&answer.replies);
        let said = if said.is_empty() {
            String::new()
        } else {
            format!(" (the engine said: {said})")
        };
        let mv = match &answer.best {
            None => Err(format!(
                "bestmove none in a position with legal moves{said}"
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
                return forfeit(moves, side, FaultKind::IllegalMove, &why);
            }
        }
    }
}
