//! The engine manager ("Engines..."): the saved engines, each a name, a program, its arguments and
//! the options sent with `setoption` after the handshake. Everything is edited in a draft and
//! takes effect with Apply (a half-typed path never starts an engine). "Read options" starts the
//! engine (through the engine hub), reads the `option` lines of its `uci` reply and ends it, so
//! that each option can be set with a widget of its type.

use std::collections::HashMap;

use boardgames_core::protocol::{OptionDecl, OptionKind};
use boardgames_tools::client::EngineInfo;
use eframe::egui::{self, RichText};

use crate::controller::{EngineEvent, EngineHandle, Launch};
use crate::error::EngineListError;
use crate::settings::SavedEngine;

/// What the manager asks the app for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ManagerAction {
    /// Replace the saved engines with these.
    Apply(Vec<SavedEngine>),
    /// Start the engine of this saved name to read its options (give the handle to
    /// [`EngineManager::reading`]).
    ReadOptions(String, Launch),
    /// Choose the selected engine's program in a file dialog (the answer goes to
    /// [`EngineManager::set_program`]).
    Browse,
}

/// The engine manager's state.
#[derive(Default)]
pub struct EngineManager {
    /// Whether its docked panel is open.
    pub open: bool,
    /// The saved engines being edited (`None`: not opened yet, the settings' list is shown).
    draft: Option<Vec<SavedEngine>>,
    selected: usize,
    /// What each engine said about itself when its options were read, by saved name.
    declared: HashMap<String, EngineInfo>,
    /// The engine whose options are being read, and its saved name.
    reading: Option<(String, EngineHandle)>,
    /// Why the last Apply or reading failed.
    error: Option<String>,
    /// A new option's name and value being typed (for an engine whose options were not read).
    new_option: (String, String),
}

/// The width of the list of saved engines.
const LIST_WIDTH: f32 = 130.0;

/// The least width of a text field or number of the manager (an option's value, a path).
pub const FIELD_WIDTH: f32 = 160.0;

/// Checks a list of saved engines: every name given and unique, every program without blanks
/// at its ends. Returns the first problem ([`EngineListError`]; its message is the words shown).
pub fn check(engines: &[SavedEngine]) -> Result<(), EngineListError> {
    for (i, e) in engines.iter().enumerate() {
        let name = e.name.trim();
        if name.is_empty() {
            return Err(EngineListError::NoName(i + 1));
        }
        if engines[..i].iter().any(|o| o.name.trim() == name) {
            return Err(EngineListError::SameName(name.to_string()));
        }
        if let Some((o, _)) = e
            .options
            .iter()
            .find(|(o, _)| o.split_whitespace().count() != 1)
        {
            return Err(EngineListError::OptionName {
                engine: name.to_string(),
                option: o.clone(),
            });
        }
    }
    Ok(())
}

impl EngineManager {
    /// Opens the manager on the saved engines of the settings.
    pub fn open_on(&mut self, engines: &[SavedEngine]) {
        self.open = true;
        self.draft = Some(engines.to_vec());
        self.error = None;
    }

    /// Gives back the handle of the engine whose options are being read, to be ended.
    pub fn end(&mut self) -> Option<EngineHandle> {
        self.reading.take().map(|(_, h)| h)
    }

    /// Sets the selected engine's program (in the draft, chosen with Browse).
    pub fn set_program(&mut self, saved: &[SavedEngine], program: &str) {
        let draft = self.draft.get_or_insert_with(|| saved.to_vec());
        if let Some(e) = draft.get_mut(self.selected) {
            e.program = program.to_string();
        }
    }

    /// Takes the handle of the engine started for "Read options".
    pub fn reading(&mut self, name: String, handle: EngineHandle) {
        self.reading = Some((name, handle));
    }

    /// What an engine declared, once its options were read.
    pub fn declared(&self, name: &str) -> Option<&EngineInfo> {
        self.declared.get(name)
    }

    /// Reads the events of the engine whose options are read; returns its handle to be ended
    /// once it has answered (or failed).
    pub fn poll(&mut self) -> Option<EngineHandle> {
        let (name, handle) = self.reading.as_ref()?;
        let mut done = false;
        for event in handle.poll() {
            match event {
                EngineEvent::Ready(info) => {
                    self.declared.insert(name.clone(), info);
                    done = true;
                }
                EngineEvent::Failed(why) => {
                    self.error = Some(format!("reading the options of '{name}' failed: {why}"));
                    done = true;
                }
                EngineEvent::Ended => done = true,
                _ => {}
            }
        }
        if done {
            self.reading.take().map(|(_, h)| h)
        } else {
            None
        }
    }

    /// Closes the manager; a draft not applied is dropped.
    pub fn close(&mut self) {
        self.open = false;
        self.draft = None;
    }

    /// Draws the manager (its docked panel); `saved` is the settings' list (what Apply
    /// replaces).
    pub fn ui(&mut self, ui: &mut egui::Ui, saved: &[SavedEngine]) -> Option<ManagerAction> {
        let mut action = None;
        let draft = self.draft.get_or_insert_with(|| saved.to_vec()).clone();
        let edited = draft.as_slice() != saved;
        // What Apply would refuse (a name twice, none), said at once above the list.
        let problem = check(&draft).err();
        ui.horizontal(|ui| {
            if ui
                .add_enabled(edited && problem.is_none(), egui::Button::new("Apply"))
                .on_hover_text("saves the list; engines in play restart with their new settings")
                .clicked()
            {
                match check(&draft) {
                    Ok(()) => {
                        let mut list = draft.clone();
                        for e in &mut list {
                            e.name = e.name.trim().to_string();
                        }
                        action = Some(ManagerAction::Apply(list));
                        self.error = None;
                    }
                    Err(why) => self.error = Some(why.to_string()),
                }
            }
            if ui
                .add_enabled(edited, egui::Button::new("Revert"))
                .clicked()
            {
                self.draft = Some(saved.to_vec());
                self.error = None;
            }
            if edited {
                ui.label(RichText::new("not applied yet").weak());
            }
        });
        // One line kept for it whether or not there is one, so that the list never moves.
        let text = match problem.filter(|_| edited) {
            Some(why) => format!("Cannot apply: {why}."),
            None => String::new(),
        };
        let line = ui.add_sized(
            [ui.available_width(), 18.0],
            egui::Label::new(RichText::new(&text).color(ui.visuals().error_fg_color)).truncate(),
        );
        if !text.is_empty() {
            line.on_hover_text(text);
        }
        ui.separator();
        // Everything below scrolls: nothing is cut off in a small window.
        egui::ScrollArea::vertical()
            .id_salt("engine-manager")
            .auto_shrink([false, true])
            .show(ui, |ui| self.body(ui, saved, &mut action));
        action
    }

    /// The list of saved engines, the selected one's fields and options, and the messages.
    fn body(
        &mut self,
        ui: &mut egui::Ui,
        saved: &[SavedEngine],
        action: &mut Option<ManagerAction>,
    ) {
        let draft = self.draft.get_or_insert_with(|| saved.to_vec());
        // Side by side when there is room, else the list above the fields.
        let layout = if ui.available_width() < LIST_WIDTH + 2.0 * FIELD_WIDTH {
            egui::Layout::top_down(egui::Align::Min)
        } else {
            egui::Layout::left_to_right(egui::Align::Min)
        };
        ui.with_layout(layout, |ui| {
            ui.vertical(|ui| {
                ui.set_width(LIST_WIDTH);
                ui.label(RichText::new("Saved engines").strong());
                for (i, e) in draft.iter().enumerate() {
                    let name = if e.name.is_empty() {
                        "(no name)"
                    } else {
                        &e.name
                    };
                    if ui.selectable_label(self.selected == i, name).clicked() {
                        self.selected = i;
                    }
                }
                ui.horizontal(|ui| {
                    if ui.button("New").clicked() {
                        draft.push(SavedEngine {
                            name: format!("engine {}", draft.len() + 1),
                            ..SavedEngine::default()
                        });
                        self.selected = draft.len() - 1;
                    }
                    if ui
                        .add_enabled(self.selected < draft.len(), egui::Button::new("Delete"))
                        .clicked()
                    {
                        draft.remove(self.selected);
                        self.selected = self.selected.min(draft.len().saturating_sub(1));
                    }
                });
            });
            ui.separator();
            ui.vertical(|ui| {
                let Some(e) = draft.get_mut(self.selected) else {
                    ui.label("No saved engine: New adds one.");
                    return;
                };
                let field = (ui.available_width() - 90.0).max(FIELD_WIDTH);
                egui::Grid::new("engine-fields")
                    .num_columns(2)
                    .show(ui, |ui| {
                        let label = ui.label("name");
                        ui.add(egui::TextEdit::singleline(&mut e.name).desired_width(field))
                            .labelled_by(label.id);
                        ui.end_row();
                        let label = ui.label("program");
                        ui.add(
                            egui::TextEdit::singleline(&mut e.program)
                                .hint_text("empty: ours")
                                .desired_width(field),
                        )
                        .labelled_by(label.id);
                        ui.end_row();
                        ui.label("");
                        if ui
                            .button("Browse...")
                            .on_hover_text("choose the program in a file dialog")
                            .clicked()
                        {
                            *action = Some(ManagerAction::Browse);
                        }
                        ui.end_row();
                        let label = ui.label("arguments");
                        ui.add(egui::TextEdit::singleline(&mut e.args).desired_width(field))
                            .labelled_by(label.id);
                        ui.end_row();
                    });
                ui.horizontal(|ui| {
                    let reading = self.reading.is_some();
                    if ui
                        .add_enabled(!reading, egui::Button::new("Read options"))
                        .on_hover_text("starts the engine and lists the options of its uci reply")
                        .clicked()
                    {
                        let probe = SavedEngine {
                            options: Vec::new(),
                            ..e.clone()
                        };
                        self.error = None;
                        *action = Some(ManagerAction::ReadOptions(e.name.clone(), probe.launch()));
                    }
                    if reading {
                        ui.spinner();
                    }
                });
                if let Some(info) = self.declared.get(&e.name) {
                    ui.label(format!("id name: {}", info.name));
                }
                ui.separator();
                egui::ScrollArea::vertical()
                    .id_salt("engine-options")
                    .max_height(260.0)
                    .show(ui, |ui| match self.declared.get(&e.name) {
                        Some(info) => declared_options(ui, e, &info.options),
                        None => typed_options(ui, e, &mut self.new_option),
                    });
            });
        });
        // Under the list and the fields, so that a message never moves what can be clicked.
        ui.separator();
        if let Some(why) = &self.error {
            ui.add(egui::Label::new(RichText::new(why).color(ui.visuals().error_fg_color)).wrap());
        }
        if let Some((name, _)) = &self.reading {
            ui.label(format!("reading the options of '{name}'..."));
        }
    }
}

/// The value of option `name` in a saved engine, if it is set.
fn value_of<'a>(e: &'a SavedEngine, name: &str) -> Option<&'a str> {
    e.options
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// Sets option `name` to `value`, or removes it when `value` is the default (`None`).
fn set_value(e: &mut SavedEngine, name: &str, value: Option<String>) {
    match value {
        Some(v) => match e.options.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = v,
            None => e.options.push((name.to_string(), v)),
        },
        None => e.options.retain(|(n, _)| n != name),
    }
}

/// One widget per declared option, of its type; a value other than the default is saved (and
/// sent after the handshake).
fn declared_options(ui: &mut egui::Ui, e: &mut SavedEngine, options: &[OptionDecl]) {
    if options.is_empty() {
        ui.label("The engine declares no options.");
    }
    egui::Grid::new("engine-options")
        .num_columns(2)
        .show(ui, |ui| {
            for o in options {
                let label = ui.label(&o.name);
                let current = value_of(e, &o.name).map(str::to_string);
                let changed = match &o.kind {
                    OptionKind::Spin { default, min, max } => {
                        let mut v: i64 = current
                            .as_deref()
                            .and_then(|s| s.parse().ok())
                            .unwrap_or(*default);
                        let r = ui
                            .add_sized(
                                [FIELD_WIDTH, 20.0],
                                egui::DragValue::new(&mut v).range(*min..=*max),
                            )
                            .labelled_by(label.id);
                        r.changed().then(|| (v != *default).then(|| v.to_string()))
                    }
                    OptionKind::Check { default } => {
                        let mut v = current.as_deref().map_or(*default, |s| s == "true");
                        let r = ui.checkbox(&mut v, "").labelled_by(label.id);
                        r.changed().then(|| (v != *default).then(|| v.to_string()))
                    }
                    OptionKind::Combo { default, vars } => {
                        let mut v = current.clone().unwrap_or_else(|| default.clone());
                        let before = v.clone();
                        egui::ComboBox::from_id_salt(("combo", &o.name))
                            .selected_text(&v)
                            .width(FIELD_WIDTH)
                            .show_ui(ui, |ui| {
                                for var in vars {
                                    ui.selectable_value(&mut v, var.clone(), var);
                                }
                            });
                        (v != before).then(|| (v != *default).then_some(v))
                    }
                    OptionKind::String { default } => {
                        // `<empty>` is the protocol's word for no value: an empty field.
                        let default = if default == "<empty>" { "" } else { default };
                        let mut v = current.clone().unwrap_or_else(|| default.to_string());
                        let r = ui
                            .add_sized([FIELD_WIDTH, 20.0], egui::TextEdit::singleline(&mut v))
                            .labelled_by(label.id);
                        let v = v.trim().to_string();
                        r.changed()
                            .then(|| (v != default && !v.is_empty()).then_some(v))
                    }
                };
                if let Some(value) = changed {
                    set_value(e, &o.name, value);
                }
                ui.end_row();
            }
        });
}

/// The saved options as name and value, for an engine whose options were not read: each can be
/// removed, and one added by name.
fn typed_options(ui: &mut egui::Ui, e: &mut SavedEngine, new: &mut (String, String)) {
    ui.label(
        RichText::new("Read options lists what the engine offers; or type a name and a value.")
            .weak(),
    );
    let mut remove = None;
    egui::Grid::new("typed-options")
        .num_columns(3)
        .show(ui, |ui| {
            for (i, (name, value)) in e.options.iter_mut().enumerate() {
                let label = ui.label(name.as_str());
                ui.add_sized([FIELD_WIDTH, 20.0], egui::TextEdit::singleline(value))
                    .labelled_by(label.id);
                if ui.small_button("remove").clicked() {
                    remove = Some(i);
                }
                ui.end_row();
            }
            ui.add_sized(
                [90.0, 20.0],
                egui::TextEdit::singleline(&mut new.0).hint_text("option"),
            );
            ui.add_sized(
                [FIELD_WIDTH, 20.0],
                egui::TextEdit::singleline(&mut new.1).hint_text("value"),
            );
            if ui
                .add_enabled(!new.0.trim().is_empty(), egui::Button::new("add"))
                .clicked()
            {
                let name = new.0.trim().to_string();
                set_value(e, &name, Some(new.1.trim().to_string()));
                *new = Default::default();
            }
            ui.end_row();
        });
    if let Some(i) = remove {
        e.options.remove(i);
    }
}
