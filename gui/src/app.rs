//! The application: composes the [`Model`] (the game on the table), the engine [`Hub`], the
//! panels and the dock's [`Tools`] (each a [`ToolPanel`](crate::tools::ToolPanel)), and applies the [`Action`]s they
//! return. Saving, opening and the questions before anything is lost are in [`files`]; what
//! the tools' actions start (their engines, the review's marks) is in [`tools`].

mod files;
mod tools;

use files::replaces_game;
pub use files::{NO_FILE, Replacing};
pub use tools::DOCK_MIN;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use eframe::egui;

use crate::board::Geometry;
use crate::dialogs::{FileDialogs, Purpose};
use crate::editor::{Editor, EditorAction};
use crate::hub::Hub;
use crate::model::{Model, NodeId};
use crate::panels::dock::{self, Dock, Tool};
use crate::panels::menu::MenuState;
use crate::panels::path_dialog::{PathAnswer, PathDialog};
use crate::panels::position::{PositionAction, PositionDialog};
use crate::panels::question;
use crate::panels::{self, Action};
use crate::saving;
pub use crate::settings::{Limit, Player, SETTINGS_KEY, Settings, default_engine};
use crate::tools::Tools;

/// The smallest window (points) the program opens: everything is shown at this size.
pub const MIN_WINDOW: [f32; 2] = [800.0, 600.0];

/// The application state. [`GuiApp::show`] draws it into a `Ui` and handles input; it is what
/// both the real window and the tests run.
pub struct GuiApp {
    /// The set-up and the players (the players apply at once, the game and size to the next new
    /// game).
    pub settings: Settings,
    model: Model,
    hub: Hub,
    /// The dock's tools.
    tools: Tools,
    editor: Editor,
    position: PositionDialog,
    /// The nodes of the line reviewed (`[k]`: after `k` moves), and the model's epoch then.
    review_line: Vec<NodeId>,
    review_epoch: u64,
    dialogs: FileDialogs,
    path_dialog: PathDialog,
    /// The dock's panes and how they are arranged.
    dock: Dock,
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
    /// Whether the game on the table was discarded as the window closed (not kept for the next
    /// start).
    discarded: bool,
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
            tools: Tools::default(),
            editor: Editor::default(),
            position: PositionDialog::default(),
            review_line: Vec::new(),
            review_epoch: 0,
            dialogs: FileDialogs::default(),
            path_dialog: PathDialog::default(),
            dock: Dock::default(),
            geometry: None,
            epoch: 0,
            question: None,
            after_save: None,
            replacing_file: None,
            own_dialogs: false,
            window_size: None,
            closing: false,
            discarded: false,
            close_now: false,
        }
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
            Err(e) => return self.model.error(e.to_string()),
        }
        if let Err(e) = self
            .model
            .new_game(self.settings.kind(), self.settings.size)
        {
            self.model.error(e.to_string());
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

    /// Asks the window for this size (points) on the next frame: a size given on the command
    /// line wins over the one eframe remembered from the last run.
    pub fn ask_window_size(&mut self, size: [f32; 2]) {
        self.window_size = Some(egui::Vec2::from(size));
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
                    Err(e) => m.error(e.to_string()),
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
            Action::RunTreeSearch => self.run_tree_search(),
            Action::RunSolve => self.run_solve(),
            Action::StopSolve => self.stop_solve(),
            Action::StartReview => self.start_review(),
            Action::ReviewGoTo(ply) => {
                if let Some(&id) = self.review_line.get(ply) {
                    self.model.go_to_node(id);
                }
            }
            Action::SendToEngine(role, text) => self.send_to_engine(role, &text),
            Action::ReadOptions(name, launch) => self.read_options(name, launch),
            Action::BrowseEngine => self.dialogs.start(Purpose::Engine, ""),
        }
        self.model.tick_clocks(Instant::now());
        self.follow_game();
        self.follow_players();
    }

    /// Ends every engine (`quit`, then kill after a short grace) and waits until their processes
    /// are reaped (at most a few seconds).
    pub fn shutdown(&mut self) {
        for tool in self.tools.all_mut() {
            if let Some(h) = tool.end() {
                self.hub.end(h);
            }
        }
        self.hub.shutdown();
    }

    /// Reads the engines' events and starts the searches that are due. Never blocks.
    pub fn drive_engines(&mut self) {
        self.hub
            .drive(&mut self.model, &self.settings, &self.tools.console);
        for tool in self.tools.all_mut() {
            if let Some(h) = tool.poll() {
                self.hub.end(h);
            }
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
        let moves = (width * 0.17).clamp(180.0, 230.0);
        self.dock_panel(ui, width, moves, &mut actions);
        let (model, settings) = (&self.model, &self.settings);
        egui::Panel::right("moves")
            .resizable(false)
            .exact_size(moves)
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
        if self.tools.tablebase.probing() || self.tools.review.running() {
            ui.ctx().request_repaint_after(Duration::from_millis(100));
        }
        if let Some(wait) = self.model.clocks_change_in(Instant::now()) {
            ui.ctx().request_repaint_after(wait);
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
