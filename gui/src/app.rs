//! The application: composes the [`Model`] (the game on the table), the engine [`Hub`], the
//! panels and the tools' windows, and applies the panels' [`Action`]s.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use eframe::egui;
use engine::games::Side;

use crate::board::Geometry;
use crate::console::{Console, Role};
use crate::dialogs::{FileDialogs, Purpose};
use crate::editor::{Editor, EditorAction};
use crate::hub::Hub;
use crate::model::Model;
use crate::model::NodeId;
use crate::panels::dock::{self, TabAction, Tool};
use crate::panels::engine_manager::{EngineManager, ManagerAction};
use crate::panels::menu::MenuState;
use crate::panels::path_dialog::{PathAnswer, PathDialog};
use crate::panels::position::{PositionAction, PositionDialog};
use crate::panels::question::{self, Answer};
use crate::panels::{self, Action};
use crate::review::{Review, ReviewAction};
use crate::saving;
pub use crate::settings::{Limit, Player, SETTINGS_KEY, Settings, default_engine};
use crate::solve::{SolveAction, Solver};
use crate::tablebase::TablebasePage;
use crate::tree::TreeExplorer;

/// What the status line says when a file dialog closes without a file.
pub const NO_FILE: &str = "No file was chosen.";

/// The smallest window (points) the program opens: everything is shown at this size.
pub const MIN_WINDOW: [f32; 2] = [800.0, 600.0];

/// What waits for the answer to the unsaved-game question: something that replaces the game on
/// the table, or closing the window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Replacing {
    /// An action that replaces the game (a new game, a file opened, a position set).
    Action(Action),
    /// The editor's position used (`true`: and analysed).
    Editor(bool),
    /// The window closing.
    Close,
}

impl Replacing {
    /// What happens, as the question says it ("Save it before you ...?").
    pub fn what(&self) -> &'static str {
        match self {
            Replacing::Action(Action::NewGame) => "start a new game",
            Replacing::Action(Action::SetPosition(..)) => "set up the position",
            Replacing::Action(_) => "open another game",
            Replacing::Editor(_) => "use the edited position",
            Replacing::Close => "close the window",
        }
    }
}

/// Whether an action replaces the game on the table (and asks first when it is not saved).
fn replaces_game(action: &Action) -> bool {
    matches!(
        action,
        Action::NewGame
            | Action::OpenFile(_)
            | Action::OpenRecent(_)
            | Action::LoadRecord(_)
            | Action::SetPosition(..)
    )
}

/// The application state. [`GuiApp::show`] draws it into a `Ui` and handles input; it is what
/// both the real window and the tests run.
pub struct GuiApp {
    /// The set-up and the players (the players apply at once, the game and size to the next new
    /// game).
    pub settings: Settings,
    model: Model,
    hub: Hub,
    tree: TreeExplorer,
    editor: Editor,
    console: Console,
    solver: Solver,
    position: PositionDialog,
    manager: EngineManager,
    tablebase: TablebasePage,
    review: Review,
    /// The nodes of the line reviewed (`[k]`: after `k` moves), and the model's epoch then.
    review_line: Vec<NodeId>,
    review_epoch: u64,
    help: bool,
    dialogs: FileDialogs,
    path_dialog: PathDialog,
    /// The docked tool whose tab is shown.
    tab: Option<Tool>,
    geometry: Option<Geometry>,
    /// The model's epoch the set-up's game and size were last made to follow.
    epoch: u64,
    /// What waits for the unsaved-game question's answer, while it is asked.
    question: Option<Replacing>,
    /// What waits for the Save dialog (the question's Save, for a game without a file).
    after_save: Option<Replacing>,
    /// A file not the game's own that a save would replace, while the user is asked.
    replacing_file: Option<PathBuf>,
    /// Whether file dialogs are our own ([`PathDialog`]) rather than the system's.
    own_dialogs: bool,
    /// The window size to ask for on the next frame (`--size`, over the remembered one).
    window_size: Option<egui::Vec2>,
    /// Whether the window may close without asking (the question was answered).
    closing: bool,
    /// Whether the window should be closed on the next frame.
    close_now: bool,
}

impl Default for GuiApp {
    fn default() -> Self {
        GuiApp::new(Settings::default())
    }
}

impl GuiApp {
    /// An app with these settings, showing a new game of the set-up.
    pub fn new(settings: Settings) -> GuiApp {
        let tools = dock::from_keys(&settings.tools);
        let session = settings.session.clone();
        let mut app = GuiApp::bare(settings);
        for tool in tools {
            app.show_tool(tool, true);
        }
        if !session.record.is_empty() {
            let file = (!session.file.is_empty()).then(|| PathBuf::from(&session.file));
            let restored = app.model.restore(
                &session.record,
                file.as_deref(),
                session.unsaved,
                session.view,
            );
            match restored {
                Ok(()) => app.model.note_pause(
                    "The last session's game was restored; engine play is paused.".into(),
                ),
                Err(e) => app.model.error(format!(
                    "The last session's game could not be restored: {e}"
                )),
            }
        }
        app
    }

    /// Keeps the game on the table in the settings, to be restored on the next start (a game
    /// without moves is not kept), and which tools are open.
    pub fn remember_session(&mut self) {
        self.settings.tools = self
            .open_tools()
            .into_iter()
            .map(|t| t.key().to_string())
            .collect();
        self.follow_players();
        self.settings.session = match self.model.record_text() {
            Ok(record) if !self.model.game().is_empty() => crate::settings::Session {
                record,
                file: self
                    .model
                    .file()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default(),
                unsaved: self.model.unsaved(),
                view: self.model.view(),
            },
            _ => crate::settings::Session::default(),
        };
    }

    /// An app with these settings and no tool open.
    fn bare(settings: Settings) -> GuiApp {
        let mut model = Model::new(settings.kind(), settings.size);
        if let Ok(Some(tc)) = settings.time_control() {
            model.set_time_control(Some(tc));
            let (kind, size) = (model.game().kind(), model.game().size());
            let _ = model.new_game(kind, size);
        }
        GuiApp {
            model,
            settings,
            hub: Hub::new(),
            tree: TreeExplorer::default(),
            editor: Editor::default(),
            console: Console::default(),
            solver: Solver::default(),
            position: PositionDialog::default(),
            manager: EngineManager::default(),
            tablebase: TablebasePage::default(),
            review: Review::default(),
            review_line: Vec::new(),
            review_epoch: 0,
            help: false,
            dialogs: FileDialogs::default(),
            path_dialog: PathDialog::default(),
            tab: None,
            geometry: None,
            epoch: 0,
            question: None,
            after_save: None,
            replacing_file: None,
            own_dialogs: false,
            window_size: None,
            closing: false,
            close_now: false,
        }
    }

    /// Whether a tool's docked panel is open.
    pub fn tool_open(&self, tool: Tool) -> bool {
        match tool {
            Tool::Engines => self.manager.open,
            Tool::Review => self.review.open,
            Tool::Tablebase => self.tablebase.open,
            Tool::Solver => self.solver.open,
            Tool::Tree => self.tree.open,
            Tool::Console => self.console.open,
            Tool::Help => self.help,
        }
    }

    /// The open tools, in the dock's order.
    pub fn open_tools(&self) -> Vec<Tool> {
        Tool::ALL
            .into_iter()
            .filter(|&t| self.tool_open(t))
            .collect()
    }

    /// The tool whose tab the dock shows (`None`: the players' set-up).
    pub fn shown_tool(&self) -> Option<Tool> {
        self.tab.filter(|&t| self.tool_open(t))
    }

    /// Opens a tool's docked panel (its tab is then shown) or closes it; the settings remember
    /// which are open.
    pub fn show_tool(&mut self, tool: Tool, open: bool) {
        match tool {
            Tool::Engines if open && !self.manager.open => self.open_engine_manager(false),
            Tool::Engines if !open => self.manager.close(),
            Tool::Engines => {}
            Tool::Review => self.review.open = open,
            Tool::Tablebase => self.set_tablebase(open),
            Tool::Solver => self.solver.open = open,
            Tool::Tree => self.tree.open = open,
            Tool::Console => self.console.open = open,
            Tool::Help => self.help = open,
        }
        if open {
            self.tab = Some(tool);
        } else if self.tab == Some(tool) {
            self.tab = self.open_tools().first().copied();
        }
        self.settings.tools = self
            .open_tools()
            .into_iter()
            .map(|t| t.key().to_string())
            .collect();
    }

    /// The game on the table.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The game on the table, to change (the engines follow on the next frame).
    pub fn model_mut(&mut self) -> &mut Model {
        &mut self.model
    }

    /// The names of the running engines (White's, Black's), as their handshake gave them.
    pub fn engine_names(&self) -> [Option<String>; 2] {
        self.hub.engine_names()
    }

    /// The board as last drawn: where its squares are, the dragged piece, the targets and
    /// the sliding piece.
    pub fn board_geometry(&self) -> Option<&Geometry> {
        self.geometry.as_ref()
    }

    /// The on-screen centre of a square, as last drawn.
    pub fn square_centre(&self, sq: usize) -> Option<egui::Pos2> {
        self.geometry.as_ref()?.centre(sq)
    }

    /// Starts a new game of the set-up's game, size and clock.
    pub fn new_game(&mut self) {
        match self.settings.time_control() {
            Ok(tc) => self.model.set_time_control(tc),
            Err(e) => return self.model.error(e),
        }
        if let Err(e) = self
            .model
            .new_game(self.settings.kind(), self.settings.size)
        {
            self.model.error(e);
        }
    }

    /// Starts from command-line words `GAME SIZE [MOVE...]` (nothing: keep the set-up's game).
    /// Problems are shown in the status line.
    pub fn start_from_args(&mut self, args: &[String]) {
        self.model.start_from_args(args);
        self.follow_game();
    }

    /// Makes the set-up's game and size those of the game on the table, once it was replaced.
    fn follow_game(&mut self) {
        if self.epoch != self.model.epoch() {
            self.epoch = self.model.epoch();
            self.settings.game = self.model.game().kind().name().into();
            self.settings.size = self.model.game().size();
        }
    }

    /// The players' names for a record: an engine's as the set-up names it (the saved engine's
    /// name, the typed program, or "engine (ours)"), or "human". Never the running process's
    /// `id name`, which is there or not depending on whether the engine still runs: a game's
    /// records name its engine the same way whenever they are saved.
    pub fn player_name(&self, side: Side) -> String {
        let i = side.index();
        if self.settings.players[i].engine {
            self.settings.player_label(i)
        } else {
            "human".into()
        }
    }

    /// Tells the model who plays each side now ([`GuiApp::player_name`]): the moves played
    /// from now on are theirs, and the records name them.
    fn follow_players(&mut self) {
        let names = [Side::White, Side::Black].map(|s| self.player_name(s));
        self.model.set_playing(names);
    }

    /// Saves the game to a file in the record format, naming the players who played it; it is
    /// then no longer unsaved, and the file is the game's.
    pub fn save(&mut self, path: &Path) -> Result<(), String> {
        self.follow_players();
        self.model.save(path)?;
        self.model.mark_saved(path);
        Ok(())
    }

    /// Saves the game to `path` and says so (the path becomes a recent file and the game's
    /// file); returns whether it was saved.
    fn save_to(&mut self, path: &Path) -> bool {
        match self.save(path) {
            Ok(()) => {
                self.model.note(format!("saved to {}", path.display()));
                self.settings.remember(&path.display().to_string());
                true
            }
            Err(e) => {
                self.model.error(e);
                false
            }
        }
    }

    /// What waits for the unsaved-game question's answer, while it is asked.
    pub fn question(&self) -> Option<&Replacing> {
        self.question.as_ref()
    }

    /// Answers the unsaved-game question: Save saves to the game's file (or asks for one in the
    /// Save dialog) and then goes on, Discard goes on (the game can be brought back once),
    /// Cancel keeps the game.
    pub fn answer(&mut self, answer: Answer) {
        let Some(pending) = self.question.take() else {
            return;
        };
        match answer {
            Answer::Cancel => {}
            Answer::Discard => {
                self.proceed(pending);
                if self.model.message().is_none() && self.model.can_bring_back().is_some() {
                    self.model.note(
                        "The last game was discarded: Bring back (Ctrl+Shift+Z) restores it."
                            .into(),
                    );
                }
            }
            Answer::Save => match self.model.file().map(Path::to_path_buf) {
                Some(path) => {
                    if self.save_to(&path) {
                        self.proceed(pending);
                    }
                }
                None => {
                    self.after_save = Some(pending);
                    self.start_dialog(Purpose::Save);
                }
            },
        }
    }

    /// Does what waited for the question.
    fn proceed(&mut self, pending: Replacing) {
        match pending {
            Replacing::Action(action) => self.apply_now(action),
            Replacing::Editor(analyse) => {
                if let Err(e) = self.use_edited(analyse) {
                    self.model.error(e);
                }
            }
            Replacing::Close => {
                self.closing = true;
                self.close_now = true;
            }
        }
    }

    /// Uses the file chosen in a Save or Open dialog: it becomes the file path, and the game
    /// is saved there or the file opened.
    pub fn file_chosen(&mut self, purpose: Purpose, path: &Path) {
        let text = path.display().to_string();
        match purpose {
            Purpose::Save => self.apply(Action::SaveTo(text)),
            Purpose::Open => self.apply(Action::OpenFile(text)),
            Purpose::Engine => self.manager.set_program(&self.settings.engines, &text),
        }
    }

    /// Opens our own file dialog for `purpose` (what a system dialog that could not be shown
    /// falls back to), starting from the file path of the settings.
    pub fn open_path_dialog(&mut self, purpose: Purpose) {
        let start = self.dialog_start(purpose);
        self.path_dialog.open(purpose, &start);
    }

    /// Asks the window for this size (points) on the next frame: a size given on the command
    /// line wins over the one eframe remembered from the last run.
    pub fn ask_window_size(&mut self, size: [f32; 2]) {
        self.window_size = Some(egui::Vec2::from(size));
    }

    /// Uses our own file dialogs ([`PathDialog`]) rather than the system's (`true`), as when
    /// the system's cannot be shown.
    pub fn use_own_dialogs(&mut self, own: bool) {
        self.own_dialogs = own;
    }

    /// The path a file dialog for `purpose` starts from: to save, the game's own file or a
    /// name no file has ([`saving::suggested_path`]), never another game's file; to open,
    /// the last path used.
    pub fn dialog_start(&self, purpose: Purpose) -> String {
        match purpose {
            Purpose::Save => saving::suggested_path(self.model.file(), &self.settings.path)
                .display()
                .to_string(),
            Purpose::Open => self.settings.path.clone(),
            Purpose::Engine => String::new(),
        }
    }

    /// Opens a file dialog for `purpose`: the system's, or our own.
    fn start_dialog(&mut self, purpose: Purpose) {
        if self.own_dialogs {
            self.open_path_dialog(purpose);
        } else {
            let start = self.dialog_start(purpose);
            self.dialogs.start(purpose, &start);
        }
    }

    /// The file a save waits to replace while the user is asked ([`saving::REPLACE_TITLE`]).
    pub fn replacing_file(&self) -> Option<&Path> {
        self.replacing_file.as_deref()
    }

    /// Answers the question before another file is replaced: `true` saves over it (and goes on
    /// with what waited for the save), `false` keeps it and saves nothing.
    pub fn answer_replace(&mut self, replace: bool) {
        let Some(path) = self.replacing_file.take() else {
            return;
        };
        if replace {
            self.save_and_proceed(&path);
        } else {
            self.after_save = None;
            self.model.note(format!(
                "Nothing was saved: {} was kept as it was.",
                path.display()
            ));
        }
    }

    /// Saves to `path` and then does what waited for the save.
    fn save_and_proceed(&mut self, path: &Path) {
        let after = self.after_save.take();
        if self.save_to(path)
            && let Some(pending) = after
        {
            self.proceed(pending);
        }
    }

    /// Whether the analysis engine runs.
    pub fn analysing(&self) -> bool {
        self.hub.analysing()
    }

    /// Starts or ends analysis mode: our engine searches the shown position until it changes.
    pub fn set_analysis(&mut self, on: bool) {
        if let Err(e) = self
            .hub
            .set_analysis(on, &mut self.model, &self.settings, &self.console)
        {
            self.model.error(e);
        }
    }

    /// The analysis engine's name (the saved name, and its `id name` once its handshake is
    /// done) and the options it declared.
    pub fn analysis_engine(&self) -> Option<(String, Vec<engine::protocol::OptionDecl>)> {
        self.hub.analysis_engine()
    }

    /// The engine manager.
    pub fn engine_manager(&self) -> &EngineManager {
        &self.manager
    }

    /// The engine manager, to change.
    pub fn engine_manager_mut(&mut self) -> &mut EngineManager {
        &mut self.manager
    }

    /// Opens the engine manager on the saved engines (`read`: and reads the options of the
    /// first one, starting it through the hub).
    pub fn open_engine_manager(&mut self, read: bool) {
        self.manager.open_on(&self.settings.engines);
        self.tab = Some(Tool::Engines);
        if read && let Some(e) = self.settings.engines.first() {
            let mut probe = e.clone();
            probe.options.clear();
            self.read_options(e.name.clone(), probe.launch());
        }
    }

    /// Starts an engine to read the options of its `uci` reply for the engine manager.
    fn read_options(&mut self, name: String, launch: crate::controller::Launch) {
        let log = self.console.log(Role::Options);
        match self.hub.spawn(launch, log) {
            Some(h) => {
                if let Some(old) = self.manager.end() {
                    self.hub.end(old);
                }
                self.manager.reading(name, h);
            }
            None => self
                .model
                .error("engines cannot run: no async runtime".into()),
        }
    }

    /// The tablebase page.
    pub fn tablebase(&self) -> &TablebasePage {
        &self.tablebase
    }

    /// Opens or closes the tablebase page (it probes the shown position when open).
    pub fn set_tablebase(&mut self, open: bool) {
        self.tablebase.open = open;
        if open {
            self.tab = Some(Tool::Tablebase);
        }
        self.follow_tablebase();
    }

    /// Makes the tablebase page follow the shown position.
    fn follow_tablebase(&mut self) {
        let dir = self.settings.tablebase_dir();
        self.tablebase
            .follow(&dir, self.model.game(), self.model.view());
    }

    /// The game review.
    pub fn review(&self) -> &Review {
        &self.review
    }

    /// Opens the review's panel and reviews the game on the table (the line shown): exact
    /// values from the tables in the set directory, a search of our engine elsewhere.
    pub fn start_review(&mut self) {
        self.show_tool(Tool::Review, true);
        self.review_line = self.model.line().to_vec();
        self.review_epoch = self.model.epoch();
        let dir = self.settings.tablebase_dir();
        if let Some(old) = self.review.start(self.model.game(), &dir) {
            self.hub.end(old);
        }
    }

    /// Reads the review's progress, and puts what it found on the reviewed line's moves: their
    /// marks (the move table) and the positions' values (the graph).
    fn poll_review(&mut self) {
        // Another game on the table: the review, and its moves' nodes, are of the old one.
        if self.review.game().is_some() && self.review_epoch != self.model.epoch() {
            if let Some(h) = self.review.clear() {
                self.hub.end(h);
            }
            self.review_line.clear();
            return;
        }
        let hub = &self.hub;
        let log = self.console.log(Role::Review);
        let spawn = || hub.spawn(Player::default().launch(), log);
        let (done, changed) = self.review.poll(spawn);
        if let Some(h) = done {
            self.hub.end(h);
        }
        if !changed {
            return;
        }
        for (k, v) in self.review.values().iter().enumerate() {
            if let (Some(v), Some(&id)) = (v, self.review_line.get(k)) {
                self.model.set_eval(id, v.score);
            }
        }
        for m in self.review.moves() {
            if let Some(&id) = self.review_line.get(m.ply + 1) {
                self.model.set_mark(id, m.mark);
            }
        }
    }

    /// The search tree explorer.
    pub fn tree(&self) -> &TreeExplorer {
        &self.tree
    }

    /// The search tree explorer, to change.
    pub fn tree_mut(&mut self) -> &mut TreeExplorer {
        &mut self.tree
    }

    /// Opens the search tree window and runs a traced search of the shown position on an
    /// engine of its own.
    pub fn run_tree_search(&mut self) {
        self.tree.open = true;
        self.tab = Some(Tool::Tree);
        let hub = &self.hub;
        let log = self.console.log(Role::Tree);
        let spawn = || hub.spawn(Player::default().launch(), log);
        if let Some(old) = self.tree.start(spawn, self.model.game(), self.model.view()) {
            self.hub.end(old);
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
        self.editor.open_on(self.model.game(), self.model.view());
    }

    /// Uses the editor's position: it replaces the game on the table (`analyse`: and analysis
    /// mode runs on it), and the status line says so. Refused with the rules' message when the
    /// position is not legal.
    pub fn use_edited(&mut self, analyse: bool) -> Result<(), String> {
        let game = self.editor.check()?;
        let what = if analyse {
            "analysis runs on the edited position"
        } else {
            "the game goes on from the edited position"
        };
        self.model.replace_game(game, what);
        self.follow_game();
        self.editor.open = false;
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
        self.tab = Some(Tool::Solver);
        let hub = &self.hub;
        let log = self.console.log(Role::Solve);
        let spawn = || hub.spawn(Player::default().launch(), log);
        if let Some(old) = self
            .solver
            .start(spawn, self.model.game(), self.model.view())
        {
            self.hub.end(old);
        }
    }

    /// Stops the running solve (`stop`; the engine's answer is awaited in the background).
    pub fn stop_solve(&mut self) {
        self.solver.request_stop();
    }

    /// Does what a panel or a key asked for. An action that would replace a game with changes
    /// not saved asks first ([`GuiApp::question`]).
    pub fn apply(&mut self, action: Action) {
        if replaces_game(&action) && self.model.unsaved() {
            self.question = Some(Replacing::Action(action));
            return;
        }
        self.apply_now(action);
    }

    /// Does what a panel or a key asked for, without asking.
    fn apply_now(&mut self, action: Action) {
        self.follow_players();
        let engines = self.settings.engines();
        let m = &mut self.model;
        match action {
            Action::NewGame => self.new_game(),
            Action::BringBack => {
                if !m.bring_back() {
                    m.note("There is no game to bring back.".into());
                }
            }
            Action::SetSetup(kind, size) => {
                self.settings.game = kind.name().into();
                self.settings.size = size;
            }
            Action::SetClock(text) => self.settings.clock = text,
            Action::SetPlayer(i, p) => {
                self.settings.players[i] = p;
                // With no engine left, an engine's failure has nothing to resume; the failed
                // side with another player forgets it (follow_players).
                if !self.settings.players.iter().any(|p| p.engine) {
                    self.model.clear_failure();
                }
            }
            Action::Save => match m.file().map(Path::to_path_buf) {
                Some(path) => {
                    self.save_to(&path);
                }
                None => self.start_dialog(Purpose::Save),
            },
            Action::SaveTo(path) => {
                self.settings.path.clone_from(&path);
                let path = PathBuf::from(path.trim());
                if saving::replaces_another(&path, self.model.file()) {
                    self.replacing_file = Some(path);
                } else {
                    self.save_and_proceed(&path);
                }
            }
            Action::OpenFile(path) | Action::OpenRecent(path) => {
                self.settings.path.clone_from(&path);
                let path = PathBuf::from(path.trim());
                match m.open(&path) {
                    Ok(_) => self.settings.remember(&path.display().to_string()),
                    Err(e) => m.error(e),
                }
            }
            Action::SaveAs => self.start_dialog(Purpose::Save),
            Action::OpenDialog => self.start_dialog(Purpose::Open),
            Action::Quit => {
                if self.model.unsaved() {
                    self.question = Some(Replacing::Close);
                } else {
                    self.proceed(Replacing::Close);
                }
            }
            Action::ShowTool(tool, open) => self.show_tool(tool, open),
            Action::ToggleTool(tool) => {
                let open = !self.tool_open(tool);
                self.show_tool(tool, open);
            }
            Action::LoadRecord(n) => m.load_opened(n),
            Action::OpenPositionDialog => self.position.open_on(m),
            Action::SetPosition(kind, text, side) => match m.set_position(kind, &text, side) {
                Ok(()) => self.position.open = false,
                Err(e) => self.position.error = Some(format!("This board cannot be used: {e}")),
            },
            Action::Flip => m.flip(),
            Action::ToggleAnalysis => self.set_analysis(!self.hub.analysing()),
            Action::ToggleEditor if self.editor.open => self.editor.open = false,
            Action::ToggleEditor | Action::OpenEditor => self.open_editor(),
            Action::OpenSolver => self.show_tool(Tool::Solver, true),
            Action::Note(text) => m.note(text),
            Action::GoTo(ply) => m.go_to(ply),
            Action::GoToNode(id) => m.go_to_node(id),
            Action::Promote(id) => m.promote(id),
            Action::DeleteNode(id) => m.delete(id),
            Action::TakeBack => m.takeback(engines),
            Action::Play(mv) => m.play_human(Some(mv), engines),
            Action::PlayBest => m.play_human(m.best_shown(), engines),
            Action::Click(sq) => m.click(sq, engines),
            Action::Drag(from, to) => m.drag(from, to, engines),
            Action::Pause(paused) => m.set_paused(paused),
            Action::MoveNow => self.hub.move_now(m),
            Action::OpenEngines => self.show_tool(Tool::Engines, true),
            Action::SetEngines(list) => {
                self.settings.set_engines(list);
                m.note("the saved engines were applied".into());
            }
            Action::SetAnalysisEngine(name) => self.settings.analysis = name,
            Action::SetLines(n) => self.settings.lines = n,
            Action::SetTablebaseDir(dir) => self.settings.tablebase = dir,
        }
        self.model.tick_clocks(Instant::now());
        self.follow_game();
        self.follow_players();
    }

    /// Ends every engine (`quit`, then kill after a short grace) and waits until their processes
    /// are reaped (at most a few seconds).
    pub fn shutdown(&mut self) {
        if let Some(h) = self.tree.stop() {
            self.hub.end(h);
        }
        if let Some(h) = self.solver.end() {
            self.hub.end(h);
        }
        if let Some(h) = self.manager.end() {
            self.hub.end(h);
        }
        if let Some(h) = self.review.end() {
            self.hub.end(h);
        }
        self.hub.shutdown();
    }

    /// Reads the engines' events and starts the searches that are due. Never blocks.
    pub fn drive_engines(&mut self) {
        self.hub
            .drive(&mut self.model, &self.settings, &self.console);
        if let Some(h) = self.tree.poll() {
            self.hub.end(h);
        }
        if let Some(h) = self.solver.poll() {
            self.hub.end(h);
        }
        if let Some(h) = self.manager.poll() {
            self.hub.end(h);
        }
        self.poll_review();
        self.follow_tablebase();
    }

    /// Draws the whole app into `ui` and handles its input.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        self.hub.set_context(ui.ctx());
        self.follow_game();
        self.follow_players();
        self.drive_engines();
        self.dialogs.set_context(ui.ctx());
        match self.dialogs.poll() {
            Some((purpose, Some(path))) => self.file_chosen(purpose, &path),
            Some((purpose, None)) if self.dialogs.never_shown() => {
                // No system dialog could be shown: our own asks for the path.
                self.open_path_dialog(purpose);
            }
            Some((_, None)) => {
                self.after_save = None;
                self.model.note(NO_FILE.into());
            }
            None => {}
        }
        match self.path_dialog.window(ui.ctx()) {
            Some(PathAnswer::Chosen(purpose, path)) => self.file_chosen(purpose, &path),
            Some(PathAnswer::Cancelled) => {
                self.after_save = None;
                self.model.note(NO_FILE.into());
            }
            None => {}
        }
        let ctx = ui.ctx().clone();
        if ctx.input(|i| i.viewport().close_requested()) && !self.closing && self.model.unsaved() {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.question = Some(Replacing::Close);
        }
        if let Some(size) = self.window_size.take() {
            ctx.send_viewport_cmd(egui::ViewportCommand::InnerSize(size));
        }
        if std::mem::take(&mut self.close_now) {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        let mut actions = match self.question {
            Some(_) => Vec::new(),
            None if self.path_dialog.is_open() || self.replacing_file.is_some() => Vec::new(),
            None => panels::help::keys(ui, &self.model),
        };
        let open = Tool::ALL.map(|t| self.tool_open(t));
        let menu = MenuState {
            model: &self.model,
            settings: &self.settings,
            open,
        };
        egui::Panel::top("menu").show(ui, |ui| {
            actions.extend(panels::menu::ui(ui, &menu));
        });
        let (model, settings) = (&self.model, &self.settings);
        let (width, height) = (ui.available_width(), ui.available_height());
        egui::Panel::bottom("status").show(ui, |ui| {
            actions.extend(panels::status::ui(ui, model, settings));
        });
        // Across the whole width, so that the engine panels keep room in a small window.
        egui::Panel::bottom("analysis")
            .resizable(true)
            .default_size((height * 0.25).clamp(110.0, 220.0))
            .show(ui, |ui| actions.extend(panels::engines::ui(ui, model)));
        self.dock(ui, width, &mut actions);
        let (model, settings) = (&self.model, &self.settings);
        egui::Panel::right("moves")
            .resizable(false)
            .exact_size((width * 0.17).clamp(180.0, 230.0))
            .show(ui, |ui| actions.extend(panels::moves::ui(ui, model)));
        let mut editor_action = None;
        egui::CentralPanel::default().show(ui, |ui| {
            if self.editor.open {
                editor_action = self.editor.ui(ui);
            } else {
                let (geo, action) = panels::board_area::ui(ui, model, settings);
                self.geometry = Some(geo);
                actions.extend(action);
            }
        });
        match self.position.window(ui.ctx()) {
            Some(PositionAction::Set(a)) => actions.push(a),
            Some(PositionAction::Edit) => {
                self.position.open = false;
                actions.push(Action::OpenEditor);
            }
            None => {}
        }
        for action in actions {
            self.apply(action);
        }
        if let Some(pending) = &self.question
            && let Some(answer) = question::window(&ctx, &self.model, pending.what())
        {
            self.answer(answer);
        }
        if let Some(path) = &self.replacing_file
            && let Some(replace) = saving::replace_window(&ctx, path)
        {
            self.answer_replace(replace);
        }
        match editor_action {
            Some(EditorAction::Play) => self.use_editor(false),
            Some(EditorAction::Analyse) => self.use_editor(true),
            Some(EditorAction::Close) => self.editor.open = false,
            None => {}
        }
        // Engines' events wake the window themselves (the hub's waker); only a tablebase probe
        // and a review, on threads of their own, are looked at again until they answer.
        if self.tablebase.probing() || self.review.running() {
            ui.ctx().request_repaint_after(Duration::from_millis(100));
        }
        if let Some(wait) = self.model.clocks_change_in(Instant::now()) {
            ui.ctx().request_repaint_after(wait);
        }
    }

    fn use_editor(&mut self, analyse: bool) {
        if self.model.unsaved() {
            self.question = Some(Replacing::Editor(analyse));
        } else {
            self.proceed(Replacing::Editor(analyse));
        }
    }

    /// The dock left of the board (`width` the window's): the tabs, and the set-up or the
    /// shown tool's panel (wider).
    fn dock(&mut self, ui: &mut egui::Ui, width: f32, actions: &mut Vec<Action>) {
        let shown = self.shown_tool();
        let open = self.open_tools();
        let panel = match shown {
            None => egui::Panel::left("setup")
                .resizable(false)
                .exact_size((width * 0.22).clamp(220.0, 260.0)),
            Some(_) => egui::Panel::left("dock")
                .resizable(true)
                .default_size((width * 0.3).clamp(300.0, 520.0))
                .size_range(240.0..=(width * 0.5).max(300.0)),
        };
        panel.show(ui, |ui| {
            if !open.is_empty() {
                match dock::tabs(ui, &open, shown) {
                    Some(TabAction::Show(t)) => self.tab = t,
                    Some(TabAction::Close(t)) => actions.push(Action::ShowTool(t, false)),
                    None => {}
                }
                ui.separator();
            }
            match shown {
                None => {
                    egui::ScrollArea::vertical().show(ui, |ui| {
                        actions.extend(panels::setup::ui(ui, &self.model, &self.settings))
                    });
                }
                Some(tool) => {
                    ui.push_id(tool.key(), |ui| self.tool_panel(ui, tool, actions));
                }
            }
        });
    }

    /// One tool's docked panel.
    fn tool_panel(&mut self, ui: &mut egui::Ui, tool: Tool, actions: &mut Vec<Action>) {
        match tool {
            Tool::Tree => {
                if self.tree.ui(ui) {
                    self.run_tree_search();
                }
            }
            Tool::Solver => match self.solver.panel(ui, self.model.game(), self.model.view()) {
                Some(SolveAction::Solve) => self.run_solve(),
                Some(SolveAction::Stop) => self.stop_solve(),
                None => {}
            },
            Tool::Console => {
                if let Some((role, text)) = self.console.ui(ui)
                    && let Err(why) = self.hub.type_command(role, &text)
                {
                    crate::controller::log_line(
                        &self.console.log(role),
                        format!("# not sent: '{text}': {why}"),
                    );
                }
            }
            Tool::Review => match self.review.ui(ui, self.model.game(), self.model.view()) {
                Some(ReviewAction::Start) => self.start_review(),
                Some(ReviewAction::GoTo(ply)) => {
                    if let Some(&id) = self.review_line.get(ply) {
                        actions.push(Action::GoToNode(id));
                    }
                }
                None => {}
            },
            Tool::Engines => match self.manager.ui(ui, &self.settings.engines) {
                Some(ManagerAction::Apply(list)) => actions.push(Action::SetEngines(list)),
                Some(ManagerAction::ReadOptions(name, launch)) => self.read_options(name, launch),
                Some(ManagerAction::Browse) => self.dialogs.start(Purpose::Engine, ""),
                None => {}
            },
            Tool::Tablebase => {
                let dir = self.settings.tablebase_dir();
                actions.extend(self.tablebase.panel(ui, &self.settings.tablebase, &dir));
            }
            Tool::Help => panels::help::ui(ui),
        }
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
        self.remember_session();
        eframe::set_value(storage, SETTINGS_KEY, &self.settings);
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        self.shutdown();
    }
}
