//! The game on the table, without pixels or processes: the game and the position shown, the
//! selection, the board's orientation, pause and failure, the status message, what the engines
//! reported and the records of an opened file. The panels read it; the app and the engine hub
//! change it through its methods. Nothing here draws or waits.

pub mod clock;
pub mod eval;
pub mod players;
pub mod variations;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use boardgames_core::clock::TimeControl;

use boardgames_core::games::format::Format;
use boardgames_core::games::{GameKind, Move, Outcome, Side};
use boardgames_core::protocol::{Go, SearchInfo};
use boardgames_core::record::{GameRecord, RecordResult, parse_records};
use boardgames_core::score::Score;

pub use clock::{Clocks, clock_text};

pub use eval::{EngineView, SearchState, graph_points, score_text, white_view};
pub use players::{PLAYER_TAG, Players};
pub use variations::{MoveTree, NodeId, ROOT};

use crate::error::{FileError, GameError, SessionError};
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

/// The end of a game in the GUI's words: "White wins: ..." or "Draw: ...", the side named as
/// everywhere else in the window.
pub fn outcome_text(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Win(side, why) => format!("{} wins: {}", side_name(*side), why.describe()),
        Outcome::Draw(why) => format!("Draw: {}", why.describe()),
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

/// The tag of a record that holds a variation: the moves from the start to the variation's end,
/// separated by blanks (one tag per variation, in the tree's order).
pub const VARIATION_TAG: &str = "Variation";

/// The tag of a record that gives the game's time control, as `arena`'s `tc=` writes it.
pub const TIME_CONTROL_TAG: &str = "TimeControl";

/// The game on the table and everything shown about it.
///
/// A number of plies said in moves as the move table numbers them (White's and Black's
/// replies make one move): "19 moves" for 38 plies or 37, "1 move" for 1 or 2.
pub fn moves_text(plies: usize) -> String {
    let n = plies.div_ceil(2);
    format!("{n} move{}", if n == 1 { "" } else { "s" })
}

/// The moves played form a tree ([`MoveTree`]); the game ([`Model::game`]) is the line of that
/// tree that goes through the shown move: the path to it, then the main continuation after it.
/// The view is a number of moves along that line, and the engines play at its end.
#[derive(Debug)]
pub struct Model {
    game: GameState,
    /// Every move played, as a tree; it holds the evaluations.
    tree: MoveTree,
    /// The game's nodes: `line[i]` is the node after `i` moves (`line[0]` is the root).
    line: Vec<NodeId>,
    /// Bumped on every change of the game, so that stale engine answers are recognised.
    revision: u64,
    /// Bumped when the game is replaced (a new game, a position, a record).
    epoch: u64,
    view: usize,
    selected: Option<usize>,
    flipped: bool,
    paused: bool,
    halted: Option<String>,
    /// The side whose engine failed, when one did.
    halted_side: Option<Side>,
    message: Option<(String, bool)>,
    /// Whether the message only says that engine play is paused (gone once it is not).
    pause_note: bool,
    /// Who plays each side now (the set-up's names), and who played the game's moves.
    playing: [String; 2],
    players: Players,
    /// What White's engine, Black's engine and the analysis engine last reported.
    views: [Option<EngineView>; 3],
    records: Vec<GameRecord>,
    seats: [Option<Seat>; 2],
    thinking: Option<Side>,
    moving_now: bool,
    analysing: bool,
    /// The time control of the next game set up (`None`: no clocks).
    time_control: Option<TimeControl>,
    /// The game's clocks, when it has a time control.
    clocks: Option<Clocks>,
    /// The game's line when the clocks last looked at it.
    clock_line: Vec<NodeId>,
    /// Whether the tree of moves changed since the game was set up, saved or opened.
    unsaved: bool,
    /// The file the game was last saved to or opened from.
    file: Option<PathBuf>,
    /// The last unsaved game that was replaced, to bring back once.
    shelved: Option<Box<Shelved>>,
}

/// A game put aside when it was replaced with moves not saved: everything needed to bring it
/// back move for move.
#[derive(Debug)]
struct Shelved {
    game: GameState,
    tree: MoveTree,
    line: Vec<NodeId>,
    view: usize,
    clocks: Option<Clocks>,
    file: Option<PathBuf>,
    records: Vec<GameRecord>,
    players: Players,
}

impl Model {
    /// A new game of `kind` and `size` (its smallest size when `size` is not one of it, Oska 4
    /// when nothing else works).
    pub fn new(kind: GameKind, size: usize) -> Model {
        let game = GameState::new(kind, size)
            .or_else(|_| GameState::new(kind, kind.size_range().0))
            .unwrap_or_else(|_| GameState::new(GameKind::Oska, 4).expect("Oska 4 is a valid game"));
        let mut model = Model {
            view: game.len(),
            game,
            tree: MoveTree::new(),
            line: vec![ROOT],
            revision: 0,
            epoch: 0,
            selected: None,
            flipped: false,
            paused: false,
            halted: None,
            halted_side: None,
            message: None,
            pause_note: false,
            playing: ["human".into(), "human".into()],
            players: Players::default(),
            views: [None, None, None],
            records: Vec::new(),
            seats: [None, None],
            thinking: None,
            moving_now: false,
            analysing: false,
            time_control: None,
            clocks: None,
            clock_line: vec![ROOT],
            unsaved: false,
            file: None,
            shelved: None,
        };
        model.rebuild_tree();
        model
    }

    /// Makes the tree the game's moves alone.
    fn rebuild_tree(&mut self) {
        self.tree = MoveTree::new();
        self.line = vec![ROOT];
        for i in 0..self.game.len() {
            if let Some(mv) = self.game.move_at(i) {
                let id = self.tree.add(self.line[i], mv, &self.game.move_name(i));
                self.line.push(id);
            }
        }
    }

    /// The tree of every move played.
    pub fn tree(&self) -> &MoveTree {
        &self.tree
    }

    /// The game's nodes in the tree: `line()[i]` is the node after `i` moves.
    pub fn line(&self) -> &[NodeId] {
        &self.line
    }

    /// The node shown on the board.
    pub fn shown_node(&self) -> NodeId {
        self.line[self.view]
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

    /// Sets the time control of the games set up from now on (`None`: no clocks). The game
    /// on the table keeps its clocks.
    pub fn set_time_control(&mut self, tc: Option<TimeControl>) {
        self.time_control = tc;
    }

    /// The game's clocks, when it has a time control.
    pub fn clocks(&self) -> Option<&Clocks> {
        self.clocks.as_ref()
    }

    /// The side that lost on time.
    pub fn lost_on_time(&self) -> Option<Side> {
        self.clocks.as_ref().and_then(Clocks::flagged)
    }

    /// Whether the game has ended, by the rules or on time.
    pub fn over(&self) -> bool {
        self.game.outcome(self.game.len()).is_some() || self.lost_on_time().is_some()
    }

    /// Brings the clocks up to `now`: a move added at the game's end since the last look is
    /// charged to its mover (with the increment); any other change of the game's line (a
    /// takeback, another variation) only stops the running clock. A side whose time ran out
    /// loses. Then the clock of the side to move at the game's end runs, unless the game is
    /// over, paused or stopped by an engine's failure. Called after every change and every
    /// frame.
    pub fn tick_clocks(&mut self, now: Instant) {
        let Some(c) = self.clocks.as_mut() else {
            return;
        };
        if self.line != self.clock_line {
            let before = self.clock_line.len();
            if self.line.len() == before + 1 && self.line.starts_with(&self.clock_line) {
                c.moved(self.game.side_to_move(before - 1), now);
            } else {
                c.stop(now);
            }
            self.clock_line.clone_from(&self.line);
        }
        let end = self.game.len();
        let live = c.flag(now).is_none()
            && !self.paused
            && self.halted.is_none()
            && self.game.outcome(end).is_none();
        let side = self.game.side_to_move(end);
        if !live || c.running() != Some(side) {
            c.stop(now);
        }
        if live {
            c.start(side, now);
        }
    }

    /// The `go` of the side to move at the game's end on the clocks at `now` (`None`: the game
    /// has no clocks).
    pub fn clock_go(&self, now: Instant) -> Option<Go> {
        let side = self.game.side_to_move(self.game.len());
        Some(Go::Clock(self.clocks.as_ref()?.go(side, now)))
    }

    /// When the shown clocks next change (for the next repaint); `None` when none runs.
    pub fn clocks_change_in(&self, now: Instant) -> Option<Duration> {
        self.clocks.as_ref()?.next_change(now)
    }

    /// Replaces the game (clears the marks, the reports and a failure; a pause stays).
    /// An unsaved game ([`Model::unsaved`]) is put aside first, to be brought back once
    /// ([`Model::bring_back`]); the new game counts as saved until a move changes it.
    pub fn set_game(&mut self, game: GameState) {
        if self.unsaved() {
            self.shelved = Some(Box::new(self.shelve(Instant::now())));
        }
        self.unsaved = false;
        self.file = None;
        self.game = game;
        self.revision += 1;
        self.epoch += 1;
        self.view = self.game.len();
        self.selected = None;
        self.halted = None;
        self.halted_side = None;
        self.players = Players::default();
        self.views = [None, None, None];
        self.rebuild_tree();
        self.clocks = self.time_control.map(Clocks::new);
        self.clock_line = self.line.clone();
    }

    /// Replaces the game on the table with `game` and says so in the status line: how many
    /// moves were lost, and `what` happens now.
    pub fn replace_game(&mut self, game: GameState, what: &str) {
        let lost = match self.game.len() {
            0 => String::new(),
            n => format!(" (its {} are gone)", moves_text(n)),
        };
        self.set_game(game);
        self.note(format!("The game on the table was replaced{lost}: {what}."));
    }

    /// Starts a new game of `kind` and `size`; engine play resumes (a pause of the game before
    /// is not this one's).
    pub fn new_game(&mut self, kind: GameKind, size: usize) -> Result<(), GameError> {
        let game = GameState::new(kind, size).map_err(GameError::Start)?;
        self.set_game(game);
        self.set_paused(false);
        self.message = None;
        Ok(())
    }

    /// Starts from command-line words `GAME SIZE [MOVE...]` (nothing: keep the game), with
    /// engine play running and no message of the game it replaced. Problems are shown in the
    /// status line; the moves up to a bad one are played.
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
        self.set_paused(false);
        self.message = None;
        if let Some(e) = bad {
            self.error(e);
        }
    }

    /// Sets up a position typed in any seed format.
    pub fn set_position(
        &mut self,
        kind: GameKind,
        text: &str,
        side: Side,
    ) -> Result<(), GameError> {
        let game = GameState::from_text(kind, text, side)?;
        self.set_game(game);
        Ok(())
    }

    /// Plays a move after the shown position. A move played there before is gone to; another
    /// one makes a new variation (the moves that followed stay in the tree), and the game
    /// becomes its line.
    pub fn play(&mut self, mv: Move) -> Result<(), GameError> {
        let at = self.line[self.view];
        if let Some(c) = self.tree.child(at, mv) {
            if self.line.get(self.view + 1) == Some(&c) {
                self.view += 1;
                self.selected = None;
            } else {
                self.switch_to(c);
            }
            return Ok(());
        }
        self.append(self.view, mv)?;
        self.view = self.game.len();
        self.selected = None;
        Ok(())
    }

    /// Plays `mv` after `ply` moves of the game, as a new node of the tree; the game becomes
    /// the line ending with it.
    fn append(&mut self, ply: usize, mv: Move) -> Result<(), GameError> {
        self.game.play(ply, mv)?;
        let side = self.game.side_to_move(ply);
        self.players.moved(ply, side, &self.playing[side.index()]);
        let id = self.tree.add(self.line[ply], mv, &self.game.move_name(ply));
        self.line.truncate(ply + 1);
        self.line.push(id);
        self.revision += 1;
        self.unsaved = true;
        Ok(())
    }

    /// Makes `new` (a line of the tree from the root) the game, replaying only the moves after
    /// the part it shares with the game, and shows the position after `view` moves of it.
    fn set_line(&mut self, new: Vec<NodeId>, view: usize) {
        if new != self.line {
            let common = self
                .line
                .iter()
                .zip(&new)
                .take_while(|(a, b)| a == b)
                .count()
                .max(1);
            self.game.truncate(common - 1);
            self.line.truncate(common);
            for &id in &new[common..] {
                let ply = self.game.len();
                // The tree holds only moves that were legal when played.
                match self.tree.mv(id).map(|mv| self.game.play(ply, mv)) {
                    Some(Ok(())) => self.line.push(id),
                    _ => break,
                }
            }
            self.revision += 1;
        }
        self.view = view.min(self.game.len());
        self.selected = None;
    }

    /// Shows the node `id`: the game becomes the line through it.
    fn switch_to(&mut self, id: NodeId) {
        let line = self.tree.line_through(id);
        self.set_line(line, self.tree.depth(id));
    }

    /// Shows the position at node `id` of the tree (a move of the game or of a variation). On
    /// the game's line only the view moves; elsewhere the game becomes the line through it.
    pub fn go_to_node(&mut self, id: NodeId) {
        if !self.tree.contains(id) {
            return;
        }
        match self.line.iter().position(|&n| n == id) {
            Some(ply) => self.go_to(ply),
            None => self.switch_to(id),
        }
    }

    /// Makes the line through node `id` the main line (the one saved as the game's moves).
    pub fn promote(&mut self, id: NodeId) {
        if self.tree.contains(id) {
            self.tree.promote(id);
            self.unsaved = true;
        }
    }

    /// Deletes node `id` and every move after it (the start cannot be deleted). When the game
    /// went through it, the game becomes the line through the move before it, shown there.
    pub fn delete(&mut self, id: NodeId) {
        if !self.tree.contains(id) {
            return;
        }
        let Some(parent) = self.tree.delete(id) else {
            return;
        };
        self.unsaved = true;
        if let Some(k) = self.line.iter().position(|&n| n == id) {
            let view = self.view.min(k - 1);
            self.set_line(self.tree.line_through(parent), view);
        }
    }

    /// Takes back the last move of the game (the line shown), and the engine's reply before it
    /// when a human plays against an engine (`engines`: whether White and Black are engines), so
    /// that a human is to move. The moves taken back leave the tree, with the variations that
    /// branch off after them; when another move was played at that place, the game continues
    /// with it.
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
        self.tree.delete(self.line[n + 1]);
        self.unsaved = true;
        self.set_line(self.tree.line_through(self.line[n]), n);
        self.halted = None;
    }

    /// Shows the position after `ply` moves of the game (the line shown).
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
            self.halted_side = None;
            if self.pause_note || self.message.as_ref().is_some_and(|(_, err)| *err) {
                self.message = None;
            }
        }
    }

    /// Forgets an engine's failure, its red message and its failed panel (no engine plays any
    /// more, or the failed side has another player); a pause stays.
    pub fn clear_failure(&mut self) {
        if let Some(side) = self.halted_side.take() {
            self.views[side.index()] = None;
        }
        if self.halted.take().is_some() && self.message.as_ref().is_some_and(|(_, err)| *err) {
            self.message = None;
        }
    }

    /// Says who plays each side now (the set-up's names: an engine's, or "human"); the moves
    /// played from now on are theirs ([`Model::players`]). When the side whose engine failed
    /// gets another player, the failure is forgotten ([`Model::clear_failure`]).
    pub fn set_playing(&mut self, names: [String; 2]) {
        if let Some(side) = self.halted_side
            && names[side.index()] != self.playing[side.index()]
        {
            self.clear_failure();
        }
        self.playing = names;
    }

    /// Who played the game's moves: the players at its start and each change.
    pub fn players(&self) -> &Players {
        &self.players
    }

    /// Turns the board half a turn.
    pub fn flip(&mut self) {
        self.flipped = !self.flipped;
    }

    /// The board shown, in a seed format.
    pub fn board_text(&self, format: &Format) -> String {
        self.game.board_text(self.view, format)
    }

    /// The game as a record, with these players' names: the main line as its moves (and its
    /// result, a loss on time when the main line is the game that ended so), every variation
    /// as a [`VARIATION_TAG`] tag, and the time control as a [`TIME_CONTROL_TAG`] tag.
    pub fn record(&self) -> Result<GameRecord, GameError> {
        let [white, black] = self.players.names(&self.playing);
        let (white, black) = (white.as_str(), black.as_str());
        let main_end = *self.tree.main_line().last().unwrap_or(&ROOT);
        let mut record = self.game.record(white, black);
        record.moves = self.tree.names(main_end);
        record.tags.clear();
        let main = GameState::from_record(&record)?;
        let mut record = main.record(white, black);
        record.tags.extend(self.players.tags(record.moves.len()));
        if let Some(c) = &self.clocks {
            let tc = c.time_control().to_string();
            record.tags.push((TIME_CONTROL_TAG.to_string(), tc));
            if let Some(loser) = c.flagged()
                && self.line.last() == Some(&main_end)
                && record.result == RecordResult::Unfinished
            {
                record.result = match loser {
                    Side::White => RecordResult::Black,
                    Side::Black => RecordResult::White,
                };
                let why = format!("time forfeit: {} ran out of time", side_name(loser));
                record.tags.push(("Reason".to_string(), why));
            }
        }
        record.tags.extend(
            self.tree
                .variations()
                .into_iter()
                .map(|v| (VARIATION_TAG.to_string(), v.join(" "))),
        );
        Ok(record)
    }

    /// Whether the game has moves that were not saved: its tree of moves changed since it was
    /// set up, saved or opened, and it holds a move.
    pub fn unsaved(&self) -> bool {
        self.unsaved && !self.tree.children(ROOT).is_empty()
    }

    /// The file the game was last saved to or opened from (a file of one game only).
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// Notes that the game was saved to `path`: it is no longer unsaved, and `path` is its file.
    pub fn mark_saved(&mut self, path: &Path) {
        self.unsaved = false;
        self.file = Some(path.to_path_buf());
    }

    /// The game as it is, put aside (its clock stopped at `now`).
    fn shelve(&self, now: Instant) -> Shelved {
        let mut clocks = self.clocks.clone();
        if let Some(c) = clocks.as_mut() {
            c.stop(now);
        }
        Shelved {
            game: self.game.clone(),
            tree: self.tree.clone(),
            line: self.line.clone(),
            view: self.view,
            clocks,
            file: self.file.clone(),
            records: self.records.clone(),
            players: self.players.clone(),
        }
    }

    /// The number of moves of the game that can be brought back, if there is one.
    pub fn can_bring_back(&self) -> Option<usize> {
        self.shelved.as_ref().map(|s| s.game.len())
    }

    /// Brings back the last unsaved game that was replaced, move for move (its tree, the move
    /// shown, its clocks, stopped). The game on the table takes its place when it is unsaved
    /// itself, so that nothing is lost; otherwise the game can be brought back only once.
    /// Returns whether there was a game to bring back.
    pub fn bring_back(&mut self) -> bool {
        let Some(back) = self.shelved.take() else {
            return false;
        };
        if self.unsaved() {
            self.shelved = Some(Box::new(self.shelve(Instant::now())));
        }
        let Shelved {
            game,
            tree,
            line,
            view,
            clocks,
            file,
            records,
            players,
        } = *back;
        self.players = players;
        self.game = game;
        self.tree = tree;
        self.clock_line.clone_from(&line);
        self.line = line;
        self.view = view.min(self.game.len());
        self.clocks = clocks;
        self.file = file;
        self.records = records;
        self.unsaved = true;
        self.revision += 1;
        self.epoch += 1;
        self.selected = None;
        self.halted = None;
        self.halted_side = None;
        self.views = [None, None, None];
        let moves = moves_text(self.game.len());
        self.note(format!("The last game was brought back ({moves})."));
        true
    }

    /// Saves the game to a file in the record format, with these players' names; the main
    /// line's annotation marks follow as comment lines ([`review_comments`]). The file is
    /// written through a temporary one ([`crate::saving::write_replacing`]): a failure leaves
    /// the old file whole.
    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        let text = self.record_text()?;
        crate::saving::write_replacing(path, &text)
    }

    /// The game as the text of a record file: [`Model::record`], then the main line's marks as
    /// comment lines ([`review_comments`]).
    pub fn record_text(&self) -> Result<String, GameError> {
        let mut text = self.record()?.to_string();
        for line in review_comments(&self.tree) {
            if !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(&line);
            text.push('\n');
        }
        Ok(text)
    }

    /// Puts the marks of a record text's review comments on the main line's moves.
    fn read_marks(&mut self, text: &str) {
        let main = self.tree.main_line();
        for (ply, name, mark) in read_review_comments(text) {
            if let Some(&id) = main.get(ply)
                && self.tree.name(id) == name
            {
                self.tree.set_mark(id, &mark);
            }
        }
    }

    /// Restores the game of the last session from its record text (with its variations and
    /// marks), paused, showing the position after `view` moves of its main line; `file` is its
    /// file again, and it is unsaved when it was.
    pub fn restore(
        &mut self,
        text: &str,
        file: Option<&Path>,
        unsaved: bool,
        view: usize,
    ) -> Result<(), SessionError> {
        let records = parse_records(text)?;
        let first = records.first().ok_or(SessionError::Empty)?;
        self.load_record(first)?;
        self.read_marks(text);
        self.file = file.map(Path::to_path_buf);
        self.unsaved = unsaved;
        self.go_to(view.min(self.game.len()));
        Ok(())
    }

    /// Sets the annotation mark of a move of the tree (`!`, `?`, `??`; empty: none). The game
    /// itself is unchanged: an engine thinking about it goes on.
    pub fn set_mark(&mut self, id: NodeId, mark: &str) {
        if self.tree.contains(id) && id != ROOT {
            self.tree.set_mark(id, mark);
        }
    }

    /// Keeps a value for the position at a node of the tree (White's view; the graph draws it).
    pub fn set_eval(&mut self, id: NodeId, score: Score) {
        if self.tree.contains(id) {
            self.tree.set_eval(id, score);
        }
    }

    /// Opens a record file: loads its first game, paused, and keeps the others for choosing;
    /// the status line says so. Returns how many games it holds.
    pub fn open(&mut self, path: &Path) -> Result<usize, FileError> {
        let text = std::fs::read_to_string(path).map_err(|source| FileError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let records = parse_records(&text).map_err(|source| FileError::Records {
            path: path.to_path_buf(),
            source,
        })?;
        let first = records
            .first()
            .ok_or_else(|| FileError::Empty {
                path: path.to_path_buf(),
            })?
            .clone();
        self.load_record(&first).map_err(|source| FileError::Game {
            path: path.to_path_buf(),
            source,
        })?;
        if records.len() == 1 {
            self.read_marks(&text);
        }
        self.records = records;
        // A file of many games is not overwritten with one of them.
        self.file = (self.records.len() == 1).then(|| path.to_path_buf());
        let n = self.records.len();
        let s = if n == 1 { "" } else { "s" };
        self.note_pause(format!(
            "opened {} ({n} game{s}); engine play is paused",
            path.display()
        ));
        Ok(n)
    }

    /// Loads a recorded game to replay it (paused, shown from the main line's end), with its
    /// variations ([`VARIATION_TAG`] tags). Nothing changes when a move is not legal.
    pub fn load_record(&mut self, record: &GameRecord) -> Result<(), GameError> {
        let game = GameState::from_record(record)?;
        let mut variations = Vec::new();
        let tags = record.tags.iter().filter(|(k, _)| k == VARIATION_TAG);
        for (k, (_, moves)) in tags.enumerate() {
            let line = GameRecord {
                moves: moves.split_whitespace().map(str::to_string).collect(),
                ..record.clone()
            };
            let g = GameState::from_record(&line).map_err(|source| GameError::Variation {
                number: k + 1,
                source,
            })?;
            let moves: Vec<_> = (0..g.len())
                .filter_map(|i| Some((g.move_at(i)?, g.move_name(i))))
                .collect();
            variations.push(moves);
        }
        self.set_game(game);
        self.players = Players::from_record(record);
        for line in variations {
            let mut at = ROOT;
            for (mv, name) in line {
                at = self.tree.add(at, mv, &name);
            }
        }
        self.paused = true;
        Ok(())
    }

    /// Loads game `n` of the file last opened (a move the rules reject is shown as an error).
    pub fn load_opened(&mut self, n: usize) {
        if let Some(r) = self.records.get(n).cloned()
            && let Err(e) = self.load_record(&r)
        {
            self.error(e.to_string());
        }
    }

    /// Plays `mv` (nothing when `None`) when a human may move (`engines`: whether White and
    /// Black are engines).
    pub fn play_human(&mut self, mv: Option<Move>, engines: [bool; 2]) {
        if let Some(mv) = mv
            && self.human_may_move(engines)
        {
            let _ = self.play(mv);
        }
    }

    /// Shows an error in the status line.
    pub fn error(&mut self, text: String) {
        self.message = Some((text, true));
        self.pause_note = false;
    }

    /// Shows a note in the status line.
    pub fn note(&mut self, text: String) {
        self.message = Some((text, false));
        self.pause_note = false;
    }

    /// Shows a note that engine play is paused: it goes when play resumes or a new game
    /// starts.
    pub fn note_pause(&mut self, text: String) {
        self.note(text);
        self.pause_note = true;
    }

    /// Stops the game on the failure of `side`'s engine (`None`: of the engines): a human may
    /// move for that side until Resume, or until that side gets another player.
    pub fn halt(&mut self, side: Option<Side>, why: String) {
        let text = format!(
            "{why}. The game is stopped: a human can move for that side, or press Resume to try the engine again."
        );
        self.halted = Some(text.clone());
        self.halted_side = side;
        self.error(text);
    }

    /// Whether a human may move in the shown position (`engines`: whether White and Black are
    /// engines).
    pub fn human_may_move(&self, engines: [bool; 2]) -> bool {
        let side = self.game.side_to_move(self.view);
        let lost = self.view == self.game.len() && self.lost_on_time().is_some();
        self.game.outcome(self.view).is_none()
            && !lost
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

    /// The moves a human may play in the shown position, as (from, to) squares (none when a
    /// human may not move; a pass is not among them).
    pub fn human_moves(&self, engines: [bool; 2]) -> Vec<(usize, usize)> {
        if !self.human_may_move(engines) {
            return Vec::new();
        }
        self.game
            .legal_moves(self.view)
            .into_iter()
            .filter(|m| !m.is_pass())
            .map(|m| (usize::from(m.from), usize::from(m.to)))
            .collect()
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

    /// The evaluation graph's points: (number of plies, White's-view score), one per position
    /// of the line, the start's included, that has a score (or ends the game).
    pub fn graph_points(&self) -> Vec<(usize, Score)> {
        let evals: Vec<_> = self.line.iter().map(|&id| self.tree.eval(id)).collect();
        graph_points(&self.game, &evals)
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
        // The score belongs to the searched node, if the game still goes through it.
        if let Some(score) = v.white_score()
            && v.matches(&self.game)
            && let Some(&id) = self.line.get(ply)
        {
            self.tree.set_eval(id, score);
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
                self.halt(Some(side), why);
            }
            Some(text) => match self
                .game
                .parse_move(self.game.len(), text)
                .map_err(GameError::from)
                .and_then(|mv| self.append(self.game.len(), mv))
            {
                Ok(()) => {
                    self.set_search_state(side.index(), SearchState::Done);
                    if follow {
                        self.view = self.game.len();
                        self.selected = None;
                    }
                }
                Err(e) => {
                    self.set_search_state(side.index(), SearchState::Failed);
                    self.halt(
                        Some(side),
                        format!("{who} played an illegal move '{text}': {e}"),
                    );
                }
            },
        }
    }
}

#[cfg(test)]
mod tests;

/// How a record's comment line with a move's annotation mark starts: `# review PLY NAME MARK`
/// (`PLY` from 1). Other readers skip it, as every line that starts with `#`.
pub const REVIEW_COMMENT: &str = "# review";

/// The comment lines of the main line's annotation marks, one per marked move.
pub fn review_comments(tree: &MoveTree) -> Vec<String> {
    tree.main_line()
        .iter()
        .enumerate()
        .filter(|&(_, &id)| id != ROOT && !tree.mark(id).is_empty())
        .map(|(ply, &id)| format!("{REVIEW_COMMENT} {ply} {} {}", tree.name(id), tree.mark(id)))
        .collect()
}

/// Reads the marks of review comment lines: (ply from 1, move name, mark). Other lines, and
/// marks other than `??`, `?` and `!`, are skipped.
pub fn read_review_comments(text: &str) -> Vec<(usize, String, String)> {
    text.lines()
        .filter_map(|line| {
            let rest = line.trim().strip_prefix(REVIEW_COMMENT)?;
            let mut words = rest.split_whitespace();
            let ply = words.next()?.parse().ok()?;
            let name = words.next()?.to_string();
            let mark = words.next()?;
            ["??", "?", "!"]
                .contains(&mark)
                .then(|| (ply, name, mark.to_string()))
        })
        .collect()
}
