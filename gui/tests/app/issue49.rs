//! The defects of issue 49, through the real app (egui_kittest): no save replaces another
//! game's file without asking, engines that start, no stale failure, records that name the
//! players, the move table marking the shown move, and the smaller ones.

use crate::common;

use std::path::{Path, PathBuf};

use common::harness;
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use engine::games::GameKind;
use gui::GuiApp;
use gui::app::Player;
use gui::dialogs::Purpose;
use gui::panels::Action;

/// A fresh folder of this test's own.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gui-issue49-{}-{name}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Hexapawn 3 between two humans, with our own file dialogs.
fn humans() -> Harness<'static, GuiApp> {
    let mut h = harness(
        GameKind::Hexapawn,
        3,
        [Player::default(), Player::default()],
        [1100.0, 760.0],
    );
    h.state_mut().use_own_dialogs(true);
    h
}

/// Plays moves by clicking their squares (`b1`, `b2`, ... in pairs).
fn click_squares(h: &mut Harness<'static, GuiApp>, squares: &[&str]) {
    for square in squares {
        h.get_by_label(&format!("square {square}")).click();
        h.run_steps(2);
    }
}

fn click(h: &mut Harness<'static, GuiApp>, label: &str) {
    h.get_by_label(label).click();
    h.run_steps(2);
}

/// The path typed in our own file dialog.
fn typed_path(h: &Harness<'static, GuiApp>) -> String {
    let inputs: Vec<_> = h
        .get_all_by_label("Save the game to")
        .filter(|n| n.accesskit_node().role() == egui::accesskit::Role::TextInput)
        .collect();
    assert_eq!(inputs.len(), 1, "the dialog's path field");
    inputs[0].accesskit_node().value().unwrap_or_default()
}

/// Game > Save..., and a frame for the dialog to open.
fn save_menu(h: &mut Harness<'static, GuiApp>) {
    common::menu(h, "Game", "Save...");
    h.run_steps(1);
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("the file is there")
}

#[test]
fn save_after_saving_another_game_starts_from_a_new_name_not_the_other_games_file() {
    let dir = folder("new-name");
    let a = dir.join("a.games");
    let mut h = humans();
    click_squares(&mut h, &["b1", "b2", "a3", "a2"]);
    h.state_mut().file_chosen(Purpose::Save, &a);
    h.run_steps(2);
    let game_a = read(&a);
    h.key_press(egui::Key::N);
    h.run_steps(2);
    click_squares(&mut h, &["c1", "c2"]);
    save_menu(&mut h);
    h.get_by_label(gui::panels::path_dialog::TITLE);
    let typed = typed_path(&h);
    assert_eq!(
        Path::new(&typed),
        dir.join("game.games"),
        "a name no file has, in the folder last used"
    );
    click(&mut h, "Save");
    assert_eq!(read(&a), game_a, "game A is whole");
    assert!(read(&dir.join("game.games")).contains("c1c2"));
    assert_eq!(
        h.state().model().file(),
        Some(dir.join("game.games").as_path())
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn save_after_open_of_another_file_and_new_does_not_touch_the_first_file_without_a_confirmation() {
    let dir = folder("confirm");
    let first = dir.join("first.games");
    let record = "[Game \"hexapawn\"]\n[Size \"3\"]\n[White \"human\"]\n[Black \"human\"]\n\
                  [Start \"startpos\"]\n[Result \"*\"]\na1a2 c3c2\n";
    std::fs::write(&first, record).expect("first file");
    let mut h = humans();
    h.state_mut()
        .apply(Action::OpenFile(first.display().to_string()));
    h.run_steps(2);
    assert_eq!(h.state().model().game().move_names(), ["a1a2", "c3c2"]);
    h.key_press(egui::Key::N);
    h.run_steps(2);
    assert_eq!(h.state().model().game().len(), 0, "a new game");
    click_squares(&mut h, &["b1", "b2"]);
    save_menu(&mut h);
    assert_ne!(Path::new(&typed_path(&h)), first, "not pre-filled with it");
    // The user picks the first file in the dialog's listing: asked before it is replaced.
    click(&mut h, "first.games");
    click(&mut h, "Save");
    assert_eq!(h.state().replacing_file(), Some(first.as_path()));
    h.get_by_label(gui::saving::REPLACE_TITLE);
    assert_eq!(read(&first), record, "untouched while asked");
    click(&mut h, "Cancel");
    assert_eq!(read(&first), record, "untouched when cancelled");
    assert!(h.state().model().unsaved(), "nothing was saved");
    h.get_by_label_contains("Nothing was saved");
    // Asked again, and replaced only with Replace.
    save_menu(&mut h);
    click(&mut h, "first.games");
    click(&mut h, "Save");
    click(&mut h, "Replace");
    assert!(read(&first).contains("b1b2"), "replaced once confirmed");
    assert!(!h.state().model().unsaved());
    std::fs::remove_dir_all(&dir).ok();
}
