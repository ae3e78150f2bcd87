//! The defects listed in issue 34, each checked through the app (or the settings it starts
//! with): `--engines` plays our engine, a failure's error goes when no engine is left, the
//! solver's "1 move played", and the game's end in one capitalisation.

use crate::common;

use common::{engine, harness, wait_for, write_script};
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use engine::games::GameKind;
use gui::GuiApp;
use gui::app::Player;
use gui::panels::Action;
use gui::settings::SavedEngine;
use gui::{Settings, app::default_engine};

#[test]
fn engines_from_the_command_line_are_ours_not_the_saved_ones_chosen_in_the_set_up() {
    let silent = write_script("silent", "while read line; do :; done\n");
    let mut s = Settings {
        engines: vec![SavedEngine {
            name: "silent".into(),
            program: silent.display().to_string(),
            ..SavedEngine::default()
        }],
        ..Settings::default()
    };
    for p in &mut s.players {
        p.saved = "silent".into();
        p.program = "/somewhere/else".into();
        p.value = 3;
    }
    s.ours_on_both_sides();
    let ours = Player {
        engine: true,
        value: 3,
        ..Player::default()
    };
    for i in 0..2 {
        assert!(s.players[i].engine);
        assert_eq!(s.player_label(i), "engine (ours)");
        assert_eq!(s.player_launch(i), ours.launch());
        assert_eq!(s.player_launch(i).program, default_engine());
    }
    assert_eq!(s.players[0].value, 3, "the limit stays");
}

fn humans() -> Harness<'static, GuiApp> {
    harness(
        GameKind::Hexapawn,
        3,
        [Player::default(), Player::default()],
        [1100.0, 760.0],
    )
}

#[test]
fn an_engines_failure_and_its_resume_go_when_both_sides_are_human() {
    let mut h = harness(
        GameKind::Oska,
        4,
        [
            Player::default(),
            engine(std::path::PathBuf::from("/nonexistent/engine"), 2),
        ],
        [1100.0, 760.0],
    );
    h.state_mut()
        .start_from_args(&["oska".into(), "4".into(), "a1a2".into()]);
    wait_for(&mut h, "the start failure", |a| {
        a.model().halted().is_some()
    });
    h.get_by_label("Resume engines");
    h.state_mut().apply(Action::SetPlayer(1, Player::default()));
    h.run_steps(2);
    let model = h.state().model();
    assert_eq!(model.halted(), None);
    assert_eq!(model.message(), None, "the red error is gone");
    assert!(h.query_by_label("Resume engines").is_none());
    assert!(h.query_by_label("Pause engines").is_none());
}

#[test]
fn the_solver_says_1_move_played_and_the_end_names_the_sides_as_everywhere_else() {
    let mut h = humans();
    h.state_mut()
        .start_from_args(&["hexapawn".into(), "3".into(), "b1b2".into()]);
    h.state_mut().apply(Action::OpenSolver);
    h.run_steps(2);
    h.get_by_label_contains("hexapawn 3, 1 move played, Black to move");
    h.state_mut().start_from_args(&[
        "hexapawn".into(),
        "3".into(),
        "b1b2".into(),
        "a3a2".into(),
        "b2c3".into(),
    ]);
    h.run_steps(2);
    // Above the board and in the status line, White as everywhere else, not "white".
    h.get_by_label_contains("Game over: White wins: ");
    assert!(h.query_by_label_contains("white wins").is_none());
}

/// A long Capture the Flag 7 game (each side's last legal move, while the game goes on) in a
/// small window.
fn long_game() -> Harness<'static, GuiApp> {
    let mut h = harness(
        GameKind::Ctf,
        7,
        [Player::default(), Player::default()],
        gui::app::MIN_WINDOW,
    );
    let mut game = gui::game::GameState::new(GameKind::Ctf, 7).expect("ctf 7");
    while game.len() < 40 && game.outcome(game.len()).is_none() {
        let ply = game.len();
        let mv = *game.legal_moves(ply).last().expect("a move");
        game.play(ply, mv).expect("legal");
    }
    h.state_mut().model_mut().set_game(game);
    h.run_steps(4);
    h
}

#[test]
fn the_move_list_follows_the_shown_move_and_keeps_numbers_with_their_moves() {
    let mut h = long_game();
    let names = h.state().model().game().move_names();
    assert!(names.len() >= 30, "{}", names.len());
    let top = h.get_by_label("Promote").rect().bottom();
    // Above the engines' area under the board.
    let bottom = h
        .get_by_label_contains("Engine output appears here")
        .rect()
        .top();
    let visible = |h: &Harness<'static, GuiApp>, name: &str| {
        let r = h.get_all_by_label(name).last().expect("the move").rect();
        (r.top() >= top - 1.0 && r.bottom() <= bottom, r)
    };
    let last = names.last().expect("moves").clone();
    let (seen, r) = visible(&h, &last);
    assert!(seen, "the last move is scrolled to: {r:?}, {top}..{bottom}");
    h.key_press(egui::Key::Home);
    h.run_steps(2);
    h.key_press(egui::Key::ArrowRight);
    h.run_steps(4);
    let (seen, r) = visible(&h, &names[0]);
    assert!(seen, "the first move is scrolled to: {r:?}");
    // Every move number is on the row of its move (a name played before is its earlier
    // occurrence in the table).
    for (k, name) in names.iter().enumerate().step_by(2).take(8) {
        let number = h.get_by_label(&format!("{}.", k / 2 + 1)).rect();
        let before = names[..k].iter().filter(|n| *n == name).count();
        let mv = h
            .get_all_by_label(name)
            .nth(before)
            .expect("the move")
            .rect();
        assert!(
            (number.center().y - mv.center().y).abs() < 4.0,
            "{}. {name}: {number:?} {mv:?}",
            k / 2 + 1
        );
    }
}

#[test]
fn the_graphs_axis_labels_more_than_zero_and_the_tree_speaks_pawns() {
    assert_eq!(gui::tree::value_text(175), "+1.75");
    assert_eq!(gui::tree::value_text(-230), "-2.30");
    // A short graph of ±10 pawns: egui_plot's smallest step near 2 pawns gives 5-pawn ticks.
    assert_eq!(gui::analysis::pawn_steps(1.5)[0], 5.0);
    assert_eq!(gui::analysis::pawn_steps(0.1)[0], 0.5);
}

/// The rectangle around every square of the board as last drawn.
fn board_rect(h: &Harness<'static, GuiApp>) -> egui::Rect {
    let geo = h.state().board_geometry().expect("the board was drawn");
    geo.squares
        .iter()
        .fold(egui::Rect::NOTHING, |r, s| r.union(*s))
}

/// Clicks a label and lets the app draw twice.
fn click(h: &mut Harness<'static, GuiApp>, label: &str) {
    h.get_by_label(label).click();
    h.run_steps(2);
}

#[test]
fn at_800x600_the_menus_board_moves_clocks_and_status_are_all_in_the_window() {
    // Defect 8: the smallest window the program opens shows everything, the board large.
    assert_eq!(gui::app::MIN_WINDOW, [800.0, 600.0]);
    let mut h = harness(
        GameKind::Oska,
        5,
        [Player::default(), Player::default()],
        gui::app::MIN_WINDOW,
    );
    h.state_mut().settings.clock = "5:00+3".into();
    h.state_mut().apply(Action::NewGame);
    h.state_mut()
        .apply(Action::Play(engine::games::Move { from: 0, to: 5 }));
    h.run_steps(3);
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(800.0, 600.0));
    let board = board_rect(&h);
    assert!(
        board.width().max(board.height()) >= 270.0,
        "the board is large: {board:?}"
    );
    assert!(window.contains_rect(board), "{board:?}");
    let mut seen = vec![board];
    for label in [
        "Game",
        "Edit",
        "Engines",
        "Analysis",
        "Tools",
        "Help",
        "Take back",
        "Start new game",
    ] {
        let r = h.get_by_label(label).rect();
        assert!(window.contains_rect(r), "{label} at {r:?}");
        assert!(!r.intersects(board), "{label} over the board");
        seen.push(r);
    }
    // The clocks beside the board, right of it.
    for side in ["White 5:0", "Black 4:5"] {
        let r = h.get_by_label_contains(side).rect();
        assert!(window.contains_rect(r), "{side} at {r:?}");
        assert!(r.left() >= board.right(), "{side} beside the board");
    }
    // The status line at the bottom.
    for line in h.get_all_by_label_contains("Black to move") {
        assert!(window.contains_rect(line.rect()), "{:?}", line.rect());
    }
    // No "File:" field any more, no wrapped row of buttons.
    assert!(h.query_by_label("File:").is_none());
    assert!(h.query_by_label("Flip board").is_none(), "in the Edit menu");
}

#[test]
fn the_board_scales_with_the_window() {
    let size = |w: f32, hgt: f32| {
        let h = harness(
            GameKind::Hexapawn,
            4,
            [Player::default(), Player::default()],
            [w, hgt],
        );
        board_rect(&h).width()
    };
    let (small, large) = (size(800.0, 600.0), size(1600.0, 1000.0));
    assert!(large > small * 1.4, "{small} -> {large}");
}

#[test]
fn the_game_menu_saves_opens_and_has_no_file_field() {
    // Defect 7: Save writes the game's own file (Ctrl+S), Save as... and Open... use a dialog;
    // no "File:" field to keep next to them.
    let mut h = harness(
        GameKind::Hexapawn,
        3,
        [Player::default(), Player::default()],
        [1100.0, 760.0],
    );
    click(&mut h, "Game");
    for label in [
        "New game Ctrl+N",
        "Open... Ctrl+O",
        "Save... Ctrl+S",
        "Save as... Ctrl+Shift+S",
        "Recent",
        "Quit Ctrl+Q",
    ] {
        h.get_by_label(label);
    }
    assert!(h.query_by_label_contains("File:").is_none());
    assert!(!gui::app::NO_FILE.contains("File:"));
    h.key_press(egui::Key::Escape);
    h.run_steps(2);
    let path = std::env::temp_dir().join(format!("gui-menu-{}.games", std::process::id()));
    h.state_mut()
        .start_from_args(&["hexapawn".into(), "3".into(), "b1b2".into()]);
    h.state_mut()
        .file_chosen(gui::dialogs::Purpose::Save, &path);
    h.run_steps(2);
    assert!(!h.state().model().unsaved());
    // A move more, then Ctrl+S: the same file, without a dialog.
    let mv = h.state().model().game().legal_moves(1)[0];
    h.state_mut().apply(Action::Play(mv));
    h.run_steps(2);
    let name = h.state().model().game().move_names().join(" ");
    assert!(h.state().model().unsaved());
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run_steps(2);
    assert!(
        !h.state().model().unsaved(),
        "{:?}",
        h.state().model().message()
    );
    let text = std::fs::read_to_string(&path).expect("saved");
    std::fs::remove_file(&path).ok();
    assert!(text.contains(&name), "{text}");
    assert!(!h.state().model().flipped());
    // Ctrl+S did not also toggle the solver (S).
    assert!(!h.state().tool_open(gui::panels::dock::Tool::Solver));
    click(&mut h, "Game");
    h.get_by_label_contains("Save to gui-menu-");
    h.key_press(egui::Key::Escape);
}

#[test]
fn tools_dock_beside_the_board_and_the_open_ones_are_remembered() {
    use gui::panels::dock::Tool;
    let mut h = harness(
        GameKind::Oska,
        4,
        [Player::default(), Player::default()],
        [1280.0, 800.0],
    );
    let before = board_rect(&h);
    common::menu(&mut h, "Analysis", "Tablebase");
    h.key_press(egui::Key::F1);
    h.run_steps(3);
    assert!(h.state().tool_open(Tool::Tablebase));
    assert!(h.state().tool_open(Tool::Help));
    assert_eq!(h.state().shown_tool(), Some(Tool::Help));
    // The tabs and the shown tool are beside the board (left of it), never over it.
    let board = board_rect(&h);
    assert!(board.width() < before.width() + 1.0);
    for label in ["Players", "Tablebase", "Keyboard shortcuts", "Ctrl+Shift+Z"] {
        let r = h.get_by_label(label).rect();
        assert!(
            r.right() < board.left(),
            "{label} at {r:?}, board {board:?}"
        );
    }
    assert_eq!(h.state().settings.tools, ["tablebase", "help"]);
    // A new app with these settings opens them again.
    let settings = h.state().settings.clone();
    let mut again = egui_kittest::Harness::builder()
        .with_size([1280.0, 800.0])
        .build_ui_state(|ui, app: &mut GuiApp| app.show(ui), GuiApp::new(settings));
    again.run_steps(2);
    assert_eq!(again.state().open_tools(), [Tool::Tablebase, Tool::Help]);
    // The tab's close button closes it.
    h.get_by_label("Tablebase").click();
    h.run_steps(2);
    assert_eq!(h.state().shown_tool(), Some(Tool::Tablebase));
    h.get_all_by_label("x")
        .next()
        .expect("a close button")
        .click();
    h.run_steps(2);
    assert!(!h.state().tool_open(Tool::Tablebase));
    assert_eq!(h.state().settings.tools, ["help"]);
    assert_eq!(h.state().shown_tool(), Some(Tool::Help));
    // The set-up's tab is still there.
    h.get_by_label("Players").click();
    h.run_steps(2);
    assert_eq!(h.state().shown_tool(), None);
    h.get_by_label("Start new game");
}

#[test]
fn the_engine_manager_is_in_reach_keeps_its_list_still_and_has_wide_fields_and_browse() {
    // Defect 6, at the smallest window.
    let saved = |name: &str| SavedEngine {
        name: name.into(),
        options: vec![("Hash".into(), "64".into())],
        ..SavedEngine::default()
    };
    let settings = Settings {
        engines: vec![saved("first"), saved("second")],
        animations: false,
        ..Settings::default()
    };
    let mut h = egui_kittest::Harness::builder()
        .with_size(gui::app::MIN_WINDOW)
        .build_ui_state(|ui, app: &mut GuiApp| app.show(ui), GuiApp::new(settings));
    h.run_steps(2);
    common::menu(&mut h, "Engines", "Engine manager");
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(800.0, 600.0));
    let second = h.get_by_label("second").rect();
    for label in [
        "first",
        "second",
        "New",
        "Read options",
        "Browse...",
        "Revert",
    ] {
        let r = h.get_by_label(label).rect();
        assert!(window.contains_rect(r), "{label} at {r:?} is in reach");
    }
    // The Hash option's value field (labelled by the option's name).
    let field = h
        .get_by_role_and_label(egui::accesskit::Role::TextInput, "Hash")
        .rect();
    assert!(window.contains_rect(field), "{field:?}");
    assert!(
        field.width() >= 150.0,
        "the option field is wide: {field:?}"
    );
    // An error (an engine without a name) does not move the list.
    let name = h
        .get_all_by_role(egui::accesskit::Role::TextInput)
        .next()
        .expect("the name field");
    name.click();
    h.run_steps(1);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.key_press(egui::Key::Backspace);
    h.run_steps(2);
    // The manager's Apply (the set-up's program field has one too, left of it).
    h.get_all_by_label("Apply").last().expect("Apply").click();
    h.run_steps(2);
    h.get_by_label("engine 1 has no name");
    assert_eq!(
        h.get_by_label("second").rect(),
        second,
        "the list stayed put"
    );
    // Browse: the file chosen (in the system's dialog, or in ours when none can be shown)
    // becomes the selected engine's program, in the draft.
    assert!(h.query_all_by_value("/opt/engines/other").next().is_none());
    h.state_mut().file_chosen(
        gui::dialogs::Purpose::Engine,
        std::path::Path::new("/opt/engines/other"),
    );
    h.run_steps(2);
    assert!(h.query_all_by_value("/opt/engines/other").next().is_some());
}
