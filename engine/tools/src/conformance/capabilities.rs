//! The optional capabilities of an engine: `Trace`, `MultiPV` and `go solve`. Each is detected
//! (an `option` line, or a probe) and reported as supported or not; it fails only when the
//! engine declares it and it does not work.

use std::collections::HashSet;
use std::time::Duration;

use super::{ANSWER, CheckResult, Outcome, Target, by_game, client, fail, opening, quiet, simple};
use crate::client::{Limit, PlayResult, Position, SimpleEngine};
use boardgames_core::games::notation::parse_move;
use boardgames_core::games::{Ctf, Game, GameKind, Hexapawn, Line, Oska};
use boardgames_core::protocol::{Command, Go, Info, OptionKind, Reply, SearchInfo};
use boardgames_core::score::Score;

/// How long a `go solve` probe may take.
const SOLVE: Duration = Duration::from_secs(60);

/// A capability that the engine does not offer.
fn absent(why: impl Into<String>) -> CheckResult {
    Ok(Outcome::NotSupported(why.into()))
}

/// Sets an option that the engine declared; a refusal is a broken capability.
async fn set(e: &mut SimpleEngine, name: &str, value: &str) -> Result<(), String> {
    e.configure(&[(name, value)])
        .await
        .map_err(|why| format!("the declared option {name} was refused: {why}"))
}

/// `Trace`: declared as a check option, it prints `info trace` lines when on and none when off.
/// A declared `Trace` that prints nothing when on is accepted and ignored (as the board-call
/// adapter does): not supported, not broken.
pub(super) async fn trace(t: &Target) -> CheckResult {
    match t.option("Trace").map(|o| &o.kind) {
        Some(OptionKind::Check { .. }) => {}
        Some(_) => return fail("the Trace option is declared, but not as a check option"),
        None => return absent("no Trace option"),
    }
    let mut e = t.start_simple().await?;
    let (game, size) = t.main(3);
    let start = Position::start(game, size);
    let depth2 = Limit::Depth(2);
    set(&mut e, "Trace", "true").await?;
    let traced = |r: &PlayResult| {
        r.replies
            .iter()
            .any(|x| matches!(x, Reply::Info(Info::Trace(_))))
    };
    let on = e.play(&start, &depth2).await.map_err(simple)?;
    set(&mut e, "Trace", "false").await?;
    let off = e.play(&start, &depth2).await.map_err(simple)?;
    e.quit().await.map_err(simple)?;
    if traced(&off) {
        return fail("Trace off: 'info trace' lines remain");
    }
    if !traced(&on) {
        return absent("the Trace option is accepted, but a search prints no 'info trace' line");
    }
    if !off
        .replies
        .iter()
        .any(|x| matches!(x, Reply::Info(Info::Search(_))))
    {
        return fail("no 'info depth' line after a completed depth");
    }
    Ok(Outcome::Supported(String::new()))
}

/// Checks the `info depth` lines of a `go depth` with `MultiPV k` at the start of `G` of
/// `size`: at every depth, lines `multipv 1` to `k`, each with a legal first move, no move in
/// two lines, and `bestmove` the first move of line 1 at the last depth.
fn multipv_lines<G: Game>(
    size: u32,
    k: u32,
    infos: &[SearchInfo],
    best: Option<String>,
) -> Result<(), String> {
    let line = Line::new(G::start(size as usize).map_err(|x| x.to_string())?);
    let mut depths: Vec<u32> = infos.iter().map(|i| i.depth).collect();
    depths.dedup();
    if depths.is_empty() {
        return fail("no 'info depth' line");
    }
    let mut last_first = None;
    for d in depths {
        let at: Vec<&SearchInfo> = infos.iter().filter(|i| i.depth == d).collect();
        let numbers: Vec<Option<u32>> = at.iter().map(|i| i.multipv).collect();
        let want: Vec<Option<u32>> = (1..=k).map(Some).collect();
        if numbers != want {
            let got: Vec<String> = numbers
                .iter()
                .map(|n| {
                    n.map_or("an 'info depth' line without multipv".into(), |n| {
                        format!("multipv {n}")
                    })
                })
                .collect();
            return fail(format!(
                "MultiPV {k}: at depth {d} the engine sent {}, expected one 'info depth {d} multipv K ...' line for each K from 1 to {k}",
                got.join(", ")
            ));
        }
        let mut seen = HashSet::new();
        for i in &at {
            let Some(first) = i.pv.first() else {
                return fail(format!(
                    "'info depth {d} multipv {} ...' has no move after 'pv'",
                    i.multipv.unwrap_or_default()
                ));
            };
            parse_move(&line, first).map_err(|x| format!("depth {d}: pv move '{first}': {x}"))?;
            if !seen.insert(first.clone()) {
                return fail(format!("depth {d}: '{first}' begins two lines"));
            }
        }
        last_first = at[0].pv.first().cloned();
    }
    if best != last_first {
        return fail(format!(
            "the engine sent 'bestmove {}', expected 'bestmove {}', the first move of 'multipv 1'",
            best.as_deref().unwrap_or("none"),
            last_first.as_deref().unwrap_or("none")
        ));
    }
    Ok(())
}

/// `MultiPV`: declared as a spin option whose range includes 2, it gives that many lines per
/// depth, and with `MultiPV 1` lines without `multipv`.
pub(super) async fn multipv(t: &Target) -> CheckResult {
    let max = match t.option("MultiPV").map(|o| &o.kind) {
        Some(OptionKind::Spin { max, .. }) if *max >= 2 => *max,
        Some(_) => {
            return fail(
                "the MultiPV option is declared, but not as a spin option up to at least 2",
            );
        }
        None => return absent("no MultiPV option"),
    };
    let (game, size) = t.main(4);
    let open = by_game!(game, opening(size))?;
    let k = (max.min(3) as u32).min(open.moves as u32);
    let mut e = t.start_simple().await?;
    let start = Position::start(game, size);
    set(&mut e, "MultiPV", &k.to_string()).await?;
    let infos = |r: &PlayResult| -> Vec<SearchInfo> {
        r.replies
            .iter()
            .filter_map(|x| match x {
                Reply::Info(Info::Search(i)) => Some(i.clone()),
                _ => None,
            })
            .collect()
    };
    let r = e.play(&start, &Limit::Depth(3)).await.map_err(simple)?;
    let best = r.best.map(|m| m.to_string());
    by_game!(game, multipv_lines(size, k, &infos(&r), best))?;
    set(&mut e, "MultiPV", "1").await?;
    let r = e.play(&start, &Limit::Depth(2)).await.map_err(simple)?;
    if let Some(i) = infos(&r).iter().find(|i| i.multipv.is_some()) {
        return fail(format!(
            "MultiPV 1: a line with 'multipv {}'",
            i.multipv.unwrap_or_default()
        ));
    }
    e.quit().await.map_err(simple)?;
    Ok(Outcome::Supported(format!("{k} lines in {game} {size}")))
}

/// `go solve`, probed on the smallest declared board (Hexapawn 3 first): supported when it ends
/// with a proven score (`win`, `loss` or `draw`) and a legal `bestmove`; an `error` reply, or a
/// move without a proven score, is not supported.
pub(super) async fn solve(t: &Target) -> CheckResult {
    let order = [GameKind::Hexapawn, GameKind::Ctf, GameKind::Oska];
    let Some((game, size)) = order
        .into_iter()
        .find_map(|g| t.range(g).map(|(lo, _)| (g, lo)))
    else {
        return absent("no game to probe");
    };
    let mut e = t.start().await?;
    quiet(&mut e, &format!("newgame {game} {size}")).await?;
    e.send(&Command::Go(Go::Solve)).await.map_err(client)?;
    let seen = e
        .recv_until(SOLVE, "bestmove", |r| {
            matches!(r, Reply::BestMove(_) | Reply::Error { .. })
        })
        .await
        .map_err(client)?;
    let outcome = match seen.last() {
        Some(Reply::Error { code, .. }) => absent(format!("'go solve' is refused: error {code}")),
        Some(Reply::BestMove(best)) => {
            let proven = seen.iter().rev().find_map(|r| match r {
                Reply::Info(Info::Search(i)) if !matches!(i.score, Score::Cp(_)) => Some(i.score),
                _ => None,
            });
            match (proven, best) {
                (None, _) => absent("'go solve' gives a move but no proven score"),
                (Some(s), Some(m)) => {
                    let m = m.to_string();
                    by_game!(game, legal_at_start(size, &m))?;
                    Ok(Outcome::Supported(format!("{game} {size}: {s}, {m}")))
                }
                (Some(s), None) => fail(format!("'go solve' proved {s} but gave 'bestmove none'")),
            }
        }
        _ => fail("no reply to 'go solve'"),
    };
    e.shutdown(ANSWER).await.map_err(client)?;
    outcome
}

/// Checks that `mv` is legal at the start of `G` of `size`.
fn legal_at_start<G: Game>(size: u32, mv: &str) -> Result<(), String> {
    let line = Line::new(G::start(size as usize).map_err(|x| x.to_string())?);
    parse_move(&line, mv)
        .map(|_| ())
        .map_err(|x| format!("'go solve' gave bestmove {mv}: {x}"))
}
