//! One hand-made position (or more) per rule of the rules page (`docs/rules.md`, which names the
//! test of each rule), with the exact expected moves or outcome written out by hand.
//!
//! Evidence: each rule of the page, including its edge cases (Oska's jump across the row of two,
//! the pass, the both-stuck draw, the both-home count rule, a move that makes the opponent win;
//! Hexapawn's no-move loss; Capture the Flag's flag capture, the "strictly past" flag rule,
//! sideways jumps, board edges, the no-repeated-board rule and history checking, the start
//! positions) is implemented as written, independently of the random differential tests.

use crate::common;

use boardgames_core::games::format::{parse_board, slash};
use boardgames_core::games::notation::parse_move;
use boardgames_core::games::{
    Ctf, Game, Hexapawn, Line, Oska, Outcome, PositionError, Reason, Side,
};
use common::{legal_boards, legal_names, line, pos, set};

/// Plays a named move (which must be legal) and returns the line after it.
fn play<G: Game>(mut line: Line<G>, mv: &str) -> Line<G> {
    let m = parse_move(&line, mv).unwrap_or_else(|e| panic!("{mv} should be legal: {e}"));
    line.push(m);
    line
}

// ---------------------------------------------------------------- Common ground

#[test]
fn start_positions_of_oska_and_hexapawn() {
    // Written out by hand for the smallest sizes.
    assert_eq!(
        slash(&Oska::start(5).unwrap()),
        "wwwww/----/---/--/---/----/bbbbb"
    );
    assert_eq!(slash(&Hexapawn::start(3).unwrap()), "www/---/bbb");
    assert_eq!(slash(&Hexapawn::start(4).unwrap()), "wwww/----/----/bbbb");
    // Every size: built here from the rule (row lengths n, n-1, ..., 2, ..., n for Oska, n rows
    // of n for Hexapawn; White fills the first row, Black the last), White to move.
    for n in 4..=11 {
        let lengths: Vec<usize> = (2..=n).rev().chain(3..=n).collect();
        assert_eq!(lengths.len(), 2 * n - 3);
        let rows: Vec<String> = lengths
            .iter()
            .enumerate()
            .map(|(r, &len)| {
                let c = match r {
                    0 => 'w',
                    r if r + 1 == lengths.len() => 'b',
                    _ => '-',
                };
                std::iter::repeat_n(c, len).collect()
            })
            .collect();
        let start = Oska::start(n).unwrap();
        assert_eq!(slash(&start), rows.join("/"), "oska {n}");
        assert_eq!(start.side_to_move(), Side::White);
    }
    for n in 3..=11 {
        let mut rows = vec!["-".repeat(n); n];
        rows[0] = "w".repeat(n);
        rows[n - 1] = "b".repeat(n);
        let start = Hexapawn::start(n).unwrap();
        assert_eq!(slash(&start), rows.join("/"), "hexapawn {n}");
        assert_eq!(start.side_to_move(), Side::White);
    }
}

#[test]
fn square_names_count_from_the_left_of_each_row() {
    // Oska 4: row 1 has a1..d1, row 2 a2..c2; each piece of row 1 reaches one or two squares of
    // row 2 (x = -3, -1, 1, 3 above x = -2, 0, 2).
    let start = Line::new(Oska::start(4).unwrap());
    assert_eq!(
        legal_names(&start),
        set(&["a1a2", "b1a2", "b1b2", "c1b2", "c1c2", "d1c2"])
    );
    // The name of a move gives the board after it: d1c2 empties the right end of row 1 and fills
    // the right end of row 2.
    assert_eq!(slash(play(start, "d1c2").current()), "www-/--w/--/---/bbbb");
    // Black's moves are named the same way, rows still counted from the top.
    let l = line::<Hexapawn>("www/---/bbb", Side::Black);
    assert_eq!(legal_names(&l), set(&["a3a2", "b3b2", "c3c2"]));
    // Row numbers above 9 take two digits, without a leading zero.
    let l = Line::new(Oska::start(11).unwrap());
    let l = play(l, "a1a2");
    assert!(legal_names(&l).contains("a19a18"), "{:?}", legal_names(&l));
    assert!(parse_move(&l, "a019a018").is_err());
}

// ---------------------------------------------------------------- Oska

#[test]
fn oska_four_piece_start_has_the_six_listed_moves() {
    let start = Line::new(Oska::start(4).unwrap());
    assert_eq!(slash(start.current()), "wwww/---/--/---/bbbb");
    assert_eq!(legal_boards(&start), set(&common::OSKA_4_FIRST_BOARDS));
    assert_eq!(start.outcome(), None);
}

#[test]
fn oska_steps_follow_the_centred_rows() {
    // Row 2 (3 squares) to row 3 (2 squares): from b2 (x = 0) to a3 and b3.
    let l = line::<Oska>("----/-w-/--/---/bbbb", Side::White);
    assert_eq!(legal_names(&l), set(&["b2a3", "b2b3"]));
    // Row 3 (2 squares) to row 4 (3 squares): from a3 (x = -1) to a4 and b4.
    let l = line::<Oska>("w---/---/w-/---/bbbb", Side::White);
    assert_eq!(legal_names(&l), set(&["a1a2", "a3a4", "a3b4"]));
    // Black moves up: from b5 (x = -1) on row 5 to a4 and b4.
    let l = line::<Oska>("wwww/---/--/---/-b--", Side::Black);
    assert_eq!(legal_names(&l), set(&["b5a4", "b5b4"]));
}

#[test]
fn oska_jump_across_the_row_of_two() {
    // White a2 (row of 3, x = -2) over a3 (row of 2, x = -1) to b4 (row of 3, x = 0).
    let l = line::<Oska>("----/w--/b-/---/bbb-", Side::White);
    assert_eq!(legal_names(&l), set(&["a2b4"]));
    let m = parse_move(&l, "a2b4").unwrap();
    assert!(l.current().is_capture(m));
    let after = play(l, "a2b4");
    assert_eq!(slash(after.current()), "----/---/--/-w-/bbb-");
    assert_eq!(after.current().piece_count(Side::Black), 3);
    // Black c4 (x = 2) over b3 (x = 1) to b2 (x = 0).
    let l = line::<Oska>("ww--/---/-w/--b/----", Side::Black);
    assert_eq!(legal_names(&l), set(&["c4b2"]));
    assert_eq!(slash(play(l, "c4b2").current()), "ww--/-b-/--/---/----");
}

#[test]
fn oska_jump_needs_an_opponent_and_an_empty_landing() {
    // Over an own piece: no jump; over an opponent with the landing taken: no jump.
    let l = line::<Oska>("----/w--/w-/-b-/bbb-", Side::White);
    assert_eq!(legal_names(&l), set(&["a3a4"]));
    let l = line::<Oska>("----/-w-/b-/b--/----", Side::White);
    assert_eq!(legal_names(&l), set(&["b2b3"]));
}

#[test]
fn oska_captures_are_not_compulsory() {
    // White b2 (x = 0) may jump a3 (x = -1) to a4 (x = -2), or step to the empty b3 (x = 1).
    let l = line::<Oska>("----/-w-/b-/---/bbb-", Side::White);
    assert_eq!(legal_names(&l), set(&["b2a4", "b2b3"]));
    let after = play(l, "b2b3");
    assert_eq!(slash(after.current()), "----/---/bw/---/bbb-");
    assert_eq!(after.outcome(), None);
    assert_eq!(after.current().piece_count(Side::Black), 4);
}

#[test]
fn oska_one_capture_per_turn() {
    // Oska 5: White a1 (x = -4) jumps a2 (x = -3) to a3 (x = -2); from there a second jump over
    // a4 (x = -1) to b5 (x = 0) would be open, but the turn ends after one capture.
    let l = line::<Oska>("w----/b---/---/b-/---/----/bbb--", Side::White);
    assert_eq!(legal_names(&l), set(&["a1a3"]));
    let after = play(l, "a1a3");
    assert_eq!(slash(after.current()), "-----/----/w--/b-/---/----/bbb--");
    assert_eq!(after.current().side_to_move(), Side::Black);
    assert_eq!(after.current().piece_count(Side::Black), 4);
    // Black moves next; the white piece cannot go on jumping in the same turn.
    assert!(legal_names(&after).iter().all(|m| !m.starts_with("a3")));
}

#[test]
fn oska_side_without_a_move_passes_and_the_board_stays() {
    // White's only piece a4 faces a5 and b5, both taken, and cannot jump off the board.
    let l = line::<Oska>("----/---/--/w--/bb--", Side::White);
    assert_eq!(l.outcome(), None);
    assert_eq!(legal_names(&l), set(&["pass"]));
    let after = play(l.clone(), "pass");
    assert!(after.current().same_board(l.current()));
    assert_eq!(after.current().side_to_move(), Side::Black);
    assert!(
        legal_names(&after).contains("a5a3"),
        "black jumps after the pass"
    );
    // A side with a move may not pass.
    let l = line::<Oska>("wwww/---/--/---/bbbb", Side::White);
    let err = parse_move(&l, "pass").unwrap_err().to_string();
    assert!(
        err.contains("passing is allowed only when it has none"),
        "{err}"
    );
}

#[test]
fn oska_both_sides_stuck_is_a_draw() {
    let l = line::<Oska>("bb--/b--/--/w--/ww--", Side::White);
    assert_eq!(l.outcome(), Some(Outcome::Draw(Reason::BothStuck)));
    assert!(legal_names(&l).is_empty());
    // Reached by a move: white b4-b5 blocks everything.
    let l = line::<Oska>("bb--/b--/--/ww-/w---", Side::White);
    assert_eq!(l.outcome(), None);
    let after = play(l, "b4b5");
    assert_eq!(slash(after.current()), "bb--/b--/--/w--/ww--");
    assert_eq!(after.outcome(), Some(Outcome::Draw(Reason::BothStuck)));
}

#[test]
fn oska_all_home_wins_and_both_home_counts_pieces() {
    let cases = [
        (
            "----/---/--/-b-/ww--",
            Outcome::Win(Side::White, Reason::AllHome),
        ),
        (
            "b-b-/---/--/-w-/----",
            Outcome::Win(Side::Black, Reason::AllHome),
        ),
        (
            "b---/---/--/---/ww--",
            Outcome::Win(Side::White, Reason::BothHomeMorePieces),
        ),
        (
            "bb-b/---/--/---/-w-w",
            Outcome::Win(Side::Black, Reason::BothHomeMorePieces),
        ),
        ("b--b/---/--/---/w--w", Outcome::Draw(Reason::BothHomeEqual)),
        (
            "----/---/--/---/-b-w",
            Outcome::Win(Side::White, Reason::AllHome),
        ),
    ];
    for (board, expected) in cases {
        for side in [Side::White, Side::Black] {
            let l = line::<Oska>(board, side);
            assert_eq!(l.outcome(), Some(expected), "{board} {side}");
            assert!(legal_names(&l).is_empty(), "{board}: the game is over");
        }
    }
}

#[test]
fn oska_last_piece_captured_loses() {
    let l = line::<Oska>("----/-w-/b-/---/----", Side::White);
    let after = play(l, "b2a4");
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win(Side::White, Reason::NoPieces))
    );
}

#[test]
fn oska_a_capture_can_make_the_opponent_win() {
    // White takes a3; Black's only other piece, d1, stands on White's home row: Black wins.
    let l = line::<Oska>("---b/-w-/b-/---/----", Side::White);
    assert_eq!(l.outcome(), None);
    let after = play(l, "b2a4");
    assert_eq!(slash(after.current()), "---b/---/--/w--/----");
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win(Side::Black, Reason::AllHome))
    );
    // The same capture landing on the far row with fewer pieces than Black: both home, Black
    // has more pieces and wins.
    let l = line::<Oska>("b--b/---/-w/-b-/----", Side::White);
    let after = play(l, "b3b5");
    assert_eq!(slash(after.current()), "b--b/---/--/---/-w--");
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win(Side::Black, Reason::BothHomeMorePieces))
    );
}

// ---------------------------------------------------------------- Hexapawn

#[test]
fn hexapawn_moves_straight_and_captures_diagonally() {
    let l = line::<Hexapawn>("-w-/bbb/---", Side::White);
    assert_eq!(legal_names(&l), set(&["b1a2", "b1c2"]));
    let l = line::<Hexapawn>("www/-b-/b-b", Side::Black);
    assert_eq!(legal_names(&l), set(&["b2a1", "b2c1", "a3a2", "c3c2"]));
}

#[test]
fn hexapawn_pawns_never_step_twice() {
    // Hexapawn 4: from the start each pawn has one square straight ahead, never two.
    let l = Line::new(Hexapawn::start(4).unwrap());
    assert_eq!(legal_names(&l), set(&["a1a2", "b1b2", "c1c2", "d1d2"]));
    let err = parse_move(&l, "a1a3").unwrap_err().to_string();
    assert!(err.contains("cannot move there"), "{err}");
    // b1 faces b2 head-on and is blocked; it moves diagonally only onto an opponent (a2 and c2
    // are empty), while a1 steps ahead or takes b2.
    let l = line::<Hexapawn>("ww--/-b--/----/--bb", Side::White);
    assert_eq!(legal_names(&l), set(&["a1a2", "a1b2"]));
}

#[test]
fn hexapawn_side_without_a_move_loses() {
    let l = line::<Hexapawn>("w--/b--/---", Side::White);
    assert!(legal_names(&l).is_empty());
    assert_eq!(
        l.outcome(),
        Some(Outcome::Win(Side::Black, Reason::NoLegalMove))
    );
    // Reached by Black's move a3-a2.
    let l = line::<Hexapawn>("w--/---/b--", Side::Black);
    let after = play(l, "a3a2");
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win(Side::Black, Reason::NoLegalMove))
    );
}

#[test]
fn hexapawn_far_row_and_last_pawn_win() {
    let after = play(line::<Hexapawn>("---/w-b/---", Side::White), "a2a3");
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win(Side::White, Reason::ReachedFarRow))
    );
    let after = play(line::<Hexapawn>("---/-w-/--b", Side::Black), "c3b2");
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win(Side::Black, Reason::NoPawns))
    );
}

// ---------------------------------------------------------------- Capture the Flag

#[test]
fn ctf_pawn_captures_the_flag_forward_and_sideways() {
    let l = line::<Ctf>("--W--/-w---/-B---/-----/b----", Side::White);
    assert_eq!(l.outcome(), None);
    let after = play(l, "b2b4");
    assert_eq!(slash(after.current()), "--W--/-----/-----/-w---/b----");
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win(Side::White, Reason::FlagCaptured))
    );
    let l = line::<Ctf>("--W--/-----/---Bw/-----/b----", Side::White);
    let after = play(l, "e3c3");
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win(Side::White, Reason::FlagCaptured))
    );
}

#[test]
fn ctf_last_pawn_captured_says_no_pawns_while_the_flag_stands() {
    let l = line::<Ctf>("--W--/-w---/-b---/-----/----B", Side::White);
    let after = play(l, "b2b4");
    assert_eq!(slash(after.current()), "--W--/-----/-----/-w---/----B");
    let end = after.outcome();
    assert_eq!(end, Some(Outcome::Win(Side::White, Reason::NoPawns)));
    let end = end.unwrap();
    // The words say pawns (Black's flag still stands); the protocol code is unchanged.
    assert_eq!(end.to_string(), "white wins: the loser has no pawns left");
    assert_eq!(end.reason().code(), "no-pieces");
}

#[test]
fn ctf_flags_step_four_ways_and_never_jump() {
    // White's flag c3 steps up, left and right, and does not jump the black pawn below it.
    let l = line::<Ctf>("w----/-----/--W--/--b--/b---B", Side::White);
    assert_eq!(
        legal_names(&l),
        set(&["a1a2", "a1b1", "c3b3", "c3c2", "c3d3"])
    );
    // With the square below free it also steps backward (down is backward for Black's flag).
    let l = line::<Ctf>("w---W/-----/--B--/-----/b----", Side::Black);
    assert_eq!(
        legal_names(&l),
        set(&["a5a4", "a5b5", "c3b3", "c3c2", "c3c4", "c3d3"])
    );
}

#[test]
fn ctf_flag_on_the_row_of_an_opponent_pawn_does_not_win() {
    let l = line::<Ctf>("w----/-----/--W--/b----/----B", Side::White);
    let after = play(l, "c3c4");
    assert_eq!(slash(after.current()), "w----/-----/-----/b-W--/----B");
    assert_eq!(after.outcome(), None);
}

#[test]
fn ctf_flag_past_every_opponent_pawn_wins() {
    let l = line::<Ctf>("w----/-----/-----/b-W--/----B", Side::White);
    let after = play(l.clone(), "c4c5");
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win(Side::White, Reason::FlagPast))
    );
    // Judged on the board whoever moved: Black's pawn steps up and leaves White's flag past.
    let l = line::<Ctf>("w----/-----/-----/b-W--/----B", Side::Black);
    let after = play(l, "a4a3");
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win(Side::White, Reason::FlagPast))
    );
    // Black's flag past White's pawns, Black to move having just been given the board: the side
    // that just moved (White) is not past, so Black has won.
    let l = line::<Ctf>("-B---/-----/w----/-----/W---b", Side::Black);
    assert_eq!(
        l.outcome(),
        Some(Outcome::Win(Side::Black, Reason::FlagPast))
    );
    // Both past: the side that just moved wins.
    let l = line::<Ctf>("-B---/-----/w---b/-----/W----", Side::Black);
    assert_eq!(
        l.outcome(),
        Some(Outcome::Win(Side::White, Reason::FlagPast))
    );
}

#[test]
fn ctf_pawns_jump_sideways_and_forward() {
    let l = line::<Ctf>("W----/-----/-bwb-/-----/----B", Side::White);
    assert_eq!(
        legal_names(&l),
        set(&["a1a2", "a1b1", "c3a3", "c3c4", "c3e3"])
    );
    let after = play(l, "c3e3");
    assert_eq!(slash(after.current()), "W----/-----/-b--w/-----/----B");
    // Black jumps forward (up) over a white pawn.
    let l = line::<Ctf>("W----/-----/--w--/--b--/----B", Side::Black);
    assert!(legal_names(&l).contains("c4c2"));
}

#[test]
fn ctf_no_wrap_around_at_the_edges() {
    // White d2 faces Black e2 at the right edge: a jump "two to the right" read as square
    // index + 2 would land on the empty a3.
    let l = line::<Ctf>("W----/---wb/-----/-----/w---B", Side::White);
    assert_eq!(
        legal_names(&l),
        set(&["a1a2", "a1b1", "d2c2", "d2d3", "a5b5"])
    );
    // Black a2 at the left edge: "one to the left" as index - 1 is e1 (a white pawn), and the
    // jump would land on the empty d1.
    let l = line::<Ctf>("W---w/b----/-----/-----/----B", Side::Black);
    assert_eq!(
        legal_names(&l),
        set(&["a2b2", "e5d5", "e5e4"]),
        "no step or jump from a2 across the left edge"
    );
}

/// The moves of the first white flag in the shuffle `W-w/---/b-B`.
fn shuffle() -> Vec<Ctf> {
    let boards = ["W-w/---/b-B", "-Ww/---/b-B", "-Ww/---/bB-", "W-w/---/bB-"];
    boards
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let side = if i % 2 == 0 { Side::White } else { Side::Black };
            pos::<Ctf>(b, side)
        })
        .collect()
}

#[test]
fn ctf_move_recreating_an_earlier_board_is_excluded() {
    let line = Line::from_history(&shuffle()).expect("a legal history");
    assert_eq!(line.current().side_to_move(), Side::Black);
    // Without history Black's flag could go back to c3; with it that board is the first one.
    let fresh = Line::new(*line.current());
    assert!(legal_names(&fresh).contains("b3c3"));
    assert!(!legal_names(&line).contains("b3c3"));
    let err = parse_move(&line, "b3c3").unwrap_err().to_string();
    assert!(err.contains("recreate an earlier board"), "{err}");
    // The same, read from the seed's history list (most recent first).
    let parsed = parse_board::<Ctf>(
        r#"["W-w---bB-", "-Ww---bB-", "-Ww---b-B", "W-w---b-B"]"#,
        Side::Black,
    )
    .unwrap();
    assert_eq!(legal_names(&parsed.line), legal_names(&line));
    assert_eq!(parsed.line.len(), 3);
}

#[test]
fn ctf_history_must_be_one_legal_move_apart() {
    let mut boards = shuffle();
    boards.remove(1);
    let err = Line::from_history(&boards).unwrap_err();
    assert!(matches!(err, PositionError::History(_)), "{err:?}");
    let msg = err.to_string();
    assert!(
        msg.contains("does not follow from board") && msg.contains("no legal move of"),
        "{msg}"
    );
    // Repeating a board inside the history is refused with its own reason.
    let mut boards = shuffle();
    boards.push(pos::<Ctf>("W-w/---/b-B", Side::White));
    let msg = Line::from_history(&boards).unwrap_err().to_string();
    assert!(msg.contains("repeats an earlier board"), "{msg}");
    // A board after the game ended is refused.
    let boards = [
        pos::<Ctf>("--W--/-w---/-B---/-----/b----", Side::White),
        pos::<Ctf>("--W--/-----/-----/-w---/b----", Side::Black),
        pos::<Ctf>("--W--/-----/-----/bw---/-----", Side::White),
    ];
    let msg = Line::from_history(&boards).unwrap_err().to_string();
    assert!(msg.contains("already ends the game"), "{msg}");
}

#[test]
fn ctf_start_positions() {
    let expected = [
        (3, "wWw/---/bBb"),
        (4, "wWw-/----/----/bBb-"),
        (5, "-wWw-/-www-/-----/-bbb-/-bBb-"),
        (6, "-wWw--/-www--/------/------/-bbb--/-bBb--"),
        (7, "--wWw--/--www--/-------/-------/-------/--bbb--/--bBb--"),
    ];
    for (n, board) in expected {
        let start = Ctf::start(n).unwrap();
        assert_eq!(slash(&start), board, "size {n}");
        assert_eq!(start.side_to_move(), Side::White);
        assert_eq!(Line::new(start).outcome(), None, "size {n}");
    }
}

#[test]
fn ctf_side_without_a_legal_move_loses() {
    // White's flag is boxed in by its own pawns, which cannot move either.
    let l = line::<Ctf>("wWw/www/bBb", Side::White);
    assert!(legal_names(&l).is_empty());
    assert_eq!(
        l.outcome(),
        Some(Outcome::Win(Side::Black, Reason::NoLegalMove))
    );
}

#[test]
fn ctf_side_whose_every_move_repeats_has_lost() {
    // White's flag steps a1-b1, Black's c3-b3, White's b1-a1. Black's pawn a3 is stuck (a2 is
    // White's, the jump lands on White's flag, b3 is Black's flag); the flag b3 has only c3 left
    // (b2 is White's, a3 Black's), which would bring back the first board.
    let boards = [
        ("W-w/ww-/b-B", Side::White),
        ("-Ww/ww-/b-B", Side::Black),
        ("-Ww/ww-/bB-", Side::White),
        ("W-w/ww-/bB-", Side::Black),
    ];
    let boards: Vec<Ctf> = boards.iter().map(|&(b, s)| pos::<Ctf>(b, s)).collect();
    let line = Line::from_history(&boards).expect("a legal history");
    assert!(legal_names(&line).is_empty());
    assert_eq!(
        line.outcome(),
        Some(Outcome::Win(Side::White, Reason::NoLegalMove))
    );
    // Without its history the same board is no loss: b3c3 is then a move.
    let fresh = Line::new(*line.current());
    assert_eq!(legal_names(&fresh), set(&["b3c3"]));
    assert_eq!(fresh.outcome(), None);
}

#[test]
fn ctf_handed_positions_are_judged_in_order() {
    let cases = [
        // Black to move, so White just moved. White has no pawns, but Black's flag is gone: the
        // side that just moved is judged first, and it has captured the flag.
        (
            "W--/---/b--",
            Outcome::Win(Side::White, Reason::FlagCaptured),
        ),
        // Both flags stand and White has no pawns left: Black wins.
        ("W--/---/b-B", Outcome::Win(Side::Black, Reason::NoPawns)),
        // White's flag (row 3) is past Black's only pawn (row 1), but White has no pawns: the
        // counts of pawns come before the flag rule.
        ("b-B/---/-W-", Outcome::Win(Side::Black, Reason::NoPawns)),
        // Black cannot move (its flag a1 is boxed in by its pawn b1 and White's pawn a2; b1 is
        // boxed in by the flag, White's flag c1 and the edge), but its flag on row 1 is past
        // White's only pawn (row 2): the flag rule comes before "no legal move".
        ("BbW/w--/---", Outcome::Win(Side::Black, Reason::FlagPast)),
    ];
    for (board, expected) in cases {
        let l = line::<Ctf>(board, Side::Black);
        assert_eq!(l.outcome(), Some(expected), "{board}");
        assert!(legal_names(&l).is_empty(), "{board}: the game is over");
    }
}

#[test]
fn boards_without_pieces_are_finished_games() {
    // Play never empties a board (a capture takes one piece), but such a board can be handed in:
    // Oska's counts are looked at for White first, so Black has won; Hexapawn judges the side
    // that just moved first, so that side has won.
    for side in [Side::White, Side::Black] {
        let l = line::<Oska>("----/---/--/---/----", side);
        assert_eq!(
            l.outcome(),
            Some(Outcome::Win(Side::Black, Reason::NoPieces))
        );
        let l = line::<Hexapawn>("---/---/---", side);
        assert_eq!(
            l.outcome(),
            Some(Outcome::Win(side.opposite(), Reason::NoPawns))
        );
    }
}
