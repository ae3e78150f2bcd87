//! The application: the game, the players, the panels and the engines' driving.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use eframe::egui::{self, Color32, RichText};
use engine::games::format::Format;
use engine::games::{GameKind, Move, Side};
use engine::protocol::Go;
use engine::record::{GameRecord, parse_records};
use serde::{Deserialize, Serialize};

use engine::protocol::Score;

use crate::analysis::{self, EngineView};
use crate::board::{self, BoardInput, Geometry, Marks};
use crate::console::{Console, Role};
use crate::controller::{EngineHandle, Event, Launch, Request};
use crate::editor::{Editor, EditorAction};
use crate::game::GameState;
use crate::solve::{SolveAction, Solver};
use crate::tree::TreeExplorer;

/// The key under which the settings are stored between runs.
pub const SETTINGS_KEY: &str = "boardgames-gui-settings";

/// How an engine's search is limited on each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Limit {
    /// Plies.
    Depth,
    /// Nodes.
    Nodes,
    /// Milliseconds.
    MoveTime,
}

impl Limit {
    fn label(self) -> &'static str {
        match self {
            Limit::Depth => "depth",
            Limit::Nodes => "nodes",
            Limit::MoveTime => "movetime (ms)",
        }
    }
}

/// Who plays one side, and with which engine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Player {
    /// An engine plays this side (otherwise a human).
    pub engine: bool,
    /// The engine program; empty for ours (the `engine` next to `gui`, else on the PATH).
    pub program: String,
    /// Its arguments, separated by blanks.
    pub args: String,
    /// How each search is limited.
    pub limit: Limit,
    /// The limit's value.
    pub value: u64,
}

impl Default for Player {
    fn default() -> Self {
        Player {
            engine: false,
            program: String::new(),
            args: String::new(),
            limit: Limit::Depth,
            value: 4,
        }
    }
}

impl Player {
    /// The `go` of one move.
    pub fn go(&self) -> Go {
        let v = self.value.max(1);
        match self.limit {
            Limit::Depth => Go::Depth(u32::try_from(v).unwrap_or(u32::MAX)),
            Limit::Nodes => Go::Nodes(v),
            Limit::MoveTime => Go::MoveTime(v),
        }
    }

    /// How to start the engine.
    pub fn launch(&self) -> Launch {
        let program = if self.program.trim().is_empty() {
            default_engine()
        } else {
            PathBuf::from(self.program.trim())
        };
        Launch {
            program,
            args: self.args.split_whitespace().map(str::to_string).collect(),
            patience: Duration::from_secs(300),
        }
    }
}

/// Our engine: `engine` next to the running executable (the same target directory), else the
/// name `engine`, looked up on the PATH.
pub fn default_engine() -> PathBuf {
    let name = format!("engine{}", std::env::consts::EXE_SUFFIX);
    std::env::current_exe()
        .ok()
        .and_then(|exe| {
            // Test executables live in target/debug/deps; the binaries one level up.
            let dir = exe.parent()?.to_path_buf();
            [dir.join(&name), dir.parent()?.join(&name)]
                .into_iter()
                .find(|p| p.is_file())
        })
        .unwrap_or_else(|| PathBuf::from(name))
}

/// Everything that persists between runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The game of the next new game (`oska`, `hexapawn`, `ctf`).
    pub game: String,
    /// Its size.
    pub size: usize,
    /// White's and Black's players.
    pub players: [Player; 2],
    /// The file path of the last save or open.
    pub path: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            game: GameKind::Oska.name().into(),
            size: 4,
            players: [
                Player::default(),
                Player {
                    engine: true,
                    ..Player::default()
                },
            ],
            path: "game.txt".into(),
        }
    }
}

impl Settings {
    /// The chosen game (Oska when the stored name is unknown).
    pub fn kind(&self) -> GameKind {
        GameKind::parse(&self.game).unwrap_or(GameKind::Oska)
    }
}

struct Slot {
    handle: EngineHandle,
    launch: Launch,
    name: String,
    ready: bool,
}

#[derive(Clone, Copy, Debug)]
struct Pending {
    side: Side,
    id: u64,
    revision: u64,
}

/// The analysis engine: searches the shown position with `go infinite` while the person looks
/// around the game.
struct Analysis {
    handle: EngineHandle,
    /// The search running: its id, and the game revision and view it is about.
    current: Option<(u64, u64, usize)>,
}

/// Which engine view is the analysis engine's.
const ANALYSIS: usize = 2;

/// The "Set position" window.
#[derive(Default)]
struct PositionDialog {
    open: bool,
    game: Option<GameKind>,
    text: String,
    black: bool,
    error: Option<String>,
}

/// The application state. [`GuiApp::show`] draws it into a `Ui` and handles input; it is what
/// both the real window and the tests run.
pub struct GuiApp {
    /// The set-up and the players (the players apply at once, the game and size to the next new
    /// game).
    pub settings: Settings,
    game: GameState,
    /// Bumped on every change of the game, so that stale engine answers are recognised.
    revision: u64,
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
    analysis: Option<Analysis>,
    tree: TreeExplorer,
    editor: Editor,
    console: Console,
    solver: Solver,
    help: bool,
    slots: [Option<Slot>; 2],
    pending: Option<Pending>,
    next_id: u64,
    ending: Vec<tokio::task::JoinHandle<()>>,
    runtime: Option<tokio::runtime::Runtime>,
    repaint: Arc<Mutex<Option<egui::Context>>>,
    geometry: Option<Geometry>,
    position: PositionDialog,
    records: Vec<GameRecord>,
}

impl Default for GuiApp {
    fn default() -> Self {
        GuiApp::new(Settings::default())
    }
}

impl GuiApp {
    /// An app with these settings, showing a new game of the set-up.
    pub fn new(settings: Settings) -> GuiApp {
        let kind = settings.kind();
        let game = GameState::new(kind, settings.size)
            .or_else(|_| GameState::new(kind, kind.size_range().0))
            .unwrap_or_else(|_| GameState::new(GameKind::Oska, 4).expect("Oska 4 is a valid game"));
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("engines")
            .enable_all()
            .build()
            .ok();
        GuiApp {
            settings,
            game,
            revision: 0,
            view: 0,
            selected: None,
            flipped: false,
            paused: false,
            halted: None,
            message: None,
            views: [None, None, None],
            evals: Vec::new(),
            analysis: None,
            tree: TreeExplorer::default(),
            editor: Editor::default(),
            console: Console::default(),
            solver: Solver::default(),
            help: false,
            slots: [None, None],
            pending: None,
            next_id: 1,
            ending: Vec::new(),
            runtime,
            repaint: Arc::new(Mutex::new(None)),
            geometry: None,
            position: PositionDialog::default(),
            records: Vec::new(),
        }
    }

    /// The game being played.
    pub fn game(&self) -> &GameState {
        &self.game
    }

    /// The number of moves shown (the position after them is on the board).
    pub fn view(&self) -> usize {
        self.view
    }

    /// Why the game stopped on an engine's failure, if it did.
    pub fn halted(&self) -> Option<&str> {
        self.halted.as_deref()
    }

    /// The status message (text, whether it is an error).
    pub fn message(&self) -> Option<(&str, bool)> {
        self.message.as_ref().map(|(t, e)| (t.as_str(), *e))
    }

    /// Whether an engine is thinking.
    pub fn thinking(&self) -> bool {
        self.pending.is_some()
    }

    /// Whether engine play is paused.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Whether the board is drawn upside down.
    pub fn flipped(&self) -> bool {
        self.flipped
    }

    /// The names of the running engines (White's, Black's), as their handshake gave them.
    pub fn engine_names(&self) -> [Option<String>; 2] {
        [0, 1].map(|i| self.slots[i].as_ref().map(|s| s.name.clone()))
    }

    /// The on-screen centre of a square, as last drawn.
    pub fn square_centre(&self, sq: usize) -> Option<egui::Pos2> {
        self.geometry.as_ref()?.centre(sq)
    }

    /// Starts a new game of the set-up's game and size. Engines of the old game are ended.
    pub fn new_game(&mut self) {
        let kind = self.settings.kind();
        match GameState::new(kind, self.settings.size) {
            Ok(g) => {
                self.set_game(g);
                self.message = None;
            }
            Err(e) => self.error(format!("cannot start that game: {e}")),
        }
    }

    /// Starts from command-line words `GAME SIZE [MOVE...]` (nothing: keep the set-up's game).
    /// Problems are shown in the status line.
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
        for m in moves {
            if let Err(e) = state.play_text(m) {
                self.error(format!("command line: move '{m}': {e}"));
                break;
            }
        }
        self.settings.game = kind.name().into();
        self.settings.size = size;
        self.set_game(state);
    }

    /// Replaces the game (ends the engines, clears the marks and a failure; a pause stays).
    pub fn set_game(&mut self, game: GameState) {
        self.end_engines();
        self.game = game;
        self.revision += 1;
        self.view = self.game.len();
        self.selected = None;
        self.halted = None;
        self.views = [None, None, None];
        self.evals.clear();
    }

    /// Sets up a position typed in any seed format.
    pub fn set_position(&mut self, kind: GameKind, text: &str, side: Side) -> Result<(), String> {
        let game = GameState::from_text(kind, text, side).map_err(|e| e.to_string())?;
        self.settings.game = kind.name().into();
        self.settings.size = game.size();
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
    /// engine, so that a human is to move.
    pub fn takeback(&mut self) {
        if self.game.is_empty() {
            return;
        }
        let human = |app: &GuiApp, ply: usize| {
            !app.settings.players[app.game.side_to_move(ply).index()].engine
        };
        let mut n = self.game.len() - 1;
        if (0..2).any(|i| !self.settings.players[i].engine) {
            while n > 0 && !human(self, n) {
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

    /// Pauses or resumes engine play (resuming also restarts after an engine's failure).
    pub fn set_paused(&mut self, paused: bool) {
        self.paused = paused;
        if !paused {
            self.halted = None;
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

    /// The players' names for a record.
    fn player_name(&self, side: Side) -> String {
        let i = side.index();
        match (&self.settings.players[i], &self.slots[i]) {
            (p, Some(s)) if p.engine => s.name.clone(),
            (p, None) if p.engine => p.launch().program.display().to_string(),
            _ => "human".into(),
        }
    }

    /// The game as a record.
    pub fn record(&self) -> GameRecord {
        self.game.record(
            &self.player_name(Side::White),
            &self.player_name(Side::Black),
        )
    }

    /// Saves the game to a file in the record format.
    pub fn save(&mut self, path: &Path) -> Result<(), String> {
        std::fs::write(path, self.record().to_string())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Opens a record file: loads its first game, paused, and keeps the others for choosing.
    pub fn open(&mut self, path: &Path) -> Result<usize, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let records = parse_records(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let first = records
            .first()
            .ok_or_else(|| format!("{} holds no game", path.display()))?
            .clone();
        self.records = records;
        self.load_record(&first)?;
        Ok(self.records.len())
    }

    /// Loads a recorded game to replay it (paused, shown from its end).
    pub fn load_record(&mut self, record: &GameRecord) -> Result<(), String> {
        let game = GameState::from_record(record).map_err(|e| e.to_string())?;
        self.settings.game = record.game.name().into();
        self.settings.size = record.size;
        self.set_game(game);
        self.paused = true;
        Ok(())
    }

    fn error(&mut self, text: String) {
        self.message = Some((text, true));
    }

    fn note(&mut self, text: String) {
        self.message = Some((text, false));
    }

    /// Whether a human may move in the shown position.
    pub fn human_may_move(&self) -> bool {
        let side = self.game.side_to_move(self.view);
        self.game.outcome(self.view).is_none()
            && (!self.settings.players[side.index()].engine
                || self.paused
                || self.halted.is_some()
                || self.view < self.game.len())
    }

    fn board_input(&mut self, input: BoardInput) {
        if !self.human_may_move() {
            return;
        }
        let moves = self.game.legal_moves(self.view);
        let find = |from: usize, to: usize| {
            moves
                .iter()
                .copied()
                .find(|m| !m.is_pass() && usize::from(m.from) == from && usize::from(m.to) == to)
        };
        let movable = |sq: usize| {
            moves
                .iter()
                .any(|m| !m.is_pass() && usize::from(m.from) == sq)
        };
        match input {
            BoardInput::Click(sq) => {
                if let Some(m) = self.selected.and_then(|from| find(from, sq)) {
                    let _ = self.play(m);
                } else if movable(sq) && self.selected != Some(sq) {
                    self.selected = Some(sq);
                } else {
                    self.selected = None;
                }
            }
            BoardInput::Drag(from, to) => match find(from, to) {
                Some(m) => {
                    let _ = self.play(m);
                }
                None => self.selected = movable(from).then_some(from),
            },
        }
    }

    fn waker(&self) -> crate::controller::Waker {
        let ctx = Arc::clone(&self.repaint);
        Arc::new(move || {
            if let Some(c) = ctx.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
                c.request_repaint();
            }
        })
    }

    fn end_engines(&mut self) {
        self.pending = None;
        for i in 0..2 {
            if let Some(slot) = self.slots[i].take()
                && let Some(task) = slot.handle.quit()
            {
                self.ending.push(task);
            }
        }
    }

    /// Reads the engines' events and asks an engine to move when it is its turn. Never blocks.
    pub fn drive_engines(&mut self) {
        self.poll_events();
        self.ending.retain(|t| !t.is_finished());
        for i in 0..2 {
            let player = &self.settings.players[i];
            let stale = match &self.slots[i] {
                Some(s) => !player.engine || s.launch != player.launch(),
                None => false,
            };
            if stale {
                if self.pending.is_some_and(|p| p.side.index() == i) {
                    self.pending = None;
                }
                if let Some(slot) = self.slots[i].take()
                    && let Some(task) = slot.handle.quit()
                {
                    self.ending.push(task);
                }
            }
        }
        let ply = self.game.len();
        let side = self.game.side_to_move(ply);
        let player = self.settings.players[side.index()].clone();
        let wants = player.engine
            && !self.paused
            && self.halted.is_none()
            && self.game.outcome(ply).is_none();
        if let Some(p) = self.pending
            && (!wants || p.side != side || p.revision != self.revision)
        {
            if let Some(slot) = &self.slots[p.side.index()] {
                slot.handle.send(Request::Stop);
            }
            self.pending = None;
        }
        if !wants || self.pending.is_some() {
            return;
        }
        let Some(runtime) = self.runtime.as_ref() else {
            self.halted = Some("the engines cannot run: no async runtime could be started".into());
            return;
        };
        let i = side.index();
        if self.slots[i].is_none() {
            let launch = player.launch();
            let role = if side == Side::White {
                Role::White
            } else {
                Role::Black
            };
            let handle = EngineHandle::spawn(
                runtime.handle(),
                launch.clone(),
                self.waker(),
                Some(self.console.log(role)),
            );
            self.slots[i] = Some(Slot {
                handle,
                name: launch.program.display().to_string(),
                launch,
                ready: false,
            });
        }
        let id = self.next_id;
        self.next_id += 1;
        let request = Request::Think {
            id,
            game: self.game.kind(),
            size: u32::try_from(self.game.size()).unwrap_or(u32::MAX),
            setup: self.game.setup(),
            moves: self.game.move_names(),
            go: player.go(),
        };
        if let Some(slot) = &self.slots[i] {
            slot.handle.send(request);
        }
        self.views[i] = Some(EngineView::new(
            format!("{}'s engine", side_name(side)),
            self.game.move_names(),
            side,
        ));
        self.pending = Some(Pending {
            side,
            id,
            revision: self.revision,
        });
    }

    fn poll_events(&mut self) {
        for i in 0..2 {
            let side = if i == 0 { Side::White } else { Side::Black };
            let events = match &self.slots[i] {
                Some(s) => s.handle.poll(),
                None => continue,
            };
            for event in events {
                self.on_event(side, event);
            }
        }
    }

    fn on_event(&mut self, side: Side, event: Event) {
        let i = side.index();
        let who = format!("{}'s engine", side_name(side));
        match event {
            Event::Ready(name) => {
                if let Some(s) = self.slots[i].as_mut() {
                    s.name = name;
                    s.ready = true;
                }
            }
            Event::Thinking(_)
            | Event::Trace { .. }
            | Event::Progress { .. }
            | Event::Stopped { .. } => {}
            Event::Search { id, info } => {
                if self.pending.is_some_and(|p| p.id == id && p.side == side)
                    && let Some(v) = self.views[i].as_mut()
                {
                    v.info = Some(info);
                    let ply = v.ply();
                    if let Some(score) = v.white_score() {
                        self.record_eval(ply, score);
                    }
                }
            }
            Event::BestMove { id, best } => {
                let Some(p) = self.pending.filter(|p| p.id == id && p.side == side) else {
                    return;
                };
                self.pending = None;
                if let Some(v) = self.views[i].as_mut() {
                    v.running = false;
                }
                if p.revision != self.revision {
                    return;
                }
                let follow = self.view == self.game.len();
                match best {
                    None => self.halt(format!("{who} gave no move in a game that is not over")),
                    Some(text) => match self.game.play_text(&text) {
                        Ok(_) => {
                            self.revision += 1;
                            if follow {
                                self.view = self.game.len();
                                self.selected = None;
                            }
                        }
                        Err(e) => self.halt(format!("{who} played an illegal move '{text}': {e}")),
                    },
                }
            }
            Event::Failed(why) => {
                if self.pending.is_some_and(|p| p.side == side) {
                    self.pending = None;
                }
                self.halt(format!("{who} failed: {why}"));
            }
            Event::Ended => {
                if let Some(slot) = self.slots[i].take()
                    && let Some(task) = slot.handle.quit()
                {
                    self.ending.push(task);
                }
            }
        }
    }

    fn record_eval(&mut self, ply: usize, score: Score) {
        if self.evals.len() <= ply {
            self.evals.resize(ply + 1, None);
        }
        self.evals[ply] = Some(score);
    }

    /// The evaluation graph's points: (number of moves, White's-view score), one per move that
    /// has a score (or ends the game).
    pub fn graph_points(&self) -> Vec<(usize, Score)> {
        analysis::graph_points(&self.game, &self.evals)
    }

    /// What White's engine, Black's engine and the analysis engine last reported.
    pub fn engine_views(&self) -> &[Option<EngineView>; 3] {
        &self.views
    }

    /// The search tree explorer.
    pub fn tree(&self) -> &TreeExplorer {
        &self.tree
    }

    /// The search tree explorer, to change.
    pub fn tree_mut(&mut self) -> &mut TreeExplorer {
        &mut self.tree
    }

    /// Whether the analysis engine runs.
    pub fn analysing(&self) -> bool {
        self.analysis.is_some()
    }

    /// Starts or ends analysis mode: our engine searches the shown position until it changes.
    pub fn set_analysis(&mut self, on: bool) {
        if !on {
            if let Some(task) = self.analysis.take().and_then(|a| a.handle.quit()) {
                self.ending.push(task);
            }
            self.views[ANALYSIS] = None;
            return;
        }
        if self.analysis.is_some() {
            return;
        }
        let Some(runtime) = self.runtime.as_ref() else {
            return self.error("the analysis engine cannot run: no async runtime".into());
        };
        let handle = EngineHandle::spawn(
            runtime.handle(),
            Player::default().launch(),
            self.waker(),
            Some(self.console.log(Role::Analysis)),
        );
        self.analysis = Some(Analysis {
            handle,
            current: None,
        });
    }

    /// Opens the search tree window and runs a traced search of the shown position.
    pub fn run_tree_search(&mut self) {
        self.tree.open = true;
        let Some(runtime) = self.runtime.as_ref() else {
            return self.error("the tree search cannot run: no async runtime".into());
        };
        let waker = self.waker();
        let handle = runtime.handle().clone();
        if let Some(old) = self.tree.start(
            &handle,
            Player::default().launch(),
            waker,
            Some(self.console.log(Role::Tree)),
            &self.game,
            self.view,
        ) {
            self.ending.push(old);
        }
    }

    /// The position editor.
    pub fn editor(&self) -> &Editor {
        &self.editor
    }

    /// The position editor, to change.
    pub fn editor_mut(&mut self) -> &mut Editor {
        &mut self.editor
    }

    /// Opens the position editor on the shown position.
    pub fn open_editor(&mut self) {
        self.editor.open_on(&self.game, self.view);
    }

    /// Uses the editor's position: starts a game from it (`analyse`: and analysis mode on it).
    /// Refused with the rules' message when the position is not legal.
    pub fn use_edited(&mut self, analyse: bool) -> Result<(), String> {
        let game = self.editor.check()?;
        self.settings.game = game.kind().name().into();
        self.settings.size = game.size();
        self.set_game(game);
        self.editor.open = false;
        self.message = None;
        if analyse {
            self.set_analysis(true);
        }
        Ok(())
    }

    /// The engine console.
    pub fn console(&self) -> &Console {
        &self.console
    }

    /// The engine console, to change.
    pub fn console_mut(&mut self) -> &mut Console {
        &mut self.console
    }

    /// The solver.
    pub fn solver(&self) -> &Solver {
        &self.solver
    }

    /// Opens the solver window and asks our engine (a process of its own) to solve the shown
    /// position.
    pub fn run_solve(&mut self) {
        self.solver.open = true;
        let Some(runtime) = self.runtime.as_ref() else {
            return self.error("the solver cannot run: no async runtime".into());
        };
        let waker = self.waker();
        let handle = runtime.handle().clone();
        if let Some(old) = self.solver.start(
            &handle,
            Player::default().launch(),
            waker,
            Some(self.console.log(Role::Solve)),
            &self.game,
            self.view,
        ) {
            self.ending.push(old);
        }
    }

    /// Stops the running solve (`stop`; the engine's answer is awaited in the background).
    pub fn stop_solve(&mut self) {
        self.solver.request_stop();
    }

    fn drive_analysis(&mut self) {
        if let Some(task) = self.tree.poll() {
            self.ending.push(task);
        }
        if let Some(task) = self.solver.poll() {
            self.ending.push(task);
        }
        let Some(a) = self.analysis.as_mut() else {
            return;
        };
        let mut failed = None;
        for event in a.handle.poll() {
            match event {
                Event::Search { id, info } => {
                    if a.current.is_some_and(|c| c.0 == id)
                        && let Some(v) = self.views[ANALYSIS].as_mut()
                    {
                        v.info = Some(info);
                        let ply = v.ply();
                        if let Some(score) = v.white_score() {
                            if self.evals.len() <= ply {
                                self.evals.resize(ply + 1, None);
                            }
                            self.evals[ply] = Some(score);
                        }
                    }
                }
                Event::BestMove { id, .. } => {
                    if a.current.is_some_and(|c| c.0 == id)
                        && let Some(v) = self.views[ANALYSIS].as_mut()
                    {
                        v.running = false;
                    }
                }
                Event::Failed(why) => failed = Some(why),
                _ => {}
            }
        }
        if let Some(why) = failed {
            self.set_analysis(false);
            return self.error(format!("the analysis engine failed: {why}"));
        }
        let key = (self.revision, self.view);
        if a.current.is_some_and(|c| (c.1, c.2) == key) {
            return;
        }
        let id = self.next_id;
        self.next_id += 1;
        a.current = Some((id, key.0, key.1));
        let moves = self.game.move_names()[..self.view].to_vec();
        let side = self.game.side_to_move(self.view);
        if self.game.outcome(self.view).is_some() {
            a.handle.send(Request::Stop);
            self.views[ANALYSIS] = None;
            return;
        }
        a.handle.send(Request::Think {
            id,
            game: self.game.kind(),
            size: u32::try_from(self.game.size()).unwrap_or(u32::MAX),
            setup: self.game.setup(),
            moves: moves.clone(),
            go: Go::Infinite,
        });
        self.views[ANALYSIS] = Some(EngineView::new("Analysis".into(), moves, side));
    }

    fn halt(&mut self, why: String) {
        self.halted = Some(format!(
            "{why}. The game is stopped: a human can move for that side, or press Resume to try the engine again."
        ));
        self.error(self.halted.clone().unwrap_or_default());
    }

    /// Ends every engine (`quit`, then kill after a short grace) and waits until their processes
    /// are reaped (at most a few seconds).
    pub fn shutdown(&mut self) {
        self.end_engines();
        self.set_analysis(false);
        if let Some(task) = self.tree.stop() {
            self.ending.push(task);
        }
        if let Some(task) = self.solver.end() {
            self.ending.push(task);
        }
        let tasks = std::mem::take(&mut self.ending);
        if let Some(rt) = self.runtime.take() {
            rt.block_on(async {
                let all = async {
                    for t in tasks {
                        let _ = t.await;
                    }
                };
                let _ = tokio::time::timeout(Duration::from_secs(3), all).await;
            });
            rt.shutdown_timeout(Duration::from_secs(1));
        }
    }

    /// Draws the whole app into `ui` and handles its input.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        {
            let mut slot = self.repaint.lock().unwrap_or_else(|e| e.into_inner());
            if slot.is_none() {
                *slot = Some(ui.ctx().clone());
            }
        }
        self.drive_engines();
        self.drive_analysis();
        self.keys(ui);
        egui::Panel::top("toolbar").show(ui, |ui| self.toolbar(ui));
        egui::Panel::bottom("status").show(ui, |ui| self.status(ui));
        egui::Panel::left("setup")
            .resizable(false)
            .exact_size(260.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.setup_panel(ui));
            });
        egui::Panel::right("moves")
            .resizable(false)
            .exact_size(200.0)
            .show(ui, |ui| self.moves_panel(ui));
        egui::Panel::bottom("analysis")
            .resizable(true)
            .default_size(220.0)
            .show(ui, |ui| self.analysis_panel(ui));
        egui::CentralPanel::default().show(ui, |ui| {
            if self.editor.open {
                self.editor_panel(ui);
            } else {
                self.board(ui);
            }
        });
        self.position_window(ui);
        self.tree_window(ui);
        self.solve_window(ui);
        self.console_window(ui);
        self.help_window(ui);
        // Still thinking or starting: keep checking the channels even without input.
        if self.pending.is_some()
            || !self.ending.is_empty()
            || self.analysis.is_some()
            || self.tree.running()
            || self.solver.running()
        {
            ui.ctx().request_repaint_after(Duration::from_millis(100));
        }
    }

    fn keys(&mut self, ui: &egui::Ui) {
        if ui.ctx().memory(|m| m.focused().is_some()) {
            return;
        }
        let (left, right, home, end) = ui.input(|i| {
            (
                i.key_pressed(egui::Key::ArrowLeft),
                i.key_pressed(egui::Key::ArrowRight),
                i.key_pressed(egui::Key::Home),
                i.key_pressed(egui::Key::End),
            )
        });
        if left {
            self.go_to(self.view.saturating_sub(1));
        }
        if right {
            self.go_to(self.view + 1);
        }
        if home {
            self.go_to(0);
        }
        if end {
            self.go_to(self.game.len());
        }
        let pressed = |k| ui.input(|i| i.key_pressed(k));
        if pressed(egui::Key::F) {
            self.flip();
        }
        if pressed(egui::Key::Backspace) {
            self.takeback();
        }
        if pressed(egui::Key::N) {
            self.new_game();
        }
        if pressed(egui::Key::A) {
            let on = !self.analysing();
            self.set_analysis(on);
        }
        if pressed(egui::Key::E) {
            if self.editor.open {
                self.editor.open = false;
            } else {
                self.open_editor();
            }
        }
        if pressed(egui::Key::C) {
            self.console.open = !self.console.open;
        }
        if pressed(egui::Key::S) {
            self.solver.open = !self.solver.open;
        }
        if pressed(egui::Key::F1) {
            self.help = !self.help;
        }
        if pressed(egui::Key::B)
            && self.human_may_move()
            && let Some(m) = self.best_shown()
        {
            let _ = self.play(m);
        }
    }

    fn toolbar(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            if ui.button("New game").clicked() {
                self.new_game();
            }
            if ui.button("Set position...").clicked() {
                self.position.open = true;
                self.position.game = Some(self.game.kind());
                self.position.text = self.board_text(&Format::Slash);
                self.position.black = self.game.side_to_move(self.view) == Side::Black;
                self.position.error = None;
            }
            if ui.button("Flip board").clicked() {
                self.flip();
            }
            let label = if self.analysing() {
                "Stop analysis"
            } else {
                "Analyse"
            };
            if ui
                .button(label)
                .on_hover_text("our engine searches the shown position until it changes")
                .clicked()
            {
                let on = !self.analysing();
                self.set_analysis(on);
            }
            if ui.button("Search tree...").clicked() {
                self.tree.open = true;
            }
            if ui
                .button("Edit position...")
                .on_hover_text("place and remove pieces on a board of any game (E)")
                .clicked()
            {
                self.open_editor();
            }
            if ui
                .button("Solve...")
                .on_hover_text("our engine proves the value of the shown position (S)")
                .clicked()
            {
                self.solver.open = true;
            }
            if ui
                .button("Console")
                .on_hover_text("every line to and from the engines (C)")
                .clicked()
            {
                self.console.open = !self.console.open;
            }
            if ui.button("Help").clicked() {
                self.help = true;
            }
            ui.menu_button("Copy board", |ui| {
                for format in Format::examples(self.game.kind()) {
                    let text = self.board_text(&format);
                    if ui.button(format!("{}: {text}", format.name())).clicked() {
                        ui.ctx().copy_text(text.clone());
                        self.note(format!("copied {text}"));
                        ui.close();
                    }
                }
            });
            ui.separator();
            let label = ui.label("File:");
            ui.add(egui::TextEdit::singleline(&mut self.settings.path).desired_width(180.0))
                .labelled_by(label.id);
            if ui.button("Save").clicked() {
                let path = PathBuf::from(self.settings.path.trim());
                match self.save(&path) {
                    Ok(()) => self.note(format!("saved to {}", path.display())),
                    Err(e) => self.error(e),
                }
            }
            if ui.button("Open").clicked() {
                let path = PathBuf::from(self.settings.path.trim());
                match self.open(&path) {
                    Ok(n) => self.note(format!(
                        "opened {} ({n} game{}); engine play is paused",
                        path.display(),
                        if n == 1 { "" } else { "s" }
                    )),
                    Err(e) => self.error(e),
                }
            }
        });
    }

    fn status(&mut self, ui: &mut egui::Ui) {
        let ply = self.game.len();
        let side = self.game.side_to_move(ply);
        let text = if let Some(o) = self.game.outcome(ply) {
            RichText::new(format!("Game over: {o}")).strong().size(18.0)
        } else if let Some(h) = &self.halted {
            RichText::new(h.clone()).color(Color32::from_rgb(0xd0, 0x30, 0x30))
        } else if let Some(p) = self.pending {
            let slot = self.slots[p.side.index()].as_ref();
            let what = if slot.is_some_and(|s| s.ready) {
                let depth = self.views[p.side.index()]
                    .as_ref()
                    .and_then(|v| v.info.as_ref())
                    .map_or_else(String::new, |i| format!("depth {}", i.depth));
                format!("thinking... {depth}")
            } else {
                "starting...".to_string()
            };
            RichText::new(format!("{}'s engine: {what}", side_name(p.side)))
        } else if self.paused && self.settings.players[side.index()].engine {
            RichText::new(format!(
                "{} to move; engine play is paused",
                side_name(side)
            ))
        } else {
            RichText::new(format!("{} to move", side_name(side)))
        };
        ui.label(text);
        if let Some((m, err)) = &self.message
            && self.halted.as_deref() != Some(m.as_str())
        {
            let color = if *err {
                Color32::from_rgb(0xd0, 0x30, 0x30)
            } else {
                ui.visuals().weak_text_color()
            };
            ui.label(RichText::new(m.clone()).color(color));
        }
    }

    fn setup_panel(&mut self, ui: &mut egui::Ui) {
        ui.heading("New game");
        let mut kind = self.settings.kind();
        game_picker(ui, &mut kind);
        let (lo, hi) = kind.size_range();
        if kind != self.settings.kind() {
            self.settings.game = kind.name().into();
            self.settings.size = self.settings.size.clamp(lo, hi);
        }
        let size_label = if kind == GameKind::Oska {
            "pieces a side"
        } else {
            "board width"
        };
        ui.add(egui::Slider::new(&mut self.settings.size, lo..=hi).text(size_label));
        if ui.button("Start new game").clicked() {
            self.new_game();
        }
        ui.separator();
        for side in [Side::White, Side::Black] {
            let i = side.index();
            ui.push_id(i, |ui| {
                ui.heading(side_name(side));
                let p = &mut self.settings.players[i];
                ui.horizontal(|ui| {
                    ui.radio_value(&mut p.engine, false, "Human");
                    ui.radio_value(&mut p.engine, true, "Engine");
                });
                if p.engine {
                    let label = ui.label("program (empty: ours)");
                    ui.add(egui::TextEdit::singleline(&mut p.program).hint_text("engine"))
                        .labelled_by(label.id);
                    let label = ui.label("arguments");
                    ui.text_edit_singleline(&mut p.args).labelled_by(label.id);
                    ui.horizontal(|ui| {
                        let label = ui.label("limit");
                        egui::ComboBox::from_id_salt("limit")
                            .selected_text(p.limit.label())
                            .show_ui(ui, |ui| {
                                for l in [Limit::Depth, Limit::Nodes, Limit::MoveTime] {
                                    ui.selectable_value(&mut p.limit, l, l.label());
                                }
                            })
                            .response
                            .labelled_by(label.id);
                        ui.add(egui::DragValue::new(&mut p.value).range(1..=u32::MAX as u64))
                            .labelled_by(label.id);
                    });
                }
                if let Some(s) = &self.slots[i] {
                    let state = if s.ready { "running" } else { "starting..." };
                    ui.label(RichText::new(format!("{}: {state}", s.name)).weak());
                }
            });
            ui.separator();
        }
        let label = if self.paused || self.halted.is_some() {
            "Resume engines"
        } else {
            "Pause engines"
        };
        if ui.button(label).clicked() {
            let pause = !(self.paused || self.halted.is_some());
            self.set_paused(pause);
        }
    }

    fn moves_panel(&mut self, ui: &mut egui::Ui) {
        ui.heading("Moves");
        ui.horizontal(|ui| {
            if ui.button("|<").on_hover_text("start (Home)").clicked() {
                self.go_to(0);
            }
            if ui.button("<").on_hover_text("back (left arrow)").clicked() {
                self.go_to(self.view.saturating_sub(1));
            }
            if ui
                .button(">")
                .on_hover_text("forward (right arrow)")
                .clicked()
            {
                self.go_to(self.view + 1);
            }
            if ui.button(">|").on_hover_text("end (End)").clicked() {
                self.go_to(self.game.len());
            }
        });
        ui.horizontal(|ui| {
            if ui
                .add_enabled(!self.game.is_empty(), egui::Button::new("Take back"))
                .clicked()
            {
                self.takeback();
            }
            let pass_only = self.game.legal_moves(self.view) == [Move::PASS];
            if pass_only && self.human_may_move() && ui.button("Pass").clicked() {
                let _ = self.play(Move::PASS);
            }
        });
        ui.separator();
        if self.records.len() > 1 {
            egui::CollapsingHeader::new(format!("{} games in the file", self.records.len())).show(
                ui,
                |ui| {
                    egui::ScrollArea::vertical()
                        .id_salt("records")
                        .max_height(150.0)
                        .show(ui, |ui| {
                            let mut chosen = None;
                            for (n, r) in self.records.iter().enumerate() {
                                let label = format!(
                                    "{}. {} - {} {}",
                                    n + 1,
                                    r.white,
                                    r.black,
                                    r.result.as_str()
                                );
                                if ui.small_button(label).clicked() {
                                    chosen = Some(r.clone());
                                }
                            }
                            if let Some(r) = chosen
                                && let Err(e) = self.load_record(&r)
                            {
                                self.error(e);
                            }
                        });
                },
            );
        }
        let names = self.game.move_names();
        let first_black = self.game.side_to_move(0) == Side::Black;
        let mut jump = None;
        egui::ScrollArea::vertical()
            .id_salt("move-list")
            .auto_shrink([false, false])
            .stick_to_bottom(true)
            .show(ui, |ui| {
                egui::Grid::new("move-grid").num_columns(3).show(ui, |ui| {
                    let offset = usize::from(first_black);
                    let total = names.len() + offset;
                    for row in 0..total.div_ceil(2) {
                        ui.label(format!("{}.", row + 1));
                        for col in 0..2 {
                            let k = row * 2 + col;
                            if k < offset || k - offset >= names.len() {
                                ui.label("");
                                continue;
                            }
                            let i = k - offset;
                            let shown = self.view == i + 1;
                            if ui.selectable_label(shown, &names[i]).clicked() {
                                jump = Some(i + 1);
                            }
                        }
                        ui.end_row();
                    }
                });
            });
        if let Some(j) = jump {
            self.go_to(j);
        }
    }

    fn board(&mut self, ui: &mut egui::Ui) {
        let view = self.view;
        let targets = self
            .selected
            .map(|from| {
                self.game
                    .legal_moves(view)
                    .into_iter()
                    .filter(|m| !m.is_pass() && usize::from(m.from) == from)
                    .map(|m| usize::from(m.to))
                    .collect()
            })
            .unwrap_or_default();
        let marks = Marks {
            selected: self.selected,
            targets,
            last: view.checked_sub(1).and_then(|i| self.game.move_at(i)),
            arrow: self
                .best_shown()
                .filter(|m| !m.is_pass())
                .map(|m| (usize::from(m.from), usize::from(m.to))),
        };
        if let Some(o) = self.game.outcome(view) {
            ui.label(RichText::new(o.to_string()).strong().size(20.0));
        }
        let game = &self.game;
        let (geo, input) = board::show(
            ui,
            game.kind(),
            game.layout(),
            &|sq| game.piece_at(view, sq),
            &marks,
            self.flipped,
        );
        self.geometry = Some(geo);
        if let Some(input) = input {
            self.board_input(input);
        }
    }

    /// The best move an engine reports for the shown position (the analysis engine first, then
    /// the engine thinking on it), for the board's arrow.
    pub fn best_shown(&self) -> Option<Move> {
        [ANALYSIS, 0, 1]
            .into_iter()
            .filter_map(|i| self.views[i].as_ref())
            .filter(|v| v.ply() == self.view)
            .find_map(|v| v.best_move(&self.game))
    }

    fn analysis_panel(&mut self, ui: &mut egui::Ui) {
        let points = self.graph_points();
        let mut jump = None;
        ui.columns(2, |cols| {
            egui::ScrollArea::vertical()
                .id_salt("engine-panels")
                .auto_shrink([false, false])
                .show(&mut cols[0], |ui| {
                    let mut any = false;
                    for v in self.views.iter().flatten() {
                        ui.push_id(&v.title, |ui| analysis::engine_panel(ui, v, &self.game));
                        ui.separator();
                        any = true;
                    }
                    if !any {
                        ui.label(
                            RichText::new(
                                "Engine output appears here while an engine thinks, or with Analyse.",
                            )
                            .weak(),
                        );
                    }
                });
            jump = analysis::eval_graph(&mut cols[1], &points, self.view);
        });
        if let Some(ply) = jump {
            self.go_to(ply);
        }
    }

    fn tree_window(&mut self, ui: &mut egui::Ui) {
        if !self.tree.open {
            return;
        }
        let mut open = true;
        let mut run = false;
        egui::Window::new("Search tree")
            .open(&mut open)
            .default_size([560.0, 460.0])
            .show(ui.ctx(), |ui| run = self.tree.ui(ui));
        self.tree.open = open;
        if run {
            self.run_tree_search();
        }
    }

    fn editor_panel(&mut self, ui: &mut egui::Ui) {
        match self.editor.ui(ui) {
            Some(EditorAction::Play) => {
                if let Err(e) = self.use_edited(false) {
                    self.error(e);
                }
            }
            Some(EditorAction::Analyse) => {
                if let Err(e) = self.use_edited(true) {
                    self.error(e);
                }
            }
            Some(EditorAction::Close) => self.editor.open = false,
            None => {}
        }
    }

    fn solve_window(&mut self, ui: &mut egui::Ui) {
        if !self.solver.open {
            return;
        }
        let mut open = true;
        let mut action = None;
        let shown = format!(
            "{} {}, {} moves played, {} to move",
            self.game.kind().name(),
            self.game.size(),
            self.view,
            side_name(self.game.side_to_move(self.view))
        );
        egui::Window::new("Solver")
            .open(&mut open)
            .default_pos([720.0, 90.0])
            .default_size([380.0, 200.0])
            .show(ui.ctx(), |ui| action = self.solver.ui(ui, &shown));
        self.solver.open = open;
        match action {
            Some(SolveAction::Solve) => self.run_solve(),
            Some(SolveAction::Stop) => self.stop_solve(),
            None => {}
        }
    }

    fn console_window(&mut self, ui: &mut egui::Ui) {
        if !self.console.open {
            return;
        }
        let mut open = true;
        egui::Window::new("Engine console")
            .open(&mut open)
            .default_pos([280.0, 300.0])
            .default_size([620.0, 380.0])
            .show(ui.ctx(), |ui| self.console.ui(ui));
        self.console.open = open;
    }

    fn help_window(&mut self, ui: &mut egui::Ui) {
        let mut open = self.help;
        egui::Window::new("Keyboard shortcuts")
            .open(&mut open)
            .collapsible(false)
            .show(ui.ctx(), |ui| {
                egui::Grid::new("shortcuts").show(ui, |ui| {
                    for (key, what) in SHORTCUTS {
                        ui.label(RichText::new(*key).monospace());
                        ui.label(*what);
                        ui.end_row();
                    }
                });
            });
        self.help = open;
    }

    fn position_window(&mut self, ui: &mut egui::Ui) {
        if !self.position.open {
            return;
        }
        let mut open = true;
        let mut apply = false;
        let mut edit = false;
        egui::Window::new("Set position")
            .open(&mut open)
            .collapsible(false)
            .show(ui.ctx(), |ui| {
                let d = &mut self.position;
                let mut kind = d.game.unwrap_or(GameKind::Oska);
                egui::ComboBox::from_label("game of the board")
                    .selected_text(kind.name())
                    .show_ui(ui, |ui| {
                        for k in GameKind::ALL {
                            ui.selectable_value(&mut kind, k, k.name());
                        }
                    });
                d.game = Some(kind);
                ui.label("The board in any seed format: wwww/---/--/---/bbbb, ['www','---','bbb'], a Lisp list, a flat string or a Capture the Flag history list (most recent first).");
                ui.add(
                    egui::TextEdit::multiline(&mut d.text)
                        .desired_rows(3)
                        .desired_width(400.0),
                );
                ui.horizontal(|ui| {
                    ui.label("to move:");
                    ui.radio_value(&mut d.black, false, "White");
                    ui.radio_value(&mut d.black, true, "Black");
                });
                if let Some(e) = &d.error {
                    ui.label(RichText::new(e.clone()).color(Color32::from_rgb(0xd0, 0x30, 0x30)));
                }
                ui.horizontal(|ui| {
                    if ui.button("Set").clicked() {
                        apply = true;
                    }
                    if ui
                        .button("Edit on the board...")
                        .on_hover_text("the position editor, on the shown position")
                        .clicked()
                    {
                        edit = true;
                    }
                });
            });
        if edit {
            self.position.open = false;
            self.open_editor();
            return;
        }
        if apply {
            let kind = self.position.game.unwrap_or(GameKind::Oska);
            let side = if self.position.black {
                Side::Black
            } else {
                Side::White
            };
            let text = self.position.text.clone();
            match self.set_position(kind, &text, side) {
                Ok(()) => {
                    self.position.open = false;
                    self.position.error = None;
                }
                Err(e) => self.position.error = Some(format!("This board cannot be used: {e}")),
            }
        } else {
            self.position.open = open;
        }
    }
}

/// The keyboard shortcuts and what they do, as the help window lists them.
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("Left / Right", "one move back / forward"),
    ("Home / End", "the start / the last move"),
    ("F", "flip the board"),
    ("Backspace", "take back"),
    ("B", "play the engine's best move shown by the arrow"),
    ("A", "analysis on / off"),
    ("N", "new game"),
    ("E", "position editor on / off"),
    ("C", "engine console on / off"),
    ("S", "solver window on / off"),
    ("F1", "this help"),
];

fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

impl Drop for GuiApp {
    fn drop(&mut self) {
        self.shutdown();
    }
}

impl eframe::App for GuiApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, SETTINGS_KEY, &self.settings);
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        self.shutdown();
    }
}

/// A drop-down list of the three games, labelled "game".
pub(crate) fn game_picker(ui: &mut egui::Ui, kind: &mut GameKind) {
    egui::ComboBox::from_label("game")
        .selected_text(kind.name())
        .show_ui(ui, |ui| {
            for k in GameKind::ALL {
                ui.selectable_value(kind, k, k.name());
            }
        });
}
