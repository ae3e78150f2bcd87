//! The `gui` program: opens the window and runs [`gui::GuiApp`].
//!
//! `gui [--engines] [--analyse] [--tree DEPTH] [GAME SIZE [MOVE...]]` starts with that game (and
//! those moves played) instead of the last set-up's new game; anything unreadable is reported in
//! the window's status line. `--engines` lets our engine play both sides, `--analyse` turns
//! analysis on, `--tree DEPTH` opens the search tree window with a traced search of that depth,
//! `--edit` opens the position editor on the shown position, `--console` the engine console and
//! `--solve` the solver window, solving the shown position.

use eframe::egui;

fn main() -> eframe::Result {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut take = |flag: &str| {
        let at = args.iter().position(|a| a == flag)?;
        args.remove(at);
        Some(at)
    };
    let engines = take("--engines").is_some();
    let analyse = take("--analyse").is_some();
    let edit = take("--edit").is_some();
    let console = take("--console").is_some();
    let solve = take("--solve").is_some();
    let tree = take("--tree");
    let tree_depth = tree.and_then(|at| (at < args.len()).then(|| args.remove(at)));
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Oska, Hexapawn and Capture the Flag")
            .with_inner_size([1100.0, 720.0]),
        ..Default::default()
    };
    eframe::run_native(
        "boardgames-gui",
        options,
        Box::new(move |cc| {
            let settings: gui::Settings = cc
                .storage
                .and_then(|s| eframe::get_value(s, gui::app::SETTINGS_KEY))
                .unwrap_or_default();
            let mut settings = settings;
            if engines {
                for p in &mut settings.players {
                    p.engine = true;
                }
            }
            let mut app = gui::GuiApp::new(settings);
            app.start_from_args(&args);
            if analyse {
                app.set_analysis(true);
            }
            if let Some(depth) = tree_depth {
                app.tree_mut().depth = depth.parse().unwrap_or(2);
                app.run_tree_search();
            }
            if edit {
                app.open_editor();
            }
            if console {
                app.console_mut().open = true;
            }
            if solve {
                app.run_solve();
            }
            Ok(Box::new(app))
        }),
    )
}
