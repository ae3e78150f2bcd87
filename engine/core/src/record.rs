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
//! A record is a block of tag lines `[Name "value"]` (value in double quotes; `\"` and `\\`
//! escaped, and every control or invisible formatting character written `\xNN` as [`shown`]
//! writes it, so that a record holds no control character whatever an engine said) followed by the moves in
//! the protocol's notation on one or more lines; records are separated by a blank line. `Game`,
//! `Size`, `Start` and `Result` are required (once each); `White` and `Black` may be missing (a
//! record written by hand, or by another program) and are then read as `?`, but are always
//! written; none may appear twice. `Start` is `startpos`
//! or `board BOARD SIDE [history B1 B2 ...]` exactly as the protocol's `position` command takes
//! it; `Result` is `white`, `black`, `draw` or `*` (unfinished). Other tags (`Reason`, `Round`,
//! `Date`, `Opening`, ...) are kept in order. Lines starting with `#` are comments.
//!
//! [`parse_records`] reads the format; [`referee_records`] also replays every game by the rules
//! and refuses, naming the line, a move that is not legal or a result the moves contradict.

use std::fmt;

use crate::games::notation::parse_move;
use crate::games::setup::Setup;
use crate::games::{Game, GameKind, Line, Outcome, PositionError, Reason, Side};
use crate::protocol::shown;
use crate::with_game;

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

/// A tag value in double quotes: [`shown`] (control and invisible formatting characters as
/// `\xNN`, a backslash as `\\`), and `"` as `\"`.
fn quote(value: &str) -> String {
    let escaped = shown(value);
    let mut out = String::with_capacity(escaped.len() + 2);
    out.push('"');
    for ch in escaped.chars() {
        if ch == '"' {
            out.push('\\');
        }
        out.push(ch);
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
    // The value's bytes: escapes undone, other characters as they are.
    let mut value = Vec::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('"' | '\\')) => value.push(e as u8),
                Some('x') => {
                    let hex: String = chars.by_ref().take(2).collect();
                    let byte = (hex.len() == 2 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
                        .then(|| u8::from_str_radix(&hex, 16).ok())
                        .flatten()
                        .ok_or("\\x in a tag value must be followed by two hex digits")?;
                    value.push(byte);
                }
                _ => {
                    return Err(
                        "a backslash in a tag value must be followed by \", \\ or xNN".into(),
                    );
                }
            },
            '"' => return Err("an unescaped \" inside the tag value".into()),
            c => value.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    let value = String::from_utf8(value)
        .map_err(|_| "the \\xNN escapes of the tag value do not spell UTF-8 text")?;
    Ok((name.to_string(), value))
}

/// Where the parts of a record stand in its file (line numbers from 1), for [`referee_records`].
struct Lines {
    /// Each tag's line, in the record's order.
    tags: Vec<(String, usize)>,
    /// Each move's line.
    moves: Vec<usize>,
}

impl Lines {
    /// The line of the first tag `name`.
    fn tag(&self, name: &str) -> Option<usize> {
        self.tags.iter().find(|(k, _)| k == name).map(|&(_, l)| l)
    }
}

/// The tags every record has, in the order they are written (`White` and `Black` read as
/// [`UNKNOWN_PLAYER`] when missing).
const REQUIRED: [&str; 6] = ["Game", "Size", "White", "Black", "Start", "Result"];

/// The player's name read from a record without its `White` or `Black` tag.
pub const UNKNOWN_PLAYER: &str = "?";

/// Builds a record from its tag lines and moves; `first` is the line number of its first line.
fn build(
    tags: Vec<(String, String, usize)>,
    moves: Vec<String>,
    first: usize,
) -> Result<GameRecord, RecordError> {
    let err = |line: usize, message: String| RecordError { line, message };
    for (i, (k, _, l)) in tags.iter().enumerate() {
        // The set of required tags first: a record may hold any number of other tags.
        if REQUIRED.contains(&k.as_str())
            && let Some((_, _, before)) = tags[..i].iter().find(|(j, _, _)| j == k)
        {
            return Err(err(
                *l,
                format!("a second [{k} \"...\"] tag in one record (the first is on line {before})"),
            ));
        }
    }
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
    let player = |name: &str| get(name).map_or_else(|_| UNKNOWN_PLAYER.to_string(), |(v, _)| v);
    let (white, black) = (player("White"), player("Black"));
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
    let tags = tags
        .into_iter()
        .filter(|(k, _, _)| !REQUIRED.contains(&k.as_str()))
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

/// Reads every record of a text, with where its parts stand.
fn parse_located(text: &str) -> Result<Vec<(GameRecord, Lines)>, RecordError> {
    let mut records = Vec::new();
    let mut tags: Vec<(String, String, usize)> = Vec::new();
    let mut moves: Vec<String> = Vec::new();
    let mut move_lines: Vec<usize> = Vec::new();
    let mut first = 0;
    let mut in_moves = false;
    let mut finish = |tags: Vec<(String, String, usize)>,
                      moves: Vec<String>,
                      move_lines: Vec<usize>,
                      first: usize|
     -> Result<(), RecordError> {
        let lines = Lines {
            tags: tags.iter().map(|(k, _, l)| (k.clone(), *l)).collect(),
            moves: move_lines,
        };
        records.push((build(tags, moves, first)?, lines));
        Ok(())
    };
    for (i, raw) in text.lines().enumerate() {
        let no = i + 1;
        let line = raw.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            if !tags.is_empty() {
                finish(
                    std::mem::take(&mut tags),
                    std::mem::take(&mut moves),
                    std::mem::take(&mut move_lines),
                    first,
                )?;
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
            for word in line.split_whitespace() {
                moves.push(word.to_string());
                move_lines.push(no);
            }
        }
    }
    if !tags.is_empty() {
        finish(tags, moves, move_lines, first)?;
    }
    Ok(records)
}

/// Reads every record of a text. Records are separated by blank lines. Only the format is
/// checked (and each tag's value); [`referee_records`] also checks the games by the rules.
pub fn parse_records(text: &str) -> Result<Vec<GameRecord>, RecordError> {
    Ok(parse_located(text)?.into_iter().map(|(r, _)| r).collect())
}

/// The tags of the arena's records that hold one value: a record with two of one is refused by
/// [`referee_records`], as its meaning would depend on which is read.
const SINGLE: [&str; 7] = [
    "Reason",
    "Fault",
    "Round",
    "GameNumber",
    "Opening",
    "WhiteThinkMs",
    "BlackThinkMs",
];

/// Reads every record of a text as [`parse_records`] does, and referees each game by the rules:
/// its start must be a legal position of its game and size, every move must be legal where it
/// is played (none after the end), and where the moves end the game the `Result` must be the
/// rules' result (and a `Reason` that names a rules ending must name that one); where they do
/// not end it, a `Reason` that names a rules ending is refused. The error names the line of
/// the first bad part: the move, or the `Start`, `Result` or `Reason` tag. A second tag of
/// one the arena writes once (`Reason`, `GameNumber`, ...) is refused, and so is a second game
/// with the same `GameNumber` and players.
pub fn referee_records(text: &str) -> Result<Vec<GameRecord>, RecordError> {
    let mut out = Vec::new();
    let mut numbers = std::collections::HashMap::new();
    for (record, lines) in parse_located(text)? {
        with_game!(record.game, G => referee::<G>(&record, &lines))?;
        if let Some(n) = record
            .tag("GameNumber")
            .and_then(|n| n.parse::<usize>().ok())
        {
            let at = lines.tag("GameNumber").unwrap_or(0);
            let key = (n, record.white.clone(), record.black.clone());
            if let Some(before) = numbers.insert(key, at) {
                return Err(RecordError {
                    line: at,
                    message: format!("game {n} of these players again (first on line {before})"),
                });
            }
        }
        out.push(record);
    }
    Ok(out)
}

/// Checks one record by the rules (see [`referee_records`]).
fn referee<G: Game>(record: &GameRecord, lines: &Lines) -> Result<(), RecordError> {
    let at = |name: &str| lines.tag(name).unwrap_or(0);
    let err = |line: usize, message: String| RecordError { line, message };
    for (i, (k, l)) in lines.tags.iter().enumerate() {
        if SINGLE.contains(&k.as_str())
            && let Some((_, before)) = lines.tags[..i].iter().find(|(j, _)| j == k)
        {
            return Err(err(
                *l,
                format!("a second [{k} \"...\"] tag in one record (the first is on line {before})"),
            ));
        }
    }
    let mut line = start_line::<G>(&record.start, record.size).map_err(|e| {
        err(
            at("Start"),
            format!("the start is not a legal position: {e}"),
        )
    })?;
    for (i, text) in record.moves.iter().enumerate() {
        let mv = parse_move(&line, text)
            .map_err(|e| err(lines.moves[i], format!("move {} of the game: {e}", i + 1)))?;
        line.push(mv);
    }
    let reason = record.tag("Reason");
    let ruled = reason.and_then(|r| Reason::ALL.into_iter().find(|x| x.code() == r));
    match line.outcome() {
        Some(o) => {
            let due = RecordResult::from_outcome(o);
            if record.result != due {
                return Err(err(
                    at("Result"),
                    format!(
                        "the result is '{}' but the moves end the game with '{}' ({o})",
                        record.result.as_str(),
                        due.as_str()
                    ),
                ));
            }
            if let (Some(r), Some(code)) = (reason, ruled)
                && code.code() != o.reason().code()
            {
                return Err(err(
                    at("Reason"),
                    format!(
                        "the reason '{r}' is not how the moves end the game: '{}' ({o})",
                        o.reason().code()
                    ),
                ));
            }
        }
        None => {
            if let Some(r) = reason
                && ruled.is_some()
            {
                return Err(err(
                    at("Reason"),
                    format!(
                        "the reason '{r}' is an end by the rules, but after the moves the game is not over"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The text of a file's bytes (records, openings), or the line (from 1) of the first byte that
/// is not UTF-8.
pub fn file_text(bytes: &[u8]) -> Result<&str, RecordError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let good = &bytes[..e.valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = good.len() - good.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        RecordError {
            line,
            message: format!("byte {} of the line is not UTF-8 text", column + 1),
        }
    })
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
            board: "wwww/---/--/---/bbbb".parse().unwrap(),
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
            "line 1: the record has no [Start \"...\"] tag"
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

    #[test]
    fn missing_players_read_as_unknown_and_are_written_back() {
        let text = "[Game \"hexapawn\"]\n[Size \"3\"]\n[Start \"startpos\"]\n\
                    [Result \"*\"]\nb1b2\n";
        let r = &parse_records(text).unwrap()[0];
        assert_eq!((r.white.as_str(), r.black.as_str()), ("?", "?"));
        assert_eq!(r.moves, ["b1b2"]);
        let written = r.to_string();
        assert!(
            written.contains("[White \"?\"]\n[Black \"?\"]"),
            "{written}"
        );
        assert_eq!(&parse_records(&written).unwrap()[0], r);
        // Only Black given: White alone is unknown; a second White is still refused.
        let black = text.replace("[Start", "[Black \"deep\"]\n[Start");
        let r = &parse_records(&black).unwrap()[0];
        assert_eq!((r.white.as_str(), r.black.as_str()), ("?", "deep"));
        let twice = text.replace("[Start", "[White \"a\"]\n[White \"b\"]\n[Start");
        let e = parse_records(&twice).unwrap_err().to_string();
        assert!(e.contains("a second [White"), "{e}");
    }

    /// A whole Oska 4 game (the first legal move each ply) to its end by the rules.
    fn finished_oska() -> (GameRecord, Outcome) {
        let mut r = played_oska(0);
        let mut line = Line::new(Oska::start(4).unwrap());
        let mut moves = MoveList::new();
        while line.outcome().is_none() {
            line.legal_moves(&mut moves);
            let m = moves.as_slice()[0];
            r.moves.push(move_name(line.current(), m));
            line.push(m);
        }
        let o = line.outcome().unwrap();
        r.result = RecordResult::from_outcome(o);
        r.tags = vec![("Reason".into(), o.reason().code().into())];
        (r, o)
    }

    #[test]
    fn control_bytes_are_escaped_and_read_back() {
        let mut r = played_oska(4);
        r.white = "a\x1b[31m\0\r\n\u{e9}\\\"\x7f".into();
        r.tags.push(("Reason".into(), "said \x1b]0;x\x07".into()));
        let text = r.to_string();
        // Readable characters outside ASCII stay as they are; no control character is left.
        assert!(
            text.chars().all(|c| c == '\n' || !c.is_control()),
            "{text:?}"
        );
        assert!(
            text.contains("[White \"a\\x1b[31m\\x00\\x0d\\x0a\u{e9}\\\\\\\"\\x7f\"]"),
            "{text}"
        );
        assert_eq!(parse_records(&text).unwrap(), vec![r]);
        for (bad, why) in [
            (r#"[White "a\x1"]"#, "two hex digits"),
            (r#"[White "a\xzz"]"#, "two hex digits"),
            (r#"[White "a\xc3"]"#, "do not spell UTF-8"),
            (r#"[White "a\q"]"#, "must be followed by"),
        ] {
            let e = parse_records(&format!("[Game \"oska\"]\n{bad}\n")).unwrap_err();
            assert_eq!(e.line, 2, "{bad}: {e}");
            assert!(e.message.contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn the_referee_names_the_first_bad_line() {
        let (good, o) = finished_oska();
        let text = good.to_string();
        assert_eq!(referee_records(&text).unwrap(), vec![good.clone()]);
        let line_of = |text: &str, prefix: &str| {
            1 + text.lines().position(|l| l.starts_with(prefix)).unwrap()
        };
        // The other side's win, a draw, and an unfinished game contradict the moves.
        for wrong in [RecordResult::Draw, RecordResult::Unfinished] {
            let mut r = good.clone();
            r.result = wrong;
            let t = r.to_string();
            let e = referee_records(&t).unwrap_err();
            assert_eq!(e.line, line_of(&t, "[Result"), "{e}");
            assert!(e.message.contains("the moves end the game"), "{e}");
            assert!(parse_records(&t).is_ok(), "the format alone is fine");
        }
        // A rules reason that is not how the game ended.
        let mut r = good.clone();
        let other = Reason::ALL
            .into_iter()
            .find(|x| x.code() != o.reason().code())
            .unwrap();
        r.tags = vec![("Reason".into(), other.code().into())];
        let t = r.to_string();
        assert_eq!(
            referee_records(&t).unwrap_err().line,
            line_of(&t, "[Reason")
        );
        // A rules reason on a game that is not over.
        let mut r = good.clone();
        r.moves.truncate(3);
        r.result = RecordResult::White;
        let t = r.to_string();
        let e = referee_records(&t).unwrap_err();
        assert_eq!(e.line, line_of(&t, "[Reason"), "{e}");
        // A fault's result on an unfinished game is the referee's word, not the rules'.
        r.tags = vec![("Reason".into(), "crash by x (black): gone".into())];
        assert!(referee_records(&r.to_string()).is_ok());
        // An illegal move on the third line of moves; a move after the end.
        let mut r = good.clone();
        r.moves = (0..40).map(|_| "a1a1".into()).collect();
        r.moves.splice(0..0, good.moves.iter().take(30).cloned());
        // One move a line, after the tags.
        let tags: Vec<String> = r
            .to_string()
            .lines()
            .filter(|l| l.starts_with('['))
            .map(str::to_string)
            .collect();
        let t = format!(
            "# a comment\n\n{}\n{}\n",
            tags.join("\n"),
            r.moves.join("\n")
        );
        let e = referee_records(&t).unwrap_err();
        let first_bad = if good.moves.len() < 30 {
            good.moves.len()
        } else {
            30
        };
        assert_eq!(
            e.line,
            t.lines().count() - (r.moves.len() - first_bad) + 1,
            "{e}"
        );
        assert!(
            e.message
                .contains(&format!("move {} of the game", first_bad + 1)),
            "{e}"
        );
        // A start that is no legal position, and a second Result or Reason tag.
        let t = good
            .to_string()
            .replace("startpos", "board wwwww/---/--/---/bbbb w");
        assert_eq!(referee_records(&t).unwrap_err().line, line_of(&t, "[Start"));
        let t = good
            .to_string()
            .replace("[Result", "[Reason \"x\"]\n[Result");
        let e = referee_records(&t).unwrap_err();
        assert!(e.message.contains("a second [Reason"), "{e}");
        let t = format!("{good}").replace("[Result", "[Result \"draw\"]\n[Result");
        assert!(
            parse_records(&t)
                .unwrap_err()
                .message
                .contains("a second [Result")
        );
    }

    #[test]
    fn bytes_that_are_not_utf8_are_located() {
        assert_eq!(file_text(b"[a]\n").unwrap(), "[a]\n");
        let e = file_text(b"[Game \"oska\"]\n\n[White \"a\xff\"]\n").unwrap_err();
        assert_eq!(
            (e.line, e.to_string().as_str()),
            (3, "line 3: byte 10 of the line is not UTF-8 text")
        );
    }
}
