//! The analysis features through the real app: the engine panel filling in from a scripted engine
//! and from ours, the evaluation graph's points, the search tree explorer over a stored trace and
//! over a live traced search, and analysis mode.

use crate::common;

use boardgames_core::games::{GameKind, Side};
use boardgames_core::score::Score;
use common::{engine, engine_path, fake_engine, wait_for};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use gui::GuiApp;
use gui::analysis::{score_text, white_view};
use gui::app::Player;

#[test]
fn scores_are_shown_from_whites_view() {
    assert_eq!(score_text(white_view(Score::Cp(35), Side::White)), "+0.35");
    assert_eq!(score_text(white_view(Score::Cp(35), Side::Black)), "-0.35");
    assert_eq!(
        score_text(white_view(Score::Win(3), Side::Black)),
        "Black wins in 3"
    );
    assert_eq!(
        score_text(white_view(Score::Loss(2), Side::Black)),
        "White wins in 2"
    );
    assert_eq!(score_text(Score::Draw), "draw");
}

#[test]
fn the_engine_panel_fills_in_from_a_scripted_engine() {
    // Black's engine answers every go with fixed lines, then waits for stop.
    let script = fake_engine(
        "fixed",
        "isready) echo readyok;;\n\
         go*) echo 'info depth 3 score cp 35 nodes 1234 nps 5000 time 12 pv a5a4 a1a2';;\n\
         stop) echo 'bestmove a5a4';;\n\
         quit) exit 0;;\n",
    );
    let mut h = harness(GameKind::Oska, 4, Player::default(), engine(script, 2));
    common::black_reports_after_a1a2(&mut h, "the info line");
    // Black to move reports +35 for itself: -0.35 for White.
    h.get_by_label("score -0.35");
    h.get_by_label("depth 3");
    h.get_by_label("nodes 1234");
    h.get_by_label("nps 5000");
    h.get_by_label("time 12 ms");
    h.get_by_label("a5a4");
    // The arrow's move is the first PV move.
    let best = h.state().model().best_shown().expect("an arrow");
    assert_eq!(
        h.state().model().game().square_name(usize::from(best.from)),
        "a5"
    );
    assert_eq!(
        h.state().model().game().square_name(usize::from(best.to)),
        "a4"
    );
}

#[test]
fn the_engine_panel_and_graph_fill_in_from_our_engine() {
    let h = common::engine_game_played_out([1100.0, 760.0]);
    let views = h.state().model().engine_views();
    let white = views[0].as_ref().expect("White's engine reported");
    assert!(white.info.as_ref().is_some_and(|i| i.depth >= 1));
    // One point per position: the start and every position after a move were searched, the
    // last one is the result.
    let points = h.state().model().graph_points();
    let len = h.state().model().game().len();
    assert_eq!(points.len(), len + 1);
    assert_eq!(
        points.iter().map(|p| p.0).collect::<Vec<_>>(),
        (0..=len).collect::<Vec<_>>()
    );
    assert_eq!(h.query_all_by_label_contains("score ").count(), 2);
}

const TRACE: &str = include_str!("../fixtures/hexapawn-depth2.trace");

#[test]
fn the_tree_explorer_rebuilds_a_stored_trace() {
    let mut h = harness(GameKind::Hexapawn, 3, Player::default(), Player::default());
    h.state_mut()
        .tree_mut()
        .load_lines(GameKind::Hexapawn, TRACE.lines());
    h.state_mut().show_tool(gui::panels::dock::Tool::Tree, true);
    h.run_steps(3);
    let value = h.state().tree().root_value().expect("a tree");
    let expected = TRACE
        .lines()
        .rev()
        .find(|l| l.contains(" ply=0 "))
        .and_then(|l| l.split_whitespace().find_map(|w| w.strip_prefix("value=")))
        .expect("a root line");
    assert_eq!(value.to_string(), expected);
    // In pawns, as the engine panels say (issue 34): -108 is shown as -1.08.
    let pawns = gui::tree::value_text(value);
    assert_eq!(pawns, format!("{:+.2}", f64::from(value) / 100.0));
    h.get_by_label(&format!("root value: {pawns}"));
    // Garbage is reported, not a panic.
    h.state_mut()
        .tree_mut()
        .load_lines(GameKind::Hexapawn, ["trace iter=1 nonsense"]);
    h.run_steps(2);
    assert!(h.state().tree().failure().is_some());
}

#[test]
fn the_tree_explorer_runs_a_traced_search() {
    let _ = engine_path();
    let mut h = harness(GameKind::Hexapawn, 3, Player::default(), Player::default());
    h.state_mut().tree_mut().depth = 3;
    h.state_mut().run_tree_search();
    wait_for(&mut h, "the traced search", |a| !a.tree().running());
    assert!(
        h.state().tree().root_value().is_some(),
        "{:?}",
        h.state().tree().failure()
    );
    assert!(!h.state().tree().capped());
}

#[test]
fn analysis_follows_the_shown_position() {
    let _ = engine_path();
    let mut h = harness(GameKind::Ctf, 5, Player::default(), Player::default());
    h.state_mut()
        .start_from_args(&["ctf".into(), "5".into(), "c2c3".into()]);
    h.state_mut().set_analysis(true);
    wait_for(&mut h, "analysis of the position after c2c3", |a| {
        a.model().engine_views()[2]
            .as_ref()
            .is_some_and(|v| v.ply() == 1 && v.info.is_some())
    });
    h.state_mut().model_mut().go_to(0);
    wait_for(&mut h, "analysis of the start", |a| {
        a.model().engine_views()[2]
            .as_ref()
            .is_some_and(|v| v.ply() == 0 && v.info.is_some())
    });
    assert!(h.state().model().best_shown().is_some());
    h.state_mut().set_analysis(false);
    assert!(!h.state().analysing());
}

#[test]
fn an_illegal_position_is_refused_with_the_rules_message() {
    let mut h = harness(GameKind::Oska, 4, Player::default(), Player::default());
    let err = common::refused_position(
        &mut h,
        GameKind::Ctf,
        "-WWw-/-www-/-----/-bbb-/-bBb-",
        Side::White,
        "two white flags are refused",
    );
    assert!(err.contains("flag"), "{err}");
    let err = common::refused_position(
        &mut h,
        GameKind::Oska,
        "wwww/w--/--/---/bbbb",
        Side::White,
        "five white pieces on Oska 4 are refused",
    );
    assert!(!err.is_empty());
    assert_eq!(h.state().model().game().kind(), GameKind::Oska);
    assert!(h.state().model().game().is_empty());
}

/// The app for a game with these players, in this file's window size.
fn harness(kind: GameKind, size: usize, white: Player, black: Player) -> Harness<'static, GuiApp> {
    common::harness(kind, size, [white, black], [1100.0, 760.0])
}
