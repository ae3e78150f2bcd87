//! The Haskell compile cache: a submission and the generated driver compiled once by `ghc` (in
//! the sandbox, limited), kept by a key of the source, the function, the game and the driver.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::thread;
use std::time::{Duration, Instant};

use super::fault::{Failed, Fault};
use super::limits::ResourceLimits;
use super::sandbox::{self, Jail};
use super::spec::FunctionSpec;
use crate::games::GameKind;
use crate::process::capture::{self, Capture};

const HASKELL_DRIVER: &str = include_str!("drivers/Main.hs");

/// How long compiling a Haskell submission may take.
const COMPILE_TIMEOUT: Duration = Duration::from_secs(600);

/// The cache of compiled Haskell drivers: `$XDG_CACHE_HOME/engine-board-call` or
/// `~/.cache/engine-board-call`, else the temporary directory.
fn cache_dir() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("engine-board-call")
}

fn set_mode(path: &Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

/// The submission as module `Submission`: its `module ... where` header replaced, or one added
/// after the leading comments and pragmas.
pub fn haskell_module(text: &str) -> String {
    let mut offset = 0;
    let mut in_block = false;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if in_block {
            in_block = !t.contains("-}");
        } else if t.starts_with("module ") || t == "module" {
            let rest = &text[offset..];
            let end = rest
                .match_indices("where")
                .find(|(i, _)| {
                    let after = rest[i + 5..].chars().next();
                    let before = rest[..*i].chars().last();
                    !after.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '\'')
                        && before.is_some_and(|c| !c.is_alphanumeric() && c != '_')
                })
                .map(|(i, _)| i + 5);
            if let Some(end) = end {
                return format!("{}module Submission where{}", &text[..offset], &rest[end..]);
            }
        } else if t.starts_with("{-") {
            in_block = !t.contains("-}");
        } else if !(t.is_empty() || t.starts_with("--")) {
            return format!(
                "{}module Submission where\n{}",
                &text[..offset],
                &text[offset..]
            );
        }
        offset += line.len();
    }
    format!("{text}\nmodule Submission where\n")
}

/// The Haskell call of the function for `game`.
fn haskell_call(game: GameKind, function: &str) -> String {
    match game {
        GameKind::Hexapawn => {
            format!("Submission.{function} (read board) (read size) (head side) (read depth)")
        }
        _ => format!("Submission.{function} (read board) (head side) (read depth)"),
    }
}

/// The Haskell sources of a student's folder (and its subfolders, three levels deep), sorted by
/// path, with their text: what a build that imports them depends on.
fn helper_sources(folder: &Path) -> Vec<(PathBuf, String)> {
    fn walk(dir: &Path, depth: usize, out: &mut Vec<(PathBuf, String)>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for path in entries.flatten().map(|e| e.path()) {
            if path.is_dir() && depth > 0 {
                walk(&path, depth - 1, out);
            } else if path.extension().is_some_and(|e| e == "hs")
                && let Ok(text) = std::fs::read_to_string(&path)
            {
                out.push((path, text));
            }
        }
    }
    let mut out = Vec::new();
    walk(folder, 3, &mut out);
    out.sort();
    out
}

/// Compiles the Haskell driver of `spec` for `game` once: the executable in the cache, keyed by
/// the source, the function, the game and the driver; compiled in a fresh directory and
/// renamed into place, so that concurrent adapters never see half a build.
pub(super) fn compile_haskell(
    spec: &FunctionSpec,
    game: GameKind,
    limits: &ResourceLimits,
) -> Result<PathBuf, Failed> {
    let source = std::fs::read_to_string(&spec.file).map_err(|e| {
        (
            Fault::Load,
            format!("cannot read {}: {e}", spec.file.display()),
        )
    })?;
    let main = HASKELL_DRIVER.replace("CALL", &haskell_call(game, &spec.function));
    let mut h = DefaultHasher::new();
    (&source, &spec.function, game.name(), &main).hash(&mut h);
    // A student's folder: its other Haskell modules are part of the build.
    if let Some(folder) = &spec.folder {
        (folder, helper_sources(folder)).hash(&mut h);
    }
    let cache = cache_dir();
    let dir = cache.join(format!("{:016x}", h.finish()));
    let exe = dir.join("driver");
    if exe.exists() {
        return Ok(exe);
    }
    // Compiling runs the submission's Template Haskell, if any: in the sandbox and limited
    // too, but with time and memory for the compiler.
    let mut compile_limits = limits.clone();
    compile_limits.cpu_seconds = Some(COMPILE_TIMEOUT.as_secs());
    compile_limits.memory_mib = limits.memory_mib.map(|m| m.max(4096));
    compile_limits.file_mib = limits.file_mib.map(|m| m.max(512));
    let build =
        Jail::new(&compile_limits).map_err(|e| (Fault::Load, format!("cannot build: {e}")))?;
    let b = build.scratch();
    let written = std::fs::write(b.join("Submission.hs"), haskell_module(&source))
        .and_then(|()| std::fs::write(b.join("Main.hs"), &main));
    written.map_err(|e| (Fault::Load, format!("cannot write the driver: {e}")))?;
    let mut args: Vec<std::ffi::OsString> = [
        "-O1",
        "-rtsopts",
        "-v0",
        "-outputdir",
        "out",
        "-o",
        "driver",
        "Main.hs",
    ]
    .map(std::ffi::OsString::from)
    .to_vec();
    // Helper modules are found in the student's folder, bound read-only.
    let folders: Vec<PathBuf> = spec.folder.iter().cloned().collect();
    if let Some(folder) = &spec.folder {
        let mut include = std::ffi::OsString::from("-i");
        include.push(folder);
        args.push(include);
    }
    let mut cmd = build
        .command(&sandbox::tool("ghc"), &args, &folders)
        .map_err(|e| (Fault::Load, e.to_string()))?;
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    compile_limits.apply(&mut cmd, build.sandboxed());
    let mut child = cmd
        .spawn()
        .map_err(|e| (Fault::Load, format!("cannot start ghc: {e}")))?;
    let out = Capture::start(
        child.stdout.take().expect("piped"),
        capture::STDERR_KEPT,
        false,
    );
    let err = Capture::start(
        child.stderr.take().expect("piped"),
        capture::STDERR_KEPT,
        false,
    );
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Ok(s),
            Ok(None) if started.elapsed() < COMPILE_TIMEOUT => {
                thread::sleep(Duration::from_millis(20))
            }
            Ok(None) => break Err("ghc took too long".to_string()),
            Err(e) => break Err(e.to_string()),
        }
    };
    capture::kill_group(child.id());
    let _ = child.kill();
    let _ = child.wait();
    let text = format!("{}{}", out.finish(), err.finish());
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => {
            let tail = capture::tail(&text).unwrap_or_default();
            return Err((Fault::Load, format!("ghc failed ({s}): '{tail}'")));
        }
        Err(why) => return Err((Fault::Load, why)),
    }
    std::fs::create_dir_all(&cache).map_err(|e| {
        (
            Fault::Load,
            format!("cannot create {}: {e}", cache.display()),
        )
    })?;
    let tmp = cache.join(format!("tmp-{}-{:x}", std::process::id(), h.finish()));
    let _ = std::fs::remove_dir_all(&tmp);
    // Read-only for everyone: a submission never sees the cache (the sandbox binds only its
    // own driver, read-only), and without the sandbox an accidental write is refused too.
    std::fs::create_dir_all(&tmp)
        .and_then(|()| std::fs::copy(b.join("driver"), tmp.join("driver")).map(|_| ()))
        .and_then(|()| set_mode(&tmp.join("driver"), 0o555))
        .and_then(|()| set_mode(&tmp, 0o555))
        .map_err(|e| (Fault::Load, format!("cannot cache the driver: {e}")))?;
    // Another adapter may have finished first: its build is as good.
    if std::fs::rename(&tmp, &dir).is_err() {
        let _ = set_mode(&tmp, 0o755);
        let _ = std::fs::remove_dir_all(&tmp);
    }
    if exe.exists() {
        Ok(exe)
    } else {
        Err((
            Fault::Load,
            format!("the compiled driver is missing from {}", dir.display()),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn haskell_headers_are_replaced_or_added() {
        assert_eq!(
            haskell_module("-- c\nmodule Main (main) where\nimport X\n"),
            "-- c\nmodule Submission where\nimport X\n"
        );
        assert_eq!(
            haskell_module("module Oska\n  ( oska_x1y2\n  ) where\nf = 1\n"),
            "module Submission where\nf = 1\n"
        );
        assert_eq!(
            haskell_module("{-# LANGUAGE X #-}\n{- a\n b -}\nimport Y\n"),
            "{-# LANGUAGE X #-}\n{- a\n b -}\nmodule Submission where\nimport Y\n"
        );
    }
}
