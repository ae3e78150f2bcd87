//! The runner: workers (tokio tasks) that take the scheduled games in turn, each keeping the
//! engine processes of its last game (at most two) for the next, and the caller's loop that
//! collects the results.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::ArenaError;
use super::game::{GameOutcome, play};
use super::schedule::{GameJob, MatchConfig, schedule};
use super::stats::SprtVerdict;
use super::table::Standings;
use crate::client::SimpleEngine;
use boardgames_core::with_game;

/// How long a failed engine gets to exit after `quit` before it is killed.
const GRACE: Duration = Duration::from_millis(300);

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

/// Plays the whole run with `config.concurrency` workers, after [`check_declared`] (an engine
/// that does not declare the game and size refuses the run before any game). `on_game` is
/// called in the caller's task after each game, with the standings that include it.
pub async fn run_tournament(
    config: MatchConfig,
    on_game: impl FnMut(&GameOutcome, &Standings),
) -> Result<Summary, ArenaError> {
    let jobs = schedule(&config)?;
    check_declared(&config).await?;
    run_jobs(config, jobs, on_game).await
}

/// Starts each engine of `config` once, before any game, and refuses the match when one does not
/// declare the game and size played (its `game NAME MIN MAX` lines of the handshake): such an
/// engine would lose every game at its start. An engine that cannot be started is left to the
/// games, which report how it fails.
pub async fn check_declared(config: &MatchConfig) -> Result<(), ArenaError> {
    let (game, size) = (config.game, config.size);
    for spec in &config.engines {
        let Ok(e) = SimpleEngine::start_with(&spec.program, &spec.args, spec.timeout).await else {
            continue;
        };
        let info = e.info().clone();
        // How it ends does not matter: it has told what it plays.
        let _ = e.quit_within(GRACE).await;
        if info.plays(game, size) {
            continue;
        }
        let games = info.games;
        let declared = if games.is_empty() {
            "no game".to_string()
        } else {
            games
                .iter()
                .map(|(g, lo, hi)| format!("game {} {lo} {hi}", g.name()))
                .collect::<Vec<_>>()
                .join(", ")
        };
        return Err(ArenaError::Config(format!(
            "engine {} declares {declared}, not {} {size}: it cannot play this match (an engine \
             plays the games and sizes its 'game NAME MIN MAX' lines declare)",
            spec.name,
            game.name()
        )));
    }
    Ok(())
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

/// Takes out of `pool` the engines that `job` does not play, to be shut down before it.
fn idle(pool: &mut [Option<SimpleEngine>], job: &GameJob) -> Vec<SimpleEngine> {
    pool.iter_mut()
        .enumerate()
        .filter(|&(i, _)| i != job.white && i != job.black)
        .filter_map(|(_, slot)| slot.take())
        .collect()
}

/// One worker: takes games from the queue until it is empty (or the SPRT decided), keeping the
/// engines of its last game alive for the next one and shutting the others down, so that at
/// most two engine processes per worker are alive at once.
async fn worker(
    config: Arc<MatchConfig>,
    queue: Arc<Mutex<VecDeque<GameJob>>>,
    cancel: Arc<AtomicBool>,
    tx: mpsc::UnboundedSender<GameOutcome>,
) {
    let mut pool: Vec<Option<SimpleEngine>> = config.engines.iter().map(|_| None).collect();
    let mut reaping = Vec::new();
    loop {
        if cancel.load(Ordering::Relaxed) {
            break;
        }
        let job = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front();
        let Some(job) = job else { break };
        // At most the two engines of this game stay alive: with many engines (a class), one
        // process of each per worker would add up to engines x workers processes.
        for e in idle(&mut pool, &job) {
            // Killed after the grace when it does not quit; how it ended does not matter here.
            let _ = e.quit_within(Duration::from_secs(2)).await;
        }
        let outcome = with_game!(config.game, G => play::<G>(&config, &job, &mut pool).await);
        if let Some((idx, _)) = outcome.fault
            && let Some(e) = pool[idx].take()
        {
            reaping.push(tokio::spawn(e.quit_within(GRACE)));
        }
        if tx.send(outcome).is_err() {
            break;
        }
    }
    for e in pool.into_iter().flatten() {
        reaping.push(tokio::spawn(e.quit_within(Duration::from_secs(2))));
    }
    for r in reaping {
        let _ = r.await;
    }
}
