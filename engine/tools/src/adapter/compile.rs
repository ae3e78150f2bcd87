//! The Haskell compile cache: a submission and the generated driver compiled once by `ghc` (in
//! the sandbox, limited), kept by a key of the source, the function, the game and the driver.

use std::collections::hash_map::DefaultHasher;
use std::ffi::OsString;
use std::hash::{Hash, Hasher};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::thread;
use std::time::{Duration, Instant};

use super::fault::{Failed, Fault};
use super::limits::ResourceLimits;
use super::sandbox::{self, Jail};
use super::spec::FunctionSpec;
use crate::process::capture::{self, Capture};
use crate::process::group::ProcessGroup;
use boardgames_core::games::GameKind;

const HASKELL_DRIVER: &str = include_str!("drivers/Main.hs");

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
/// renamed into place, so that concurrent adapters never see half a build. A build that failed
/// (`ghc` refused it, or it took longer than `limits.compile_timeout`) is cached too: the same
/// submission is not compiled again, and every later game gets the same `[load]` fault at once.
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
    let timeout = limits.compile_timeout;
    timeout.map(|t| t.as_millis()).hash(&mut h);
    let cache = cache_dir();
    let key = format!("{:016x}", h.finish());
    let dir = cache.join(&key);
    let exe = dir.join("driver");
    let failed = cache.join(format!("{key}.failed"));
    if exe.exists() {
        return Ok(exe);
    }
    if let Ok(why) = std::fs::read_to_string(&failed) {
        return Err((Fault::Load, format!("{why} (the same build failed before)")));
    }
    std::fs::create_dir_all(&cache).map_err(|e| {
        (
            Fault::Load,
            format!("cannot create {}: {e}", cache.display()),
        )
    })?;
    let tmp = cache.join(format!("tmp-{}-{key}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp)
        .map_err(|e| (Fault::Load, format!("cannot create {}: {e}", tmp.display())))?;
    let built = build(spec, &source, &main, limits, &tmp.join("driver"));
    let why = match built {
        Ok(()) => None,
        Err(Build::Refused(why)) => Some(why),
        Err(Build::NotRun(why)) => {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err((Fault::Load, why));
        }
    };
    if let Some(why) = why {
        let _ = std::fs::remove_dir_all(&tmp);
        // Written whole and renamed: a concurrent adapter reads all of it or nothing.
        let part = cache.join(format!("tmp-{}-{key}.failed", std::process::id()));
        if std::fs::write(&part, &why).is_ok() && std::fs::rename(&part, &failed).is_err() {
            let _ = std::fs::remove_file(&part);
        }
        return Err((Fault::Load, why));
    }
    // Read-only for everyone: a submission never sees the cache (the sandbox binds only its
    // own driver, read-only), and without the sandbox an accidental write is refused too.
    set_mode(&tmp.join("driver"), 0o555)
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

/// Why a build gave no driver.
enum Build {
    /// The submission's fault (`ghc` refused it, or took too long): cached.
    Refused(String),
    /// The build could not be run here (no `ghc`, no sandbox, a host error): not cached.
    NotRun(String),
}

/// Runs `ghc` on the submission and the driver `main` in a jail of their own (in the sandbox
/// when `limits.sandbox`: Template Haskell runs there too), and writes the executable to `out`
/// on the host. The sources are the jail's driver files (read-only); `ghc` writes into the
/// scratch folder, and its last step copies the executable to a descriptor open on `out`,
/// which `ghc` itself (and so the submission's compile-time code) does not get.
fn build(
    spec: &FunctionSpec,
    source: &str,
    main: &str,
    limits: &ResourceLimits,
    out: &Path,
) -> Result<(), Build> {
    // Compiling runs the submission's Template Haskell, if any: in the sandbox and limited
    // too, but with memory, files and scratch space for the compiler.
    let mut compile_limits = limits.clone();
    compile_limits.cpu_seconds = limits.compile_timeout.map(|t| t.as_secs().max(1));
    compile_limits.memory_mib = limits.memory_mib.map(|m| m.max(4096));
    compile_limits.file_mib = limits.file_mib.map(|m| m.max(512));
    compile_limits.scratch_mib = limits.scratch_mib.map(|m| m.max(1024));
    let not_run = |e: String| Build::NotRun(e);
    let jail = Jail::new(&compile_limits).map_err(|e| not_run(format!("cannot build: {e}")))?;
    let (submission, _) = jail.driver_file("Submission.hs");
    let (main_host, main_seen) = jail.driver_file("Main.hs");
    std::fs::write(&submission, haskell_module(source))
        .and_then(|()| std::fs::write(&main_host, main))
        .map_err(|e| not_run(format!("cannot write the driver: {e}")))?;
    let output = std::fs::File::create(out)
        .map_err(|e| not_run(format!("cannot create {}: {e}", out.display())))?;
    let ghc = sandbox::tool("ghc");
    let mut args: Vec<OsString> = ["-c", "\"$@\" 3>&- && exec cat driver >&3", "sh"]
        .map(OsString::from)
        .to_vec();
    args.push(ghc.into());
    args.extend(
        [
            "-O1",
            "-rtsopts",
            "-v0",
            "-outputdir",
            "out",
            "-o",
            "driver",
        ]
        .map(OsString::from),
    );
    // The generated modules, and helper modules in the student's folder (bound read-only).
    let mut include = OsString::from("-i");
    include.push(main_seen.parent().unwrap_or(Path::new(".")));
    args.push(include);
    let folders: Vec<PathBuf> = spec.folder.iter().cloned().collect();
    if let Some(folder) = &spec.folder {
        let mut include = OsString::from("-i");
        include.push(folder);
        args.push(include);
    }
    args.push(main_seen.into());
    let mut cmd = jail
        .command(Path::new("/bin/sh"), &args, &folders)
        .map_err(|e| not_run(e.to_string()))?;
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    compile_limits.apply(&mut cmd, jail.sandboxed());
    sandbox::inherit_as_fd3(&mut cmd, output.as_raw_fd());
    let mut child = cmd
        .spawn()
        .map_err(|e| not_run(format!("cannot start ghc: {e}")))?;
    drop(output);
    let out_text = Capture::start(
        child.stdout.take().expect("piped"),
        capture::STDERR_KEPT,
        false,
    );
    let err_text = Capture::start(
        child.stderr.take().expect("piped"),
        capture::STDERR_KEPT,
        false,
    );
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Ok(s),
            Ok(None) if timeout_left(limits.compile_timeout, started) => {
                thread::sleep(Duration::from_millis(20))
            }
            Ok(None) => {
                let secs = limits.compile_timeout.map_or(0, |t| t.as_secs());
                break Err(Build::Refused(format!(
                    "the compile took longer than {secs} s (--compile-timeout)"
                )));
            }
            Err(e) => break Err(not_run(e.to_string())),
        }
    };
    ProcessGroup::led_by(&child).kill();
    let _ = child.kill();
    let _ = child.wait();
    let text = format!("{}{}", out_text.finish(), err_text.finish());
    match status? {
        s if s.success() => Ok(()),
        s => {
            let tail = capture::tail(&text).unwrap_or_default();
            Err(Build::Refused(format!("ghc failed ({s}): '{tail}'")))
        }
    }
}

/// Whether a run started at `started` is still within `timeout` (`None`: no limit).
fn timeout_left(timeout: Option<Duration>, started: Instant) -> bool {
    timeout.is_none_or(|t| started.elapsed() < t)
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
