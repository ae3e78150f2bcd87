//! ResourceLimits for untrusted programs: resource limits set in the child before it runs
//! (`setrlimit`), a private network namespace where the system allows one, a watch on how many
//! processes the program's group holds, time and output of a move (`watch.rs`), and a private
//! working directory (`sandbox.rs`).

use std::io;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

/// The default size of a run's scratch folder in the sandbox, in MiB.
pub const DEFAULT_SCRATCH_MIB: u64 = 64;
/// The default time a driver may take to load a submission.
pub const DEFAULT_LOAD_TIMEOUT: Duration = Duration::from_secs(10);
/// The default time compiling a submission may take.
pub const DEFAULT_COMPILE_TIMEOUT: Duration = Duration::from_secs(120);

/// The limits one submission runs under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceLimits {
    /// CPU seconds of each process (`RLIMIT_CPU`; `SIGXCPU` at the limit, `SIGKILL` a second
    /// later). A driver lives one game, so this bounds a game's thinking.
    pub cpu_seconds: Option<u64>,
    /// Address space of each process in MiB (`RLIMIT_AS`).
    pub memory_mib: Option<u64>,
    /// Processes (and threads) the program may hold at once, itself included: the `pids.max` of
    /// a cgroup of its own, where one can be made (a fork beyond it fails and the adapter names
    /// the fault); else watched by the adapter every 100 ms, which ends the program above it,
    /// with `RLIMIT_NPROC` as a backstop (counted per user, so set to the user's count at the
    /// start plus this; the kernel ignores it for root).
    pub processes: Option<u64>,
    /// How long one move may take (wall clock).
    pub move_timeout: Option<Duration>,
    /// Bytes the program may print (standard output and error) during one move.
    pub output_bytes: Option<u64>,
    /// Largest file the program may write, in MiB (`RLIMIT_FSIZE`).
    pub file_mib: Option<u64>,
    /// Size of the sandbox's scratch folder in MiB: a tmpfs of the run's own, so a full scratch
    /// fails only its owner's writes (`None`: the tmpfs default, half the memory). Outside the
    /// sandbox the scratch folder is on the host's temporary directory, unbounded.
    pub scratch_mib: Option<u64>,
    /// How long a driver may take to load the submission (after any compile): a slower load is
    /// the submission's `[load]` fault.
    pub load_timeout: Option<Duration>,
    /// How long compiling a submission (Haskell, Template Haskell included) may take: a slower
    /// compile is its `[load]` fault, cached like a failed compile.
    pub compile_timeout: Option<Duration>,
    /// Run without network (a private network namespace) when the system allows it.
    pub no_network: bool,
    /// Run in the sandbox ([`super::sandbox`]); `false` is `--no-sandbox`.
    pub sandbox: bool,
}

impl ResourceLimits {
    /// No limit at all.
    pub fn none() -> ResourceLimits {
        ResourceLimits {
            cpu_seconds: None,
            memory_mib: None,
            processes: None,
            move_timeout: None,
            output_bytes: None,
            file_mib: None,
            scratch_mib: None,
            load_timeout: None,
            compile_timeout: None,
            no_network: false,
            sandbox: false,
        }
    }

    /// The defaults of a function adapter: 300 CPU seconds a game, 2048 MiB, 32 processes,
    /// 64 MiB of output a move, 64 MiB files, a scratch folder of 64 MiB, 10 s to load and
    /// 120 s to compile, no network, the sandbox; no move timeout (the referee's).
    pub fn untrusted() -> ResourceLimits {
        ResourceLimits {
            cpu_seconds: Some(300),
            memory_mib: Some(2048),
            processes: Some(32),
            move_timeout: None,
            output_bytes: Some(64 << 20),
            file_mib: Some(64),
            scratch_mib: Some(DEFAULT_SCRATCH_MIB),
            load_timeout: Some(DEFAULT_LOAD_TIMEOUT),
            compile_timeout: Some(DEFAULT_COMPILE_TIMEOUT),
            no_network: true,
            sandbox: true,
        }
    }

    /// What these limits cannot do here, for a note at the first move: no network isolation
    /// outside the sandbox, no pids cgroup for the process cap (the sandbox's own notes:
    /// [`super::sandbox::notes`]).
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.no_network
            && !self.sandbox
            && let Err(why) = network_isolation()
        {
            notes.push(why.to_string());
        }
        if let (Some(max), Err(why)) = (self.processes, crate::process::cgroup::pids_cgroup()) {
            notes.push(format!(
                "{why}: the cap of {max} processes is watched every 100 ms, not enforced by the kernel"
            ));
        }
        notes
    }

    /// Sets up `cmd` (made by `Jail::command`) to run under these limits: its own process
    /// group, the resource limits, killed when the adapter dies, and, outside the sandbox
    /// (`sandboxed` off; the sandbox has its own), no network when [`network_isolation`] says it
    /// works.
    pub fn apply(&self, cmd: &mut Command, sandboxed: bool) {
        let rlimit = |secs: Option<u64>, scale: u64| {
            secs.map(|v| {
                let v = v.saturating_mul(scale);
                (v as libc::rlim_t, v as libc::rlim_t)
            })
        };
        let cpu = self
            .cpu_seconds
            .map(|s| (s as libc::rlim_t, s.saturating_add(1) as libc::rlim_t));
        let memory = rlimit(self.memory_mib, 1 << 20);
        let fsize = rlimit(self.file_mib, 1 << 20);
        let nproc = self.processes.map(|p| {
            let n = (user_processes() + p) as libc::rlim_t;
            (n, n)
        });
        let net = if self.no_network && !sandboxed {
            network_isolation().as_ref().ok().copied()
        } else {
            None
        };
        let maps = NetMaps::new();
        let parent = std::process::id();
        cmd.process_group(0);
        // SAFETY: the closure runs in the forked child before exec and only makes system calls
        // (setrlimit, prctl, getppid, unshare, open/write/close on prepared strings); it
        // allocates nothing.
        unsafe {
            cmd.pre_exec(move || {
                let set = |res, lim: Option<(libc::rlim_t, libc::rlim_t)>| {
                    if let Some((soft, hard)) = lim {
                        let r = libc::rlimit {
                            rlim_cur: soft,
                            rlim_max: hard,
                        };
                        if libc::setrlimit(res, &r) != 0 {
                            return Err(io::Error::last_os_error());
                        }
                    }
                    Ok(())
                };
                set(libc::RLIMIT_CPU, cpu)?;
                set(libc::RLIMIT_AS, memory)?;
                set(libc::RLIMIT_FSIZE, fsize)?;
                set(libc::RLIMIT_NPROC, nproc)?;
                set(libc::RLIMIT_CORE, Some((0, 0)))?;
                crate::process::orphans::die_with_parent(parent)?;
                if let Some(mode) = net {
                    maps.enter(mode)?;
                }
                Ok(())
            });
        }
    }
}

/// How a private network namespace is entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetMode {
    /// `unshare(CLONE_NEWNET)` directly (root, or `CAP_SYS_ADMIN`).
    Direct,
    /// Inside a new user namespace that maps the user to itself (unprivileged user namespaces).
    UserNamespace,
}

/// The uid and gid maps of a user namespace, prepared before the fork (the child must not
/// allocate).
struct NetMaps {
    uid: String,
    gid: String,
}

impl NetMaps {
    fn new() -> NetMaps {
        // SAFETY: getuid and getgid cannot fail.
        let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
        NetMaps {
            uid: format!("{uid} {uid} 1\0"),
            gid: format!("{gid} {gid} 1\0"),
        }
    }

    /// Enters the namespace; runs in the child, so system calls only.
    fn enter(&self, mode: NetMode) -> io::Result<()> {
        // SAFETY: plain system calls on NUL-terminated static paths and prepared buffers.
        unsafe {
            match mode {
                NetMode::Direct => {
                    if libc::unshare(libc::CLONE_NEWNET) != 0 {
                        return Err(io::Error::last_os_error());
                    }
                }
                NetMode::UserNamespace => {
                    if libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNET) != 0 {
                        return Err(io::Error::last_os_error());
                    }
                    let write = |path: &[u8], text: &[u8]| -> io::Result<()> {
                        let fd = libc::open(path.as_ptr().cast(), libc::O_WRONLY);
                        if fd < 0 {
                            return Err(io::Error::last_os_error());
                        }
                        let n = libc::write(fd, text.as_ptr().cast(), text.len());
                        libc::close(fd);
                        if n < 0 {
                            return Err(io::Error::last_os_error());
                        }
                        Ok(())
                    };
                    write(b"/proc/self/setgroups\0", b"deny")?;
                    write(
                        b"/proc/self/uid_map\0",
                        &self.uid.as_bytes()[..self.uid.len() - 1],
                    )?;
                    write(
                        b"/proc/self/gid_map\0",
                        &self.gid.as_bytes()[..self.gid.len() - 1],
                    )?;
                }
            }
        }
        Ok(())
    }
}

/// Whether programs can be run without network here, and how: tried once, by running `true` in
/// a private network namespace (directly, then inside a user namespace). The error says why
/// not; programs then run with the network, and the adapter says so once. It stays a message:
/// callers only pass it on to the user (a note), and act on whether there is isolation at all.
pub fn network_isolation() -> &'static Result<NetMode, NetError> {
    static PROBE: OnceLock<Result<NetMode, NetError>> = OnceLock::new();
    PROBE.get_or_init(|| {
        let mut why = Vec::new();
        for mode in [NetMode::Direct, NetMode::UserNamespace] {
            let maps = NetMaps::new();
            let mut cmd = Command::new("true");
            cmd.stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null());
            // SAFETY: as in `ResourceLimits::apply`: system calls only.
            unsafe {
                cmd.pre_exec(move || maps.enter(mode));
            }
            match cmd.status() {
                Ok(s) if s.success() => return Ok(mode),
                Ok(s) => why.push(format!("{mode:?}: {s}")),
                Err(e) => why.push(format!("{mode:?}: {e}")),
            }
        }
        Err(NetError::NoNamespace(why))
    })
}

/// Why programs cannot be run without network here ([`network_isolation`]): a message for the
/// user.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// Neither way of making a private network namespace worked: why not, one a way.
    #[error("no private network namespace ({}); the program keeps the network", .0.join(", "))]
    NoNamespace(Vec<String>),
}

/// How many processes (threads included, as `RLIMIT_NPROC` counts them) the current user
/// runs, from `/proc`; 0 when it cannot be read.
fn user_processes() -> u64 {
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let mut count = 0;
    for entry in dir.flatten() {
        let name = entry.file_name();
        if !name.to_string_lossy().bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(status) = std::fs::read_to_string(entry.path().join("status")) else {
            continue;
        };
        let mut owner = None;
        let mut threads = 1;
        for l in status.lines() {
            if let Some(v) = l.strip_prefix("Uid:") {
                owner = v
                    .split_whitespace()
                    .next()
                    .and_then(|u| u.parse::<u32>().ok());
            } else if let Some(v) = l.strip_prefix("Threads:") {
                threads = v.trim().parse().unwrap_or(1);
            }
        }
        if owner == Some(uid) {
            count += threads;
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_isolation_says_why_for_each_way() {
        let why = NetError::NoNamespace(vec!["Direct: a".into(), "UserNamespace: b".into()]);
        assert_eq!(
            why.to_string(),
            "no private network namespace (Direct: a, UserNamespace: b); the program keeps the \
             network"
        );
    }
}
