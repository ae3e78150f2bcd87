//! What a class folder or an engine must not be able to do to the arena: a FIFO or a symbolic
//! link to `/dev/stdin` or out of the class folder must not hang discovery (they are left out,
//! with a note), SIGTERM ends the arena during discovery too, and an engine's `setsid`
//! grandchild does not outlive `arena match`.

use crate::common;

use std::fs;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::Scratch;

const ARENA: &str = env!("CARGO_BIN_EXE_arena");

/// The test submissions of engine/tests/class.
fn sources() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/class")
}

/// A new class folder `name` in the scratch directory holding copies of the test submissions
/// `files`; returns its path.
fn class_folder(s: &Scratch, name: &str, files: &[&str]) -> std::path::PathBuf {
    let subs = s.path(name);
    fs::create_dir_all(&subs).unwrap();
    for f in files {
        fs::copy(sources().join(f), subs.join(f)).unwrap();
    }
    subs
}

/// `--no-sandbox` where bubblewrap cannot make a sandbox.
fn unsandboxed() -> Option<&'static str> {
    boardgames_tools::adapter::sandbox::bwrap()
        .as_ref()
        .err()
        .map(|_| "--no-sandbox")
}

/// Waits for `child` at most `limit`; kills it and fails when it is still running then.
fn wait_within(mut child: Child, limit: Duration, what: &str) -> Output {
    let deadline = Instant::now() + limit;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "{what}: still running after {limit:?}; stderr: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo(3) reads the NUL-terminated path only.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
}

/// A class folder with two honest loose files and one honest student folder, and beside them
/// a FIFO, a link to `/dev/stdin`, a link to a file outside the class folder, a FIFO in the
/// student's folder and a link out of it: the class finishes, notes each of them, and ranks the
/// honest three.
#[test]
fn fifos_and_links_out_of_the_class_are_noted_and_skipped() {
    let s = Scratch::new("containment", "fifo");
    let subs = s.path("subs");
    fs::create_dir_all(subs.join("alice")).unwrap();
    for f in ["first.py", "greedy.py"] {
        fs::copy(sources().join(f), subs.join(f)).unwrap();
    }
    for f in ["oskaplayer.py", "OskaBoard.py"] {
        fs::copy(
            sources().join("folders/alice").join(f),
            subs.join("alice").join(f),
        )
        .unwrap();
    }
    // Outside the class folder: a file that would play, if it were read.
    fs::copy(sources().join("first.py"), s.path("teacher.py")).unwrap();
    mkfifo(&subs.join("pipe.py"));
    mkfifo(&subs.join("alice/fifo.py"));
    std::os::unix::fs::symlink("/dev/stdin", subs.join("stdin.py")).unwrap();
    std::os::unix::fs::symlink(s.path("teacher.py"), subs.join("secret.py")).unwrap();
    std::os::unix::fs::symlink(s.path("teacher.py"), subs.join("alice/more.py")).unwrap();
    std::os::unix::fs::symlink("/dev/stdin", subs.join("class.csv")).unwrap();
    let child = Command::new(ARENA)
        .args(["class", subs.to_str().unwrap(), "--depth", "1"])
        .args(unsandboxed())
        // A standard input that never ends: reading /dev/stdin would wait for ever.
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = wait_within(child, Duration::from_secs(240), "arena class");
    let all = format!(
        "{}\n--- stderr ---\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{all}");
    assert!(
        all.starts_with("Class of 3 submissions, oska 4, depth 1: 6 games"),
        "{all}"
    );
    for note in [
        "alice: left out fifo.py: a FIFO (named pipe) (not read)",
        "alice: left out more.py: a symbolic link that leads outside the class folder (not read)",
        "class.csv: left out: a symbolic link that leads outside the class folder (not read)",
        "pipe.py: left out: a FIFO (named pipe) (not read)",
        "secret.py: left out: a symbolic link that leads outside the class folder (not read)",
        "stdin.py: left out: a symbolic link that leads outside the class folder (not read)",
    ] {
        assert!(
            all.contains(&format!("\n{note}\n")),
            "no note '{note}' in:\n{all}"
        );
    }
    for honest in ["alice", "first.py", "greedy.py"] {
        assert!(
            all.lines()
                .any(|l| l.split_whitespace().nth(1) == Some(honest)),
            "{honest} is not ranked:\n{all}"
        );
    }
    assert!(!all.contains("teacher"), "{all}");
    assert_eq!(s.leftovers(), Vec::<String>::new());
}

/// SIGTERM while the arena discovers the class (held there by the debug build's pause) ends it
/// at once with status 130.
#[test]
fn sigterm_during_discovery_ends_the_arena() {
    let s = Scratch::new("containment", "sigterm");
    let subs = class_folder(&s, "subs", &["first.py", "greedy.py"]);
    let child = Command::new(ARENA)
        .args(["class", subs.to_str().unwrap(), "--depth", "1"])
        .args(unsandboxed())
        .env("ARENA_TEST_DISCOVERY_PAUSE_MS", "60000")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Time for the runtime to start and to reach the discovery.
    std::thread::sleep(Duration::from_millis(1500));
    // SAFETY: kill(2) has no memory effects.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    let started = Instant::now();
    let out = wait_within(child, Duration::from_secs(10), "arena class after SIGTERM");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("terminated"), "{err}");
    assert!(started.elapsed() < Duration::from_secs(5), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).is_empty());
    assert_eq!(s.leftovers(), Vec::<String>::new());
}

/// An engine behind a script that first starts a `setsid` child that sleeps on (in a session of
/// its own: no process group kill reaches it): after `arena match`, nothing of it is left, with
/// the engine's pids cgroup (where one can be made) and with the arena as a subreaper alone
/// (`ARENA_TEST_NO_ENGINE_CGROUP`, debug builds).
#[test]
fn an_engines_setsid_grandchild_does_not_outlive_the_match() {
    for no_cgroup in [false, true] {
        let s = Scratch::new("containment", "setsid");
        // Named by the scratch folder, so that `leftovers` sees it.
        std::os::unix::fs::symlink("/bin/sleep", s.path("sleeper")).unwrap();
        let script = s.write(
            "wrapper.sh",
            &format!(
                "setsid {} 1000 </dev/null >/dev/null 2>&1 &\nexec {} \"$@\"\n",
                s.path("sleeper").display(),
                s.engine()
            ),
        );
        let mut cmd = Command::new(ARENA);
        cmd.args(["match", "--game", "hexapawn", "--size", "3", "--games", "2"])
            .args([
                "--engine",
                "cmd=sh",
                &format!("arg={script}"),
                "name=wrapped",
            ])
            .args([
                "depth=1",
                "--engine",
                &format!("cmd={}", s.engine()),
                "depth=1",
            ]);
        if no_cgroup {
            cmd.env("ARENA_TEST_NO_ENGINE_CGROUP", "1");
        }
        let child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let out = wait_within(child, Duration::from_secs(60), "arena match");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{stdout}");
        assert!(stdout.contains("Score of wrapped vs engine"), "{stdout}");
        let left = s.leftovers();
        // Kill what the test found, so that a failure leaves nothing either.
        for l in &left {
            if let Some(pid) = l.split(':').next().and_then(|p| p.parse::<i32>().ok()) {
                // SAFETY: kill(2) has no memory effects.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        }
        assert_eq!(left, Vec::<String>::new(), "no cgroup: {no_cgroup}");
    }
}

/// A class folder whose name is not ASCII (`accént`, which a traceback relayed by the adapter
/// spells `acc\xc3\xa9nt`): neither standard output, nor the records, nor the web page name the
/// teacher's absolute path; and `--no-sandbox` is said in all three, not only on standard error.
#[test]
fn a_non_ascii_class_folder_publishes_no_absolute_path_and_no_sandbox_is_reported() {
    let s = Scratch::new("containment", "accent");
    let subs = class_folder(&s, "accént", &["first.py", "crash.py"]);
    let (records, html) = (s.path("class.rec"), s.path("class.html"));
    let child = Command::new(ARENA)
        .args([
            "class",
            subs.to_str().unwrap(),
            "--depth",
            "1",
            "--no-sandbox",
        ])
        .args(["--records", records.to_str().unwrap()])
        .args(["--html", html.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = wait_within(child, Duration::from_secs(120), "arena class");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{stdout}");
    // The crash's place is in the report, named relative to the class folder (its traceback on
    // standard error too, when it arrived before the fault was reported: not on a loaded
    // machine).
    assert!(stdout.contains("(crash.py, line "), "{stdout}");
    let scratch = s.dir.display().to_string();
    for (what, text) in [
        ("stdout", stdout),
        ("records", fs::read_to_string(&records).unwrap()),
        ("html", fs::read_to_string(&html).unwrap()),
    ] {
        assert!(!text.contains(&scratch), "{what} names {scratch}:\n{text}");
        assert!(!text.contains("acc\\xc3\\xa9nt"), "{what}:\n{text}");
        assert!(!text.contains("acc\\\\xc3\\\\xa9nt"), "{what}:\n{text}");
        assert!(
            text.contains("--no-sandbox: the submissions ran unconfined"),
            "{what} does not say --no-sandbox:\n{text}"
        );
    }
    assert_eq!(s.leftovers(), Vec::<String>::new());
}

/// The children of `pid` whose command line holds `board-call` (live adapters).
fn adapters_of(pid: u32) -> usize {
    let Ok(entries) = fs::read_dir("/proc") else {
        return 0;
    };
    entries
        .flatten()
        .filter(|e| {
            let stat = fs::read_to_string(e.path().join("stat")).unwrap_or_default();
            let parent = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok());
            let zombie = stat
                .rsplit_once(')')
                .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'));
            parent == Some(pid)
                && !zombie
                && fs::read(e.path().join("cmdline"))
                    .is_ok_and(|c| String::from_utf8_lossy(&c).contains("board-call"))
        })
        .count()
}

/// A class of 8 students at `--concurrency 2`: at most two adapters per worker are alive at any
/// time (one per student per worker would be 16), and the standings are those of a run at
/// `--concurrency 1` (the students are deterministic).
#[test]
fn a_class_keeps_at_most_two_adapters_per_worker() {
    let s = Scratch::new("containment", "pool");
    let subs = s.path("subs");
    fs::create_dir_all(&subs).unwrap();
    for i in 0..8 {
        let from = if i % 2 == 0 { "first.py" } else { "greedy.py" };
        fs::copy(sources().join(from), subs.join(format!("s{i}.py"))).unwrap();
    }
    let run = |concurrency: &str| {
        let mut child = Command::new(ARENA)
            .args(["class", subs.to_str().unwrap(), "--depth", "1"])
            .args(["--concurrency", concurrency])
            .args(unsandboxed())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut peak = 0;
        let deadline = Instant::now() + Duration::from_secs(300);
        while child.try_wait().unwrap().is_none() {
            assert!(Instant::now() < deadline, "the class did not finish");
            peak = peak.max(adapters_of(child.id()));
            std::thread::sleep(Duration::from_millis(20));
        }
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let standings: Vec<String> = stdout
            .lines()
            .take_while(|l| !l.trim_start().starts_with("Crosstable"))
            .map(str::to_string)
            .collect();
        (peak, standings)
    };
    let (peak, standings) = run("2");
    assert!(peak >= 2, "no adapter was seen ({peak})");
    assert!(peak <= 4, "{peak} adapters alive at once with 2 workers");
    let (_, alone) = run("1");
    assert_eq!(standings, alone);
    assert_eq!(s.leftovers(), Vec::<String>::new());
}
