//! The "Set position" window: a board typed in any seed format, its game and the side to move.

use boardgames_core::games::format::Format;
use boardgames_core::games::{GameKind, Side};
use eframe::egui;

use super::Action;
use crate::model::Model;
use crate::widgets;

/// The window's state while it is open.
#[derive(Clone, Debug, Default)]
pub struct PositionDialog {
    /// Whether the window is open.
    pub open: bool,
    game: Option<GameKind>,
    text: String,
    black: bool,
    /// Why the last board was refused.
    pub error: Option<String>,
}

/// What the window asks for besides an [`Action`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionAction {
    /// Play from the typed board.
    Set(Action),
    /// Open the position editor on the shown position instead.
    Edit,
}

impl PositionDialog {
    /// Opens the window on the shown position of `model`.
    pub fn open_on(&mut self, model: &Model) {
        self.open = true;
        self.game = Some(model.game().kind());
        self.text = model.board_text(&Format::Slash);
        self.black = model.game().side_to_move(model.view()) == Side::Black;
        self.error = None;
    }

    /// Draws the window while it is open.
    pub fn window(&mut self, ctx: &egui::Context) -> Option<PositionAction> {
        if !self.open {
            return None;
        }
        let mut open = true;
        let mut action = None;
        egui::Window::new("Set position")
            .open(&mut open)
            .collapsible(false)
            .show(ctx, |ui| {
                let mut kind = self.game.unwrap_or(GameKind::Oska);
                egui::ComboBox::from_label("game of the board")
                    .selected_text(kind.name())
                    .show_ui(ui, |ui| {
                        for k in GameKind::ALL {
                            ui.selectable_value(&mut kind, k, k.name());
                        }
                    });
                self.game = Some(kind);
                ui.label("The board in any seed format: wwww/---/--/---/bbbb, ['www','---','bbb'], a Lisp list, a flat string or a Capture the Flag history list (most recent first).");
                let label = ui.label("board");
                ui.add(
                    egui::TextEdit::multiline(&mut self.text)
                        .font(egui::TextStyle::Monospace)
                        .desired_rows(3)
                        .desired_width(400.0),
                )
                .labelled_by(label.id);
                ui.horizontal(|ui| {
                    ui.label("to move:");
                    ui.radio_value(&mut self.black, false, "White");
                    ui.radio_value(&mut self.black, true, "Black");
                });
                if let Some(e) = &self.error {
                    widgets::error_label(ui, e);
                }
                ui.horizontal(|ui| {
                    if ui.button("Set").clicked() {
                        let side = if self.black { Side::Black } else { Side::White };
                        action = Some(PositionAction::Set(Action::SetPosition(
                            kind,
                            self.text.clone(),
                            side,
                        )));
                    }
                    if ui
                        .button("Edit on the board...")
                        .on_hover_text("the position editor, on the shown position")
                        .clicked()
                    {
                        action = Some(PositionAction::Edit);
                    }
                });
            });
        if !open {
            self.open = false;
        }
        action
    }
}
