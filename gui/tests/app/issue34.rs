//! The defects listed in issue 34, each checked through the app (or the settings it starts
//! with): `--engines` plays our engine, a failure's error goes when no engine is left, the
//! solver's "1 move played", and the game's end in one capitalisation.

use crate::common;

use boardgames_core::games::GameKind;
use common::{engine, harness, wait_for, write_script};
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
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
        .apply(Action::Play(boardgames_core::games::Move {
            from: 0,
            to: 5,
        }));
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
    // Its close button is the first (the Players tab has none).
    h.get_all_by_label("Close")
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
    // Where the list is within the panel (which scrolls at this size, issue 49).
    let list_at = |h: &egui_kittest::Harness<'static, GuiApp>| {
        h.get_by_label("second").rect().top() - h.get_by_label("Saved engines").rect().top()
    };
    let second = list_at(&h);
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
    // Said at once, above the list (issue 49: Apply waits for a list it can apply).
    h.get_by_label_contains("engine 1 has no name");
    assert_eq!(list_at(&h), second, "the list stayed put");
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

#[test]
fn records_name_the_engine_the_same_before_and_after_it_started_and_open_without_players() {
    // Defect 7: the engine's name in saved records was its `id name` once running, else the
    // set-up's label; and a record without White/Black tags was refused.
    let mut h = harness(
        GameKind::Hexapawn,
        3,
        [Player::default(), engine(common::engine_path(), 2)],
        [1100.0, 760.0],
    );
    let dir = std::env::temp_dir().join(format!("gui-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let black_of = |h: &mut Harness<'static, GuiApp>, name: &str| {
        let path = dir.join(name);
        h.state_mut().save(&path).expect("saved");
        let text = std::fs::read_to_string(&path).expect("read");
        let records = boardgames_core::record::parse_records(&text).expect("a record");
        records[0].black.clone()
    };
    let before = black_of(&mut h, "before.games");
    h.state_mut()
        .start_from_args(&["hexapawn".into(), "3".into(), "b1b2".into()]);
    wait_for(&mut h, "the engine's handshake", |a| {
        a.engine_names()[1].is_some()
    });
    let running = black_of(&mut h, "running.games");
    assert_eq!(before, running);
    assert_eq!(running, h.state().settings.player_label(1));
    assert_eq!(
        h.state().player_name(boardgames_core::games::Side::White),
        "human"
    );
    // A record with neither White nor Black opens; its players are "?".
    let bare = dir.join("bare.games");
    std::fs::write(
        &bare,
        "[Game \"hexapawn\"]\n[Size \"3\"]\n[Start \"startpos\"]\n[Result \"*\"]\nb1b2 a3a2\n",
    )
    .expect("write");
    let opened = h.state_mut().model_mut().open(&bare);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(opened.expect("opened"), 1);
    assert_eq!(h.state().model().game().move_names(), ["b1b2", "a3a2"]);
    assert_eq!(h.state().model().records()[0].white, "?");
}

/// Every Oska 4 table, built into a fresh temporary directory named after `tag` (seconds).
fn oska4_tables(tag: &str) -> std::path::PathBuf {
    common::tables::<boardgames_core::games::Oska>(&format!("review-{tag}"), 4)
}

/// Without tables the review's exact values come from the solver (within its node budget):
/// on a whole Oska 4 game every position is proven, and each value equals the tables'.
#[test]
fn the_review_without_tables_gets_exact_values_from_the_solver_equal_to_the_tables() {
    use boardgames_core::games::{Game, Oska};
    use boardgames_core::tablebase::Tablebase;
    let dir = oska4_tables("solver");
    let empty = dir.with_extension("empty");
    std::fs::create_dir_all(&empty).expect("an empty directory");
    let mut game = gui::game::GameState::new(GameKind::Oska, 4).expect("oska 4");
    while game.outcome(game.len()).is_none() {
        let ply = game.len();
        let mv = *game.legal_moves(ply).first().expect("a move");
        game.play(ply, mv).expect("legal");
    }
    let solved = gui::review::all_exact_values(&empty, &game);
    let tb = Tablebase::open::<Oska>(&dir, 4, 0).expect("tables");
    assert_eq!(solved.len(), game.len() + 1);
    for (ply, v) in solved.iter().enumerate() {
        let v = v.unwrap_or_else(|| panic!("not proven after {ply} moves"));
        assert!(v.exact, "after {ply} moves");
        if game.outcome(ply).is_none() {
            let side = game.side_to_move(ply);
            let pos = Oska::from_cells(4, &game.pieces(ply), side).expect("position");
            let want = gui::model::white_view(tb.probe(&pos).expect("covered"), side);
            assert_eq!(v.score, want, "after {ply} moves");
        }
    }
    // With the tables, the same scores (the tables answer first, the solver is not needed).
    let scores = |v: &[Option<gui::review::Value>]| -> Vec<_> {
        v.iter().map(|v| v.map(|v| v.score)).collect()
    };
    assert_eq!(
        scores(&gui::review::all_exact_values(&dir, &game)),
        scores(&solved)
    );
    std::fs::remove_dir_all(&empty).ok();
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_review_of_a_finished_oska_4_game_gives_the_tables_values_and_marks_saved_as_comments() {
    use boardgames_core::games::{Game, Oska, Side};
    use boardgames_core::score::Score;
    use boardgames_core::tablebase::Tablebase;
    use gui::panels::dock::Tool;
    let dir = oska4_tables("tables");
    let mut h = harness(
        GameKind::Oska,
        4,
        [Player::default(), Player::default()],
        [1280.0, 800.0],
    );
    h.state_mut().settings.tablebase = dir.display().to_string();
    // A whole game: the last legal move each ply, to its end by the rules.
    let mut game = gui::game::GameState::new(GameKind::Oska, 4).expect("oska 4");
    while game.outcome(game.len()).is_none() {
        let ply = game.len();
        let mv = *game.legal_moves(ply).last().expect("a move");
        game.play(ply, mv).expect("legal");
    }
    let n = game.len();
    h.state_mut().model_mut().set_game(game.clone());
    h.run_steps(2);
    crate::common::menu(&mut h, "Analysis", "Game review");
    assert_eq!(h.state().shown_tool(), Some(Tool::Review));
    h.get_by_label("Review the game").click();
    h.run_steps(2);
    wait_for(&mut h, "the review", |a| {
        !a.review().running() && a.review().game().is_some()
    });
    // Every position's value is the tables' (White's view), exact; the end is the result.
    let tb = Tablebase::open::<Oska>(&dir, 4, 0).expect("tables");
    let values = h.state().review().values().to_vec();
    assert_eq!(values.len(), n + 1);
    for (ply, v) in values.iter().enumerate() {
        let v = v.unwrap_or_else(|| panic!("no value after {ply} moves"));
        assert!(v.exact, "after {ply} moves");
        let side = game.side_to_move(ply);
        let want = match game.outcome(ply) {
            Some(o) => match o.winner() {
                Some(Side::White) => Score::Win(0),
                Some(Side::Black) => Score::Loss(0),
                None => Score::Draw,
            },
            None => {
                let pos = Oska::from_cells(4, &game.pieces(ply), side).expect("position");
                let score = tb.probe(&pos).expect("covered");
                gui::model::white_view(score, side)
            }
        };
        assert_eq!(v.score, want, "after {ply} moves");
    }
    // The marks follow the rule: a move from an exact win (or draw) to less is "??".
    let moves = h.state().review().moves();
    assert_eq!(moves.len(), n);
    for m in &moves {
        let (before, after) = (
            gui::model::white_view(m.before.score, m.side),
            gui::model::white_view(m.after.score, m.side),
        );
        let rank = |s: Score| match s {
            Score::Win(_) => 2,
            Score::Draw => 1,
            _ => 0,
        };
        assert_eq!(m.mark == "??", rank(after) < rank(before), "{m:?}");
    }
    // The per-side accuracy is shown, and the graph draws the values.
    h.get_by_label_contains("White accuracy");
    h.get_by_label_contains("Black accuracy");
    assert_eq!(
        h.state().model().graph_points().len(),
        n + 1,
        "the start too"
    );
    // A click on a reviewed move shows it.
    let first = &moves[0];
    h.get_by_label(&format!("1. {}{}", first.name, first.mark))
        .click();
    h.run_steps(2);
    assert_eq!(h.state().model().view(), 1);
    // Saved as comment lines other readers skip, and read back on open.
    let marked: Vec<_> = moves.iter().filter(|m| !m.mark.is_empty()).collect();
    assert!(!marked.is_empty(), "this game has marked moves");
    let path = dir.join("reviewed.games");
    h.state_mut().save(&path).expect("saved");
    let text = std::fs::read_to_string(&path).expect("read");
    let records = boardgames_core::record::parse_records(&text).expect("other readers read it");
    assert_eq!(records[0].moves.len(), n);
    for m in &marked {
        let line = format!("# review {} {} {}", m.ply + 1, m.name, m.mark);
        assert!(text.contains(&line), "{line} in {text}");
    }
    h.state_mut().model_mut().open(&path).expect("opened");
    let tree = h.state().model().tree();
    let line = h.state().model().line().to_vec();
    for m in &moves {
        assert_eq!(tree.mark(line[m.ply + 1]), m.mark, "{m:?}");
    }
    // Another game on the table forgets the review (its moves were the old game's).
    h.state_mut().apply(Action::NewGame);
    h.run_steps(2);
    assert!(h.state().review().game().is_none());
    h.get_by_label("Review the game");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_session_game_tools_and_players_come_back_on_the_next_start() {
    use gui::panels::dock::Tool;
    let mut h = harness(
        GameKind::Hexapawn,
        3,
        [Player::default(), Player::default()],
        [1100.0, 760.0],
    );
    h.state_mut()
        .start_from_args(&["hexapawn".into(), "3".into(), "b1b2".into()]);
    let mv = h.state().model().game().legal_moves(1)[0];
    h.state_mut().apply(Action::Play(mv));
    h.state_mut().apply(Action::GoTo(1));
    h.state_mut().show_tool(Tool::Console, true);
    h.run_steps(2);
    let names = h.state().model().game().move_names();
    assert!(h.state().model().unsaved());
    h.state_mut().remember_session();
    let settings = h.state().settings.clone();
    assert_eq!(settings.tools, ["console"]);
    let mut again = egui_kittest::Harness::builder()
        .with_size([1100.0, 760.0])
        .build_ui_state(|ui, app: &mut GuiApp| app.show(ui), GuiApp::new(settings));
    again.run_steps(2);
    let model = again.state().model();
    assert_eq!(model.game().move_names(), names);
    assert_eq!(model.view(), 1);
    assert!(
        model.unsaved(),
        "still to be saved: the question asks before it goes"
    );
    assert!(model.paused());
    assert_eq!(again.state().open_tools(), [Tool::Console]);
    again.get_by_label_contains("The last session's game was restored");
    // A game without moves leaves no session; a damaged one says so.
    let mut empty = harness(
        GameKind::Oska,
        4,
        [Player::default(), Player::default()],
        [1100.0, 760.0],
    );
    empty.state_mut().remember_session();
    assert_eq!(empty.state().settings.session.record, "");
    let mut bad = empty.state().settings.clone();
    bad.session.record = "[Game \"chess\"]\n".into();
    let app = GuiApp::new(bad);
    let (text, error) = app.model().message().expect("a message");
    assert!(error && text.contains("could not be restored"), "{text}");
}

#[test]
fn the_console_sends_typed_protocol_commands_to_an_idle_engine() {
    use gui::console::Role;
    use gui::panels::dock::Tool;
    let mut h = harness(
        GameKind::Hexapawn,
        3,
        [Player::default(), engine(common::engine_path(), 2)],
        [1280.0, 800.0],
    );
    h.state_mut()
        .start_from_args(&["hexapawn".into(), "3".into(), "b1b2".into()]);
    wait_for(&mut h, "Black's reply", |a| a.model().game().len() == 2);
    h.state_mut().show_tool(Tool::Console, true);
    h.state_mut().console_mut().shown = Some(Role::Black);
    h.run_steps(2);
    let typed = |h: &mut Harness<'static, GuiApp>, text: &str| {
        h.state_mut().console_mut().command = text.into();
        h.run_steps(1);
        h.get_by_label("Send").click();
        h.run_steps(2);
    };
    typed(&mut h, "legal");
    wait_for(&mut h, "the answer to legal", |a| {
        let lines = a.console().lines(Role::Black);
        lines
            .iter()
            .position(|l| l == "> legal")
            .is_some_and(|k| lines[k + 1..].iter().any(|l| l == "< readyok"))
    });
    // The GUI drives searches itself; a line that is no command is refused by the protocol.
    typed(&mut h, "go depth 3");
    typed(&mut h, "bogus");
    wait_for(&mut h, "the refusals", |a| {
        let lines = a.console().lines(Role::Black);
        lines
            .iter()
            .any(|l| l.starts_with("# not sent: 'go depth 3'"))
            && lines.iter().any(|l| l.starts_with("# not sent: 'bogus'"))
    });
    assert_eq!(h.state().model().game().len(), 2, "no move was played");
    // The engine still plays afterwards.
    let mv = h.state().model().game().legal_moves(2)[0];
    h.state_mut().apply(Action::Play(mv));
    wait_for(&mut h, "Black's next reply", |a| {
        a.model().game().len() >= 4 || a.model().game().outcome(3).is_some()
    });
    assert_eq!(h.state().model().halted(), None);
}

#[test]
fn our_file_dialog_lists_the_folder_and_opens_the_file_typed_or_clicked() {
    // What Open... falls back to when no system dialog can be shown (no portal, no zenity).
    let dir = std::env::temp_dir().join(format!("gui-path-dialog-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).expect("dir");
    let file = dir.join("kept.games");
    std::fs::write(
        &file,
        "[Game \"hexapawn\"]\n[Size \"3\"]\n[Start \"startpos\"]\n[Result \"*\"]\nb1b2\n",
    )
    .expect("write");
    let mut h = harness(
        GameKind::Oska,
        4,
        [Player::default(), Player::default()],
        [1100.0, 760.0],
    );
    h.state_mut().settings.path = format!("{}/", dir.display());
    h.state_mut().open_path_dialog(gui::dialogs::Purpose::Open);
    h.run_steps(2);
    h.get_by_label(gui::panels::path_dialog::TITLE);
    h.get_by_label("sub/");
    // A click on the file fills the path; Open opens it.
    click(&mut h, "kept.games");
    click(&mut h, "Open");
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(h.state().model().game().move_names(), ["b1b2"]);
    assert_eq!(h.state().model().file(), Some(file.as_path()));
    assert!(h.query_by_label(gui::panels::path_dialog::TITLE).is_none());
}
