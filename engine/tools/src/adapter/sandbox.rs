//! The sandbox of untrusted programs: bubblewrap (`bwrap`) and a pids cgroup.
//!
//! A [`Jail`] is one run of a submission (a driver for a game, or a program for a move): a
//! private folder on the host (`board-call-PID-N` in the temporary directory) holding a
//! read-only `driver` folder, and, where a pids cgroup is writable, a cgroup of its own whose
//! `pids.max` is the process cap. Its [`Jail::command`] runs the program under `bwrap`:
//!
//! - as an unprivileged user: a user namespace of its own in which the program is `nobody`
//!   (uid and gid 65534; the user who runs the arena, root included, outside), every
//!   capability dropped, no further user namespace allowed (with bubblewrap 0.8 or later; an
//!   older one's nested namespaces still find every mount locked), so nothing can be
//!   remounted;
//! - with no network, its own PID, IPC and UTS namespaces, its own session, and a `/proc` that
//!   shows only the sandbox's processes;
//! - with a clean environment, `bwrap`'s own included (its arguments come through a file
//!   descriptor, so `/proc/1/cmdline` shows no host path and `/proc/1/environ` nothing);
//! - on a read-only root made of the system folders (`/usr`, `/bin`, `/lib*`, a few files of
//!   `/etc`), the interpreters' installations, the program's own files (read-only, at their own
//!   paths: nothing else of their folder is visible), the driver at [`DRIVER`] (read-only), a
//!   read-only `/dev` (no writable `/dev/shm`), and the scratch folder at [`SCRATCH`]: a tmpfs
//!   of its own of `scratch_mib` MiB (bubblewrap 0.8 or later; an older one leaves it unsized and
//!   the adapter says so in a note) (writable; also `TMPDIR`, `HOME` and the working
//!   directory), so a full scratch fails its owner's writes only; everything else, `/tmp`
//!   included, is read-only or absent.
//!
//! When the outermost `bwrap` dies, the PID namespace goes with everything in it, `setsid`
//! children included. Without `--no-sandbox`, a missing or broken `bwrap` stops the adapter
//! with [`Unavailable`]. The same holds run as root and as any other user.

use std::ffi::OsString;
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::time::Duration;

use super::limits::ResourceLimits;
use crate::process::cgroup::{Cgroup, clean_after, clean_stale, run_prefix};
use crate::process::find_on_path;
use crate::process::group;

pub use crate::process::cgroup::pids_cgroup;

/// Where the driver folder is inside the sandbox (read-only).
pub const DRIVER: &str = "/sandbox/driver";
/// Where the scratch folder is inside the sandbox (a tmpfs of its own, writable; `HOME` and
/// `TMPDIR`).
pub const SCRATCH: &str = "/sandbox/scratch";
/// The user and group the program runs as inside the sandbox (`nobody`).
pub const SANDBOX_ID: u32 = 65534;
/// Where the interpreters are linked inside the sandbox (first on `PATH`).
const TOOLS: &str = "/sandbox/bin";
/// How many processes `bwrap` itself holds in the cgroup (the outer one and the PID
/// namespace's init), added to the cap.
const BWRAP_PROCESSES: u64 = 2;
/// The host folders bound read-only when they exist.
const SYSTEM: [&str; 7] = [
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
];
/// The files and folders of `/etc` bound read-only when they exist (the loader, user names,
/// time zone, alternatives); the rest of `/etc` is not visible.
const ETC: [&str; 9] = [
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/alternatives",
    "/etc/localtime",
    "/etc/passwd",
    "/etc/group",
    "/etc/nsswitch.conf",
    "/etc/sbclrc",
];

/// The sandbox cannot run here: what is wrong and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Unavailable(pub String);

/// `bwrap` on `PATH`, checked once by running `true` in a sandbox like a submission's; the
/// error says what to install or what failed.
pub fn bwrap() -> &'static Result<PathBuf, Unavailable> {
    static PROBE: OnceLock<Result<PathBuf, Unavailable>> = OnceLock::new();
    PROBE.get_or_init(|| {
        let path = find_on_path("bwrap").ok_or_else(|| {
            Unavailable(
                "the sandbox needs bubblewrap ('bwrap' is not on PATH): install it \
                     (Debian/Ubuntu: apt-get install bubblewrap), or give --no-sandbox to run \
                     submissions unconfined"
                    .into(),
            )
        })?;
        let mut args = base_args();
        if features().size {
            args.extend(["--size", "65536"].map(OsString::from));
        }
        args.extend(["--tmpfs", SCRATCH, "--remount-ro", "/"].map(OsString::from));
        let mut cmd = bwrap_command(&path, &args).map_err(|e| {
            Unavailable(format!(
                "cannot pass the sandbox its arguments: {e}: give --no-sandbox to run \
                 submissions unconfined"
            ))
        })?;
        cmd.args(["--", "true"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        match cmd.output() {
            Ok(o) if o.status.success() => Ok(path),
            Ok(o) => Err(Unavailable(format!(
                "bubblewrap cannot make a sandbox here ({}: '{}'): give --no-sandbox to run \
                 submissions unconfined",
                o.status,
                String::from_utf8_lossy(&o.stderr).trim()
            ))),
            Err(e) => Err(Unavailable(format!(
                "cannot run {}: {e}: give --no-sandbox to run submissions unconfined",
                path.display()
            ))),
        }
    })
}

/// What the installed `bwrap` can do beyond its oldest options, read once from its `--help`:
/// `--size` (a tmpfs of a given size, bubblewrap 0.8) and `--disable-userns` (0.8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// It can size a tmpfs: the scratch folder is bounded.
    pub size: bool,
    /// It can forbid user namespaces inside the sandbox.
    pub disable_userns: bool,
}

/// The [`Features`] of the `bwrap` on `PATH` (none when it is missing or says nothing).
pub fn features() -> Features {
    static FOUND: OnceLock<Features> = OnceLock::new();
    *FOUND.get_or_init(|| {
        let Some(path) = find_on_path("bwrap") else {
            return Features::default();
        };
        let help = Command::new(path)
            .arg("--help")
            .env_clear()
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default();
        Features {
            size: help.contains("--size"),
            disable_userns: help.contains("--disable-userns"),
        }
    })
}

/// What `limits` cannot do here, for a note at the first move: those of
/// [`ResourceLimits::notes`], and in the sandbox a `bwrap` too old to bound the scratch folder.
pub fn notes(limits: &ResourceLimits) -> Vec<String> {
    let mut notes = limits.notes();
    match limits.scratch_mib {
        Some(mib) if limits.sandbox && !features().size => notes.push(format!(
            "this bubblewrap cannot size a tmpfs (--size needs bubblewrap 0.8 or later): the \
             scratch folder is not held to {mib} MiB, only by the machine's memory"
        )),
        _ => {}
    }
    notes
}

/// The arguments every sandbox starts with: the namespaces (the program `nobody` in a user
/// namespace of its own, every capability dropped, no further user namespace), the system
/// folders, `/proc`, a read-only `/dev`, a clean environment.
fn base_args() -> Vec<OsString> {
    let id = SANDBOX_ID.to_string();
    let mut a: Vec<OsString> = [
        "--unshare-all",
        "--unshare-user",
        "--uid",
        &id,
        "--gid",
        &id,
        "--cap-drop",
        "ALL",
        "--hostname",
        "sandbox",
        "--die-with-parent",
        "--new-session",
        "--clearenv",
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--remount-ro",
        "/dev",
    ]
    .map(OsString::from)
    .to_vec();
    // Defence in depth: a user namespace made inside would hold capabilities there, but the
    // mounts it copies stay locked read-only, so an older bwrap without it is still safe.
    if features().disable_userns {
        a.push("--disable-userns".into());
    }
    for dir in SYSTEM.iter().chain(ETC.iter()) {
        a.extend(["--ro-bind-try".into(), dir.into(), dir.into()]);
    }
    a
}

/// A `bwrap` command whose options `args` come through a file descriptor (`--args FD`), not its
/// command line (which then holds only `--`, the program and its arguments: the caller adds
/// them), and whose own environment is empty: inside, `/proc/1` (the sandbox's init, `bwrap`
/// itself) shows neither the bound host paths nor the caller's environment.
fn bwrap_command(bwrap: &Path, args: &[OsString]) -> io::Result<Command> {
    use std::io::Write;
    use std::os::fd::{FromRawFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    let mut text = Vec::new();
    for a in args {
        text.extend_from_slice(a.as_bytes());
        text.push(0);
    }
    // SAFETY: memfd_create with a NUL-terminated name; the descriptor is then owned here.
    let fd = unsafe { libc::memfd_create(c"bwrap-args".as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` was just created and is owned by nobody else.
    let file = std::fs::File::from(unsafe { OwnedFd::from_raw_fd(fd) });
    (&file).write_all(&text)?;
    // A number of its own above the standard streams and the answer pipe (3), which the caller
    // may put in place after this command's own set-up.
    // SAFETY: fcntl duplicates a descriptor we own; the copy is owned below.
    let high = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 10) };
    if high < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `high` was just created and is owned by nobody else.
    let high = unsafe { OwnedFd::from_raw_fd(high) };
    drop(file);
    let raw = high.as_raw_fd();
    let mut cmd = Command::new(bwrap);
    cmd.env_clear().arg("--args").arg(raw.to_string());
    // SAFETY: in the forked child before exec: fcntl and lseek on a descriptor the closure
    // owns (it lives as long as the command).
    unsafe {
        cmd.pre_exec(move || {
            let fd = high.as_raw_fd();
            if libc::fcntl(fd, libc::F_SETFD, 0) != 0 || libc::lseek(fd, 0, libc::SEEK_SET) != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
    Ok(cmd)
}

/// An interpreter as the sandbox sees it: its name on `PATH`, the executable it runs, and the
/// folders of its installation outside the system folders.
#[derive(Debug)]
struct Tool {
    name: &'static str,
    exe: PathBuf,
    roots: Vec<PathBuf>,
}

/// Whether `path` lies in a system folder, bound anyway.
fn in_system(path: &Path) -> bool {
    SYSTEM.iter().any(|s| path.starts_with(s))
}

/// The interpreters found on the host's `PATH` (`python3`, `sbcl`, `ghc`), resolved once:
/// Python by asking it for its executable and prefixes (a pyenv shim or a virtual environment
/// resolves to the real installation), the others by following links; an installation outside
/// the system folders (the folder above its `bin`) is bound read-only.
fn tools() -> &'static [Tool] {
    static TOOLS_FOUND: OnceLock<Vec<Tool>> = OnceLock::new();
    TOOLS_FOUND.get_or_init(|| {
        let mut found = Vec::new();
        let python = Command::new("python3")
            .args([
                "-c",
                "import sys; print(sys.executable); print(sys.prefix); print(sys.base_prefix)",
            ])
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output();
        if let Ok(o) = python
            && o.status.success()
        {
            let text = String::from_utf8_lossy(&o.stdout).into_owned();
            let lines: Vec<PathBuf> = text.lines().map(PathBuf::from).collect();
            // The executable as Python names it (in a virtual environment, the link whose
            // folder holds `pyvenv.cfg`), and the installation it links to.
            if let Some(exe) = lines.first().filter(|e| e.is_absolute() && e.exists()) {
                let exe = exe.clone();
                let mut roots: Vec<PathBuf> = lines[1..]
                    .iter()
                    .filter_map(|p| p.canonicalize().ok())
                    .collect();
                let real = exe.canonicalize().unwrap_or_else(|_| exe.clone());
                roots.extend(real.parent().and_then(Path::parent).map(Path::to_path_buf));
                found.push(Tool {
                    name: "python3",
                    exe,
                    roots,
                });
            }
        }
        for name in ["sbcl", "ghc"] {
            let Some(exe) = find_on_path(name).and_then(|p| p.canonicalize().ok()) else {
                continue;
            };
            let mut roots: Vec<PathBuf> = exe
                .parent()
                .and_then(Path::parent)
                .map(Path::to_path_buf)
                .into_iter()
                .collect();
            // ghc's package database may be a link out of its installation (Debian's
            // /usr/lib/ghc/package.conf.d is /var/lib/ghc/package.conf.d): bind where it leads.
            if name == "ghc"
                && let Ok(o) = Command::new(&exe)
                    .arg("--print-global-package-db")
                    .stdin(Stdio::null())
                    .stderr(Stdio::null())
                    .output()
                && o.status.success()
                && let Ok(db) =
                    PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()).canonicalize()
            {
                roots.push(db);
            }
            found.push(Tool { name, exe, roots });
        }
        for t in &mut found {
            t.roots.retain(|r| !in_system(r) && r != Path::new("/"));
            t.roots.sort();
            t.roots.dedup();
        }
        found
    })
}

/// The executable the sandbox runs for the interpreter `name` (`python3`, `sbcl`, `ghc`): the
/// resolved one, so that it runs without the host's environment; `name` itself when it was not
/// found (the start then fails with the usual error).
pub fn tool(name: &str) -> PathBuf {
    tools()
        .iter()
        .find(|t| t.name == name)
        .map_or_else(|| PathBuf::from(name), |t| t.exe.clone())
}

/// Puts the descriptor `fd` (open here, close-on-exec) at number 3 in the child of `cmd`, not
/// closed on exec: how a driver writes its answers, and a compile its executable, apart from
/// what the program prints. Added after the jail's and the limits' set-up.
pub fn inherit_as_fd3(cmd: &mut Command, fd: std::os::fd::RawFd) {
    // SAFETY: dup2 or fcntl in the child before exec, on a descriptor open before the fork.
    unsafe {
        cmd.pre_exec(move || {
            let done = if fd == 3 {
                libc::fcntl(3, libc::F_SETFD, 0)
            } else {
                libc::dup2(fd, 3)
            };
            if done < 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// Set when this process is ending on a signal: no new run may start.
static ENDING: AtomicBool = AtomicBool::new(false);

/// Has what a killed board-call adapter leaves (its run folders and cgroups: [`clean_after`])
/// removed after the exit of each engine that this program starts from now on through the
/// client: for a program that runs `engine board-call` as an engine (`arena`). An adapter that
/// ends by itself removes its own; one that is killed cannot. Registered once however often it
/// is called.
pub fn clean_after_each_engine() {
    static REGISTERED: std::sync::Once = std::sync::Once::new();
    REGISTERED.call_once(|| group::after_exit(clean_after));
}

/// On SIGTERM, SIGINT or SIGHUP: removes this process's run folders and cgroups (their
/// processes killed first) and exits with status 128 plus the signal's number. For an adapter
/// (`engine board-call`) stopped by a signal, whose runs would otherwise be left behind. The
/// handler only records the signal; a thread of its own does the rest.
pub fn clean_on_signals() {
    static SIGNALLED: AtomicI32 = AtomicI32::new(0);
    extern "C" fn record(signal: libc::c_int) {
        SIGNALLED.store(signal, Ordering::SeqCst);
    }
    let handler = record as extern "C" fn(libc::c_int);
    for signal in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
        unsafe {
            libc::signal(signal, handler as libc::sighandler_t);
        }
    }
    let spawned = std::thread::Builder::new()
        .name("board-call-signals".into())
        .spawn(|| {
            loop {
                let signal = SIGNALLED.load(Ordering::SeqCst);
                if signal != 0 {
                    ENDING.store(true, Ordering::SeqCst);
                    clean_after(std::process::id());
                    std::process::exit(128 + signal);
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        });
    if spawned.is_err() {
        // Without the thread the signals keep their default action.
        for signal in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
            // SAFETY: restores the default disposition.
            unsafe {
                libc::signal(signal, libc::SIG_DFL);
            }
        }
    }
}

/// One run of an untrusted program: its folder, its cgroup, and whether it is sandboxed.
#[derive(Debug)]
pub struct Jail {
    root: PathBuf,
    workdir: Option<PathBuf>,
    cgroup: Option<Cgroup>,
    sandboxed: bool,
    network: bool,
    scratch_mib: Option<u64>,
}

impl Jail {
    /// A run folder (`board-call-PID-N` in the temporary directory, with `driver`, and
    /// `scratch` outside the sandbox), and a cgroup capped at `limits.processes` (plus
    /// `bwrap`'s own) where one can be made. With `limits.sandbox` the program runs under
    /// `bwrap` with a scratch tmpfs of `limits.scratch_mib` (else directly, in the scratch
    /// folder), with the network only when `limits.no_network` is off. The first jail of a
    /// process removes what killed processes left ([`clean_stale`]).
    pub fn new(limits: &ResourceLimits) -> io::Result<Jail> {
        let (processes, sandboxed) = (limits.processes, limits.sandbox);
        if ENDING.load(Ordering::SeqCst) {
            return Err(io::Error::other("the adapter is ending"));
        }
        static STALE: std::sync::Once = std::sync::Once::new();
        STALE.call_once(clean_stale);
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let name = format!(
            "{}{}",
            run_prefix(std::process::id()),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let root = std::env::temp_dir().join(&name);
        std::fs::create_dir_all(root.join("driver"))?;
        if !sandboxed {
            std::fs::create_dir_all(root.join("scratch"))?;
        }
        let cgroup = match (processes, pids_cgroup()) {
            (Some(max), Ok(parent)) => {
                let extra = if sandboxed { BWRAP_PROCESSES } else { 0 };
                match Cgroup::new(parent, &name, max + extra) {
                    Ok(c) => Some(c),
                    Err(e) => {
                        let _ = std::fs::remove_dir_all(&root);
                        return Err(io::Error::new(
                            e.kind(),
                            format!(
                                "cannot make the cgroup {}: {e}",
                                parent.join(&name).display()
                            ),
                        ));
                    }
                }
            }
            _ => None,
        };
        Ok(Jail {
            root,
            workdir: None,
            cgroup,
            sandboxed,
            network: !limits.no_network,
            scratch_mib: limits.scratch_mib,
        })
    }

    /// Runs the program in `folder` (absolute; the caller binds it, read-only in the sandbox)
    /// instead of the scratch folder, which stays `HOME` and `TMPDIR`.
    pub fn work_in(&mut self, folder: PathBuf) {
        self.workdir = Some(folder);
    }

    /// Whether the program runs under `bwrap`.
    pub fn sandboxed(&self) -> bool {
        self.sandboxed
    }

    /// Whether the kernel enforces the process cap (a cgroup); else the adapter watches.
    pub fn capped(&self) -> bool {
        self.cgroup.is_some()
    }

    /// Whether the cgroup refused a fork at the cap (`None`: no cgroup).
    pub fn cap_reached(&self) -> Option<bool> {
        self.cgroup.as_ref().map(|c| c.refused() > 0)
    }

    /// The scratch folder as the program sees it: [`SCRATCH`] (a tmpfs) in the sandbox, else a
    /// folder of the run on the host.
    pub fn scratch(&self) -> PathBuf {
        if self.sandboxed {
            PathBuf::from(SCRATCH)
        } else {
            self.root.join("scratch")
        }
    }

    /// A driver file `name`: where to write it on the host, and the path the program gets.
    pub fn driver_file(&self, name: &str) -> (PathBuf, PathBuf) {
        let host = self.root.join("driver").join(name);
        let seen = if self.sandboxed {
            Path::new(DRIVER).join(name)
        } else {
            host.clone()
        };
        (host, seen)
    }

    /// The command that runs `program` with `args` in this jail: under `bwrap` with `files`
    /// (the program's own, absolute) bound read-only at their paths, or directly in the scratch
    /// folder. The process joins the cgroup before it runs. The caller adds the limits
    /// ([`ResourceLimits::apply`], given [`Jail::sandboxed`]) and the standard streams.
    pub fn command(
        &self,
        program: &Path,
        args: &[OsString],
        files: &[PathBuf],
    ) -> Result<Command, Unavailable> {
        let mut cmd = if self.sandboxed {
            let bwrap = bwrap().as_ref().map_err(Clone::clone)?;
            let mut a = base_args();
            if self.network {
                a.push("--share-net".into());
            }
            let mut binds: Vec<&Path> = Vec::new();
            for t in tools() {
                binds.extend(t.roots.iter().map(PathBuf::as_path));
            }
            binds.extend(files.iter().map(PathBuf::as_path));
            for b in binds {
                a.extend(["--ro-bind".into(), b.into(), b.into()]);
            }
            a.extend([
                "--ro-bind".into(),
                self.root.join("driver").into(),
                DRIVER.into(),
            ]);
            if let Some(mib) = self.scratch_mib.filter(|_| features().size) {
                a.extend(["--size".into(), (mib.max(1) << 20).to_string().into()]);
            }
            a.extend(["--tmpfs", SCRATCH, "--dir", TOOLS].map(OsString::from));
            for t in tools() {
                a.extend([
                    "--symlink".into(),
                    t.exe.clone().into(),
                    Path::new(TOOLS).join(t.name).into(),
                ]);
            }
            let path = format!("{TOOLS}:/usr/local/bin:/usr/bin:/bin");
            for (name, value) in [
                ("PATH", path.as_str()),
                ("HOME", SCRATCH),
                ("TMPDIR", SCRATCH),
                ("LANG", "C.UTF-8"),
            ] {
                a.extend(["--setenv", name, value].map(OsString::from));
            }
            a.push("--chdir".into());
            a.push(
                self.workdir
                    .clone()
                    .unwrap_or_else(|| PathBuf::from(SCRATCH))
                    .into(),
            );
            a.extend(["--remount-ro", "/"].map(OsString::from));
            let mut c = bwrap_command(bwrap, &a)
                .map_err(|e| Unavailable(format!("cannot pass the sandbox its arguments: {e}")))?;
            c.arg("--").arg(program).args(args);
            c
        } else {
            let mut c = Command::new(program);
            c.args(args)
                .current_dir(self.workdir.clone().unwrap_or_else(|| self.scratch()));
            c
        };
        if let Some(cg) = &self.cgroup {
            let fd = cg.procs.as_raw_fd();
            // SAFETY: in the forked child before exec: one write(2) of a static buffer to a
            // descriptor opened before the fork.
            unsafe {
                cmd.pre_exec(move || {
                    // `0` is the writing process itself.
                    if libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
                        return Err(io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        Ok(cmd)
    }
}

impl Drop for Jail {
    fn drop(&mut self) {
        // The cgroup first: nothing may still write into the folder.
        self.cgroup = None;
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_reach_the_child() {
        let mut limits = ResourceLimits::untrusted();
        limits.sandbox = false;
        let jail = Jail::new(&limits).unwrap();
        limits.cpu_seconds = Some(7);
        limits.memory_mib = Some(512);
        let args = ["-c", "ulimit -t; ulimit -v; pwd"].map(std::ffi::OsString::from);
        let mut cmd = jail
            .command(std::path::Path::new("sh"), &args, &[])
            .unwrap();
        limits.apply(&mut cmd, jail.sandboxed());
        let out = cmd.output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "7");
        assert_eq!(lines[1], (512 * 1024).to_string());
        assert_eq!(
            std::path::Path::new(lines[2]).canonicalize().unwrap(),
            jail.scratch().canonicalize().unwrap()
        );
        let kept = jail.scratch();
        drop(jail);
        assert!(!kept.exists());
    }
}
