//! The run folders and pids cgroups of untrusted programs, and their removal when the process
//! that made them was killed.
//!
//! The board-call adapter's runs ([`crate::adapter::sandbox::Jail`]) each get a folder
//! `board-call-PID-N` in the temporary directory and, where a pids cgroup can be made, a
//! cgroup of the same name whose `pids.max` is the process cap. The client ([`crate::client`])
//! removes what a killed adapter left ([`clean_after`]).

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::group::{Stop, signal_process};

/// The pids cgroup parent under which each run gets a cgroup of its own: found from
/// `/proc/self/mountinfo` and `/proc/self/cgroup` (cgroup v1's `pids` hierarchy, else cgroup
/// v2 where `pids` is enabled for children), and checked once by creating and removing one.
/// The error says why there is none: a message for the user (the adapter's note), which no
/// caller acts on beyond knowing there is no cgroup.
pub fn pids_cgroup() -> &'static Result<PathBuf, CgroupError> {
    static PROBE: OnceLock<Result<PathBuf, CgroupError>> = OnceLock::new();
    PROBE.get_or_init(|| {
        let parent = find_pids_parent()?;
        let probe = parent.join(format!("board-call-probe-{}", std::process::id()));
        let _ = std::fs::remove_dir(&probe);
        std::fs::create_dir(&probe)
            .and_then(|()| std::fs::write(probe.join("pids.max"), "8"))
            .map_err(|e| {
                let _ = std::fs::remove_dir(&probe);
                CgroupError::CannotMake {
                    parent: parent.clone(),
                    why: e,
                }
            })?;
        let _ = std::fs::remove_dir(&probe);
        Ok(parent)
    })
}

/// Why there is no pids cgroup to make runs' cgroups in ([`pids_cgroup`]): a message for the
/// user.
#[derive(Debug, thiserror::Error)]
pub enum CgroupError {
    /// A file of `/proc` that says where the cgroups are could not be read.
    #[error("cannot read {file}: {why}")]
    Unreadable {
        /// The file.
        file: &'static str,
        /// Why.
        why: io::Error,
    },
    /// No pids controller where this process may make cgroups.
    #[error("no pids cgroup controller is mounted where this process may create groups")]
    NoController,
    /// The trial cgroup could not be made.
    #[error("cannot make a pids cgroup in {}: {why}", .parent.display())]
    CannotMake {
        /// Where it was to be made.
        parent: PathBuf,
        /// Why.
        why: io::Error,
    },
}

/// The pids cgroup parent of [`pids_cgroup`], or why there is none (a message for the user).
fn find_pids_parent() -> Result<PathBuf, CgroupError> {
    let read = |file: &'static str| {
        std::fs::read_to_string(file).map_err(|why| CgroupError::Unreadable { file, why })
    };
    let mounts = read("/proc/self/mountinfo")?;
    let groups = read("/proc/self/cgroup")?;
    // `ID:CONTROLLERS:PATH` lines: the path of this process in each hierarchy.
    let own = |v2: bool| {
        groups.lines().find_map(|l| {
            let mut f = l.splitn(3, ':');
            let (id, ctl, path) = (f.next()?, f.next()?, f.next()?);
            let wanted = if v2 {
                id == "0" && ctl.is_empty()
            } else {
                ctl.split(',').any(|c| c == "pids")
            };
            wanted.then(|| path.trim_start_matches('/').to_string())
        })
    };
    let mut v2_dirs = Vec::new();
    for line in mounts.lines() {
        let Some((left, right)) = line.split_once(" - ") else {
            continue;
        };
        let point = left.split(' ').nth(4).unwrap_or("");
        let mut r = right.split(' ');
        let (kind, _source, options) = (r.next(), r.next(), r.next().unwrap_or(""));
        match kind {
            Some("cgroup") if options.split(',').any(|o| o == "pids") => {
                if let Some(path) = own(false) {
                    return Ok(Path::new(point).join(path));
                }
            }
            Some("cgroup2") => {
                if let Some(path) = own(true) {
                    v2_dirs.push(Path::new(point).join(path));
                }
            }
            _ => {}
        }
    }
    for dir in v2_dirs {
        let enabled = std::fs::read_to_string(dir.join("cgroup.subtree_control"))
            .is_ok_and(|t| t.split_whitespace().any(|c| c == "pids"));
        if enabled {
            return Ok(dir);
        }
    }
    Err(CgroupError::NoController)
}

/// A cgroup of one run, with its process cap; its processes are killed and it is removed when
/// dropped.
#[derive(Debug)]
pub(crate) struct Cgroup {
    dir: PathBuf,
    /// Its `cgroup.procs`, open for writing: a process that writes `0` to it joins the group.
    pub(crate) procs: File,
}

impl Cgroup {
    /// Makes the cgroup `name` under `parent`, capped at `max` processes.
    pub(crate) fn new(parent: &Path, name: &str, max: u64) -> io::Result<Cgroup> {
        let dir = parent.join(name);
        std::fs::create_dir(&dir)?;
        let made = std::fs::write(dir.join("pids.max"), max.to_string()).and_then(|()| {
            std::fs::OpenOptions::new()
                .write(true)
                .open(dir.join("cgroup.procs"))
        });
        match made {
            Ok(procs) => Ok(Cgroup { dir, procs }),
            Err(e) => {
                let _ = std::fs::remove_dir(&dir);
                Err(e)
            }
        }
    }

    /// How many times a fork was refused because the cap was reached (`max` in `pids.events`).
    pub(crate) fn refused(&self) -> u64 {
        std::fs::read_to_string(self.dir.join("pids.events"))
            .ok()
            .and_then(|t| {
                t.lines()
                    .find_map(|l| l.strip_prefix("max ").and_then(|n| n.trim().parse().ok()))
            })
            .unwrap_or(0)
    }
}

impl Drop for Cgroup {
    fn drop(&mut self) {
        remove_cgroup(&self.dir);
    }
}

/// Kills every process of the cgroup `dir` and of the cgroups below it (an engine's holds its
/// adapter's runs), deepest first, until each is empty (two seconds at most), then removes it.
pub(crate) fn remove_cgroup(dir: &Path) {
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                remove_cgroup(&e.path());
            }
        }
    }
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        let pids: Vec<u32> = std::fs::read_to_string(dir.join("cgroup.procs"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect();
        for &pid in &pids {
            signal_process(pid, Stop::Kill);
        }
        if std::fs::remove_dir(dir).is_ok() || !dir.exists() || Instant::now() > deadline {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The prefix of every run folder and cgroup of the process `pid`.
pub(crate) fn run_prefix(pid: u32) -> String {
    format!("board-call-{pid}-")
}

/// Removes what the adapter process `pid` left when it was killed: its run folders in the
/// temporary directory and its cgroups (their processes killed first). For the process that
/// started the adapter, once the adapter is gone.
pub fn clean_after(pid: u32) {
    let prefix = run_prefix(pid);
    let mut parents = vec![std::env::temp_dir()];
    if let Ok(p) = pids_cgroup() {
        parents.push(p.clone());
    }
    for (i, parent) in parents.iter().enumerate() {
        let Ok(entries) = std::fs::read_dir(parent) else {
            continue;
        };
        for e in entries.flatten() {
            if !e.file_name().to_string_lossy().starts_with(&prefix) {
                continue;
            }
            if i == 0 {
                let _ = std::fs::remove_dir_all(e.path());
            } else {
                remove_cgroup(&e.path());
            }
        }
    }
}

/// Removes the run folders (in the temporary directory) and cgroups of adapter and arena
/// processes that are gone: killed with SIGKILL (by the OOM killer, or a user), they could not
/// remove their own. A name `board-call-PID-N` or `arena-engine-PID-N` whose process `PID`
/// still runs is left alone, as is anything this user may not remove. Called once by each
/// adapter process at its first run, and by each program that runs engines at its first.
pub fn clean_stale() {
    let mut parents = vec![(std::env::temp_dir(), false)];
    if let Ok(p) = pids_cgroup() {
        parents.push((p.clone(), true));
    }
    for (parent, is_cgroup) in parents {
        let Ok(entries) = std::fs::read_dir(&parent) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name();
            let Some(pid) = stale_owner(&name.to_string_lossy()) else {
                continue;
            };
            if !gone(pid) {
                continue;
            }
            if is_cgroup {
                remove_cgroup(&e.path());
            } else if e.file_type().is_ok_and(|t| t.is_dir()) {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    }
}

/// The process that made the run folder or cgroup `name` (`board-call-PID-N`, the probe's
/// `board-call-probe-PID`, an engine's `arena-engine-PID-N`), if it is one.
fn stale_owner(name: &str) -> Option<u32> {
    let rest = name
        .strip_prefix("board-call-")
        .or_else(|| name.strip_prefix("arena-engine-"))?;
    let pid = match rest.strip_prefix("probe-") {
        Some(pid) => pid,
        None => {
            let (pid, n) = rest.split_once('-')?;
            n.parse::<u64>().ok()?;
            pid
        }
    };
    pid.parse().ok()
}

/// Whether the process `pid` has ended (no longer there, or a zombie: a killed adapter whose
/// parent died too may stay a zombie where nothing reaps orphans).
pub(crate) fn gone(pid: u32) -> bool {
    // `PID (NAME) STATE ...`: the state follows the last parenthesis.
    std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |s| {
        s.rsplit(')')
            .next()
            .is_some_and(|r| r.trim_start().starts_with('Z'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reasons_for_no_cgroup_read_as_before() {
        let gone = || io::Error::from(io::ErrorKind::NotFound);
        assert_eq!(
            CgroupError::Unreadable {
                file: "/proc/self/cgroup",
                why: gone(),
            }
            .to_string(),
            format!("cannot read /proc/self/cgroup: {}", gone())
        );
        assert_eq!(
            CgroupError::CannotMake {
                parent: PathBuf::from("/sys/fs/cgroup/pids"),
                why: gone(),
            }
            .to_string(),
            format!(
                "cannot make a pids cgroup in /sys/fs/cgroup/pids: {}",
                gone()
            )
        );
        assert_eq!(
            CgroupError::NoController.to_string(),
            "no pids cgroup controller is mounted where this process may create groups"
        );
    }

    #[test]
    fn stale_names_are_read_and_others_left_alone() {
        assert_eq!(stale_owner("board-call-123-4"), Some(123));
        assert_eq!(stale_owner("board-call-probe-77"), Some(77));
        assert_eq!(stale_owner("arena-engine-55-0"), Some(55));
        assert_eq!(stale_owner("board-call-123"), None);
        assert_eq!(stale_owner("board-call-x-1"), None);
        assert_eq!(stale_owner("other-123-4"), None);
    }

    #[test]
    fn a_dead_process_run_folder_is_removed_a_live_one_kept() {
        // A process that has ended: its id, now free (reused only after the whole range).
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let tmp = std::env::temp_dir();
        let stale = tmp.join(format!("{}{}", run_prefix(dead), 0));
        let live = tmp.join(format!("{}{}", run_prefix(std::process::id()), 999_999));
        for d in [&stale, &live] {
            std::fs::create_dir_all(d.join("driver")).unwrap();
        }
        clean_stale();
        assert!(!stale.exists(), "{} was left", stale.display());
        assert!(live.exists());
        std::fs::remove_dir_all(&live).unwrap();
    }
}
