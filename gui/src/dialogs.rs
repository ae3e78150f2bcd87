//! The native Open and Save dialogs (rfd: the XDG desktop portal, else zenity). A dialog runs on
//! a thread of its own so that the window keeps drawing; the app polls for the chosen file.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::{Duration, Instant};

use eframe::egui;

/// The extension the Save dialog suggests for a record file.
pub const EXTENSION: &str = "games";

/// The extensions the Open dialog lists as record files (`arena --records` writes any name).
pub const EXTENSIONS: [&str; 3] = [EXTENSION, "rec", "txt"];

/// What a dialog's file is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Save the game there.
    Save,
    /// Open the record file.
    Open,
    /// The program of the engine manager's selected engine.
    Engine,
}

/// The dialog open, if one is.
#[derive(Debug, Default)]
pub struct FileDialogs {
    pending: Option<(Purpose, Receiver<Option<PathBuf>>)>,
    /// Woken when a dialog closes.
    ctx: Option<egui::Context>,
    /// When the open dialog was started.
    started: Option<Instant>,
    /// How long the last answered dialog was open.
    took: Option<Duration>,
}

/// A dialog that answers without a file sooner than this was never shown (no desktop portal
/// and no zenity): nobody cancels a dialog that fast. The app then shows its own.
pub const NOT_SHOWN: Duration = Duration::from_millis(700);

impl FileDialogs {
    /// Whether a dialog is open.
    pub fn open(&self) -> bool {
        self.pending.is_some()
    }

    /// Sets the context to wake when a dialog closes.
    pub fn set_context(&mut self, ctx: &egui::Context) {
        if self.ctx.is_none() {
            self.ctx = Some(ctx.clone());
        }
    }

    /// Opens the dialog for `purpose`, starting in the folder of `current` (the typed path) and,
    /// to save, with its file name (given the record extension when it has none). Nothing
    /// happens while another dialog is open.
    pub fn start(&mut self, purpose: Purpose, current: &str) {
        if self.pending.is_some() {
            return;
        }
        let current = Path::new(current.trim());
        let mut dialog = rfd::FileDialog::new()
            .add_filter("Game records", &EXTENSIONS)
            .add_filter("All files", &["*"]);
        if let Some(dir) = current.parent().filter(|d| d.is_dir()) {
            dialog = dialog.set_directory(dir);
        }
        let (tx, rx) = channel();
        let ctx = self.ctx.clone();
        let name = current.file_name().map(|n| {
            let n = Path::new(n);
            if n.extension().is_some() {
                n.to_path_buf()
            } else {
                n.with_extension(EXTENSION)
            }
        });
        std::thread::spawn(move || {
            let chosen = match purpose {
                Purpose::Open => dialog.set_title("Open a game record").pick_file(),
                Purpose::Engine => rfd::FileDialog::new()
                    .set_title("Choose the engine program")
                    .pick_file(),
                Purpose::Save => {
                    let name = name.unwrap_or_else(|| PathBuf::from(format!("game.{EXTENSION}")));
                    dialog
                        .set_title("Save the game")
                        .set_file_name(name.display().to_string())
                        .save_file()
                }
            };
            let _ = tx.send(chosen);
            if let Some(ctx) = ctx {
                ctx.request_repaint();
            }
        });
        self.pending = Some((purpose, rx));
        self.started = Some(Instant::now());
    }

    /// Whether the last dialog answered without a file too soon to have been shown
    /// ([`NOT_SHOWN`]).
    pub fn never_shown(&self) -> bool {
        self.took.is_some_and(|t| t < NOT_SHOWN)
    }

    /// The dialog's answer once it is closed (`None` while it is open or when none is): the
    /// file chosen, or `None` when it was cancelled or no dialog could be shown.
    pub fn poll(&mut self) -> Option<(Purpose, Option<PathBuf>)> {
        let (purpose, rx) = self.pending.as_ref()?;
        let purpose = *purpose;
        let chosen = match rx.try_recv() {
            Err(TryRecvError::Empty) => return None,
            Ok(chosen) => chosen,
            Err(TryRecvError::Disconnected) => None,
        };
        self.pending = None;
        self.took = self.started.take().map(|s| s.elapsed());
        Some((purpose, chosen))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Dialogs with one dialog open, and the sender of its answer.
    fn waiting(purpose: Purpose) -> (FileDialogs, std::sync::mpsc::Sender<Option<PathBuf>>) {
        let (tx, rx) = channel();
        let dialogs = FileDialogs {
            pending: Some((purpose, rx)),
            ..FileDialogs::default()
        };
        (dialogs, tx)
    }

    #[test]
    fn a_dialog_answers_once_with_the_file_or_with_none() {
        let (mut d, tx) = waiting(Purpose::Save);
        assert_eq!(d.poll(), None, "still open");
        assert!(d.open());
        tx.send(Some(PathBuf::from("a.games"))).unwrap();
        assert_eq!(
            d.poll(),
            Some((Purpose::Save, Some(PathBuf::from("a.games"))))
        );
        assert!(!d.open());
        assert_eq!(d.poll(), None, "answered once");
        // Cancelled, or no dialog could be shown: an answer without a file.
        let (mut d, tx) = waiting(Purpose::Open);
        tx.send(None).unwrap();
        assert_eq!(d.poll(), Some((Purpose::Open, None)));
        let (mut d, tx) = waiting(Purpose::Open);
        drop(tx);
        assert_eq!(d.poll(), Some((Purpose::Open, None)), "the thread died");
        // An answer without a file sooner than NOT_SHOWN: no dialog was shown; later, one was
        // (and cancelled).
        let (mut d, tx) = waiting(Purpose::Open);
        d.started = Some(Instant::now());
        tx.send(None).unwrap();
        d.poll();
        assert!(d.never_shown());
        let (mut d, tx) = waiting(Purpose::Open);
        d.started = Some(Instant::now() - NOT_SHOWN * 2);
        tx.send(None).unwrap();
        d.poll();
        assert!(!d.never_shown());
    }
}
