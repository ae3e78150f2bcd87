//! A game in progress, independent of which of the three games it is.
//!
//! [`GameState`] keeps the start line and every move played; the position after any number of
//! moves can be looked at (the move list's navigation). The rules come from [`boardgames_core::games`]
//! only: each position is an [`AnyLine`], reached through [`with_game!`].

use boardgames_core::games::format::{Format, parse_board, print_board};
use boardgames_core::games::notation::{move_name, parse_move};
use boardgames_core::games::setup::Setup;
use boardgames_core::games::{
    AnyLine, Game, GameKind, Layout, Line, Move, MoveList, Outcome, Piece, PositionError, Side,
};
use boardgames_core::record::{GameRecord, RecordResult, start_line};
use boardgames_core::with_game;

use crate::error::GameError;

/// One move of a line of moves looked at ahead (a principal variation), with the board after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The move.
    pub mv: Move,
    /// What stands on every square after it.
    pub pieces: Vec<Option<Piece>>,
}

/// A game: its start, the moves played, and the position shown.
#[derive(Clone)]
pub struct GameState {
    /// Whether the start is the standard start position of the size.
    standard: bool,
    /// `lines[i]` is the line after `i` moves; `lines[0]` is the start. All are of one game, each
    /// one move after the one before it.
    lines: Vec<AnyLine>,
    /// The moves played.
    moves: Vec<Move>,
}

impl std::fmt::Debug for GameState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "GameState({} {}, {} moves)",
            self.kind().name(),
            self.size(),
            self.len()
        )
    }
}

impl GameState {
    /// A game from its start.
    fn starting(line: impl Into<AnyLine>, standard: bool) -> GameState {
        GameState {
            standard,
            lines: vec![line.into()],
            moves: Vec::new(),
        }
    }

    /// The standard start of a game and size.
    pub fn new(kind: GameKind, size: usize) -> Result<GameState, PositionError> {
        kind.check_size(size)?;
        Ok(with_game!(kind, G => GameState::starting(Line::new(G::start(size)?), true)))
    }

    /// A game from a board typed in any seed format (a Capture the Flag history list included),
    /// with `side` to move.
    pub fn from_text(kind: GameKind, text: &str, side: Side) -> Result<GameState, PositionError> {
        Ok(with_game!(kind, G => {
            let parsed = parse_board::<G>(text.trim(), side)?;
            let standard = parsed.line.is_empty()
                && G::start(parsed.line.current().size()).ok() == Some(*parsed.line.current());
            GameState::starting(parsed.line, standard)
        }))
    }

    /// A game from what stands on every square (indexed as in [`Layout`]) with `side` to move,
    /// checked by the rules (the size, the piece counts, the flags); the error says what is wrong
    /// in plain words.
    pub fn from_cells(
        kind: GameKind,
        size: usize,
        cells: &[Option<Piece>],
        side: Side,
    ) -> Result<GameState, PositionError> {
        kind.check_size(size)?;
        Ok(with_game!(kind, G => {
            let squares = G::layout_of(size).squares();
            if cells.len() != squares {
                return Err(PositionError::Syntax(format!(
                    "{} squares given, but the board has {squares}",
                    cells.len()
                )));
            }
            let pos = G::from_cells(size, cells, side)?;
            let standard = G::start(size).ok() == Some(pos);
            GameState::starting(Line::new(pos), standard)
        }))
    }

    /// Replays a record by the rules.
    pub fn from_record(record: &GameRecord) -> Result<GameState, PositionError> {
        let mut state = with_game!(record.game, G => {
            let line = start_line::<G>(&record.start, record.size)?;
            GameState::starting(line, record.start == Setup::StartPos)
        });
        for (i, text) in record.moves.iter().enumerate() {
            let ply = state.len();
            let mv = state
                .parse_move(ply, text)
                .map_err(|e| PositionError::IllegalMove {
                    text: text.clone(),
                    why: format!("move {} of the record: {e}", i + 1),
                })?;
            state.push(ply, mv);
        }
        Ok(state)
    }

    /// The line after `ply` moves (the last one when the game has fewer).
    fn line(&self, ply: usize) -> &AnyLine {
        &self.lines[ply.min(self.len())]
    }

    /// Plays `mv`, which must be legal, after `ply` moves, dropping the moves that followed.
    fn push(&mut self, ply: usize, mv: Move) {
        self.truncate(ply);
        let mut next = self.lines[ply].clone();
        with_game!(l in &mut next => l.push(mv));
        self.lines.push(next);
        self.moves.push(mv);
    }

    /// The game.
    pub fn kind(&self) -> GameKind {
        self.lines[0].kind()
    }

    /// Its size.
    pub fn size(&self) -> usize {
        with_game!(l in &self.lines[0] => l.current().size())
    }

    /// The board's shape.
    pub fn layout(&self) -> &'static Layout {
        with_game!(l in &self.lines[0] => l.current().layout())
    }

    /// The number of moves played.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether no move has been played.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What stands on a square after `ply` moves.
    pub fn piece_at(&self, ply: usize, sq: usize) -> Option<Piece> {
        with_game!(l in self.line(ply) => l.current().piece_at(sq))
    }

    /// The side to move after `ply` moves.
    pub fn side_to_move(&self, ply: usize) -> Side {
        with_game!(l in self.line(ply) => l.current().side_to_move())
    }

    /// The legal moves after `ply` moves (empty when the game is over there).
    pub fn legal_moves(&self, ply: usize) -> Vec<Move> {
        let mut list = MoveList::new();
        with_game!(l in self.line(ply) => l.legal_moves(&mut list));
        list.as_slice().to_vec()
    }

    /// The outcome after `ply` moves, if the game is over there.
    pub fn outcome(&self, ply: usize) -> Option<Outcome> {
        with_game!(l in self.line(ply) => l.outcome())
    }

    /// Move `i` (from 0).
    pub fn move_at(&self, i: usize) -> Option<Move> {
        self.moves.get(i).copied()
    }

    /// The name of move `i` (from 0) in the protocol's notation.
    pub fn move_name(&self, i: usize) -> String {
        match self.moves.get(i) {
            Some(&mv) => with_game!(l in &self.lines[i] => move_name(l.current(), mv)),
            None => String::new(),
        }
    }

    /// Every move's name.
    pub fn move_names(&self) -> Vec<String> {
        (0..self.len()).map(|i| self.move_name(i)).collect()
    }

    /// A square's name (`c2`).
    pub fn square_name(&self, sq: usize) -> String {
        self.layout().square_name(sq)
    }

    /// Plays `mv` after `ply` moves, dropping the moves that followed. `mv` must be legal there
    /// (checked: an illegal move is refused).
    pub fn play(&mut self, ply: usize, mv: Move) -> Result<(), GameError> {
        let ply = ply.min(self.len());
        if !self.legal_moves(ply).contains(&mv) {
            return Err(GameError::IllegalMove);
        }
        self.push(ply, mv);
        Ok(())
    }

    /// Plays a move given in notation at the end of the game.
    pub fn play_text(&mut self, text: &str) -> Result<Move, PositionError> {
        let ply = self.len();
        let mv = self.parse_move(ply, text)?;
        self.push(ply, mv);
        Ok(mv)
    }

    /// Reads a move in notation, legal after `ply` moves.
    pub fn parse_move(&self, ply: usize, text: &str) -> Result<Move, PositionError> {
        with_game!(l in self.line(ply) => parse_move(l, text))
    }

    /// Plays `moves` (in notation) after `ply` moves without changing the game, and returns each
    /// move with the board after it; stops at the first move that is not legal.
    pub fn look_ahead(&self, ply: usize, moves: &[String]) -> Vec<Step> {
        with_game!(l in self.line(ply) => {
            let mut line = l.clone();
            let mut steps = Vec::new();
            for text in moves {
                let Ok(mv) = parse_move(&line, text) else {
                    break;
                };
                line.push(mv);
                let board = line.current();
                steps.push(Step {
                    mv,
                    pieces: (0..board.layout().squares())
                        .map(|sq| board.piece_at(sq))
                        .collect(),
                });
            }
            steps
        })
    }

    /// What stands on every square after `ply` moves.
    pub fn pieces(&self, ply: usize) -> Vec<Option<Piece>> {
        (0..self.layout().squares())
            .map(|sq| self.piece_at(ply, sq))
            .collect()
    }

    /// Keeps only the first `plies` moves.
    pub fn truncate(&mut self, plies: usize) {
        let plies = plies.min(self.len());
        self.moves.truncate(plies);
        self.lines.truncate(plies + 1);
    }

    /// The board after `ply` moves, written in a seed format.
    pub fn board_text(&self, ply: usize, format: &Format) -> String {
        with_game!(l in self.line(ply) => print_board(l.current(), format))
    }

    /// Where the game started, as the record format and the protocol write it.
    pub fn start(&self) -> Setup {
        if self.standard {
            return Setup::StartPos;
        }
        with_game!(l in &self.lines[0] => Setup::of(l))
    }

    /// The protocol's `position` set-up of the start.
    pub fn setup(&self) -> Setup {
        self.start()
    }

    /// The game as a record, with the players' names.
    pub fn record(&self, white: &str, black: &str) -> GameRecord {
        let end = self.outcome(self.len());
        let mut tags = Vec::new();
        if let Some(o) = end {
            tags.push(("Reason".to_string(), o.reason().code().to_string()));
        }
        GameRecord {
            game: self.kind(),
            size: self.size(),
            white: white.to_string(),
            black: black.to_string(),
            start: self.start(),
            moves: self.move_names(),
            result: end.map_or(RecordResult::Unfinished, RecordResult::from_outcome),
            tags,
        }
    }
}
