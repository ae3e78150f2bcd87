//! Ending child processes (through rustix): a child started as the leader of a process group of
//! its own ([`ProcessGroup`], signalled as a whole), a single process ([`signal_process`]), and
//! what a program that runs children registers to be done once one of them has exited
//! ([`after_exit`]).

use std::sync::Mutex;

use rustix::process::{Pid, Signal, kill_process, kill_process_group};

/// How a process is asked to end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// SIGTERM: the process may clean up first.
    Term,
    /// SIGKILL: the process ends at once.
    Kill,
}

impl Stop {
    fn signal(self) -> Signal {
        match self {
            Stop::Term => Signal::TERM,
            Stop::Kill => Signal::KILL,
        }
    }
}

/// The process group of a child started with a group of its own (`process_group(0)`): its id
/// is its leader's process id, and it lives on while any process of it runs, the leader's exit
/// included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProcessGroup {
    leader: Pid,
}

impl ProcessGroup {
    /// The group that the child `child` leads.
    pub fn led_by(child: &std::process::Child) -> ProcessGroup {
        ProcessGroup {
            leader: Pid::from_child(child),
        }
    }

    /// The group whose id (its leader's process id) is `id`; `None` for an id that no process
    /// can have (0, or above `i32::MAX`).
    pub fn from_id(id: u32) -> Option<ProcessGroup> {
        let leader = Pid::from_raw(i32::try_from(id).ok()?)?;
        Some(ProcessGroup { leader })
    }

    /// The group's id: its leader's process id.
    pub fn id(self) -> u32 {
        self.leader.as_raw_pid().unsigned_abs()
    }

    /// Sends `stop` to every process of the group. A group that is already empty is not an
    /// error.
    pub fn signal(self, stop: Stop) {
        let _ = kill_process_group(self.leader, stop.signal());
    }

    /// Kills (SIGKILL) every process of the group.
    pub fn kill(self) {
        self.signal(Stop::Kill);
    }
}

/// Sends `stop` to the process `pid` alone (not its group). A process already gone, or an id
/// that no process can have, is not an error.
pub fn signal_process(pid: u32, stop: Stop) {
    if let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) {
        let _ = kill_process(pid, stop.signal());
    }
}

/// What is done once a child has exited (and its group been killed), given its process id: to
/// remove what it may leave when it is killed (a board-call adapter's run folders and cgroups).
pub type Cleanup = fn(u32);

/// The cleanups registered by [`after_exit`].
static CLEANUPS: Mutex<Vec<Cleanup>> = Mutex::new(Vec::new());

/// Registers `cleanup`, to be done after the exit of every child started from now on by the
/// client (each child keeps the cleanups registered when it was started: [`cleanups`]). For the
/// layer that knows what its children leave behind, such as the board-call adapter, in the
/// programs that run it; register each once.
pub fn after_exit(cleanup: Cleanup) {
    CLEANUPS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(cleanup);
}

/// The cleanups registered so far, in order: what a child started now keeps.
pub fn cleanups() -> Vec<Cleanup> {
    CLEANUPS.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::time::{Duration, Instant};

    /// Whether the process `pid` has ended (gone, or a zombie nobody has reaped yet).
    fn ended(pid: u32) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |s| {
            s.rsplit(')')
                .next()
                .is_some_and(|r| r.trim_start().starts_with('Z'))
        })
    }

    /// Waits up to two seconds for `pid` to end.
    fn ends(pid: u32) -> bool {
        let deadline = Instant::now() + Duration::from_secs(2);
        while !ended(pid) {
            if Instant::now() > deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        true
    }

    #[test]
    fn a_killed_group_takes_its_grandchild_with_it() {
        // A leader that starts a grandchild in its group, prints the grandchild's id and waits.
        let mut leader = std::process::Command::new("sh")
            .args(["-c", "sleep 30 & echo $!; wait"])
            .stdout(std::process::Stdio::piped())
            .process_group(0)
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(leader.stdout.take().unwrap()),
            &mut line,
        )
        .unwrap();
        let grandchild: u32 = line.trim().parse().unwrap();
        let group = ProcessGroup::led_by(&leader);
        assert_eq!(group.id(), leader.id());
        assert_eq!(ProcessGroup::from_id(leader.id()), Some(group));
        assert!(!ended(grandchild), "the grandchild runs before the kill");
        group.kill();
        let gone = ends(grandchild);
        if !gone {
            signal_process(grandchild, Stop::Kill);
            let _ = leader.kill();
        }
        leader.wait().unwrap();
        assert!(
            gone,
            "the grandchild {grandchild} outlived its group's kill"
        );
        // Killing a group that is empty now is not an error.
        group.signal(Stop::Term);
    }

    #[test]
    fn a_single_process_is_signalled_alone() {
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        signal_process(child.id(), Stop::Term);
        let status = child.wait().unwrap();
        assert_eq!(
            std::os::unix::process::ExitStatusExt::signal(&status),
            Some(15)
        );
        assert_eq!(ProcessGroup::from_id(0), None);
        assert_eq!(ProcessGroup::from_id(u32::MAX), None);
    }
}
