//! The middle of the window: a line above the board (the end of the game, or Pass when passing
//! is the only move) and the board itself.

use eframe::egui::{self, RichText};
use engine::games::Move;

use super::Action;
use crate::board::{self, BoardInput, Geometry, Marks};
use crate::model::{Model, side_name};
use crate::settings::Settings;

/// Draws the line above the board and the board; returns where the squares were drawn.
pub fn ui(ui: &mut egui::Ui, model: &Model, settings: &Settings) -> (Geometry, Option<Action>) {
    let mut action = None;
    let view = model.view();
    let game = model.game();
    // Always one line, so that the board does not move when Pass appears.
    ui.horizontal(|ui| {
        if let Some(o) = game.outcome(view) {
            // Cut to the line: the status line below has the whole text.
            ui.add(egui::Label::new(RichText::new(o.to_string()).strong().size(20.0)).truncate());
        } else {
            let side = side_name(game.side_to_move(view));
            ui.label(RichText::new(format!("{side} to move")).size(16.0));
            if model.pass_only() && model.human_may_move(settings.engines()) {
                ui.label("- no piece can move:");
                if ui
                    .button(RichText::new("Pass").size(16.0))
                    .on_hover_text("the only move: the turn goes to the other side")
                    .clicked()
                {
                    action = Some(Action::Play(Move::PASS));
                }
            }
        }
    });
    let marks = Marks {
        selected: model.selected(),
        targets: model.targets(),
        last: view.checked_sub(1).and_then(|i| game.move_at(i)),
        arrow: model
            .best_shown()
            .filter(|m| !m.is_pass())
            .map(|m| (usize::from(m.from), usize::from(m.to))),
        lines: lines_arrows(model),
    };
    let (geo, input) = board::show(
        ui,
        game.kind(),
        game.layout(),
        &|sq| game.piece_at(view, sq),
        &marks,
        model.flipped(),
    );
    match input {
        Some(BoardInput::Click(sq)) => action = Some(Action::Click(sq)),
        Some(BoardInput::Drag(from, to)) => action = Some(Action::Drag(from, to)),
        None => {}
    }
    (geo, action)
}

/// The arrows of the shown position's analysis lines, best first, when there are several
/// (one line is the ordinary best-move arrow).
pub fn lines_arrows(model: &Model) -> Vec<(usize, usize)> {
    let lines = model.lines_shown();
    if lines.len() < 2 {
        return Vec::new();
    }
    lines
        .into_iter()
        .filter(|m| !m.is_pass())
        .map(|m| (usize::from(m.from), usize::from(m.to)))
        .collect()
}
