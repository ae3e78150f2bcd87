//! Seeing the search: scores from White's point of view, the live engine panel with its
//! principal variation, and the evaluation graph of the game.

use boardgames_core::score::Score;
use eframe::egui::{self, Color32, RichText};
use egui_plot::{Line, MarkerShape, Plot, PlotPoints, Points};

use crate::board;
use crate::game::GameState;
pub use crate::model::eval::{EngineView, SearchState, graph_points, score_text, white_view};

/// Where a score is drawn on the graph at most, in pawns (hundreds of `cp`); wins and losses are
/// drawn there with a marker.
pub const GRAPH_CLAMP: f64 = 10.0;

/// Where a White's-view score goes on the graph, and whether it is a proven result (drawn with a
/// marker at the top or bottom).
pub fn graph_value(white: Score) -> (f64, bool) {
    match white {
        Score::Cp(x) => (
            (f64::from(x) / 100.0).clamp(-GRAPH_CLAMP, GRAPH_CLAMP),
            false,
        ),
        Score::Win(_) => (GRAPH_CLAMP, true),
        Score::Loss(_) => (-GRAPH_CLAMP, true),
        Score::Draw => (0.0, true),
    }
}

/// The panel of one engine: depth, score, nodes, speed, time, and the principal variation;
/// hovering a move of it shows the board after it.
pub fn engine_panel(ui: &mut egui::Ui, view: &EngineView, game: &GameState) {
    ui.horizontal(|ui| {
        ui.label(RichText::new(format!("{} ({})", view.title, view.state.word())).strong());
        if !view.engine.is_empty() {
            ui.add(egui::Label::new(RichText::new(&view.engine).weak()).truncate());
        }
    });
    let Some(info) = &view.info else {
        ui.label(if view.running() {
            "waiting for the first search information..."
        } else {
            "no search information was given"
        });
        return;
    };
    ui.horizontal_wrapped(|ui| {
        ui.label(format!("depth {}", info.depth));
        let score = view.white_score().map_or_else(String::new, score_text);
        ui.label(RichText::new(format!("score {score}")).strong())
            .on_hover_text("from White's point of view, in pawns");
        ui.label(format!("nodes {}", info.nodes));
        ui.label(format!("nps {}", info.nps));
        ui.label(format!("time {} ms", info.time_ms));
    });
    if !view.matches(game) {
        ui.label(RichText::new("(about a position no longer in the game)").weak());
        return;
    }
    let lines = view.shown_lines();
    if lines.len() < 2 {
        pv_row(ui, "pv", &info.pv, view, game);
        return;
    }
    for (k, line) in lines.into_iter().enumerate() {
        let score = score_text(white_view(line.score, view.side));
        let label = format!("{}. {score} (depth {})", k + 1, line.depth);
        ui.push_id(k, |ui| pv_row(ui, &label, &line.pv, view, game));
    }
}

/// One principal variation after `label`; hovering a move shows the board after it.
fn pv_row(ui: &mut egui::Ui, label: &str, pv: &[String], view: &EngineView, game: &GameState) {
    let steps = game.look_ahead(view.ply(), pv);
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(label).strong());
        for (i, text) in pv.iter().enumerate() {
            let label = ui
                .add(egui::Label::new(RichText::new(text).monospace()).sense(egui::Sense::hover()));
            if let Some(step) = steps.get(i) {
                label.on_hover_ui(|ui| {
                    ui.label(format!("after {}", pv[..=i].join(" ")));
                    let arrow = (!step.mv.is_pass())
                        .then(|| (usize::from(step.mv.from), usize::from(step.mv.to)));
                    board::preview(ui, game.kind(), game.layout(), &step.pieces, arrow, 160.0);
                });
            }
        }
    });
}

/// The spacings of the graph's move ticks.
const MOVE_STEPS: [f64; 9] = [1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0];

/// The spacings of the graph's pawn ticks.
const PAWN_STEPS: [f64; 5] = [0.5, 1.0, 2.0, 5.0, 10.0];

/// The graph's y ticks (small, medium, large) for egui_plot's smallest step `base`: a spacing of
/// [`PAWN_STEPS`] at least three times `base`, so that at any height the axis labels more than
/// the zero line (egui_plot's own powers of ten left a short graph of ±10 with "0" alone).
pub fn pawn_steps(base: f64) -> [f64; 3] {
    let step = PAWN_STEPS
        .into_iter()
        .find(|s| *s >= base * 3.0)
        .unwrap_or(10.0);
    [step, step * 2.0, step * 4.0]
}

/// Draws the evaluation graph; returns the move number clicked, if any.
pub fn eval_graph(ui: &mut egui::Ui, points: &[(usize, Score)], shown: usize) -> Option<usize> {
    let values: Vec<[f64; 2]> = points
        .iter()
        .map(|(ply, s)| [*ply as f64, graph_value(*s).0])
        .collect();
    let proven: Vec<[f64; 2]> = points
        .iter()
        .filter(|(_, s)| graph_value(*s).1)
        .map(|(ply, s)| [*ply as f64, graph_value(*s).0])
        .collect();
    let mut clicked = None;
    let last = points.last().map_or(0, |p| p.0).max(shown).max(4);
    Plot::new("eval-graph")
        .include_y(-2.0)
        .include_y(2.0)
        .include_x(0.0)
        .include_x(last as f64)
        .x_grid_spacer(egui_plot::uniform_grid_spacer(|input| {
            // Whole moves only, spaced so that every labelled tick keeps room for its number.
            let step = MOVE_STEPS
                .into_iter()
                .find(|s| *s >= input.base_step_size * 4.0)
                .unwrap_or(1000.0);
            [step, step * 5.0, step * 10.0]
        }))
        .x_axis_formatter(|mark, _| {
            if mark.value >= 0.0 && mark.value.fract() == 0.0 {
                format!("{}", mark.value as u64)
            } else {
                String::new()
            }
        })
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .y_grid_spacer(egui_plot::uniform_grid_spacer(|input| {
            pawn_steps(input.base_step_size)
        }))
        .y_axis_formatter(|mark, _| match mark.value {
            0.0 => "0".to_string(),
            v => format!("{v:+}"),
        })
        .y_axis_label("White's view (pawns)")
        .x_axis_label("ply (a move of either side)")
        .show(ui, |plot| {
            plot.line(Line::new("score", PlotPoints::from(values.clone())));
            plot.points(
                Points::new("positions", PlotPoints::from(values.clone()))
                    .radius(3.0)
                    .shape(MarkerShape::Circle),
            );
            plot.points(
                Points::new("proven results", PlotPoints::from(proven))
                    .radius(6.0)
                    .shape(MarkerShape::Diamond)
                    .color(Color32::from_rgb(0xd0, 0x30, 0x30)),
            );
            if shown > 0 {
                plot.vline(egui_plot::VLine::new("shown", shown as f64));
            }
            if plot.response().clicked()
                && let Some(p) = plot.pointer_coordinate()
            {
                clicked = points
                    .iter()
                    .min_by(|a, b| {
                        let da = (a.0 as f64 - p.x).abs();
                        let db = (b.0 as f64 - p.x).abs();
                        da.total_cmp(&db)
                    })
                    .map(|(ply, _)| *ply);
            }
        });
    clicked
}
