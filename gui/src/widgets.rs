//! Small widgets shared by the panels and the editor.

use boardgames_core::games::GameKind;
use eframe::egui::{self, Color32, RichText};

/// The colour of errors.
pub const ERROR: Color32 = Color32::from_rgb(0xd0, 0x30, 0x30);

/// A drop-down list of the three games, labelled "game".
pub fn game_picker(ui: &mut egui::Ui, kind: &mut GameKind) {
    egui::ComboBox::from_label("game")
        .selected_text(kind.name())
        .show_ui(ui, |ui| {
            for k in GameKind::ALL {
                ui.selectable_value(kind, k, k.name());
            }
        });
}

/// A slider of a game's sizes, labelled as the game counts its size.
pub fn size_slider(ui: &mut egui::Ui, kind: GameKind, size: &mut usize) -> egui::Response {
    let (lo, hi) = kind.size_range();
    let label = if kind == GameKind::Oska {
        "pieces a side"
    } else {
        "board width"
    };
    ui.add(egui::Slider::new(size, lo..=hi).text(label))
}

/// A text in the error colour.
pub fn error_label(ui: &mut egui::Ui, text: &str) -> egui::Response {
    ui.label(RichText::new(text).color(ERROR))
}
