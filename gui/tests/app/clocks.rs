//! Clocks through the real app (egui_kittest): a time control typed in the set-up, engines
//! playing on it with `go wtime btime winc binc`, both clocks shown, and a human losing on time.

use crate::common;

use std::time::Duration;

use boardgames_core::games::{GameKind, Side};
use common::{engine, engine_path, wait_for};
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use gui::GuiApp;
use gui::app::Player;
use gui::console::Role;

fn disabled(h: &Harness<'static, GuiApp>, label: &str) -> bool {
    h.get_by_label(label).accesskit_node().is_disabled()
}

fn harness(kind: GameKind, size: usize, white: Player, black: Player) -> Harness<'static, GuiApp> {
    common::harness(kind, size, [white, black], [1100.0, 720.0])
}

/// Types a time control into the set-up's clock field and starts a new game with it.
fn new_game_on_clock(h: &mut Harness<'static, GuiApp>, tc: &str) {
    let field = "clock (M:SS+inc; empty: none)";
    h.get_by_label(field).click();
    h.run_steps(2);
    h.get_by_label(field).type_text(tc);
    h.run_steps(2);
    assert_eq!(h.state().settings.clock, "", "not applied before Enter");
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
    assert_eq!(h.state().settings.clock, tc);
    h.get_by_label("Start new game").click();
    h.run_steps(2);
}

#[test]
fn engines_play_on_the_clock_and_both_clocks_are_shown() {
    let mut h = harness(GameKind::Oska, 4, Player::default(), Player::default());
    new_game_on_clock(&mut h, "0:30+0.5");
    // Engines take both sides of the timed game.
    let e = engine_path();
    h.state_mut().settings.players = [engine(e.clone(), 3), engine(e, 3)];
    h.run_steps(2);
    assert!(h.state().model().clocks().is_some());
    // The limit of each engine is the game's clock now.
    assert!(h.query_all_by_label("limit: the game's clock").count() == 2);
    wait_for(&mut h, "four moves on the clock", |a| {
        a.model().game().len() >= 4
    });
    let go = |role| {
        h.state()
            .console()
            .lines(role)
            .into_iter()
            .filter(|l| l.contains("go "))
            .collect::<Vec<_>>()
    };
    for role in [Role::White, Role::Black] {
        let lines = go(role);
        assert!(!lines.is_empty(), "{role:?} was never asked to search");
        for l in &lines {
            assert!(
                l.contains("go wtime ") && l.contains(" btime ") && l.contains(" winc 500"),
                "{l}"
            );
        }
    }
    // Both clocks are on the screen, and the time used has been charged.
    h.get_by_label_contains("White 0:");
    h.get_by_label_contains("Black 0:");
    let c = h.state().model().clocks().unwrap();
    let now = std::time::Instant::now();
    assert!(c.left(Side::White, now) < Duration::from_secs(32));
    assert!(h.state().model().lost_on_time().is_none());
}

#[test]
fn a_human_who_runs_out_of_time_loses_and_pause_stops_the_clock() {
    let mut h = harness(GameKind::Hexapawn, 3, Player::default(), Player::default());
    // Three seconds: enough to click Pause before the flag falls on a loaded machine.
    new_game_on_clock(&mut h, "3");
    // Paused: the time does not run.
    h.get_by_label("Pause").click();
    h.run_steps(2);
    let left = |h: &Harness<'_, GuiApp>| {
        let c = h.state().model().clocks().unwrap();
        c.left(Side::White, std::time::Instant::now())
    };
    let before = left(&h);
    std::thread::sleep(Duration::from_millis(800));
    h.run_steps(2);
    assert_eq!(left(&h), before, "the paused clock ran");
    assert!(h.state().model().lost_on_time().is_none());
    h.get_by_label("Resume").click();
    h.run_steps(2);
    wait_for(&mut h, "White's flag to fall", |a| {
        a.model().lost_on_time().is_some()
    });
    assert_eq!(h.state().model().lost_on_time(), Some(Side::White));
    // In the status line, and in the line above the board instead of "White to move".
    assert_eq!(
        h.get_all_by_label("Game over: White lost on time").count(),
        2
    );
    assert!(h.query_by_label("White to move").is_none());
    assert!(disabled(&h, "Pause"), "nothing to pause in a finished game");
    h.get_by_label_contains("White 0:00.0");
    // No move after the flag fell.
    h.get_by_label("square b1").click();
    h.run_steps(2);
    h.get_by_label("square b2").click();
    h.run_steps(2);
    assert!(h.state().model().game().is_empty());
}
