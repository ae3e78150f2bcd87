//! Saving and opening, and the questions before anything is lost: the unsaved-game question
//! ([`Replacing`]), the file dialogs (the system's or our own), the question before another
//! game's file is replaced ([`crate::saving`]), and the session kept for the next start.

use std::path::Path;

use boardgames_core::games::Side;

use super::GuiApp;
use crate::dialogs::Purpose;
use crate::error::FileError;
use crate::panels::Action;
use crate::panels::question::Answer;
use crate::saving;

/// What the status line says when a file dialog closes without a file.
pub const NO_FILE: &str = "No file was chosen.";

/// What waits for the answer to the unsaved-game question: something that replaces the game on
/// the table, or closing the window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Replacing {
    /// An action that replaces the game (a new game, a file opened, a position set).
    Action(Action),
    /// The editor's position used (`true`: and analysed).
    Editor(bool),
    /// The window closing.
    Close,
}

impl Replacing {
    /// What happens, as the question says it ("Save it before you ...?").
    pub fn what(&self) -> &'static str {
        match self {
            Replacing::Action(Action::NewGame) => "start a new game",
            Replacing::Action(Action::SetPosition(..)) => "set up the position",
            Replacing::Action(_) => "open another game",
            Replacing::Editor(_) => "use the edited position",
            Replacing::Close => "close the window",
        }
    }
}

/// Whether an action replaces the game on the table (and asks first when it is not saved).
pub(super) fn replaces_game(action: &Action) -> bool {
    matches!(
        action,
        Action::NewGame
            | Action::OpenFile(_)
            | Action::OpenRecent(_)
            | Action::LoadRecord(_)
            | Action::SetPosition(..)
    )
}

impl GuiApp {
    /// Keeps the game on the table in the settings, to be restored on the next start (a game
    /// without moves is not kept), and which tools are open.
    /// (A game discarded when the window closed is not kept.)
    pub fn remember_session(&mut self) {
        self.settings.tools = self
            .open_tools()
            .into_iter()
            .map(|t| t.key().to_string())
            .collect();
        self.follow_players();
        self.settings.session = match self.model.record_text() {
            Ok(record) if !self.model.game().is_empty() && !self.discarded => {
                crate::settings::Session {
                    record,
                    file: self
                        .model
                        .file()
                        .map(|p| p.display().to_string())
                        .unwrap_or_default(),
                    unsaved: self.model.unsaved(),
                    view: self.model.view(),
                }
            }
            _ => crate::settings::Session::default(),
        };
    }

    /// The players' names for a record: an engine's as the set-up names it (the saved engine's
    /// name, the typed program, or "engine (ours)"), or "human". Never the running process's
    /// `id name`, which is there or not depending on whether the engine still runs: a game's
    /// records name its engine the same way whenever they are saved.
    pub fn player_name(&self, side: Side) -> String {
        let i = side.index();
        if self.settings.players[i].engine {
            self.settings.player_label(i)
        } else {
            "human".into()
        }
    }

    /// Tells the model who plays each side now ([`GuiApp::player_name`]): the moves played
    /// from now on are theirs, and the records name them.
    pub(super) fn follow_players(&mut self) {
        let names = [Side::White, Side::Black].map(|s| self.player_name(s));
        self.model.set_playing(names);
    }

    /// Saves the game to a file in the record format, naming the players who played it; it is
    /// then no longer unsaved, and the file is the game's.
    pub fn save(&mut self, path: &Path) -> Result<(), FileError> {
        self.follow_players();
        self.model.save(path)?;
        self.model.mark_saved(path);
        Ok(())
    }

    /// Saves the game to `path` and says so (the path becomes a recent file and the game's
    /// file); returns whether it was saved.
    pub(super) fn save_to(&mut self, path: &Path) -> bool {
        match self.save(path) {
            Ok(()) => {
                self.model.note(format!("saved to {}", path.display()));
                self.settings.remember(&path.display().to_string());
                true
            }
            Err(e) => {
                self.model.error(e.to_string());
                false
            }
        }
    }

    /// What waits for the unsaved-game question's answer, while it is asked.
    pub fn question(&self) -> Option<&Replacing> {
        self.question.as_ref()
    }

    /// Answers the unsaved-game question: Save saves to the game's file (or asks for one in the
    /// Save dialog) and then goes on, Discard goes on (the game can be brought back once),
    /// Cancel keeps the game.
    pub fn answer(&mut self, answer: Answer) {
        let Some(pending) = self.question.take() else {
            return;
        };
        match answer {
            Answer::Cancel => {}
            Answer::Discard => {
                // A game discarded on closing is not kept for the next start either.
                self.discarded = pending == Replacing::Close;
                self.proceed(pending);
                if self.model.message().is_none() && self.model.can_bring_back().is_some() {
                    self.model.note(
                        "The last game was discarded: Bring back (Ctrl+Shift+Z) restores it."
                            .into(),
                    );
                }
            }
            Answer::Save => match self.model.file().map(Path::to_path_buf) {
                Some(path) => {
                    if self.save_to(&path) {
                        self.proceed(pending);
                    }
                }
                None => {
                    self.after_save = Some(pending);
                    self.start_dialog(Purpose::Save);
                }
            },
        }
    }

    /// Does what waited for the question.
    pub(super) fn proceed(&mut self, pending: Replacing) {
        match pending {
            Replacing::Action(action) => self.apply_now(action),
            Replacing::Editor(analyse) => {
                if let Err(e) = self.use_edited(analyse) {
                    self.model.error(e.to_string());
                }
            }
            Replacing::Close => {
                self.closing = true;
                self.close_now = true;
            }
        }
    }

    /// Uses the file chosen in a Save or Open dialog: it becomes the file path, and the game
    /// is saved there or the file opened.
    pub fn file_chosen(&mut self, purpose: Purpose, path: &Path) {
        let text = path.display().to_string();
        match purpose {
            Purpose::Save => self.apply(Action::SaveTo(text)),
            Purpose::Open => self.apply(Action::OpenFile(text)),
            Purpose::Engine => self
                .tools
                .manager
                .set_program(&self.settings.engines, &text),
        }
    }

    /// Opens our own file dialog for `purpose` (what a system dialog that could not be shown
    /// falls back to), starting from the file path of the settings.
    pub fn open_path_dialog(&mut self, purpose: Purpose) {
        let start = self.dialog_start(purpose);
        self.path_dialog.open(purpose, &start);
    }

    /// Uses our own file dialogs ([`PathDialog`]) rather than the system's (`true`), as when
    /// the system's cannot be shown.
    pub fn use_own_dialogs(&mut self, own: bool) {
        self.own_dialogs = own;
    }

    /// The path a file dialog for `purpose` starts from: to save, the game's own file or a
    /// name no file has ([`saving::suggested_path`]), never another game's file; to open,
    /// the last path used.
    pub fn dialog_start(&self, purpose: Purpose) -> String {
        match purpose {
            Purpose::Save => saving::suggested_path(self.model.file(), &self.settings.path)
                .display()
                .to_string(),
            Purpose::Open => self.settings.path.clone(),
            Purpose::Engine => String::new(),
        }
    }

    /// Opens a file dialog for `purpose`: the system's, or our own.
    pub(super) fn start_dialog(&mut self, purpose: Purpose) {
        if self.own_dialogs {
            self.open_path_dialog(purpose);
        } else {
            let start = self.dialog_start(purpose);
            self.dialogs.start(purpose, &start);
        }
    }

    /// The file a save waits to replace while the user is asked ([`saving::REPLACE_TITLE`]).
    pub fn replacing_file(&self) -> Option<&Path> {
        self.replacing_file.as_deref()
    }

    /// Answers the question before another file is replaced: `true` saves over it (and goes on
    /// with what waited for the save), `false` keeps it and saves nothing.
    pub fn answer_replace(&mut self, replace: bool) {
        let Some(path) = self.replacing_file.take() else {
            return;
        };
        if replace {
            self.save_and_proceed(&path);
        } else {
            self.after_save = None;
            self.model.note(format!(
                "Nothing was saved: {} was kept as it was.",
                path.display()
            ));
        }
    }

    /// Saves to `path` and then does what waited for the save.
    pub(super) fn save_and_proceed(&mut self, path: &Path) {
        let after = self.after_save.take();
        if self.save_to(path)
            && let Some(pending) = after
        {
            self.proceed(pending);
        }
    }

    pub(super) fn use_editor(&mut self, analyse: bool) {
        if self.model.unsaved() {
            self.question = Some(Replacing::Editor(analyse));
        } else {
            self.proceed(Replacing::Editor(analyse));
        }
    }
}
