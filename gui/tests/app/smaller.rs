//! The smaller defects of issue 49's item 11 still open: the clock field's hint, the number of
//! moves said for a game, and the graph's point for the start position. (The others of item 11
//! are in `issue49.rs`: Promote, the file dialog, a silent engine, stopping analysis, Discard
//! on quit.)

use crate::common;

use boardgames_core::games::GameKind;
use common::harness;
use eframe::egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use gui::GuiApp;
use gui::app::Player;
use gui::panels::Action;

/// A window of the usual size on `kind` at `size`, both sides played by humans.
fn two_humans(kind: GameKind, size: usize) -> Harness<'static, GuiApp> {
    harness(
        kind,
        size,
        [Player::default(), Player::default()],
        [1100.0, 760.0],
    )
}

#[test]
fn the_empty_clock_field_hints_at_a_time_control_without_reading_as_one() {
    let h = two_humans(GameKind::Hexapawn, 3);
    assert_eq!(h.state().settings.clock, "", "no clock");
    let field = h
        .get_all_by_label("clock (M:SS+inc; empty: none)")
        .find(|n| n.accesskit_node().role() == Role::TextInput)
        .expect("the clock field");
    assert_eq!(field.accesskit_node().value().unwrap_or_default(), "");
    let node = field.accesskit_node();
    let hint = node.placeholder().unwrap_or_default().to_string();
    assert!(
        !matches!(gui::settings::time_control(&hint), Ok(Some(_))),
        "the hint '{hint}' reads as a time control that is set"
    );
    assert!(hint.contains("e.g."), "an example, said so: '{hint}'");
}

#[test]
fn a_game_of_ten_plies_is_said_to_have_five_moves_as_the_move_table_numbers_them() {
    let mut h = two_humans(GameKind::Oska, 5);
    for ply in 0..10 {
        let mv = h.state().model().game().legal_moves(ply)[0];
        h.state_mut().apply(Action::Play(mv));
    }
    h.run_steps(2);
    assert_eq!(h.state().model().game().len(), 10);
    // The move table's last number.
    h.get_by_label("5.");
    assert!(h.query_by_label("6.").is_none());
    h.state_mut().apply(Action::NewGame);
    h.run_steps(2);
    h.get_by_label_contains("The game on the table (5 moves) has changes");
}

#[test]
fn the_graph_has_a_point_for_the_start_position() {
    use boardgames_core::score::Score;
    let mut h = two_humans(GameKind::Hexapawn, 3);
    h.state_mut()
        .start_from_args(&["hexapawn".into(), "3".into(), "b1b2".into(), "a3b2".into()]);
    h.run_steps(2);
    // The values a review (or analysis) puts on the line's positions, the start's included.
    let line = h.state().model().line().to_vec();
    for (k, &id) in line.iter().enumerate() {
        h.state_mut()
            .model_mut()
            .set_eval(id, Score::Cp(10 * k as i32));
    }
    h.run_steps(2);
    let points = h.state().model().graph_points();
    let xs: Vec<usize> = points.iter().map(|p| p.0).collect();
    assert_eq!(xs, [0, 1, 2], "the start, then each ply: {points:?}");
}
