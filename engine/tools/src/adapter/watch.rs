//! The watch over one move of a limited program ([`Watch`]): its time, its output, and how many
//! processes it holds.

use std::time::{Duration, Instant};

use super::fault::{Failed, Fault};
use super::limits::ResourceLimits;
use super::sandbox::Jail;

/// How often the process count is looked at while a move runs, where no cgroup caps it.
const GROUP_WATCH: Duration = Duration::from_millis(100);

/// The watch over one move of a program started by [`ResourceLimits::apply`]: its wall-clock time,
/// what it printed since the move began, and how many processes its group holds.
#[derive(Debug)]
pub struct Watch {
    started: Instant,
    timeout: Option<Duration>,
    printed: u64,
    watched: Instant,
}

impl Watch {
    /// Starts watching a move that may take `timeout`, when the program has printed `printed`
    /// bytes so far (standard output and error together).
    pub fn new(timeout: Option<Duration>, printed: u64) -> Watch {
        let now = Instant::now();
        Watch {
            started: now,
            timeout,
            printed,
            watched: now,
        }
    }

    /// The limit the program `pid`, run in `jail`, broke, if any, now that it has printed
    /// `printed` bytes in all: the move's time, its output (`limits.output_bytes`), or the
    /// process cap (`limits.processes`: a fork the cgroup refused, else more processes than
    /// that in its tree, looked at every 100 ms). Called often while the move runs.
    pub fn check(
        &mut self,
        limits: &ResourceLimits,
        jail: &Jail,
        pid: u32,
        printed: u64,
    ) -> Option<Failed> {
        if let Some(t) = self.timeout
            && self.started.elapsed() > t
        {
            return Some((
                Fault::Timeout,
                format!("no answer within {} ms", t.as_millis()),
            ));
        }
        if let Some(max) = limits.output_bytes
            && printed.saturating_sub(self.printed) > max
        {
            return Some((
                Fault::Output,
                format!("printed more than {} MiB during one move", max >> 20),
            ));
        }
        let max = limits.processes?;
        if jail.cap_reached() == Some(true) {
            return Some(cap_reached(max));
        }
        if !jail.capped() && self.watched.elapsed() >= GROUP_WATCH {
            self.watched = Instant::now();
            let n = tree_size(pid);
            if n > max {
                return Some((
                    Fault::Processes,
                    format!("{n} processes, more than the limit of {max}"),
                ));
            }
        }
        None
    }
}

/// The fault of a program whose fork the cgroup refused, at the cap of `max` processes.
pub(crate) fn cap_reached(max: u64) -> Failed {
    (
        Fault::Processes,
        format!("tried to run more than {max} processes at once (the kernel refused the fork)"),
    )
}

/// How many processes `pid` and its descendants are, from `/proc` (field 4 of
/// `/proc/PID/stat`, the parent); `bwrap`'s own processes included.
pub fn tree_size(pid: u32) -> u64 {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let mut parents = Vec::new();
    for entry in dir.flatten() {
        let Some(child) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // After the command name in parentheses: state, ppid.
        let parent = stat
            .rfind(')')
            .and_then(|i| stat[i + 1..].split_whitespace().nth(1)?.parse::<u32>().ok());
        if let Some(p) = parent {
            parents.push((child, p));
        }
    }
    let mut tree = vec![pid];
    let mut grew = true;
    while grew {
        grew = false;
        for &(child, parent) in &parents {
            if tree.contains(&parent) && !tree.contains(&child) {
                tree.push(child);
                grew = true;
            }
        }
    }
    tree.len() as u64
}
