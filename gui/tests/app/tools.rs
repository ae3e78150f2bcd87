//! The position editor, the engine console and the solver through the real app (egui_kittest):
//! squares clicked by their accessible labels, buttons by their text, our engine at
//! `target/debug/engine` (built when missing).

use crate::common;

use boardgames_core::games::{GameKind, Piece, Side};
use common::wait_for;
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use gui::GuiApp;
use gui::console::Role;
use gui::solve::SolveState;

/// The app with humans on both sides.
fn harness(kind: GameKind, size: usize) -> Harness<'static, GuiApp> {
    common::engine_path();
    common::harness(kind, size, Default::default(), [1200.0, 800.0])
}

fn click(h: &mut Harness<'static, GuiApp>, label: &str) {
    h.get_by_label(label).click();
    h.run_steps(2);
}

fn disabled(h: &Harness<'static, GuiApp>, label: &str) -> bool {
    h.get_by_label(label).accesskit_node().is_disabled()
}

/// Opens the solver (Analysis, Solver) and starts it.
fn start_solving(h: &mut Harness<'static, GuiApp>) {
    common::menu(h, "Analysis", "Solver");
    click(h, "Solve");
}

/// A window on `kind` at `size` whose solver is started on the start position.
fn solving(kind: GameKind, size: usize) -> Harness<'static, GuiApp> {
    let mut h = harness(kind, size);
    start_solving(&mut h);
    h
}

#[test]
fn the_editor_refuses_two_white_flags_and_plays_a_legal_position() {
    let mut h = harness(GameKind::Ctf, 3);
    common::menu(&mut h, "Edit", "Edit position...");
    assert!(h.state().editor().open);
    assert_eq!(h.state().editor().kind(), GameKind::Ctf);
    click(&mut h, "Clear");
    click(&mut h, "W  white flag");
    click(&mut h, "square a1");
    click(&mut h, "square c1");
    h.get_by_label_contains("white has 2 flags (a1, c1)");
    h.get_by_label_contains("each side has exactly one flag");
    assert!(disabled(&h, "Play from here"));
    assert!(disabled(&h, "Analyse from here"));
    // Remove one flag, give Black its flag and a pawn each: legal.
    click(&mut h, "empty (remove)");
    click(&mut h, "square c1");
    click(&mut h, "B  black flag");
    click(&mut h, "square b3");
    click(&mut h, "w  white piece");
    click(&mut h, "square b1");
    click(&mut h, "b  black piece");
    click(&mut h, "square a3");
    h.get_by_role_and_label(egui::accesskit::Role::RadioButton, "Black")
        .click();
    h.run_steps(2);
    h.get_by_label_contains("A legal position; Black to move");
    assert!(!disabled(&h, "Play from here"));
    click(&mut h, "Play from here");
    let app = h.state();
    assert!(!app.editor().open);
    let game = app.model().game();
    assert_eq!(
        (game.kind(), game.size(), game.len()),
        (GameKind::Ctf, 3, 0)
    );
    assert_eq!(game.side_to_move(0), Side::Black);
    assert_eq!(
        game.board_text(0, &boardgames_core::games::format::Format::Slash),
        "Ww-/---/bB-"
    );
    // The game's board is shown again, and Black (a human) can move from it.
    click(&mut h, "square a3");
    click(&mut h, "square a2");
    assert_eq!(h.state().model().game().len(), 1);
}

#[test]
fn the_editor_refuses_too_many_oska_pieces_and_notes_a_finished_position() {
    let mut h = harness(GameKind::Oska, 4);
    common::menu(&mut h, "Edit", "Edit position...");
    assert_eq!(h.state().editor().cells().iter().flatten().count(), 8);
    click(&mut h, "square a2");
    h.get_by_label_contains("white has 5 pieces but a side starts with only 4");
    assert!(disabled(&h, "Play from here"));
    click(&mut h, "Start position");
    assert!(!disabled(&h, "Play from here"));
    // No black piece left: the position is legal but over.
    click(&mut h, "Clear");
    click(&mut h, "square b1");
    h.get_by_label_contains("the game is already over here: White wins");
    // Analyse starts analysis mode on the edited position.
    click(&mut h, "Start position");
    click(&mut h, "empty (remove)");
    click(&mut h, "square a1");
    click(&mut h, "Analyse from here");
    assert!(h.state().analysing());
    h.get_by_label_contains(
        "The game on the table was replaced: analysis runs on the edited position",
    );
    assert_eq!(
        h.state().model().game().pieces(0).iter().flatten().count(),
        7,
        "the game starts from the edited board"
    );
    assert_eq!(h.state().model().game().piece_at(0, 0), None);
    assert_eq!(
        h.state().model().game().piece_at(0, 1),
        Some(Piece::WhitePawn)
    );
}

#[test]
fn the_console_shows_the_lines_of_our_engine_and_filters_them() {
    let mut h = harness(GameKind::Hexapawn, 3);
    common::menu(&mut h, "Analysis", "Analyse");
    wait_for(&mut h, "the analysis engine's info lines", |a| {
        a.console()
            .lines(Role::Analysis)
            .iter()
            .any(|l| l.starts_with("< info depth"))
    });
    common::menu(&mut h, "Tools", "Engine console");
    assert!(h.state().console().open);
    let (all, dropped) = h.state().console().shown_text();
    assert_eq!(dropped, 0);
    assert!(all.contains("[Analysis] > uci\n"), "{all}");
    assert!(all.contains("[Analysis] < uciok\n"), "{all}");
    assert!(all.contains("[Analysis] > go infinite\n"), "{all}");
    h.get_by_label("filter").click();
    h.run_steps(2);
    h.get_by_label("filter").type_text("uciok");
    h.run_steps(2);
    assert_eq!(h.state().console().filter, "uciok");
    let (some, _) = h.state().console().shown_text();
    assert!(some.lines().count() >= 1);
    assert!(some.lines().all(|l| l.contains("uciok")), "{some}");
    assert!(!some.contains("> uci\n"));
    common::menu(&mut h, "Analysis", "Stop analysis");
}

#[test]
fn solve_hexapawn_3_from_the_start_is_a_win_for_black() {
    let mut h = solving(GameKind::Hexapawn, 3);
    wait_for(&mut h, "the solver's answer", |a| !a.solver().running());
    assert_eq!(
        h.state().solver().state(),
        &SolveState::Solved(boardgames_core::score::Score::Loss(6))
    );
    h.get_by_label("Black wins in 6 plies");
    assert_eq!(h.state().solver().last_info().map(|i| i.depth), Some(6));
    // The best move and the line the engine proved.
    let line = h.state().solver().best_line().expect("a line").to_vec();
    assert_eq!(line, ["b1b2", "a3b2", "c1b2", "c3c2", "a1a2", "c2c1"]);
    h.get_by_label("Best move: b1b2");
    h.get_by_label("Line (6 plies): b1b2 a3b2 c1b2 c3c2 a1a2 c2c1");
    // The solver's lines are in the console.
    let lines = h.state().console().lines(Role::Solve);
    assert!(lines.contains(&"> go solve".to_string()), "{lines:?}");
    assert!(lines.contains(&"< bestmove b1b2".to_string()), "{lines:?}");
}

#[test]
fn solve_a_small_oska_position_with_black_to_move_is_told_from_whites_view() {
    // `engine solve oska w---/---/--/--b/---b b` says `loss 8`: Black, to move, loses in 8.
    let mut h = harness(GameKind::Oska, 4);
    h.state_mut()
        .model_mut()
        .set_position(GameKind::Oska, "w---/---/--/--b/---b", Side::Black)
        .expect("a legal position");
    h.run_steps(2);
    start_solving(&mut h);
    wait_for(&mut h, "the solver's answer", |a| !a.solver().running());
    h.get_by_label("White wins in 8 plies");
    // The same board with White to move: `win 7`.
    h.state_mut()
        .model_mut()
        .set_position(GameKind::Oska, "w---/---/--/--b/---b", Side::White)
        .expect("a legal position");
    h.run_steps(2);
    click(&mut h, "Solve");
    wait_for(&mut h, "the solver's answer", |a| !a.solver().running());
    h.get_by_label("White wins in 7 plies");
}

#[test]
fn the_exact_solvers_stages_reach_the_window() {
    // Hexapawn 5: stage wdl proves a win, each distance test a faster one, down to win 19.
    let mut h = solving(GameKind::Hexapawn, 5);
    wait_for(&mut h, "the solver's answer", |a| !a.solver().running());
    h.get_by_label("White wins in 19 plies");
    let solver = h.state().solver();
    let last = solver.progress().expect("progress lines came");
    assert_eq!(last.stage.as_deref(), Some("distance"));
    assert_eq!(last.bound, Some(boardgames_core::score::Score::Win(19)));
    assert_eq!(solver.best_line().map(|l| l.len()), Some(19));
    h.get_by_label("Best move: d1d2");
    assert!(h.query_by_label_contains("Proven so far").is_none());
}

#[test]
fn a_long_exact_solve_shows_its_progress_and_can_be_stopped() {
    let mut h = solving(GameKind::Oska, 6);
    // The engine reports about once a second.
    wait_for(&mut h, "a progress line", |a| {
        a.solver().progress().is_some()
    });
    h.run_steps(2);
    h.get_by_label_contains("stage wdl (win, draw or loss?): root move ");
    h.get_by_label_contains(" of 10, ");
    assert!(h.state().solver().best_line().is_none());
    click(&mut h, "Stop");
    wait_for(&mut h, "the stop", |a| !a.solver().running());
    assert_eq!(h.state().solver().state(), &SolveState::Stopped);
    h.get_by_label("Stopped before the value was proven");
    assert!(h.query_by_label_contains("Best move").is_none());
}

#[test]
fn a_capture_the_flag_solve_can_be_stopped() {
    let mut h = solving(GameKind::Ctf, 7);
    h.get_by_label_contains("exact for this game's history");
    let stopping = h.state().solver().running();
    if stopping {
        click(&mut h, "Stop");
        wait_for(&mut h, "the stop", |a| !a.solver().running());
    }
    let state = h.state().solver().state().clone();
    if stopping {
        assert_eq!(state, SolveState::Stopped);
        h.get_by_label("Stopped before the value was proven");
        let lines = h.state().console().lines(Role::Solve);
        let stop = lines
            .iter()
            .position(|l| l == "> stop")
            .expect("stop was sent");
        assert!(
            lines[stop..].iter().any(|l| l.starts_with("< bestmove")),
            "{lines:?}"
        );
    } else {
        assert!(matches!(state, SolveState::Solved(_)), "{state:?}");
    }
}

#[test]
fn an_engine_log_keeps_its_last_lines_and_counts_the_dropped() {
    use gui::console::Console;
    use gui::controller::{LOG_LINES, log_line};
    let console = Console::default();
    let log = console.log(Role::Tree);
    for i in 0..LOG_LINES + 3 {
        log_line(&log, format!("< info trace {i}"));
    }
    let lines = console.lines(Role::Tree);
    assert_eq!(lines.len(), LOG_LINES);
    assert_eq!(lines[0], "< info trace 3");
    let (text, dropped) = console.shown_text();
    assert_eq!(dropped, 3);
    assert_eq!(text.lines().count(), LOG_LINES);
}
