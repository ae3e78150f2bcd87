//! Drives the real app with egui_kittest: games of each kind played by clicking squares, the
//! bundled engine replying, take-backs, navigation, set-up errors, save and load, and engines
//! that crash or refuse to quit.
//!
//! The engine tests need `target/debug/engine`; it is built with `cargo build -p engine` when
//! missing.

use crate::common;

use std::path::PathBuf;

use boardgames_core::games::{GameKind, Side};
use common::{engine, engine_path, fake_engine, wait_for, write_script};
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use gui::GuiApp;
use gui::app::Player;

fn human() -> Player {
    Player::default()
}

/// Clicks a square by its accessible label, then lets the app react.
fn click(h: &mut Harness<'static, GuiApp>, square: &str) {
    h.get_by_label(&format!("square {square}")).click();
    h.run_steps(2);
}

/// Plays a move by clicking its two squares.
fn click_move(h: &mut Harness<'static, GuiApp>, mv: &str) {
    let split = mv[1..]
        .find(|c: char| c.is_ascii_alphabetic())
        .map(|i| i + 1);
    let (from, to) = mv.split_at(split.expect("a move of two squares"));
    click(h, from);
    click(h, to);
}

#[test]
fn oska_human_against_the_engine_with_takeback() {
    let mut h = harness(GameKind::Oska, 4, human(), engine(engine_path(), 2));
    // Picking a piece shows its targets; clicking a target plays the move.
    click(&mut h, "d1");
    assert_eq!(h.state().model().game().len(), 0);
    click(&mut h, "c2");
    assert_eq!(h.state().model().game().move_names(), ["d1c2"]);
    wait_for(&mut h, "the engine's reply", |a| {
        a.model().game().len() == 2
    });
    assert!(h.state().model().halted().is_none());
    // Take back removes the engine's reply and the human's move.
    h.get_by_label("Take back").click();
    h.run_steps(2);
    assert_eq!(h.state().model().game().len(), 0);
    assert_eq!(h.state().model().view(), 0);
    // A piece that cannot move is not picked: clicking an empty square does nothing.
    click(&mut h, "b3");
    assert_eq!(h.state().model().game().len(), 0);
}

#[test]
fn hexapawn_human_against_human_to_the_end() {
    let mut h = harness(GameKind::Hexapawn, 3, human(), human());
    for mv in ["b1b2", "a3a2", "b2c3"] {
        click_move(&mut h, mv);
    }
    assert_eq!(
        h.state().model().game().move_names(),
        ["b1b2", "a3a2", "b2c3"]
    );
    let outcome = h
        .state()
        .model()
        .game()
        .outcome(3)
        .expect("the game is over");
    assert_eq!(outcome.winner(), Some(Side::White));
    // The end is announced with its reason.
    let said = gui::model::outcome_text(&outcome);
    assert!(said.starts_with("White wins: "), "{said}");
    h.get_by_label(&format!("Game over: {said}"));
    // No more moves on a finished game.
    click(&mut h, "a2");
    assert_eq!(h.state().model().game().len(), 3);
    // The arrow keys and the move list navigate.
    h.key_press(egui::Key::ArrowLeft);
    h.run_steps(2);
    assert_eq!(h.state().model().view(), 2);
    h.get_by_label("b1b2").click();
    h.run_steps(2);
    assert_eq!(h.state().model().view(), 1);
    // Playing from an earlier position branches off.
    click_move(&mut h, "c3c2");
    assert_eq!(h.state().model().game().move_names(), ["b1b2", "c3c2"]);
}

#[test]
fn capture_the_flag_against_the_engine() {
    let mut h = harness(GameKind::Ctf, 5, human(), engine(engine_path(), 2));
    click_move(&mut h, "c2c3");
    wait_for(&mut h, "the engine's reply", |a| {
        a.model().game().len() == 2
    });
    click(&mut h, "c1");
    // A flag is picked like a pawn; it may step sideways.
    assert!(
        h.state()
            .model()
            .human_may_move(h.state().settings.engines())
    );
}

#[test]
fn engine_against_engine_finishes_and_pauses() {
    let mut h = common::engine_game_played_out([1100.0, 720.0]);
    assert!(h.state().model().halted().is_none());
    // Nothing to pause in a finished game (issue 34); a pause is the game's: a new game plays
    // at once (issue 49).
    assert!(
        h.get_by_label("Pause engines")
            .accesskit_node()
            .is_disabled()
    );
    h.state_mut().model_mut().set_paused(true);
    h.run_steps(2);
    h.get_by_label("Start new game").click();
    h.run_steps(2);
    // The finished game was not saved: the question comes first.
    h.get_by_label("Discard").click();
    h.run_steps(2);
    assert_eq!(h.state().model().game().len(), 0);
    assert!(!h.state().model().paused());
    wait_for(&mut h, "a move of the new game", |a| {
        !a.model().game().is_empty()
    });
}

#[test]
fn an_engine_that_crashes_is_reported_and_a_human_can_take_over() {
    let script = fake_engine(
        "crasher",
        "go*) echo 'segmentation fault (simulated)' >&2; exit 3;;\n",
    );
    let mut h = harness(GameKind::Oska, 4, human(), engine(script, 2));
    click_move(&mut h, "a1a2");
    wait_for(&mut h, "the failure report", |a| {
        a.model().halted().is_some()
    });
    let why = h.state().model().halted().unwrap_or_default().to_string();
    assert!(why.contains("Black's engine"), "{why}");
    assert!(why.contains("exit status: 3"), "{why}");
    assert!(why.contains("segmentation fault (simulated)"), "{why}");
    // The human moves for Black now.
    assert!(
        h.state()
            .model()
            .human_may_move(h.state().settings.engines())
    );
    click_move(&mut h, "a5a4");
    assert_eq!(h.state().model().game().len(), 2);
}

#[test]
fn an_engine_that_cannot_start_or_plays_an_illegal_move_is_reported() {
    let mut h = harness(
        GameKind::Oska,
        4,
        engine(PathBuf::from("/nonexistent/engine"), 2),
        human(),
    );
    wait_for(&mut h, "the start failure", |a| {
        a.model().halted().is_some()
    });
    assert!(
        h.state()
            .model()
            .halted()
            .unwrap_or_default()
            .contains("cannot start engine"),
        "{:?}",
        h.state().model().halted()
    );
    let script = fake_engine(
        "cheat",
        "go*) echo 'bestmove a1a5';;\n\
         quit) exit 0;;\n",
    );
    h.state_mut().settings.players[0] = engine(script, 1);
    h.state_mut().model_mut().set_paused(false);
    wait_for(&mut h, "the illegal move report", |a| {
        a.model()
            .halted()
            .is_some_and(|w| w.contains("illegal move 'a1a5'"))
    });
    assert!(h.state().model().game().is_empty());
}

#[test]
fn no_engine_process_outlives_the_app() {
    let pidfile = std::env::temp_dir().join(format!("gui-test-{}-pid", std::process::id()));
    let script = write_script(
        "stubborn",
        &format!(
            "echo $$ > {}\n\
             while read line; do case \"$line\" in\n\
             uci) echo 'id name stubborn'; echo uciok;;\n\
             quit) exec sleep 100;;\n\
             esac; done\n",
            pidfile.display()
        ),
    );
    let mut h = harness(GameKind::Oska, 4, engine(script, 2), human());
    wait_for(&mut h, "the engine to think", |a| {
        a.model().thinking().is_some() && a.engine_names()[0].as_deref() == Some("stubborn")
    });
    let pid = std::fs::read_to_string(&pidfile).expect("pid written");
    let proc_dir = PathBuf::from(format!("/proc/{}", pid.trim()));
    assert!(proc_dir.exists());
    drop(h);
    assert!(
        !proc_dir.exists(),
        "the engine process {} is still there",
        pid.trim()
    );
}

#[test]
fn positions_from_text_pass_and_errors_in_plain_words() {
    let mut h = harness(GameKind::Oska, 4, human(), human());
    let err = common::refused_position(
        &mut h,
        GameKind::Ctf,
        "-wWw--www-----bbb--bBb-",
        Side::White,
        "23 characters are refused",
    );
    assert!(err.contains("not a square"), "{err}");
    // Oska: White can only pass; the pass button appears and plays it.
    h.state_mut()
        .model_mut()
        .set_position(
            GameKind::Oska,
            "['----','---','--','w--','bb--']",
            Side::White,
        )
        .expect("a valid board");
    h.run_steps(2);
    h.get_by_label("Pass").click();
    h.run_steps(2);
    assert_eq!(h.state().model().game().move_names(), ["pass"]);
    assert!(h.query_by_label("Pass").is_none());
}

#[test]
fn save_and_open_a_record() {
    let mut h = harness(GameKind::Hexapawn, 4, human(), human());
    click_move(&mut h, "a1a2");
    click_move(&mut h, "d4d3");
    let path = std::env::temp_dir().join(format!("gui-test-{}-game.txt", std::process::id()));
    h.state_mut().save(&path).expect("saved");
    let text = std::fs::read_to_string(&path).expect("read back");
    assert!(text.contains("[Game \"hexapawn\"]"), "{text}");
    h.get_by_label("Start new game").click();
    h.run_steps(2);
    assert!(h.state().model().game().is_empty());
    assert_eq!(h.state_mut().model_mut().open(&path).expect("opened"), 1);
    assert_eq!(h.state().model().game().move_names(), ["a1a2", "d4d3"]);
    assert_eq!(h.state().model().game().kind(), GameKind::Hexapawn);
    std::fs::write(&path, "[Game \"chess\"]\n").expect("write");
    let err = h
        .state_mut()
        .model_mut()
        .open(&path)
        .expect_err("bad record");
    assert!(err.to_string().contains("line 1"), "{err}");
}

#[test]
fn flipping_turns_the_board_and_clicks_follow() {
    let mut h = harness(GameKind::Hexapawn, 3, human(), human());
    let before = h.state().square_centre(0).expect("drawn");
    common::menu(&mut h, "Edit", "Flip board");
    assert!(h.state().model().flipped());
    let after = h.state().square_centre(0).expect("drawn");
    assert!(after.y > before.y, "a1 moved to the bottom");
    click_move(&mut h, "c1c2");
    assert_eq!(h.state().model().game().move_names(), ["c1c2"]);
}

/// The app for a game with these players, in this file's window size.
fn harness(kind: GameKind, size: usize, white: Player, black: Player) -> Harness<'static, GuiApp> {
    common::harness(kind, size, [white, black], [1100.0, 720.0])
}
