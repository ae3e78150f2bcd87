//! The keyboard shortcuts: reading them, and the help window that lists them.

use eframe::egui::{self, RichText};

use super::Action;
use crate::model::Model;

/// The keyboard shortcuts and what they do, as the help window lists them.
pub const SHORTCUTS: &[(&str, &str)] = &[
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
    ("Backspace", "take back"),
    ("B", "play the engine's best move shown by the arrow"),
    ("A", "analysis on / off"),
    ("N", "new game (asks first when the game is not saved)"),
    (
        "Ctrl+Shift+Z",
        "bring back the last game replaced without saving",
    ),
    ("E", "position editor on / off"),
    ("C", "engine console on / off"),
    ("S", "solver window on / off"),
    ("T", "tablebase page on / off"),
    ("F1", "this help"),
];

/// Draws the help window while `open`.
pub fn window(ctx: &egui::Context, open: &mut bool) {
    egui::Window::new("Keyboard shortcuts")
        .open(open)
        .collapsible(false)
        .show(ctx, |ui| {
            egui::Grid::new("shortcuts").show(ui, |ui| {
                for (key, what) in SHORTCUTS {
                    ui.label(RichText::new(*key).monospace());
                    ui.label(*what);
                    ui.end_row();
                }
            });
        });
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
        (egui::Key::C, Action::ToggleConsole),
        (egui::Key::S, Action::ToggleSolver),
        (egui::Key::F1, Action::ToggleHelp),
        (egui::Key::T, Action::ToggleTablebase),
        (egui::Key::B, Action::PlayBest),
    ];
    let bring_back = egui::Modifiers::COMMAND | egui::Modifiers::SHIFT;
    if ui
        .ctx()
        .input_mut(|i| i.consume_key(bring_back, egui::Key::Z))
    {
        return vec![Action::BringBack];
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
