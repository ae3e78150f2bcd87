//! The menu bar: Game, Edit, Engines, Analysis, Tools and Help, each entry with its keyboard
//! shortcut (read by [`super::help::keys`]).

use boardgames_core::games::format::Format;
use eframe::egui;

use super::Action;
use super::dock::Tool;
use crate::model::Model;
use crate::settings::Settings;

/// What the menus need to know besides the model and the settings: which docked tools are open.
pub struct MenuState<'a> {
    /// The game on the table.
    pub model: &'a Model,
    /// The settings (recent files, players).
    pub settings: &'a Settings,
    /// Whether each tool of [`Tool::ALL`] is open, in that order.
    pub open: [bool; Tool::ALL.len()],
}

/// One entry: a button with its shortcut shown at the right; returns whether it was clicked
/// (and closes the menu then).
fn entry(ui: &mut egui::Ui, enabled: bool, text: &str, shortcut: &str) -> bool {
    let mut button = egui::Button::new(text);
    if !shortcut.is_empty() {
        button = button.shortcut_text(shortcut);
    }
    let clicked = ui.add_enabled(enabled, button).clicked();
    if clicked {
        ui.close();
    }
    clicked
}

/// A tool's entry: a check box that opens or closes its docked panel.
fn tool_entry(ui: &mut egui::Ui, state: &MenuState, tool: Tool, shortcut: &str) -> Option<Action> {
    let mut open = state.open[tool as usize];
    let mut button = egui::Button::selectable(open, tool.title());
    if !shortcut.is_empty() {
        button = button.shortcut_text(shortcut);
    }
    if ui.add(button).clicked() {
        open = !open;
        ui.close();
        return Some(Action::ShowTool(tool, open));
    }
    None
}

/// Draws the menu bar.
pub fn ui(ui: &mut egui::Ui, state: &MenuState) -> Option<Action> {
    let mut action = None;
    let model = state.model;
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("Game", |ui| action = game_menu(ui, state));
        ui.menu_button("Edit", |ui| {
            let view = model.view();
            let len = model.game().len();
            if entry(ui, len > 0, "Take back", "Ctrl+Z") {
                action = Some(Action::TakeBack);
            }
            ui.separator();
            if entry(ui, view > 0, "Start", "Home") {
                action = Some(Action::GoTo(0));
            }
            if entry(ui, view > 0, "Back", "Left") {
                action = Some(Action::GoTo(view - 1));
            }
            if entry(ui, view < len, "Forward", "Right") {
                action = Some(Action::GoTo(view + 1));
            }
            if entry(ui, view < len, "End", "End") {
                action = Some(Action::GoTo(len));
            }
            ui.separator();
            if entry(ui, true, "Flip board", "F") {
                action = Some(Action::Flip);
            }
            if entry(ui, true, "Edit position...", "E") {
                action = Some(Action::OpenEditor);
            }
            if entry(ui, true, "Set position...", "") {
                action = Some(Action::OpenPositionDialog);
            }
            ui.menu_button("Copy board", |ui| {
                for format in Format::examples(model.game().kind()) {
                    let text = model.board_text(&format);
                    if ui.button(format!("{}: {text}", format.name())).clicked() {
                        ui.ctx().copy_text(text.clone());
                        action = Some(Action::Note(format!("copied {text}")));
                        ui.close();
                    }
                }
            });
        });
        ui.menu_button("Engines", |ui| {
            action = tool_entry(ui, state, Tool::Engines, "").or(action.take());
            let stopped = model.paused() || model.halted().is_some();
            let label = if stopped {
                "Resume engines"
            } else {
                "Pause engines"
            };
            if entry(ui, !model.over(), label, "") {
                action = Some(Action::Pause(!stopped));
            }
            let can = model.thinking().is_some() && !model.moving_now();
            if entry(ui, can, "Move now", "") {
                action = Some(Action::MoveNow);
            }
            action = tool_entry(ui, state, Tool::Console, "C").or(action.take());
        });
        ui.menu_button("Analysis", |ui| {
            let label = if model.analysing() {
                "Stop analysis"
            } else {
                "Analyse"
            };
            if entry(ui, true, label, "A") {
                action = Some(Action::ToggleAnalysis);
            }
            if entry(ui, model.best_shown().is_some(), "Play best move", "B") {
                action = Some(Action::PlayBest);
            }
            ui.separator();
            action = tool_entry(ui, state, Tool::Review, "R").or(action.take());
            action = tool_entry(ui, state, Tool::Tree, "").or(action.take());
            action = tool_entry(ui, state, Tool::Solver, "S").or(action.take());
            action = tool_entry(ui, state, Tool::Tablebase, "T").or(action.take());
        });
        ui.menu_button("Tools", |ui| {
            if entry(ui, true, "Position editor", "E") {
                action = Some(Action::ToggleEditor);
            }
            action = tool_entry(ui, state, Tool::Console, "C").or(action.take());
            action = tool_entry(ui, state, Tool::Engines, "").or(action.take());
        });
        ui.menu_button("Help", |ui| {
            action = tool_entry(ui, state, Tool::Help, "F1").or(action.take());
        });
    });
    action
}

/// The Game menu: new game, bring back, open, recent files, save, save as.
fn game_menu(ui: &mut egui::Ui, state: &MenuState) -> Option<Action> {
    let mut action = None;
    let (model, settings) = (state.model, state.settings);
    if entry(ui, true, "New game", "Ctrl+N") {
        action = Some(Action::NewGame);
    }
    let back = model.can_bring_back();
    let text = match back {
        Some(n) => format!("Bring back ({})", crate::model::moves_text(n)),
        None => "Bring back".to_string(),
    };
    if entry(ui, back.is_some(), &text, "Ctrl+Shift+Z") {
        action = Some(Action::BringBack);
    }
    ui.separator();
    if entry(ui, true, "Open...", "Ctrl+O") {
        action = Some(Action::OpenDialog);
    }
    ui.add_enabled_ui(!settings.recent.is_empty(), |ui| {
        ui.menu_button("Recent", |ui| {
            for path in &settings.recent {
                if ui.button(path).clicked() {
                    action = Some(Action::OpenRecent(path.clone()));
                    ui.close();
                }
            }
        });
    });
    let save = match model.file() {
        Some(p) => format!(
            "Save to {}",
            p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned()
            )
        ),
        None => "Save...".to_string(),
    };
    if entry(ui, true, &save, "Ctrl+S") {
        action = Some(Action::Save);
    }
    if entry(ui, true, "Save as...", "Ctrl+Shift+S") {
        action = Some(Action::SaveAs);
    }
    ui.separator();
    if entry(ui, true, "Quit", "Ctrl+Q") {
        action = Some(Action::Quit);
    }
    action
}
