//! The `gui` program: opens the window and runs [`gui::GuiApp`].
//!
//! `gui [GAME SIZE [MOVE...]]` starts with that game (and those moves played) instead of the
//! last set-up's new game; anything unreadable is reported in the window's status line.

use eframe::egui;

fn main() -> eframe::Result {
    let args: Vec<String> = std::env::args().skip(1).collect();
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
            let mut app = gui::GuiApp::new(settings);
            app.start_from_args(&args);
            Ok(Box::new(app))
        }),
    )
}
