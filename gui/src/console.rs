//! The engine console: the raw lines to (`> ...`) and from (`< ...`) every engine, as they pass
//! through the client, with a text filter and a copy button.

use std::sync::{Arc, Mutex};

use eframe::egui::{self, RichText};

use crate::controller::{EngineLog, LOG_LINES, SharedLog};

/// The engines whose lines are kept, one log each (successive processes of one role share it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// White's engine.
    White,
    /// Black's engine.
    Black,
    /// The analysis engine.
    Analysis,
    /// The search tree explorer's engine.
    Tree,
    /// The solver's engine.
    Solve,
    /// An engine started by the engine manager to read its options.
    Options,
    /// The game review's engine (positions no table covers).
    Review,
}

impl Role {
    /// Every role, in the console's order.
    pub const ALL: [Role; 7] = [
        Role::White,
        Role::Black,
        Role::Analysis,
        Role::Tree,
        Role::Solve,
        Role::Options,
        Role::Review,
    ];

    /// Its name in the console.
    pub fn name(self) -> &'static str {
        match self {
            Role::White => "White's engine",
            Role::Black => "Black's engine",
            Role::Analysis => "Analysis",
            Role::Tree => "Search tree",
            Role::Solve => "Solve",
            Role::Options => "Engine manager",
            Role::Review => "Game review",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// The console's state and the logs it shows.
pub struct Console {
    /// Whether its docked panel is open.
    pub open: bool,
    /// Only lines containing this text (ignoring case) are shown; empty: every line.
    pub filter: String,
    /// The engine shown; `None`: all of them, each line prefixed with its engine.
    pub shown: Option<Role>,
    /// A protocol command being typed for the engine shown.
    pub command: String,
    logs: [SharedLog; Role::ALL.len()],
}

impl Default for Console {
    fn default() -> Self {
        Console {
            open: false,
            filter: String::new(),
            shown: None,
            command: String::new(),
            logs: std::array::from_fn(|_| Arc::new(Mutex::new(EngineLog::default()))),
        }
    }
}

impl Console {
    /// The log of an engine, to give to the engine's task.
    pub fn log(&self, role: Role) -> SharedLog {
        Arc::clone(&self.logs[role.index()])
    }

    /// Every line of one engine's log (unfiltered).
    pub fn lines(&self, role: Role) -> Vec<String> {
        let log = self.logs[role.index()]
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        log.lines().map(str::to_string).collect()
    }

    /// The text the console shows: the chosen engine's lines (or every engine's in the order
    /// they passed, each prefixed with its engine's name) that pass the filter, one per line;
    /// and how many lines were dropped.
    pub fn shown_text(&self) -> (String, u64) {
        let needle = self.filter.trim().to_lowercase();
        let mut shown: Vec<(u64, Role, String)> = Vec::new();
        let mut dropped = 0;
        for role in Role::ALL {
            if self.shown.is_some_and(|r| r != role) {
                continue;
            }
            let log = self.logs[role.index()]
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            dropped += log.dropped();
            shown.extend(
                log.stamped()
                    .filter(|(_, line)| needle.is_empty() || line.to_lowercase().contains(&needle))
                    .map(|(stamp, line)| (stamp, role, line.to_string())),
            );
        }
        // Each log is in stamp order already: a stable sort merges them.
        shown.sort_by_key(|&(stamp, _, _)| stamp);
        let mut text = String::new();
        for (_, role, line) in shown {
            if self.shown.is_none() {
                text.push('[');
                text.push_str(role.name());
                text.push_str("] ");
            }
            text.push_str(&line);
            text.push('\n');
        }
        (text, dropped)
    }

    /// Forgets every line of every engine.
    pub fn clear(&self) {
        for log in &self.logs {
            log.lock().unwrap_or_else(|e| e.into_inner()).clear();
        }
    }

    /// Draws the console (its docked panel); returns a protocol command typed for an engine
    /// (White's, Black's or the analysis engine, the one shown), to be sent.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<(Role, String)> {
        let mut typed = None;
        let (text, dropped) = self.shown_text();
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("engine");
            let selected = self.shown.map_or("all", Role::name);
            egui::ComboBox::from_id_salt("console-engine")
                .selected_text(selected)
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut self.shown, None, "all");
                    for role in Role::ALL {
                        ui.selectable_value(&mut self.shown, Some(role), role.name());
                    }
                })
                .response
                .labelled_by(label.id);
            let label = ui.label("filter");
            ui.add(
                egui::TextEdit::singleline(&mut self.filter)
                    .hint_text("text in the line")
                    .desired_width(160.0),
            )
            .labelled_by(label.id);
            if ui
                .button("Copy")
                .on_hover_text("copies the lines shown to the clipboard")
                .clicked()
            {
                ui.ctx().copy_text(text.clone());
            }
            if ui.button("Clear").clicked() {
                self.clear();
            }
        });
        ui.label(
            RichText::new(
                "> a line sent to the engine, < a line from it, # a note from the GUI. \
                 Select text with the mouse to copy a part.",
            )
            .weak(),
        );
        if dropped > 0 {
            ui.label(
                RichText::new(format!(
                    "{dropped} older lines were dropped: the last {LOG_LINES} lines of each \
                     engine are kept."
                ))
                .color(egui::Color32::from_rgb(0xb0, 0x70, 0x10)),
            );
        }
        let target = self
            .shown
            .filter(|r| matches!(r, Role::White | Role::Black | Role::Analysis));
        ui.horizontal(|ui| {
            let label = ui.label("command");
            let edit = ui
                .add_enabled(
                    target.is_some(),
                    egui::TextEdit::singleline(&mut self.command)
                        .hint_text("isready, show, legal, setoption name N value V ...")
                        .desired_width((ui.available_width() - 60.0).max(120.0)),
                )
                .on_disabled_hover_text("choose White's, Black's or the analysis engine above")
                .labelled_by(label.id);
            let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            let send = ui
                .add_enabled(
                    target.is_some() && !self.command.trim().is_empty(),
                    egui::Button::new("Send"),
                )
                .on_hover_text("sends the line to the engine; its answer appears below")
                .clicked();
            if let Some(role) = target
                && (send || enter)
                && !self.command.trim().is_empty()
            {
                typed = Some((role, self.command.trim().to_string()));
                self.command.clear();
            }
        });
        egui::ScrollArea::both()
            .id_salt("console-lines")
            .auto_shrink([false, false])
            .stick_to_bottom(true)
            .show(ui, |ui| {
                ui.add(
                    egui::TextEdit::multiline(&mut text.as_str())
                        .font(egui::TextStyle::Monospace)
                        .desired_width(f32::INFINITY),
                );
            });
        typed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controller::log_line;

    #[test]
    fn all_view_is_in_the_order_the_lines_passed() {
        let console = Console::default();
        let (white, solve, tree) = (
            console.log(Role::White),
            console.log(Role::Solve),
            console.log(Role::Tree),
        );
        log_line(&solve, "> go solve".into());
        log_line(&white, "> go depth 3".into());
        log_line(&solve, "< info depth 1".into());
        log_line(&tree, "# starting".into());
        log_line(&white, "< bestmove a1a2".into());
        let (text, dropped) = console.shown_text();
        assert_eq!(dropped, 0);
        assert_eq!(
            text,
            "[Solve] > go solve\n\
             [White's engine] > go depth 3\n\
             [Solve] < info depth 1\n\
             [Search tree] # starting\n\
             [White's engine] < bestmove a1a2\n"
        );
        let mut console = console;
        console.filter = "GO ".into();
        assert_eq!(
            console.shown_text().0,
            "[Solve] > go solve\n[White's engine] > go depth 3\n"
        );
        console.filter.clear();
        console.shown = Some(Role::White);
        assert_eq!(console.shown_text().0, "> go depth 3\n< bestmove a1a2\n");
    }
}
