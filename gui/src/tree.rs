//! The search tree explorer: runs a traced search on an engine process of its own, collects the
//! `info trace` lines, rebuilds the tree of the last iteration and shows it node by node.

use boardgames_core::games::GameKind;
use boardgames_core::protocol::Go;
use boardgames_core::search::trace::{NodeKind, TraceNode, TraceTree, rebuild};
use eframe::egui::{self, Color32, RichText};

use crate::board;
use crate::controller::{EngineEvent, EngineHandle, Request, Search};
use crate::game::GameState;

/// The most trace lines kept; a search that prints more is stopped and the last complete
/// iteration is shown.
pub const MAX_TRACE_LINES: usize = 200_000;

/// A value of at least this size is a proven win (`1000000 - k`).
const WIN: i32 = 999_000;

/// What the explorer shows.
#[derive(Debug, Default)]
enum Shown {
    /// Nothing yet.
    #[default]
    Empty,
    /// A search is collecting lines.
    Running,
    /// The rebuilt tree and its root value.
    Tree(Box<TraceTree>, i32),
    /// Why there is no tree.
    Failed(String),
}

/// The search tree explorer's state.
pub struct TreeExplorer {
    /// Whether its docked panel is open.
    pub open: bool,
    /// The depth of the next search.
    pub depth: u32,
    engine: Option<EngineHandle>,
    kind: GameKind,
    lines: Vec<TraceNode>,
    bad_lines: usize,
    capped: bool,
    shown: Shown,
}

impl Default for TreeExplorer {
    fn default() -> Self {
        TreeExplorer {
            open: false,
            depth: 2,
            engine: None,
            kind: GameKind::Oska,
            lines: Vec::new(),
            bad_lines: 0,
            capped: false,
            shown: Shown::Empty,
        }
    }
}

/// A node value in words: pawns (`+1.75`, as the engine panels say), or a proven win or loss `k` plies from the search's root.
pub fn value_text(v: i32) -> String {
    if v >= 1_000_001 {
        "+inf".into()
    } else if v <= -1_000_001 {
        "-inf".into()
    } else if v >= WIN {
        format!("win@{}", 1_000_000 - v)
    } else if v <= -WIN {
        format!("loss@{}", 1_000_000 + v)
    } else {
        // In pawns, as the engine panels show scores (the trace's values are centipawns).
        format!("{:+.2}", f64::from(v) / 100.0)
    }
}

impl TreeExplorer {
    /// Whether a search is collecting lines.
    pub fn running(&self) -> bool {
        matches!(self.shown, Shown::Running)
    }

    /// The rebuilt tree's root value, once there is one.
    pub fn root_value(&self) -> Option<i32> {
        match &self.shown {
            Shown::Tree(_, v) => Some(*v),
            _ => None,
        }
    }

    /// Why the last search gave no tree, if it did not.
    pub fn failure(&self) -> Option<&str> {
        match &self.shown {
            Shown::Failed(why) => Some(why),
            _ => None,
        }
    }

    /// Whether the line cap was hit.
    pub fn capped(&self) -> bool {
        self.capped
    }

    /// Starts a traced search of the position after `ply` moves of `game` on a new engine
    /// process, which `spawn` starts (the engine hub's); returns the previous process, if any,
    /// for the hub to end.
    pub fn start(
        &mut self,
        spawn: impl FnOnce() -> Option<EngineHandle>,
        game: &GameState,
        ply: usize,
    ) -> Option<EngineHandle> {
        let old = self.engine.take();
        self.reset(game.kind());
        let Some(handle) = spawn() else {
            self.shown = Shown::Failed("the tree search cannot run: no async runtime".into());
            return old;
        };
        self.shown = Shown::Running;
        handle.send(Request::SetOption {
            name: "Trace".into(),
            value: "true".into(),
        });
        handle.send(Request::Think(Search {
            id: 1,
            game: game.kind(),
            size: u32::try_from(game.size()).unwrap_or(u32::MAX),
            setup: game.setup(),
            moves: game.move_names()[..ply.min(game.len())].to_vec(),
            go: Go::Depth(self.depth.max(1)),
        }));
        self.engine = Some(handle);
        old
    }

    /// Gives up the search engine, if one runs; returns it, for the hub to end.
    pub fn stop(&mut self) -> Option<EngineHandle> {
        if self.running() {
            self.shown = Shown::Failed("stopped".into());
        }
        self.engine.take()
    }

    fn reset(&mut self, kind: GameKind) {
        self.kind = kind;
        self.lines.clear();
        self.bad_lines = 0;
        self.capped = false;
        self.shown = Shown::Empty;
    }

    /// Shows the tree of a trace given as text lines (`info trace ...`, `trace ...` or bare).
    pub fn load_lines<'a>(&mut self, kind: GameKind, lines: impl IntoIterator<Item = &'a str>) {
        self.reset(kind);
        for line in lines {
            let text = line.trim();
            let text = text.strip_prefix("info ").unwrap_or(text);
            if !text.is_empty() {
                self.add_line(text);
            }
        }
        self.finish();
    }

    fn add_line(&mut self, text: &str) {
        if self.capped {
            return;
        }
        match text.parse::<TraceNode>() {
            Ok(node) => self.lines.push(node),
            Err(_) => self.bad_lines += 1,
        }
        if self.lines.len() >= MAX_TRACE_LINES {
            self.capped = true;
            // Keep the last complete iteration: it ends with its root.
            let end = self
                .lines
                .iter()
                .rposition(|n| n.ply == 0)
                .map_or(0, |i| i + 1);
            self.lines.truncate(end);
        }
    }

    fn finish(&mut self) {
        self.shown = match rebuild(&self.lines) {
            Ok((tree, value)) => Shown::Tree(Box::new(tree), value),
            Err(e) => Shown::Failed(format!("no tree could be rebuilt: {e}")),
        };
    }

    /// Reads the engine's events; returns the engine once its work is done, for the hub to end.
    pub fn poll(&mut self) -> Option<EngineHandle> {
        let events = self.engine.as_ref().map(EngineHandle::poll)?;
        let mut done = false;
        for event in events {
            match event {
                EngineEvent::Trace { text, .. } => {
                    self.add_line(&text);
                    if self.capped && !done {
                        done = true;
                        self.finish();
                    }
                }
                EngineEvent::BestMove { .. } if !done => {
                    done = true;
                    self.finish();
                }
                EngineEvent::Failed(why) => {
                    done = true;
                    self.shown = Shown::Failed(format!("the engine failed: {why}"));
                }
                EngineEvent::Ended => {
                    done = true;
                    if self.running() {
                        self.shown = Shown::Failed("the engine ended without answering".into());
                    }
                }
                _ => {}
            }
        }
        if done { self.engine.take() } else { None }
    }

    /// Draws the explorer (its docked panel); returns whether a traced search was asked for.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> bool {
        let mut run = false;
        ui.horizontal(|ui| {
            let label = ui.label("depth");
            ui.add(egui::DragValue::new(&mut self.depth).range(1..=8))
                .labelled_by(label.id);
            if ui
                .add_enabled(!self.running(), egui::Button::new("Run traced search"))
                .on_hover_text("searches the shown position with Trace on, on an engine of its own")
                .clicked()
            {
                run = true;
            }
        });
        ui.label(
            RichText::new(
                "Values are from the side to move at each node; a parent takes the negation. \
                 The principal line is in blue; cut-offs are marked with a scissors sign.",
            )
            .weak(),
        );
        if self.capped {
            ui.label(
                RichText::new(format!(
                    "The trace was cut at {MAX_TRACE_LINES} lines: the search was stopped and its last complete iteration is shown."
                ))
                .color(Color32::from_rgb(0xd0, 0x30, 0x30)),
            );
        }
        if self.bad_lines > 0 {
            ui.label(format!(
                "{} unreadable trace lines were skipped",
                self.bad_lines
            ));
        }
        match &self.shown {
            Shown::Empty => {
                ui.label("No search yet.");
            }
            Shown::Running => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(format!("searching... {} lines", self.lines.len()));
                });
            }
            Shown::Failed(why) => {
                ui.label(RichText::new(why.clone()).color(Color32::from_rgb(0xd0, 0x30, 0x30)));
            }
            Shown::Tree(tree, value) => {
                ui.label(RichText::new(format!("root value: {}", value_text(*value))).strong());
                ui.label(format!(
                    "iteration {}, {} nodes, {} plies deep",
                    tree.node.iteration,
                    tree.size(),
                    tree.max_ply()
                ));
                let kind = self.kind;
                egui::ScrollArea::vertical()
                    .id_salt("trace-tree")
                    .auto_shrink([false, false])
                    .show(ui, |ui| show_node(ui, kind, tree, true, true));
            }
        }
        run
    }
}

fn node_label(node: &TraceNode) -> String {
    let mv = node.path.last().map_or("root", String::as_str);
    let kind = match node.kind {
        NodeKind::Leaf => "leaf",
        NodeKind::End => "end",
        NodeKind::Table => "table",
        NodeKind::Node => "node",
    };
    let cut = if node.cutoff { "  \u{2702} cutoff" } else { "" };
    format!(
        "{mv}  value {}  [{}, {}]  {kind}{cut}",
        value_text(node.value),
        value_text(node.alpha),
        value_text(node.beta)
    )
}

fn node_preview(ui: &mut egui::Ui, kind: GameKind, node: &TraceNode) {
    ui.label(format!(
        "{}  {} to move",
        node.board,
        if node.side == boardgames_core::games::Side::White {
            "White"
        } else {
            "Black"
        }
    ));
    match GameState::from_text(kind, &node.board, node.side) {
        Ok(g) => board::preview(ui, kind, g.layout(), &g.pieces(0), None, 160.0),
        Err(e) => {
            ui.label(format!("(cannot draw this board: {e})"));
        }
    }
}

fn show_node(ui: &mut egui::Ui, kind: GameKind, tree: &TraceTree, principal: bool, root: bool) {
    let text = node_label(&tree.node);
    let mut rich = RichText::new(text).monospace();
    if principal {
        rich = rich.color(Color32::from_rgb(0x30, 0x70, 0xe0)).strong();
    }
    if tree.children.is_empty() {
        ui.label(rich)
            .on_hover_ui(|ui| node_preview(ui, kind, &tree.node));
        return;
    }
    let id = tree.node.path.join(",");
    let mut children: Vec<&TraceTree> = tree.children.iter().collect();
    if root {
        // Best for the root first: the children's values are from the opponent's view.
        children.sort_by_key(|c| c.node.value);
    }
    let best = tree.node.best.as_deref();
    let header = egui::CollapsingHeader::new(rich)
        .id_salt(("trace-node", id))
        .default_open(root)
        .show(ui, |ui| {
            for child in children {
                let on_line = principal && child.node.path.last().map(String::as_str) == best;
                show_node(ui, kind, child, on_line, false);
            }
        });
    header
        .header_response
        .on_hover_ui(|ui| node_preview(ui, kind, &tree.node));
}
