//! The move tree in the moves panel (a branch shown, going to a node, promote, delete), dragging
//! pieces on the board, the move animation, and the files chosen in the native dialogs and the
//! recent files, through the real app with egui_kittest.

use boardgames_core::games::GameKind;
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use gui::app::Player;
use gui::dialogs::Purpose;
use gui::settings::RECENT_FILES;
use gui::{GuiApp, Settings};

/// Hexapawn 3, human against human, in a window of 1100x720 points; `animations` as given, and
/// a step of 20 ms so that a slide of 150 ms takes several frames.
fn hexapawn(animations: bool) -> Harness<'static, GuiApp> {
    let settings = Settings {
        game: GameKind::Hexapawn.name().into(),
        size: 3,
        players: [Player::default(), Player::default()],
        path: String::new(),
        animations,
        ..Settings::default()
    };
    let mut h = Harness::builder()
        .with_size([1100.0, 720.0])
        .with_step_dt(0.02)
        .with_max_steps(40)
        .build_ui_state(|ui, app: &mut GuiApp| app.show(ui), GuiApp::new(settings));
    h.run_steps(2);
    h
}

/// The square named `name`.
fn square(h: &Harness<'static, GuiApp>, name: &str) -> usize {
    let game = h.state().model().game();
    (0..game.layout().squares())
        .find(|&s| game.square_name(s) == name)
        .expect("a square of the board")
}

/// Plays a move by clicking its two squares (`b1b2`).
fn click_move(h: &mut Harness<'static, GuiApp>, mv: &str) {
    let (from, to) = mv.split_at(2);
    for sq in [from, to] {
        h.get_by_label(&format!("square {sq}")).click();
        h.run_steps(2);
    }
}

fn names(h: &Harness<'static, GuiApp>) -> Vec<String> {
    h.state().model().game().move_names()
}

/// Picks the piece at `from` up and carries it over `to`, not dropping it.
fn drag_over(h: &mut Harness<'static, GuiApp>, from: egui::Pos2, to: egui::Pos2) {
    h.hover_at(from);
    h.drag_at(from);
    h.run_steps(2);
    h.hover_at(to);
    h.run_steps(2);
}

/// Drops the dragged piece at `to`.
fn drop_at(h: &mut Harness<'static, GuiApp>, to: egui::Pos2) {
    h.drop_at(to);
    h.run_steps(3);
}

/// Hexapawn 3 after b1b2 a3a2, then back to b1b2 in the moves panel and another reply, c3c2: a
/// variation, not a new game.
fn branched() -> Harness<'static, GuiApp> {
    let mut h = hexapawn(false);
    click_move(&mut h, "b1b2");
    click_move(&mut h, "a3a2");
    h.get_by_label("b1b2").click();
    h.run_steps(2);
    assert_eq!(h.state().model().view(), 1);
    click_move(&mut h, "c3c2");
    h
}

#[test]
fn the_moves_panel_shows_a_branch_and_promotes_and_deletes_it() {
    let mut h = branched();
    assert_eq!(names(&h), ["b1b2", "c3c2"]);
    // Both replies are in the list: the main line's and the variation's.
    h.get_by_label("a3a2");
    h.get_by_label("c3c2");
    // Up and Down go between the replies played at that place.
    h.key_press(egui::Key::ArrowUp);
    h.run_steps(2);
    assert_eq!(names(&h), ["b1b2", "a3a2"]);
    h.key_press(egui::Key::ArrowDown);
    h.run_steps(2);
    assert_eq!(names(&h), ["b1b2", "c3c2"]);
    // Clicking the main line's reply shows it, and the game follows that line.
    h.get_by_label("a3a2").click();
    h.run_steps(2);
    assert_eq!(names(&h), ["b1b2", "a3a2"]);
    assert!(
        h.get_by_label("Promote").accesskit_node().is_disabled(),
        "the main line is main already"
    );
    // Promote the variation: it becomes the main line, the saved one.
    h.get_by_label("c3c2").click();
    h.run_steps(2);
    h.get_by_label("Promote").click();
    h.run_steps(2);
    let model = h.state().model();
    assert!(model.tree().is_main(model.shown_node()));
    assert_eq!(model.tree().variations(), [vec!["b1b2", "a3a2"]]);
    // Delete the shown move: it leaves the list, the other reply is the game again.
    h.get_by_label("Delete").click();
    h.run_steps(2);
    assert!(h.query_by_label("c3c2").is_none(), "the variation is gone");
    assert_eq!(names(&h), ["b1b2", "a3a2"]);
    assert_eq!(h.state().model().view(), 1);
    assert!(h.state().model().tree().variations().is_empty());
}

#[test]
fn a_dragged_piece_follows_the_pointer_and_plays_where_it_is_dropped() {
    let mut h = hexapawn(true);
    let (b1, b2, c3, a2) = (
        square(&h, "b1"),
        square(&h, "b2"),
        square(&h, "c3"),
        square(&h, "a2"),
    );
    let centre = |h: &Harness<'static, GuiApp>, sq| h.state().square_centre(sq).expect("drawn");
    let (from, to) = (centre(&h, b1), centre(&h, b2));
    let half = from + (to - from) * 0.5;
    drag_over(&mut h, from, half);
    let geo = h.state().board_geometry().expect("the board is drawn");
    assert_eq!(
        geo.dragged,
        Some((b1, half)),
        "the piece is under the pointer"
    );
    assert_eq!(geo.targets, [b2], "its target is marked");
    assert!(names(&h).is_empty(), "nothing is played while dragging");
    h.hover_at(to);
    h.run_steps(1);
    drop_at(&mut h, to);
    assert_eq!(names(&h), ["b1b2"]);
    let geo = h.state().board_geometry().expect("the board is drawn");
    assert_eq!(geo.dragged, None);
    assert_eq!(geo.slide, None, "a dropped piece does not slide again");
    // A piece of the side not to move is not picked up, and a drop off the targets plays
    // nothing: Black's c3 may not go to a2.
    let (from, to) = (centre(&h, c3), centre(&h, a2));
    drag_over(&mut h, from, to);
    assert_eq!(
        h.state()
            .board_geometry()
            .and_then(|g| g.dragged)
            .map(|d| d.0),
        Some(c3)
    );
    drop_at(&mut h, to);
    assert_eq!(names(&h), ["b1b2"], "c3a2 is not a move");
    let (from, to) = (centre(&h, b2), centre(&h, c3));
    drag_over(&mut h, from, to);
    assert_eq!(
        h.state().board_geometry().and_then(|g| g.dragged),
        None,
        "White's b2 is not Black's to move"
    );
    drop_at(&mut h, to);
    assert_eq!(names(&h), ["b1b2"]);
}

#[test]
fn a_played_move_slides_for_a_moment_and_tests_can_turn_it_off() {
    let mut h = hexapawn(true);
    let (b1, b2) = (square(&h, "b1"), square(&h, "b2"));
    click_move(&mut h, "b1b2");
    h.step();
    let slide = h
        .state()
        .board_geometry()
        .and_then(|g| g.slide)
        .expect("the piece is on its way");
    assert_eq!((slide.from, slide.to), (b1, b2));
    assert!(slide.t > 0.0 && slide.t < 1.0, "{slide:?}");
    h.run_steps(10);
    assert_eq!(h.state().board_geometry().and_then(|g| g.slide), None);
    // Going back through the moves slides the piece home.
    h.get_by_label("<").click();
    h.run_steps(2);
    let slide = h.state().board_geometry().and_then(|g| g.slide);
    assert_eq!(slide.map(|s| (s.from, s.to)), Some((b2, b1)));
    h.run_steps(10);
    // Off: nothing slides.
    h.state_mut().settings.animations = false;
    h.get_by_label(">").click();
    h.run_steps(2);
    assert_eq!(h.state().model().view(), 1);
    assert_eq!(h.state().board_geometry().and_then(|g| g.slide), None);
}

#[test]
fn a_file_chosen_in_a_dialog_is_saved_with_its_variations_and_reopened_from_recent_files() {
    let mut h = branched();
    let path = std::env::temp_dir().join(format!("gui-dialog-{}.games", std::process::id()));
    let shown = path.display().to_string();
    // What the Save dialog hands back when a file is chosen.
    h.state_mut().file_chosen(Purpose::Save, &path);
    h.run_steps(2);
    let text = std::fs::read_to_string(&path).expect("saved");
    assert!(text.contains("\nb1b2 a3a2\n"), "{text}");
    assert!(text.contains("[Variation \"b1b2 c3c2\"]"), "{text}");
    assert_eq!(h.state().settings.path, shown);
    assert_eq!(h.state().settings.recent, std::slice::from_ref(&shown));
    // A new game, then the file again from the Recent menu: the tree comes back.
    crate::common::menu(&mut h, "Game", "New game");
    assert!(names(&h).is_empty());
    h.get_by_label("Game").click();
    h.run_steps(2);
    h.get_by_label("Recent").click();
    h.run_steps(2);
    h.get_by_label(&shown).click();
    h.run_steps(2);
    std::fs::remove_file(&path).ok();
    assert_eq!(names(&h), ["b1b2", "a3a2"]);
    assert_eq!(
        h.state().model().tree().variations(),
        [vec!["b1b2", "c3c2"]]
    );
    assert!(h.state().model().paused(), "an opened game starts paused");
}

#[test]
fn recent_files_keep_the_latest_first_once_and_at_most_eight() {
    let mut s = Settings::default();
    for n in 0..10 {
        s.remember(&format!("f{n}.games"));
    }
    s.remember("f5.games");
    assert_eq!(s.recent.len(), RECENT_FILES);
    assert_eq!(s.recent[0], "f5.games");
    assert_eq!(s.recent[1], "f9.games");
    assert_eq!(s.recent.iter().filter(|p| *p == "f5.games").count(), 1);
}
