//! Move notation: `d1c2` (origin square, landing square) and `pass`.
//!
//! A square is a column letter counted from the left of its row (`a` is the leftmost square of the
//! row) and a row number counted from the top (`1` is White's home row). Reading the text
//! ([`MoveText::parse`]) is kept apart from checking it against a position ([`parse_move`]).

use super::{Game, Line, Move, MoveList, PositionError};

/// The syntax of a move, before it is checked against any board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveText {
    /// `pass`.
    Pass,
    /// Origin and landing squares as (row, column), both from 0.
    Squares {
        /// Origin (row, column).
        from: (usize, usize),
        /// Landing (row, column).
        to: (usize, usize),
    },
}

fn syntax_error(text: &str, why: &str) -> PositionError {
    PositionError::MoveSyntax {
        text: text.to_string(),
        why: why.to_string(),
    }
}

/// Reads one square from the front of `s`; returns ((row, col), rest).
fn square(text: &str, s: &str) -> Result<((usize, usize), usize), PositionError> {
    let bytes = s.as_bytes();
    let col = match bytes.first() {
        Some(c @ b'a'..=b'z') => (c - b'a') as usize,
        _ => {
            return Err(syntax_error(
                text,
                "a square starts with a column letter a-z",
            ));
        }
    };
    let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return Err(syntax_error(
            text,
            "a column letter must be followed by a row number",
        ));
    }
    if bytes.get(1) == Some(&b'0') {
        return Err(syntax_error(
            text,
            "row numbers start at 1, without leading zeros",
        ));
    }
    let row: usize = s[1..1 + digits]
        .parse()
        .map_err(|_| syntax_error(text, "the row number is too large"))?;
    Ok(((row - 1, col), 1 + digits))
}

impl MoveText {
    /// Reads `pass` or two squares like `d1c2`, `a10b11` (lower case; no separator).
    pub fn parse(text: &str) -> Result<MoveText, PositionError> {
        let t = text.trim();
        if t == "pass" {
            return Ok(MoveText::Pass);
        }
        if t.is_empty() {
            return Err(syntax_error(text, "the move is empty"));
        }
        if !t
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        {
            return Err(syntax_error(
                text,
                "write a move as two squares like d1c2 (lower-case letters and digits) or pass",
            ));
        }
        let (from, used) = square(text, t)?;
        let rest = &t[used..];
        if rest.is_empty() {
            return Err(syntax_error(text, "the landing square is missing"));
        }
        let (to, used2) = square(text, rest)?;
        if used2 != rest.len() {
            return Err(syntax_error(text, "there is text after the landing square"));
        }
        Ok(MoveText::Squares { from, to })
    }
}

/// The canonical text, as [`MoveText::parse`] reads it: `pass`, or two squares like `d1c2`.
impl std::fmt::Display for MoveText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            MoveText::Pass => f.write_str("pass"),
            MoveText::Squares { from, to } => {
                for (r, c) in [from, to] {
                    write!(f, "{}{}", char::from(b'a' + c as u8), r + 1)?;
                }
                Ok(())
            }
        }
    }
}

impl MoveText {
    /// The text of a move in a position.
    pub fn of<G: Game>(pos: &G, mv: Move) -> MoveText {
        if mv.is_pass() {
            return MoveText::Pass;
        }
        let layout = pos.layout();
        MoveText::Squares {
            from: layout.coords(mv.from as usize),
            to: layout.coords(mv.to as usize),
        }
    }
}

/// The name of a move in a position: `d1c2` or `pass`.
pub fn move_name<G: Game>(pos: &G, mv: Move) -> String {
    if mv.is_pass() {
        return "pass".to_string();
    }
    let layout = pos.layout();
    format!(
        "{}{}",
        layout.square_name(mv.from as usize),
        layout.square_name(mv.to as usize)
    )
}

/// The names of moves played one after the other from `pos` (a principal variation, a game).
pub fn line_names<G: Game>(pos: &G, moves: &[Move]) -> Vec<String> {
    let mut p = *pos;
    moves
        .iter()
        .map(|&m| {
            let name = move_name(&p, m);
            p = p.play(m);
            name
        })
        .collect()
}

/// Reads a move and checks that it is legal in the line's current position; the error says why
/// not (no such square, no piece of the side to move there, not a move that piece can make, a
/// repeated board, a pass that is not forced, a finished game).
pub fn parse_move<G: Game>(line: &Line<G>, text: &str) -> Result<Move, PositionError> {
    legal_move(line, MoveText::parse(text)?, text)
}

/// Checks a move read by [`MoveText::parse`] against the line's current position, as
/// [`parse_move`] does; `text` is the move as written, for messages.
pub fn legal_move<G: Game>(
    line: &Line<G>,
    syntax: MoveText,
    text: &str,
) -> Result<Move, PositionError> {
    let pos = line.current();
    let illegal = |why: String| PositionError::IllegalMove {
        text: text.trim().to_string(),
        why,
    };
    if let Some(o) = line.outcome() {
        return Err(illegal(format!("the game is over ({o})")));
    }
    let mut legal = MoveList::new();
    line.legal_moves(&mut legal);
    let layout = pos.layout();
    let mv = match syntax {
        MoveText::Pass => {
            return if legal.contains(Move::PASS) {
                Ok(Move::PASS)
            } else {
                Err(illegal(format!(
                    "{} has a legal move, and passing is allowed only when it has none",
                    pos.side_to_move()
                )))
            };
        }
        MoveText::Squares { from, to } => {
            let mut sq = [0usize; 2];
            for (i, (r, c)) in [from, to].into_iter().enumerate() {
                sq[i] = layout.square_at(r, c).ok_or_else(|| {
                    let name = format!("{}{}", (b'a' + c as u8) as char, r + 1);
                    if r >= layout.rows() {
                        illegal(format!(
                            "there is no square {name}: the board has {} rows",
                            layout.rows()
                        ))
                    } else {
                        illegal(format!(
                            "there is no square {name}: row {} has {} squares (a to {})",
                            r + 1,
                            layout.row_len(r),
                            (b'a' + layout.row_len(r) as u8 - 1) as char
                        ))
                    }
                })?;
            }
            Move::new(sq[0] as u8, sq[1] as u8)
        }
    };
    if legal.contains(mv) {
        return Ok(mv);
    }
    let side = pos.side_to_move();
    let from_name = layout.square_name(mv.from as usize);
    match pos.piece_at(mv.from as usize) {
        None => Err(illegal(format!("there is no piece on {from_name}"))),
        Some(p) if p.side() != side => Err(illegal(format!(
            "the piece on {from_name} is {}'s, and {side} is to move",
            p.side()
        ))),
        Some(_) => {
            let mut pieces = MoveList::new();
            pos.generate(&mut pieces);
            if G::NO_REPEAT && pieces.contains(mv) {
                Err(illegal(
                    "it would recreate an earlier board, which the rules forbid".into(),
                ))
            } else {
                Err(illegal(format!(
                    "the piece on {from_name} cannot move there"
                )))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax() {
        assert_eq!(MoveText::parse("pass"), Ok(MoveText::Pass));
        assert_eq!(
            MoveText::parse("d1c2"),
            Ok(MoveText::Squares {
                from: (0, 3),
                to: (1, 2)
            })
        );
        assert_eq!(
            MoveText::parse("a10b11"),
            Ok(MoveText::Squares {
                from: (9, 0),
                to: (10, 1)
            })
        );
        for text in ["pass", "d1c2", "a10b11", "k11j10"] {
            assert_eq!(MoveText::parse(text).unwrap().to_string(), text);
        }
        for bad in ["", "d1", "d1c", "1d2c", "D1C2", "d0c1", "d1-c2", "d1c2x"] {
            assert!(MoveText::parse(bad).is_err(), "{bad} should be refused");
        }
    }
}
