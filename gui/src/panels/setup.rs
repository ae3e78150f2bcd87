//! The set-up panel: the next new game's game and size, each side's player (a saved engine or a
//! program typed here), and the analysis engine with its number of lines.
//!
//! An engine's program and arguments are edited in a draft, kept in egui's memory, and applied
//! with Enter or the Apply button: a half-typed path never starts an engine.

use boardgames_core::games::Side;
use eframe::egui::{self, RichText};

use super::Action;
use crate::model::{Model, side_name};
use crate::settings::{Limit, MAX_LINES, Player, Settings, time_control};
use crate::widgets::{self, ERROR};

/// A program and arguments being typed, and the applied ones it started from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Draft {
    base: (String, String),
    program: String,
    args: String,
}

impl Draft {
    fn of(p: &Player) -> Draft {
        Draft {
            base: (p.program.clone(), p.args.clone()),
            program: p.program.clone(),
            args: p.args.clone(),
        }
    }

    fn edited(&self) -> bool {
        (&self.program, &self.args) != (&self.base.0, &self.base.1)
    }
}

/// Draws the set-up panel.
pub fn ui(ui: &mut egui::Ui, model: &Model, settings: &Settings) -> Option<Action> {
    let mut action = None;
    // The sliders leave room for their number and label in a narrow panel.
    ui.spacing_mut().slider_width = (ui.available_width() - 130.0).clamp(50.0, 160.0);
    ui.heading("Next game");
    let mut kind = settings.kind();
    let mut size = settings.size;
    widgets::game_picker(ui, &mut kind);
    if kind != settings.kind() {
        let (lo, hi) = kind.size_range();
        size = size.clamp(lo, hi);
    }
    widgets::size_slider(ui, kind, &mut size);
    if (kind, size) != (settings.kind(), settings.size) {
        action = Some(Action::SetSetup(kind, size));
    }
    if let Some(a) = clock(ui, settings) {
        action = Some(a);
    }
    if ui.button("Start new game").clicked() {
        action = Some(Action::NewGame);
    }
    ui.separator();
    for side in [Side::White, Side::Black] {
        let i = side.index();
        ui.push_id(i, |ui| {
            ui.heading(side_name(side));
            if let Some(p) = player(ui, model, settings, i) {
                action = Some(Action::SetPlayer(i, p));
            }
        });
        ui.separator();
    }
    ui.heading("Analysis engine");
    if let Some(a) = analysis(ui, settings) {
        action = Some(a);
    }
    if ui
        .button("Engines...")
        .on_hover_text("the saved engines: program, arguments and options")
        .clicked()
    {
        action = Some(Action::OpenEngines);
    }
    action
}

/// The clock of new games, typed in a draft applied with Enter or when the field loses focus,
/// once it reads as a time control.
fn clock(ui: &mut egui::Ui, settings: &Settings) -> Option<Action> {
    let id = ui.scope_id().with("clock-draft");
    let (base, mut text) = ui
        .data(|d| d.get_temp::<(String, String)>(id))
        .filter(|(base, _)| *base == settings.clock)
        .unwrap_or_else(|| (settings.clock.clone(), settings.clock.clone()));
    let label = ui.label("clock (M:SS+inc; empty: none)");
    let edit = ui
        .add(
            egui::TextEdit::singleline(&mut text)
                .hint_text("none, e.g. 5:00+3")
                .desired_width(ui.available_width() - 8.0),
        )
        .on_hover_text(
            "the time of each side and the seconds added after each move, for the next new \
             game; engines then play on the clock (go wtime btime winc binc)",
        )
        .labelled_by(label.id);
    let parsed = time_control(&text);
    if let Err(e) = &parsed {
        ui.label(RichText::new(e.to_string()).color(ERROR));
    } else if text.trim() != settings.clock {
        ui.label(RichText::new("applies with Enter, then to the next new game").weak());
    }
    let action = (edit.lost_focus() && parsed.is_ok() && text.trim() != settings.clock)
        .then(|| Action::SetClock(text.trim().to_string()));
    ui.data_mut(|d| d.insert_temp(id, (base, text)));
    action
}

/// The analysis engine and its number of lines.
fn analysis(ui: &mut egui::Ui, settings: &Settings) -> Option<Action> {
    let mut action = None;
    let mut chosen = settings.analysis.clone();
    let label = ui.label("engine");
    engine_choice(
        ui,
        "analysis-engine",
        settings,
        &mut chosen,
        "engine (ours)",
    )
    .labelled_by(label.id);
    if chosen != settings.analysis {
        action = Some(Action::SetAnalysisEngine(chosen));
    }
    let mut lines = settings.lines();
    let label = ui.label("lines");
    ui.add(egui::Slider::new(&mut lines, 1..=MAX_LINES))
        .on_hover_text("how many best moves the analysis shows, each with its line (MultiPV)")
        .labelled_by(label.id);
    if lines != settings.lines() {
        action = Some(Action::SetLines(lines));
    }
    action
}

/// A drop-down of the saved engines; `chosen` is a saved name, or empty for `none` (the label of
/// the first entry).
fn engine_choice(
    ui: &mut egui::Ui,
    salt: &str,
    settings: &Settings,
    chosen: &mut String,
    none: &str,
) -> egui::Response {
    let shown = if settings.saved(chosen).is_some() {
        chosen.clone()
    } else {
        none.to_string()
    };
    egui::ComboBox::from_id_salt(salt)
        .selected_text(shown)
        .width(ui.available_width() - 8.0)
        .show_ui(ui, |ui| {
            ui.selectable_value(chosen, String::new(), none);
            for e in &settings.engines {
                ui.selectable_value(chosen, e.name.clone(), &e.name);
            }
        })
        .response
}

/// One side's player; returns the changed player.
fn player(ui: &mut egui::Ui, model: &Model, settings: &Settings, i: usize) -> Option<Player> {
    let current = &settings.players[i];
    let mut p = current.clone();
    ui.horizontal(|ui| {
        ui.radio_value(&mut p.engine, false, "Human");
        ui.radio_value(&mut p.engine, true, "Engine");
    });
    if p.engine && !settings.engines.is_empty() {
        let label = ui.label("engine");
        engine_choice(ui, "saved", settings, &mut p.saved, "program below").labelled_by(label.id);
    }
    let typed = settings.saved(&p.saved).is_none();
    if p.engine && typed {
        let id = ui.scope_id().with("draft");
        let mut draft = ui
            .data(|d| d.get_temp::<Draft>(id))
            .filter(|d| d.base == (p.program.clone(), p.args.clone()))
            .unwrap_or_else(|| Draft::of(&p));
        let label = ui.label("program (empty: ours)");
        let program = ui
            .add(egui::TextEdit::singleline(&mut draft.program).hint_text("engine"))
            .labelled_by(label.id);
        let label = ui.label("arguments");
        let args = ui
            .text_edit_singleline(&mut draft.args)
            .labelled_by(label.id);
        let enter = (program.lost_focus() || args.lost_focus())
            && ui.input(|i| i.key_pressed(egui::Key::Enter));
        let mut apply = false;
        ui.horizontal(|ui| {
            apply = ui
                .add_enabled(draft.edited(), egui::Button::new("Apply"))
                .on_hover_text("starts the engine with this program and arguments (or press Enter)")
                .clicked();
            if draft.edited() {
                ui.label(RichText::new("not applied yet").weak());
            }
        });
        if (apply || enter) && draft.edited() {
            p.program = draft.program.trim().to_string();
            p.args = draft.args.clone();
        }
        ui.data_mut(|d| d.insert_temp(id, draft));
    }
    if p.engine && model.clocks().is_some() {
        ui.label("limit: the game's clock");
    } else if p.engine {
        ui.horizontal(|ui| {
            let label = ui.label("limit");
            egui::ComboBox::from_id_salt("limit")
                .selected_text(p.limit.label())
                .show_ui(ui, |ui| {
                    for l in Limit::ALL {
                        ui.selectable_value(&mut p.limit, l, l.label());
                    }
                })
                .response
                .labelled_by(label.id);
            ui.add(egui::DragValue::new(&mut p.value).range(1..=u32::MAX as u64))
                .labelled_by(label.id);
        });
        // Always one line, so that the panel does not jump when the engine starts or ends.
        let state = match &model.seats()[i] {
            Some(s) if s.ready => format!("{}: running", s.name),
            Some(s) => format!("{}: starting...", s.name),
            None => "not running".to_string(),
        };
        ui.add(egui::Label::new(RichText::new(state).weak()).truncate());
    }
    (p != *current).then_some(p)
}
