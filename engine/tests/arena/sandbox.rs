//! The sandbox of `arena class` through the real binaries: a hostile class (engine/tests/class/
//! hostile/: submissions that write into another's file and outside their scratch folder, read
//! another's source, write the driver cache, open sockets, leave a `setsid` child, fork without
//! end, flood their output) plays a full class in a folder named with spaces, quotes and
//! non-ASCII: every attempt fails and is charged to its author as a named fault, the other
//! files are byte for byte unchanged, nothing is left running or written outside, and the
//! honest games are those of a class of the honest submissions alone. Also: SIGTERM and SIGINT
//! of `arena` leave no run folder, cgroup nor process; without bubblewrap `arena class` and a
//! function engine stop with one line saying how to install it, unless `--no-sandbox`.

use crate::common;
use common::text;

use std::collections::BTreeMap;
use std::fs;
use std::io::ErrorKind;
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use boardgames_core::record::{GameRecord, RecordResult, parse_records};
use boardgames_tools::adapter::sandbox;
use boardgames_tools::arena::class::ClassReport;

const ARENA: &str = env!("CARGO_BIN_EXE_arena");
const ENGINE: &str = env!("CARGO_BIN_EXE_engine");

/// The class folder's name: blanks, quotes, a shell substitution and non-ASCII.
const CLASS: &str = "class ü 'q' $(echo x)";

fn sources() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/class")
}

/// A fresh folder for one test (removed at the end): the class, the temporary folder and the
/// cache the run uses. Every process of a run names it on its command line.
struct Base {
    dir: PathBuf,
    tag: String,
}

impl Base {
    fn new(name: &str) -> Base {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let tag = format!(
            "{}-{}-{}",
            name,
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        );
        let dir = std::env::temp_dir().join(format!("sandbox-test-{tag}"));
        let _ = fs::remove_dir_all(&dir);
        for sub in [CLASS, "tmp", "cache"] {
            fs::create_dir_all(dir.join(sub)).unwrap();
        }
        Base { dir, tag }
    }

    /// A fresh base (see [`Base::new`]) whose class holds copies of `files` (see
    /// [`Base::add_to`], port 0); returns it and its class folder.
    fn with_class(name: &str, files: &[&str]) -> (Base, PathBuf) {
        let base = Base::new(name);
        let class = base.class();
        for file in files {
            base.add_to(&class, file, 0);
        }
        (base, class)
    }

    fn class(&self) -> PathBuf {
        self.dir.join(CLASS)
    }

    fn tmp(&self) -> PathBuf {
        self.dir.join("tmp")
    }

    fn cache(&self) -> PathBuf {
        self.dir.join("cache")
    }

    /// Copies `file` (relative to engine/tests/class) into `folder`, with the placeholders of
    /// the hostile submissions filled in.
    fn add_to(&self, folder: &Path, file: &str, port: u16) {
        let text = fs::read_to_string(sources().join(file))
            .unwrap()
            .replace("@TAG@", &self.tag)
            .replace("@HOME@", &home())
            .replace(
                "@CACHE@",
                &self.cache().join("engine-board-call").display().to_string(),
            )
            .replace("@TMP@", &self.tmp().display().to_string())
            .replace("@PORT@", &port.to_string());
        let name = Path::new(file).file_name().unwrap();
        fs::write(folder.join(name), text).unwrap();
    }

    /// `arena ARGS` with the temporary folder and the cache of this test, and a canary in the
    /// environment that no submission may read ([`Base::canary`]).
    fn arena(&self, args: &[&str]) -> Command {
        let mut c = Command::new(ARENA);
        c.args(args)
            .env("TMPDIR", self.tmp())
            .env("XDG_CACHE_HOME", self.cache())
            .env("TEACHER_TOKEN", self.canary());
        c
    }

    /// The secret of the teacher's environment that `hostile/environ.py` looks for.
    fn canary(&self) -> String {
        format!("canary-{}", self.tag)
    }

    /// Live processes that name this folder, waited for generously (ten seconds).
    fn leftovers(&self) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let found = common::leftovers(&self.dir);
            if found.is_empty() || Instant::now() > deadline {
                return found;
            }
        }
    }
}

impl Drop for Base {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

fn home() -> String {
    std::env::var("HOME").unwrap_or_else(|_| "/root".into())
}

/// Sends `signal` to our own `child` and waits for it to end.
fn signalled(child: std::process::Child, signal: i32) -> Output {
    // SAFETY: kill(2) on our own child.
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
    child.wait_with_output().unwrap()
}

/// The names of the run folders in `base`'s temporary directory that start with `prefix`.
fn run_folders(base: &Base, prefix: &str) -> Vec<String> {
    fs::read_dir(base.tmp())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(prefix))
        .collect()
}

/// Waits (up to a minute) until a submission's driver runs: a run folder starting with `prefix`
/// exists in `base`'s temporary directory and a process names `class`. Returns the run folders.
fn wait_for_a_driver(base: &Base, class: &Path, prefix: &str) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let runs = run_folders(base, prefix);
        if !runs.is_empty() && !common::leftovers(class).is_empty() {
            return runs;
        }
        assert!(Instant::now() < deadline, "no driver started");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Asserts that a run stopped by `signal` left no process, nothing in `base`'s temporary
/// directory and no cgroup of its run folders `runs`.
fn assert_nothing_left(base: &Base, signal: i32, runs: &[String]) {
    assert_eq!(base.leftovers(), Vec::<String>::new());
    let left: Vec<_> = fs::read_dir(base.tmp()).unwrap().flatten().collect();
    assert!(
        left.is_empty(),
        "signal {signal}: left {left:?} (runs were {runs:?})"
    );
    if let Ok(parent) = sandbox::pids_cgroup() {
        for run in runs {
            assert!(!parent.join(run).exists(), "cgroup {run} left");
        }
    }
}

/// Every file under `dir` with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else {
                files.insert(p.clone(), fs::read(&p).unwrap());
            }
        }
    }
    files
}

/// Whether bubblewrap works here; if not, the test is skipped with a note.
fn sandbox_works() -> bool {
    match sandbox::bwrap() {
        Ok(_) => true,
        Err(e) => {
            eprintln!("note: no sandbox here, the test is skipped: {e}");
            false
        }
    }
}

/// `--no-sandbox` where bubblewrap cannot make a sandbox (with a note): what does not need the
/// sandbox (removing runs on a signal) is tested there too.
fn unsandboxed() -> Option<&'static str> {
    let why = sandbox::bwrap().as_ref().err()?;
    eprintln!("note: no sandbox here ({why}): run with --no-sandbox");
    Some("--no-sandbox")
}

/// The cgroups of run `board-call-PID-N` whose adapter process PID has ended: left behind.
fn stale_cgroups() -> Vec<String> {
    let Ok(parent) = sandbox::pids_cgroup() else {
        return Vec::new();
    };
    let mut stale = Vec::new();
    for e in fs::read_dir(parent).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let pid = name
            .strip_prefix("board-call-")
            .and_then(|r| r.split('-').next())
            .and_then(|p| p.parse::<u32>().ok());
        if let Some(pid) = pid
            && !Path::new(&format!("/proc/{pid}")).exists()
        {
            stale.push(name);
        }
    }
    stale
}

/// Every cgroup below `dir`, at any depth.
fn cgroups_below(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for e in fs::read_dir(dir).into_iter().flatten().flatten() {
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            found.push(e.path());
            found.extend(cgroups_below(&e.path()));
        }
    }
    found
}

/// The submission that lost `record` by a fault, if one did.
fn loser(record: &GameRecord) -> Option<&str> {
    record.tag("Fault")?;
    match record.result {
        RecordResult::White => Some(record.black.as_str()),
        RecordResult::Black => Some(record.white.as_str()),
        _ => None,
    }
}

/// The hostile submissions and the fault each must be charged with.
const HOSTILE: [(&str, &str); 10] = [
    ("remount.py", "exception"),
    ("environ.py", "exception"),
    ("filler.py", "exception"),
    ("tamper.py", "exception"),
    ("litter.py", "exception"),
    ("snoop.py", "exception"),
    ("poison.py", "exception"),
    ("net.py", "exception"),
    ("forkbomb.py", "processes"),
    ("flood.py", "output"),
];

/// The honest games (between `honest` submissions) of `records`: players, moves and result.
fn honest_games(records: &[GameRecord], honest: &[&str]) -> Vec<(String, String, Vec<String>)> {
    let mut games: Vec<_> = records
        .iter()
        .filter(|r| honest.contains(&r.white.as_str()) && honest.contains(&r.black.as_str()))
        .map(|r| {
            (
                r.white.clone(),
                r.black.clone(),
                r.moves
                    .iter()
                    .map(ToString::to_string)
                    .chain([format!("{:?}", r.result)])
                    .collect(),
            )
        })
        .collect();
    games.sort();
    games
}

#[test]
fn a_hostile_class_touches_nothing_but_itself() {
    if !sandbox_works() {
        return;
    }
    let base = Base::new("hostile");
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let class = base.class();
    let mut honest = vec!["first.py", "greedy.py"];
    for file in &honest {
        base.add_to(&class, file, port);
    }
    if boardgames_tools::process::on_path("ghc") {
        base.add_to(&class, "oska_hs.hs", port);
        honest.push("oska_hs.hs");
    } else {
        eprintln!("note: ghc is not installed: the class is played without a Haskell submission");
    }
    base.add_to(&class, "hostile/setsid.py", port);
    for (file, _) in HOSTILE {
        base.add_to(&class, &format!("hostile/{file}"), port);
    }
    // A compiled driver in the cache, for the poisoner to try.
    let cached = base.cache().join("engine-board-call/00112233aabbccdd");
    fs::create_dir_all(&cached).unwrap();
    fs::write(cached.join("driver"), "#!/bin/sh\necho cached\n").unwrap();
    let stale_before = stale_cgroups();
    let class_before = snapshot(&class);
    let cache_before = snapshot(&base.cache());
    let strays: Vec<PathBuf> = [
        class.clone(),
        "/tmp".into(),
        "/var/tmp".into(),
        "/root".into(),
        home().into(),
        "/etc".into(),
        "/usr".into(),
        std::env::temp_dir(),
        base.tmp(),
    ]
    .iter()
    .map(|d| d.join(format!("litter-{}.txt", base.tag)))
    .chain([PathBuf::from(format!("/usr/remounted-{}", base.tag))])
    .collect();
    let records_path = base.dir.join("hostile.rec");
    let out = base
        .arena(&[
            "class",
            class.to_str().unwrap(),
            "--depth",
            "2",
            "--concurrency",
            "2",
            "--processes",
            "16",
            "--move-timeout",
            "30000",
            "--records",
            records_path.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let all = text(&out);
    assert!(out.status.success(), "{all}");
    let records = parse_records(&fs::read_to_string(&records_path).unwrap()).unwrap();
    let report = ClassReport::from_records(&records).unwrap();
    let n = (honest.len() + 1 + HOSTILE.len()) as u64;
    assert_eq!(report.games as u64, n * (n - 1), "{all}");
    // Each hostile submission loses every game it has to move in against one that does not
    // fail (the honest ones and the setsid one, both colours), by its own named fault only, and
    // each attempt met, in its own words, BLOCKED, never ESCAPED.
    let not_failing: Vec<&str> = honest.iter().copied().chain(["setsid.py"]).collect();
    charged_to_their_authors(&all, &records, &report, &not_failing, &HOSTILE);
    let mut charged = 0;
    for r in &records {
        let Some(name) = loser(r) else { continue };
        let reason = r.tag("Reason").unwrap();
        if name == "forkbomb.py" && sandbox::pids_cgroup().is_ok() {
            // The hard cap: the kernel refused the fork that would pass 16 processes.
            assert!(reason.contains("the kernel refused the fork"), "{reason}");
            let children = common::number_after(reason, "fork refused after ")
                .unwrap_or_else(|| panic!("no count of children in: {reason}"));
            // With the driver itself: at most 16 processes.
            assert!(children < 16, "{reason}");
            assert!(children >= 8, "{reason}");
        }
        charged += 1;
    }
    assert!(
        charged >= HOSTILE.len() * 6,
        "{charged} games lost by faults:\n{all}"
    );
    // The teacher's environment reached no submission, so no record or output either.
    let records_text = fs::read_to_string(&records_path).unwrap();
    assert!(!all.contains(&base.canary()), "{all}");
    assert!(!records_text.contains(&base.canary()));
    if sandbox::pids_cgroup().is_err() {
        eprintln!("note: no pids cgroup here: the process cap was watched, not enforced");
    }
    // The other submissions and the cache are byte for byte as they were; nothing was written
    // outside, nothing connected, nothing runs on, no run folder or cgroup is left.
    assert!(snapshot(&class) == class_before, "the class folder changed");
    // The cache: what was there is unchanged; what the class added (the Haskell submission's
    // compiled driver) holds nothing the poisoner wrote.
    let cache_after = snapshot(&base.cache());
    for (path, bytes) in &cache_before {
        assert!(
            cache_after.get(path) == Some(bytes),
            "{} changed",
            path.display()
        );
    }
    for (path, bytes) in &cache_after {
        let poisoned = bytes.windows(8).any(|w| w == b"poisoned");
        assert!(!poisoned, "{} was poisoned", path.display());
    }
    for stray in &strays {
        let found = stray.exists();
        let _ = fs::remove_file(stray);
        assert!(!found, "{} was written", stray.display());
    }
    match listener.accept() {
        Err(e) if e.kind() == ErrorKind::WouldBlock => {}
        other => panic!("a submission reached the host's loopback: {other:?}"),
    }
    assert_eq!(base.leftovers(), Vec::<String>::new());
    assert_eq!(
        fs::read_dir(base.tmp()).unwrap().count(),
        0,
        "run folders left"
    );
    // New ones only, looked at twice: another run on this machine may be removing its own.
    let new_stale = || -> Vec<String> {
        stale_cgroups()
            .into_iter()
            .filter(|c| !stale_before.contains(c))
            .collect()
    };
    let mut stale = new_stale();
    if !stale.is_empty() {
        std::thread::sleep(Duration::from_secs(3));
        stale = new_stale();
    }
    assert_eq!(stale, Vec::<String>::new(), "cgroups left");
    // The honest games are those of the honest submissions alone.
    let alone = base.dir.join("honest");
    fs::create_dir_all(&alone).unwrap();
    for file in &honest {
        fs::copy(class.join(file), alone.join(file)).unwrap();
    }
    let honest_records = base.dir.join("honest.rec");
    let out = base
        .arena(&[
            "class",
            alone.to_str().unwrap(),
            "--depth",
            "2",
            "--records",
            honest_records.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let by_themselves = parse_records(&fs::read_to_string(&honest_records).unwrap()).unwrap();
    let among_hostile = honest_games(&records, &honest);
    assert_eq!(among_hostile.len(), honest.len() * (honest.len() - 1));
    assert_eq!(among_hostile, honest_games(&by_themselves, &honest));
    if honest.contains(&"oska_hs.hs") {
        // The compiled drivers are read-only in the cache.
        use std::os::unix::fs::PermissionsExt;
        for e in fs::read_dir(base.cache().join("engine-board-call"))
            .unwrap()
            .flatten()
        {
            let driver = e.path().join("driver");
            if e.path() == cached || !driver.exists() {
                continue;
            }
            let mode = fs::metadata(&driver).unwrap().permissions().mode();
            assert_eq!(mode & 0o222, 0, "{} is writable", driver.display());
        }
    }
}

/// A class run of `base`'s class with `args`, as the user `uid` when given (else as this
/// process): its output, its records and its report.
fn class_run(
    base: &Base,
    args: &[&str],
    uid: Option<u32>,
) -> (String, Vec<GameRecord>, ClassReport) {
    let records_path = base.dir.join(format!("class-{}.rec", uid.unwrap_or(0)));
    let class = base.class();
    let mut all = vec!["class", class.to_str().unwrap()];
    all.extend(args);
    all.extend(["--records", records_path.to_str().unwrap()]);
    let mut cmd = base.arena(&all);
    if let Some(id) = uid {
        cmd.uid(id)
            .gid(id)
            .env("PATH", "/usr/local/bin:/usr/bin:/bin");
    }
    let out = cmd.output().unwrap();
    let all = text(&out);
    assert!(out.status.success(), "{all}");
    let records = parse_records(&fs::read_to_string(&records_path).unwrap()).unwrap();
    let report = ClassReport::from_records(&records).unwrap();
    (all, records, report)
}

/// Checks that each of `hostile` lost every game it had to move in against the `honest`
/// (both colours) by its named fault only, that every fault's reason says BLOCKED and never
/// ESCAPED, and that only the hostile lost by a fault.
fn charged_to_their_authors(
    all: &str,
    records: &[GameRecord],
    report: &ClassReport,
    honest: &[&str],
    hostile: &[(&str, &str)],
) {
    for (name, fault) in hostile {
        let faults = &crate::class::entry_of(report, name, all).faults;
        let wanted = 2 * honest.len() as u64;
        assert!(
            faults.get(*fault).is_some_and(|&c| c >= wanted),
            "{name}: {faults:?}\n{all}"
        );
        assert_eq!(faults.len(), 1, "{name}: {faults:?}");
    }
    for r in records {
        let Some(name) = loser(r) else { continue };
        let reason = r.tag("Reason").unwrap();
        assert!(!reason.contains("ESCAPED"), "{name}: {reason}");
        let Some((_, fault)) = hostile.iter().find(|(h, _)| *h == name) else {
            panic!("{name} lost by a fault: {reason}");
        };
        assert!(
            reason.contains(&format!("board-call: [{fault}]")),
            "{reason}"
        );
        if *fault == "exception" {
            assert!(reason.contains("BLOCKED"), "{name}: {reason}");
        }
    }
}

/// The same attacks, run by a teacher who is not root (uid 65534, `nobody`): where this test
/// runs as root (containers, CI), `arena class` runs as nobody; elsewhere it is skipped with a
/// note (the test above is then the unprivileged run). Every attack is contained and charged to
/// its author, the class folder is unchanged, nothing is left.
#[test]
fn a_hostile_class_run_by_an_unprivileged_teacher_is_contained_too() {
    if !sandbox_works() {
        return;
    }
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("note: not root: the unprivileged run is the other hostile test itself");
        return;
    }
    const NOBODY: u32 = 65534;
    let base = Base::new("hostile-nobody");
    let class = base.class();
    let honest = ["first.py", "greedy.py"];
    let hostile = [
        ("remount.py", "exception"),
        ("environ.py", "exception"),
        ("filler.py", "exception"),
        ("tamper.py", "exception"),
        ("snoop.py", "exception"),
    ];
    for file in honest {
        base.add_to(&class, file, 0);
    }
    for (file, _) in hostile {
        base.add_to(&class, &format!("hostile/{file}"), 0);
    }
    // The teacher's own folders are theirs; the class stays root's, readable by all.
    for dir in [base.dir.clone(), base.tmp(), base.cache()] {
        std::os::unix::fs::chown(&dir, Some(NOBODY), Some(NOBODY)).unwrap();
    }
    let probe = Command::new(ARENA)
        .arg("--version")
        .uid(NOBODY)
        .gid(NOBODY)
        .output();
    let python = Command::new("python3")
        .arg("-c")
        .arg("pass")
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .uid(NOBODY)
        .gid(NOBODY)
        .status();
    if !probe.as_ref().is_ok_and(|o| o.status.success()) || !python.is_ok_and(|s| s.success()) {
        eprintln!("note: nobody cannot run {ARENA} or a system python3 here: skipped");
        return;
    }
    let class_before = snapshot(&class);
    let args = [
        "--depth",
        "2",
        "--concurrency",
        "2",
        "--move-timeout",
        "30000",
    ];
    let (all, records, report) = class_run(&base, &args, Some(NOBODY));
    let n = (honest.len() + hostile.len()) as u64;
    assert_eq!(report.games as u64, n * (n - 1), "{all}");
    charged_to_their_authors(&all, &records, &report, &honest, &hostile);
    assert!(!all.contains(&base.canary()), "{all}");
    assert!(snapshot(&class) == class_before, "the class folder changed");
    assert_eq!(base.leftovers(), Vec::<String>::new());
    assert_eq!(
        fs::read_dir(base.tmp()).unwrap().count(),
        0,
        "run folders left"
    );
    // The honest games are those of the honest submissions alone, run as root.
    let (alone, _) = Base::with_class("honest-alone", &honest);
    let (_, by_themselves, _) = class_run(&alone, &["--depth", "2"], None);
    assert_eq!(
        honest_games(&records, &honest),
        honest_games(&by_themselves, &honest)
    );
}

/// Loading and compiling are charged to the submission: a Python file that sleeps at load and
/// a Haskell file whose Template Haskell sleeps at compile time lose by `[load]` within the
/// limits (`--load-timeout`, `--compile-timeout`), and the failed compile is remembered, so the
/// later games fail at once; the honest submission plays every game without a fault.
#[test]
fn slow_loads_and_compiles_are_the_submissions_faults() {
    if !sandbox_works() {
        return;
    }
    let base = Base::new("slow");
    let class = base.class();
    base.add_to(&class, "first.py", 0);
    base.add_to(&class, "hostile/slowload.py", 0);
    let ghc = boardgames_tools::process::on_path("ghc");
    if ghc {
        base.add_to(&class, "hostile/slow_th.hs", 0);
    } else {
        eprintln!("note: ghc is not installed: the compile limit is not tested");
    }
    let started = Instant::now();
    let args = [
        "--depth",
        "1",
        "--concurrency",
        "1",
        "--move-timeout",
        "20000",
        "--load-timeout",
        "2000",
        "--compile-timeout",
        "20",
    ];
    let (all, records, report) = class_run(&base, &args, None);
    let took = started.elapsed();
    let mut hostile = vec![("slowload.py", "load")];
    if ghc {
        hostile.push(("slow_th.hs", "load"));
    }
    charged_to_their_authors(&all, &records, &report, &["first.py"], &hostile);
    let reasons: Vec<&str> = records.iter().filter_map(|r| r.tag("Reason")).collect();
    let slow_loads = reasons
        .iter()
        .filter(|r| r.contains("did not load within 2000 ms (--load-timeout)"))
        .count();
    assert!(slow_loads >= 2, "{reasons:#?}");
    if ghc {
        let timed_out = reasons
            .iter()
            .filter(|r| r.contains("the compile took longer than 20 s (--compile-timeout)"))
            .filter(|r| !r.contains("(the same build failed before)"))
            .count();
        let remembered = reasons
            .iter()
            .filter(|r| r.contains("(the same build failed before)"))
            .count();
        // Compiled once (the first game), remembered for the others.
        assert_eq!(timed_out, 1, "{reasons:#?}");
        assert!(remembered >= 2, "{reasons:#?}");
    }
    // Nowhere near the 600 s the submissions asked for.
    assert!(took < Duration::from_secs(300), "{took:?}");
    assert_eq!(base.leftovers(), Vec::<String>::new());
}

#[test]
fn sigterm_and_sigint_leave_no_run_folder_cgroup_or_process() {
    for signal in [libc::SIGTERM, libc::SIGINT] {
        let (base, class) =
            Base::with_class("signal", &["runaway/steady.py", "runaway/sleeper.py"]);
        let child = base
            .arena(&[
                "class",
                class.to_str().unwrap(),
                "--depth",
                "2",
                "--move-timeout",
                "120000",
            ])
            .args(unsandboxed())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Until the sleeper's driver runs: a run folder exists and a process names the class.
        let runs = wait_for_a_driver(&base, &class, "board-call-");
        std::thread::sleep(Duration::from_millis(500));
        let out = signalled(child, signal);
        assert_eq!(out.status.code(), Some(130), "{}", text(&out));
        assert_nothing_left(&base, signal, &runs);
    }
}

/// `arena class` killed outright (SIGKILL, as the OOM killer does) cannot clean up: its
/// adapters die with it and leave their run folders (and cgroups); the next class run removes
/// them at its first run.
#[test]
fn what_a_killed_class_left_is_removed_by_the_next_run() {
    let (base, class) = Base::with_class("sigkill", &["runaway/steady.py", "runaway/sleeper.py"]);
    let args = ["class", class.to_str().unwrap(), "--depth", "2"];
    let mut child = base
        .arena(&args)
        .args(["--move-timeout", "120000"])
        .args(unsandboxed())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let runs = || run_folders(&base, "board-call-");
    wait_for_a_driver(&base, &class, "board-call-");
    std::thread::sleep(Duration::from_millis(500));
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(base.leftovers(), Vec::<String>::new());
    let left = runs();
    assert!(!left.is_empty(), "SIGKILL left nothing to clean");
    // Its engines' cgroups (cgroup v1) with the adapters' runs inside, else the runs' own.
    let cgroups: Vec<PathBuf> = match sandbox::pids_cgroup() {
        Ok(parent) => cgroups_below(parent)
            .into_iter()
            .filter(|c| {
                let name = c.file_name().unwrap().to_string_lossy();
                name.starts_with(&format!("arena-engine-{}-", child.id()))
                    || left.iter().any(|r| *r == name)
            })
            .collect(),
        Err(_) => Vec::new(),
    };
    if sandbox::pids_cgroup().is_ok() {
        assert!(!cgroups.is_empty(), "SIGKILL left no cgroup to clean");
    }
    // The next run: one honest submission against itself is enough to start an adapter.
    let (next, _) = Base::with_class("sigkill-next", &["first.py", "greedy.py"]);
    let out = next
        .arena(&["class", next.class().to_str().unwrap(), "--depth", "1"])
        .env("TMPDIR", base.tmp())
        .args(unsandboxed())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(runs(), Vec::<String>::new(), "left before: {left:?}");
    for c in cgroups {
        assert!(!c.exists(), "cgroup {} left", c.display());
    }
}

#[test]
fn without_bubblewrap_a_class_stops_and_says_how_to_install_it() {
    let (base, class) = Base::with_class("no-bwrap", &["first.py", "greedy.py"]);
    // A PATH with Python and no bwrap.
    let bin = base.dir.join("bin");
    fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(sandbox::tool("python3"), bin.join("python3")).unwrap();
    let one_line = |o: &Output| {
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(!o.status.success(), "{}", text(o));
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(
            err.contains("apt-get install bubblewrap") && err.contains("--no-sandbox"),
            "{err}"
        );
    };
    let out = base
        .arena(&["class", class.to_str().unwrap(), "--depth", "2"])
        .env("PATH", &bin)
        .output()
        .unwrap();
    one_line(&out);
    assert!(out.stdout.is_empty(), "{}", text(&out));
    let function = format!("{}:oskaplayer", class.join("first.py").display());
    let out = Command::new(ENGINE)
        .args(["board-call", "--", &function])
        .env("PATH", &bin)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    one_line(&out);
    // With --no-sandbox the class is played, with a warning.
    let out = base
        .arena(&[
            "class",
            class.to_str().unwrap(),
            "--depth",
            "2",
            "--no-sandbox",
        ])
        .env("PATH", &bin)
        .output()
        .unwrap();
    let all = text(&out);
    assert!(out.status.success(), "{all}");
    assert!(all.contains("warning: --no-sandbox"), "{all}");
    assert!(all.contains("Finished game 2"), "{all}");
    assert_eq!(base.leftovers(), Vec::<String>::new());
}

#[test]
fn a_function_engine_stopped_by_a_signal_removes_its_runs() {
    use std::io::Write;
    for signal in [libc::SIGTERM, libc::SIGHUP] {
        let (base, class) = Base::with_class("engine-signal", &["runaway/sleeper.py"]);
        let function = format!("{}:oskaplayer", class.join("sleeper.py").display());
        let mut child = Command::new(ENGINE)
            .arg("board-call")
            .args(unsandboxed())
            .args(["--", &function])
            .env("TMPDIR", base.tmp())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(b"uci\nnewgame oska 4\ngo depth 2\n")
            .unwrap();
        let runs = wait_for_a_driver(&base, &class, "");
        let out = signalled(child, signal);
        drop(stdin);
        assert_eq!(out.status.code(), Some(128 + signal), "{}", text(&out));
        assert_nothing_left(&base, signal, &runs);
    }
}
