//! The position editor: a board on which pieces are placed and removed by clicking squares, with
//! the game, size and side to move, checked live by the rules.

use boardgames_core::games::{GameKind, Piece, Side};
use eframe::egui::{self, Color32, RichText};

use crate::board::{self, BoardInput, Marks};
use crate::error::GameError;
use crate::game::GameState;
use crate::widgets;

/// What a click on a square puts there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Brush {
    /// A piece (a flag only in Capture the Flag).
    Piece(Piece),
    /// Nothing: clicking removes what stands there.
    Empty,
}

impl Brush {
    fn label(self) -> &'static str {
        match self {
            Brush::Piece(Piece::WhitePawn) => "w  white piece",
            Brush::Piece(Piece::BlackPawn) => "b  black piece",
            Brush::Piece(Piece::WhiteFlag) => "W  white flag",
            Brush::Piece(Piece::BlackFlag) => "B  black flag",
            Brush::Empty => "empty (remove)",
        }
    }
}

/// What the person asked for in the editor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditorAction {
    /// Start a game from the position.
    Play,
    /// Start analysis mode on the position.
    Analyse,
    /// Leave the editor without using the position.
    Close,
}

/// The editor's state: the game, size, squares and side to move being edited.
#[derive(Clone, Debug)]
pub struct Editor {
    /// Whether the editor is shown (in place of the game's board).
    pub open: bool,
    kind: GameKind,
    size: usize,
    cells: Vec<Option<Piece>>,
    side: Side,
    /// What a click puts on a square.
    pub brush: Brush,
}

impl Default for Editor {
    fn default() -> Self {
        let mut e = Editor {
            open: false,
            kind: GameKind::Oska,
            size: 4,
            cells: Vec::new(),
            side: Side::White,
            brush: Brush::Piece(Piece::WhitePawn),
        };
        e.start_position();
        e
    }
}

impl Editor {
    /// Opens the editor on the position after `ply` moves of `game`.
    pub fn open_on(&mut self, game: &GameState, ply: usize) {
        self.open = true;
        self.kind = game.kind();
        self.size = game.size();
        self.cells = game.pieces(ply);
        self.side = game.side_to_move(ply);
        self.fix_brush();
    }

    /// The game being edited.
    pub fn kind(&self) -> GameKind {
        self.kind
    }

    /// Its size.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The side to move.
    pub fn side(&self) -> Side {
        self.side
    }

    /// What stands on every square.
    pub fn cells(&self) -> &[Option<Piece>] {
        &self.cells
    }

    /// Changes the game and size (the board becomes that game's start position).
    pub fn set_game(&mut self, kind: GameKind, size: usize) {
        let (lo, hi) = kind.size_range();
        self.kind = kind;
        self.size = size.clamp(lo, hi);
        self.start_position();
        self.fix_brush();
    }

    /// Sets the side to move.
    pub fn set_side(&mut self, side: Side) {
        self.side = side;
    }

    /// Puts the brush's piece on a square (or empties it).
    pub fn place(&mut self, sq: usize) {
        if let Some(cell) = self.cells.get_mut(sq) {
            *cell = match self.brush {
                Brush::Piece(p) => Some(p),
                Brush::Empty => None,
            };
        }
    }

    /// Empties every square.
    pub fn clear(&mut self) {
        self.cells.iter_mut().for_each(|c| *c = None);
    }

    /// The standard start position of the game and size, White to move.
    pub fn start_position(&mut self) {
        match GameState::new(self.kind, self.size) {
            Ok(g) => {
                self.cells = g.pieces(0);
                self.side = Side::White;
            }
            Err(_) => self.cells.clear(),
        }
    }

    /// The position as a game, or the rules' objection in plain words.
    pub fn check(&self) -> Result<GameState, GameError> {
        GameState::from_cells(self.kind, self.size, &self.cells, self.side)
            .map_err(GameError::Edited)
    }

    fn brushes(&self) -> Vec<Brush> {
        let mut b = vec![
            Brush::Piece(Piece::WhitePawn),
            Brush::Piece(Piece::BlackPawn),
        ];
        if self.kind == GameKind::Ctf {
            b.push(Brush::Piece(Piece::WhiteFlag));
            b.push(Brush::Piece(Piece::BlackFlag));
        }
        b.push(Brush::Empty);
        b
    }

    fn fix_brush(&mut self) {
        if !self.brushes().contains(&self.brush) {
            self.brush = Brush::Piece(Piece::WhitePawn);
        }
    }

    /// Draws the editor (its controls above the board) into `ui`; returns what was asked for.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<EditorAction> {
        let mut action = None;
        let checked = self.check();
        ui.horizontal_wrapped(|ui| {
            ui.heading("Position editor");
            let mut kind = self.kind;
            widgets::game_picker(ui, &mut kind);
            let (lo, hi) = kind.size_range();
            let mut size = if kind == self.kind {
                self.size
            } else {
                self.size.clamp(lo, hi)
            };
            widgets::size_slider(ui, kind, &mut size);
            if (kind, size) != (self.kind, self.size) {
                self.set_game(kind, size);
            }
        });
        ui.horizontal_wrapped(|ui| {
            ui.label("place:");
            for b in self.brushes() {
                ui.radio_value(&mut self.brush, b, b.label());
            }
        });
        ui.horizontal_wrapped(|ui| {
            ui.label("to move:");
            ui.radio_value(&mut self.side, Side::White, "White");
            ui.radio_value(&mut self.side, Side::Black, "Black");
            ui.separator();
            if ui.button("Clear").clicked() {
                self.clear();
            }
            if ui.button("Start position").clicked() {
                self.start_position();
            }
        });
        let valid = checked.is_ok();
        match &checked {
            Err(e) => {
                ui.label(RichText::new(e.to_string()).color(Color32::from_rgb(0xd0, 0x30, 0x30)));
            }
            Ok(g) => match g.outcome(0) {
                Some(o) => {
                    ui.label(
                        RichText::new(format!(
                            "Legal, but the game is already over here: {}",
                            crate::model::outcome_text(&o)
                        ))
                        .color(Color32::from_rgb(0xb0, 0x70, 0x10)),
                    );
                }
                None => {
                    let moves = g.legal_moves(0).len();
                    ui.label(
                        RichText::new(format!(
                            "A legal position; {} to move with {moves} legal move{}.",
                            if self.side == Side::White {
                                "White"
                            } else {
                                "Black"
                            },
                            if moves == 1 { "" } else { "s" }
                        ))
                        .color(Color32::from_rgb(0x20, 0x80, 0x30)),
                    );
                }
            },
        }
        ui.horizontal(|ui| {
            if ui
                .add_enabled(valid, egui::Button::new("Play from here"))
                .on_hover_text(
                    "replaces the game on the table with one from this position, with the players as set up",
                )
                .clicked()
            {
                action = Some(EditorAction::Play);
            }
            if ui
                .add_enabled(valid, egui::Button::new("Analyse from here"))
                .on_hover_text(
                    "replaces the game on the table with this position and starts analysis mode on it",
                )
                .clicked()
            {
                action = Some(EditorAction::Analyse);
            }
            if ui.button("Close editor").clicked() {
                action = Some(EditorAction::Close);
            }
        });
        ui.separator();
        if let Ok(layout) = GameState::new(self.kind, self.size).map(|g| g.layout()) {
            let cells = &self.cells;
            let (_, input) = board::show(
                ui,
                self.kind,
                layout,
                &|sq| cells.get(sq).copied().flatten(),
                &Marks::default(),
                false,
            );
            match input {
                Some(BoardInput::Click(sq)) => self.place(sq),
                Some(BoardInput::Drag(from, to)) => {
                    if let (Some(&p), true) = (self.cells.get(from), to < self.cells.len()) {
                        self.cells[to] = p;
                        self.cells[from] = None;
                    }
                }
                None => {}
            }
        }
        action
    }
}
