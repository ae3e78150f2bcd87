//! Differential test of the rules core against a second, deliberately naive implementation.
//!
//! The reference below reads `docs/rules.md` literally: boards are rows of characters, Oska's
//! geometry is computed from x = 2j - (L-1) for every step, Capture the Flag's history is a list
//! of earlier boards compared cell by cell, and the end of the game is decided in the order
//! rules.md gives. It shares no code with the engine's bitboards, tables or hashes.
//!
//! Evidence: on thousands of random positions of every game and several sizes, reached by random
//! legal play from the start and from random legal layouts, the engine and the reference agree
//! on the set of legal moves (name and resulting board), on the outcome, and on perft totals at
//! small depths (which exercises passes, game ends inside the tree and, for Capture the Flag, the
//! no-repeated-board rule along the searched line).

use crate::common;

use std::collections::BTreeSet;

use boardgames_core::games::notation::move_name;
use boardgames_core::games::perft::perft;
use boardgames_core::games::{
    Ctf, Game, GameKind, Hexapawn, Line, MoveList, Oska, Outcome, Reason, Side,
};
use common::{Rng, random_line, sizes};

type Grid = Vec<Vec<char>>;

/// A position of the reference: the board, the side to move and the earlier boards of the game.
#[derive(Clone, Debug)]
struct RefPos {
    kind: GameKind,
    board: Grid,
    side: Side,
    /// Earlier boards, oldest first (consulted only by Capture the Flag).
    history: Vec<Grid>,
}

/// Row lengths, straight from rules.md.
fn row_lengths(kind: GameKind, n: usize) -> Vec<usize> {
    match kind {
        GameKind::Oska => {
            let mut rows: Vec<usize> = (2..=n).rev().collect();
            rows.extend(3..=n);
            rows
        }
        _ => vec![n; n],
    }
}

fn forward(side: Side) -> isize {
    match side {
        Side::White => 1,
        Side::Black => -1,
    }
}

fn owner(c: char) -> Option<Side> {
    match c {
        'w' | 'W' => Some(Side::White),
        'b' | 'B' => Some(Side::Black),
        _ => None,
    }
}

fn pawn_char(side: Side) -> char {
    side.letter()
}

fn flag_char(side: Side) -> char {
    side.letter().to_ascii_uppercase()
}

fn name(r: usize, c: usize) -> String {
    format!("{}{}", (b'a' + c as u8) as char, r + 1)
}

fn count(board: &Grid, ch: char) -> usize {
    board.iter().flatten().filter(|&&c| c == ch).count()
}

/// Oska: the column of the square at half-square coordinate `x` in row `r`, if it exists.
fn oska_at(board: &Grid, r: isize, x: isize) -> Option<(usize, usize)> {
    if r < 0 || r as usize >= board.len() {
        return None;
    }
    let len = board[r as usize].len() as isize;
    // x = 2j - (len - 1)  <=>  j = (x + len - 1) / 2
    let twice = x + len - 1;
    if twice < 0 || twice % 2 != 0 || twice / 2 >= len {
        return None;
    }
    Some((r as usize, (twice / 2) as usize))
}

/// The moves the pieces can make by the movement rules (no pass, no history), with names.
fn piece_moves(kind: GameKind, board: &Grid, side: Side) -> Vec<(String, Grid)> {
    let mut out = Vec::new();
    let n = board.len();
    let fwd = forward(side);
    for r in 0..n {
        for c in 0..board[r].len() {
            let here = board[r][c];
            if owner(here) != Some(side) {
                continue;
            }
            let mut add = |to: (usize, usize), captured: Option<(usize, usize)>| {
                let mut b = board.clone();
                b[to.0][to.1] = here;
                b[r][c] = '-';
                if let Some((cr, cc)) = captured {
                    b[cr][cc] = '-';
                }
                out.push((format!("{}{}", name(r, c), name(to.0, to.1)), b));
            };
            match kind {
                GameKind::Oska => {
                    let x = 2 * c as isize - (board[r].len() as isize - 1);
                    for dx in [-1, 1] {
                        let Some(one) = oska_at(board, r as isize + fwd, x + dx) else {
                            continue;
                        };
                        let there = board[one.0][one.1];
                        if there == '-' {
                            add(one, None);
                        } else if owner(there) == Some(side.opposite())
                            && let Some(two) = oska_at(board, r as isize + 2 * fwd, x + 2 * dx)
                            && board[two.0][two.1] == '-'
                        {
                            add(two, Some(one));
                        }
                    }
                }
                GameKind::Hexapawn => {
                    let r1 = r as isize + fwd;
                    if r1 < 0 || r1 as usize >= n {
                        continue;
                    }
                    let r1 = r1 as usize;
                    if board[r1][c] == '-' {
                        add((r1, c), None);
                    }
                    for dc in [-1isize, 1] {
                        let c1 = c as isize + dc;
                        if c1 >= 0
                            && (c1 as usize) < n
                            && owner(board[r1][c1 as usize]) == Some(side.opposite())
                        {
                            add((r1, c1 as usize), None);
                        }
                    }
                }
                GameKind::Ctf => {
                    let is_flag = here == flag_char(side);
                    let dirs: Vec<(isize, isize)> = if is_flag {
                        vec![(1, 0), (-1, 0), (0, -1), (0, 1)]
                    } else {
                        vec![(fwd, 0), (0, -1), (0, 1)]
                    };
                    let inside = |r: isize, c: isize| {
                        (r >= 0 && c >= 0 && (r as usize) < n && (c as usize) < n)
                            .then_some((r as usize, c as usize))
                    };
                    for (dr, dc) in dirs {
                        let Some(one) = inside(r as isize + dr, c as isize + dc) else {
                            continue;
                        };
                        let there = board[one.0][one.1];
                        if there == '-' {
                            add(one, None);
                        } else if !is_flag
                            && owner(there) == Some(side.opposite())
                            && let Some(two) = inside(r as isize + 2 * dr, c as isize + 2 * dc)
                            && board[two.0][two.1] == '-'
                        {
                            add(two, Some(one));
                        }
                    }
                }
            }
        }
    }
    out
}

/// The legal moves: the pieces' moves, Oska's pass, less Capture the Flag's repeated boards;
/// nothing once the game is over.
fn legal_moves(pos: &RefPos) -> Vec<(String, Grid)> {
    if board_outcome(pos).is_some() {
        return Vec::new();
    }
    let mut moves = piece_moves(pos.kind, &pos.board, pos.side);
    match pos.kind {
        GameKind::Oska if moves.is_empty() => moves.push(("pass".into(), pos.board.clone())),
        GameKind::Ctf => {
            moves.retain(|(_, b)| *b != pos.board && !pos.history.contains(b));
        }
        _ => {}
    }
    moves
}

/// The end of the game decided by the board alone, in the order of rules.md.
fn board_outcome(pos: &RefPos) -> Option<Outcome> {
    let b = &pos.board;
    let n = b.len();
    let mover = pos.side.opposite();
    match pos.kind {
        GameKind::Oska => {
            let (w, k) = (count(b, 'w'), count(b, 'b'));
            if w == 0 {
                return Some(Outcome::Win(Side::Black, Reason::NoPieces));
            }
            if k == 0 {
                return Some(Outcome::Win(Side::White, Reason::NoPieces));
            }
            let w_home = count(&vec![b[n - 1].clone()], 'w') == w;
            let b_home = count(&vec![b[0].clone()], 'b') == k;
            if w_home && b_home {
                return Some(match w.cmp(&k) {
                    std::cmp::Ordering::Greater => {
                        Outcome::Win(Side::White, Reason::BothHomeMorePieces)
                    }
                    std::cmp::Ordering::Less => {
                        Outcome::Win(Side::Black, Reason::BothHomeMorePieces)
                    }
                    std::cmp::Ordering::Equal => Outcome::Draw(Reason::BothHomeEqual),
                });
            }
            if w_home {
                return Some(Outcome::Win(Side::White, Reason::AllHome));
            }
            if b_home {
                return Some(Outcome::Win(Side::Black, Reason::AllHome));
            }
            if piece_moves(pos.kind, b, Side::White).is_empty()
                && piece_moves(pos.kind, b, Side::Black).is_empty()
            {
                return Some(Outcome::Draw(Reason::BothStuck));
            }
            None
        }
        GameKind::Hexapawn => {
            for s in [mover, pos.side] {
                let far = if s == Side::White { n - 1 } else { 0 };
                if b[far].contains(&pawn_char(s)) {
                    return Some(Outcome::Win(s, Reason::ReachedFarRow));
                }
                if count(b, pawn_char(s.opposite())) == 0 {
                    return Some(Outcome::Win(s, Reason::NoPawns));
                }
            }
            None
        }
        GameKind::Ctf => {
            for s in [mover, pos.side] {
                let o = s.opposite();
                if count(b, flag_char(o)) == 0 {
                    return Some(Outcome::Win(s, Reason::FlagCaptured));
                }
                if count(b, pawn_char(o)) == 0 {
                    return Some(Outcome::Win(s, Reason::NoPawns));
                }
            }
            for s in [mover, pos.side] {
                let flag_row = (0..n)
                    .find(|&r| b[r].contains(&flag_char(s)))
                    .expect("both flags present");
                let past = (0..n)
                    .filter(|&r| b[r].contains(&pawn_char(s.opposite())))
                    .all(|r| match s {
                        Side::White => flag_row > r,
                        Side::Black => flag_row < r,
                    });
                if past {
                    return Some(Outcome::Win(s, Reason::FlagPast));
                }
            }
            None
        }
    }
}

/// The outcome: the board's verdict, else a loss for a side to move without a legal move
/// (Oska's pass means an Oska side is never without one).
fn outcome(pos: &RefPos) -> Option<Outcome> {
    board_outcome(pos).or_else(|| {
        legal_moves(pos)
            .is_empty()
            .then_some(Outcome::Win(pos.side.opposite(), Reason::NoLegalMove))
    })
}

fn child(pos: &RefPos, board: Grid) -> RefPos {
    let mut history = pos.history.clone();
    history.push(pos.board.clone());
    RefPos {
        kind: pos.kind,
        board,
        side: pos.side.opposite(),
        history,
    }
}

fn ref_perft(pos: &RefPos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|(_, b)| ref_perft(&child(pos, b), depth - 1))
        .sum()
}

/// The reference's grid of an engine position, read square by square with the reference's own
/// row lengths (so a wrong layout in the engine shows up too).
fn grid<G: Game>(pos: &G) -> Grid {
    let mut sq = 0;
    row_lengths(G::KIND, pos.size())
        .into_iter()
        .map(|len| {
            (0..len)
                .map(|_| {
                    let c = pos.piece_at(sq).map_or('-', |p| p.to_char());
                    sq += 1;
                    c
                })
                .collect()
        })
        .collect()
}

fn to_ref<G: Game>(line: &Line<G>) -> RefPos {
    RefPos {
        kind: G::KIND,
        board: grid(line.current()),
        side: line.current().side_to_move(),
        history: line.earlier().iter().map(grid).collect(),
    }
}

fn show(b: &Grid) -> String {
    b.iter()
        .map(|r| r.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("/")
}

/// Compares moves and outcome of one line; returns the reference position for further checks.
fn compare<G: Game>(line: &Line<G>) -> RefPos {
    let r = to_ref(line);
    let cur = line.current();
    let mut moves = MoveList::new();
    line.legal_moves(&mut moves);
    let engine_moves: BTreeSet<(String, String)> = moves
        .as_slice()
        .iter()
        .map(|&m| (move_name(cur, m), show(&grid(&cur.play(m)))))
        .collect();
    let ref_moves: BTreeSet<(String, String)> = legal_moves(&r)
        .into_iter()
        .map(|(n, b)| (n, show(&b)))
        .collect();
    assert_eq!(
        engine_moves.len(),
        moves.len(),
        "{} {} {:?}: duplicate moves",
        G::KIND,
        show(&r.board),
        r.side
    );
    assert_eq!(
        engine_moves,
        ref_moves,
        "{} {} {:?} (history {}): move lists differ",
        G::KIND,
        show(&r.board),
        r.side,
        r.history.len()
    );
    assert_eq!(
        line.outcome(),
        outcome(&r),
        "{} {} {:?}: outcomes differ",
        G::KIND,
        show(&r.board),
        r.side
    );
    r
}

/// Random lines of one game and size; every position along each line is compared, and perft to
/// `depth` on every `perft_every`-th line's last position. Returns the positions compared.
fn check_game<G: Game>(seed: u64, lines: usize, max_plies: usize, depth: u32) -> usize {
    let mut compared = 0;
    for &size in sizes(G::KIND) {
        let mut rng = Rng::new(seed ^ ((size as u64) << 32));
        for i in 0..lines {
            let end = random_line::<G>(&mut rng, size, max_plies);
            // Rebuild the line step by step, comparing at each position (history included).
            let mut line = Line::new(end.earlier().first().copied().unwrap_or(*end.current()));
            for next in end.earlier().iter().skip(1).chain([end.current()]) {
                compare(&line);
                compared += 1;
                line.push_position(*next);
            }
            let r = compare(&line);
            compared += 1;
            if i % 4 == 0 {
                for d in 1..=depth {
                    assert_eq!(
                        perft(&mut line, d),
                        ref_perft(&r, d),
                        "{} {} {:?}: perft {d} differs",
                        G::KIND,
                        show(&r.board),
                        r.side
                    );
                }
            }
        }
    }
    eprintln!("{}: {compared} positions compared", G::KIND);
    compared
}

/// [`check_game`] with these arguments, which must compare more than 2000 positions.
fn agrees_with_the_reference<G: Game>(seed: u64, lines: usize, max_plies: usize, depth: u32) {
    let n = check_game::<G>(seed, lines, max_plies, depth);
    assert!(n > 2000, "only {n} positions compared");
}

#[test]
fn oska_agrees_with_the_reference() {
    agrees_with_the_reference::<Oska>(1, 300, 40, 3);
}

#[test]
fn hexapawn_agrees_with_the_reference() {
    agrees_with_the_reference::<Hexapawn>(2, 400, 25, 3);
}

#[test]
fn ctf_agrees_with_the_reference() {
    agrees_with_the_reference::<Ctf>(3, 300, 60, 3);
}

/// Perft from each start position to depth 4, where passes, captures and (in Capture the Flag)
/// repetitions inside the tree all occur.
#[test]
fn start_positions_perft_agrees_to_depth_4() {
    fn run<G: Game>() {
        for &size in sizes(G::KIND) {
            let mut line = Line::new(G::start(size).expect("supported size"));
            let r = to_ref(&line);
            for d in 1..=4 {
                assert_eq!(
                    perft(&mut line, d),
                    ref_perft(&r, d),
                    "{} size {size}: perft {d} from the start differs",
                    G::KIND
                );
            }
        }
    }
    run::<Oska>();
    run::<Hexapawn>();
    run::<Ctf>();
}

/// A Capture the Flag shuffle where the no-repeated-board rule bites: flags stepping back and
/// forth would recreate the first board, so the reference and the engine must both drop it.
#[test]
fn ctf_repetition_inside_perft() {
    let line = common::line::<Ctf>("W-w/---/b-B", Side::White);
    let r = to_ref(&line);
    let mut line = line;
    for d in 1..=6 {
        assert_eq!(perft(&mut line, d), ref_perft(&r, d), "perft {d} differs");
    }
    let mut rng = Rng::new(9);
    for _ in 0..200 {
        let mut l = line.clone();
        common::playout(&mut rng, &mut l, 12);
        compare(&l);
    }
}
