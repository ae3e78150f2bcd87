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
        [640.0, 480.0],
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
    let bottom = h.get_by_label("Take back").rect().top() + 480.0 * 0.45;
    let visible = |h: &Harness<'static, GuiApp>, name: &str| {
        let r = h.get_all_by_label(name).last().expect("the move").rect();
        r.top() >= top - 1.0 && r.bottom() <= bottom
    };
    let last = names.last().expect("moves").clone();
    assert!(visible(&h, &last), "the last move is scrolled to");
    h.key_press(egui::Key::Home);
    h.run_steps(2);
    h.key_press(egui::Key::ArrowRight);
    h.run_steps(4);
    assert!(visible(&h, &names[0]), "the first move is scrolled to");
    // Every move number is on the row of its move.
    for (k, name) in names.iter().enumerate().step_by(2).take(8) {
        let number = h.get_by_label(&format!("{}.", k / 2 + 1)).rect();
        let mv = h.get_all_by_label(name).next().expect("the move").rect();
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
