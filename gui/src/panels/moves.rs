//! The moves panel: navigation, take back, the games of an opened file and the move list.

use eframe::egui;
use engine::games::Side;

use super::Action;
use crate::model::Model;

/// Draws the moves panel.
pub fn ui(ui: &mut egui::Ui, model: &Model) -> Option<Action> {
    let mut action = None;
    let view = model.view();
    let game = model.game();
    ui.heading("Moves");
    ui.horizontal(|ui| {
        if ui.button("|<").on_hover_text("start (Home)").clicked() {
            action = Some(Action::GoTo(0));
        }
        if ui.button("<").on_hover_text("back (left arrow)").clicked() {
            action = Some(Action::GoTo(view.saturating_sub(1)));
        }
        if ui
            .button(">")
            .on_hover_text("forward (right arrow)")
            .clicked()
        {
            action = Some(Action::GoTo(view + 1));
        }
        if ui.button(">|").on_hover_text("end (End)").clicked() {
            action = Some(Action::GoTo(game.len()));
        }
    });
    if ui
        .add_enabled(!game.is_empty(), egui::Button::new("Take back"))
        .clicked()
    {
        action = Some(Action::TakeBack);
    }
    ui.separator();
    let records = model.records();
    if records.len() > 1 {
        egui::CollapsingHeader::new(format!("{} games in the file", records.len())).show(
            ui,
            |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("records")
                    .max_height(150.0)
                    .show(ui, |ui| {
                        for (n, r) in records.iter().enumerate() {
                            let label = format!(
                                "{}. {} - {} {}",
                                n + 1,
                                r.white,
                                r.black,
                                r.result.as_str()
                            );
                            if ui.small_button(label).clicked() {
                                action = Some(Action::LoadRecord(n));
                            }
                        }
                    });
            },
        );
    }
    let names = game.move_names();
    let offset = usize::from(game.side_to_move(0) == Side::Black);
    egui::ScrollArea::vertical()
        .id_salt("move-list")
        .auto_shrink([false, false])
        .stick_to_bottom(true)
        .show(ui, |ui| {
            egui::Grid::new("move-grid").num_columns(3).show(ui, |ui| {
                let total = names.len() + offset;
                for row in 0..total.div_ceil(2) {
                    ui.label(format!("{}.", row + 1));
                    for col in 0..2 {
                        let k = row * 2 + col;
                        if k < offset || k - offset >= names.len() {
                            ui.label("");
                            continue;
                        }
                        let i = k - offset;
                        if ui.selectable_label(view == i + 1, &names[i]).clicked() {
                            action = Some(Action::GoTo(i + 1));
                        }
                    }
                    ui.end_row();
                }
            });
        });
    action
}
