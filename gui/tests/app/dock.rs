//! The dock on egui_tiles (issue 49): tabs on one line, the board's size, panes resized.

use crate::common;

use boardgames_core::games::GameKind;
use common::harness;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use gui::GuiApp;
use gui::app::Player;
use gui::panels::dock::{Pane, Tool};

fn cell(h: &Harness<'static, GuiApp>) -> f32 {
    h.state().board_geometry().expect("a board").cell
}

#[test]
fn explore() {
    for size in [[800.0, 600.0], [1280.0, 800.0], [1920.0, 1080.0]] {
        let mut h = harness(GameKind::Oska, 4, [Player::default(), Player::default()], size);
        let c0 = cell(&h);
        let d0 = h.state().dock().pane_rect(Pane::Setup);
        for t in [Tool::Review, Tool::Tablebase, Tool::Solver, Tool::Console] {
            h.state_mut().show_tool(t, true);
            h.run_steps(3);
            eprintln!("{size:?} {t:?} cell {} dock {:?}", cell(&h), h.state().dock().pane_rect(Pane::Tool(t)));
        }
        eprintln!("{size:?} start cell {c0} {d0:?}");
        for t in [Tool::Review, Tool::Tablebase, Tool::Solver, Tool::Console] {
            let tab = h.get_by_role_and_label(eframe::egui::accesskit::Role::Button, t.title());
            eprintln!("  tab {:?} {:?}", t, tab.accesskit_node().bounding_box());
        }
    }
}
