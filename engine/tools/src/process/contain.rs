//! Every descendant of an engine ends with it (Linux): the client puts each engine in a pids
//! cgroup of its own where one can be made ([`EngineCgroup`]), whose processes are all killed
//! when the engine ends, and a program that runs engines (`arena`) becomes a child subreaper
//! ([`become_subreaper`]), so that what an engine leaves behind outside its cgroup (a `setsid`
//! grandchild where no cgroup could be made) is reparented to it and killed
//! ([`kill_orphans`]) when an engine ends.

use std::io;
use std::os::fd::AsRawFd;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::cgroup::{Cgroup, clean_stale, pids_cgroup, remove_cgroup};
use super::group::{Stop, signal_process};

/// The kernel's largest `pids.max` (`PID_MAX_LIMIT`): the engine's cgroup is there to find its
/// processes, not to cap them.
const NO_CAP: u64 = 4 << 20;

/// The cgroups of the engines that run now, for [`kill_all_cgroups`].
static LIVE_CGROUPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn live_cgroups() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    LIVE_CGROUPS.lock().unwrap_or_else(|e| e.into_inner())
}

/// The pids cgroup of one engine; every process in it (and in the cgroups below it, such as a
/// board-call adapter's) is killed and the cgroups removed when it is dropped.
#[derive(Debug)]
pub(crate) struct EngineCgroup {
    /// Kept open for [`EngineCgroup::join_fd`]; dropped after the tree is removed.
    cgroup: Cgroup,
    dir: PathBuf,
}

impl EngineCgroup {
    /// A new cgroup `arena-engine-PID-N` under this process's pids cgroup, or `None` where none
    /// can be made: no pids controller writable here, or cgroup v2, where a process in a cgroup
    /// cannot give its own children a pids cgroup (which the board-call adapter's sandbox
    /// needs), so the subreaper alone contains the engine there.
    pub(crate) fn new() -> Option<EngineCgroup> {
        static COUNT: AtomicU64 = AtomicU64::new(0);
        if no_cgroup_for_tests() {
            return None;
        }
        let parent = pids_cgroup().as_ref().ok()?;
        if parent.join("cgroup.subtree_control").exists() {
            return None;
        }
        // What a killed arena (and its adapters) left: their cgroups, their run folders.
        static STALE: std::sync::Once = std::sync::Once::new();
        STALE.call_once(clean_stale);
        let name = format!(
            "arena-engine-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        );
        let cgroup = Cgroup::new(parent, &name, NO_CAP).ok()?;
        let dir = parent.join(name);
        live_cgroups().push(dir.clone());
        Some(EngineCgroup { cgroup, dir })
    }

    /// The descriptor of its `cgroup.procs`: a child that writes `0` to it (between fork and
    /// exec: [`join`]) joins the cgroup.
    pub(crate) fn join_fd(&self) -> i32 {
        self.cgroup.procs.as_raw_fd()
    }
}

impl Drop for EngineCgroup {
    fn drop(&mut self) {
        remove_cgroup(&self.dir);
        live_cgroups().retain(|d| d != &self.dir);
    }
}

/// Joins the cgroup whose `cgroup.procs` is open as `fd`. Only for a `pre_exec` closure: one
/// system call, no allocation. A failure is ignored (the subreaper still catches orphans).
pub(crate) fn join(fd: i32) {
    // SAFETY: write(2) reads one byte of a static buffer.
    unsafe {
        libc::write(fd, b"0".as_ptr().cast(), 1);
    }
}

/// In debug builds only, for the tests of the subreaper: `ARENA_TEST_NO_ENGINE_CGROUP` set
/// means no engine gets a cgroup.
fn no_cgroup_for_tests() -> bool {
    cfg!(debug_assertions) && std::env::var_os("ARENA_TEST_NO_ENGINE_CGROUP").is_some()
}

/// Kills the processes of every engine cgroup of this process and removes the cgroups: for a
/// program that is interrupted and cannot end its engines one by one.
pub(crate) fn kill_all_cgroups() {
    let dirs: Vec<PathBuf> = live_cgroups().clone();
    for d in dirs {
        remove_cgroup(&d);
    }
}

/// Makes this process a child subreaper (`PR_SET_CHILD_SUBREAPER`): a process that an engine
/// leaves behind (its parent gone) becomes this process's child instead of init's, so that
/// [`kill_orphans`] can end it. For programs that run engines (`arena`).
pub fn become_subreaper() -> io::Result<()> {
    // SAFETY: prctl(2) only changes this process's attributes.
    if unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Whether this process is a child subreaper.
fn is_subreaper() -> bool {
    let mut on: libc::c_int = 0;
    // SAFETY: prctl(2) writes one int to the pointer given.
    let r = unsafe { libc::prctl(libc::PR_GET_CHILD_SUBREAPER, &mut on as *mut libc::c_int) };
    r == 0 && on != 0
}

/// The children of this process (by `/proc/PID/stat`'s parent field) that are not in `ours`.
fn strangers(ours: &[u32]) -> Vec<i32> {
    let me = std::process::id();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| !ours.contains(pid))
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
                // `PID (COMM) STATE PPID ...`: COMM may hold blanks and parentheses.
                s.rsplit_once(')')
                    .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok())
                    == Some(me)
            })
        })
        .filter_map(|pid| i32::try_from(pid).ok())
        .collect()
}

/// Kills (SIGKILL) and reaps every child of this subreaper that is not one of `ours` (the
/// engines that run now, whose ids the caller holds still while this runs): descendants that
/// engines left behind and that were reparented here. Their own children are reparented here in
/// turn as they die, and killed too; it looks again until none has come for 20 ms (one second
/// at most). Does nothing unless this process is a subreaper. Returns how many it killed.
pub fn kill_orphans(ours: &[u32]) -> usize {
    if !is_subreaper() {
        return 0;
    }
    let deadline = Instant::now() + Duration::from_secs(1);
    let mut killed = 0;
    let mut quiet = 0;
    while Instant::now() < deadline && quiet < 4 {
        let found = strangers(ours);
        if found.is_empty() {
            quiet += 1;
        } else {
            quiet = 0;
        }
        for &pid in &found {
            signal_process(pid.unsigned_abs(), Stop::Kill);
            // SAFETY: waitpid(2) on a child of this process: no memory effects beyond the status
            // written to a local.
            unsafe {
                let mut status = 0;
                let until = Instant::now() + Duration::from_millis(200);
                while libc::waitpid(pid, &mut status, libc::WNOHANG) == 0 && Instant::now() < until
                {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            killed += 1;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    killed
}
