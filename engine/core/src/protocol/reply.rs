//! A line from the engine to the GUI: [`Reply`].

use std::fmt;

use super::*;

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
        /// The current board (written `/`-joined).
        board: SetupBoard,
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
            // Of another form, it is an engine's own kind like any other.
            "nodes" => {
                return Ok(ProgressInfo::parse(rest)
                    .map_or_else(|| Info::Other(rest.to_string()), Info::Progress));
            }
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
        let mut words = words.peekable();
        let multipv = if words.peek() == Some(&"multipv") {
            words.next();
            let k = number(words.next(), "the line number")?;
            if k == 0 {
                return Err(bad_value("multipv counts lines from 1"));
            }
            Some(k)
        } else {
            None
        };
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
            multipv,
            score,
            nodes,
            nps,
            time_ms,
            tbhits,
            pv,
        }))
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
            Reply::Info(Info::Progress(p)) => write!(f, "info {p}"),
            Reply::Info(Info::Search(i)) => {
                write!(f, "info depth {}", i.depth)?;
                if let Some(k) = i.multipv {
                    write!(f, " multipv {k}")?;
                }
                write!(
                    f,
                    " score {} nodes {} nps {} time {}",
                    i.score, i.nodes, i.nps, i.time_ms
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
