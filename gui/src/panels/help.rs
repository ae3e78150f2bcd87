//! The help window: the keyboard shortcuts.

use eframe::egui::{self, RichText};

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
    ("N", "new game"),
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
