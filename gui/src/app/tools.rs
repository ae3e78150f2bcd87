//! What the dock's tools start and show: which are open and which tab is shown, the engines
//! the tools run on (through the hub), the review's marks and values put on the moves, and the
//! dock itself, which draws the shown tool through [`ToolPanel`](crate::tools::ToolPanel).

use eframe::egui;

use super::GuiApp;
use crate::console::{Console, Role};
use crate::editor::Editor;
use crate::error::GameError;
use crate::panels::dock::{Dock, Pane, Tool};
use crate::panels::engine_manager::EngineManager;
use crate::panels::{self, Action};
use crate::review::Review;
use crate::settings::Player;
use crate::solve::Solver;
use crate::tablebase::TablebasePage;
use crate::tools::ToolContext;
use crate::tree::TreeExplorer;

/// The dock's least width (points): one pane's (the set-up's fields and a tool's buttons fit).
pub const DOCK_MIN: f32 = crate::panels::dock::PANE_MIN_WIDTH;

impl GuiApp {
    /// Whether a tool's docked panel is open.
    pub fn tool_open(&self, tool: Tool) -> bool {
        self.tools.get(tool).is_open()
    }

    /// The open tools, in the dock's order.
    pub fn open_tools(&self) -> Vec<Tool> {
        self.tools.open()
    }

    /// The tool whose tab the dock shows, the one last clicked or opened when several panes are
    /// in view (`None`: the players' set-up).
    pub fn shown_tool(&self) -> Option<Tool> {
        match self.dock.shown() {
            Pane::Tool(t) => Some(t),
            Pane::Setup => None,
        }
    }

    /// The dock: its panes and where they were drawn.
    pub fn dock(&self) -> &Dock {
        &self.dock
    }

    /// Opens a tool's docked panel (its tab is then shown) or closes it; the settings remember
    /// which are open.
    pub fn show_tool(&mut self, tool: Tool, open: bool) {
        self.tools.get_mut(tool).set_open(open);
        self.follow_tablebase();
        if open {
            self.dock.open(tool);
        } else {
            self.dock.close(tool);
        }
        self.settings.tools = self
            .open_tools()
            .into_iter()
            .map(|t| t.key().to_string())
            .collect();
    }

    /// Whether the analysis engine runs.
    pub fn analysing(&self) -> bool {
        self.hub.analysing()
    }

    /// Starts or ends analysis mode: our engine searches the shown position until it changes.
    pub fn set_analysis(&mut self, on: bool) {
        if let Err(e) =
            self.hub
                .set_analysis(on, &mut self.model, &self.settings, &self.tools.console)
        {
            self.model.error(e.to_string());
        }
    }

    /// The analysis engine's name (the saved name, and its `id name` once its handshake is
    /// done) and the options it declared.
    pub fn analysis_engine(&self) -> Option<(String, Vec<boardgames_core::protocol::OptionDecl>)> {
        self.hub.analysis_engine()
    }

    /// The engine manager.
    pub fn engine_manager(&self) -> &EngineManager {
        &self.tools.manager
    }

    /// The engine manager, to change.
    pub fn engine_manager_mut(&mut self) -> &mut EngineManager {
        &mut self.tools.manager
    }

    /// Opens the engine manager on the saved engines (`read`: and reads the options of the
    /// first one, starting it through the hub).
    pub fn open_engine_manager(&mut self, read: bool) {
        self.tools.manager.open_on(&self.settings.engines);
        self.show_tool(Tool::Engines, true);
        if read && let Some(e) = self.settings.engines.first() {
            let mut probe = e.clone();
            probe.options.clear();
            self.read_options(e.name.clone(), probe.launch());
        }
    }

    /// Starts an engine to read the options of its `uci` reply for the engine manager.
    pub(super) fn read_options(&mut self, name: String, launch: crate::controller::Launch) {
        let log = self.tools.console.log(Role::Options);
        match self.hub.spawn(launch, log) {
            Some(h) => {
                if let Some(old) = self.tools.manager.end() {
                    self.hub.end(old);
                }
                self.tools.manager.reading(name, h);
            }
            None => self
                .model
                .error("engines cannot run: no async runtime".into()),
        }
    }

    /// The tablebase page.
    pub fn tablebase(&self) -> &TablebasePage {
        &self.tools.tablebase
    }

    /// Opens or closes the tablebase page (it probes the shown position when open).
    pub fn set_tablebase(&mut self, open: bool) {
        self.show_tool(Tool::Tablebase, open);
    }

    /// Makes the tablebase page follow the shown position.
    pub(super) fn follow_tablebase(&mut self) {
        let dir = self.settings.tablebase_dir();
        self.tools
            .tablebase
            .follow(&dir, self.model.game(), self.model.view());
    }

    /// The game review.
    pub fn review(&self) -> &Review {
        &self.tools.review
    }

    /// Opens the review's panel and reviews the game on the table (the line shown): exact
    /// values from the tables in the set directory, a search of our engine elsewhere.
    pub fn start_review(&mut self) {
        self.show_tool(Tool::Review, true);
        self.review_line = self.model.line().to_vec();
        self.review_epoch = self.model.epoch();
        let dir = self.settings.tablebase_dir();
        if let Some(old) = self.tools.review.start(self.model.game(), &dir) {
            self.hub.end(old);
        }
    }

    /// Reads the review's progress, and puts what it found on the reviewed line's moves: their
    /// marks (the move table) and the positions' values (the graph).
    pub(super) fn poll_review(&mut self) {
        // Another game on the table: the review, and its moves' nodes, are of the old one.
        if self.tools.review.game().is_some() && self.review_epoch != self.model.epoch() {
            if let Some(h) = self.tools.review.clear() {
                self.hub.end(h);
            }
            self.review_line.clear();
            return;
        }
        let hub = &self.hub;
        let log = self.tools.console.log(Role::Review);
        let spawn = || hub.spawn(Player::default().launch(), log);
        let (done, changed) = self.tools.review.poll(spawn);
        if let Some(h) = done {
            self.hub.end(h);
        }
        if !changed {
            return;
        }
        for (k, v) in self.tools.review.values().iter().enumerate() {
            if let (Some(v), Some(&id)) = (v, self.review_line.get(k)) {
                self.model.set_eval(id, v.score);
            }
        }
        for m in self.tools.review.moves() {
            if let Some(&id) = self.review_line.get(m.ply + 1) {
                self.model.set_mark(id, m.mark);
            }
        }
    }

    /// The search tree explorer.
    pub fn tree(&self) -> &TreeExplorer {
        &self.tools.tree
    }

    /// The search tree explorer, to change.
    pub fn tree_mut(&mut self) -> &mut TreeExplorer {
        &mut self.tools.tree
    }

    /// Opens the search tree window and runs a traced search of the shown position on an
    /// engine of its own.
    pub fn run_tree_search(&mut self) {
        self.show_tool(Tool::Tree, true);
        let hub = &self.hub;
        let log = self.tools.console.log(Role::Tree);
        let spawn = || hub.spawn(Player::default().launch(), log);
        if let Some(old) = self
            .tools
            .tree
            .start(spawn, self.model.game(), self.model.view())
        {
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
    pub fn use_edited(&mut self, analyse: bool) -> Result<(), GameError> {
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
        &self.tools.console
    }

    /// The engine console, to change.
    pub fn console_mut(&mut self) -> &mut Console {
        &mut self.tools.console
    }

    /// The solver.
    pub fn solver(&self) -> &Solver {
        &self.tools.solver
    }

    /// Opens the solver window and asks our engine (a process of its own) to solve the shown
    /// position.
    pub fn run_solve(&mut self) {
        self.show_tool(Tool::Solver, true);
        let hub = &self.hub;
        let log = self.tools.console.log(Role::Solve);
        let spawn = || hub.spawn(Player::default().launch(), log);
        if let Some(old) = self
            .tools
            .solver
            .start(spawn, self.model.game(), self.model.view())
        {
            self.hub.end(old);
        }
    }

    /// Stops the running solve (`stop`; the engine's answer is awaited in the background).
    pub fn stop_solve(&mut self) {
        self.tools.solver.request_stop();
    }

    /// The dock left of the board (`width` the window's, `moves` the moves panel's): its panes
    /// in a panel as wide as the panes need side by side, resizable up to the room the board
    /// leaves. The board has priority: it is as large as the height allows, or, when the
    /// window is too narrow for that, as large as the room beside the narrowest dock allows; so
    /// opening, closing or widening the dock never changes it.
    pub(super) fn dock_panel(
        &mut self,
        ui: &mut egui::Ui,
        width: f32,
        moves: f32,
        actions: &mut Vec<Action>,
    ) {
        let area = ui.available_rect_before_wrap();
        let margin = egui::Frame::central_panel(ui.style()).total_margin().sum();
        let layout = self.model.game().layout();
        let board = panels::board_area::width_for(ui, layout, area.height() - margin.y);
        // The panel's edge takes a point or two of its width.
        const EDGE: f32 = 2.0;
        let room = (area.width() - moves - board - margin.x).max(DOCK_MIN + EDGE);
        self.dock.follow(&self.open_tools());
        self.dock.fit(room - EDGE);
        let least = self.dock.min_width().max(DOCK_MIN) + EDGE;
        let most = room.max(least);
        let panel = egui::Panel::left("dock")
            .resizable(true)
            .frame(egui::Frame::side_top_panel(ui.style()).inner_margin(0))
            .default_size((width * 0.32).clamp(least, 480.0).min(most))
            .size_range(least..=most);
        panel.show(ui, |ui| {
            let cx = ToolContext {
                model: &self.model,
                settings: &self.settings,
            };
            actions.extend(self.dock.ui(ui, &cx, &mut self.tools));
        });
    }

    /// Sends a command typed in the engine console to the engine of `role`; the console says
    /// when it could not be sent.
    pub(super) fn send_to_engine(&mut self, role: Role, text: &str) {
        if let Err(why) = self.hub.type_command(role, text) {
            crate::controller::log_line(
                &self.tools.console.log(role),
                format!("# not sent: '{text}': {why}"),
            );
        }
    }
}
