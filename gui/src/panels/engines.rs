//! The engines' area under the board: one panel per engine that searches or has searched, and
//! the evaluation graph. Side by side when the window is wide enough, else one under the other.

use eframe::egui::{self, RichText};

use super::Action;
use crate::analysis;
use crate::model::Model;

/// Below this width the engine panels and the graph are stacked.
const SIDE_BY_SIDE: f32 = 720.0;

/// Draws the engine panels and the evaluation graph.
pub fn ui(ui: &mut egui::Ui, model: &Model) -> Option<Action> {
    let points = model.graph_points();
    let panels = |ui: &mut egui::Ui| {
        egui::ScrollArea::vertical()
            .id_salt("engine-panels")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                let mut any = false;
                for v in model.engine_views().iter().flatten() {
                    ui.push_id(&v.title, |ui| analysis::engine_panel(ui, v, model.game()));
                    ui.separator();
                    any = true;
                }
                if !any {
                    ui.label(
                        RichText::new(
                            "Engine output appears here while an engine thinks, or with Analyse.",
                        )
                        .weak(),
                    );
                }
            });
    };
    let jump = if ui.available_width() >= SIDE_BY_SIDE {
        let mut jump = None;
        ui.columns(2, |cols| {
            panels(&mut cols[0]);
            jump = analysis::eval_graph(&mut cols[1], &points, model.view());
        });
        jump
    } else {
        let half = (ui.available_height() / 2.0).max(60.0);
        ui.allocate_ui(egui::vec2(ui.available_width(), half), panels);
        analysis::eval_graph(ui, &points, model.view())
    };
    jump.map(Action::GoTo)
}
