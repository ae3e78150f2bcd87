//! Board formats: printing then reading gives the same position back, every format is recognised
//! from its text, and every kind of bad input is refused with a message that says what is wrong
//! and where.
//!
//! Evidence: property tests over random reachable positions of every game and size (and, for
//! Capture the Flag, whole histories), the seeds' own example texts, and the exact wording of the
//! errors a student would see.

use crate::common;

use boardgames_core::games::format::{Format, parse_board, print_board, print_history, slash};
use boardgames_core::games::{Ctf, Game, GameKind, Hexapawn, Line, Oska, PositionError, Side};
use common::{Rng, random_line, sizes};
use proptest::prelude::*;

/// Prints a line in every format of its game and reads it back.
fn round_trip<G: Game>(line: &Line<G>) {
    let pos = line.current();
    let side = pos.side_to_move();
    for format in Format::examples(G::KIND) {
        if let Format::History { quote, sep } = &format {
            let text = print_history(line, *quote, sep);
            let parsed = parse_board::<G>(&text, side)
                .unwrap_or_else(|e| panic!("{text} ({side}) refused: {e}"));
            if line.is_empty() {
                // One element shows no separator; the quote is still kept.
                assert!(
                    matches!(parsed.format, Format::History { quote: q, .. } if q == *quote),
                    "{text}: {:?}",
                    parsed.format
                );
            } else {
                assert_eq!(parsed.format, format, "{text}");
            }
            assert_eq!(parsed.line.current(), pos, "{text}");
            assert_eq!(parsed.line.earlier(), line.earlier(), "{text}");
            continue;
        }
        let text = print_board(pos, &format);
        let parsed =
            parse_board::<G>(&text, side).unwrap_or_else(|e| panic!("{text} refused: {e}"));
        assert_eq!(parsed.line.current(), pos, "{text}");
        assert!(parsed.line.is_empty(), "{text}: no history");
        assert_eq!(
            print_board(parsed.line.current(), &parsed.format),
            text,
            "printed again in the detected format"
        );
    }
}

fn random<G: Game>(seed: u64, size_index: usize, plies: usize) -> Line<G> {
    let all = sizes(G::KIND);
    let mut rng = Rng::new(seed);
    random_line::<G>(&mut rng, all[size_index % all.len()], plies)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn oska_round_trips(seed: u64, size in 0usize..4, plies in 0usize..40) {
        round_trip(&random::<Oska>(seed, size, plies));
    }

    #[test]
    fn hexapawn_round_trips(seed: u64, size in 0usize..4, plies in 0usize..30) {
        round_trip(&random::<Hexapawn>(seed, size, plies));
    }

    #[test]
    fn ctf_round_trips(seed: u64, size in 0usize..4, plies in 0usize..40) {
        round_trip(&random::<Ctf>(seed, size, plies));
    }
}

/// A Capture the Flag history of exactly N*N boards of size N has as many elements as each has
/// characters, like a list of rows; it is still a history.
#[test]
fn ctf_history_as_long_as_a_board_string() {
    let mut rng = Rng::new(7);
    for (size, boards) in [(3, 9), (4, 16)] {
        let line = loop {
            let mut line = Line::new(Ctf::start(size).unwrap());
            common::playout(&mut rng, &mut line, boards - 1);
            if line.len() == boards - 1 {
                break line;
            }
        };
        round_trip(&line);
    }
}

fn format_of<G: Game>(text: &str) -> Format {
    parse_board::<G>(text, Side::White)
        .unwrap_or_else(|e| panic!("{text} refused: {e}"))
        .format
}

#[test]
fn formats_are_detected_from_the_text() {
    assert_eq!(format_of::<Oska>("wwww/---/--/---/bbbb"), Format::Slash);
    assert_eq!(
        format_of::<Oska>("['wwww','---','--','---','bbbb']"),
        Format::List {
            quote: '\'',
            sep: ",".into()
        }
    );
    assert_eq!(
        format_of::<Hexapawn>(r#"["www", "---", "bbb"]"#),
        Format::List {
            quote: '"',
            sep: ", ".into()
        }
    );
    assert_eq!(
        format_of::<Oska>("((w w w w)(nil nil nil)(nil nil)(nil nil nil)(b b b b))"),
        Format::Lisp { quoted: false }
    );
    assert_eq!(
        format_of::<Oska>("'((W W W W) (NIL NIL NIL) (NIL NIL) (NIL NIL NIL) (B B B B))"),
        Format::Lisp { quoted: true }
    );
    assert_eq!(
        format_of::<Ctf>("-wWw--www-------bbb--bBb-"),
        Format::Flat { quote: None }
    );
    assert_eq!(
        format_of::<Ctf>("'-wWw--www-------bbb--bBb-'"),
        Format::Flat { quote: Some('\'') }
    );
    assert_eq!(
        format_of::<Ctf>("-wWw-/-www-/-----/-bbb-/-bBb-"),
        Format::Slash
    );
    // A history, most recent first: White's b2 stepped to b3, so Black is to move.
    let parsed = parse_board::<Ctf>(
        "['-wWw---ww--w----bbb--bBb-', '-wWw--www-------bbb--bBb-']",
        Side::Black,
    )
    .expect("a legal history");
    assert_eq!(
        parsed.format,
        Format::History {
            quote: '\'',
            sep: ", ".into()
        }
    );
    assert_eq!(parsed.line.len(), 1);
    assert_eq!(
        slash(parsed.line.current()),
        "-wWw-/--ww-/-w---/-bbb-/-bBb-"
    );
}

/// The error of a board text, as the user reads it.
fn error<G: Game>(text: &str, side: Side) -> String {
    match parse_board::<G>(text, side) {
        Ok(_) => panic!("{text} should be refused"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn wrong_row_count_says_how_many_rows_are_expected() {
    assert_eq!(
        error::<Oska>("wwww/---/--/---", Side::White),
        "oska board has 4 rows: an Oska board of n pieces a side has 2n-3 rows, so 5 to 19 rows (an odd number) for n = 4 to 11"
    );
    assert_eq!(
        error::<Hexapawn>("['www','---']", Side::White),
        "hexapawn size 2 is not supported: sizes 3 to 11 are"
    );
}

#[test]
fn wrong_row_length_names_the_row() {
    assert_eq!(
        error::<Oska>("wwww/---/-/---/bbbb", Side::White),
        "row 3 has 1 squares but should have 2"
    );
    assert_eq!(
        error::<Ctf>("-wWw-/-www-/------/-bbb-/-bBb-", Side::White),
        "row 3 has 6 squares but should have 5"
    );
    assert_eq!(
        error::<Hexapawn>("((w w w)(nil nil)(b b b))", Side::White),
        "row 2 has 2 squares but should have 3"
    );
}

#[test]
fn bad_character_names_row_and_column() {
    assert_eq!(
        error::<Oska>("wwww/---/-x/---/bbbb", Side::White),
        "row 3, column 2: 'x' is not a piece of oska (use w, b or - (nil in Lisp))"
    );
    assert_eq!(
        error::<Hexapawn>("www/-W-/bbb", Side::White),
        "row 2, column 2: 'W' is not a piece of hexapawn (use w, b or -; upper-case W and B are Capture the Flag's flags)"
    );
    assert_eq!(
        error::<Ctf>("-wWw--www-----.-bbb--bBb-", Side::White),
        "row 3, column 5: '.' is not a piece of ctf (use w, b, W, B or -)"
    );
}

#[test]
fn too_many_pieces_is_refused() {
    assert_eq!(
        error::<Oska>("wwww/w--/--/---/bbbb", Side::White),
        "white has 5 pieces but a side starts with only 4 in oska of size 4"
    );
    assert_eq!(
        error::<Hexapawn>("w--/bbb/bbb", Side::White),
        "black has 6 pieces but a side starts with only 3 in hexapawn of size 3"
    );
}

#[test]
fn ctf_needs_exactly_one_flag_a_side() {
    assert_eq!(
        error::<Ctf>("WWw/---/bBb", Side::White),
        "white has 2 flags (a1, b1): each side has exactly one flag (W)"
    );
    assert_eq!(
        error::<Ctf>("wWw/-B-/bBb", Side::White),
        "black has 2 flags (b2, b3): each side has exactly one flag (B)"
    );
    assert_eq!(
        error::<Ctf>("www/---/bbb", Side::White),
        "the board has no flags: each side has exactly one (W for white, B for black)"
    );
}

#[test]
fn seed_002_example_is_not_a_square() {
    let msg = error::<Ctf>("-wWw--www-----bbb--bBb-", Side::White);
    assert_eq!(
        msg,
        "a board string of 23 characters fits no ctf board: 23 is not a square number (the nearest are 16 = 4 x 4 and 25 = 5 x 5)"
    );
    // The intended board is accepted.
    assert_eq!(
        slash(&common::pos::<Ctf>(
            "-wWw--www-------bbb--bBb-",
            Side::White
        )),
        "-wWw-/-www-/-----/-bbb-/-bBb-"
    );
}

#[test]
fn bad_side_is_refused() {
    assert_eq!(
        Side::parse("x").unwrap_err().to_string(),
        "side must be 'w' or 'b', not 'x'"
    );
    for good in ["w", "'b'", "\"w\"", "'b", "white", "Black"] {
        assert!(Side::parse(good).is_ok(), "{good}");
    }
}

#[test]
fn history_not_one_legal_move_apart_is_refused() {
    // Most recent first: White's pawn c2 vanished, which no move does.
    let msg = error::<Ctf>(
        r#"["-wWw--w-w-------bbb--bBb-", "-wWw--www-------bbb--bBb-"]"#,
        Side::Black,
    );
    assert_eq!(
        msg,
        "history: board 1 (counting from 1 = the most recent) does not follow from board 2: no legal move of white leads to it"
    );
    // Boards of different sizes.
    let msg = error::<Ctf>(r#"["wWw---bBb", "-wWw--www-------bbb--bBb-"]"#, Side::White);
    assert_eq!(
        msg,
        "history: board 2 of the list is 5 x 5 but board 1 is 3 x 3"
    );
    // A bad board inside the list is named by its place.
    let msg = error::<Ctf>(r#"["wWw---bBb", "wWw---bxb"]"#, Side::White);
    assert!(msg.starts_with("history: board 2 of the list: "), "{msg}");
}

#[test]
fn unsupported_sizes_name_the_range() {
    assert_eq!(
        Oska::start(3).unwrap_err().to_string(),
        "oska size 3 is not supported: sizes 4 to 11 are"
    );
    assert_eq!(
        Ctf::start(12).unwrap_err(),
        PositionError::UnsupportedSize {
            game: GameKind::Ctf,
            size: 12
        }
    );
    assert_eq!(
        Hexapawn::start(2).unwrap_err().to_string(),
        "hexapawn size 2 is not supported: sizes 3 to 11 are"
    );
    assert_eq!(
        error::<Ctf>("wW-b", Side::White),
        "ctf size 2 is not supported: sizes 3 to 11 are"
    );
    assert_eq!(
        error::<Oska>("wwww---", Side::White),
        "a board string of 7 characters fits no oska board: an Oska board string has 16 for n = 4, 26 for n = 5, 38 for n = 6, 52 for n = 7, 68 for n = 8, 86 for n = 9, 106 for n = 10, 128 for n = 11"
    );
    assert_eq!(
        error::<Hexapawn>("wb/bw/bw/bw/bw/bw/bw/bw/bw/bw/bw/bw", Side::White),
        "hexapawn size 12 is not supported: sizes 3 to 11 are"
    );
    let msg = error::<Oska>("www/--/www", Side::White);
    assert!(msg.contains("for n = 4 to 11"), "{msg}");
}

#[test]
fn syntax_errors_are_explained() {
    assert_eq!(
        error::<Oska>("", Side::White),
        "cannot read the board: the board is empty"
    );
    assert_eq!(
        error::<Hexapawn>("['www','---' 'bbb']", Side::White),
        "cannot read the board: expected ',' between the elements of the list after element 2"
    );
    assert_eq!(
        error::<Ctf>("((w W w)(nil nil nil)(b B b))", Side::White),
        "cannot read the board: the Lisp format is for Oska and Hexapawn: it cannot tell Capture the Flag's flags (W, B) from pawns (w, b)"
    );
}
