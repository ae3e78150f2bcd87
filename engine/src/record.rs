//! Game records: one finished (or unfinished) game per record, in a small PGN-like text format
//! that `arena` writes and the GUI opens.
//!
//! ```text
//! [Game "oska"]
//! [Size "4"]
//! [White "deep"]
//! [Black "shallow"]
//! [Start "board wwww/---/--/---/bbbb w"]
//! [Result "white"]
//! [Reason "all-home"]
//! [Round "3"]
//! d1c2 a5b4 c2b3 pass ...
//! ```
//!
//! A record is a block of tag lines `[Name "value"]` (value in double quotes, `\"` and `\\`
//! escaped) followed by the moves in the protocol's notation on one or more lines; records are
//! separated by a blank line. `Game`, `Size`, `White`, `Black`, `Start` and `Result` are required;
//! `Start` is `startpos` or `board BOARD SIDE [history B1 B2 ...]` exactly as the protocol's
//! `position` command takes it; `Result` is `white`, `black`, `draw` or `*` (unfinished).
//! Other tags (`Reason`, `Round`, `Date`, `Opening`, ...) are kept in order. Lines starting with
//! `#` are comments.

use std::fmt;

use crate::games::notation::parse_move;
use crate::games::setup::Setup;
use crate::games::{Game, GameKind, Line, Outcome, PositionError, Side};

/// The result of a recorded game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordResult {
    /// White won.
    White,
    /// Black won.
    Black,
    /// Drawn.
    Draw,
    /// Not finished (`*`).
    Unfinished,
}

impl RecordResult {
    /// The tag value.
    pub fn as_str(self) -> &'static str {
        match self {
            RecordResult::White => "white",
            RecordResult::Black => "black",
            RecordResult::Draw => "draw",
            RecordResult::Unfinished => "*",
        }
    }

    /// The result of a finished game.
    pub fn from_outcome(o: Outcome) -> Self {
        match o.winner() {
            Some(Side::White) => RecordResult::White,
            Some(Side::Black) => RecordResult::Black,
            None => RecordResult::Draw,
        }
    }
}

/// The line a record's start describes, checked by the rules, and of the record's size.
pub fn start_line<G: Game>(start: &Setup, size: usize) -> Result<Line<G>, PositionError> {
    let line = start.line::<G>(size).map_err(|e| e.cause)?;
    if line.current().size() != size {
        return Err(PositionError::Syntax(format!(
            "the start board is of size {} but the record says size {size}",
            line.current().size()
        )));
    }
    Ok(line)
}

/// One recorded game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The game.
    pub game: GameKind,
    /// Its size.
    pub size: usize,
    /// White's player name.
    pub white: String,
    /// Black's player name.
    pub black: String,
    /// Where the game started.
    pub start: Setup,
    /// The moves, in notation.
    pub moves: Vec<String>,
    /// The result.
    pub result: RecordResult,
    /// Other tags, in order (such as `Reason`, `Round`, `Date`).
    pub tags: Vec<(String, String)>,
}

/// A record that cannot be read: the line (from 1) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct RecordError {
    /// Line number in the file, from 1.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn quote(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for ch in value.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "[Game {}]", quote(self.game.name()))?;
        writeln!(f, "[Size {}]", quote(&self.size.to_string()))?;
        writeln!(f, "[White {}]", quote(&self.white))?;
        writeln!(f, "[Black {}]", quote(&self.black))?;
        writeln!(f, "[Start {}]", quote(&self.start.to_string()))?;
        writeln!(f, "[Result {}]", quote(self.result.as_str()))?;
        for (k, v) in &self.tags {
            writeln!(f, "[{k} {}]", quote(v))?;
        }
        // Moves, wrapped at about 80 characters.
        let mut width = 0;
        for (i, m) in self.moves.iter().enumerate() {
            if i > 0 {
                if width + 1 + m.len() > 80 {
                    writeln!(f)?;
                    width = 0;
                } else {
                    f.write_str(" ")?;
                    width += 1;
                }
            }
            f.write_str(m)?;
            width += m.len();
        }
        writeln!(f)
    }
}

impl GameRecord {
    /// The value of a tag among the other tags.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Replays the game by the rules: every position from the start to the end. Fails on the
    /// first move that is not legal, naming it.
    pub fn replay<G: Game>(&self) -> Result<Vec<Line<G>>, PositionError> {
        let mut line = start_line::<G>(&self.start, self.size)?;
        let mut lines = vec![line.clone()];
        for (i, text) in self.moves.iter().enumerate() {
            let mv = parse_move(&line, text).map_err(|e| PositionError::IllegalMove {
                text: text.clone(),
                why: format!("move {} of the record: {e}", i + 1),
            })?;
            line.push(mv);
            lines.push(line.clone());
        }
        Ok(lines)
    }
}

/// Reads the tag line `[Name "value"]`.
fn parse_tag(text: &str) -> Result<(String, String), String> {
    let inner = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or("a tag line must look like [Name \"value\"]")?;
    let (name, rest) = inner
        .split_once(char::is_whitespace)
        .ok_or("the tag has no value")?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!(
            "'{name}' is not a tag name (letters, digits and _)"
        ));
    }
    let rest = rest.trim();
    let body = rest
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .ok_or("the tag value must be in double quotes")?;
    let mut value = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('"' | '\\')) => value.push(e),
                _ => return Err("a backslash in a tag value must be followed by \" or \\".into()),
            },
            '"' => return Err("an unescaped \" inside the tag value".into()),
            c => value.push(c),
        }
    }
    Ok((name.to_string(), value))
}

/// Builds a record from its tag lines and moves; `first` is the line number of its first line.
fn build(
    tags: Vec<(String, String, usize)>,
    moves: Vec<String>,
    first: usize,
) -> Result<GameRecord, RecordError> {
    let err = |line: usize, message: String| RecordError { line, message };
    let get = |name: &str| -> Result<(String, usize), RecordError> {
        tags.iter()
            .find(|(k, _, _)| k == name)
            .map(|(_, v, l)| (v.clone(), *l))
            .ok_or_else(|| err(first, format!("the record has no [{name} \"...\"] tag")))
    };
    let (game, gl) = get("Game")?;
    let game = GameKind::parse(&game).map_err(|e| err(gl, e.to_string()))?;
    let (size, sl) = get("Size")?;
    let size: usize = size
        .parse()
        .map_err(|_| err(sl, format!("size '{size}' is not a number")))?;
    game.check_size(size).map_err(|e| err(sl, e.to_string()))?;
    let (white, _) = get("White")?;
    let (black, _) = get("Black")?;
    let (start, stl) = get("Start")?;
    let start = Setup::parse(&start).map_err(|m| err(stl, m.0))?;
    let (result, rl) = get("Result")?;
    let result = match result.as_str() {
        "white" => RecordResult::White,
        "black" => RecordResult::Black,
        "draw" => RecordResult::Draw,
        "*" => RecordResult::Unfinished,
        other => {
            return Err(err(
                rl,
                format!("result '{other}' is not white, black, draw or *"),
            ));
        }
    };
    const KNOWN: [&str; 6] = ["Game", "Size", "White", "Black", "Start", "Result"];
    let tags = tags
        .into_iter()
        .filter(|(k, _, _)| !KNOWN.contains(&k.as_str()))
        .map(|(k, v, _)| (k, v))
        .collect();
    Ok(GameRecord {
        game,
        size,
        white,
        black,
        start,
        moves,
        result,
        tags,
    })
}

/// Reads every record of a text. Records are separated by blank lines.
pub fn parse_records(text: &str) -> Result<Vec<GameRecord>, RecordError> {
    let mut records = Vec::new();
    let mut tags: Vec<(String, String, usize)> = Vec::new();
    let mut moves: Vec<String> = Vec::new();
    let mut first = 0;
    let mut in_moves = false;
    for (i, raw) in text.lines().enumerate() {
        let no = i + 1;
        let line = raw.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            if !tags.is_empty() {
                records.push(build(
                    std::mem::take(&mut tags),
                    std::mem::take(&mut moves),
                    first,
                )?);
            }
            in_moves = false;
            continue;
        }
        if tags.is_empty() {
            first = no;
        }
        if line.starts_with('[') {
            if in_moves {
                return Err(RecordError {
                    line: no,
                    message: "a tag after the moves: separate records with a blank line".into(),
                });
            }
            let (k, v) = parse_tag(line).map_err(|message| RecordError { line: no, message })?;
            tags.push((k, v, no));
        } else {
            if tags.is_empty() {
                return Err(RecordError {
                    line: no,
                    message: "moves before any tag: a record starts with [Game \"...\"]".into(),
                });
            }
            in_moves = true;
            moves.extend(line.split_whitespace().map(str::to_string));
        }
    }
    if !tags.is_empty() {
        records.push(build(tags, moves, first)?);
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::notation::move_name;
    use crate::games::{Ctf, MoveList, Oska};

    fn played_oska(plies: usize) -> GameRecord {
        let mut line = Line::new(Oska::start(4).unwrap());
        let mut names = Vec::new();
        let mut moves = MoveList::new();
        for i in 0..plies {
            line.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[i % moves.len()];
            names.push(move_name(line.current(), m));
            line.push(m);
        }
        GameRecord {
            game: GameKind::Oska,
            size: 4,
            white: "deep \"one\"".into(),
            black: "shallow\\two".into(),
            start: Setup::StartPos,
            moves: names,
            result: line
                .outcome()
                .map_or(RecordResult::Unfinished, RecordResult::from_outcome),
            tags: vec![
                ("Reason".into(), "all-home".into()),
                ("Round".into(), "3".into()),
            ],
        }
    }

    #[test]
    fn records_round_trip_and_replay() {
        let a = played_oska(40);
        let mut b = played_oska(5);
        b.start = Setup::Board {
            board: "wwww/---/--/---/bbbb".into(),
            side: Side::White,
            history: vec![],
        };
        let text = format!("# two games\n{a}\n{b}");
        let back = parse_records(&text).unwrap();
        assert_eq!(back, vec![a.clone(), b]);
        let lines = back[0].replay::<Oska>().unwrap();
        assert_eq!(lines.len(), a.moves.len() + 1);
        assert_eq!(back[0].tag("Round"), Some("3"));
    }

    #[test]
    fn ctf_start_with_history_replays() {
        let rec = GameRecord {
            game: GameKind::Ctf,
            size: 5,
            white: "a".into(),
            black: "b".into(),
            start: Setup::parse(
                "board -wWw--w-w---w---bbb--bBb- b history -wWw--www-------bbb--bBb-",
            )
            .unwrap(),
            moves: vec!["b4b3".into()],
            result: RecordResult::Unfinished,
            tags: vec![],
        };
        let back = parse_records(&rec.to_string()).unwrap();
        let lines = back[0].replay::<Ctf>().unwrap();
        assert_eq!(lines[0].len(), 1, "the history board is kept");
    }

    #[test]
    fn bad_records_say_where() {
        let e = parse_records("[Game \"oska\"]\n[Size \"4\"]\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1: the record has no [White \"...\"] tag"
        );
        let e = parse_records("[Game \"chess\"]").unwrap_err();
        assert!(
            e.to_string().starts_with("line 1: unknown game 'chess'"),
            "{e}"
        );
        let e = parse_records("[Game oska]").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1: the tag value must be in double quotes"
        );
        let mut r = played_oska(3);
        r.moves.push("a1a1".into());
        let back = parse_records(&r.to_string()).unwrap();
        let e = back[0].replay::<Oska>().unwrap_err().to_string();
        assert!(e.contains("move 4 of the record"), "{e}");
    }
}
