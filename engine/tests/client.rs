//! The client library tells apart the ways an engine can fail.

use std::time::{Duration, Instant};

use engine::client::{ClientError, Engine};
use engine::protocol::{Command, Go, Reply};

const ENGINE: &str = env!("CARGO_BIN_EXE_engine");
const T: Duration = Duration::from_secs(10);

#[tokio::test]
async fn handshake_and_typed_messages() {
    let mut e = Engine::start(ENGINE, &[] as &[&str], T).await.unwrap();
    assert!(e.info().name.starts_with("boardgames-engine"));
    assert_eq!(e.info().games.len(), 3);
    let options: Vec<&str> = e.info().options.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(options, ["Hash", "Trace", "Evaluator"]);
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
        ClientError::Crashed { status, stderr } => {
            assert_eq!(status.and_then(|s| s.code()), Some(3));
            assert_eq!(stderr, ["oops"]);
        }
        other => panic!("{other}"),
    }
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
