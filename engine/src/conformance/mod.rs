//! The conformance suite: checks that an engine speaks the protocol of `protocol.md`, driving it
//! only through [`crate::client`], and checking its moves and counts against the rules library.
//!
//! [`run`] starts a fresh engine for each check and returns a [`Report`]. The engine to check is
//! any program with arguments; [`engine_from_env`] reads it from `CONFORMANCE_ENGINE`.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, Instant};

use crate::client::{ClientError, Engine};
use crate::games::format::parse_board;
use crate::games::notation::{MoveText, legal_move, move_name};
use crate::games::perft::perft_divide;
use crate::games::{Game, GameKind, Line, Side};
use crate::protocol::{
    Command, ErrorCode, GameResult, Go, Info, MAX_LINE, OptionKind, Reply, Setup, shown,
};

/// The environment variable naming the engine to check: a program path and its arguments,
/// separated by blanks (no shell quoting).
pub const ENV: &str = "CONFORMANCE_ENGINE";

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

/// The result of one check.
#[derive(Clone, Debug)]
pub struct Check {
    /// Its name.
    pub name: &'static str,
    /// `Ok` with a note, or what failed.
    pub outcome: Result<String, String>,
}

/// The results of every check.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// One entry per check, in order.
    pub checks: Vec<Check>,
}

impl Report {
    /// Whether every check passed.
    pub fn passed(&self) -> bool {
        self.checks.iter().all(|c| c.outcome.is_ok())
    }
}

/// One line per check; the notes and failures, which quote the engine, are escaped with
/// [`shown`].
impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in &self.checks {
            match &c.outcome {
                Ok(note) if note.is_empty() => writeln!(f, "ok    {}", c.name)?,
                Ok(note) => writeln!(f, "ok    {} ({})", c.name, shown(note))?,
                Err(why) => writeln!(f, "FAIL  {}: {}", c.name, shown(why))?,
            }
        }
        let failed = self.checks.iter().filter(|c| c.outcome.is_err()).count();
        write!(f, "{} checks, {failed} failed", self.checks.len())
    }
}

type CheckResult = Result<String, String>;

fn fail<T>(why: impl Into<String>) -> Result<T, String> {
    Err(why.into())
}

fn client(e: ClientError) -> String {
    e.to_string()
}

/// The engine to check.
struct Target {
    program: String,
    args: Vec<String>,
}

impl Target {
    async fn start(&self) -> Result<Engine, String> {
        Engine::start(&self.program, &self.args, ANSWER)
            .await
            .map_err(client)
    }
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

/// Sends a line that must be refused with exactly one `error CODE`.
async fn refused(e: &mut Engine, line: &str, code: ErrorCode) -> Result<(), String> {
    e.send_raw(&format!("{line}\n")).await.map_err(client)?;
    let seen = without_info(e.ping(ANSWER).await.map_err(client)?);
    let shown: String = line.chars().take(60).collect();
    match seen.as_slice() {
        [Reply::Error { code: c, .. }] if *c == code => Ok(()),
        other => fail(format!(
            "'{shown}' should give exactly one 'error {code}', got {:?}",
            other.iter().map(ToString::to_string).collect::<Vec<_>>()
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

async fn handshake(t: &Target) -> CheckResult {
    let e = t.start().await?;
    let info = e.info().clone();
    if info.name.is_empty() {
        return fail("no 'id name'");
    }
    for g in GameKind::ALL {
        let (lo, hi) = g.size_range();
        if !info.games.contains(&(g, lo as u32, hi as u32)) {
            return fail(format!("no 'game {g} {lo} {hi}' line"));
        }
    }
    let has = |name: &str, check: bool| {
        info.options.iter().any(|o| {
            o.name.eq_ignore_ascii_case(name)
                && matches!(
                    (&o.kind, check),
                    (OptionKind::Check { .. }, true) | (OptionKind::Spin { .. }, false)
                )
        })
    };
    if !has("Hash", false) || !has("Trace", true) {
        return fail("options Hash (spin) and Trace (check) are required");
    }
    e.shutdown(ANSWER).await.map_err(client)?;
    Ok(info.name)
}

async fn isready_during_search(t: &Target) -> CheckResult {
    let mut e = t.start().await?;
    quiet(&mut e, "newgame ctf 7").await?;
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
    Ok(String::new())
}

async fn stop_latency(t: &Target) -> CheckResult {
    let mut e = t.start().await?;
    let mut worst = Duration::ZERO;
    for game in ["newgame oska 8", "newgame hexapawn 6", "newgame ctf 9"] {
        quiet(&mut e, game).await?;
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
    Ok(format!("worst {:.1} ms", worst.as_secs_f64() * 1000.0))
}

/// Plays a game engine against itself from the start, checking every `bestmove` with the
/// rules library and the final `result` with the library's outcome.
async fn self_play<G: Game>(e: &mut Engine, size: usize, go: Go) -> Result<usize, String> {
    quiet(e, &format!("newgame {} {size}", G::KIND)).await?;
    let mut line = Line::new(G::start(size).map_err(|x| x.to_string())?);
    let mut moves: Vec<MoveText> = Vec::new();
    for _ in 0..200 {
        let r = e.go(go, ANSWER).await.map_err(client)?;
        let results: Vec<&Reply> = r
            .replies
            .iter()
            .filter(|x| matches!(x, Reply::Result(_)))
            .collect();
        if let Some(o) = line.outcome() {
            let want = Reply::Result(Some(GameResult {
                winner: o.winner(),
                reason: o.reason().code().to_string(),
            }));
            if results != [&want] || r.best.is_some() {
                return fail(format!(
                    "after {} the game is over: expected '{want}' then 'bestmove none', got {:?} and bestmove {:?}",
                    words(&moves),
                    results,
                    r.best.map(|m| m.to_string())
                ));
            }
            nothing_pending(e, "bestmove").await?;
            return Ok(moves.len());
        }
        let Some(best) = r.best else {
            return fail(format!(
                "'bestmove none' in an open game after '{}'",
                words(&moves)
            ));
        };
        let mv = legal_move(&line, best, &best.to_string())
            .map_err(|x| format!("bestmove after '{}': {x}", words(&moves)))?;
        line.push(mv);
        moves.push(best);
        nothing_pending(e, "bestmove").await?;
        let cmd = Command::Position {
            setup: Setup::StartPos,
            moves: moves.clone(),
        };
        quiet(e, &cmd.to_string()).await?;
    }
    Ok(moves.len())
}

/// Moves as one line of text.
fn words(moves: &[MoveText]) -> String {
    let texts: Vec<String> = moves.iter().map(ToString::to_string).collect();
    texts.join(" ")
}

async fn bestmoves_legal(t: &Target) -> CheckResult {
    let mut e = t.start().await?;
    let mut plies = 0;
    plies += self_play::<crate::games::Oska>(&mut e, 4, Go::Depth(2)).await?;
    plies += self_play::<crate::games::Hexapawn>(&mut e, 3, Go::Depth(3)).await?;
    plies += self_play::<crate::games::Hexapawn>(&mut e, 4, Go::Nodes(2000)).await?;
    plies += self_play::<crate::games::Ctf>(&mut e, 5, Go::Depth(2)).await?;
    plies += self_play::<crate::games::Ctf>(&mut e, 3, Go::MoveTime(20)).await?;
    e.shutdown(ANSWER).await.map_err(client)?;
    Ok(format!("{plies} plies checked"))
}

async fn oska_pass(t: &Target) -> CheckResult {
    let mut e = t.start().await?;
    quiet(&mut e, "newgame oska 4").await?;
    quiet(&mut e, "position board ----/---/--/w--/bb-- w").await?;
    let l = legal(&mut e).await?;
    if l != ["pass"] {
        return fail(format!("legal moves should be 'pass', got {l:?}"));
    }
    let r = e.go(Go::Depth(3), ANSWER).await.map_err(client)?;
    if r.best != Some(MoveText::Pass) {
        return fail(format!(
            "expected 'bestmove pass', got {:?}",
            r.best.map(|m| m.to_string())
        ));
    }
    nothing_pending(&mut e, "bestmove").await?;
    quiet(&mut e, "position board ----/---/--/w--/bb-- w moves pass").await?;
    let (board, _) = show(&mut e).await?;
    match board {
        Reply::Board {
            side: Side::Black,
            board,
            ..
        } if board == "----/---/--/w--/bb--" => {}
        other => return fail(format!("after pass, show gave '{other}'")),
    }
    refused(
        &mut e,
        "position board wwww/---/--/---/bbbb w moves pass",
        ErrorCode::IllegalMove,
    )
    .await?;
    e.shutdown(ANSWER).await.map_err(client)?;
    Ok(String::new())
}

async fn game_over(t: &Target) -> CheckResult {
    let mut e = t.start().await?;
    let cases = [
        (
            "hexapawn 3",
            "---/-b-/w--",
            "b",
            Some(Side::White),
            "far-row",
        ),
        (
            "ctf 5",
            "-w-w-/-----/-----/-bbb-/-bBb-",
            "b",
            Some(Side::Black),
            "flag-captured",
        ),
        (
            "oska 4",
            "----/---/--/---/ww-b",
            "b",
            Some(Side::White),
            "all-home",
        ),
    ];
    for (game, board, side, winner, reason) in cases {
        quiet(&mut e, &format!("newgame {game}")).await?;
        quiet(&mut e, &format!("position board {board} {side}")).await?;
        let want = GameResult {
            winner,
            reason: reason.to_string(),
        };
        let (_, result) = show(&mut e).await?;
        if result.as_ref() != Some(&want) {
            return fail(format!(
                "{game} {board}: show gave result {result:?}, expected {want:?}"
            ));
        }
        if !legal(&mut e).await?.is_empty() {
            return fail(format!("{game} {board}: a finished game has legal moves"));
        }
        let r = e.go(Go::Depth(2), ANSWER).await.map_err(client)?;
        if r.best.is_some() || !r.replies.contains(&Reply::Result(Some(want.clone()))) {
            return fail(format!(
                "{game} {board}: go should give 'result {} {reason}' and 'bestmove none', got {:?} {:?}",
                winner.map_or("draw", |s| s.name()),
                r.replies,
                r.best
            ));
        }
        nothing_pending(&mut e, "bestmove none").await?;
        refused(
            &mut e,
            &format!("position board {board} {side} moves a1a2"),
            ErrorCode::IllegalMove,
        )
        .await?;
    }
    e.shutdown(ANSWER).await.map_err(client)?;
    Ok(String::new())
}

async fn errors_leave_state(t: &Target) -> CheckResult {
    let mut e = t.start().await?;
    quiet(&mut e, "newgame oska 5").await?;
    quiet(&mut e, "position startpos moves a1a2").await?;
    let before = show(&mut e).await?;
    let long = format!(
        "position startpos moves {}",
        "a1a2 ".repeat(MAX_LINE / 5 + 10)
    );
    let bad: Vec<(String, ErrorCode)> = vec![
        ("frobnicate".into(), ErrorCode::UnknownCommand),
        ("go".into(), ErrorCode::Syntax),
        ("go depth ten".into(), ErrorCode::Syntax),
        ("uci please".into(), ErrorCode::Syntax),
        ("position startpos moves a1a2 zz9".into(), ErrorCode::Syntax),
        ("go depth 0".into(), ErrorCode::BadValue),
        (
            "go depth 99999999999999999999999".into(),
            ErrorCode::BadValue,
        ),
        ("newgame chess 8".into(), ErrorCode::BadValue),
        ("setoption name Hash value 0".into(), ErrorCode::BadValue),
        (
            "setoption name Hash value 1000000000".into(),
            ErrorCode::BadValue,
        ),
        (
            "setoption name Trace value maybe".into(),
            ErrorCode::BadValue,
        ),
        ("newgame oska 12".into(), ErrorCode::Unsupported),
        ("newgame hexapawn 2".into(), ErrorCode::Unsupported),
        (
            "setoption name NoSuchOption value 1".into(),
            ErrorCode::Unsupported,
        ),
        (
            "position board www/---/bbb w".into(),
            ErrorCode::BadPosition,
        ),
        (
            "position board wwwww/---/--/---/bbbb w".into(),
            ErrorCode::BadPosition,
        ),
        (
            "position board wwww/---/--/---/bbbb w history wwww/---/--/---/bbbb".into(),
            ErrorCode::BadPosition,
        ),
        (
            "position startpos moves a1a2 a1a2".into(),
            ErrorCode::IllegalMove,
        ),
        (
            "position startpos moves a1a2 b5b4 b1b2 pass".into(),
            ErrorCode::IllegalMove,
        ),
        (
            "position startpos moves a9a8".into(),
            ErrorCode::IllegalMove,
        ),
        (long, ErrorCode::TooLong),
    ];
    for (line, code) in &bad {
        refused(&mut e, line, *code).await?;
        let after = show(&mut e).await?;
        if after != before {
            return fail(format!(
                "'{}' changed the state: {} became {}",
                line.chars().take(60).collect::<String>(),
                before.0,
                after.0
            ));
        }
    }
    // Busy: every state-changing command during a search.
    e.send(&Command::Go(Go::Infinite)).await.map_err(client)?;
    for line in [
        "go depth 1",
        "newgame ctf 5",
        "position startpos",
        "setoption name Hash value 2",
    ] {
        refused(&mut e, line, ErrorCode::Busy).await?;
    }
    let during = show(&mut e).await?;
    e.stop(ANSWER).await.map_err(client)?;
    if during != before || show(&mut e).await? != before {
        return fail("a refused command changed the state during a search");
    }
    e.shutdown(ANSWER).await.map_err(client)?;
    Ok(format!("{} error lines", bad.len() + 4))
}

async fn crlf_and_comments(t: &Target) -> CheckResult {
    let mut e = t.start().await?;
    e.send_raw("# a comment\r\n\r\n\t \r\n  newgame\thexapawn  3 \r\n   # indented comment\n")
        .await
        .map_err(client)?;
    let seen = e.ping(ANSWER).await.map_err(client)?;
    if !seen.is_empty() {
        return fail(format!("blank and comment lines gave {seen:?}"));
    }
    e.send_raw("isready\r\n").await.map_err(client)?;
    let r = e.recv(ANSWER).await.map_err(client)?;
    if r != Reply::ReadyOk {
        return fail(format!("'isready' with CRLF gave '{r}'"));
    }
    e.send_raw("position startpos moves b1b2\r\n")
        .await
        .map_err(client)?;
    match show(&mut e).await? {
        (
            Reply::Board {
                board,
                side: Side::Black,
                ..
            },
            None,
        ) if board == "w-w/-w-/bbb" => {}
        other => return fail(format!("after CRLF input show gave {other:?}")),
    }
    e.shutdown(ANSWER).await.map_err(client)?;
    Ok(String::new())
}

async fn eof_exit(t: &Target) -> CheckResult {
    let mut e = t.start().await?;
    quiet(&mut e, "newgame ctf 6").await?;
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
    Ok(String::new())
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
    let total = crate::games::perft::perft(&mut line, depth);
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
            "{} {size} perft {depth}: expected {} move lines, 'nodes {total}', 'bestmove none'; got {:?} bestmove {:?}",
            G::KIND,
            want.len(),
            r.replies
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            r.best
        ));
    }
    nothing_pending(e, "perft").await?;
    Ok(total)
}

async fn perft_totals(t: &Target) -> CheckResult {
    use crate::games::{Ctf, Hexapawn, Oska};
    let mut e = t.start().await?;
    let mut nodes = 0;
    nodes += perft_one::<Oska>(&mut e, 4, None, 4).await?;
    nodes += perft_one::<Oska>(&mut e, 5, None, 3).await?;
    nodes += perft_one::<Oska>(&mut e, 4, Some(("----/---/--/w--/bb--", Side::White)), 3).await?;
    nodes += perft_one::<Hexapawn>(&mut e, 3, None, 6).await?;
    nodes += perft_one::<Hexapawn>(&mut e, 5, None, 4).await?;
    nodes += perft_one::<Ctf>(&mut e, 5, None, 3).await?;
    nodes += perft_one::<Ctf>(&mut e, 3, None, 6).await?;
    nodes += perft_one::<Ctf>(&mut e, 4, Some(("-W--/w---/--b-/-B-b", Side::Black)), 4).await?;
    let zero = perft_one::<Hexapawn>(&mut e, 3, Some(("---/-b-/w--", Side::Black)), 2).await?;
    if zero != 0 {
        return fail("perft of a finished game should be 0");
    }
    e.shutdown(ANSWER).await.map_err(client)?;
    Ok(format!("{nodes} nodes"))
}

async fn trace_option(t: &Target) -> CheckResult {
    let mut e = t.start().await?;
    quiet(&mut e, "newgame hexapawn 3").await?;
    quiet(&mut e, "setoption name Trace value true").await?;
    let r = e.go(Go::Depth(2), ANSWER).await.map_err(client)?;
    if !r
        .replies
        .iter()
        .any(|x| matches!(x, Reply::Info(Info::Trace(_))))
    {
        return fail("Trace on: no 'info trace' line");
    }
    quiet(&mut e, "setoption name Trace value false").await?;
    let r = e.go(Go::Depth(2), ANSWER).await.map_err(client)?;
    if r.replies
        .iter()
        .any(|x| matches!(x, Reply::Info(Info::Trace(_))))
    {
        return fail("Trace off: 'info trace' lines remain");
    }
    if !r
        .replies
        .iter()
        .any(|x| matches!(x, Reply::Info(Info::Search(_))))
    {
        return fail("no 'info depth' line after a completed depth");
    }
    e.shutdown(ANSWER).await.map_err(client)?;
    Ok(String::new())
}

async fn stop_when_idle(t: &Target) -> CheckResult {
    let mut e = t.start().await?;
    quiet(&mut e, "stop").await?;
    let r = e.go(Go::Depth(1), ANSWER).await.map_err(client)?;
    if r.best.is_none() {
        return fail("no move from the start position");
    }
    quiet(&mut e, "stop").await?;
    e.shutdown(ANSWER).await.map_err(client)?;
    Ok(String::new())
}

/// One check, run as a future.
type PendingCheck<'a> = Pin<Box<dyn Future<Output = CheckResult> + 'a>>;

/// Runs every check against the engine `program` with `args`.
pub async fn run(program: &str, args: &[String]) -> Report {
    let t = Target {
        program: program.to_string(),
        args: args.to_vec(),
    };
    let checks: Vec<(&'static str, PendingCheck<'_>)> = vec![
        ("handshake", Box::pin(handshake(&t))),
        ("isready during search", Box::pin(isready_during_search(&t))),
        (
            "stop latency and one bestmove per go",
            Box::pin(stop_latency(&t)),
        ),
        ("stop while idle", Box::pin(stop_when_idle(&t))),
        (
            "bestmoves legal, results as the rules say",
            Box::pin(bestmoves_legal(&t)),
        ),
        ("oska pass", Box::pin(oska_pass(&t))),
        ("game-over lines", Box::pin(game_over(&t))),
        (
            "every error code, state unchanged",
            Box::pin(errors_leave_state(&t)),
        ),
        ("CRLF, blanks and comments", Box::pin(crlf_and_comments(&t))),
        ("end of input exits", Box::pin(eof_exit(&t))),
        ("perft totals", Box::pin(perft_totals(&t))),
        ("trace option", Box::pin(trace_option(&t))),
    ];
    let mut report = Report::default();
    for (name, job) in checks {
        let outcome = match tokio::time::timeout(Duration::from_secs(120), job).await {
            Ok(r) => r,
            Err(_) => Err("the check took longer than 120 s".into()),
        };
        report.checks.push(Check { name, outcome });
    }
    report
}
