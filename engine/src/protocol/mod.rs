//! The engine's line protocol (see `protocol.md` at the top of the repository): every message in
//! both directions as a Rust type, read and written in this one place.
//!
//! - [`Command`]: a line from the GUI to the engine. [`Command::parse`] reads one line;
//!   `Display` writes it back in canonical form.
//! - [`Reply`]: a line from the engine to the GUI. [`Reply::parse`] and `Display` likewise.
//!
//! Parsing is purely syntactic: a `position` command's board and moves are checked against the
//! rules by the engine, not here (only their spelling is checked here). A failed parse gives a
//! [`ProtocolError`] whose [`ErrorCode`] is the one the engine answers with.

use std::fmt;

pub use crate::games::setup::Setup;
pub use crate::search::Score;

use crate::games::notation::MoveText;
use crate::games::setup::check_board_spelling;
use crate::games::{GameKind, Side};

/// The longest line, in bytes without the line ending, that an engine must accept. Longer lines
/// are refused with `error too-long`.
pub const MAX_LINE: usize = 1 << 20;

/// The codes of `error CODE MESSAGE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// The first word is no command.
    UnknownCommand,
    /// The words do not fit the command's grammar (missing or extra words, not a number, not a
    /// move).
    Syntax,
    /// A value of the right shape but not allowed (number out of range, unknown game name).
    BadValue,
    /// Something this engine does not do (unknown option, unsupported game size).
    Unsupported,
    /// A board, side or history that the rules refuse.
    BadPosition,
    /// A move that is not legal where it is played.
    IllegalMove,
    /// A state-changing command while a search runs.
    Busy,
    /// A line longer than [`MAX_LINE`] bytes, or not UTF-8.
    TooLong,
}

impl ErrorCode {
    /// Every code.
    pub const ALL: [ErrorCode; 8] = [
        ErrorCode::UnknownCommand,
        ErrorCode::Syntax,
        ErrorCode::BadValue,
        ErrorCode::Unsupported,
        ErrorCode::BadPosition,
        ErrorCode::IllegalMove,
        ErrorCode::Busy,
        ErrorCode::TooLong,
    ];

    /// The code as written on the line.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::UnknownCommand => "unknown-command",
            ErrorCode::Syntax => "syntax",
            ErrorCode::BadValue => "bad-value",
            ErrorCode::Unsupported => "unsupported",
            ErrorCode::BadPosition => "bad-position",
            ErrorCode::IllegalMove => "illegal-move",
            ErrorCode::Busy => "busy",
            ErrorCode::TooLong => "too-long",
        }
    }

    /// Reads a code.
    pub fn parse(text: &str) -> Option<ErrorCode> {
        ErrorCode::ALL.into_iter().find(|c| c.as_str() == text)
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A line that could not be read, with the code the engine answers with.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code} {message}")]
pub struct ProtocolError {
    /// The error code.
    pub code: ErrorCode,
    /// What is wrong, naming the failing word.
    pub message: String,
}

impl ProtocolError {
    /// An error with a code and message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ProtocolError {
            code,
            message: message.into(),
        }
    }

    /// The `error` reply for it.
    pub fn to_reply(&self) -> Reply {
        Reply::Error {
            code: self.code,
            message: self.message.clone(),
        }
    }
}

fn syntax(message: impl Into<String>) -> ProtocolError {
    ProtocolError::new(ErrorCode::Syntax, message)
}

fn bad_value(message: impl Into<String>) -> ProtocolError {
    ProtocolError::new(ErrorCode::BadValue, message)
}

/// Splits off the first word (space or tab separated); the rest has leading blanks removed.
fn split_word(s: &str) -> (&str, &str) {
    let s = s.trim_start_matches([' ', '\t']);
    match s.find([' ', '\t']) {
        Some(i) => (&s[..i], s[i..].trim_start_matches([' ', '\t'])),
        None => (s, ""),
    }
}

/// The blanks that separate words: ASCII space and tab, nothing else.
const BLANKS: [char; 2] = [' ', '\t'];

/// Normalises a line read without its `\n` (and without the one `\r` allowed before it): drops
/// the blanks (spaces and tabs) at either end. Returns `None` for a blank line or a `#` comment,
/// which are ignored whatever they contain.
pub fn meaningful(line: &str) -> Option<&str> {
    let t = line.trim_matches(BLANKS);
    (!t.is_empty() && !t.starts_with('#')).then_some(t)
}

/// The one rule for the characters of a command line: printable ASCII, spaces and tabs only. Any
/// other character (a control character such as a stray `\r`, or anything outside ASCII) is a
/// syntax error that names its byte position (from 1) and the character, escaped.
fn check_characters(line: &str) -> Result<(), ProtocolError> {
    match line
        .char_indices()
        .find(|&(_, c)| !(c == ' ' || c == '\t' || c.is_ascii_graphic()))
    {
        None => Ok(()),
        Some((i, c)) => Err(syntax(format!(
            "byte {} is {}: a command has printable ASCII characters, spaces and tabs only",
            i + 1,
            printable(c.encode_utf8(&mut [0; 4]))
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

/// Reads an unsigned number; `what` names it in messages.
fn number<T: std::str::FromStr>(word: Option<&str>, what: &str) -> Result<T, ProtocolError> {
    let word = word.ok_or_else(|| syntax(format!("{what} is missing")))?;
    if word.is_empty() || !word.bytes().all(|b| b.is_ascii_digit()) {
        return Err(syntax(format!(
            "'{word}': {what} must be a whole number of digits"
        )));
    }
    word.parse()
        .map_err(|_| bad_value(format!("'{word}': {what} is too large")))
}

fn no_more<'a>(mut words: impl Iterator<Item = &'a str>, after: &str) -> Result<(), ProtocolError> {
    match words.next() {
        Some(w) => Err(syntax(format!("unexpected '{w}' after {after}"))),
        None => Ok(()),
    }
}

fn no_moves() -> ProtocolError {
    syntax("'moves' must be followed by at least one move (leave 'moves' out for none)")
}

fn check_move(word: &str, index: usize) -> Result<String, ProtocolError> {
    read_move(word, index).map(|_| word.to_string())
}

/// Reads a move's syntax; `index` (from 1) names it in the message.
fn read_move(word: &str, index: usize) -> Result<MoveText, ProtocolError> {
    MoveText::parse(word).map_err(|e| syntax(format!("move {index} '{word}': {e}")))
}

fn check_board(word: &str) -> Result<String, ProtocolError> {
    check_board_spelling(word).map_err(|e| syntax(e.0))
}

/// What a `go` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Go {
    /// Search to this many plies (at least 1).
    Depth(u32),
    /// Search about this many nodes (at least 1).
    Nodes(u64),
    /// Search this many milliseconds (at least 1).
    MoveTime(u64),
    /// Search until `stop`.
    Infinite,
    /// Count move sequences of this many plies.
    Perft(u32),
    /// Search until the game-theoretic value is proven (or `stop`).
    Solve,
    /// Play on a clock: `go wtime T btime T [winc I] [binc I] [movestogo N]`; the engine
    /// decides how long to think.
    Clock(Clock),
}

/// The clocks of a `go wtime ...`, in milliseconds as in UCI.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// White's remaining time.
    pub wtime: u64,
    /// Black's remaining time.
    pub btime: u64,
    /// White's increment per move (0 when not given).
    pub winc: u64,
    /// Black's increment per move (0 when not given).
    pub binc: u64,
    /// Moves (of the side to move) until the next time control adds time; `None`: the
    /// remaining time is for the rest of the game.
    pub movestogo: Option<u32>,
}

impl Clock {
    /// The remaining time and increment of `side`.
    pub fn of(&self, side: Side) -> (u64, u64) {
        match side {
            Side::White => (self.wtime, self.winc),
            Side::Black => (self.btime, self.binc),
        }
    }

    /// Reads the words after `go` (`wtime T btime T [winc I] [binc I] [movestogo N]`, in any
    /// order, each at most once).
    fn parse<'a>(
        first: &'a str,
        words: impl Iterator<Item = &'a str>,
    ) -> Result<Clock, ProtocolError> {
        let mut words = std::iter::once(first).chain(words);
        let mut seen: [Option<u64>; 5] = [None; 5];
        const KEYS: [&str; 5] = ["wtime", "btime", "winc", "binc", "movestogo"];
        while let Some(key) = words.next() {
            let Some(i) = KEYS.iter().position(|k| *k == key) else {
                return Err(syntax(format!(
                    "'{}': expected wtime, btime, winc, binc or movestogo",
                    truncate(key, 40)
                )));
            };
            if seen[i].is_some() {
                return Err(syntax(format!("'{key}' is given twice")));
            }
            let what = if i == 4 { "movestogo" } else { key };
            seen[i] = Some(number(words.next(), what)?);
        }
        let [Some(wtime), Some(btime), winc, binc, movestogo] = seen else {
            return Err(syntax("a clock needs both 'wtime T' and 'btime T'"));
        };
        let movestogo = match movestogo {
            None => None,
            Some(0) => return Err(bad_value("movestogo must be at least 1")),
            Some(n) => Some(
                u32::try_from(n)
                    .map_err(|_| bad_value(format!("'{n}': movestogo is too large")))?,
            ),
        };
        Ok(Clock {
            wtime,
            btime,
            winc: winc.unwrap_or(0),
            binc: binc.unwrap_or(0),
            movestogo,
        })
    }
}

impl fmt::Display for Clock {
    /// The canonical words: `wtime T btime T`, then `winc`, `binc` when not 0 and `movestogo`
    /// when given.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "wtime {} btime {}", self.wtime, self.btime)?;
        if self.winc > 0 {
            write!(f, " winc {}", self.winc)?;
        }
        if self.binc > 0 {
            write!(f, " binc {}", self.binc)?;
        }
        if let Some(n) = self.movestogo {
            write!(f, " movestogo {n}")?;
        }
        Ok(())
    }
}

/// A line from the GUI to the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify, list games and options, `uciok`.
    Uci,
    /// `isready`: answer `readyok`.
    IsReady,
    /// `setoption name NAME value VALUE`.
    SetOption {
        /// The option's name (one word).
        name: String,
        /// The value (one word).
        value: String,
    },
    /// `newgame GAME SIZE`: a new game at its start position.
    NewGame {
        /// The game.
        game: GameKind,
        /// Its size.
        size: u32,
    },
    /// `position (startpos | board BOARD SIDE [history B1 ...]) [moves M1 ...]`.
    Position {
        /// The board to start from.
        setup: Setup,
        /// Moves played from it, in order (their syntax checked, not their legality).
        moves: Vec<MoveText>,
    },
    /// `go ...`.
    Go(Go),
    /// `stop`: end the running search now.
    Stop,
    /// `quit`.
    Quit,
    /// `show`: the current state.
    Show,
    /// `legal`: the legal moves.
    Legal,
}

impl Command {
    /// Reads one line (already stripped of its line ending; surrounding blanks are allowed). Blank
    /// and comment lines are not commands: filter them with [`meaningful`] first. Characters other
    /// than printable ASCII, space and tab are refused (`error syntax`), wherever they are.
    pub fn parse(line: &str) -> Result<Command, ProtocolError> {
        check_characters(line)?;
        let line = line.trim_matches(BLANKS);
        let (head, rest) = split_word(line);
        let mut words = rest.split([' ', '\t']).filter(|w| !w.is_empty());
        let simple = |cmd: Command, words: &mut dyn Iterator<Item = &str>| {
            no_more(words, head).map(|()| cmd)
        };
        match head {
            "uci" => simple(Command::Uci, &mut words),
            "isready" => simple(Command::IsReady, &mut words),
            "stop" => simple(Command::Stop, &mut words),
            "quit" => simple(Command::Quit, &mut words),
            "show" => simple(Command::Show, &mut words),
            "legal" => simple(Command::Legal, &mut words),
            "setoption" => {
                if words.next() != Some("name") {
                    return Err(syntax("expected 'setoption name NAME value VALUE'"));
                }
                let name = words
                    .next()
                    .ok_or_else(|| syntax("the option name is missing"))?;
                if words.next() != Some("value") {
                    return Err(syntax(format!(
                        "expected 'value VALUE' after the option name '{name}'"
                    )));
                }
                let value = words
                    .next()
                    .ok_or_else(|| syntax("the option value is missing"))?;
                no_more(words, "the option value")?;
                Ok(Command::SetOption {
                    name: name.to_string(),
                    value: value.to_string(),
                })
            }
            "newgame" => {
                let game = words
                    .next()
                    .ok_or_else(|| syntax("expected 'newgame GAME SIZE'"))?;
                let game = GameKind::ALL
                    .into_iter()
                    .find(|g| g.name() == game)
                    .ok_or_else(|| {
                        bad_value(format!(
                            "'{game}' is not a game: expected oska, hexapawn or ctf"
                        ))
                    })?;
                let size = number(words.next(), "the size")?;
                no_more(words, "the size")?;
                Ok(Command::NewGame { game, size })
            }
            "position" => Self::parse_position(&mut words),
            "go" => {
                let kind = words.next().ok_or_else(|| {
                    syntax("expected 'go depth N', 'nodes N', 'movetime MS', 'wtime T btime T ...', 'infinite', 'perft N' or 'solve'")
                })?;
                let positive = |n: u64, what: &str| {
                    if n == 0 {
                        Err(bad_value(format!("{what} must be at least 1")))
                    } else {
                        Ok(n)
                    }
                };
                let go = match kind {
                    "depth" => {
                        let n: u32 = number(words.next(), "the depth")?;
                        positive(n.into(), "the depth")?;
                        Go::Depth(n)
                    }
                    "nodes" => Go::Nodes(positive(
                        number(words.next(), "the node count")?,
                        "the node count",
                    )?),
                    "movetime" => Go::MoveTime(positive(
                        number(words.next(), "the move time")?,
                        "the move time",
                    )?),
                    "perft" => Go::Perft(number(words.next(), "the perft depth")?),
                    "infinite" => Go::Infinite,
                    "solve" => Go::Solve,
                    "wtime" | "btime" | "winc" | "binc" | "movestogo" => {
                        Go::Clock(Clock::parse(kind, &mut words)?)
                    }
                    other => {
                        return Err(syntax(format!(
                            "'{other}': expected depth, nodes, movetime, wtime, infinite, perft or solve"
                        )));
                    }
                };
                no_more(words, "the go command")?;
                Ok(Command::Go(go))
            }
            other => Err(ProtocolError::new(
                ErrorCode::UnknownCommand,
                format!("'{}' is not a command", truncate(other, 40)),
            )),
        }
    }

    fn parse_position<'a>(
        words: &mut impl Iterator<Item = &'a str>,
    ) -> Result<Command, ProtocolError> {
        let (setup, in_moves) = Setup::read(words).map_err(|e| syntax(e.0))?;
        let mut moves = Vec::new();
        if in_moves {
            for w in words {
                moves.push(read_move(w, moves.len() + 1)?);
            }
            if moves.is_empty() {
                return Err(no_moves());
            }
        }
        Ok(Command::Position { setup, moves })
    }

    /// Whether the command changes the session state (refused with `busy` during a search).
    pub fn changes_state(&self) -> bool {
        matches!(
            self,
            Command::SetOption { .. }
                | Command::NewGame { .. }
                | Command::Position { .. }
                | Command::Go(_)
        )
    }
}

fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max).collect();
        t.push_str("...");
        t
    }
}

fn write_words(f: &mut fmt::Formatter<'_>, words: &[impl fmt::Display]) -> fmt::Result {
    for w in words {
        write!(f, " {w}")?;
    }
    Ok(())
}

/// The words after `position` (each preceded by a space).
fn write_position(f: &mut fmt::Formatter<'_>, setup: &Setup, moves: &[MoveText]) -> fmt::Result {
    write!(f, " {setup}")?;
    if !moves.is_empty() {
        f.write_str(" moves")?;
        write_words(f, moves)?;
    }
    Ok(())
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Uci => f.write_str("uci"),
            Command::IsReady => f.write_str("isready"),
            Command::SetOption { name, value } => write!(f, "setoption name {name} value {value}"),
            Command::NewGame { game, size } => write!(f, "newgame {game} {size}"),
            Command::Position { setup, moves } => {
                f.write_str("position")?;
                write_position(f, setup, moves)
            }
            Command::Go(go) => match go {
                Go::Depth(n) => write!(f, "go depth {n}"),
                Go::Nodes(n) => write!(f, "go nodes {n}"),
                Go::MoveTime(n) => write!(f, "go movetime {n}"),
                Go::Infinite => f.write_str("go infinite"),
                Go::Perft(n) => write!(f, "go perft {n}"),
                Go::Solve => f.write_str("go solve"),
                Go::Clock(c) => write!(f, "go {c}"),
            },
            Command::Stop => f.write_str("stop"),
            Command::Quit => f.write_str("quit"),
            Command::Show => f.write_str("show"),
            Command::Legal => f.write_str("legal"),
        }
    }
}

/// The `info depth ...` line of a completed search iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Plies searched.
    pub depth: u32,
    /// The score.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since `go`.
    pub time_ms: u64,
    /// Positions answered by a tablebase (printed as `tbhits N` only when not 0).
    pub tbhits: u64,
    /// The principal variation.
    pub pv: Vec<String>,
}

/// An `info` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// A completed iteration.
    Search(SearchInfo),
    /// `info trace TEXT`: one searched node (when the `Trace` option is on).
    Trace(String),
    /// `info string TEXT`: free text for humans.
    String(String),
    /// Any other `info` line (its text after `info`), which a GUI ignores: engines may add their
    /// own kinds. The text starts with a word other than `depth`, `trace` and `string`.
    Other(String),
}

/// The type and limits of an option, as listed after `uci`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// An integer between `min` and `max`.
    Spin {
        /// The default.
        default: i64,
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// `true` or `false`.
    Check {
        /// The default.
        default: bool,
    },
    /// One of a list of words, as UCI's `combo`: `type combo default D var V1 var V2 ...`.
    Combo {
        /// The default (one of `vars`).
        default: String,
        /// The allowed values, in order; at least one.
        vars: Vec<String>,
    },
    /// A word, as UCI's `string` (one word here): `type string default D`, `<empty>` for none.
    String {
        /// The default (`<empty>` when there is none).
        default: String,
    },
}

impl OptionKind {
    /// Reads the words after `type` of an `option` line (`spin default 16 min 1 max 4096`, ...),
    /// up to the end of the line.
    fn parse<'a>(mut words: impl Iterator<Item = &'a str>) -> Result<OptionKind, ProtocolError> {
        let kind = match words.next() {
            Some("spin") => {
                let mut vals = [0i64; 3];
                for (i, key) in ["default", "min", "max"].into_iter().enumerate() {
                    if words.next() != Some(key) {
                        return Err(syntax(format!("expected '{key}'")));
                    }
                    vals[i] = parse_int(words.next(), key)?;
                }
                OptionKind::Spin {
                    default: vals[0],
                    min: vals[1],
                    max: vals[2],
                }
            }
            Some("check") => {
                if words.next() != Some("default") {
                    return Err(syntax("expected 'default'"));
                }
                let default = match words.next() {
                    Some("true") => true,
                    Some("false") => false,
                    _ => return Err(syntax("a check default is true or false")),
                };
                OptionKind::Check { default }
            }
            Some("combo") => {
                if words.next() != Some("default") {
                    return Err(syntax("expected 'default'"));
                }
                let default = words
                    .next()
                    .ok_or_else(|| syntax("the combo default is missing"))?
                    .to_string();
                let mut vars = Vec::new();
                while let Some(w) = words.next() {
                    if w != "var" {
                        return Err(syntax(format!("unexpected '{w}': expected 'var VALUE'")));
                    }
                    let v = words
                        .next()
                        .ok_or_else(|| syntax("a value is missing after 'var'"))?;
                    vars.push(v.to_string());
                }
                if vars.is_empty() {
                    return Err(syntax("a combo option needs at least one 'var VALUE'"));
                }
                return Ok(OptionKind::Combo { default, vars });
            }
            Some("string") => {
                if words.next() != Some("default") {
                    return Err(syntax("expected 'default'"));
                }
                let default = words
                    .next()
                    .ok_or_else(|| syntax("the string default is missing (<empty> for none)"))?
                    .to_string();
                OptionKind::String { default }
            }
            _ => return Err(syntax("expected type spin, check, combo or string")),
        };
        no_more(words, "the option")?;
        Ok(kind)
    }
}

/// The words after `type` of an `option` line, as [`OptionKind::parse`] reads them.
impl fmt::Display for OptionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                for v in vars {
                    write!(f, " var {v}")?;
                }
                Ok(())
            }
            OptionKind::String { default } => write!(f, "string default {default}"),
        }
    }
}

/// An `option name NAME type ...` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    /// The name (one word).
    pub name: String,
    /// Its type and limits.
    pub kind: OptionKind,
}

/// The end of a game, as in `result white flag-past`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// The reason code (see `Reason::code`).
    pub reason: String,
}

/// A line from the engine to the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `id name TEXT`.
    IdName(String),
    /// `id author TEXT`.
    IdAuthor(String),
    /// `game NAME MIN MAX`: a supported game and its size range.
    Game {
        /// The game.
        game: GameKind,
        /// Smallest size.
        min: u32,
        /// Largest size.
        max: u32,
    },
    /// `option name ...`.
    Option(OptionDecl),
    /// `uciok`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `info ...`.
    Info(Info),
    /// `bestmove MOVE` (a move, or `pass`) or `bestmove none` (`None`).
    BestMove(Option<MoveText>),
    /// `result white|black|draw REASON`, or `result none` (only after `show`) while the game
    /// goes on.
    Result(Option<GameResult>),
    /// `perft MOVE COUNT`: one line per legal move of `go perft`.
    Perft {
        /// The first move.
        mv: String,
        /// Sequences starting with it.
        nodes: u64,
    },
    /// `nodes TOTAL`: the perft total.
    Nodes(u64),
    /// `board GAME SIZE BOARD SIDE [from SETUP moves M1 ...]`: the state, after `show`.
    Board {
        /// The game.
        game: GameKind,
        /// Its size.
        size: u32,
        /// The current board, `/`-joined.
        board: String,
        /// The side to move.
        side: Side,
        /// How the line began and the moves played since, when there are earlier boards:
        /// `position` with these words restores the line.
        from: Option<(Setup, Vec<MoveText>)>,
    },
    /// `legal M1 M2 ...` (nothing after `legal` when the game is over).
    Legal(Vec<String>),
    /// `error CODE MESSAGE`.
    Error {
        /// The code.
        code: ErrorCode,
        /// What was wrong.
        message: String,
    },
}

fn parse_side(word: Option<&str>) -> Result<Side, ProtocolError> {
    match word {
        Some("w") => Ok(Side::White),
        Some("b") => Ok(Side::Black),
        Some(w) => Err(syntax(format!("'{w}' is not a side: expected w or b"))),
        None => Err(syntax("the side is missing")),
    }
}

fn parse_game(word: Option<&str>) -> Result<GameKind, ProtocolError> {
    let w = word.ok_or_else(|| syntax("the game is missing"))?;
    GameKind::parse(w)
        .ok()
        .filter(|g| g.name() == w)
        .ok_or_else(|| bad_value(format!("'{w}' is not a game")))
}

fn parse_int(word: Option<&str>, what: &str) -> Result<i64, ProtocolError> {
    let w = word.ok_or_else(|| syntax(format!("{what} is missing")))?;
    w.parse()
        .map_err(|_| syntax(format!("'{w}': {what} must be an integer")))
}

fn rest_text(rest: &str, what: &str) -> Result<String, ProtocolError> {
    if rest.is_empty() {
        Err(syntax(format!("{what} is missing")))
    } else {
        Ok(rest.to_string())
    }
}

impl Reply {
    /// Reads one line written by an engine.
    pub fn parse(line: &str) -> Result<Reply, ProtocolError> {
        let line = line.trim_matches([' ', '\t', '\r', '\n']);
        let (head, rest) = split_word(line);
        let mut words = rest.split([' ', '\t']).filter(|w| !w.is_empty());
        let reply = match head {
            "id" => {
                let (key, text) = split_word(rest);
                match key {
                    "name" => Reply::IdName(rest_text(text, "the name")?),
                    "author" => Reply::IdAuthor(rest_text(text, "the author")?),
                    _ => return Err(syntax(format!("'id {key}': expected name or author"))),
                }
            }
            "game" => {
                let game = parse_game(words.next())?;
                let min = number(words.next(), "the least size")?;
                let max = number(words.next(), "the greatest size")?;
                no_more(words, "the sizes")?;
                Reply::Game { game, min, max }
            }
            "option" => {
                if words.next() != Some("name") {
                    return Err(syntax("expected 'option name NAME type ...'"));
                }
                let name = words
                    .next()
                    .ok_or_else(|| syntax("the option name is missing"))?
                    .to_string();
                if words.next() != Some("type") {
                    return Err(syntax("expected 'type' after the option name"));
                }
                let kind = OptionKind::parse(words)?;
                Reply::Option(OptionDecl { name, kind })
            }
            "uciok" => {
                no_more(words, head)?;
                Reply::UciOk
            }
            "readyok" => {
                no_more(words, head)?;
                Reply::ReadyOk
            }
            "info" => Reply::Info(Self::parse_info(rest)?),
            "bestmove" => {
                let mv = words
                    .next()
                    .ok_or_else(|| syntax("the best move is missing"))?;
                no_more(words, "the best move")?;
                if mv == "none" {
                    Reply::BestMove(None)
                } else {
                    Reply::BestMove(Some(read_move(mv, 1)?))
                }
            }
            "result" => {
                let who = words.next();
                let winner = match who {
                    Some("none") => {
                        no_more(words, "result none")?;
                        return Ok(Reply::Result(None));
                    }
                    Some("draw") => None,
                    other => Some(
                        parse_side(other.map(|w| match w {
                            "white" => "w",
                            "black" => "b",
                            _ => w,
                        }))
                        .map_err(|_| syntax("expected white, black, draw or none"))?,
                    ),
                };
                let reason = words
                    .next()
                    .ok_or_else(|| syntax("the reason is missing"))?
                    .to_string();
                no_more(words, "the reason")?;
                Reply::Result(Some(GameResult { winner, reason }))
            }
            "perft" => {
                let mv = check_move(words.next().unwrap_or(""), 1)?;
                let nodes = number(words.next(), "the count")?;
                no_more(words, "the count")?;
                Reply::Perft { mv, nodes }
            }
            "nodes" => {
                let n = number(words.next(), "the total")?;
                no_more(words, "the total")?;
                Reply::Nodes(n)
            }
            "board" => {
                let game = parse_game(words.next())?;
                let size = number(words.next(), "the size")?;
                let board = check_board(words.next().unwrap_or("?"))?;
                let side = parse_side(words.next())?;
                let from = match words.next() {
                    None => None,
                    Some("from") => match Command::parse_position(&mut words)? {
                        Command::Position { setup, moves } => Some((setup, moves)),
                        _ => unreachable!("parse_position gives a position"),
                    },
                    Some(w) => return Err(syntax(format!("unexpected '{w}': expected 'from'"))),
                };
                Reply::Board {
                    game,
                    size,
                    board,
                    side,
                    from,
                }
            }
            "legal" => {
                let mut moves = Vec::new();
                for w in words {
                    moves.push(check_move(w, moves.len() + 1)?);
                }
                Reply::Legal(moves)
            }
            "error" => {
                let (code, message) = split_word(rest);
                let code = ErrorCode::parse(code)
                    .ok_or_else(|| syntax(format!("'{code}' is not an error code")))?;
                Reply::Error {
                    code,
                    message: message.to_string(),
                }
            }
            other => {
                return Err(ProtocolError::new(
                    ErrorCode::UnknownCommand,
                    format!("'{}' is not a reply", truncate(other, 40)),
                ));
            }
        };
        Ok(reply)
    }

    fn parse_info(rest: &str) -> Result<Info, ProtocolError> {
        let (kind, text) = split_word(rest);
        match kind {
            "string" => return Ok(Info::String(text.to_string())),
            "trace" => return Ok(Info::Trace(text.to_string())),
            "depth" => {}
            "" => {
                return Err(syntax(
                    "an info line needs a kind: depth, trace, string or another",
                ));
            }
            _ => return Ok(Info::Other(rest.to_string())),
        }
        let mut words = text.split([' ', '\t']).filter(|w| !w.is_empty());
        let depth = number(words.next(), "the depth")?;
        let expect = |key: &str, words: &mut dyn Iterator<Item = &str>| {
            if words.next() == Some(key) {
                Ok(())
            } else {
                Err(syntax(format!("expected '{key}'")))
            }
        };
        expect("score", &mut words)?;
        let score = match words.next() {
            Some("cp") => Score::Cp(
                parse_int(words.next(), "the score")?
                    .try_into()
                    .map_err(|_| bad_value("the score is out of range"))?,
            ),
            Some("win") => Score::Win(number(words.next(), "the plies")?),
            Some("loss") => Score::Loss(number(words.next(), "the plies")?),
            Some("draw") => Score::Draw,
            _ => return Err(syntax("expected a score: cp X, win K, loss K or draw")),
        };
        expect("nodes", &mut words)?;
        let nodes = number(words.next(), "the nodes")?;
        expect("nps", &mut words)?;
        let nps = number(words.next(), "the nps")?;
        expect("time", &mut words)?;
        let time_ms = number(words.next(), "the time")?;
        let mut words = words.peekable();
        let tbhits = if words.peek() == Some(&"tbhits") {
            words.next();
            number(words.next(), "the tablebase hits")?
        } else {
            0
        };
        expect("pv", &mut words)?;
        let mut pv = Vec::new();
        for w in words {
            pv.push(check_move(w, pv.len() + 1)?);
        }
        Ok(Info::Search(SearchInfo {
            depth,
            score,
            nodes,
            nps,
            time_ms,
            tbhits,
            pv,
        }))
    }
}

fn text_after(f: &mut fmt::Formatter<'_>, head: &str, text: &str) -> fmt::Result {
    if text.is_empty() {
        f.write_str(head)
    } else {
        write!(f, "{head} {text}")
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::IdName(t) => write!(f, "id name {t}"),
            Reply::IdAuthor(t) => write!(f, "id author {t}"),
            Reply::Game { game, min, max } => write!(f, "game {game} {min} {max}"),
            Reply::Option(OptionDecl { name, kind }) => {
                write!(f, "option name {name} type {kind}")
            }
            Reply::UciOk => f.write_str("uciok"),
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::Info(Info::String(t)) => text_after(f, "info string", t),
            Reply::Info(Info::Trace(t)) => text_after(f, "info trace", t),
            Reply::Info(Info::Other(t)) => text_after(f, "info", t),
            Reply::Info(Info::Search(i)) => {
                write!(
                    f,
                    "info depth {} score {} nodes {} nps {} time {}",
                    i.depth, i.score, i.nodes, i.nps, i.time_ms
                )?;
                if i.tbhits > 0 {
                    write!(f, " tbhits {}", i.tbhits)?;
                }
                f.write_str(" pv")?;
                write_words(f, &i.pv)
            }
            Reply::BestMove(None) => f.write_str("bestmove none"),
            Reply::BestMove(Some(m)) => write!(f, "bestmove {m}"),
            Reply::Result(None) => f.write_str("result none"),
            Reply::Result(Some(r)) => {
                let who = r.winner.map_or("draw", |s| s.name());
                write!(f, "result {who} {}", r.reason)
            }
            Reply::Perft { mv, nodes } => write!(f, "perft {mv} {nodes}"),
            Reply::Nodes(n) => write!(f, "nodes {n}"),
            Reply::Board {
                game,
                size,
                board,
                side,
                from,
            } => {
                write!(f, "board {game} {size} {board} {}", side.letter())?;
                if let Some((setup, moves)) = from {
                    f.write_str(" from")?;
                    write_position(f, setup, moves)?;
                }
                Ok(())
            }
            Reply::Legal(moves) => {
                f.write_str("legal")?;
                write_words(f, moves)
            }
            Reply::Error { code, message } => {
                f.write_str("error ")?;
                text_after(f, code.as_str(), message)
            }
        }
    }
}

#[cfg(test)]
mod tests;
