//! Nothing lost: replacing a game with moves not saved asks first (save, discard, cancel), and a
//! discarded game can be brought back once.

use crate::common;

use boardgames_core::games::GameKind;
use common::harness;
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use gui::GuiApp;
use gui::app::{Player, Replacing};
use gui::panels::Action;

/// Hexapawn 3 between two humans, b1b2 and a3a2 played by clicking their squares.
fn played() -> Harness<'static, GuiApp> {
    let mut h = harness(
        GameKind::Hexapawn,
        3,
        [Player::default(), Player::default()],
        [1100.0, 760.0],
    );
    for square in ["b1", "b2", "a3", "a2"] {
        h.get_by_label(&format!("square {square}")).click();
        h.run_steps(2);
    }
    assert_eq!(h.state().model().game().move_names(), ["b1b2", "a3a2"]);
    h
}

fn press(h: &mut Harness<'static, GuiApp>, key: egui::Key) {
    h.key_press(key);
    h.run_steps(2);
}

fn click(h: &mut Harness<'static, GuiApp>, label: &str) {
    h.get_by_label(label).click();
    h.run_steps(2);
}

#[test]
fn the_n_key_asks_first_cancel_keeps_the_game_and_a_discarded_game_comes_back() {
    let mut h = played();
    press(&mut h, egui::Key::N);
    assert_eq!(
        h.state().question(),
        Some(&Replacing::Action(Action::NewGame))
    );
    h.get_by_label("Save the game first?");
    h.get_by_label_contains("Save it before you start a new game?");
    click(&mut h, "Cancel");
    assert_eq!(h.state().question(), None);
    assert_eq!(h.state().model().game().move_names(), ["b1b2", "a3a2"]);
    assert!(h.query_by_label("Save the game first?").is_none());

    press(&mut h, egui::Key::N);
    click(&mut h, "Discard");
    assert_eq!(h.state().model().game().len(), 0, "a new game");
    h.get_by_label_contains("Bring back (Ctrl+Shift+Z) restores it");
    assert!(!h.state().model().unsaved());
    h.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    h.run_steps(2);
    let model = h.state().model();
    assert_eq!(model.game().move_names(), ["b1b2", "a3a2"], "move for move");
    assert_eq!(model.view(), 2);
    assert!(model.unsaved(), "still not saved");
    assert_eq!(model.can_bring_back(), None, "once");
    h.get_by_label_contains("The last game was brought back (1 move)");
}

#[test]
fn the_new_game_button_and_the_editor_ask_too_and_a_saved_game_does_not() {
    let mut h = played();
    common::menu(&mut h, "Game", "New game");
    assert!(h.state().question().is_some());
    press(&mut h, egui::Key::Escape);
    assert_eq!(h.state().question(), None, "Escape cancels");
    assert_eq!(h.state().model().game().len(), 2);

    common::menu(&mut h, "Edit", "Edit position...");
    click(&mut h, "Play from here");
    assert_eq!(h.state().question(), Some(&Replacing::Editor(false)));
    click(&mut h, "Discard");
    assert_eq!(h.state().model().game().len(), 0);
    common::menu(&mut h, "Game", "Bring back (1 move)");
    assert_eq!(h.state().model().game().move_names(), ["b1b2", "a3a2"]);

    let path = std::env::temp_dir().join(format!("gui-unsaved-{}.games", std::process::id()));
    h.state_mut()
        .file_chosen(gui::dialogs::Purpose::Save, &path);
    h.run_steps(2);
    std::fs::remove_file(&path).ok();
    assert!(!h.state().model().unsaved());
    press(&mut h, egui::Key::N);
    assert_eq!(
        h.state().question(),
        None,
        "a saved game is replaced at once"
    );
    assert_eq!(h.state().model().game().len(), 0);
}

/// Whether the last frame sent this command to the window.
fn sent(h: &Harness<'static, GuiApp>, command: &egui::ViewportCommand) -> bool {
    h.output()
        .viewport_output
        .get(&egui::ViewportId::ROOT)
        .is_some_and(|v| v.commands.contains(command))
}

#[test]
fn closing_the_window_with_an_unsaved_game_is_cancelled_until_answered() {
    let mut h = played();
    h.input_mut()
        .viewports
        .entry(egui::ViewportId::ROOT)
        .or_default()
        .events
        .push(egui::ViewportEvent::Close);
    h.step();
    assert!(sent(&h, &egui::ViewportCommand::CancelClose));
    assert_eq!(h.state().question(), Some(&Replacing::Close));
    h.run_steps(2);
    h.get_by_label_contains("Save it before you close the window?");
    h.get_by_label("Discard").click();
    h.step();
    h.step();
    assert!(
        sent(&h, &egui::ViewportCommand::Close),
        "closes once answered"
    );
}

#[test]
fn save_in_the_question_writes_the_games_file_and_goes_on() {
    let mut h = played();
    let path = std::env::temp_dir().join(format!("gui-unsaved-save-{}.games", std::process::id()));
    h.state_mut()
        .file_chosen(gui::dialogs::Purpose::Save, &path);
    h.run_steps(2);
    // One more move: unsaved again, and its file is known.
    for square in ["c1", "c2"] {
        h.get_by_label(&format!("square {square}")).click();
        h.run_steps(2);
    }
    press(&mut h, egui::Key::N);
    h.get_by_label_contains(&format!("Save writes it to {}", path.display()));
    h.state_mut().answer(gui::panels::question::Answer::Save);
    h.run_steps(2);
    let text = std::fs::read_to_string(&path).expect("saved");
    std::fs::remove_file(&path).ok();
    assert!(text.contains("b1b2 a3a2 c1c2"), "{text}");
    assert_eq!(h.state().model().game().len(), 0, "then the new game");
    assert_eq!(h.state().model().can_bring_back(), None, "nothing was lost");
}
