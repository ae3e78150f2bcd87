//! The unsaved-game question: before a game with moves not saved is replaced (a new game, a file
//! opened, a position set or edited) or the window closes, save, discard or cancel.

use eframe::egui;

use crate::model::Model;

/// The answer to the unsaved-game question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Save the game (to its file, else to one chosen in the Save dialog), then go on.
    Save,
    /// Go on without saving (the game can be brought back once).
    Discard,
    /// Keep the game and do nothing.
    Cancel,
}

/// The title of the question's window.
pub const TITLE: &str = "Save the game first?";

/// Draws the question, modal, for what is about to happen (`what`: "start a new game"). Escape
/// or a click outside cancels.
pub fn window(ctx: &egui::Context, model: &Model, what: &str) -> Option<Answer> {
    let mut answer = None;
    let moves = crate::model::moves_text(model.game().len());
    let save = model.file().map_or(
        "Save asks where to write it, as Save as... does".to_string(),
        |p| format!("Save writes it to {}", p.display()),
    );
    let modal = egui::Modal::new(egui::Id::unique("unsaved-game")).show(ctx, |ui| {
        ui.set_max_width(360.0);
        ui.heading(TITLE);
        ui.label(format!(
            "The game on the table ({moves}) has changes that are not saved. \
             Save it before you {what}?"
        ));
        ui.label(format!(
            "{save}; a discarded game can be brought back once with \"Bring back\" (Ctrl+Shift+Z)."
        ));
        ui.horizontal(|ui| {
            if ui.button("Save").clicked() {
                answer = Some(Answer::Save);
            }
            if ui.button("Discard").clicked() {
                answer = Some(Answer::Discard);
            }
            if ui.button("Cancel").clicked() {
                answer = Some(Answer::Cancel);
            }
        });
    });
    if answer.is_none() && modal.should_close() {
        answer = Some(Answer::Cancel);
    }
    answer
}
