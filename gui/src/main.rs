//! The `gui` program: opens the window and runs [`gui::GuiApp`].

use eframe::egui;

fn main() -> eframe::Result {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Oska, Hexapawn and Capture the Flag")
            .with_inner_size([1100.0, 720.0]),
        ..Default::default()
    };
    eframe::run_native(
        "boardgames-gui",
        options,
        Box::new(|cc| {
            let settings: gui::Settings = cc
                .storage
                .and_then(|s| eframe::get_value(s, gui::app::SETTINGS_KEY))
                .unwrap_or_default();
            Ok(Box::new(gui::GuiApp::new(settings)))
        }),
    )
}
