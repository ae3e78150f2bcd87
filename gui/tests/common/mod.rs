//! What the GUI tests share: our engine binary (built once if it is missing), stepping the app
//! until something happens, and fake engines written as shell scripts.

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::Once;
use std::time::{Duration, Instant};

use boardgames_core::games::GameKind;
use egui_kittest::Harness;
use gui::app::{Limit, Player};
use gui::{GuiApp, Settings};

/// The path of `target/debug/engine`, which is built (once per test binary) if it is missing.
pub fn engine_path() -> PathBuf {
    static BUILD: Once = Once::new();
    let path = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../target/debug/engine"
    ));
    BUILD.call_once(|| {
        if !path.is_file() {
            let status = std::process::Command::new(env!("CARGO"))
                .args(["build", "-p", "engine", "--bin", "engine"])
                .status()
                .expect("cargo runs");
            assert!(status.success(), "building the engine failed");
        }
    });
    path
}

/// Steps the app until `done` holds (real time passes: engines run on their own threads); fails
/// after a minute, saying what it waited for.
pub fn wait_for(h: &mut Harness<'static, GuiApp>, what: &str, done: impl Fn(&GuiApp) -> bool) {
    let start = Instant::now();
    while !done(h.state()) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "timed out waiting for {what}; status: {:?}, halted: {:?}",
            h.state().model().message(),
            h.state().model().halted()
        );
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    h.run_steps(2);
}

/// Starts Oska 4 after White's `a1a2` and steps the app until Black's engine has reported a
/// search line (`what` names it if it never comes).
pub fn black_reports_after_a1a2(h: &mut Harness<'static, GuiApp>, what: &str) {
    h.state_mut()
        .start_from_args(&["oska".into(), "4".into(), "a1a2".into()]);
    wait_for(h, what, |a| {
        a.model().engine_views()[1]
            .as_ref()
            .is_some_and(|v| v.info.is_some())
    });
}

/// Writes an executable shell script (a fake engine) into a temporary folder of its own (one
/// per call: the tests share a process, and two may name their scripts alike).
pub fn write_script(name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    use std::sync::atomic::{AtomicUsize, Ordering};
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("gui-test-{}-{n}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("engine.sh");
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).expect("write script");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path
}

/// Writes a fake engine (see [`write_script`]; its folder named after `id`) that reads its
/// input line by line: it answers `uci` with `id name ID` and `uciok`, and any other line as
/// the shell `case` arms `arms` say (lines `PATTERN) COMMANDS;;`); a line no arm matches is
/// ignored.
pub fn fake_engine(id: &str, arms: &str) -> PathBuf {
    write_script(
        id,
        &format!(
            "while read line; do case \"$line\" in\n\
             uci) echo 'id name {id}'; echo uciok;;\n\
             {arms}esac; done\n"
        ),
    )
}

/// Builds every table of the game `G` at `size` into a fresh temporary directory named after
/// `name` (seconds for Oska 4); returns the directory.
pub fn tables<G: boardgames_core::tablebase::Retro>(name: &str, size: usize) -> PathBuf {
    use boardgames_core::tablebase::build::{Plan, build};
    let dir = std::env::temp_dir().join(format!("gui-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let plan = Plan {
        size,
        max_pieces: size,
        threads: 1,
    };
    build::<G>(plan, &|_| {}, &mut |header, values| {
        boardgames_core::tablebase::file::write(&dir, header, values).map(|_| ())
    })
    .expect("the tables build");
    dir
}

/// Plays Hexapawn 3 out between our engine at depth 3 on both sides, in a window of `window`
/// size; returns the window at the game's end.
pub fn engine_game_played_out(window: [f32; 2]) -> Harness<'static, GuiApp> {
    let e = engine_path();
    let mut h = harness(
        GameKind::Hexapawn,
        3,
        [engine(e.clone(), 3), engine(e, 3)],
        window,
    );
    wait_for(&mut h, "the end of the game", |a| {
        a.model().game().outcome(a.model().game().len()).is_some()
    });
    h
}

/// The error of setting up `board` of `kind` with `side` to move, which must be refused (the
/// panic says `refused`, what the test expected).
pub fn refused_position(
    h: &mut Harness<'static, GuiApp>,
    kind: GameKind,
    board: &str,
    side: boardgames_core::games::Side,
    refused: &str,
) -> String {
    h.state_mut()
        .model_mut()
        .set_position(kind, board, side)
        .expect_err(refused)
        .to_string()
}

/// A player that is an engine program limited to `depth` plies.
pub fn engine(program: PathBuf, depth: u64) -> Player {
    Player {
        engine: true,
        program: program.display().to_string(),
        args: String::new(),
        limit: Limit::Depth,
        value: depth,
        ..Player::default()
    }
}

/// The real app in a window of `window` points, set up for a game with these players.
pub fn harness(
    kind: GameKind,
    size: usize,
    players: [Player; 2],
    window: [f32; 2],
) -> Harness<'static, GuiApp> {
    let settings = Settings {
        game: kind.name().into(),
        size,
        players,
        path: String::new(),
        animations: false,
        ..Settings::default()
    };
    let mut h = Harness::builder()
        .with_size(window)
        .build_ui_state(|ui, app: &mut GuiApp| app.show(ui), GuiApp::new(settings));
    h.run_steps(2);
    h
}

/// Opens menu `menu` of the menu bar and clicks its entry `entry` (its label without the
/// shortcut shown after it).
pub fn menu(h: &mut Harness<'static, GuiApp>, menu: &str, entry: &str) {
    use egui_kittest::kittest::{NodeT, Queryable};
    h.get_by_role_and_label(eframe::egui::accesskit::Role::Button, menu)
        .click();
    h.run_steps(2);
    let with_key = format!("{entry} ");
    let found: Vec<_> = h
        .get_all_by_role(eframe::egui::accesskit::Role::Button)
        .filter(|n| {
            let label = n.accesskit_node().label().unwrap_or_default();
            label == entry || label.starts_with(&with_key)
        })
        .collect();
    assert_eq!(found.len(), 1, "one entry '{entry}' in the {menu} menu");
    found[0].click();
    h.run_steps(2);
}
