//! Students' files, looked at and read without trusting them: a class folder comes from a zip or
//! tar export and may hold symbolic links (to `/dev/stdin`, to the teacher's files), FIFOs,
//! sockets or devices. Nothing here blocks or leaves the class folder:
//!
//! - [`classify`] looks at an entry without opening it (`lstat`), and follows a symbolic link
//!   only when it resolves inside the class folder;
//! - [`read_text`] opens a file with `O_NOFOLLOW | O_NONBLOCK` and reads it only when the opened
//!   descriptor is a regular file, so that a FIFO swapped in after [`classify`] cannot block.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// The largest student file read (a source file is far smaller).
pub(crate) const MAX_READ: u64 = 16 << 20;

/// What an entry of a class folder is, as discovery may use it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// A regular file; the path to read it by (the link's target inside the class folder for a
    /// symbolic link).
    File(PathBuf),
    /// A folder; the path to walk it by (as for a file).
    Folder(PathBuf),
    /// Left out: why (for the class's notes).
    Skipped(String),
}

/// What a file of type `t` (not a link) is, in words, or `None` for a regular file or a folder.
fn odd_kind(t: std::fs::FileType) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    if t.is_file() || t.is_dir() {
        None
    } else if t.is_fifo() {
        Some("a FIFO (named pipe)")
    } else if t.is_socket() {
        Some("a socket")
    } else if t.is_block_device() || t.is_char_device() {
        Some("a device")
    } else {
        Some("not a regular file or a folder")
    }
}

/// Looks at `path` without opening it. `root` is the class folder, canonical
/// ([`std::fs::canonicalize`]): a symbolic link is followed only when its target resolves inside
/// it; a link out of it, a dangling link, a FIFO, a socket or a device is [`Found::Skipped`],
/// with the reason.
pub(crate) fn classify(path: &Path, root: &Path) -> Found {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) => return Found::Skipped(format!("cannot look at it: {e}")),
    };
    let (real, meta) = if meta.file_type().is_symlink() {
        let Ok(target) = std::fs::canonicalize(path) else {
            // `/dev/stdin` leads to `/proc/self/fd/0`, which does not resolve to a path.
            let out =
                std::fs::read_link(path).is_ok_and(|t| t.is_absolute() && !t.starts_with(root));
            return Found::Skipped(if out {
                "a symbolic link that leads outside the class folder".into()
            } else {
                "a symbolic link that leads nowhere".into()
            });
        };
        if !target.starts_with(root) {
            return Found::Skipped("a symbolic link that leads outside the class folder".into());
        }
        // Canonical: no link left in it, so this looks at the target itself.
        match std::fs::symlink_metadata(&target) {
            Ok(m) => (target, m),
            Err(e) => return Found::Skipped(format!("cannot look at its target: {e}")),
        }
    } else {
        (path.to_path_buf(), meta)
    };
    if let Some(kind) = odd_kind(meta.file_type()) {
        return Found::Skipped(kind.into());
    }
    if meta.is_dir() {
        Found::Folder(real)
    } else {
        Found::File(real)
    }
}

/// Reads the regular file `path` as text (invalid UTF-8 replaced), at most [`MAX_READ`] bytes:
/// opened with `O_NOFOLLOW | O_NONBLOCK`, so that neither a symbolic link nor a FIFO is
/// followed or waited on, and refused unless the opened descriptor is a regular file.
pub(crate) fn read_text(path: &Path) -> io::Result<String> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| {
            if e.raw_os_error() == Some(libc::ELOOP) {
                io::Error::other("a symbolic link (not followed)")
            } else {
                e
            }
        })?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::other(
            odd_kind(meta.file_type()).unwrap_or("a folder"),
        ));
    }
    if meta.len() > MAX_READ {
        return Err(io::Error::other(format!(
            "larger than {} MiB",
            MAX_READ >> 20
        )));
    }
    let mut bytes = Vec::new();
    (&mut file).take(MAX_READ).read_to_end(&mut bytes)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_entries_are_skipped_and_never_opened() {
        let dir = std::env::temp_dir().join(format!("class-files-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("class/sub")).unwrap();
        let root = dir.join("class").canonicalize().unwrap();
        std::fs::write(dir.join("outside.py"), "secret").unwrap();
        std::fs::write(root.join("sub/a.py"), "def f(): pass").unwrap();
        let fifo = std::ffi::CString::new(root.join("fifo.py").to_str().unwrap()).unwrap();
        // SAFETY: mkfifo(3) reads the NUL-terminated path only.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
        let link = |target: &Path, name: &str| {
            std::os::unix::fs::symlink(target, root.join(name)).unwrap();
        };
        link(Path::new("/dev/stdin"), "stdin.py");
        link(&dir.join("outside.py"), "out.py");
        link(Path::new("sub/a.py"), "in.py");
        link(Path::new("sub"), "insub");
        link(Path::new("nowhere"), "dangling.py");
        let skipped = |name: &str| match classify(&root.join(name), &root) {
            Found::Skipped(why) => why,
            other => panic!("{name}: {other:?}"),
        };
        assert_eq!(skipped("fifo.py"), "a FIFO (named pipe)");
        assert!(skipped("stdin.py").contains("outside the class folder"));
        assert!(skipped("out.py").contains("outside the class folder"));
        assert!(skipped("dangling.py").contains("leads nowhere"));
        assert_eq!(
            classify(&root.join("in.py"), &root),
            Found::File(root.join("sub/a.py"))
        );
        assert_eq!(
            classify(&root.join("insub"), &root),
            Found::Folder(root.join("sub"))
        );
        // Reading: a FIFO is refused at once, a link is not followed.
        assert!(read_text(&root.join("fifo.py")).is_err());
        let e = read_text(&root.join("in.py")).unwrap_err();
        assert!(e.to_string().contains("symbolic link"), "{e}");
        assert_eq!(read_text(&root.join("sub/a.py")).unwrap(), "def f(): pass");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
