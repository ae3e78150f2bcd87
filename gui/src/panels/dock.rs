//! The dock: the panel left of the board, with the players' set-up and the tools (engine
//! manager, game review, tablebase, solver, search tree, engine console, help) as tabs instead of windows
//! over the board. The set-up's tab is always there; each open tool has a tab with a close
//! button. Which tools are open is kept in the settings.

use eframe::egui;

/// A tool shown in the dock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tool {
    /// The engine manager (saved engines and their options).
    Engines,
    /// The game review.
    Review,
    /// The tablebase page.
    Tablebase,
    /// The solver.
    Solver,
    /// The search tree explorer.
    Tree,
    /// The engine console.
    Console,
    /// The keyboard shortcuts.
    Help,
}

impl Tool {
    /// Every tool, in the order of the dock's tabs.
    pub const ALL: [Tool; 7] = [
        Tool::Engines,
        Tool::Review,
        Tool::Tablebase,
        Tool::Solver,
        Tool::Tree,
        Tool::Console,
        Tool::Help,
    ];

    /// Its title (tab and menu entry).
    pub fn title(self) -> &'static str {
        match self {
            Tool::Engines => "Engine manager",
            Tool::Review => "Game review",
            Tool::Tablebase => "Tablebase",
            Tool::Solver => "Solver",
            Tool::Tree => "Search tree",
            Tool::Console => "Engine console",
            Tool::Help => "Keyboard shortcuts",
        }
    }

    /// Its name in the settings file.
    pub fn key(self) -> &'static str {
        match self {
            Tool::Engines => "engines",
            Tool::Review => "review",
            Tool::Tablebase => "tablebase",
            Tool::Solver => "solver",
            Tool::Tree => "tree",
            Tool::Console => "console",
            Tool::Help => "help",
        }
    }

    /// The tool of a settings name.
    pub fn from_key(key: &str) -> Option<Tool> {
        Tool::ALL.into_iter().find(|t| t.key() == key)
    }
}

/// The title of the set-up's tab.
pub const SETUP: &str = "Players";

/// What the tab row asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TabAction {
    /// Show this tool's tab (`None`: the set-up's).
    Show(Option<Tool>),
    /// Close this tool.
    Close(Tool),
}

/// Draws the tabs: the set-up's, then the open tools' (`active` the one shown, `None` the
/// set-up's), each tool's with a close button. The tabs are one row that scrolls sideways when
/// they do not fit: a title is never wrapped, and a tab keeps its close button beside it.
pub fn tabs(ui: &mut egui::Ui, open: &[Tool], active: Option<Tool>) -> Option<TabAction> {
    let mut action = None;
    // A scroll bar of its own below the tabs when they overflow, never floating over them
    // (a floating one takes the clicks meant for the tabs).
    ui.scope(|ui| {
        ui.spacing_mut().scroll = egui::style::ScrollStyle::solid();
        egui::ScrollArea::horizontal()
            .id_salt("dock-tabs")
            .auto_shrink([false, true])
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
                    if ui.selectable_label(active.is_none(), SETUP).clicked() {
                        action = Some(TabAction::Show(None));
                    }
                    ui.add_space(6.0);
                    for &tool in open {
                        ui.push_id(tool.key(), |ui| {
                            ui.spacing_mut().item_spacing.x = 1.0;
                            let tab = ui.selectable_label(Some(tool) == active, tool.title());
                            if tab.clicked() {
                                action = Some(TabAction::Show(Some(tool)));
                            }
                            if ui
                                .small_button("x")
                                .on_hover_text(format!("close the {}", tool.title().to_lowercase()))
                                .clicked()
                            {
                                action = Some(TabAction::Close(tool));
                            }
                        });
                        ui.add_space(6.0);
                    }
                });
            });
    });
    action
}

/// The tools to open on start, from the settings' names (unknown names are skipped).
pub fn from_keys(keys: &[String]) -> Vec<Tool> {
    keys.iter().filter_map(|k| Tool::from_key(k)).collect()
}
