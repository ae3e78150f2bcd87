//! The words of a line: splitting, characters, numbers, moves, boards, and the helpers that
//! write them back.

use std::fmt;

use super::*;

pub(super) fn syntax(message: impl Into<String>) -> ProtocolError {
    ProtocolError::new(ErrorCode::Syntax, message)
}

pub(super) fn bad_value(message: impl Into<String>) -> ProtocolError {
    ProtocolError::new(ErrorCode::BadValue, message)
}

/// Splits off the first word (space or tab separated); the rest has leading blanks removed.
pub(super) fn split_word(s: &str) -> (&str, &str) {
    let s = s.trim_start_matches([' ', '\t']);
    match s.find([' ', '\t']) {
        Some(i) => (&s[..i], s[i..].trim_start_matches([' ', '\t'])),
        None => (s, ""),
    }
}

/// The blanks that separate words: ASCII space and tab, nothing else.
pub(super) const BLANKS: [char; 2] = [' ', '\t'];

/// Normalises a line read without its `\n` (and without the one `\r` allowed before it): drops
/// the blanks (spaces and tabs) at either end. Returns `None` for a blank line or a `#` comment,
/// which are ignored whatever they contain.
pub fn meaningful(line: &str) -> Option<&str> {
    let t = line.trim_matches(BLANKS);
    (!t.is_empty() && !t.starts_with('#')).then_some(t)
}

/// The one rule for the characters of a command line: printable ASCII, spaces and tabs only. Any
/// other character (a control character such as a stray `\r`, or anything outside ASCII) is a
/// syntax error that names its byte position (from 1) and the character. The message holds the
/// character itself: the session escapes every reply once, with [`printable`], as it writes it,
/// so `uci\x0b` is answered `error syntax byte 4 is \x0b: ...` (escaping here as well would
/// write the escape's backslash doubled).
pub(super) fn check_characters(line: &str) -> Result<(), ProtocolError> {
    match line
        .char_indices()
        .find(|&(_, c)| !(c == ' ' || c == '\t' || c.is_ascii_graphic()))
    {
        None => Ok(()),
        Some((i, c)) => Err(syntax(format!(
            "byte {} is {c}: a command has printable ASCII characters, spaces and tabs only",
            i + 1,
        ))),
    }
}

/// `text` with every byte outside printable ASCII and space written as `\xNN` (two lower-case
/// hex digits; a character outside ASCII gives one escape per byte of its UTF-8 form) and every
/// backslash as `\\`, so that a line the engine echoes never contains a line break or another
/// control character. Text without such bytes is returned unchanged.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if text
        .bytes()
        .all(|b| (b' '..=b'~').contains(&b) && b != b'\\')
    {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for b in text.bytes() {
        match b {
            b'\\' => out.push_str("\\\\"),
            b' '..=b'~' => out.push(char::from(b)),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `text` for a person's terminal or a record file: like [`printable`], but readable characters
/// outside ASCII (`ü`, `é`, `‘`) are kept as they are. Every control character (C0, DEL, C1) and
/// every invisible format character that can reorder or hide text (zero-width characters,
/// bidirectional embeddings, overrides and isolates, the byte-order mark) is written as `\xNN`,
/// one escape per byte of its UTF-8 form, and a backslash as `\\`, so that the text can neither
/// move the cursor, clear the screen nor break a line. Text without such characters is returned
/// unchanged.
pub fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    fn hidden(c: char) -> bool {
        c.is_control()
            || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
                | '\u{2060}'..='\u{2069}' | '\u{feff}')
    }
    if !text.chars().any(|c| c == '\\' || hidden(c)) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c == '\\' {
            out.push_str("\\\\");
        } else if hidden(c) {
            for b in c.encode_utf8(&mut [0; 4]).bytes() {
                out.push_str(&format!("\\x{b:02x}"));
            }
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A line that went through [`printable`] (an engine's `info string` quoted in a record's
/// reason), for a person: its `\\` and `\xNN` escapes read back, and the text shown with
/// [`shown`], so that a compiler's `\xe2\x80\x98` is `‘` again while control characters stay
/// escaped. Bytes that are not valid UTF-8 stay escaped as `\xNN`; any other backslash is kept
/// (and shown as `\\`).
pub fn readable(text: &str) -> String {
    let raw = text.as_bytes();
    let mut bytes = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        let hex = raw
            .get(i + 2..i + 4)
            .and_then(|h| std::str::from_utf8(h).ok())
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (raw[i], raw.get(i + 1), hex) {
            (b'\\', Some(b'\\'), _) => {
                bytes.push(b'\\');
                i += 2;
            }
            (b'\\', Some(b'x'), Some(b)) => {
                bytes.push(b);
                i += 4;
            }
            (b, _, _) => {
                bytes.push(b);
                i += 1;
            }
        }
    }
    let mut out = String::with_capacity(raw.len());
    for chunk in bytes.utf8_chunks() {
        out.push_str(&shown(chunk.valid()));
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// Reads an unsigned number; `what` names it in messages.
pub(super) fn number<T: std::str::FromStr>(
    word: Option<&str>,
    what: &str,
) -> Result<T, ProtocolError> {
    let word = word.ok_or_else(|| syntax(format!("{what} is missing")))?;
    if word.is_empty() || !word.bytes().all(|b| b.is_ascii_digit()) {
        return Err(syntax(format!(
            "'{word}': {what} must be a whole number of digits"
        )));
    }
    word.parse()
        .map_err(|_| bad_value(format!("'{word}': {what} is too large")))
}

pub(super) fn no_more<'a>(
    mut words: impl Iterator<Item = &'a str>,
    after: &str,
) -> Result<(), ProtocolError> {
    match words.next() {
        Some(w) => Err(syntax(format!("unexpected '{w}' after {after}"))),
        None => Ok(()),
    }
}

pub(super) fn no_moves() -> ProtocolError {
    syntax("'moves' must be followed by at least one move (leave 'moves' out for none)")
}

pub(super) fn check_move(word: &str, index: usize) -> Result<String, ProtocolError> {
    read_move(word, index).map(|_| word.to_string())
}

/// Reads a move's syntax; `index` (from 1) names it in the message.
pub(super) fn read_move(word: &str, index: usize) -> Result<MoveText, ProtocolError> {
    MoveText::parse(word).map_err(|e| syntax(format!("move {index} '{word}': {e}")))
}

/// A board word of a reply, its spelling checked.
pub(super) fn check_board(word: &str) -> Result<SetupBoard, ProtocolError> {
    word.parse().map_err(|e: SetupSyntax| syntax(e.0))
}

pub(super) fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max).collect();
        t.push_str("...");
        t
    }
}

pub(super) fn write_words(f: &mut fmt::Formatter<'_>, words: &[impl fmt::Display]) -> fmt::Result {
    for w in words {
        write!(f, " {w}")?;
    }
    Ok(())
}

/// The words after `position` (each preceded by a space).
pub(super) fn write_position(
    f: &mut fmt::Formatter<'_>,
    setup: &Setup,
    moves: &[MoveText],
) -> fmt::Result {
    write!(f, " {setup}")?;
    if !moves.is_empty() {
        f.write_str(" moves")?;
        write_words(f, moves)?;
    }
    Ok(())
}

pub(super) fn parse_side(word: Option<&str>) -> Result<Side, ProtocolError> {
    match word {
        Some("w") => Ok(Side::White),
        Some("b") => Ok(Side::Black),
        Some(w) => Err(syntax(format!("'{w}' is not a side: expected w or b"))),
        None => Err(syntax("the side is missing")),
    }
}

pub(super) fn parse_game(word: Option<&str>) -> Result<GameKind, ProtocolError> {
    let w = word.ok_or_else(|| syntax("the game is missing"))?;
    GameKind::parse(w)
        .ok()
        .filter(|g| g.name() == w)
        .ok_or_else(|| bad_value(format!("'{w}' is not a game")))
}

pub(super) fn parse_int(word: Option<&str>, what: &str) -> Result<i64, ProtocolError> {
    let w = word.ok_or_else(|| syntax(format!("{what} is missing")))?;
    w.parse()
        .map_err(|_| syntax(format!("'{w}': {what} must be an integer")))
}

pub(super) fn rest_text(rest: &str, what: &str) -> Result<String, ProtocolError> {
    if rest.is_empty() {
        Err(syntax(format!("{what} is missing")))
    } else {
        Ok(rest.to_string())
    }
}

pub(super) fn text_after(f: &mut fmt::Formatter<'_>, head: &str, text: &str) -> fmt::Result {
    if text.is_empty() {
        f.write_str(head)
    } else {
        write!(f, "{head} {text}")
    }
}
