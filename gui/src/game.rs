//! A game in progress, independent of which of the three games it is.
//!
//! [`GameState`] keeps the start line and every move played; the position after any number of
//! moves can be looked at (the move list's navigation). The rules come from [`engine::games`]
//! only, through a small object-safe trait implemented for every [`Game`].

use engine::games::format::{Format, parse_board, print_board};
use engine::games::notation::{move_name, parse_move};
use engine::games::setup::Setup;
use engine::games::{
    Game, GameKind, Layout, Line, Move, MoveList, Outcome, Piece, PositionError, Side,
};
use engine::record::{GameRecord, RecordResult, start_line};
use engine::with_game;

/// The plays of one game with its positions after every move.
struct Plays<G: Game> {
    /// Whether the start is the standard start position of the size.
    standard: bool,
    /// `lines[i]` is the line after `i` moves; `lines[0]` is the start.
    lines: Vec<Line<G>>,
    /// The moves played.
    moves: Vec<Move>,
}

/// What the GUI needs from a game, without its type.
trait AnyPlays: Send {
    fn kind(&self) -> GameKind;
    fn size(&self) -> usize;
    fn layout(&self) -> &'static Layout;
    fn len(&self) -> usize;
    fn piece_at(&self, ply: usize, sq: usize) -> Option<Piece>;
    fn side_to_move(&self, ply: usize) -> Side;
    fn legal_moves(&self, ply: usize) -> Vec<Move>;
    fn outcome(&self, ply: usize) -> Option<Outcome>;
    fn move_at(&self, i: usize) -> Move;
    fn move_name(&self, i: usize) -> String;
    fn square_name(&self, sq: usize) -> String;
    fn play(&mut self, ply: usize, mv: Move);
    fn truncate(&mut self, plies: usize);
    fn board_text(&self, ply: usize, format: &Format) -> String;
    fn start(&self) -> Setup;
    fn parse_move(&self, ply: usize, text: &str) -> Result<Move, PositionError>;
    fn after(&self, ply: usize, moves: &[String]) -> Vec<Step>;
}

impl<G: Game> AnyPlays for Plays<G> {
    fn kind(&self) -> GameKind {
        G::KIND
    }
    fn size(&self) -> usize {
        self.lines[0].current().size()
    }
    fn layout(&self) -> &'static Layout {
        self.lines[0].current().layout()
    }
    fn len(&self) -> usize {
        self.moves.len()
    }
    fn piece_at(&self, ply: usize, sq: usize) -> Option<Piece> {
        self.lines[ply].current().piece_at(sq)
    }
    fn side_to_move(&self, ply: usize) -> Side {
        self.lines[ply].current().side_to_move()
    }
    fn legal_moves(&self, ply: usize) -> Vec<Move> {
        let mut list = MoveList::new();
        self.lines[ply].legal_moves(&mut list);
        list.as_slice().to_vec()
    }
    fn outcome(&self, ply: usize) -> Option<Outcome> {
        self.lines[ply].outcome()
    }
    fn move_at(&self, i: usize) -> Move {
        self.moves[i]
    }
    fn move_name(&self, i: usize) -> String {
        move_name(self.lines[i].current(), self.moves[i])
    }
    fn square_name(&self, sq: usize) -> String {
        self.layout().square_name(sq)
    }
    fn play(&mut self, ply: usize, mv: Move) {
        self.truncate(ply);
        let mut next = self.lines[ply].clone();
        next.push(mv);
        self.lines.push(next);
        self.moves.push(mv);
    }
    fn truncate(&mut self, plies: usize) {
        self.moves.truncate(plies);
        self.lines.truncate(plies + 1);
    }
    fn board_text(&self, ply: usize, format: &Format) -> String {
        print_board(self.lines[ply].current(), format)
    }
    fn start(&self) -> Setup {
        if self.standard {
            return Setup::StartPos;
        }
        Setup::of(&self.lines[0])
    }
    fn parse_move(&self, ply: usize, text: &str) -> Result<Move, PositionError> {
        parse_move(&self.lines[ply], text)
    }
    fn after(&self, ply: usize, moves: &[String]) -> Vec<Step> {
        let mut line = self.lines[ply].clone();
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
    }
}

/// One move of a line of moves looked at ahead (a principal variation), with the board after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The move.
    pub mv: Move,
    /// What stands on every square after it.
    pub pieces: Vec<Option<Piece>>,
}

fn boxed<G: Game>(line: Line<G>, standard: bool) -> Box<dyn AnyPlays> {
    Box::new(Plays {
        standard,
        lines: vec![line],
        moves: Vec::new(),
    })
}

/// A game: its start, the moves played, and the position shown.
pub struct GameState {
    plays: Box<dyn AnyPlays>,
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
    /// The standard start of a game and size.
    pub fn new(kind: GameKind, size: usize) -> Result<GameState, PositionError> {
        kind.check_size(size)?;
        let plays = with_game!(kind, G => boxed(Line::new(G::start(size)?), true));
        Ok(GameState { plays })
    }

    /// A game from a board typed in any seed format (a Capture the Flag history list included),
    /// with `side` to move.
    pub fn from_text(kind: GameKind, text: &str, side: Side) -> Result<GameState, PositionError> {
        let plays = with_game!(kind, G => {
            let parsed = parse_board::<G>(text.trim(), side)?;
            let standard = parsed.line.is_empty()
                && G::start(parsed.line.current().size()).ok() == Some(*parsed.line.current());
            boxed(parsed.line, standard)
        });
        Ok(GameState { plays })
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
        let plays = with_game!(kind, G => {
            let squares = G::layout_of(size).squares();
            if cells.len() != squares {
                return Err(PositionError::Syntax(format!(
                    "{} squares given, but the board has {squares}",
                    cells.len()
                )));
            }
            let pos = G::from_cells(size, cells, side)?;
            let standard = G::start(size).ok() == Some(pos);
            boxed(Line::new(pos), standard)
        });
        Ok(GameState { plays })
    }

    /// Replays a record by the rules.
    pub fn from_record(record: &GameRecord) -> Result<GameState, PositionError> {
        let mut state = with_game!(record.game, G => {
            let line = start_line::<G>(&record.start, record.size)?;
            GameState { plays: boxed(line, record.start == Setup::StartPos) }
        });
        for (i, text) in record.moves.iter().enumerate() {
            let ply = state.len();
            let mv = state
                .plays
                .parse_move(ply, text)
                .map_err(|e| PositionError::IllegalMove {
                    text: text.clone(),
                    why: format!("move {} of the record: {e}", i + 1),
                })?;
            state.plays.play(ply, mv);
        }
        Ok(state)
    }

    /// The game.
    pub fn kind(&self) -> GameKind {
        self.plays.kind()
    }

    /// Its size.
    pub fn size(&self) -> usize {
        self.plays.size()
    }

    /// The board's shape.
    pub fn layout(&self) -> &'static Layout {
        self.plays.layout()
    }

    /// The number of moves played.
    pub fn len(&self) -> usize {
        self.plays.len()
    }

    /// Whether no move has been played.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What stands on a square after `ply` moves.
    pub fn piece_at(&self, ply: usize, sq: usize) -> Option<Piece> {
        self.plays.piece_at(ply.min(self.len()), sq)
    }

    /// The side to move after `ply` moves.
    pub fn side_to_move(&self, ply: usize) -> Side {
        self.plays.side_to_move(ply.min(self.len()))
    }

    /// The legal moves after `ply` moves (empty when the game is over there).
    pub fn legal_moves(&self, ply: usize) -> Vec<Move> {
        self.plays.legal_moves(ply.min(self.len()))
    }

    /// The outcome after `ply` moves, if the game is over there.
    pub fn outcome(&self, ply: usize) -> Option<Outcome> {
        self.plays.outcome(ply.min(self.len()))
    }

    /// Move `i` (from 0).
    pub fn move_at(&self, i: usize) -> Option<Move> {
        (i < self.len()).then(|| self.plays.move_at(i))
    }

    /// The name of move `i` (from 0) in the protocol's notation.
    pub fn move_name(&self, i: usize) -> String {
        if i < self.len() {
            self.plays.move_name(i)
        } else {
            String::new()
        }
    }

    /// Every move's name.
    pub fn move_names(&self) -> Vec<String> {
        (0..self.len()).map(|i| self.move_name(i)).collect()
    }

    /// A square's name (`c2`).
    pub fn square_name(&self, sq: usize) -> String {
        self.plays.square_name(sq)
    }

    /// Plays `mv` after `ply` moves, dropping the moves that followed. `mv` must be legal there
    /// (checked: an illegal move is refused).
    pub fn play(&mut self, ply: usize, mv: Move) -> Result<(), String> {
        let ply = ply.min(self.len());
        if !self.legal_moves(ply).contains(&mv) {
            return Err("that move is not legal here".into());
        }
        self.plays.play(ply, mv);
        Ok(())
    }

    /// Plays a move given in notation at the end of the game.
    pub fn play_text(&mut self, text: &str) -> Result<Move, PositionError> {
        let ply = self.len();
        let mv = self.plays.parse_move(ply, text)?;
        self.plays.play(ply, mv);
        Ok(mv)
    }

    /// Reads a move in notation, legal after `ply` moves.
    pub fn parse_move(&self, ply: usize, text: &str) -> Result<Move, PositionError> {
        self.plays.parse_move(ply.min(self.len()), text)
    }

    /// Plays `moves` (in notation) after `ply` moves without changing the game, and returns each
    /// move with the board after it; stops at the first move that is not legal.
    pub fn look_ahead(&self, ply: usize, moves: &[String]) -> Vec<Step> {
        self.plays.after(ply.min(self.len()), moves)
    }

    /// What stands on every square after `ply` moves.
    pub fn pieces(&self, ply: usize) -> Vec<Option<Piece>> {
        (0..self.layout().squares())
            .map(|sq| self.piece_at(ply, sq))
            .collect()
    }

    /// Keeps only the first `plies` moves.
    pub fn truncate(&mut self, plies: usize) {
        self.plays.truncate(plies.min(self.len()));
    }

    /// The board after `ply` moves, written in a seed format.
    pub fn board_text(&self, ply: usize, format: &Format) -> String {
        self.plays.board_text(ply.min(self.len()), format)
    }

    /// Where the game started, as the record format and the protocol write it.
    pub fn start(&self) -> Setup {
        self.plays.start()
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
