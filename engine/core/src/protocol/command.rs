//! A line from the GUI to the engine: [`Command`], with `go`'s [`Go`] and [`Clock`].

use std::fmt;

use super::*;

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

    pub(super) fn parse_position<'a>(
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
