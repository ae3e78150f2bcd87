//! The moves panel beside the board: the clocks, navigation, take back, the games of an opened
//! file and the moves as a table of two columns (White | Black) along the main line, each
//! variation indented in brackets under the row of the move it replaces. Any move can be shown,
//! promoted to the main line or deleted; a move's annotation mark follows its name.

use boardgames_core::games::Side;
use eframe::egui;

use super::Action;
use crate::model::{Model, MoveTree, NodeId, ROOT};

/// Draws the moves panel.
pub fn ui(ui: &mut egui::Ui, model: &Model) -> Option<Action> {
    let mut action = None;
    let view = model.view();
    let game = model.game();
    let tree = model.tree();
    let shown = model.shown_node();
    if let Some(c) = model.clocks() {
        clocks(ui, c);
        ui.separator();
    }
    ui.horizontal(|ui| {
        if ui.button("|<").on_hover_text("start (Home)").clicked() {
            action = Some(Action::GoTo(0));
        }
        if ui.button("<").on_hover_text("back (left arrow)").clicked() {
            action = Some(Action::GoTo(view.saturating_sub(1)));
        }
        if ui
            .button(">")
            .on_hover_text("forward (right arrow)")
            .clicked()
        {
            action = Some(Action::GoTo(view + 1));
        }
        if ui.button(">|").on_hover_text("end (End)").clicked() {
            action = Some(Action::GoTo(game.len()));
        }
    });
    ui.horizontal_wrapped(|ui| {
        if ui
            .add_enabled(!game.is_empty(), egui::Button::new("Take back"))
            .on_hover_text("Ctrl+Z")
            .clicked()
        {
            action = Some(Action::TakeBack);
        }
        if ui
            .add_enabled(
                shown != ROOT && !tree.is_main(shown),
                egui::Button::new("Promote"),
            )
            .on_hover_text("make the line of the shown move the main line (the one saved)")
            .clicked()
        {
            action = Some(Action::Promote(shown));
        }
        if ui
            .add_enabled(shown != ROOT, egui::Button::new("Delete"))
            .on_hover_text("delete the shown move and every move after it")
            .clicked()
        {
            action = Some(Action::DeleteNode(shown));
        }
    });
    let records = model.records();
    if records.len() > 1 {
        egui::CollapsingHeader::new(format!("{} games in the file", records.len())).show(
            ui,
            |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("records")
                    .max_height(150.0)
                    .show(ui, |ui| {
                        for (n, r) in records.iter().enumerate() {
                            let label = format!(
                                "{}. {} - {} {}",
                                n + 1,
                                r.white,
                                r.black,
                                r.result.as_str()
                            );
                            if ui.small_button(label).clicked() {
                                action = Some(Action::LoadRecord(n));
                            }
                        }
                    });
            },
        );
    }
    let offset = usize::from(game.side_to_move(0) == Side::Black);
    // The list scrolls to the shown move when it changes (not on every frame, so that it can
    // still be scrolled by hand).
    let memory = egui::Id::unique("move-list-shown");
    let follow = ui.ctx().data_mut(|d| {
        let before = d.get_temp::<NodeId>(memory);
        d.insert_temp(memory, shown);
        before != Some(shown)
    });
    egui::ScrollArea::vertical()
        .id_salt("move-list")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            if let Some(&first) = tree.children(ROOT).first() {
                let list = MoveList {
                    tree,
                    shown,
                    offset,
                    follow,
                };
                list.table(ui, first, &mut action);
            }
        });
    action
}

/// The tree of moves as the panel draws it.
struct MoveList<'a> {
    tree: &'a MoveTree,
    shown: NodeId,
    /// 1 when Black moves first (the numbering starts with `1...`).
    offset: usize,
    /// Whether the shown move changed: the list scrolls to it.
    follow: bool,
}

impl MoveList<'_> {
    /// Draws the main line from node `first` as rows of a number, White's move and Black's;
    /// a move's variations follow its row, indented (the row is cut after a White move that
    /// has some, and Black's move starts the next row).
    fn table(&self, ui: &mut egui::Ui, first: NodeId, action: &mut Option<Action>) {
        let width = ui.available_width();
        let number_width = 34.0;
        let cell = ((width - number_width) / 2.0 - 6.0).max(40.0);
        let mut at = Some(first);
        while let Some(id) = at {
            let k = self.tree.depth(id) - 1 + self.offset;
            let mut row = vec![];
            ui.horizontal(|ui| {
                ui.spacing_mut().item_spacing.x = 4.0;
                let number = format!("{}.", k / 2 + 1);
                ui.add_sized(
                    [number_width, 18.0],
                    egui::Label::new(egui::RichText::new(number).weak()),
                );
                if !k.is_multiple_of(2) {
                    ui.add_sized([cell, 18.0], egui::Label::new(""));
                }
                let mut next = Some(id);
                let mut kk = k;
                while let Some(n) = next {
                    self.cell(ui, n, cell, action);
                    row.push(n);
                    next = self.tree.children(n).first().copied();
                    kk += 1;
                    if kk.is_multiple_of(2) || self.has_variations(n) {
                        break;
                    }
                }
                at = next;
            });
            for n in row {
                if self.has_variations(n) {
                    let siblings = self
                        .tree
                        .parent(n)
                        .map_or(&[][..], |p| self.tree.children(p));
                    for &v in &siblings[1..] {
                        ui.indent(("variation", v), |ui| self.line(ui, v, true, action));
                    }
                }
            }
        }
    }

    /// Whether the move at `id` is the main one of several played at its place.
    fn has_variations(&self, id: NodeId) -> bool {
        let siblings = self
            .tree
            .parent(id)
            .map_or(&[][..], |p| self.tree.children(p));
        siblings.len() > 1 && siblings[0] == id
    }

    /// One cell of the table: the move's name and mark, `width` wide.
    fn cell(&self, ui: &mut egui::Ui, id: NodeId, width: f32, action: &mut Option<Action>) {
        let text = egui::RichText::new(self.text(id)).strong();
        let response = ui.add_sized(
            [width, 18.0],
            egui::Button::selectable(id == self.shown, text),
        );
        self.respond(&response, id, action);
    }

    /// A move's name and annotation mark.
    fn text(&self, id: NodeId) -> String {
        format!("{}{}", self.tree.name(id), self.tree.mark(id))
    }

    /// Follows the shown move, and handles a click (show it) and the context menu (promote,
    /// delete).
    fn respond(&self, response: &egui::Response, id: NodeId, action: &mut Option<Action>) {
        if id == self.shown && self.follow {
            response.scroll_to_me(Some(egui::Align::Center));
        }
        if response.clicked() {
            *action = Some(Action::GoToNode(id));
        }
        let main = self.tree.is_main(id);
        response.context_menu(|ui| {
            if ui
                .add_enabled(!main, egui::Button::new("Promote to main line"))
                .clicked()
            {
                *action = Some(Action::Promote(id));
                ui.close();
            }
            if ui.button("Delete from here").clicked() {
                *action = Some(Action::DeleteNode(id));
                ui.close();
            }
        });
    }

    /// Draws the line starting with node `first` along its main continuation: rows of moves,
    /// broken after a move that has variations, which follow indented (`bracket`: this line is
    /// itself a variation, drawn in brackets).
    fn line(&self, ui: &mut egui::Ui, first: NodeId, bracket: bool, action: &mut Option<Action>) {
        let weak = ui.visuals().weak_text_color();
        let mut next = Some(first);
        let mut opened = false;
        while let Some(start) = next {
            let mut branch = None;
            let mut last_row = true;
            ui.horizontal_wrapped(|ui| {
                ui.spacing_mut().item_spacing.x = 4.0;
                if bracket && !opened {
                    ui.colored_label(weak, "(");
                    opened = true;
                }
                let mut at = Some(start);
                let mut row_start = true;
                while let Some(id) = at {
                    self.move_label(ui, id, row_start, action);
                    row_start = false;
                    let siblings = self
                        .tree
                        .parent(id)
                        .map_or(&[][..], |p| self.tree.children(p));
                    if siblings.len() > 1 && siblings[0] == id {
                        branch = Some((id, siblings[1..].to_vec()));
                        last_row = false;
                        break;
                    }
                    at = self.tree.children(id).first().copied();
                }
                if bracket && last_row {
                    ui.colored_label(weak, ")");
                }
            });
            next = None;
            if let Some((id, variations)) = branch {
                for v in variations {
                    ui.indent(("variation", v), |ui| self.line(ui, v, true, action));
                }
                next = self.tree.children(id).first().copied();
                if next.is_none() && bracket {
                    ui.colored_label(weak, ")");
                }
            }
        }
    }

    /// One move: its number (before White's move, or `N...` at a row's start), then its name,
    /// which shows it when clicked and offers promoting and deleting on a right click.
    fn move_label(
        &self,
        ui: &mut egui::Ui,
        id: NodeId,
        row_start: bool,
        action: &mut Option<Action>,
    ) {
        let k = self.tree.depth(id) - 1 + self.offset;
        let number = k / 2 + 1;
        let mut text = egui::RichText::new(self.text(id));
        if self.tree.is_main(id) {
            text = text.strong();
        }
        // The number and its move are one piece of the wrapped row: never split across rows.
        let response = ui
            .horizontal(|ui| {
                ui.spacing_mut().item_spacing.x = 2.0;
                if k.is_multiple_of(2) {
                    ui.weak(format!("{number}."));
                } else if row_start {
                    ui.weak(format!("{number}..."));
                }
                ui.selectable_label(id == self.shown, text)
            })
            .inner;
        self.respond(&response, id, action);
    }
}

/// Both clocks, large, the running one marked, a side out of time in red.
fn clocks(ui: &mut egui::Ui, c: &crate::model::Clocks) {
    let now = std::time::Instant::now();
    for side in [Side::White, Side::Black] {
        let text = format!(
            "{} {}",
            crate::model::side_name(side),
            crate::model::clock_text(c.left(side, now))
        );
        let mut text = egui::RichText::new(text).monospace().size(20.0);
        if c.running() == Some(side) {
            text = text
                .strong()
                .background_color(ui.visuals().selection.bg_fill);
        }
        if c.flagged() == Some(side) {
            text = text.color(crate::widgets::ERROR);
        }
        ui.label(text);
    }
}
