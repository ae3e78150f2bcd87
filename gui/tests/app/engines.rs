//! Saved engines, MultiPV analysis lines and the tablebase page, through the real app: the saved
//! engine's options sent with `setoption` after the handshake (as the console shows), the
//! engine's own name shown with the saved one, the engine manager reading the declared options,
//! one panel line and one arrow per analysis line, and the tablebase page's values and moves.

use crate::common;

use std::path::PathBuf;

use boardgames_core::games::{GameKind, Hexapawn};
use boardgames_core::protocol::{OptionKind, SearchInfo};
use boardgames_core::score::Score;
use common::{engine_path, wait_for, write_script};
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use gui::GuiApp;
use gui::app::{Limit, Player};
use gui::console::Role;
use gui::error::TableError;
use gui::model::eval::EngineView;
use gui::panels::Action;
use gui::panels::board_area::lines_arrows;
use gui::settings::SavedEngine;
use gui::tablebase::probe;
use gui::{Settings, game::GameState};

/// A scripted engine that declares two options, refuses `setoption name Bad`, and answers `go`
/// with one line, then waits for `stop`.
fn scripted() -> PathBuf {
    write_script(
        "options",
        "while read line; do case \"$line\" in\n\
         uci) echo 'id name scripted 1.0'; \
              echo 'option name Hash type spin default 16 min 1 max 64'; \
              echo 'option name Style type combo default calm var calm var sharp'; \
              echo uciok;;\n\
         'setoption name Bad'*) echo 'error unsupported there is no option Bad';;\n\
         isready) echo readyok;;\n\
         go*) echo 'info depth 2 score cp 10 nodes 50 nps 500 time 1 pv a5a4';;\n\
         stop) echo 'bestmove a5a4';;\n\
         quit) exit 0;;\n\
         esac; done\n",
    )
}

fn app(settings: Settings) -> Harness<'static, GuiApp> {
    let mut h = Harness::builder()
        .with_size([1100.0, 720.0])
        .build_ui_state(|ui, app: &mut GuiApp| app.show(ui), GuiApp::new(settings));
    h.run_steps(2);
    h
}

fn saved(name: &str, program: PathBuf, options: &[(&str, &str)]) -> SavedEngine {
    SavedEngine {
        name: name.into(),
        program: program.display().to_string(),
        args: String::new(),
        options: options
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect(),
    }
}

/// Settings in which White is a human and Black the saved engine `engine`, played as `black`
/// says beyond that.
fn black_plays(engine: SavedEngine, black: Player) -> Settings {
    Settings {
        players: [
            Player::default(),
            Player {
                engine: true,
                saved: engine.name.clone(),
                ..black
            },
        ],
        engines: vec![engine],
        ..Settings::default()
    }
}

#[test]
fn a_saved_engine_plays_with_its_options_and_shows_both_names() {
    let engine = saved(
        "my scripted",
        scripted(),
        &[("Hash", "32"), ("Style", "sharp")],
    );
    let black = Player {
        limit: Limit::Depth,
        value: 2,
        ..Player::default()
    };
    let settings = Settings {
        game: "oska".into(),
        size: 4,
        ..black_plays(engine, black)
    };
    let mut h = app(settings);
    common::black_reports_after_a1a2(&mut h, "the saved engine's search");
    // The options went out after the handshake, before the game, as the console shows.
    let lines = h.state().console().lines(Role::Black);
    let at = |text: &str| {
        lines
            .iter()
            .position(|l| l == text)
            .unwrap_or_else(|| panic!("'{text}' not in the console: {lines:#?}"))
    };
    assert!(at("< uciok") < at("> setoption name Hash value 32"));
    assert!(at("> setoption name Hash value 32") < at("> setoption name Style value sharp"));
    assert!(at("> setoption name Style value sharp") < at("> newgame oska 4"));
    // The saved name and the engine's own `id name`, in the set-up and the panel's title.
    let view = h.state().model().engine_views()[1].clone().expect("a view");
    assert_eq!(view.engine, "my scripted (scripted 1.0)");
    h.get_by_label("Black's engine (searching)");
    assert!(h.query_all_by_label("my scripted (scripted 1.0)").count() >= 1);
    h.get_by_label("my scripted (scripted 1.0): running");
    assert_eq!(h.state().engine_names()[1].as_deref(), Some("scripted 1.0"));
}

#[test]
fn a_refused_option_is_reported_and_the_engine_goes_on() {
    let settings = black_plays(saved("bad", scripted(), &[("Bad", "1")]), Player::default());
    let mut h = app(settings);
    common::black_reports_after_a1a2(&mut h, "the search");
    let (text, error) = h.state().model().message().expect("a message");
    assert!(error, "{text}");
    assert!(
        text.contains("refused 'setoption name Bad value 1'")
            && text.contains("there is no option Bad"),
        "{text}"
    );
}

#[test]
fn changing_a_saved_engines_options_restarts_it_with_them() {
    let settings = black_plays(saved("s", scripted(), &[("Hash", "32")]), Player::default());
    let mut h = app(settings);
    common::black_reports_after_a1a2(&mut h, "the first search");
    let mut list = h.state().settings.engines.clone();
    list[0].options = vec![("Hash".into(), "8".into())];
    h.state_mut().apply(Action::SetEngines(list));
    wait_for(&mut h, "the restarted engine's option", |a| {
        a.console()
            .lines(Role::Black)
            .iter()
            .any(|l| l == "> setoption name Hash value 8")
    });
}

#[test]
fn the_engine_manager_reads_the_declared_options_and_applies_on_apply() {
    let settings = Settings {
        engines: vec![saved("s", scripted(), &[])],
        // Humans only: no set-up panel Apply besides the window's.
        players: Default::default(),
        ..Settings::default()
    };
    let mut h = app(settings);
    h.state_mut().apply(Action::OpenEngines);
    h.run_steps(2);
    h.get_by_label("Read options").click();
    wait_for(&mut h, "the declared options", |a| {
        a.engine_manager().declared("s").is_some()
    });
    let info = h.state().engine_manager().declared("s").expect("read");
    assert_eq!(info.name, "scripted 1.0");
    assert_eq!(
        info.options
            .iter()
            .map(|o| o.name.as_str())
            .collect::<Vec<_>>(),
        ["Hash", "Style"]
    );
    assert!(matches!(
        info.options[0].kind,
        OptionKind::Spin {
            default: 16,
            min: 1,
            max: 64
        }
    ));
    h.get_by_label("id name: scripted 1.0");
    h.get_by_label("Hash");
    h.get_by_label("Style");
    // Typing a name changes nothing until Apply.
    h.get_by_label("name").click();
    h.run_steps(2);
    h.get_by_label("name").type_text("2");
    h.run_steps(2);
    assert_eq!(h.state().settings.engines[0].name, "s");
    h.get_by_label("not applied yet");
    h.key_press(egui::Key::Tab);
    h.run_steps(2);
    h.get_by_label("Apply").click();
    h.run_steps(2);
    let name = h.state().settings.engines[0].name.clone();
    assert!(
        name != "s" && name.contains('2'),
        "{name} {:?}",
        h.state().model().message()
    );
}

#[test]
fn an_engine_view_keeps_the_last_line_of_each_multipv() {
    let line = |depth: u32, k: u32, cp: i32, mv: &str| SearchInfo {
        depth,
        multipv: Some(k),
        score: Score::Cp(cp),
        nodes: 1,
        nps: 1,
        time_ms: 0,
        tbhits: 0,
        pv: vec![mv.into()],
    };
    let game = GameState::new(GameKind::Hexapawn, 3).expect("a game");
    let mut v = EngineView::new(
        "Analysis".into(),
        Vec::new(),
        boardgames_core::games::Side::White,
    );
    assert!(v.record(line(1, 1, 10, "a1a2")));
    assert!(!v.record(line(1, 2, 5, "b1b2")));
    assert!(!v.record(line(1, 3, 1, "c1c2")));
    assert!(v.record(line(2, 1, 20, "b1b2")));
    assert!(!v.record(line(2, 2, 15, "a1a2")));
    let shown: Vec<(u32, String)> = v
        .shown_lines()
        .iter()
        .map(|i| (i.depth, i.pv[0].clone()))
        .collect();
    assert_eq!(
        shown,
        [(2, "b1b2".into()), (2, "a1a2".into()), (1, "c1c2".into())]
    );
    assert_eq!(v.info.as_ref().map(|i| i.depth), Some(2));
    let names: Vec<String> = v
        .line_moves(&game)
        .iter()
        .map(|m| game.square_name(usize::from(m.from)) + &game.square_name(usize::from(m.to)))
        .collect();
    assert_eq!(names, ["b1b2", "a1a2", "c1c2"]);
}

#[test]
fn analysis_shows_three_lines_and_three_arrows() {
    let _ = engine_path();
    let settings = Settings {
        game: "hexapawn".into(),
        size: 3,
        lines: 3,
        players: Default::default(),
        ..Settings::default()
    };
    let mut h = app(settings);
    h.state_mut().new_game();
    h.state_mut().set_analysis(true);
    wait_for(&mut h, "three analysis lines", |a| {
        a.model().engine_views()[2]
            .as_ref()
            .is_some_and(|v| v.shown_lines().len() == 3)
    });
    assert!(
        h.state()
            .console()
            .lines(Role::Analysis)
            .iter()
            .any(|l| l == "> setoption name MultiPV value 3")
    );
    for k in 1..=3 {
        assert!(
            h.query_all_by_label_contains(&format!("{k}. ")).count() >= 1,
            "line {k} is not shown"
        );
    }
    let arrows = lines_arrows(h.state().model());
    assert_eq!(arrows.len(), 3, "{arrows:?}");
    let mut distinct = arrows.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 3, "one arrow a line: {arrows:?}");
    // Back to one line: one arrow (the ordinary best-move arrow).
    h.state_mut().apply(Action::SetLines(1));
    wait_for(&mut h, "one line", |a| {
        a.console()
            .lines(Role::Analysis)
            .iter()
            .any(|l| l == "> setoption name MultiPV value 1")
            && a.model().engine_views()[2]
                .as_ref()
                .is_some_and(|v| v.info.is_some() && v.shown_lines().len() == 1)
    });
    assert!(lines_arrows(h.state().model()).is_empty());
    assert!(h.state().model().best_shown().is_some());
}

#[test]
fn the_tablebase_page_gives_every_moves_value_and_plays_a_click() {
    let dir = common::tables::<Hexapawn>("test-tables", 3);
    // The page's values, as `engine tablebase probe` gives them.
    let game = GameState::new(GameKind::Hexapawn, 3).expect("a game");
    let report = probe(&dir, &game, 0).expect("covered");
    assert_eq!(report.value, Score::Loss(6));
    let moves: Vec<(String, Score)> = report
        .moves
        .iter()
        .map(|m| (m.name.clone(), m.score))
        .collect();
    assert_eq!(
        moves,
        [
            ("b1b2".into(), Score::Loss(6)),
            ("a1a2".into(), Score::Loss(4)),
            ("c1c2".into(), Score::Loss(4)),
        ]
    );
    // Through the window: the verdict, each move with its value, and a click plays the move.
    let settings = Settings {
        game: "hexapawn".into(),
        size: 3,
        tablebase: dir.display().to_string(),
        players: Default::default(),
        ..Settings::default()
    };
    let mut h = app(settings);
    h.state_mut().new_game();
    h.state_mut().set_tablebase(true);
    wait_for(&mut h, "the probe", |a| a.tablebase().report().is_some());
    h.get_by_label("Black wins in 6 plies");
    h.get_by_label("White to move: loss in 6");
    assert_eq!(h.query_all_by_label("loss in 4").count(), 2);
    h.get_by_label("b1b2").click();
    h.run_steps(2);
    assert_eq!(h.state().model().game().move_names(), ["b1b2"]);
    // The page follows: Black to move after b1b2 wins in 5.
    wait_for(&mut h, "the next probe", |a| {
        a.tablebase()
            .report()
            .is_some_and(|r| r.as_ref().is_ok_and(|r| r.value == Score::Win(5)))
    });
    h.get_by_label("Black wins in 5 plies");
    // Capture the Flag has no tables; a directory without tables says how to build them.
    let ctf = GameState::new(GameKind::Ctf, 4).expect("a game");
    let why = probe(&dir, &ctf, 0).unwrap_err();
    assert!(matches!(why, TableError::NoTables), "{why:?}");
    assert!(why.to_string().contains("no tablebases"), "{why}");
    let oska = GameState::new(GameKind::Oska, 4).expect("a game");
    let why = probe(&dir, &oska, 0).unwrap_err();
    assert!(
        matches!(why, TableError::Missing { size: 4, .. }),
        "{why:?}"
    );
    assert!(
        why.to_string().contains("engine tablebase build oska 4"),
        "{why}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_new_settings_are_kept_between_runs() {
    let settings = Settings {
        engines: vec![saved("s", PathBuf::from("/bin/e"), &[("Hash", "8")])],
        analysis: "s".into(),
        lines: 3,
        tablebase: "/tables".into(),
        ..Settings::default()
    };
    let text = ron::to_string(&settings).expect("serialised");
    let back: Settings = ron::from_str(&text).expect("read back");
    assert_eq!(back, settings);
    // Renaming an engine in place keeps it chosen; deleting it falls back to the typed program.
    let mut s = settings.clone();
    s.players[1].saved = "s".into();
    let mut renamed = s.engines.clone();
    renamed[0].name = "t".into();
    s.set_engines(renamed);
    assert_eq!(
        (s.players[1].saved.as_str(), s.analysis.as_str()),
        ("t", "t")
    );
    assert_eq!(s.player_label(1), "t");
    s.set_engines(Vec::new());
    assert_eq!(s.player_label(1), "engine (ours)");
    // Settings of an older version, without the new fields, still load.
    let old: Settings = ron::from_str("(game: \"hexapawn\", size: 3)").expect("old settings");
    assert_eq!(old.lines(), 1);
    assert!(old.engines.is_empty());
    // The analysis and the player launch follow the saved engine, options included.
    assert_eq!(
        settings.analysis_launch().options,
        [("Hash".to_string(), "8".to_string())]
    );
}
