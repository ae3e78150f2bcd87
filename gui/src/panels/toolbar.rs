//! The toolbar: new game, set position, flip, the tools' windows, copying the board, save and
//! open.

use eframe::egui;
use engine::games::format::Format;

use super::Action;
use crate::model::Model;
use crate::settings::Settings;

/// Draws the toolbar.
pub fn ui(ui: &mut egui::Ui, model: &Model, settings: &Settings) -> Option<Action> {
    let mut action = None;
    ui.horizontal_wrapped(|ui| {
        if ui.button("New game").clicked() {
            action = Some(Action::NewGame);
        }
        let back = model.can_bring_back();
        let hint = format!(
            "the last game replaced without saving ({} moves; Ctrl+Shift+Z)",
            back.unwrap_or(0)
        );
        if ui
            .add_enabled(back.is_some(), egui::Button::new("Bring back"))
            .on_hover_text(hint)
            .on_disabled_hover_text("no game was replaced without saving")
            .clicked()
        {
            action = Some(Action::BringBack);
        }
        if ui.button("Set position...").clicked() {
            action = Some(Action::OpenPositionDialog);
        }
        if ui.button("Flip board").clicked() {
            action = Some(Action::Flip);
        }
        let label = if model.analysing() {
            "Stop analysis"
        } else {
            "Analyse"
        };
        if ui
            .button(label)
            .on_hover_text("our engine searches the shown position until it changes")
            .clicked()
        {
            action = Some(Action::ToggleAnalysis);
        }
        if ui.button("Search tree...").clicked() {
            action = Some(Action::OpenTree);
        }
        if ui
            .button("Edit position...")
            .on_hover_text("place and remove pieces on a board of any game (E)")
            .clicked()
        {
            action = Some(Action::OpenEditor);
        }
        if ui
            .button("Solve...")
            .on_hover_text("our engine proves the value of the shown position (S)")
            .clicked()
        {
            action = Some(Action::OpenSolver);
        }
        if ui
            .button("Tablebase")
            .on_hover_text("the exact value of the shown position and of each move (T)")
            .clicked()
        {
            action = Some(Action::ToggleTablebase);
        }
        if ui
            .button("Console")
            .on_hover_text("every line to and from the engines (C)")
            .clicked()
        {
            action = Some(Action::ToggleConsole);
        }
        if ui.button("Help").clicked() {
            action = Some(Action::ToggleHelp);
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
        ui.separator();
        let label = ui.label("File:");
        let mut path = settings.path.clone();
        if ui
            .add(egui::TextEdit::singleline(&mut path).desired_width(180.0))
            .labelled_by(label.id)
            .changed()
        {
            action = Some(Action::SetPath(path));
        }
        if ui.button("Save").clicked() {
            action = Some(Action::Save);
        }
        if ui.button("Open").clicked() {
            action = Some(Action::Open);
        }
        if ui
            .button("Save as...")
            .on_hover_text("choose the file in a dialog")
            .clicked()
        {
            action = Some(Action::SaveAs);
        }
        if ui
            .button("Open...")
            .on_hover_text("choose the file in a dialog")
            .clicked()
        {
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
            })
            .response
            .on_hover_text("the files last saved or opened");
        });
    });
    action
}
