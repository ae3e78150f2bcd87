//! The client library tells apart the ways an engine can fail.

use std::time::{Duration, Instant};

use boardgames_core::protocol::{Command, Go, Reply};
use boardgames_tools::client::{ClientError, Engine};

const ENGINE: &str = env!("CARGO_BIN_EXE_engine");
const T: Duration = Duration::from_secs(10);

#[tokio::test]
async fn handshake_and_typed_messages() {
    let mut e = Engine::start(ENGINE, &[] as &[&str], T).await.unwrap();
    assert!(e.info().name.starts_with("boardgames-engine"));
    assert_eq!(e.info().games.len(), 3);
    let options: Vec<&str> = e.info().options.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(
        options,
        [
            "Hash",
            "Trace",
            "Evaluator",
            "TablebasePath",
            "MultiPV",
            "Threads"
        ]
    );
    e.send(&Command::Legal).await.unwrap();
    assert!(matches!(e.recv(T).await.unwrap(), Reply::Legal(m) if m.len() == 6));
    let r = e.go(Go::Depth(2), T).await.unwrap();
    assert!(r.best.is_some());
    assert!(e.ping(T).await.unwrap().is_empty());
    e.send(&Command::Go(Go::Infinite)).await.unwrap();
    let t = Instant::now();
    tokio::time::sleep(Duration::from_millis(20)).await;
    e.ping(T).await.unwrap();
    let t = t.elapsed();
    let r = e.stop(T).await.unwrap();
    assert!(r.best.is_some(), "{t:?}");
    let status = e.shutdown(T).await.unwrap();
    assert!(status.success());
}

#[tokio::test]
async fn failed_to_start() {
    let err = Engine::start("/nonexistent/engine", &["x"], T)
        .await
        .err()
        .unwrap();
    assert!(matches!(err, ClientError::Spawn { .. }), "{err}");
}

#[tokio::test]
async fn crashed_with_stderr() {
    let err = Engine::start("sh", &["-c", "echo oops >&2; exit 3"], T)
        .await
        .err()
        .unwrap();
    match err {
        ClientError::Crashed { status, stderr, .. } => {
            assert_eq!(status.and_then(|s| s.code()), Some(3));
            assert_eq!(stderr, ["oops"]);
        }
        other => panic!("{other}"),
    }
}

/// An engine that closes its output and keeps running is told apart from one that exits: the
/// error says what it did, and no exit status is made up.
#[tokio::test]
async fn closed_output_while_running_is_not_an_exit() {
    let t = Instant::now();
    let mut e = Engine::spawn("sh", &["-c", "exec 1>&-; echo gone >&2; sleep 30"]).unwrap();
    let err = e.recv(Duration::from_secs(20)).await.err().unwrap();
    match &err {
        ClientError::Crashed { status, closed, .. } => {
            assert_eq!(
                *closed,
                Some(boardgames_tools::client::Pipe::Stdout),
                "{err}"
            );
            assert_eq!(*status, None, "{err}");
        }
        other => panic!("{other}"),
    }
    assert!(
        err.to_string().starts_with(
            "the engine closed its standard output (still running); last stderr line: gone"
        ),
        "{err}"
    );
    assert!(t.elapsed() < Duration::from_secs(15), "{:?}", t.elapsed());
    assert!(e.id().is_some(), "it still runs");
    assert!(e.shutdown(Duration::from_millis(100)).await.is_err());
}

#[tokio::test]
async fn stalled() {
    let t = Instant::now();
    let err = Engine::start("sleep", &["30"], Duration::from_millis(200))
        .await
        .err()
        .unwrap();
    assert!(matches!(err, ClientError::Stalled { .. }), "{err}");
    assert!(
        t.elapsed() < Duration::from_secs(10),
        "the child is killed on drop"
    );
}

#[tokio::test]
async fn protocol_violation() {
    let err = Engine::start("echo", &["hello world"], T)
        .await
        .err()
        .unwrap();
    match err {
        ClientError::Protocol { line, .. } => assert_eq!(line, "hello world"),
        other => panic!("{other}"),
    }
}

#[tokio::test]
async fn shutdown_kills_an_engine_ignoring_quit() {
    let e = Engine::spawn("sleep", &["30"]).unwrap();
    let pid = e.id().unwrap();
    let t = Instant::now();
    let r = e.shutdown(Duration::from_millis(200)).await;
    assert!(matches!(r, Err(ClientError::Stalled { .. })));
    assert!(t.elapsed() < Duration::from_secs(5));
    // Reaped: no process (not even a zombie) with that id remains.
    assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists());
}

/// Whether a process is alive (zombies count as gone).
fn alive_now(pid: &str) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", pid.trim())).unwrap_or_default();
    !stat.is_empty()
        && !stat
            .rsplit(')')
            .next()
            .is_some_and(|s| s.trim_start().starts_with('Z'))
}

/// Whether a process is still alive after up to two seconds (a killed process may take a
/// moment to exit).
fn alive(pid: &str) -> bool {
    let deadline = Instant::now() + Duration::from_secs(2);
    while alive_now(pid) {
        if Instant::now() > deadline {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// Waits up to five seconds for `path` to hold a pid.
async fn read_pid(path: &std::path::Path) -> String {
    for _ in 0..100 {
        if let Ok(p) = std::fs::read_to_string(path)
            && p.trim().parse::<u32>().is_ok()
        {
            return p.trim().to_string();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no pid in {}", path.display());
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("client-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A wrapper script without `exec` whose child ignores `quit` and SIGTERM: shutting the engine
/// down ends the child too (the whole process group).
#[tokio::test]
async fn shutdown_ends_the_whole_process_group() {
    let dir = scratch("group");
    let pidfile = dir.join("child.pid");
    let child = format!(
        "trap '' TERM; echo \\$\\$ > {}; while :; do sleep 1; done",
        pidfile.display()
    );
    let e = Engine::spawn("sh", &["-c", &format!("sh -c \"{child}\"; echo after")]).unwrap();
    let pid = read_pid(&pidfile).await;
    assert!(alive_now(&pid));
    let r = e.shutdown(Duration::from_millis(200)).await;
    assert!(matches!(r, Err(ClientError::Stalled { .. })), "{r:?}");
    assert!(
        !alive(&pid),
        "the wrapper's child {pid} outlived the shutdown"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Dropping an engine ends its group as well.
#[tokio::test]
async fn drop_ends_the_whole_process_group() {
    let dir = scratch("drop");
    let pidfile = dir.join("child.pid");
    let child = format!("echo $$ > {}; exec sleep 30", pidfile.display());
    let e = Engine::spawn("sh", &["-c", &format!("sh -c '{child}'; echo after")]).unwrap();
    let pid = read_pid(&pidfile).await;
    drop(e);
    assert!(
        !alive(&pid),
        "the wrapper's child {pid} outlived the engine"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// An engine that exits while a child of it keeps its output open has crashed (with its status),
/// it has not stalled; the child is ended.
#[tokio::test]
async fn exit_is_a_crash_even_when_a_child_holds_the_output() {
    let dir = scratch("crash");
    let pidfile = dir.join("child.pid");
    let script = format!(
        "read line; sleep 30 & echo $! > {}; echo oops >&2; exit 3",
        pidfile.display()
    );
    let t = Instant::now();
    let err = Engine::start("sh", &["-c", &script], Duration::from_secs(20))
        .await
        .err()
        .unwrap();
    match &err {
        ClientError::Crashed { status, .. } => {
            assert_eq!(status.and_then(|s| s.code()), Some(3), "{err}")
        }
        other => panic!("{other}"),
    }
    assert!(err.to_string().contains("(exit status: 3)"), "{err}");
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    let pid = read_pid(&pidfile).await;
    assert!(!alive(&pid), "the engine's child {pid} was left running");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `bestmove` nobody asked for is a protocol violation, not the answer to the next `go`.
#[tokio::test]
async fn a_bestmove_with_no_go_pending_is_a_violation() {
    let script = "read l; echo uciok; read l; echo bestmove a1a2; echo bestmove a1a2; \
                  read l; echo readyok; sleep 5";
    let mut e = Engine::start("sh", &["-c", script], T).await.unwrap();
    let r = e.go(Go::Depth(1), T).await.unwrap();
    assert_eq!(r.best.map(|m| m.to_string()).as_deref(), Some("a1a2"));
    let err = e.ping(T).await.unwrap_err();
    match &err {
        ClientError::Protocol { line, why } => {
            assert_eq!(line, "bestmove a1a2");
            assert!(why.contains("no go pending"), "{why}");
        }
        other => panic!("{other}"),
    }
}

/// What [`engine_dies_with_its_killed_client`] looks for in its helper's output.
const PID_LINE: &str = "helper: engine pid ";

/// Not a test on its own: the client program that [`engine_dies_with_its_killed_client`] runs in
/// a process of its own and SIGKILLs. It starts our engine from a thread that then ends (the
/// parent-death signal must not be tied to that thread), asks it to solve Oska 8 (which takes
/// minutes, and which end of input does not stop), prints the engine's pid and waits.
#[test]
#[ignore = "a helper process of engine_dies_with_its_killed_client"]
fn helper_client_that_gets_killed() {
    let pid = std::thread::spawn(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let engine = runtime.block_on(async {
            let mut e = Engine::start(ENGINE, &[] as &[&str], T).await.unwrap();
            e.send(&Command::parse("newgame oska 8").unwrap())
                .await
                .unwrap();
            e.ping(T).await.unwrap();
            e.send(&Command::Go(Go::Solve)).await.unwrap();
            e
        });
        let pid = engine.id().unwrap();
        // Neither the engine nor its runtime may kill the process when this thread ends.
        std::mem::forget(engine);
        std::mem::forget(runtime);
        pid
    })
    .join()
    .unwrap();
    println!("{PID_LINE}{pid}");
    std::thread::sleep(Duration::from_secs(60));
}

/// A client (GUI, arena) killed with SIGKILL in the middle of a `go solve` takes its engine
/// with it (Linux: the parent-death signal), within a few seconds.
#[cfg(target_os = "linux")]
#[test]
fn engine_dies_with_its_killed_client() {
    use std::io::BufRead;
    use std::process::Stdio;
    let mut helper = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "client::helper_client_that_gets_killed",
            "--ignored",
            "--nocapture",
        ])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let out = std::io::BufReader::new(helper.stdout.take().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in out.lines().map_while(Result::ok) {
            if let Some(pid) = line.strip_prefix(PID_LINE) {
                let _ = tx.send(pid.to_string());
            }
        }
    });
    let pid = rx.recv_timeout(Duration::from_secs(60));
    let Ok(pid) = pid else {
        let _ = helper.kill();
        panic!("the helper printed no engine pid: {pid:?}");
    };
    // Solving, although the thread that started it has ended.
    std::thread::sleep(Duration::from_millis(300));
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    let running = alive_now(&pid) && String::from_utf8_lossy(&cmdline).contains("engine");
    helper.kill().unwrap();
    helper.wait().unwrap();
    let outlived = alive(&pid);
    if outlived || !running {
        // Leave nothing behind, whatever failed.
        let _ = std::process::Command::new("kill")
            .args(["-9", &pid])
            .status();
    }
    assert!(
        running,
        "engine {pid} was not running before its client was killed"
    );
    assert!(!outlived, "engine {pid} outlived its client by two seconds");
}
