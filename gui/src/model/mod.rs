//! The game on the table, without pixels or processes: the game and the position shown, the
//! selection, the board's orientation, pause and failure, the status message, what the engines
//! reported and the records of an opened file. The panels read it; the app and the engine hub
//! change it through its methods. Nothing here draws or waits.

pub mod eval;

use std::path::Path;

use engine::games::format::Format;
use engine::games::{GameKind, Move, Side};
use engine::protocol::{Score, SearchInfo};
use engine::record::{GameRecord, parse_records};

pub use eval::{EngineView, SearchState, graph_points, score_text, white_view};

use crate::game::GameState;

/// Which engine view is the analysis engine's (0 and 1 are White's and Black's engines).
pub const ANALYSIS: usize = 2;

/// A side's name in the status and the panels.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

/// A player's engine process, as the engine hub last saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    /// The engine's name (its handshake's, or the program's until the handshake is done).
    pub name: String,
    /// Whether the handshake is done.
    pub ready: bool,
}

/// The game on the table and everything shown about it.
#[derive(Debug)]
pub struct Model {
    game: GameState,
    /// Bumped on every change of the game, so that stale engine answers are recognised.
    revision: u64,
    /// Bumped when the game is replaced (a new game, a position, a record).
    epoch: u64,
    view: usize,
    selected: Option<usize>,
    flipped: bool,
    paused: bool,
    halted: Option<String>,
    message: Option<(String, bool)>,
    /// What White's engine, Black's engine and the analysis engine last reported.
    views: [Option<EngineView>; 3],
    /// The last score reported for the position after each number of moves (White's view).
    evals: Vec<Option<Score>>,
    records: Vec<GameRecord>,
    seats: [Option<Seat>; 2],
    thinking: Option<Side>,
    moving_now: bool,
    analysing: bool,
}

impl Model {
    /// A new game of `kind` and `size` (its smallest size when `size` is not one of it, Oska 4
    /// when nothing else works).
    pub fn new(kind: GameKind, size: usize) -> Model {
        let game = GameState::new(kind, size)
            .or_else(|_| GameState::new(kind, kind.size_range().0))
            .unwrap_or_else(|_| GameState::new(GameKind::Oska, 4).expect("Oska 4 is a valid game"));
        Model {
            view: game.len(),
            game,
            revision: 0,
            epoch: 0,
            selected: None,
            flipped: false,
            paused: false,
            halted: None,
            message: None,
            views: [None, None, None],
            evals: Vec::new(),
            records: Vec::new(),
            seats: [None, None],
            thinking: None,
            moving_now: false,
            analysing: false,
        }
    }

    /// The game being played.
    pub fn game(&self) -> &GameState {
        &self.game
    }

    /// Changes with every change of the game.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Changes when the game is replaced.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// The number of moves shown (the position after them is on the board).
    pub fn view(&self) -> usize {
        self.view
    }

    /// The picked square.
    pub fn selected(&self) -> Option<usize> {
        self.selected
    }

    /// Whether the board is drawn upside down.
    pub fn flipped(&self) -> bool {
        self.flipped
    }

    /// Whether engine play is paused.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Why the game stopped on an engine's failure, if it did.
    pub fn halted(&self) -> Option<&str> {
        self.halted.as_deref()
    }

    /// The status message (text, whether it is an error).
    pub fn message(&self) -> Option<(&str, bool)> {
        self.message.as_ref().map(|(t, e)| (t.as_str(), *e))
    }

    /// What White's engine, Black's engine and the analysis engine last reported.
    pub fn engine_views(&self) -> &[Option<EngineView>; 3] {
        &self.views
    }

    /// The games of the file last opened.
    pub fn records(&self) -> &[GameRecord] {
        &self.records
    }

    /// White's and Black's engine processes.
    pub fn seats(&self) -> &[Option<Seat>; 2] {
        &self.seats
    }

    /// The side whose engine is thinking on the game's last position.
    pub fn thinking(&self) -> Option<Side> {
        self.thinking
    }

    /// Whether the thinking engine was asked to move now (`stop` sent, its answer awaited).
    pub fn moving_now(&self) -> bool {
        self.moving_now
    }

    /// Whether the analysis engine runs.
    pub fn analysing(&self) -> bool {
        self.analysing
    }

    /// Sets whether the analysis engine runs (the engine hub's word).
    pub fn set_analysing(&mut self, on: bool) {
        self.analysing = on;
    }

    /// Replaces the game (clears the marks, the reports and a failure; a pause stays).
    pub fn set_game(&mut self, game: GameState) {
        self.game = game;
        self.revision += 1;
        self.epoch += 1;
        self.view = self.game.len();
        self.selected = None;
        self.halted = None;
        self.views = [None, None, None];
        self.evals.clear();
    }

    /// Starts a new game of `kind` and `size`.
    pub fn new_game(&mut self, kind: GameKind, size: usize) -> Result<(), String> {
        let game =
            GameState::new(kind, size).map_err(|e| format!("cannot start that game: {e}"))?;
        self.set_game(game);
        self.message = None;
        Ok(())
    }

    /// Starts from command-line words `GAME SIZE [MOVE...]` (nothing: keep the game). Problems
    /// are shown in the status line; the moves up to a bad one are played.
    pub fn start_from_args(&mut self, args: &[String]) {
        let [game, size, moves @ ..] = args else {
            if !args.is_empty() {
                self.error("usage: gui [GAME SIZE [MOVE...]]".into());
            }
            return;
        };
        let kind = match GameKind::parse(game) {
            Ok(k) => k,
            Err(e) => return self.error(format!("command line: {e}")),
        };
        let Ok(size) = size.parse::<usize>() else {
            return self.error(format!("command line: size '{size}' is not a number"));
        };
        let mut state = match GameState::new(kind, size) {
            Ok(g) => g,
            Err(e) => return self.error(format!("command line: {e}")),
        };
        let mut bad = None;
        for m in moves {
            if let Err(e) = state.play_text(m) {
                bad = Some(format!("command line: move '{m}': {e}"));
                break;
            }
        }
        self.set_game(state);
        if let Some(e) = bad {
            self.error(e);
        }
    }

    /// Sets up a position typed in any seed format.
    pub fn set_position(&mut self, kind: GameKind, text: &str, side: Side) -> Result<(), String> {
        let game = GameState::from_text(kind, text, side).map_err(|e| e.to_string())?;
        self.set_game(game);
        Ok(())
    }

    /// Plays a move after the shown position (later moves are dropped).
    pub fn play(&mut self, mv: Move) -> Result<(), String> {
        self.game.play(self.view, mv)?;
        self.evals.truncate(self.view + 1);
        self.revision += 1;
        self.view = self.game.len();
        self.selected = None;
        Ok(())
    }

    /// Takes back the last move, and the engine's reply before it when a human plays against an
    /// engine (`engines`: whether White and Black are engines), so that a human is to move.
    pub fn takeback(&mut self, engines: [bool; 2]) {
        if self.game.is_empty() {
            return;
        }
        let human = |ply: usize| !engines[self.game.side_to_move(ply).index()];
        let mut n = self.game.len() - 1;
        if engines.contains(&false) {
            while n > 0 && !human(n) {
                n -= 1;
            }
        }
        self.game.truncate(n);
        self.evals.truncate(n + 1);
        self.revision += 1;
        self.view = n;
        self.selected = None;
        self.halted = None;
    }

    /// Shows the position after `ply` moves.
    pub fn go_to(&mut self, ply: usize) {
        self.view = ply.min(self.game.len());
        self.selected = None;
    }

    /// Pauses or resumes engine play. Resuming also restarts after an engine's failure and
    /// clears the failure's message.
    pub fn set_paused(&mut self, paused: bool) {
        self.paused = paused;
        if !paused {
            self.halted = None;
            if self.message.as_ref().is_some_and(|(_, err)| *err) {
                self.message = None;
            }
        }
    }

    /// Turns the board half a turn.
    pub fn flip(&mut self) {
        self.flipped = !self.flipped;
    }

    /// The board shown, in a seed format.
    pub fn board_text(&self, format: &Format) -> String {
        self.game.board_text(self.view, format)
    }

    /// Saves the game to a file in the record format, with these players' names.
    pub fn save(&self, path: &Path, white: &str, black: &str) -> Result<(), String> {
        std::fs::write(path, self.game.record(white, black).to_string())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Opens a record file: loads its first game, paused, and keeps the others for choosing.
    /// Returns how many games it holds.
    pub fn open(&mut self, path: &Path) -> Result<usize, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let records = parse_records(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let first = records
            .first()
            .ok_or_else(|| format!("{} holds no game", path.display()))?
            .clone();
        self.load_record(&first)?;
        self.records = records;
        Ok(self.records.len())
    }

    /// Loads a recorded game to replay it (paused, shown from its end).
    pub fn load_record(&mut self, record: &GameRecord) -> Result<(), String> {
        let game = GameState::from_record(record).map_err(|e| e.to_string())?;
        self.set_game(game);
        self.paused = true;
        Ok(())
    }

    /// Shows an error in the status line.
    pub fn error(&mut self, text: String) {
        self.message = Some((text, true));
    }

    /// Shows a note in the status line.
    pub fn note(&mut self, text: String) {
        self.message = Some((text, false));
    }

    /// Stops the game on an engine's failure: a human may move for that side until Resume.
    pub fn halt(&mut self, why: String) {
        let text = format!(
            "{why}. The game is stopped: a human can move for that side, or press Resume to try the engine again."
        );
        self.halted = Some(text.clone());
        self.error(text);
    }

    /// Whether a human may move in the shown position (`engines`: whether White and Black are
    /// engines).
    pub fn human_may_move(&self, engines: [bool; 2]) -> bool {
        let side = self.game.side_to_move(self.view);
        self.game.outcome(self.view).is_none()
            && (!engines[side.index()]
                || self.paused
                || self.halted.is_some()
                || self.view < self.game.len())
    }

    /// Whether passing is the only move in the shown position.
    pub fn pass_only(&self) -> bool {
        self.game.legal_moves(self.view) == [Move::PASS]
    }

    fn find_move(&self, from: usize, to: usize) -> Option<Move> {
        self.game
            .legal_moves(self.view)
            .into_iter()
            .find(|m| !m.is_pass() && usize::from(m.from) == from && usize::from(m.to) == to)
    }

    fn movable(&self, sq: usize) -> bool {
        self.game
            .legal_moves(self.view)
            .iter()
            .any(|m| !m.is_pass() && usize::from(m.from) == sq)
    }

    /// A click on a square: picks a piece that can move, plays the picked piece's move to a
    /// target, or drops the pick. Nothing happens when a human may not move.
    pub fn click(&mut self, sq: usize, engines: [bool; 2]) {
        if !self.human_may_move(engines) {
            return;
        }
        if let Some(m) = self.selected.and_then(|from| self.find_move(from, sq)) {
            let _ = self.play(m);
        } else if self.movable(sq) && self.selected != Some(sq) {
            self.selected = Some(sq);
        } else {
            self.selected = None;
        }
    }

    /// A piece dragged from one square to another: plays that move if it is legal.
    pub fn drag(&mut self, from: usize, to: usize, engines: [bool; 2]) {
        if !self.human_may_move(engines) {
            return;
        }
        match self.find_move(from, to) {
            Some(m) => {
                let _ = self.play(m);
            }
            None => self.selected = self.movable(from).then_some(from),
        }
    }

    /// Where the picked piece may go.
    pub fn targets(&self) -> Vec<usize> {
        let Some(from) = self.selected else {
            return Vec::new();
        };
        self.game
            .legal_moves(self.view)
            .into_iter()
            .filter(|m| !m.is_pass() && usize::from(m.from) == from)
            .map(|m| usize::from(m.to))
            .collect()
    }

    /// The best move an engine reports for the shown position (the analysis engine first, then
    /// the engine thinking on it), for the board's arrow. A failed engine's move is not offered.
    pub fn best_shown(&self) -> Option<Move> {
        [ANALYSIS, 0, 1]
            .into_iter()
            .filter_map(|i| self.views[i].as_ref())
            .filter(|v| v.ply() == self.view)
            .find_map(|v| v.best_move(&self.game))
    }

    /// The first moves of the shown position's analysis lines (the analysis engine's, else the
    /// engine thinking on it), best first: one arrow each on the board, thinner and paler down
    /// the list.
    pub fn lines_shown(&self) -> Vec<Move> {
        [ANALYSIS, 0, 1]
            .into_iter()
            .filter_map(|i| self.views[i].as_ref())
            .filter(|v| v.ply() == self.view)
            .map(|v| v.line_moves(&self.game))
            .find(|m| !m.is_empty())
            .unwrap_or_default()
    }

    /// The evaluation graph's points: (number of moves, White's-view score), one per move that
    /// has a score (or ends the game).
    pub fn graph_points(&self) -> Vec<(usize, Score)> {
        graph_points(&self.game, &self.evals)
    }

    /// Sets what the hub knows of a player's engine process.
    pub fn set_seat(&mut self, i: usize, seat: Option<Seat>) {
        self.seats[i] = seat;
    }

    /// Sets which side's engine thinks (and whether it was asked to move now).
    pub fn set_thinking(&mut self, side: Option<Side>, moving_now: bool) {
        self.thinking = side;
        self.moving_now = side.is_some() && moving_now;
    }

    /// Starts engine view `i` (a player's engine, or [`ANALYSIS`]) on the position after `ply`
    /// moves.
    pub fn start_search(&mut self, i: usize, title: String, ply: usize) {
        let ply = ply.min(self.game.len());
        let moves = self.game.move_names()[..ply].to_vec();
        let side = self.game.side_to_move(ply);
        self.views[i] = Some(EngineView::new(title, moves, side));
    }

    /// Names the engine of view `i` (shown next to its title).
    pub fn name_search(&mut self, i: usize, engine: String) {
        if let Some(v) = self.views[i].as_mut() {
            v.engine = engine;
        }
    }

    /// An `info depth` line of engine view `i`'s search; the best line's score feeds the graph.
    pub fn search_info(&mut self, i: usize, info: SearchInfo) {
        let Some(v) = self.views[i].as_mut() else {
            return;
        };
        if !v.record(info) {
            return;
        }
        let ply = v.ply();
        if let Some(score) = v.white_score() {
            if self.evals.len() <= ply {
                self.evals.resize(ply + 1, None);
            }
            self.evals[ply] = Some(score);
        }
    }

    /// Ends engine view `i`'s search in `state` (if it is running).
    pub fn finish_search(&mut self, i: usize, state: SearchState) {
        if let Some(v) = self.views[i].as_mut() {
            v.finish(state);
        }
    }

    fn set_search_state(&mut self, i: usize, state: SearchState) {
        if let Some(v) = self.views[i].as_mut() {
            v.state = state;
        }
    }

    /// Forgets engine view `i`.
    pub fn clear_search(&mut self, i: usize) {
        self.views[i] = None;
    }

    /// Plays a player's engine's answer, given on the game's revision `revision` (a stale one
    /// is ignored). `best` is its move (`None`: `bestmove none`), `said` the last `info string`
    /// of its search, given as the reason when there is no move. The view follows the game
    /// when it showed its end.
    pub fn engine_move(
        &mut self,
        side: Side,
        revision: u64,
        best: Option<&str>,
        said: Option<&str>,
    ) {
        if revision != self.revision {
            self.finish_search(side.index(), SearchState::Stopped);
            return;
        }
        let who = format!("{}'s engine", side_name(side));
        let follow = self.view == self.game.len();
        match best {
            None => {
                let why = match said {
                    Some(text) => format!("{who} gave no move in a game that is not over ({text})"),
                    None => format!("{who} gave no move in a game that is not over"),
                };
                self.set_search_state(side.index(), SearchState::Failed);
                self.halt(why);
            }
            Some(text) => match self.game.play_text(text) {
                Ok(_) => {
                    self.set_search_state(side.index(), SearchState::Done);
                    self.revision += 1;
                    if follow {
                        self.view = self.game.len();
                        self.selected = None;
                    }
                }
                Err(e) => {
                    self.set_search_state(side.index(), SearchState::Failed);
                    self.halt(format!("{who} played an illegal move '{text}': {e}"));
                }
            },
        }
    }
}

#[cfg(test)]
mod tests;
