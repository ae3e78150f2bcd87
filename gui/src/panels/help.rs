//! The keyboard shortcuts: reading them, and the help panel that lists them.

use eframe::egui::{self, RichText};

use super::Action;
use super::dock::Tool;
use crate::model::Model;

/// The keyboard shortcuts and what they do, as the help panel lists them.
pub const SHORTCUTS: &[(&str, &str)] = &[
    (
        "Ctrl+N (or N)",
        "new game (asks first when the game is not saved)",
    ),
    ("Ctrl+O", "open a game record"),
    ("Ctrl+S", "save the game (to its file, else asks where)"),
    ("Ctrl+Shift+S", "save the game as another file"),
    ("Ctrl+Z (or Backspace)", "take back"),
    (
        "Ctrl+Shift+Z",
        "bring back the last game replaced without saving",
    ),
    ("Ctrl+Q", "quit (asks first when the game is not saved)"),
    (
        "Left / Right",
        "one move back / forward along the line shown",
    ),
    (
        "Up / Down",
        "the move before / after it among the variations",
    ),
    ("Home / End", "the start / the line's last move"),
    ("F", "flip the board"),
    ("B", "play the engine's best move shown by the arrow"),
    ("A", "analysis on / off"),
    ("E", "position editor on / off"),
    ("C", "engine console on / off"),
    ("S", "solver on / off"),
    ("T", "tablebase page on / off"),
    ("R", "game review on / off"),
    ("F1", "this help"),
];

/// Draws the shortcuts (the help panel of the dock): a column of keys as wide as the widest
/// (at most 45% of the panel) and what each does in the rest of the row, wrapped only at the
/// row's width (a grid would wrap it at the width of its last frame, a word a line).
pub fn ui(ui: &mut egui::Ui) {
    egui::ScrollArea::vertical().show(ui, |ui| {
        let font = egui::TextStyle::Monospace.resolve(ui.style());
        let widest = SHORTCUTS
            .iter()
            .map(|(key, _)| {
                ui.painter()
                    .layout_no_wrap(key.to_string(), font.clone(), egui::Color32::WHITE)
                    .size()
                    .x
            })
            .fold(0.0, f32::max);
        let key_width = widest.min(ui.available_width() * 0.45) + 8.0;
        for (key, what) in SHORTCUTS {
            ui.horizontal_top(|ui| {
                ui.add_sized(
                    [key_width, 18.0],
                    egui::Label::new(RichText::new(*key).monospace()).wrap(),
                );
                ui.add(egui::Label::new(*what).wrap());
            });
        }
    });
}

/// The action of a tool's key: open it when closed, else close it.
fn tool(tool: Tool) -> Action {
    Action::ToggleTool(tool)
}

/// The keyboard shortcuts pressed (none while a text field has the focus).
pub fn keys(ui: &egui::Ui, model: &Model) -> Vec<Action> {
    if ui.ctx().memory(|m| m.focused().is_some()) {
        return Vec::new();
    }
    let bindings = [
        (egui::Key::F, Action::Flip),
        (egui::Key::Backspace, Action::TakeBack),
        (egui::Key::N, Action::NewGame),
        (egui::Key::A, Action::ToggleAnalysis),
        (egui::Key::E, Action::ToggleEditor),
        (egui::Key::C, tool(Tool::Console)),
        (egui::Key::S, tool(Tool::Solver)),
        (egui::Key::F1, tool(Tool::Help)),
        (egui::Key::T, tool(Tool::Tablebase)),
        (egui::Key::R, tool(Tool::Review)),
        (egui::Key::B, Action::PlayBest),
    ];
    // Ctrl (Cmd on a Mac) and Ctrl+Shift shortcuts first: consumed, they do not also count
    // as the bare letter's.
    let shift = egui::Modifiers::COMMAND | egui::Modifiers::SHIFT;
    let command = [
        (shift, egui::Key::Z, Action::BringBack),
        (shift, egui::Key::S, Action::SaveAs),
        (egui::Modifiers::COMMAND, egui::Key::N, Action::NewGame),
        (egui::Modifiers::COMMAND, egui::Key::O, Action::OpenDialog),
        (egui::Modifiers::COMMAND, egui::Key::S, Action::Save),
        (egui::Modifiers::COMMAND, egui::Key::Z, Action::TakeBack),
        (egui::Modifiers::COMMAND, egui::Key::Q, Action::Quit),
    ];
    for (mods, key, action) in command {
        if ui.ctx().input_mut(|i| i.consume_key(mods, key)) {
            return vec![action];
        }
    }
    if ui.input(|i| i.modifiers.command || i.modifiers.alt) {
        return Vec::new();
    }
    let mut actions: Vec<Action> = ui.input(|i| {
        bindings
            .into_iter()
            .filter(|(k, _)| i.key_pressed(*k))
            .map(|(_, a)| a)
            .collect()
    });
    let view = model.view();
    let nav = [
        (egui::Key::ArrowLeft, view.saturating_sub(1)),
        (egui::Key::ArrowRight, view + 1),
        (egui::Key::Home, 0),
        (egui::Key::End, model.game().len()),
    ];
    actions.extend(ui.input(|i| {
        nav.into_iter()
            .filter(|(k, _)| i.key_pressed(*k))
            .map(|(_, ply)| Action::GoTo(ply))
            .collect::<Vec<_>>()
    }));
    // Up and Down: the other moves played at the shown move's place (its siblings).
    let tree = model.tree();
    let shown = model.shown_node();
    let siblings = tree.parent(shown).map_or(&[][..], |p| tree.children(p));
    if let Some(k) = siblings.iter().position(|&n| n == shown) {
        let up = k.checked_sub(1).and_then(|j| siblings.get(j));
        for (key, to) in [
            (egui::Key::ArrowUp, up),
            (egui::Key::ArrowDown, siblings.get(k + 1)),
        ] {
            if let Some(&to) = to
                && ui.input(|i| i.key_pressed(key))
            {
                actions.push(Action::GoToNode(to));
            }
        }
    }
    actions
}
