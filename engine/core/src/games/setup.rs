//! Where a line begins: the start position, or a board with the side to move and (for Capture
//! the Flag) the earlier boards. One type for the protocol's `position` command, the record
//! format's `Start` tag, the match runner's openings and the GUI, with its text form
//! (`startpos`, `board BOARD SIDE [history B1 B2 ...]`) read and written here only.

use std::fmt;
use std::str::FromStr;

use super::format::{parse_board, slash};
use super::{Game, Line, Piece, PositionError, Side};

/// How a line is set up before its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setup {
    /// The game's start position of the size.
    StartPos,
    /// A given board.
    Board {
        /// The board.
        board: SetupBoard,
        /// The side to move.
        side: Side,
        /// Earlier boards, most recent first.
        history: Vec<SetupBoard>,
    },
}

/// A board as a set-up gives it, before any game's rules are applied: rows of squares, each
/// empty or holding a piece. Its text is the seeds' (`w b W B -`, rows joined by `/`; Capture
/// the Flag's boards may also be one row-major run, which is one row here), read by
/// [`FromStr`], which checks the spelling only, and written back the same by [`Display`]
/// (`fmt::Display`). The rules check it against a game and size in [`Setup::line`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SetupBoard {
    rows: Vec<Vec<Option<Piece>>>,
}

impl SetupBoard {
    /// The board of a position, with `/` between its rows.
    pub fn of<G: Game>(pos: &G) -> SetupBoard {
        slash(pos)
            .parse()
            .expect("a position's board is spelt with w, b, W, B, - and /")
    }

    /// Its rows, first row first; each square empty (`None`) or holding a piece.
    pub fn rows(&self) -> &[Vec<Option<Piece>>] {
        &self.rows
    }
}

impl FromStr for SetupBoard {
    type Err = SetupSyntax;

    /// Reads a board word, checking its spelling: `w`, `b`, `W`, `B`, `-` and `/` only.
    fn from_str(word: &str) -> Result<SetupBoard, SetupSyntax> {
        check_board_spelling(word)?;
        let square = |c: char| match c {
            'w' => Some(Piece::WhitePawn),
            'b' => Some(Piece::BlackPawn),
            'W' => Some(Piece::WhiteFlag),
            'B' => Some(Piece::BlackFlag),
            _ => None,
        };
        Ok(SetupBoard {
            rows: word
                .split('/')
                .map(|row| row.chars().map(square).collect())
                .collect(),
        })
    }
}

impl fmt::Display for SetupBoard {
    /// The rows, `-` for an empty square, joined by `/`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, row) in self.rows.iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            for square in row {
                write!(f, "{}", square.map_or('-', Piece::to_char))?;
            }
        }
        Ok(())
    }
}

/// A set-up whose words do not fit the grammar `startpos | board BOARD SIDE [history B1 ...]`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SetupSyntax(pub String);

/// A set-up that the rules refuse, with a message that names the failing board (`board '...':
/// ...`, `history board 2 '...': ...`) when one fails on its own.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct SetupError {
    /// What is wrong and where.
    pub message: String,
    /// The rules' reason (its kind decides an engine's error code).
    pub cause: PositionError,
}

impl From<PositionError> for SetupError {
    fn from(cause: PositionError) -> Self {
        SetupError {
            message: cause.to_string(),
            cause,
        }
    }
}

/// Checks the spelling of a board word (no rules): `w`, `b`, `W`, `B`, `-` and `/` only.
pub fn check_board_spelling(word: &str) -> Result<String, SetupSyntax> {
    if word
        .chars()
        .all(|c| matches!(c, 'w' | 'b' | 'W' | 'B' | '-' | '/'))
    {
        Ok(word.to_string())
    } else {
        Err(SetupSyntax(format!(
            "'{word}' is not a board: use w, b, W, B, - and / only"
        )))
    }
}

impl Setup {
    /// The set-up of a line: `startpos` when it is the game's start with no earlier board, else
    /// its current board, side and, for Capture the Flag, the earlier boards (the other games'
    /// rules never consult them).
    pub fn of<G: Game>(line: &Line<G>) -> Setup {
        let pos = line.current();
        if line.is_empty()
            && G::start(pos.size())
                .is_ok_and(|s| s.same_board(pos) && s.side_to_move() == pos.side_to_move())
        {
            return Setup::StartPos;
        }
        let history = if G::NO_REPEAT {
            line.earlier().iter().rev().map(SetupBoard::of).collect()
        } else {
            Vec::new()
        };
        Setup::Board {
            board: SetupBoard::of(pos),
            side: pos.side_to_move(),
            history,
        }
    }

    /// The line this set-up describes, checked by the rules: the start position of `size`, or
    /// the board (whose own size counts), with the history boards' sides alternating back in
    /// time and each one legal move before the next.
    pub fn line<G: Game>(&self, size: usize) -> Result<Line<G>, SetupError> {
        let (board, side, history) = match self {
            Setup::StartPos => return Ok(Line::new(G::start(size)?)),
            Setup::Board {
                board,
                side,
                history,
            } => (board, *side, history),
        };
        let one = |text: &str, side: Side, what: &str| -> Result<G, SetupError> {
            parse_board::<G>(text, side)
                .map(|parsed| *parsed.line.current())
                .map_err(|cause| SetupError {
                    message: format!("{what}: {cause}"),
                    cause,
                })
        };
        let current = one(&board.to_string(), side, &format!("board '{board}'"))?;
        if history.is_empty() {
            return Ok(Line::new(current));
        }
        let mut boards = Vec::with_capacity(history.len() + 1);
        let mut s = side;
        for (i, h) in history.iter().enumerate() {
            s = s.opposite();
            let what = format!("history board {} '{h}'", i + 1);
            // A history board of another size, supported or not, is not the board's history.
            let b = one(&h.to_string(), s, &what).map_err(|e| match e.cause {
                PositionError::UnsupportedSize { .. } => SetupError {
                    cause: PositionError::History(e.message.clone()),
                    message: e.message,
                },
                _ => e,
            })?;
            if b.size() != current.size() {
                let message = format!("{what} is not the board's size");
                return Err(SetupError {
                    cause: PositionError::History(message.clone()),
                    message,
                });
            }
            boards.push(b);
        }
        boards.reverse();
        boards.push(current);
        Ok(Line::from_history(&boards)?)
    }

    /// Reads a set-up from the front of `words`, up to the end or the word `moves`; returns the
    /// set-up and whether `moves` followed. Board words are checked for spelling only.
    pub fn read<'a>(
        words: &mut impl Iterator<Item = &'a str>,
    ) -> Result<(Setup, bool), SetupSyntax> {
        let err = |m: String| Err(SetupSyntax(m));
        match words.next() {
            Some("startpos") => match words.next() {
                None => Ok((Setup::StartPos, false)),
                Some("moves") => Ok((Setup::StartPos, true)),
                Some(other) => err(format!("unexpected '{other}': expected 'moves'")),
            },
            Some("board") => {
                let board = words
                    .next()
                    .ok_or_else(|| SetupSyntax("the board is missing".into()))?
                    .parse()?;
                let side = match words.next() {
                    Some("w") => Side::White,
                    Some("b") => Side::Black,
                    Some(w) => return err(format!("'{w}' is not a side: expected w or b")),
                    None => return err("the side to move (w or b) is missing".into()),
                };
                let mut history = Vec::new();
                let mut seen_history = false;
                let mut moves = false;
                for w in words.by_ref() {
                    match w {
                        "history" if !seen_history => seen_history = true,
                        "moves" => {
                            moves = true;
                            break;
                        }
                        _ if seen_history => history.push(w.parse()?),
                        _ => {
                            return err(format!("unexpected '{w}': expected 'history' or 'moves'"));
                        }
                    }
                }
                if seen_history && history.is_empty() {
                    return err("'history' must be followed by at least one board".into());
                }
                let setup = Setup::Board {
                    board,
                    side,
                    history,
                };
                Ok((setup, moves))
            }
            Some(other) => err(format!("'{other}': expected 'startpos' or 'board'")),
            None => err("expected 'startpos' or 'board'".into()),
        }
    }

    /// Reads a whole set-up (`startpos` or `board BOARD SIDE [history ...]`, words separated by
    /// spaces or tabs), as the record format's `Start` tag holds it.
    pub fn parse(text: &str) -> Result<Setup, SetupSyntax> {
        let mut words = text.split([' ', '\t']).filter(|w| !w.is_empty());
        match Setup::read(&mut words)? {
            (setup, false) => Ok(setup),
            (_, true) => Err(SetupSyntax(
                "unexpected 'moves': a set-up has no moves".into(),
            )),
        }
    }
}

/// `startpos` or `board BOARD SIDE [history B1 B2 ...]`, as [`Setup::parse`] reads it.
impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Setup::StartPos => f.write_str("startpos"),
            Setup::Board {
                board,
                side,
                history,
            } => {
                write!(f, "board {board} {}", side.letter())?;
                if !history.is_empty() {
                    f.write_str(" history")?;
                    for h in history {
                        write!(f, " {h}")?;
                    }
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Ctf, MoveList, Oska};

    #[test]
    fn a_board_reads_its_squares_and_writes_its_text_back() {
        let b: SetupBoard = "wW-/--/bB".parse().unwrap();
        assert_eq!(
            b.rows(),
            [
                vec![Some(Piece::WhitePawn), Some(Piece::WhiteFlag), None],
                vec![None, None],
                vec![Some(Piece::BlackPawn), Some(Piece::BlackFlag)],
            ]
        );
        // Whatever is spelt right comes back as it was read: the rules, not the spelling,
        // decide what a board of a game may be.
        for text in ["wWw---bBb", "www//bbb", "/", "-", "wwww/---/--/---/bbbb"] {
            assert_eq!(text.parse::<SetupBoard>().unwrap().to_string(), text);
        }
        let err = "w@w/---/bbb".parse::<SetupBoard>().unwrap_err();
        assert!(err.0.contains("is not a board"), "{err}");
        let pos = Oska::start(4).unwrap();
        assert_eq!(SetupBoard::of(&pos).to_string(), "wwww/---/--/---/bbbb");
    }

    #[test]
    fn text_round_trip() {
        for text in [
            "startpos",
            "board wwww/---/--/---/bbbb w",
            "board -wW-w---b-bB----- b history -wW------b-bB----- -wW-w----bBb-----",
        ] {
            let setup = Setup::parse(text).unwrap();
            assert_eq!(setup.to_string(), text);
        }
        for bad in [
            "",
            "startpos x",
            "board",
            "board wwww",
            "board w?w w",
            "board w x",
        ] {
            assert!(Setup::parse(bad).is_err(), "{bad:?} should be refused");
        }
        assert!(Setup::parse("startpos moves d1c2").is_err());
    }

    #[test]
    fn of_and_line_agree() {
        let start = Line::new(Oska::start(4).unwrap());
        assert_eq!(Setup::of(&start), Setup::StartPos);
        let mut line = Line::new(Ctf::start(5).unwrap());
        let mut moves = MoveList::new();
        for _ in 0..2 {
            line.legal_moves(&mut moves);
            line.push(moves.as_slice()[0]);
        }
        let setup = Setup::of(&line);
        let Setup::Board { board, history, .. } = &setup else {
            panic!("a line with history is a board set-up");
        };
        assert_eq!(
            board.rows().len(),
            5,
            "every board is written with /: {board}"
        );
        assert_eq!(history.len(), 2);
        assert!(history.iter().all(|b| b.rows().len() == 5), "{history:?}");
        let back = setup.line::<Ctf>(5).unwrap();
        assert!(back.current().same_board(line.current()));
        assert_eq!(back.earlier().len(), 2);
    }

    #[test]
    fn rules_errors_name_the_board() {
        let setup = Setup::parse("board www/---/--/---/bbbb w").unwrap();
        let e = setup.line::<Oska>(4).unwrap_err();
        assert!(
            e.to_string().starts_with("board 'www/---/--/---/bbbb': "),
            "{e}"
        );
    }
}
