//! The dock: the panel left of the board, with the players' set-up and the tools (engine
//! manager, game review, tablebase, solver, search tree, engine console, help) as panes
//! instead of windows over the board, laid out by `egui_tiles`: tabs whose row scrolls (a title
//! is never wrapped), and panes that a dragged tab splits beside or below another, resized by
//! the line between them and never narrower than [`PANE_MIN_WIDTH`]. The set-up's pane is
//! always there; each open tool has a tab with a close button. Which tools are open is kept in
//! the settings; the app keeps the dock's width within the room the board leaves.

use std::collections::HashMap;

use eframe::egui;
use egui_tiles::{
    Behavior, Container, LinearDir, SimplificationOptions, Tile, TileId, Tiles, Tree,
};

use super::Action;
use crate::tools::{ToolContext, Tools};

/// A tool shown in the dock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tool {
    /// The engine manager (saved engines and their options).
    Engines,
    /// The game review.
    Review,
    /// The tablebase page.
    Tablebase,
    /// The solver.
    Solver,
    /// The search tree explorer.
    Tree,
    /// The engine console.
    Console,
    /// The keyboard shortcuts.
    Help,
}

impl Tool {
    /// Every tool, in the order of the dock's tabs.
    pub const ALL: [Tool; 7] = [
        Tool::Engines,
        Tool::Review,
        Tool::Tablebase,
        Tool::Solver,
        Tool::Tree,
        Tool::Console,
        Tool::Help,
    ];

    /// Its title (tab and menu entry).
    pub fn title(self) -> &'static str {
        match self {
            Tool::Engines => "Engine manager",
            Tool::Review => "Game review",
            Tool::Tablebase => "Tablebase",
            Tool::Solver => "Solver",
            Tool::Tree => "Search tree",
            Tool::Console => "Engine console",
            Tool::Help => "Keyboard shortcuts",
        }
    }

    /// Its name in the settings file.
    pub fn key(self) -> &'static str {
        match self {
            Tool::Engines => "engines",
            Tool::Review => "review",
            Tool::Tablebase => "tablebase",
            Tool::Solver => "solver",
            Tool::Tree => "tree",
            Tool::Console => "console",
            Tool::Help => "help",
        }
    }

    /// The tool of a settings name.
    pub fn from_key(key: &str) -> Option<Tool> {
        Tool::ALL.into_iter().find(|t| t.key() == key)
    }
}

/// The title of the set-up's tab.
pub const SETUP: &str = "Players";

/// A pane's least width (points): the set-up's fields and a tool's buttons fit.
pub const PANE_MIN_WIDTH: f32 = 220.0;

/// A pane's least height (points) when panes are stacked.
pub const PANE_MIN_HEIGHT: f32 = 120.0;

/// How many frames a tab the app showed is scrolled towards the row's view at most.
const REVEAL_FRAMES: u32 = 30;

/// The gap between two panes side by side or stacked (points), where the line that resizes
/// them is.
const GAP: f32 = 2.0;

/// A pane of the dock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pane {
    /// The players' set-up (always there).
    Setup,
    /// An open tool.
    Tool(Tool),
}

impl Pane {
    /// Its tab's title.
    pub fn title(self) -> &'static str {
        match self {
            Pane::Setup => SETUP,
            Pane::Tool(tool) => tool.title(),
        }
    }
}

/// The dock's panes and how they are arranged (tabs, side by side, stacked), and the pane last
/// shown by a click on its tab or by opening it.
pub struct Dock {
    tree: Tree<Pane>,
    focus: Pane,
    /// Where each tab was drawn in the last frame.
    tabs: HashMap<TileId, egui::Rect>,
    /// A pane shown by the app whose tab is to be scrolled into view, and for how many more
    /// frames at most.
    reveal: Option<(Pane, u32)>,
}

impl Default for Dock {
    fn default() -> Dock {
        Dock {
            tree: Tree::new_tabs(egui::Id::unique("dock-tiles"), vec![Pane::Setup]),
            focus: Pane::Setup,
            tabs: HashMap::new(),
            reveal: None,
        }
    }
}

impl Dock {
    /// Its panes, in the order of the tree (each container's children in order, depth first).
    pub fn panes(&self) -> Vec<Pane> {
        let mut out = Vec::new();
        if let Some(root) = self.tree.root() {
            walk(&self.tree.tiles, root, &mut |_, tile| {
                if let Tile::Pane(p) = tile {
                    out.push(*p);
                }
            });
        }
        out
    }

    fn find(&self, pane: Pane) -> Option<TileId> {
        self.tree.tiles.find_pane(&pane)
    }

    /// Where a pane was laid out in the last frame (`None`: not shown, e.g. a tab behind
    /// another).
    pub fn pane_rect(&self, pane: Pane) -> Option<egui::Rect> {
        let id = self.find(pane)?;
        self.tree
            .active_tiles()
            .contains(&id)
            .then(|| self.tree.tiles.rect(id))
            .flatten()
    }

    /// Adds a tool's pane (as a tab beside the pane shown, or where it already is) and shows it.
    pub fn open(&mut self, tool: Tool) {
        let pane = Pane::Tool(tool);
        if self.find(pane).is_none() {
            let new = self.tree.tiles.insert_pane(pane);
            // Into the tabs of the pane shown, else the first tabs of the tree.
            let beside = self
                .find(self.focus)
                .and_then(|id| self.tree.tiles.parent_of(id))
                .filter(|&id| is_tabs(&self.tree.tiles, id))
                .or_else(|| self.first(|tile| matches!(tile, Tile::Container(Container::Tabs(_)))));
            match beside.and_then(|id| self.tree.tiles.get_mut(id)) {
                Some(Tile::Container(c)) => c.add_child(new),
                _ => {
                    let mut children: Vec<TileId> = self.tree.root().into_iter().collect();
                    children.push(new);
                    let root = self.tree.tiles.insert_tab_tile(children);
                    self.tree.root = Some(root);
                }
            }
        }
        self.show(pane);
    }

    /// Removes a tool's pane; the tab after it (else the one before) takes its place.
    pub fn close(&mut self, tool: Tool) {
        let pane = Pane::Tool(tool);
        let Some(id) = self.find(pane) else {
            return;
        };
        let parent = self.tree.tiles.parent_of(id);
        let mut next = None;
        if let Some(Tile::Container(Container::Tabs(tabs))) =
            parent.and_then(|p| self.tree.tiles.get_mut(p))
            && let Some(k) = tabs.children.iter().position(|&c| c == id)
        {
            next = tabs
                .children
                .get(k + 1)
                .or_else(|| k.checked_sub(1).and_then(|k| tabs.children.get(k)))
                .copied();
            if tabs.active == Some(id) {
                tabs.active = next;
            }
        }
        self.tree.remove_recursively(id);
        if self.focus == pane {
            self.focus = match next.and_then(|n| self.tree.tiles.get_pane(&n)) {
                Some(&p) => p,
                None => Pane::Setup,
            };
        }
    }

    /// Shows a pane: its tab, and the tabs it is in, become the ones shown.
    pub fn show(&mut self, pane: Pane) {
        self.tree
            .make_active(|_, tile| matches!(tile, Tile::Pane(p) if *p == pane));
        self.focus = pane;
        self.reveal = Some((pane, REVEAL_FRAMES));
    }

    /// The pane last shown by a click on its tab or by opening it, if it is still in view; else
    /// the first pane in view.
    pub fn shown(&self) -> Pane {
        let active = self.tree.active_tiles();
        let in_view = |p: &Pane| self.find(*p).is_some_and(|id| active.contains(&id));
        if in_view(&self.focus) {
            return self.focus;
        }
        self.panes()
            .into_iter()
            .find(in_view)
            .unwrap_or(Pane::Setup)
    }

    /// Makes the panes those of the set-up and these tools: a pane of a tool closed elsewhere
    /// goes, an open tool without one gets one.
    pub fn follow(&mut self, open: &[Tool]) {
        for pane in self.panes() {
            if let Pane::Tool(t) = pane
                && !open.contains(&t)
            {
                self.close(t);
            }
        }
        let focus = self.focus;
        let mut added = false;
        for &t in open {
            if self.find(Pane::Tool(t)).is_none() {
                self.open(t);
                added = true;
            }
        }
        if self.find(Pane::Setup).is_none() {
            let setup = self.tree.tiles.insert_pane(Pane::Setup);
            match self.tree.root().and_then(|r| self.tree.tiles.get_mut(r)) {
                Some(Tile::Container(c)) => c.add_child(setup),
                _ => self.tree.root = Some(self.tree.tiles.insert_tab_tile(vec![setup])),
            }
        }
        if added {
            self.show(focus);
        }
    }

    /// The least width of the panes as they are arranged: [`PANE_MIN_WIDTH`] for each pane of
    /// the widest row of panes side by side, and the gaps between them.
    pub fn min_width(&self) -> f32 {
        self.tree
            .root()
            .map_or(PANE_MIN_WIDTH, |root| min_width(&self.tree.tiles, root))
    }

    /// Fits the panes into `width`: panes side by side that do not fit are stacked instead,
    /// and each pane beside another gets at least its least width (the others give up what
    /// they have above theirs).
    pub fn fit(&mut self, width: f32) {
        while self.min_width() > width + 0.5 {
            let split = self.first(|tile| {
                matches!(tile, Tile::Container(Container::Linear(l))
                    if l.dir == LinearDir::Horizontal && l.children.len() > 1)
            });
            match split.and_then(|id| self.tree.tiles.get_mut(id)) {
                Some(Tile::Container(Container::Linear(l))) => l.dir = LinearDir::Vertical,
                _ => break,
            }
        }
        if let Some(root) = self.tree.root() {
            keep_min_widths(&mut self.tree.tiles, root, width);
        }
    }

    /// The first tile of the tree (depth first) that `test` accepts.
    fn first(&self, test: impl Fn(&Tile<Pane>) -> bool) -> Option<TileId> {
        let mut found = None;
        if let Some(root) = self.tree.root() {
            walk(&self.tree.tiles, root, &mut |id, tile| {
                if found.is_none() && test(tile) {
                    found = Some(id);
                }
            });
        }
        found
    }

    /// Draws the dock's panes into `ui` (all of its room): the set-up from the game on the table
    /// and the settings, each tool through its [`ToolPanel`](crate::tools::ToolPanel). Returns
    /// what was asked for there; a tab's close button asks to close its tool.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        cx: &ToolContext<'_>,
        tools: &mut Tools,
    ) -> Vec<Action> {
        let width = ui.available_width();
        self.fit(width);
        let mut view = View {
            cx,
            tools,
            actions: Vec::new(),
            clicked: None,
            lone_setup: self.panes() == [Pane::Setup],
            reveal: self.reveal.and_then(|(p, _)| self.tree.tiles.find_pane(&p)),
            tabs: &mut self.tabs,
        };
        self.tree.ui(&mut view, ui);
        if let Some(pane) = view.clicked {
            self.focus = pane;
        }
        // In view, or the tabs clicked, or tried long enough: the arrows scroll freely.
        self.reveal = match self.reveal {
            Some((p, n)) if n > 0 && view.reveal.is_some() && view.clicked.is_none() => {
                Some((p, n - 1))
            }
            _ => None,
        };
        let actions = view.actions;
        // A line between panes dragged this frame: the next frame keeps the least widths.
        self.fit(width);
        actions
    }
}

/// Calls `visit` on `id` and every tile under it, depth first, children in order.
fn walk(tiles: &Tiles<Pane>, id: TileId, visit: &mut dyn FnMut(TileId, &Tile<Pane>)) {
    let Some(tile) = tiles.get(id) else {
        return;
    };
    visit(id, tile);
    if let Tile::Container(c) = tile {
        for &child in c.children() {
            walk(tiles, child, visit);
        }
    }
}

fn is_tabs(tiles: &Tiles<Pane>, id: TileId) -> bool {
    matches!(tiles.get(id), Some(Tile::Container(Container::Tabs(_))))
}

/// The children of a container that take room.
fn shown_children(tiles: &Tiles<Pane>, c: &Container) -> Vec<TileId> {
    c.children()
        .copied()
        .filter(|&id| tiles.is_visible_in_layout(id))
        .collect()
}

/// The least width of a tile: a pane's, the sum of panes side by side (and the gaps), the
/// widest of tabs or of stacked panes.
fn min_width(tiles: &Tiles<Pane>, id: TileId) -> f32 {
    match tiles.get(id) {
        Some(Tile::Container(c)) => {
            let widths = shown_children(tiles, c)
                .into_iter()
                .map(|child| min_width(tiles, child));
            match c {
                Container::Linear(l) if l.dir == LinearDir::Horizontal => {
                    let (n, sum) = widths.fold((0, 0.0), |(n, s), w| (n + 1, s + w));
                    sum + GAP * (n.max(1) - 1) as f32
                }
                _ => widths.fold(0.0, f32::max),
            }
        }
        _ => PANE_MIN_WIDTH,
    }
}

/// Gives each tile under `id` (laid out `width` wide) at least its least width, changing the
/// shares of panes side by side where one has less.
fn keep_min_widths(tiles: &mut Tiles<Pane>, id: TileId, width: f32) {
    let Some(Tile::Container(c)) = tiles.get(id) else {
        return;
    };
    let children = shown_children(tiles, c);
    let widths = match c {
        Container::Linear(l) if l.dir == LinearDir::Horizontal && !children.is_empty() => {
            let room = (width - GAP * (children.len() - 1) as f32).max(0.0);
            let now = l.shares.split(&children, room);
            let least: Vec<f32> = children.iter().map(|&ch| min_width(tiles, ch)).collect();
            let widths = spread(&now, &least, room);
            if widths != now
                && let Some(Tile::Container(Container::Linear(l))) = tiles.get_mut(id)
            {
                let n = children.len() as f32;
                for (&child, w) in children.iter().zip(&widths) {
                    l.shares.set_share(child, w / room.max(1.0) * n);
                }
            }
            widths
        }
        _ => vec![width; children.len()],
    };
    for (child, w) in children.into_iter().zip(widths) {
        keep_min_widths(tiles, child, w);
    }
}

/// Widths `now` made at least `least` each within `room`: unchanged when they already are, else
/// each its least and the rest of the room shared in proportion to what each had above its
/// least.
fn spread(now: &[f32], least: &[f32], room: f32) -> Vec<f32> {
    if now.iter().zip(least).all(|(w, l)| *w >= l - 0.5) {
        return now.to_vec();
    }
    let total: f32 = least.iter().sum();
    if total >= room {
        return least.iter().map(|l| l * room / total.max(1.0)).collect();
    }
    let spare: Vec<f32> = now
        .iter()
        .zip(least)
        .map(|(w, l)| (w - l).max(0.0))
        .collect();
    let spare_sum: f32 = spare.iter().sum();
    let rest = room - total;
    least
        .iter()
        .zip(&spare)
        .map(|(l, s)| {
            l + if spare_sum > 0.0 {
                rest * s / spare_sum
            } else {
                rest / least.len() as f32
            }
        })
        .collect()
}

/// How the dock's tree is drawn: the panes' contents, the tabs' titles and close buttons.
struct View<'a, 'b> {
    cx: &'a ToolContext<'b>,
    tools: &'a mut Tools,
    actions: Vec<Action>,
    /// The pane whose tab was clicked.
    clicked: Option<Pane>,
    /// Whether the set-up is the only pane (no tab row then).
    lone_setup: bool,
    /// A tab to scroll into view (until it is).
    reveal: Option<TileId>,
    /// Where each tab was drawn (the last frame's until drawn in this one).
    tabs: &'a mut HashMap<TileId, egui::Rect>,
}

impl Behavior<Pane> for View<'_, '_> {
    fn pane_ui(&mut self, ui: &mut egui::Ui, _: TileId, pane: &mut Pane) -> egui_tiles::UiResponse {
        egui::Frame::new()
            .inner_margin(egui::Margin::symmetric(6, 4))
            .show(ui, |ui| {
                ui.set_min_size(ui.available_size());
                match *pane {
                    Pane::Setup => {
                        egui::ScrollArea::vertical()
                            .id_salt("setup")
                            .show(ui, |ui| {
                                let (model, settings) = (self.cx.model, self.cx.settings);
                                self.actions.extend(super::setup::ui(ui, model, settings));
                            });
                    }
                    Pane::Tool(tool) => {
                        ui.push_id(tool.key(), |ui| {
                            self.actions
                                .extend(self.tools.get_mut(tool).ui(ui, self.cx));
                        });
                    }
                }
            });
        egui_tiles::UiResponse::None
    }

    fn tab_title_for_pane(&mut self, pane: &Pane) -> egui::WidgetText {
        pane.title().into()
    }

    fn is_tab_closable(&self, tiles: &Tiles<Pane>, id: TileId) -> bool {
        matches!(tiles.get_pane(&id), Some(Pane::Tool(_)))
    }

    fn on_tab_close(&mut self, tiles: &mut Tiles<Pane>, id: TileId) -> bool {
        if let Some(&Pane::Tool(tool)) = tiles.get_pane(&id) {
            self.actions.push(Action::ShowTool(tool, false));
        }
        // The app closes the tool, and the tool's pane goes with it.
        false
    }

    fn on_tab_button(
        &mut self,
        tiles: &mut Tiles<Pane>,
        id: TileId,
        response: egui::Response,
    ) -> egui::Response {
        if response.clicked()
            && let Some(&pane) = tiles.get_pane(&id)
        {
            self.clicked = Some(pane);
        }
        self.tabs.insert(id, response.rect);
        response
    }

    fn top_bar_right_ui(
        &mut self,
        tiles: &Tiles<Pane>,
        ui: &mut egui::Ui,
        id: TileId,
        tabs: &egui_tiles::Tabs,
        scroll: &mut f32,
    ) {
        // A tab the app showed (a tool opened) is scrolled into the row's view (the row's
        // arrows appear and go as it scrolls, so this takes a few frames).
        let Some(tab) = self.reveal.filter(|t| tabs.children.contains(t)) else {
            return;
        };
        let (Some(row), Some(rect)) = (tiles.rect(id), self.tabs.get(&tab)) else {
            return;
        };
        // The arrows' room at either end.
        let arrows = self.tab_bar_height(ui.style()) + ui.spacing().item_spacing.x;
        let (left, right) = (row.left() + arrows, row.right() - arrows);
        if rect.right() > right + 0.5 {
            *scroll += rect.right() - right;
        } else if rect.left() < left - 0.5 {
            *scroll -= left - rect.left();
        } else {
            self.reveal = None;
        }
    }

    fn is_tab_bar_visible(&self, _: TileId, _: &egui_tiles::Tabs) -> bool {
        !self.lone_setup
    }

    fn min_size(&self) -> f32 {
        // Both ways; the dock then gives panes side by side their least width (Dock::fit).
        PANE_MIN_HEIGHT
    }

    fn gap_width(&self, _: &egui::Style) -> f32 {
        GAP
    }

    fn simplification_options(&self) -> SimplificationOptions {
        SimplificationOptions {
            // A pane split off keeps a tab: its title, its close button, and a handle to drag
            // it back.
            all_panes_must_have_tabs: true,
            ..SimplificationOptions::default()
        }
    }
}

/// The tools to open on start, from the settings' names (unknown names are skipped).
pub fn from_keys(keys: &[String]) -> Vec<Tool> {
    keys.iter().filter_map(|k| Tool::from_key(k)).collect()
}
