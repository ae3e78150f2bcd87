//! The status line: Pause/Resume and "Move now", whose turn it is (the clocks are beside the
//! board, in the moves panel), what the thinking engine does,
//! the end of the game or why it stopped, and the last message.

use eframe::egui::{self, RichText};

use super::Action;
use crate::model::{Model, outcome_text, side_name};
use crate::settings::Settings;
use crate::widgets::ERROR;

/// Draws the status line (always two rows high, so that the board above does not jump).
pub fn ui(ui: &mut egui::Ui, model: &Model, settings: &Settings) -> Option<Action> {
    let mut action = None;
    let game = model.game();
    let ply = game.len();
    let side = game.side_to_move(ply);
    let text = if let Some(o) = game.outcome(ply) {
        RichText::new(format!("Game over: {}", outcome_text(&o)))
            .strong()
            .size(18.0)
    } else if let Some(loser) = model.lost_on_time() {
        RichText::new(format!("Game over: {} lost on time", side_name(loser)))
            .strong()
            .size(18.0)
    } else if let Some(h) = model.halted() {
        RichText::new(h).color(ERROR)
    } else if let Some(thinking) = model.thinking() {
        let i = thinking.index();
        let what = if model.moving_now() {
            "asked to move now...".to_string()
        } else if model.seats()[i].as_ref().is_some_and(|s| s.ready) {
            // With no search line yet (a silent engine), the time it has thought.
            let view = model.engine_views()[i].as_ref();
            let depth = match view.and_then(|v| v.info.as_ref()) {
                Some(info) => format!("depth {}", info.depth),
                None => match view {
                    Some(v) => {
                        ui.ctx()
                            .request_repaint_after(std::time::Duration::from_secs(1));
                        format!("{} s", v.started.elapsed().as_secs())
                    }
                    None => String::new(),
                },
            };
            format!("thinking... {depth}")
        } else {
            "starting...".to_string()
        };
        RichText::new(format!("{}'s engine: {what}", side_name(thinking)))
    } else if model.paused() && settings.players[side.index()].engine {
        RichText::new(format!(
            "{} to move; engine play is paused",
            side_name(side)
        ))
    } else {
        RichText::new(format!("{} to move", side_name(side)))
    };
    ui.horizontal_wrapped(|ui| {
        // As high as the end of the game's large line, whatever it says.
        ui.set_min_height(26.0);
        let stopped = model.paused() || model.halted().is_some();
        let clocks = model.clocks().is_some();
        if stopped || clocks || settings.players.iter().any(|p| p.engine) {
            let label = match (stopped, clocks) {
                (true, false) => "Resume engines",
                (false, false) => "Pause engines",
                (true, true) => "Resume",
                (false, true) => "Pause",
            };
            // A finished game has nothing left to pause or resume.
            if ui
                .add_enabled(!model.over(), egui::Button::new(label))
                .on_disabled_hover_text("the game is over")
                .clicked()
            {
                action = Some(Action::Pause(!stopped));
            }
            let can = model.thinking().is_some() && !model.moving_now();
            if ui
                .add_enabled(can, egui::Button::new("Move now"))
                .on_hover_text("sends stop: the thinking engine plays the best move it has found")
                .clicked()
            {
                action = Some(Action::MoveNow);
            }
        }
        if model.over() || model.lost_on_time().is_some() {
            // The end of the game in full is the headline above the board: here one line,
            // so that the board above keeps its size.
            let full = text.text().to_string();
            ui.add(egui::Label::new(text).truncate())
                .on_hover_text(full);
        } else {
            ui.label(text);
        }
    });
    match model.message() {
        Some((m, err)) if model.halted() != Some(m) => {
            let color = if err {
                ERROR
            } else {
                ui.visuals().weak_text_color()
            };
            ui.label(RichText::new(m).color(color));
        }
        _ => {
            ui.label("");
        }
    }
    action
}
