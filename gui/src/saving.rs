//! Saving without losing another game: the name a Save dialog starts from (the game's own file,
//! else a name no file has), the question before a file that is not the game's own is replaced,
//! and writing through a temporary file that is renamed over the old one only once it is whole.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use eframe::egui;

use crate::dialogs::EXTENSION;
use crate::error::FileError;

/// The title of the question asked before a file that is not the game's own is replaced.
pub const REPLACE_TITLE: &str = "Replace the file?";

/// The path a Save dialog starts from: the game's own file (`own`: the one it was read from or
/// saved to) when it has one, else a name that no file has yet (`game.games`, `game-2.games`,
/// ...) in the folder of the last path used (`last`).
pub fn suggested_path(own: Option<&Path>, last: &str) -> PathBuf {
    if let Some(own) = own {
        return own.to_path_buf();
    }
    let last = Path::new(last.trim());
    let folder = match last.parent() {
        Some(p) if p.is_dir() && !p.as_os_str().is_empty() => p.to_path_buf(),
        _ if last.is_dir() => last.to_path_buf(),
        _ => PathBuf::new(),
    };
    (1..)
        .map(|n| match n {
            1 => folder.join(format!("game.{EXTENSION}")),
            n => folder.join(format!("game-{n}.{EXTENSION}")),
        })
        .find(|p| !p.exists())
        .expect("some name is free")
}

/// Whether two paths name the same file (the same file once both are made absolute, or the
/// same text when one of them does not exist).
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// Whether saving to `path` replaces a file other than the game's own (`own`), so that the
/// user must be asked first.
pub fn replaces_another(path: &Path, own: Option<&Path>) -> bool {
    path.exists() && !own.is_some_and(|own| same_file(own, path))
}

/// Writes `text` to `path` through a temporary file in the same folder, renamed over `path`
/// once written and flushed to disk: a failure on the way (a full disk, a crash) leaves the
/// old file whole. The new file keeps the old one's permissions.
pub fn write_replacing(path: &Path, text: &str) -> Result<(), FileError> {
    write_with(path, |f| f.write_all(text.as_bytes())).map_err(|source| FileError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// [`write_replacing`] with the writing done by `write` (a test makes it fail half-way).
fn write_with(
    path: &Path,
    write: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other("the path names no file"))?;
    let mut temp_name = std::ffi::OsString::from(".");
    temp_name.push(name);
    temp_name.push(format!(".{}.part", std::process::id()));
    let temp = path.with_file_name(temp_name);
    let result = (|| {
        let mut file = File::create(&temp)?;
        write(&mut file)?;
        file.sync_all()?;
        if let Ok(meta) = std::fs::metadata(path) {
            std::fs::set_permissions(&temp, meta.permissions())?;
        }
        std::fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

/// Draws the question asked before `path`, a file the game was not read from or saved to, is
/// replaced. Returns `Some(true)` to replace it, `Some(false)` to keep it (Cancel, Escape or a
/// click outside).
pub fn replace_window(ctx: &egui::Context, path: &Path) -> Option<bool> {
    let mut answer = None;
    let modal = egui::Modal::new(egui::Id::unique("replace-file")).show(ctx, |ui| {
        ui.set_max_width(380.0);
        ui.heading(REPLACE_TITLE);
        ui.label(format!(
            "{} already exists and is not this game's file. Replacing it loses what it holds.",
            path.display()
        ));
        ui.horizontal(|ui| {
            if ui.button("Replace").clicked() {
                answer = Some(true);
            }
            if ui.button("Cancel").clicked() {
                answer = Some(false);
            }
        });
    });
    if answer.is_none() && modal.should_close() {
        answer = Some(false);
    }
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("gui-saving-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        dir
    }

    #[test]
    fn a_failure_half_way_leaves_the_old_file_whole_and_no_temporary_file() {
        let dir = temp_dir("fail");
        let path = dir.join("a.games");
        std::fs::write(&path, "the old game\n").expect("old file");
        let got = write_with(&path, |f| {
            f.write_all(b"half of the new")?;
            Err(std::io::Error::other("no space left on device"))
        });
        assert!(got.is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "the old game\n");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "the temporary file is removed: {left:?}");
        write_replacing(&path, "the new game\n").expect("written");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "the new game\n");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn the_suggested_name_is_the_games_own_file_else_a_free_one() {
        let dir = temp_dir("names");
        let a = dir.join("a.games");
        std::fs::write(&a, "").unwrap();
        assert_eq!(suggested_path(Some(&a), "x"), a);
        let last = a.display().to_string();
        assert_eq!(suggested_path(None, &last), dir.join("game.games"));
        std::fs::write(dir.join("game.games"), "").unwrap();
        assert_eq!(suggested_path(None, &last), dir.join("game-2.games"));
        assert!(replaces_another(&a, None));
        assert!(!replaces_another(&a, Some(&a)));
        assert!(!replaces_another(&dir.join("new.games"), Some(&a)));
        std::fs::remove_dir_all(&dir).ok();
    }
}
