//! The refereeing of one game: both engines made ready, then every move asked for, timed and
//! checked by the rules, until the game ends or an engine fails.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::fault::FaultKind;
use super::schedule::{GameJob, MatchConfig};
use super::spec::EngineSpec;
use crate::client::{ClientError, Engine};
use crate::clock::{SideClock, go_clock};
use crate::games::notation::{MoveText, legal_move, move_name};
use crate::games::{Game, GameKind, Line, Side};
use crate::protocol::{Command, Go, Info, Reply};
use crate::record::{GameRecord, RecordResult};

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
            .map_err(|err| (FaultKind::FailedStart, err.detail()))?;
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
                .map_err(|err| (FaultKind::FailedStart, err.detail()))?;
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
        (kind, err.detail())
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
pub(super) async fn play<G: Game>(
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
            (kind, describe(side, kind, &e.detail()))
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
