//! The checks that play: engines' own games to the end with every move checked by the rules,
//! Oska's forced pass, the game-over lines, and the errors that must leave the state as it was.

use super::rules::empty_board;
use super::*;

/// Plays a game engine against itself from the start, checking every `bestmove` with the
/// rules library and the final `result` with the library's outcome.
pub(super) async fn self_play<G: Game>(
    e: &mut SimpleEngine,
    size: usize,
    limit: Limit,
) -> Result<usize, String> {
    // A new game for every self-played game, even of the same size.
    e.forget_game();
    let mut line = Line::new(G::start(size).map_err(|x| x.to_string())?);
    let mut position = Position::start(G::KIND, size as u32);
    for _ in 0..200 {
        let r = e.play(&position, &limit).await.map_err(simple)?;
        let moves = &position.moves;
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
                    "after {} the game is over: expected '{want}' then 'bestmove none', got {} then {}",
                    words(moves),
                    quoted(&results.into_iter().cloned().collect::<Vec<_>>()),
                    bestmove_line(r.best)
                ));
            }
            return Ok(moves.len());
        }
        let Some(best) = r.best else {
            return fail(format!(
                "'bestmove none' in an open game after '{}'",
                words(moves)
            ));
        };
        let mv = legal_move(&line, best, &best.to_string())
            .map_err(|x| format!("bestmove after '{}': {x}", words(moves)))?;
        line.push(mv);
        position.moves.push(best);
    }
    Ok(position.moves.len())
}

/// Moves as one line of text.
pub(super) fn words(moves: &[MoveText]) -> String {
    let texts: Vec<String> = moves.iter().map(ToString::to_string).collect();
    texts.join(" ")
}

pub(super) async fn bestmoves_legal(t: &Target) -> CheckResult {
    let mut e = t.start_simple().await?;
    let cases = [
        (GameKind::Oska, 4, Limit::Depth(2)),
        (GameKind::Hexapawn, 3, Limit::Depth(3)),
        (GameKind::Hexapawn, 4, Limit::Nodes(2000)),
        (GameKind::Ctf, 5, Limit::Depth(2)),
        (GameKind::Ctf, 3, Limit::MoveTime(Duration::from_millis(20))),
    ];
    let mut plies = 0;
    for &(game, lo, _) in &t.games {
        let mut mine: Vec<(u32, Limit)> = cases
            .iter()
            .filter(|c| c.0 == game && t.has(game, c.1))
            .map(|c| (c.1, c.2))
            .collect();
        if mine.is_empty() {
            mine.push((lo, Limit::Depth(2)));
        }
        for (size, limit) in mine {
            let size = size as usize;
            plies += by_game!(game, self_play(&mut e, size, limit).await)?;
        }
    }
    e.quit().await.map_err(simple)?;
    passed(format!("{plies} plies checked"))
}

pub(super) async fn oska_pass(t: &Target) -> CheckResult {
    if !t.has(GameKind::Oska, 4) {
        return Ok(Outcome::Skipped("Oska 4 is not declared".into()));
    }
    let mut s = t.start_simple().await?;
    let stuck = Position::board(
        GameKind::Oska,
        4,
        board("----/---/--/w--/bb--"),
        Side::White,
    );
    let r = s.play(&stuck, &Limit::Depth(3)).await.map_err(simple)?;
    if r.best != Some(MoveText::Pass) {
        return fail(format!(
            "expected 'bestmove pass', got {}",
            bestmove_line(r.best)
        ));
    }
    let e = s.engine_mut();
    let l = legal(e).await?;
    if l != ["pass"] {
        return fail(format!("expected 'legal pass', got '{}'", Reply::Legal(l)));
    }
    quiet(e, "position board ----/---/--/w--/bb-- w moves pass").await?;
    let (board, _) = show(e).await?;
    match board {
        Reply::Board {
            side: Side::Black,
            board,
            ..
        } if board.to_string() == "----/---/--/w--/bb--" => {}
        other => return fail(format!("after pass, show gave '{other}'")),
    }
    refused(
        e,
        "position board wwww/---/--/---/bbbb w moves pass",
        ErrorCode::IllegalMove,
    )
    .await?;
    s.quit().await.map_err(simple)?;
    passed("")
}

pub(super) async fn game_over(t: &Target) -> CheckResult {
    let mut s = t.start_simple().await?;
    let cases = [
        (
            GameKind::Hexapawn,
            3,
            "---/-b-/w--",
            Side::Black,
            Some(Side::White),
            "far-row",
        ),
        (
            GameKind::Ctf,
            5,
            "-w-w-/-----/-----/-bbb-/-bBb-",
            Side::Black,
            Some(Side::Black),
            "flag-captured",
        ),
        (
            GameKind::Oska,
            4,
            "----/---/--/---/ww-b",
            Side::Black,
            Some(Side::White),
            "all-home",
        ),
    ];
    let cases: Vec<_> = cases.into_iter().filter(|c| t.has(c.0, c.1)).collect();
    if cases.is_empty() {
        return Ok(Outcome::Skipped(
            "none of Hexapawn 3, Capture the Flag 5 and Oska 4 is declared".into(),
        ));
    }
    let played = cases.len();
    for (game, size, board, side, winner, reason) in cases {
        let position = Position::board(game, size, super::board(board), side);
        let r = s.play(&position, &Limit::Depth(2)).await.map_err(simple)?;
        let want = GameResult {
            winner,
            reason: reason.to_string(),
        };
        if r.best.is_some() || !r.replies.contains(&Reply::Result(Some(want.clone()))) {
            return fail(format!(
                "{game} {board}: go should give 'result {} {reason}' and 'bestmove none', got {} then {}",
                winner.map_or("draw", |s| s.name()),
                quoted(&r.replies),
                bestmove_line(r.best)
            ));
        }
        let e = s.engine_mut();
        let (_, result) = show(e).await?;
        if result.as_ref() != Some(&want) {
            return fail(format!(
                "{game} {board}: show gave '{}', expected '{}'",
                Reply::Result(result),
                Reply::Result(Some(want))
            ));
        }
        if !legal(e).await?.is_empty() {
            return fail(format!("{game} {board}: a finished game has legal moves"));
        }
        refused(
            e,
            &format!("position board {board} {} moves a1a2", side.letter()),
            ErrorCode::IllegalMove,
        )
        .await?;
    }
    s.quit().await.map_err(simple)?;
    passed(format!("{played} finished games"))
}

pub(super) async fn errors_leave_state(t: &Target) -> CheckResult {
    let mut e = t.start().await?;
    let (game, size) = t.main(5);
    let (lo, hi) = t.range(game).unwrap_or_default();
    let open = by_game!(game, opening(size))?;
    let first = &open.first;
    quiet(&mut e, &format!("newgame {game} {size}")).await?;
    quiet(&mut e, &format!("position startpos moves {first}")).await?;
    let before = show(&mut e).await?;
    let long = format!(
        "position startpos moves {}",
        "a1a2 ".repeat(MAX_LINE / 5 + 10)
    );
    let mut bad: Vec<(String, ErrorCode)> = vec![
        ("frobnicate".into(), ErrorCode::UnknownCommand),
        ("go".into(), ErrorCode::Syntax),
        ("go depth ten".into(), ErrorCode::Syntax),
        ("uci please".into(), ErrorCode::Syntax),
        ("uci\x0b".into(), ErrorCode::Syntax),
        (
            format!("position startpos moves {first} zz9"),
            ErrorCode::Syntax,
        ),
        ("go depth 0".into(), ErrorCode::BadValue),
        (
            "go depth 99999999999999999999999".into(),
            ErrorCode::BadValue,
        ),
        ("newgame chess 8".into(), ErrorCode::BadValue),
        (
            format!("newgame {game} {}", u64::from(hi) + 1),
            ErrorCode::Unsupported,
        ),
        (
            "setoption name NoSuchOption value 1".into(),
            ErrorCode::Unsupported,
        ),
        (
            format!("position startpos moves {first} {first}"),
            ErrorCode::IllegalMove,
        ),
        (
            "position startpos moves pass".into(),
            ErrorCode::IllegalMove,
        ),
        (long, ErrorCode::TooLong),
    ];
    if lo > 0 {
        bad.push((format!("newgame {game} {}", lo - 1), ErrorCode::Unsupported));
    }
    if let Some(OptionKind::Spin { min, max, .. }) = t.option("Hash").map(|o| &o.kind) {
        if *min > 0 {
            bad.push((
                format!("setoption name Hash value {}", min - 1),
                ErrorCode::BadValue,
            ));
        }
        bad.push((
            format!("setoption name Hash value {}", max.saturating_add(1)),
            ErrorCode::BadValue,
        ));
    }
    if let Some(OptionKind::Check { .. }) = t.option("Trace").map(|o| &o.kind) {
        bad.push((
            "setoption name Trace value maybe".into(),
            ErrorCode::BadValue,
        ));
    }
    let uneven = match game {
        GameKind::Oska => "www/---/bbb",
        GameKind::Hexapawn | GameKind::Ctf => "www/--/bbb",
    };
    bad.push((format!("position board {uneven} w"), ErrorCode::BadPosition));
    // protocol.md: a board of a size the game does not support is `unsupported`, a character
    // that is no board character is `syntax` (the word is no board), and a board character the
    // game has no piece for is `bad-position`.
    bad.push((
        format!("position board {} w", empty_board(game, hi as usize + 1)),
        ErrorCode::Unsupported,
    ));
    let at = open.board.replacen('-', "@", 1);
    bad.push((format!("position board {at} w"), ErrorCode::Syntax));
    if game != GameKind::Ctf {
        let flag = open.board.replacen('-', "W", 1);
        bad.push((format!("position board {flag} w"), ErrorCode::BadPosition));
    }
    if game == GameKind::Oska && size == 5 {
        for (line, code) in [
            (
                "position board wwwww/---/--/---/bbbb w",
                ErrorCode::BadPosition,
            ),
            (
                "position board wwww/---/--/---/bbbb w history wwww/---/--/---/bbbb",
                ErrorCode::BadPosition,
            ),
            (
                "position startpos moves a1a2 b5b4 b1b2 pass",
                ErrorCode::IllegalMove,
            ),
            ("position startpos moves a9a8", ErrorCode::IllegalMove),
        ] {
            bad.push((line.into(), code));
        }
    }
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
        "go depth 1".to_string(),
        format!("newgame {game} {size}"),
        "position startpos".into(),
        "setoption name Hash value 2".into(),
    ] {
        refused(&mut e, &line, ErrorCode::Busy).await?;
    }
    let during = show(&mut e).await?;
    e.stop(ANSWER).await.map_err(client)?;
    if during != before || show(&mut e).await? != before {
        return fail("a refused command changed the state during a search");
    }
    e.shutdown(ANSWER).await.map_err(client)?;
    passed(format!("{} error lines, {game} {size}", bad.len() + 4))
}
