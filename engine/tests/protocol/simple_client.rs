//! The position-level client (`boardgames_tools::client::simple` and `boardgames_tools::client::blocking`) against
//! our engine binary, and against fake engines that crash or hang: typed results and errors,
//! `newgame` only when the game or size changes, and no process left behind.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use boardgames_core::games::GameKind;
use boardgames_core::games::notation::MoveText;
use boardgames_core::protocol::{Clock, Command, ErrorCode, Go, Info, Reply};
use boardgames_tools::client::blocking;
use boardgames_tools::client::{
    ClientError, Direction, Engine, EngineError, Limit, Position, SimpleEngine, Strictness,
    pv_moves,
};

const ENGINE: &str = env!("CARGO_BIN_EXE_engine");
const NO_ARGS: [&str; 0] = [];

fn mv(text: &str) -> MoveText {
    MoveText::parse(text).unwrap()
}

/// Whether the process `pid` is gone (or a zombie), waiting up to two seconds.
fn gone(pid: u32) -> bool {
    for _ in 0..200 {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"));
        match stat {
            Err(_) => return true,
            Ok(s)
                if s.rsplit(')')
                    .next()
                    .is_some_and(|r| r.trim_start().starts_with('Z')) =>
            {
                return true;
            }
            Ok(_) => std::thread::sleep(Duration::from_millis(10)),
        }
    }
    false
}

/// A fake engine: a shell script that does the handshake for Hexapawn 3 to 5 and answers
/// `isready`, and on `go` runs `on_go`.
fn fake(name: &str, on_go: &str) -> (tempfile_dir::Dir, String) {
    write_script(
        name,
        format!(
            "while read -r l; do case \"$l\" in\n\
             uci) printf 'id name fake\\nid author nobody\\ngame hexapawn 3 5\\nuciok\\n';;\n\
             isready) echo readyok;;\n\
             go*) {on_go};;\n\
             quit) exit 0;;\n\
             esac; done\n"
        ),
    )
}

/// Writes `script` as `fake.sh` in a new scratch directory named after `name`: the directory
/// and the script's path.
fn write_script(name: &str, script: String) -> (tempfile_dir::Dir, String) {
    let dir = tempfile_dir::Dir::new(name);
    let path = dir.0.join("fake.sh");
    std::fs::write(&path, script).unwrap();
    let p = path.display().to_string();
    (dir, p)
}

/// A scratch directory removed at the end.
mod tempfile_dir {
    use std::path::PathBuf;

    pub struct Dir(pub PathBuf);

    impl Dir {
        pub fn new(name: &str) -> Dir {
            let d =
                std::env::temp_dir().join(format!("simple-client-{}-{name}", std::process::id()));
            let _ = std::fs::remove_dir_all(&d);
            std::fs::create_dir_all(&d).unwrap();
            Dir(d)
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// `e` still plays a move from Oska 4's start (to `depth`), then quits cleanly.
async fn plays_then_quits(mut e: SimpleEngine, depth: u32) {
    let r = e
        .play(&Position::start(GameKind::Oska, 4), &Limit::Depth(depth))
        .await
        .unwrap();
    assert!(r.best.is_some());
    e.quit().await.unwrap();
}

#[tokio::test]
async fn play_sends_newgame_only_when_the_game_or_size_changes() {
    let sent = Arc::new(Mutex::new(Vec::<String>::new()));
    let log = Arc::clone(&sent);
    let tap = Arc::new(move |d: Direction, l: &str| {
        if d == Direction::Sent {
            log.lock().unwrap().push(l.to_string());
        }
    });
    let e = Engine::start_tapped(ENGINE, &NO_ARGS, Duration::from_secs(10), Some(tap))
        .await
        .unwrap();
    let mut e = SimpleEngine::from_engine(e, Duration::from_secs(10));
    let start = Position::start(GameKind::Hexapawn, 3);
    let r = e.play(&start, &Limit::Depth(3)).await.unwrap();
    let best = r.best.expect("a move from the start");
    let info = r.info.expect("an info depth line");
    assert_eq!(pv_moves(&info).first(), Some(&best));
    let r = e
        .play(&start.clone().then(best), &Limit::Nodes(500))
        .await
        .unwrap();
    assert!(r.best.is_some());
    e.play(&Position::start(GameKind::Hexapawn, 4), &Limit::Depth(2))
        .await
        .unwrap();
    e.play(
        &Position::start(GameKind::Ctf, 5),
        &Limit::MoveTime(Duration::from_millis(20)),
    )
    .await
    .unwrap();
    let newgames: Vec<String> = sent
        .lock()
        .unwrap()
        .iter()
        .filter(|l| l.starts_with("newgame"))
        .cloned()
        .collect();
    assert_eq!(
        newgames,
        ["newgame hexapawn 3", "newgame hexapawn 4", "newgame ctf 5"]
    );
    e.quit().await.unwrap();
}

#[tokio::test]
async fn analyse_gives_one_line_per_pv_and_restores_multipv() {
    let mut e = SimpleEngine::start(ENGINE, &NO_ARGS).await.unwrap();
    let pos = Position::start(GameKind::Hexapawn, 3).then(mv("a1a2"));
    let lines = e.analyse(&pos, &Limit::Depth(3), 3).await.unwrap();
    let ks: Vec<Option<u32>> = lines.iter().map(|l| l.multipv).collect();
    assert_eq!(ks, [Some(1), Some(2), Some(3)]);
    assert!(lines.iter().all(|l| l.depth == 3), "{lines:?}");
    assert_eq!(pv_moves(&lines[0])[0], mv("b3a2"));
    // MultiPV is back to 1: a plain search prints lines without `multipv`.
    let r = e.play(&pos, &Limit::Depth(3)).await.unwrap();
    assert!(
        r.replies.iter().all(
            |x| !matches!(x, boardgames_core::protocol::Reply::Info(Info::Search(i)) if i.multipv.is_some())
        ),
        "{:?}",
        r.replies
    );
    let one = e.analyse(&pos, &Limit::Depth(2), 1).await.unwrap();
    assert_eq!(one.len(), 1);
    e.quit().await.unwrap();
}

#[tokio::test]
async fn analysis_streams_infos_until_stopped() {
    let mut e = SimpleEngine::start(ENGINE, &NO_ARGS).await.unwrap();
    let pos = Position::start(GameKind::Ctf, 7);
    let mut a = e.analysis(&pos, &Limit::Infinite).await.unwrap();
    let mut depths = 0;
    while depths < 3 {
        match a.next(Duration::from_secs(10)).await.unwrap() {
            Some(Info::Search(_)) => depths += 1,
            Some(_) => {}
            None => panic!("an infinite search ended by itself"),
        }
    }
    let r = a.stop().await.unwrap();
    assert!(r.best.is_some());
    // A search left running is stopped by the next call.
    let a = e.analysis(&pos, &Limit::Infinite).await.unwrap();
    drop(a);
    let r = e.play(&pos, &Limit::Depth(1)).await.unwrap();
    assert!(r.best.is_some());
    // A search that ends by itself ends the stream.
    let mut a = e
        .analysis(&Position::start(GameKind::Hexapawn, 3), &Limit::Depth(2))
        .await
        .unwrap();
    while a.next(Duration::from_secs(10)).await.unwrap().is_some() {}
    assert!(a.stop().await.unwrap().best.is_some());
    e.quit().await.unwrap();
}

#[tokio::test]
async fn refusals_are_typed() {
    let mut e = SimpleEngine::start(ENGINE, &NO_ARGS).await.unwrap();
    e.configure(&[("Hash", "32"), ("evaluator", "material")])
        .await
        .unwrap();
    match e.configure(&[("Ponder", "true")]).await {
        Err(EngineError::NoSuchOption { name }) => assert_eq!(name, "Ponder"),
        other => panic!("{other:?}"),
    }
    match e.configure(&[("MultiPV", "0")]).await {
        Err(EngineError::Refused { code, command, .. }) => {
            assert_eq!(code, ErrorCode::BadValue);
            assert_eq!(command, "setoption name MultiPV value 0");
        }
        other => panic!("{other:?}"),
    }
    let bad = Position::start(GameKind::Hexapawn, 3).then(mv("a1a3"));
    match e.play(&bad, &Limit::Depth(1)).await {
        Err(EngineError::Refused { code, .. }) => assert_eq!(code, ErrorCode::IllegalMove),
        other => panic!("{other:?}"),
    }
    match e
        .play(&Position::start(GameKind::Oska, 12), &Limit::Depth(1))
        .await
    {
        Err(EngineError::Refused { code, .. }) => assert_eq!(code, ErrorCode::Unsupported),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        e.play(&Position::start(GameKind::Oska, 4), &Limit::Infinite)
            .await,
        Err(EngineError::Usage(_))
    ));
    // A finished game: no move, and its result.
    let over = Position::board(
        GameKind::Hexapawn,
        3,
        "---/-b-/w--".parse().unwrap(),
        boardgames_core::games::Side::Black,
    );
    let r = e.play(&over, &Limit::Depth(2)).await.unwrap();
    assert_eq!(r.best, None);
    assert_eq!(r.result.map(|g| g.reason), Some("far-row".to_string()));
    // The engine still plays after all that.
    plays_then_quits(e, 2).await;
}

#[tokio::test]
async fn a_crashing_engine_gives_a_typed_error_and_leaves_no_process() {
    let (_dir, script) = fake("crash", "echo dying >&2; exit 3");
    let mut e = SimpleEngine::start("sh", &[script]).await.unwrap();
    let pid = e.id().unwrap();
    let r = e
        .play(&Position::start(GameKind::Hexapawn, 3), &Limit::Depth(2))
        .await;
    match r {
        Err(EngineError::Client(ClientError::Crashed { status, stderr, .. })) => {
            assert_eq!(status.and_then(|s| s.code()), Some(3));
            assert_eq!(stderr.last().map(String::as_str), Some("dying"));
        }
        other => panic!("{other:?}"),
    }
    let _ = e.quit().await;
    assert!(gone(pid));
}

#[tokio::test]
async fn a_hanging_engine_stalls_within_the_timeout_and_leaves_no_process() {
    let (_dir, script) = fake("hang", "sleep 3600");
    let mut e = SimpleEngine::start_with("sh", &[script], Duration::from_millis(300))
        .await
        .unwrap();
    let pid = e.id().unwrap();
    let t0 = std::time::Instant::now();
    let r = e
        .play(&Position::start(GameKind::Hexapawn, 3), &Limit::Depth(2))
        .await;
    assert!(
        matches!(r, Err(EngineError::Client(ClientError::Stalled { .. }))),
        "{r:?}"
    );
    assert!(t0.elapsed() < Duration::from_secs(5));
    let _ = e.quit().await;
    assert!(gone(pid));
}

#[test]
fn the_blocking_client_plays_without_tokio_and_leaves_no_process() {
    let mut e = blocking::SimpleEngine::start(ENGINE, &NO_ARGS).unwrap();
    let pid = e.id().unwrap();
    let pos = Position::start(GameKind::Oska, 4);
    let r = e.play(&pos, &Limit::Depth(3)).unwrap();
    assert!(r.best.is_some());
    let lines = e.analyse(&pos, &Limit::Depth(2), 2).unwrap();
    assert_eq!(lines.len(), 2);
    let mut a = e
        .analysis(&Position::start(GameKind::Ctf, 7), &Limit::Infinite)
        .unwrap();
    assert!(a.next(Duration::from_secs(10)).unwrap().is_some());
    assert!(a.stop().unwrap().best.is_some());
    drop(e);
    assert!(gone(pid));
    // A hanging engine, dropped while searching.
    let (_dir, script) = fake("blocking-hang", "sleep 3600");
    let mut e =
        blocking::SimpleEngine::start_with("sh", &[script], Duration::from_millis(300)).unwrap();
    let pid = e.id().unwrap();
    assert!(
        e.play(&Position::start(GameKind::Hexapawn, 3), &Limit::Depth(2))
            .is_err()
    );
    drop(e);
    assert!(gone(pid));
}

/// The example of docs/scripting.md ("From Rust"), word for word between the marker lines
/// (checked by `the_scripting_page_shows_this_example`).
mod scripting_example {
    use boardgames_core::games::GameKind;
    use boardgames_tools::client::blocking::SimpleEngine;
    use boardgames_tools::client::{EngineError, Limit, Position, pv_moves};

    // The page's example begins.
    pub fn oska_best_moves(program: &str) -> Result<(), EngineError> {
        let mut e = SimpleEngine::start(program, &[] as &[&str])?;
        e.configure(&[("Hash", "64")])?;
        let start = Position::start(GameKind::Oska, 4);
        let played = e.play(&start, &Limit::Depth(4))?;
        let best = played.best.expect("the start is not a finished game");
        println!("bestmove {best}, ponder {:?}", played.ponder);
        for line in e.analyse(&start.then(best), &Limit::Depth(4), 3)? {
            println!("{} {}", line.score, pv_moves(&line)[0]);
        }
        e.quit()?;
        Ok(())
    }
    // The page's example ends.
}

#[test]
fn the_scripting_page_example_runs() {
    scripting_example::oska_best_moves(ENGINE).unwrap();
}

#[test]
fn the_scripting_page_shows_this_example() {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/scripting.md"))
            .unwrap();
    let block = page
        .split("```rust\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a rust block in docs/scripting.md");
    let source = include_str!("simple_client.rs");
    let begin = "// The page's example begins.\n";
    let code = &source[source.find(begin).unwrap() + begin.len()..];
    let code = &code[..code.find("    // The page's example ends.").unwrap()];
    let code: String = code
        .lines()
        .map(|l| {
            l.strip_prefix("    ")
                .unwrap_or(l)
                .replacen("pub fn", "fn", 1)
        })
        .map(|l| l + "\n")
        .collect();
    assert_eq!(block, code);
}

/// A fake engine of the `case` arms `arms` (each ending in `;;`): a shell script that does the
/// handshake for Hexapawn 3 to 5 (and declares the option Hash), and quits on `quit`.
fn scripted(name: &str, arms: &str) -> (tempfile_dir::Dir, String) {
    write_script(
        name,
        format!(
            "while read -r l; do case \"$l\" in\n\
             uci) printf 'id name fake\\ngame hexapawn 3 5\\n\
             option name Hash type spin default 16 min 1 max 64\\nuciok\\n';;\n\
             {arms}\n\
             quit) exit 0;;\n\
             esac; done\n"
        ),
    )
}

/// The lines sent to an engine, and a tap that records them.
fn sent_lines() -> (Arc<Mutex<Vec<String>>>, boardgames_tools::client::Tap) {
    let sent = Arc::new(Mutex::new(Vec::<String>::new()));
    let log = Arc::clone(&sent);
    let tap = Arc::new(move |d: Direction, l: &str| {
        if d == Direction::Sent {
            log.lock().unwrap().push(l.to_string());
        }
    });
    (sent, tap)
}

#[tokio::test]
async fn a_lenient_client_plays_with_an_engine_that_never_answers_isready() {
    let (_dir, script) = scripted(
        "no-isready",
        "go*) echo 'info depth 1 score cp 5 nodes 3 nps 300 time 10 pv a1a2'; echo 'bestmove a1a2';;",
    );
    let start = Position::start(GameKind::Hexapawn, 3);
    // Strict: the position's check is never answered.
    let mut e = SimpleEngine::start_with("sh", &[&script], Duration::from_millis(300))
        .await
        .unwrap();
    let r = e.play(&start, &Limit::Depth(2)).await;
    assert!(
        matches!(r, Err(EngineError::Client(ClientError::Stalled { .. }))),
        "{r:?}"
    );
    let _ = e.quit().await;
    // Lenient: `newgame` and `position` go unchecked, and the engine plays.
    let (sent, tap) = sent_lines();
    let engine = Engine::start_tapped("sh", &[&script], Duration::from_secs(10), Some(tap))
        .await
        .unwrap();
    let mut e = SimpleEngine::from_engine(engine, Duration::from_millis(300));
    e.set_strictness(Strictness::Lenient);
    assert_eq!(e.strictness(), Strictness::Lenient);
    let r = e.play(&start, &Limit::Depth(2)).await.unwrap();
    assert_eq!(r.best, Some(mv("a1a2")));
    assert_eq!(r.info.map(|i| i.depth), Some(1));
    let r = e.play(&start.then(mv("a1a2")), &Limit::Depth(2)).await;
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(
        *sent.lock().unwrap(),
        [
            "uci",
            "newgame hexapawn 3",
            "position startpos",
            "go depth 2",
            "position startpos moves a1a2",
            "go depth 2",
        ]
    );
    e.quit().await.unwrap();
}

#[tokio::test]
async fn a_lenient_client_sends_undeclared_options_and_the_engine_decides() {
    let (_dir, script) = scripted(
        "options",
        "'setoption name Bad'*) echo 'error unsupported there is no option Bad';;\n\
         isready) echo readyok;;",
    );
    let (sent, tap) = sent_lines();
    let engine = Engine::start_tapped("sh", &[&script], Duration::from_secs(10), Some(tap))
        .await
        .unwrap();
    let mut e = SimpleEngine::from_engine(engine, Duration::from_secs(10));
    // Strict: refused here, never sent.
    match e.configure(&[("Bad", "1")]).await {
        Err(EngineError::NoSuchOption { name }) => assert_eq!(name, "Bad"),
        other => panic!("{other:?}"),
    }
    assert!(!sent.lock().unwrap().iter().any(|l| l.contains("Bad")));
    // Lenient: sent, and the engine's own refusal is the error.
    e.set_strictness(Strictness::Lenient);
    match e.configure(&[("Bad", "1")]).await {
        Err(EngineError::Refused {
            command,
            code,
            message,
        }) => {
            assert_eq!(command, "setoption name Bad value 1");
            assert_eq!(code, ErrorCode::Unsupported);
            assert_eq!(message, "there is no option Bad");
        }
        other => panic!("{other:?}"),
    }
    // An undeclared option the engine takes in silence is set.
    e.configure(&[("Quiet", "true"), ("Hash", "32")])
        .await
        .unwrap();
    assert!(
        sent.lock()
            .unwrap()
            .iter()
            .any(|l| l == "setoption name Quiet value true")
    );
    e.quit().await.unwrap();
}

#[tokio::test]
async fn a_ping_tells_a_long_silent_search_from_a_hung_engine() {
    // The move comes after a second of silence; the engine keeps reading meanwhile.
    let (_dir, script) = scripted(
        "silent",
        "go*) (sleep 1; echo 'bestmove a1a2') &;;\n\
         isready) echo readyok;;",
    );
    let mut e = SimpleEngine::start("sh", &[&script]).await.unwrap();
    let start = Position::start(GameKind::Hexapawn, 3);
    let mut a = e.analysis(&start, &Limit::Depth(30)).await.unwrap();
    let r = a.next(Duration::from_millis(200)).await;
    assert!(
        matches!(r, Err(EngineError::Client(ClientError::Stalled { .. }))),
        "{r:?}"
    );
    assert_eq!(a.ping(Duration::from_secs(5)).await.unwrap(), Vec::new());
    assert_eq!(a.next(Duration::from_secs(5)).await.unwrap(), None);
    assert_eq!(a.stop().await.unwrap().best, Some(mv("a1a2")));
    e.quit().await.unwrap();
    // An engine that stops reading does not answer the ping.
    let (_dir, script) = scripted("hung-ping", "go*) sleep 3600;;\nisready) echo readyok;;");
    let mut e = SimpleEngine::start("sh", &[&script]).await.unwrap();
    let mut a = e.analysis(&start, &Limit::Depth(30)).await.unwrap();
    let r = a.ping(Duration::from_millis(300)).await;
    match r {
        Err(EngineError::Client(ClientError::Stalled { waiting_for, after })) => {
            assert_eq!(waiting_for, "readyok");
            assert_eq!(after, Duration::from_millis(300));
        }
        other => panic!("{other:?}"),
    }
    drop(a);
    let pid = e.id().unwrap();
    let _ = e.quit_within(Duration::from_millis(100)).await;
    assert!(gone(pid));
}

#[tokio::test]
async fn a_search_that_ends_during_a_ping_leaves_no_readyok_behind() {
    // The engine reads one line at a time and takes half a second over `isready`; the move
    // comes first. Then a `setoption` is refused: its `error` comes after the first `readyok`,
    // which must not be taken for the answer to the `setoption`'s own `isready`.
    let (_dir, script) = scripted(
        "late-readyok",
        "go*) (sleep 0.2; echo 'bestmove a1a2') &;;\n\
         isready) sleep 0.5; echo readyok;;\n\
         'setoption name Hash'*) echo 'error bad-value not now';;",
    );
    let engine = Engine::start("sh", &[&script], Duration::from_secs(10))
        .await
        .unwrap();
    let mut e = SimpleEngine::from_engine(engine, Duration::from_secs(10));
    e.set_strictness(Strictness::Lenient);
    let start = Position::start(GameKind::Hexapawn, 3);
    let mut a = e.analysis(&start, &Limit::Depth(30)).await.unwrap();
    let t0 = std::time::Instant::now();
    assert_eq!(a.ping(Duration::from_secs(5)).await.unwrap(), Vec::new());
    assert!(
        t0.elapsed() < Duration::from_millis(450),
        "{:?}",
        t0.elapsed()
    );
    assert_eq!(a.next(Duration::from_secs(5)).await.unwrap(), None);
    assert_eq!(a.stop().await.unwrap().best, Some(mv("a1a2")));
    match e.configure(&[("Hash", "32")]).await {
        Err(EngineError::Refused { code, message, .. }) => {
            assert_eq!(code, ErrorCode::BadValue);
            assert_eq!(message, "not now");
        }
        other => panic!("{other:?}"),
    }
    e.quit().await.unwrap();
}

#[tokio::test]
async fn a_stopped_analysis_keeps_the_lines_seen_before_the_stop_first() {
    let mut e = SimpleEngine::start(ENGINE, &NO_ARGS).await.unwrap();
    let mut a = e
        .analysis(&Position::start(GameKind::Ctf, 7), &Limit::Infinite)
        .await
        .unwrap();
    while a.replies().len() < 2 {
        a.next(Duration::from_secs(10)).await.unwrap();
    }
    let seen = a.replies().to_vec();
    let r = a.stop_within(Duration::from_secs(10)).await.unwrap();
    assert!(r.best.is_some());
    assert_eq!(r.replies[..seen.len()], seen[..]);
    e.quit().await.unwrap();
}

#[tokio::test]
async fn solve_and_perft_are_limits_too() {
    for go in [
        Go::Depth(3),
        Go::Nodes(100),
        Go::MoveTime(20),
        Go::Infinite,
        Go::Solve,
        Go::Perft(2),
        Go::Clock(Clock {
            wtime: 1000,
            btime: 2000,
            winc: 10,
            binc: 20,
            movestogo: Some(5),
        }),
    ] {
        assert_eq!(Limit::from(go).go(), go);
    }
    let mut e = SimpleEngine::start(ENGINE, &NO_ARGS).await.unwrap();
    let start = Position::start(GameKind::Hexapawn, 3);
    let r = e.play(&start, &Limit::Perft(2)).await.unwrap();
    assert_eq!(r.best, None);
    let counted: u64 = r
        .replies
        .iter()
        .filter_map(|x| match x {
            Reply::Perft { nodes, .. } => Some(*nodes),
            _ => None,
        })
        .sum();
    assert!(
        r.replies.contains(&Reply::Nodes(counted)),
        "{:?}",
        r.replies
    );
    assert!(counted > 0);
    let r = e.play(&start, &Limit::Solve).await.unwrap();
    assert!(r.best.is_some());
    e.quit().await.unwrap();
}

#[tokio::test]
async fn command_sends_what_no_other_call_does() {
    let mut e = SimpleEngine::start(ENGINE, &NO_ARGS).await.unwrap();
    assert!(matches!(
        e.command(&Command::Go(Go::Depth(1))).await,
        Err(EngineError::Usage(_))
    ));
    e.command(&Command::NewGame {
        game: GameKind::Hexapawn,
        size: 3,
    })
    .await
    .unwrap();
    e.command(&Position::start(GameKind::Hexapawn, 3).command())
        .await
        .unwrap();
    let replies = e.command(&Command::Legal).await.unwrap();
    assert!(
        replies
            .iter()
            .any(|r| matches!(r, Reply::Legal(m) if m.len() == 3)),
        "{replies:?}"
    );
    // The engine's game may have changed: the next search starts a new one.
    plays_then_quits(e, 1).await;
}
