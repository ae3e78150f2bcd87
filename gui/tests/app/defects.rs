//! The defects of issue 13 that a test can reach, through the real app (egui_kittest): engine
//! settings applied on Enter, a hung engine given up at its limit plus the margin, "Move now",
//! the engine's own reason in the status, panel titles and arrows after a pause or a crash, and
//! a small window.

use crate::common;

use std::time::Duration;

use boardgames_core::games::GameKind;
use common::{engine, engine_path, fake_engine, wait_for, write_script};
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use gui::GuiApp;
use gui::app::{Limit, Player};

fn harness(white: Player, black: Player) -> Harness<'static, GuiApp> {
    common::harness(GameKind::Oska, 4, [white, black], [1100.0, 720.0])
}

/// A scripted engine that reports one search line on `go` (best move `a5a4` for Black, `a1a2`
/// for White) and answers `stop` with that move; `extra` runs after the info line.
fn reporter(name: &str, extra: &str) -> std::path::PathBuf {
    write_script(
        name,
        &format!(
            "best=a1a2\n\
             while read line; do case \"$line\" in\n\
             uci) echo 'id name reporter'; echo uciok;;\n\
             isready) echo readyok;;\n\
             'position startpos moves a1a2') best=a5a4;;\n\
             position*) best=a1a2;;\n\
             go*) echo \"info depth 2 score cp 20 nodes 99 nps 990 time 100 pv $best\"; {extra};;\n\
             stop) echo \"bestmove $best\";;\n\
             quit) exit 0;;\n\
             esac; done\n"
        ),
    )
}

#[test]
fn an_engines_program_is_applied_on_enter_not_on_every_keystroke() {
    let mut h = harness(Player::default(), engine(engine_path(), 1));
    let before = h.state().settings.players[1].program.clone();
    h.get_by_label("program (empty: ours)").click();
    h.run_steps(2);
    h.get_by_label("program (empty: ours)").type_text("/x");
    h.run_steps(3);
    // Half typed: nothing applied, nothing relaunched, the game is not stopped.
    assert_eq!(h.state().settings.players[1].program, before);
    assert!(h.state().model().halted().is_none());
    h.get_by_label("not applied yet");
    h.key_press(egui::Key::Enter);
    h.run_steps(3);
    // Applied: the typed text (inserted where the click put the cursor).
    let after = h.state().settings.players[1].program.clone();
    assert!(after != before && after.contains("/x"), "{after}");
    assert!(h.query_by_label("not applied yet").is_none());
}

#[test]
fn the_arguments_are_applied_with_the_apply_button() {
    let mut h = harness(Player::default(), engine(engine_path(), 1));
    h.get_by_label("arguments").click();
    h.run_steps(2);
    h.get_by_label("arguments").type_text("board-call -- false");
    h.run_steps(2);
    assert_eq!(h.state().settings.players[1].args, "");
    h.get_by_label("Apply").click();
    h.run_steps(2);
    assert_eq!(h.state().settings.players[1].args, "board-call -- false");
}

#[test]
fn a_hung_engine_is_given_up_at_its_limit_plus_the_margin() {
    // Answers the handshake, then ignores go and stop.
    let script = fake_engine(
        "hung",
        "isready) echo readyok;;\n\
         quit) exit 0;;\n",
    );
    let mut white = engine(script, 1);
    white.limit = Limit::MoveTime;
    white.value = 100;
    let mut h = harness(white, Player::default());
    wait_for(&mut h, "the engine to be given up", |a| {
        a.model().halted().is_some()
    });
    let why = h.state().model().halted().unwrap_or_default().to_string();
    // 100 ms of movetime plus arena's 10 s margin, not 5 minutes.
    assert!(why.contains("within 10.1 s"), "{why}");
    assert!(why.contains("White's engine"), "{why}");
}

#[test]
fn move_now_sends_stop_and_plays_the_engines_answer() {
    let script = reporter("move-now", ":");
    let mut h = harness(engine(script, 30), Player::default());
    wait_for(&mut h, "the engine's first report", |a| {
        a.model().engine_views()[0]
            .as_ref()
            .is_some_and(|v| v.info.is_some())
    });
    assert!(h.state().model().game().is_empty());
    h.get_by_label("Move now").click();
    wait_for(&mut h, "the move", |a| a.model().game().len() == 1);
    assert_eq!(h.state().model().game().move_names(), ["a1a2"]);
    assert!(h.state().model().halted().is_none());
    let lines = h.state().console().lines(gui::console::Role::White);
    assert!(lines.contains(&"> stop".to_string()), "{lines:?}");
}

#[test]
fn a_board_call_programs_failure_is_shown_in_the_status() {
    let mut black = engine(engine_path(), 2);
    black.args = "board-call -- false".into();
    let mut h = harness(Player::default(), black);
    h.get_by_label("square a1").click();
    h.run_steps(2);
    h.get_by_label("square a2").click();
    h.run_steps(2);
    wait_for(&mut h, "the failure", |a| a.model().halted().is_some());
    let why = h.state().model().halted().unwrap_or_default().to_string();
    assert!(why.contains("Black's engine gave no move"), "{why}");
    assert!(
        why.contains("board-call: the program failed (exit status: 1)"),
        "{why}"
    );
    h.get_by_label_contains("the program failed (exit status: 1)");
}

#[test]
fn a_paused_search_is_titled_stopped_and_resume_clears_the_red_error() {
    let mut h = harness(Player::default(), engine(reporter("pause", ":"), 30));
    common::black_reports_after_a1a2(&mut h, "the engine's report");
    h.get_by_label("Black's engine (searching)");
    h.get_by_label("Pause engines").click();
    h.run_steps(3);
    h.get_by_label("Black's engine (stopped)");
    assert!(h.query_by_label("Black's engine (searching)").is_none());
    // A failure, then a successful Resume: no stale red message.
    h.state_mut()
        .model_mut()
        .halt(None, "Black's engine failed: a test".into());
    h.run_steps(2);
    h.get_by_label("Resume engines").click();
    wait_for(&mut h, "the engine's move", |a| {
        a.model().game().len() == 1 || a.model().thinking().is_some()
    });
    assert_eq!(h.state().model().message(), None);
    assert!(h.query_by_label_contains("a test").is_none());
}

#[test]
fn a_crashed_engines_panel_says_failed_and_its_arrow_is_gone() {
    // Reports a line with a best move, then crashes.
    let script = reporter("crash-after-info", "sleep 0.3; exit 3");
    let mut h = harness(Player::default(), engine(script, 30));
    h.state_mut()
        .start_from_args(&["oska".into(), "4".into(), "a1a2".into()]);
    wait_for(&mut h, "the failure", |a| a.model().halted().is_some());
    h.get_by_label("Black's engine (failed)");
    assert!(h.query_by_label("Black's engine (searching)").is_none());
    assert_eq!(
        h.state().model().best_shown(),
        None,
        "no arrow of a dead engine"
    );
    // An engine that never got to search: its panel does not wait for information.
    let mut h = harness(
        Player::default(),
        engine(std::path::PathBuf::from("/nonexistent/engine"), 2),
    );
    h.state_mut()
        .start_from_args(&["oska".into(), "4".into(), "a1a2".into()]);
    wait_for(&mut h, "the start failure", |a| {
        a.model().halted().is_some()
    });
    h.get_by_label("Black's engine (failed)");
    assert!(
        h.query_by_label("waiting for the first search information...")
            .is_none()
    );
    h.get_by_label("no search information was given");
}

#[test]
fn at_640_by_480_the_engine_panel_keeps_its_words_whole() {
    let mut h = common::harness(
        GameKind::Oska,
        4,
        [Player::default(), engine(reporter("small", ":"), 30)],
        [640.0, 480.0],
    );
    common::black_reports_after_a1a2(&mut h, "the engine's report");
    std::thread::sleep(Duration::from_millis(50));
    h.run_steps(2);
    for label in ["nodes 99", "time 100 ms", "Black's engine (searching)"] {
        let rect = h.get_by_label(label).rect();
        // One line of text: wider than tall (wrapped letter by letter it is a tall column).
        assert!(rect.width() > 2.0 * rect.height(), "{label}: {rect:?}");
    }
}
