//! The middle of the window: a line above the board (the end of the game, or Pass when passing
//! is the only move) and the board itself, where a move's piece slides for a moment.

use boardgames_core::games::Move;
use eframe::egui::{self, RichText};

use super::Action;
use crate::board::{self, BoardInput, Geometry, Marks, Slide};
use crate::model::{Model, NodeId, outcome_text, side_name};
use crate::settings::Settings;

/// The height of the line above the board (two lines of the smaller size: a long reason is set
/// smaller to fit).
pub const HEADLINE: f32 = 32.0;

/// The width the board's area (inside its margins) needs, `height` high, for the board to be
/// as large as that height allows beside the line above it.
pub fn width_for(ui: &egui::Ui, layout: &boardgames_core::games::Layout, height: f32) -> f32 {
    let board = height - HEADLINE - ui.spacing().item_spacing.y;
    board::Geometry::width_for(layout, board)
}

/// Draws the line above the board and the board; returns where the squares were drawn.
pub fn ui(ui: &mut egui::Ui, model: &Model, settings: &Settings) -> (Geometry, Option<Action>) {
    let mut action = None;
    let view = model.view();
    let game = model.game();
    // Smaller in a narrow window, so that a long reason leaves the board its room.
    let big = if ui.available_width() < 520.0 {
        16.0
    } else {
        20.0
    };
    // Always the same height, so that the board does not move when Pass appears, the end of
    // the game's reason wraps, or the area narrows.
    let headline = egui::vec2(ui.available_width(), HEADLINE);
    let down = egui::Layout::top_down(egui::Align::Min);
    let (rect, _) = ui.allocate_exact_size(headline, egui::Sense::hover());
    let clip = rect.intersect(ui.clip_rect());
    let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect).layout(down));
    child.set_clip_rect(clip);
    {
        let ui = &mut child;
        // The whole reason, wrapped in at most two lines: a long one is set smaller, not cut.
        if let Some(o) = game.outcome(view) {
            fitted(ui, &outcome_text(&o), big, headline);
        } else if let Some(loser) = model.lost_on_time().filter(|_| view == game.len()) {
            let text = format!("Game over: {} lost on time", side_name(loser));
            fitted(ui, &text, big, headline);
        } else {
            ui.horizontal_wrapped(|ui| {
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
            });
        }
    }
    let marks = Marks {
        selected: model.selected(),
        targets: model.targets(),
        last: view.checked_sub(1).and_then(|i| game.move_at(i)),
        arrow: model
            .best_shown()
            .filter(|m| !m.is_pass())
            .map(|m| (usize::from(m.from), usize::from(m.to))),
        lines: lines_arrows(model),
        legal: model.human_moves(settings.engines()),
        slide: slide(ui, model, settings.animations),
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
        Some(BoardInput::Drag(from, to)) => {
            // The piece is already where it was dropped: no slide for this move.
            ui.ctx()
                .data_mut(|d| d.insert_temp(egui::Id::unique(DROPPED), (from, to)));
            action = Some(Action::Drag(from, to));
        }
        None => {}
    }
    (geo, action)
}

/// Shows `text` strong and wrapped, at size `big` or smaller (down to 11 points) so that it
/// fits in `room`.
fn fitted(ui: &mut egui::Ui, text: &str, big: f32, room: egui::Vec2) {
    let color = ui.visuals().strong_text_color();
    let size = [big, big * 0.85, big * 0.7, 11.0]
        .into_iter()
        .find(|&size| {
            let font = egui::FontId::proportional(size);
            let galley = ui.painter().layout(text.to_string(), font, color, room.x);
            galley.size().y <= room.y
        })
        .unwrap_or(11.0);
    ui.add(egui::Label::new(RichText::new(text).strong().size(size)).wrap());
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

/// How long a move's slide takes, in seconds.
pub const SLIDE_SECONDS: f64 = 0.15;

const SLIDE: &str = "board-slide";
const DROPPED: &str = "board-dropped";

/// The last shown node and the slide it started.
#[derive(Clone, Copy, Debug)]
struct SlideState {
    /// The model's epoch and the shown node.
    key: (u64, NodeId),
    /// The move's squares (from, to) as the piece travels, and when it started.
    slide: Option<((usize, usize), f64)>,
}

/// The piece sliding on the board: when the shown node became the next or the previous one (a
/// move played, by anyone, or a step through the moves), its move's piece travels for
/// [`SLIDE_SECONDS`] (backwards on a step back). Not after a drop, nor with `on` false.
fn slide(ui: &egui::Ui, model: &Model, on: bool) -> Option<Slide> {
    let id = egui::Id::unique(SLIDE);
    let now = ui.input(|i| i.time);
    let key = (model.epoch(), model.shown_node());
    let tree = model.tree();
    let mut state = ui.ctx().data(|d| d.get_temp::<SlideState>(id));
    let dropped: Option<(usize, usize)> = ui
        .ctx()
        .data_mut(|d| d.remove_temp(egui::Id::unique(DROPPED)));
    if state.is_none_or(|s| s.key != key) {
        let squares = |node: NodeId| {
            tree.mv(node)
                .filter(|m| !m.is_pass())
                .map(|m| (usize::from(m.from), usize::from(m.to)))
        };
        let old = state.filter(|s| s.key.0 == key.0).map(|s| s.key.1);
        let (new, slid) = (key.1, old.map(|o| (tree.parent(key.1) == Some(o), o)));
        let squares = match slid {
            Some((true, _)) => squares(new).filter(|&sq| Some(sq) != dropped),
            Some((false, o)) if tree.parent(o) == Some(new) => squares(o).map(|(f, t)| (t, f)),
            _ => None,
        };
        let s = SlideState {
            key,
            slide: squares.filter(|_| on).map(|sq| (sq, now)),
        };
        ui.ctx().data_mut(|d| d.insert_temp(id, s));
        state = Some(s);
    }
    let ((from, to), start) = state?.slide?;
    let t = (now - start) / SLIDE_SECONDS;
    if t >= 1.0 {
        return None;
    }
    ui.ctx().request_repaint();
    Some(Slide {
        from,
        to,
        t: t as f32,
    })
}
