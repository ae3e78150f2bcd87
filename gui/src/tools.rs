//! The dock's tools behind one trait, as egui's demo app puts its windows behind `Demo`/`View`:
//! each [`ToolPanel`] says whether it is open, draws its docked panel from the game on the table
//! and the settings, and returns what was asked for there as [`Action`]s, which the app applies
//! like any panel's. A tool that runs an engine of its own gives it back to be ended when it is
//! done ([`ToolPanel::poll`]) or when the app ends ([`ToolPanel::end`]).

use eframe::egui;

use crate::console::Console;
use crate::controller::EngineHandle;
use crate::model::Model;
use crate::panels::Action;
use crate::panels::dock::Tool;
use crate::panels::engine_manager::{EngineManager, ManagerAction};
use crate::review::{Review, ReviewAction};
use crate::settings::Settings;
use crate::solve::{SolveAction, Solver};
use crate::tablebase::TablebasePage;
use crate::tree::TreeExplorer;

/// What a tool sees while it draws: the game on the table and the settings.
pub struct ToolContext<'a> {
    /// The game on the table.
    pub model: &'a Model,
    /// The settings (the saved engines, the tablebase directory, ...).
    pub settings: &'a Settings,
}

/// One tool of the dock.
pub trait ToolPanel {
    /// Which tool it is.
    fn kind(&self) -> Tool;

    /// Whether its docked panel is open.
    fn is_open(&self) -> bool;

    /// Opens or closes its docked panel.
    fn set_open(&mut self, open: bool);

    /// Draws its docked panel; returns what was asked for there.
    fn ui(&mut self, ui: &mut egui::Ui, cx: &ToolContext<'_>) -> Vec<Action>;

    /// Reads its engine's events, never blocking; gives back an engine that is done, to be
    /// ended.
    fn poll(&mut self) -> Option<EngineHandle> {
        None
    }

    /// Gives back its engine, if it runs one, to be ended.
    fn end(&mut self) -> Option<EngineHandle> {
        None
    }
}

/// [`ToolPanel::kind`] (`$kind`), and [`ToolPanel::is_open`] and [`ToolPanel::set_open`] of a
/// tool whose open state is its field `open`.
macro_rules! open_field {
    ($kind:expr) => {
        fn kind(&self) -> Tool {
            $kind
        }
        fn is_open(&self) -> bool {
            self.open
        }
        fn set_open(&mut self, open: bool) {
            self.open = open;
        }
    };
}

/// The keyboard shortcuts page.
#[derive(Debug, Default)]
pub struct Help {
    /// Whether its docked panel is open.
    pub open: bool,
}

/// Every tool of the dock, each of its own type (the app reaches into them by name, and
/// through [`ToolPanel`] by [`Tool`]).
#[derive(Default)]
pub struct Tools {
    /// The engine manager.
    pub manager: EngineManager,
    /// The game review.
    pub review: Review,
    /// The tablebase page.
    pub tablebase: TablebasePage,
    /// The solver.
    pub solver: Solver,
    /// The search tree explorer.
    pub tree: TreeExplorer,
    /// The engine console.
    pub console: Console,
    /// The keyboard shortcuts.
    pub help: Help,
}

impl Tools {
    /// The tool of kind `tool`.
    pub fn get(&self, tool: Tool) -> &dyn ToolPanel {
        match tool {
            Tool::Engines => &self.manager,
            Tool::Review => &self.review,
            Tool::Tablebase => &self.tablebase,
            Tool::Solver => &self.solver,
            Tool::Tree => &self.tree,
            Tool::Console => &self.console,
            Tool::Help => &self.help,
        }
    }

    /// The tool of kind `tool`, to change.
    pub fn get_mut(&mut self, tool: Tool) -> &mut dyn ToolPanel {
        match tool {
            Tool::Engines => &mut self.manager,
            Tool::Review => &mut self.review,
            Tool::Tablebase => &mut self.tablebase,
            Tool::Solver => &mut self.solver,
            Tool::Tree => &mut self.tree,
            Tool::Console => &mut self.console,
            Tool::Help => &mut self.help,
        }
    }

    /// Every tool, in the dock's order.
    pub fn all_mut(&mut self) -> [&mut dyn ToolPanel; 7] {
        [
            &mut self.manager,
            &mut self.review,
            &mut self.tablebase,
            &mut self.solver,
            &mut self.tree,
            &mut self.console,
            &mut self.help,
        ]
    }

    /// The open tools, in the dock's order.
    pub fn open(&self) -> Vec<Tool> {
        Tool::ALL
            .into_iter()
            .filter(|&t| self.get(t).is_open())
            .collect()
    }
}

impl ToolPanel for Help {
    open_field!(Tool::Help);
    fn ui(&mut self, ui: &mut egui::Ui, _: &ToolContext<'_>) -> Vec<Action> {
        crate::panels::help::ui(ui);
        Vec::new()
    }
}

impl ToolPanel for TreeExplorer {
    open_field!(Tool::Tree);
    fn ui(&mut self, ui: &mut egui::Ui, _: &ToolContext<'_>) -> Vec<Action> {
        if TreeExplorer::ui(self, ui) {
            vec![Action::RunTreeSearch]
        } else {
            Vec::new()
        }
    }
    fn poll(&mut self) -> Option<EngineHandle> {
        TreeExplorer::poll(self)
    }
    fn end(&mut self) -> Option<EngineHandle> {
        self.stop()
    }
}

impl ToolPanel for Solver {
    open_field!(Tool::Solver);
    fn ui(&mut self, ui: &mut egui::Ui, cx: &ToolContext<'_>) -> Vec<Action> {
        match self.panel(ui, cx.model.game(), cx.model.view()) {
            Some(SolveAction::Solve) => vec![Action::RunSolve],
            Some(SolveAction::Stop) => vec![Action::StopSolve],
            None => Vec::new(),
        }
    }
    fn poll(&mut self) -> Option<EngineHandle> {
        Solver::poll(self)
    }
    fn end(&mut self) -> Option<EngineHandle> {
        Solver::end(self)
    }
}

impl ToolPanel for Console {
    open_field!(Tool::Console);
    fn ui(&mut self, ui: &mut egui::Ui, _: &ToolContext<'_>) -> Vec<Action> {
        Console::ui(self, ui)
            .map(|(role, text)| Action::SendToEngine(role, text))
            .into_iter()
            .collect()
    }
}

impl ToolPanel for Review {
    open_field!(Tool::Review);
    fn ui(&mut self, ui: &mut egui::Ui, cx: &ToolContext<'_>) -> Vec<Action> {
        match Review::ui(self, ui, cx.model.game(), cx.model.view()) {
            Some(ReviewAction::Start) => vec![Action::StartReview],
            Some(ReviewAction::GoTo(ply)) => vec![Action::ReviewGoTo(ply)],
            None => Vec::new(),
        }
    }
    fn end(&mut self) -> Option<EngineHandle> {
        Review::end(self)
    }
}

impl ToolPanel for EngineManager {
    fn kind(&self) -> Tool {
        Tool::Engines
    }
    fn is_open(&self) -> bool {
        self.open
    }
    fn set_open(&mut self, open: bool) {
        if !open {
            self.close();
        } else if !self.open {
            self.open = true;
        }
    }
    fn ui(&mut self, ui: &mut egui::Ui, cx: &ToolContext<'_>) -> Vec<Action> {
        match EngineManager::ui(self, ui, &cx.settings.engines) {
            Some(ManagerAction::Apply(list)) => vec![Action::SetEngines(list)],
            Some(ManagerAction::ReadOptions(name, launch)) => {
                vec![Action::ReadOptions(name, launch)]
            }
            Some(ManagerAction::Browse) => vec![Action::BrowseEngine],
            None => Vec::new(),
        }
    }
    fn poll(&mut self) -> Option<EngineHandle> {
        EngineManager::poll(self)
    }
    fn end(&mut self) -> Option<EngineHandle> {
        EngineManager::end(self)
    }
}

impl ToolPanel for TablebasePage {
    open_field!(Tool::Tablebase);
    fn ui(&mut self, ui: &mut egui::Ui, cx: &ToolContext<'_>) -> Vec<Action> {
        let dir = cx.settings.tablebase_dir();
        self.panel(ui, &cx.settings.tablebase, &dir)
    }
}
