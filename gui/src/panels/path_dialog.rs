//! A file dialog of our own, for when the system's cannot be shown (no desktop portal and no
//! zenity, as under Xvfb): a path to type, and the folder's entries to click (a folder opens, a
//! file fills the path).

use std::path::{Path, PathBuf};

use eframe::egui::{self, RichText};

use crate::dialogs::{EXTENSIONS, Purpose};

/// A folder's entries as (name, is a folder), or why they cannot be read.
type Listing = Result<Vec<(String, bool)>, String>;

/// The dialog's state: open for a purpose, with the typed path.
#[derive(Debug, Default)]
pub struct PathDialog {
    /// What the file is for, while the dialog is open.
    purpose: Option<Purpose>,
    /// The typed path.
    path: String,
    /// The folder listed, and its entries (folders first, each sorted by name).
    listing: Option<(PathBuf, Listing)>,
}

/// What the dialog answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathAnswer {
    /// This file, for this purpose.
    Chosen(Purpose, PathBuf),
    /// Closed without a file.
    Cancelled,
}

/// The title of the dialog.
pub const TITLE: &str = "Choose a file";

impl PathDialog {
    /// Opens the dialog for `purpose`, starting from `path`.
    pub fn open(&mut self, purpose: Purpose, path: &str) {
        self.purpose = Some(purpose);
        self.path = path.trim().to_string();
        self.listing = None;
    }

    /// Whether it is open.
    pub fn is_open(&self) -> bool {
        self.purpose.is_some()
    }

    /// The folder whose entries are listed: the typed path's when it is a folder, else its
    /// parent, else the current folder.
    fn folder(&self) -> PathBuf {
        let typed = Path::new(&self.path);
        if typed.is_dir() {
            return typed.to_path_buf();
        }
        match typed.parent() {
            Some(p) if p.is_dir() => p.to_path_buf(),
            _ => PathBuf::from("."),
        }
    }

    /// Draws the dialog while it is open; returns its answer once given.
    pub fn window(&mut self, ctx: &egui::Context) -> Option<PathAnswer> {
        let purpose = self.purpose?;
        let folder = self.folder();
        if self.listing.as_ref().is_none_or(|(f, _)| *f != folder) {
            // Records only (and folders), as the system's dialog filters them; any file for
            // an engine's program.
            let records = (purpose != Purpose::Engine).then_some(&EXTENSIONS[..]);
            self.listing = Some((folder.clone(), list(&folder, records)));
        }
        let mut answer = None;
        let what = match purpose {
            Purpose::Save => "Save the game to",
            Purpose::Open => "Open the game record",
            Purpose::Engine => "The engine program",
        };
        let modal = egui::Modal::new(egui::Id::unique("path-dialog")).show(ctx, |ui| {
            ui.set_width(420.0);
            ui.heading(TITLE);
            let label = ui.label(what);
            let edit = ui
                .add(egui::TextEdit::singleline(&mut self.path).desired_width(400.0))
                .labelled_by(label.id);
            let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            let shown = folder.canonicalize().unwrap_or_else(|_| folder.clone());
            ui.label(RichText::new(format!("in {}", shown.display())).weak());
            egui::ScrollArea::vertical()
                .max_height(220.0)
                .auto_shrink([false, true])
                .show(ui, |ui| {
                    if let Some((_, listing)) = &self.listing {
                        match listing {
                            Ok(entries) => {
                                if ui.selectable_label(false, "../").clicked() {
                                    let up = folder
                                        .canonicalize()
                                        .ok()
                                        .and_then(|p| p.parent().map(Path::to_path_buf))
                                        .unwrap_or_else(|| folder.join(".."));
                                    self.path = format!("{}/", up.display());
                                }
                                for (name, dir) in entries {
                                    let shown = if *dir {
                                        format!("{name}/")
                                    } else {
                                        name.clone()
                                    };
                                    if ui.selectable_label(false, shown).clicked() {
                                        let p = folder.join(name);
                                        self.path = if *dir {
                                            format!("{}/", p.display())
                                        } else {
                                            p.display().to_string()
                                        };
                                    }
                                }
                            }
                            Err(why) => {
                                ui.colored_label(ui.visuals().error_fg_color, why);
                            }
                        }
                    }
                });
            ui.horizontal(|ui| {
                let ok = !self.path.trim().is_empty() && !Path::new(self.path.trim()).is_dir();
                let text = match purpose {
                    Purpose::Save => "Save",
                    Purpose::Open => "Open",
                    Purpose::Engine => "Choose",
                };
                if (ui.add_enabled(ok, egui::Button::new(text)).clicked() || (enter && ok))
                    && answer.is_none()
                {
                    answer = Some(PathAnswer::Chosen(purpose, PathBuf::from(self.path.trim())));
                }
                if ui.button("Cancel").clicked() {
                    answer = Some(PathAnswer::Cancelled);
                }
            });
        });
        if answer.is_none() && modal.should_close() {
            answer = Some(PathAnswer::Cancelled);
        }
        if answer.is_some() {
            self.purpose = None;
        }
        answer
    }
}

/// The entries of a folder as (name, is a folder), folders first, hidden ones left out, and
/// only the files with one of `extensions` when it is given.
fn list(folder: &Path, extensions: Option<&[&str]>) -> Listing {
    let read =
        std::fs::read_dir(folder).map_err(|e| format!("cannot list {}: {e}", folder.display()))?;
    let mut entries: Vec<(String, bool)> = read
        .filter_map(Result::ok)
        .map(|e| {
            let dir = e.path().is_dir();
            (e.file_name().to_string_lossy().into_owned(), dir)
        })
        .filter(|(name, _)| !name.starts_with('.'))
        .filter(|(name, dir)| {
            *dir || extensions.is_none_or(|exts| {
                Path::new(name)
                    .extension()
                    .is_some_and(|e| exts.iter().any(|x| e == *x))
            })
        })
        .collect();
    entries.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_come_first_and_hidden_entries_are_left_out() {
        let dir = std::env::temp_dir().join(format!("gui-path-dialog-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).expect("dir");
        std::fs::write(dir.join("b.games"), "").expect("file");
        std::fs::write(dir.join("a.games"), "").expect("file");
        std::fs::write(dir.join(".hidden"), "").expect("file");
        let got = list(&dir, None).expect("listed");
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(
            got,
            [
                ("sub".to_string(), true),
                ("a.games".to_string(), false),
                ("b.games".to_string(), false)
            ]
        );
        assert!(list(Path::new("/nonexistent/folder"), None).is_err());
    }
}
