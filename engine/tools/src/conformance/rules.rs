//! The checks of positions against the rules: a history the rules refuse, the `legal` list,
//! `show` with its moves, line endings and comments, `go` with a clock, and the start state.

use super::*;

/// An empty board of `game` at `size` in the `/` form (any size, supported or not).
pub(super) fn empty_board(game: GameKind, size: usize) -> String {
    let rows: Vec<usize> = match game {
        // Oska: rows of size, size - 1, ..., 2, ..., size squares.
        GameKind::Oska => (2..=size).rev().chain(3..=size).collect(),
        GameKind::Hexapawn | GameKind::Ctf => vec![size; size],
    };
    rows.iter()
        .map(|&n| "-".repeat(n))
        .collect::<Vec<_>>()
        .join("/")
}

/// What protocol.md's `position` asks of a history.
pub(super) const HISTORY: &str = "a history that is not a game is refused (protocol.md, position: each \
     history board follows from the one before it by one legal move, the sides alternating)";

/// A history is checked by the rules: on each checked game, the start board as the history of
/// the board after the first move is taken, and two histories that are no game are refused
/// with `bad-position`: the board as its own history (no move leads from a board to itself)
/// and the board after the first move as the history of the start (pieces do not move back).
pub(super) async fn history_checked(t: &Target) -> CheckResult {
    let mut e = t.start().await?;
    let mut sent = 0;
    for &(game, lo, hi) in &t.games {
        let size = 5.clamp(lo, hi);
        let open = by_game!(game, opening(size))?;
        let start = by_game!(game, start_board(size))?;
        let (after, side) = (&open.board, open.side.letter());
        quiet(&mut e, &format!("newgame {game} {size}")).await?;
        let good = format!("position board {after} {side} history {start}");
        quiet(&mut e, &good).await.map_err(|why| {
            format!(
                "a history that is a game is taken (protocol.md, position): sent '{}': {why}",
                short(&good)
            )
        })?;
        for bad in [
            format!("position board {after} {side} history {after}"),
            format!(
                "position board {start} {} history {after}",
                open.side.opposite().letter()
            ),
        ] {
            refused_as(&mut e, &bad, ErrorCode::BadPosition, HISTORY).await?;
            sent += 1;
        }
    }
    e.shutdown(ANSWER).await.map_err(client)?;
    passed(format!("{sent} histories refused"))
}

/// What protocol.md's `legal` asks.
pub(super) const LEGAL: &str = "'legal' lists every legal move of the position and no other (protocol.md, \
     legal; a move that would bring back an earlier board of the game is none: rules, Capture the \
     Flag)";

/// The names of the legal moves at the end of `line`, sorted.
pub(super) fn legal_names<G: Game>(line: &Line<G>) -> Vec<String> {
    let mut moves = MoveList::new();
    line.legal_moves(&mut moves);
    let mut names: Vec<String> = moves
        .as_slice()
        .iter()
        .map(|&m| move_name(line.current(), m))
        .collect();
    names.sort();
    names
}

/// A line of moves (names) from the start, and a move after it that the rules forbid.
type LegalCase = (Vec<String>, Option<String>);

/// The lines `legal` is checked after in `G` of `size`: the first move from the start, and where
/// the rules forbid bringing back a board, the shortest line (the first in the order moves are
/// generated) after which a move the pieces could make would bring one back, with that move.
pub(super) fn legal_cases<G: Game>(size: u32) -> Result<Vec<LegalCase>, String> {
    /// A line of at most `left` more plies after which a generated move is forbidden.
    fn find<G: Game>(line: &mut Line<G>, names: &mut Vec<String>, left: u32) -> Option<String> {
        let pos = *line.current();
        let mut all = MoveList::new();
        pos.generate(&mut all);
        let mut allowed = MoveList::new();
        line.legal_moves(&mut allowed);
        if line.outcome().is_some() {
            return None;
        }
        if let Some(&m) = all
            .as_slice()
            .iter()
            .find(|m| !allowed.as_slice().contains(m))
        {
            return Some(move_name(&pos, m));
        }
        if left == 0 {
            return None;
        }
        for &m in allowed.as_slice() {
            names.push(move_name(&pos, m));
            line.push(m);
            let found = find(line, names, left - 1);
            line.pop();
            if found.is_some() {
                return found;
            }
            names.pop();
        }
        None
    }
    let open = opening::<G>(size)?;
    let mut cases = vec![(vec![open.first], None)];
    if G::NO_REPEAT {
        let mut line = Line::new(G::start(size as usize).map_err(|x| x.to_string())?);
        let mut names = Vec::new();
        match find(&mut line, &mut names, 4) {
            Some(forbidden) => cases.push((names, Some(forbidden))),
            None => {
                return fail(format!(
                    "{} {size}: no board comes back within 4 plies",
                    G::KIND
                ));
            }
        }
    }
    Ok(cases)
}

/// `legal` as the rules say: on each checked game, after the first move from the start the
/// engine's list is the rules' (in any order); in Capture the Flag, after a line where a move
/// would bring back an earlier board, that move is not listed and `position` with it is
/// `illegal-move`.
pub(super) async fn legal_as_the_rules_say(t: &Target) -> CheckResult {
    let mut e = t.start().await?;
    let mut positions = 0;
    for &(game, lo, hi) in &t.games {
        let size = 5.clamp(lo, hi);
        quiet(&mut e, &format!("newgame {game} {size}")).await?;
        for (moves, forbidden) in by_game!(game, legal_cases(size))? {
            let setup = format!("position startpos moves {}", moves.join(" "));
            quiet(&mut e, &setup).await?;
            let want = by_game!(game, rules_legal(size, &moves))?;
            let mut got = legal(&mut e).await?;
            got.sort();
            if got != want {
                return fail(format!(
                    "{LEGAL}: after '{}' the engine sent '{}', expected '{}' (in any order)",
                    short(&setup),
                    Reply::Legal(got),
                    Reply::Legal(want)
                ));
            }
            if let Some(f) = forbidden {
                refused_as(
                    &mut e,
                    &format!("{setup} {f}"),
                    ErrorCode::IllegalMove,
                    &format!("{LEGAL}: {f} brings back an earlier board"),
                )
                .await?;
            }
            positions += 1;
        }
    }
    e.shutdown(ANSWER).await.map_err(client)?;
    passed(format!("{positions} positions"))
}

/// The rules' legal moves, sorted, after `moves` (names) from the start of `G` of `size`.
pub(super) fn rules_legal<G: Game>(size: u32, moves: &[String]) -> Result<Vec<String>, String> {
    let mut line = Line::new(G::start(size as usize).map_err(|x| x.to_string())?);
    for name in moves {
        let mv =
            boardgames_core::games::notation::parse_move(&line, name).map_err(|x| x.to_string())?;
        line.push(mv);
    }
    Ok(legal_names(&line))
}

/// The start board of `G` of `size`, in the `/` form.
pub(super) fn start_board<G: Game>(size: u32) -> Result<String, String> {
    G::start(size as usize)
        .map(|p| slash(&p))
        .map_err(|x| x.to_string())
}

/// `show` gives the line: on each checked game, after `position startpos moves FIRST` its
/// `board` line is `board GAME SIZE BOARD SIDE from startpos moves FIRST`, and the `position`
/// made of its words after `from` restores the same line.
pub(super) async fn show_gives_moves(t: &Target) -> CheckResult {
    let mut e = t.start().await?;
    for &(game, lo, hi) in &t.games {
        let size = 5.clamp(lo, hi);
        let open = by_game!(game, opening(size))?;
        quiet(&mut e, &format!("newgame {game} {size}")).await?;
        let setup = format!("position startpos moves {}", open.first);
        quiet(&mut e, &setup).await?;
        let want = format!(
            "board {game} {size} {} {} from startpos moves {}",
            open.board,
            open.side.letter(),
            open.first
        );
        let (board, _) = show(&mut e).await?;
        if board.to_string() != want {
            return fail(format!(
                "'show' names the line's first board and every move since (protocol.md, show: \
                 'from ... moves'): after '{setup}' the engine sent '{board}', expected '{want}'"
            ));
        }
        let words = want.split(" from ").nth(1).unwrap_or_default();
        let restore = format!("position {words}");
        quiet(&mut e, &restore).await?;
        let (again, _) = show(&mut e).await?;
        if again != board {
            return fail(format!(
                "'position' with the words after 'from' restores the line (protocol.md, show): \
                 after '{restore}' the engine sent '{again}', expected '{want}'"
            ));
        }
    }
    e.shutdown(ANSWER).await.map_err(client)?;
    passed("")
}

pub(super) async fn crlf_and_comments(t: &Target) -> CheckResult {
    let mut e = t.start().await?;
    let (game, size) = t.main(3);
    let open = by_game!(game, opening(size))?;
    e.send_raw(&format!(
        "# a comment\r\n\r\n\t \r\n  newgame\t{game}  {size} \r\n   # indented comment\n"
    ))
    .await
    .map_err(client)?;
    let seen = e.ping(ANSWER).await.map_err(client)?;
    if !seen.is_empty() {
        return fail(format!(
            "blank and comment lines should give nothing, got {}",
            quoted(&seen)
        ));
    }
    e.send_raw("isready\r\n").await.map_err(client)?;
    let r = e.recv(ANSWER).await.map_err(client)?;
    if r != Reply::ReadyOk {
        return fail(format!("'isready' with CRLF gave '{r}'"));
    }
    e.send_raw(&format!("position startpos moves {}\r\n", open.first))
        .await
        .map_err(client)?;
    match show(&mut e).await? {
        (Reply::Board { board, side, .. }, None)
            if board.to_string() == open.board && side == open.side => {}
        (board, result) => {
            return fail(format!(
                "after CRLF input 'show' should give 'board {game} {size} {} {} from startpos moves {}', got '{board}', '{}'",
                open.board,
                open.side.letter(),
                open.first,
                Reply::Result(result)
            ));
        }
    }
    e.shutdown(ANSWER).await.map_err(client)?;
    passed("")
}

/// What protocol.md's `go` asks of its clock form.
pub(super) const CLOCK: &str = "'go wtime MS btime MS' gives a legal bestmove within the time left of the \
     side to move (protocol.md, go)";

/// The time each side has left in the clock check, and the time allowed beyond it for the
/// engine's start of a reply and the pipes.
pub(super) const CLOCK_LEFT: Duration = Duration::from_millis(400);
pub(super) const CLOCK_MARGIN: Duration = Duration::from_millis(300);

/// The move `best` after the first move of `G` of `size`, if legal there.
pub(super) fn legal_after_first<G: Game>(size: u32, best: MoveText) -> Result<(), String> {
    let mut line = Line::new(G::start(size as usize).map_err(|x| x.to_string())?);
    let mut moves = MoveList::new();
    line.legal_moves(&mut moves);
    let first = *moves
        .as_slice()
        .first()
        .ok_or_else(|| format!("{} {size} has no move at the start", G::KIND))?;
    line.push(first);
    legal_move(&line, best, &best.to_string())
        .map(|_| ())
        .map_err(|x| x.to_string())
}

/// The clock form of `go`: on each checked game (a size where a search does not end by itself),
/// after the first move, `go wtime 400 btime 400` gives a legal `bestmove` within the 400 ms
/// (and a margin of 300 ms for the pipes).
pub(super) async fn clock_form(t: &Target) -> CheckResult {
    let mut e = t.start().await?;
    let mut worst = Duration::ZERO;
    for &(game, lo, hi) in &t.games {
        let size = large(game).clamp(lo, hi);
        quiet(&mut e, &format!("newgame {game} {size}")).await?;
        warm_up(&mut e).await?;
        let open = by_game!(game, opening(size))?;
        let setup = format!("position startpos moves {}", open.first);
        quiet(&mut e, &setup).await?;
        let ms = CLOCK_LEFT.as_millis();
        let go = format!("go wtime {ms} btime {ms}");
        e.send_raw(&format!("{go}\n")).await.map_err(client)?;
        let t0 = Instant::now();
        let r = e.wait_bestmove(ANSWER).await.map_err(client)?;
        let took = t0.elapsed();
        worst = worst.max(took);
        let Some(best) = r.best else {
            return fail(format!(
                "{CLOCK}: after '{setup}' sent '{go}', expected 'bestmove MOVE', got 'bestmove none'"
            ));
        };
        if let Err(why) = by_game!(game, legal_after_first(size, best)) {
            return fail(format!(
                "{CLOCK}: after '{setup}' sent '{go}', got {}: {why}",
                bestmove_line(Some(best))
            ));
        }
        if took > CLOCK_LEFT + CLOCK_MARGIN {
            return fail(format!(
                "{CLOCK}: after '{setup}' sent '{go}', got {} after {:.0} ms, more than the {ms} \
                 ms left (and {} ms for the pipes)",
                bestmove_line(Some(best)),
                took.as_secs_f64() * 1000.0,
                CLOCK_MARGIN.as_millis()
            ));
        }
    }
    e.shutdown(ANSWER).await.map_err(client)?;
    passed(format!("worst {:.0} ms", worst.as_secs_f64() * 1000.0))
}

/// What protocol.md's section "The session state" asks of a fresh engine.
pub(super) const START: &str = "a fresh engine is at Oska 4's start position, or, where Oska 4 is not \
     declared, at a game and size it declares (protocol.md, the session state)";

/// The start state: before any `newgame`, `show` gives Oska 4's start position when the engine
/// declares Oska 4 (whichever games are checked), else a game and size it declares.
pub(super) async fn start_state(t: &Target) -> CheckResult {
    let mut e = t.start().await?;
    let declared = e.info().games.clone();
    let (board, _) = show(&mut e).await?;
    e.shutdown(ANSWER).await.map_err(client)?;
    let has = |game: GameKind, size: u32| {
        declared
            .iter()
            .any(|&(g, lo, hi)| g == game && (lo..=hi).contains(&size))
    };
    let Reply::Board { game, size, .. } = &board else {
        return fail(format!(
            "'show' should start with 'board ...', got '{board}'"
        ));
    };
    let want = if has(GameKind::Oska, 4) {
        let start = start_board::<Oska>(4)?;
        let want = format!("board oska 4 {start} w");
        if board.to_string() == want {
            return passed("oska 4");
        }
        want
    } else if has(*game, *size) {
        return passed(format!("{game} {size}"));
    } else {
        "a declared game".into()
    };
    fail(format!(
        "{START}: sent 'show' first, expected '{want}', got '{board}'"
    ))
}
