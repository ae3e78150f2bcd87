//! The tablebase page: the exact value of the shown Oska or Hexapawn position and of every legal
//! move, best first, read from the tables through the engine library ([`boardgames_core::tablebase`]).
//!
//! [`probe`] is the UI-free lookup. [`TablebasePage`] runs it on a thread of its own (a probe of a
//! table larger than memory reads from disk), once per position shown, and draws the page; a
//! click on a move asks the app to play it.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, mpsc};
use std::time::SystemTime;

use boardgames_core::games::notation::move_name;
use boardgames_core::games::{GameKind, Move, Piece, Side};
use boardgames_core::score::Score;
use boardgames_core::tablebase::{Retro, TableGame, Tablebase};
use boardgames_core::with_table_game;
use eframe::egui::{self, Color32, RichText};

use crate::error::TableError;
use crate::game::GameState;
use crate::model::side_name;
use crate::panels::Action;

/// One legal move and its exact value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableMove {
    /// The move.
    pub mv: Move,
    /// Its name (`a1b2`, `pass`).
    pub name: String,
    /// Its value for the side that plays it (the value of the position after it, seen from
    /// before it).
    pub score: Score,
}

/// What the tables say about one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableReport {
    /// The side to move.
    pub side: Side,
    /// The position's value for the side to move.
    pub value: Score,
    /// Every legal move with its value, best first.
    pub moves: Vec<TableMove>,
}

/// A value in words for the side that has it: `win in 5`, `loss in 4`, `draw`.
pub fn value_text(score: Score) -> String {
    match score {
        Score::Win(k) => format!("win in {k}"),
        Score::Loss(k) => format!("loss in {k}"),
        Score::Draw => "draw".to_string(),
        Score::Cp(x) => format!("{x} cp"),
    }
}

/// A position's value in words, naming the winner: `White wins in 5 plies`, `draw`.
pub fn verdict(report: &TableReport) -> String {
    let plies = |k: u32| if k == 1 { "ply" } else { "plies" };
    match report.value {
        Score::Win(0) | Score::Loss(0) => "the game is over".to_string(),
        Score::Win(k) => format!("{} wins in {k} {}", side_name(report.side), plies(k)),
        Score::Loss(k) => format!(
            "{} wins in {k} {}",
            side_name(match report.side {
                Side::White => Side::Black,
                Side::Black => Side::White,
            }),
            plies(k)
        ),
        Score::Draw => "draw with best play".to_string(),
        Score::Cp(_) => "unknown".to_string(),
    }
}

/// Looks up the position after `ply` moves of `game` in the tables in `dir`. `Err` says in plain
/// words why there is no answer: the game has no tables (Capture the Flag), the directory cannot
/// be read or holds no tables of this game and size, a table is damaged, or no table covers the
/// position (or a position after one of its moves).
pub fn probe(dir: &Path, game: &GameState, ply: usize) -> Result<TableReport, TableError> {
    let key = key_of(dir, game, ply);
    probe_key(&key)
}

/// [`probe`] of a position given by its key.
fn probe_key((dir, kind, size, cells, side): &Key) -> Result<TableReport, TableError> {
    let (dir, size, side) = (dir.as_path(), *size, *side);
    // Capture the Flag has none: its values depend on the history.
    let Ok(game) = TableGame::of(*kind) else {
        return Err(TableError::NoTables);
    };
    with_table_game!(game, G => probe_as::<G>(dir, size, cells, side))
}

fn probe_as<G: Retro>(
    dir: &Path,
    size: usize,
    cells: &[Option<Piece>],
    side: Side,
) -> Result<TableReport, TableError> {
    let pos = G::from_cells(size, cells, side)?;
    let tb = opened::<G>(dir, size)?;
    if tb.materials().is_empty() {
        return Err(TableError::Missing {
            kind: G::KIND,
            size,
            dir: dir.to_path_buf(),
        });
    }
    let (Some(value), Some(moves)) = (tb.probe(&pos), tb.probe_moves(&pos)) else {
        return Err(TableError::Uncovered {
            dir: dir.to_path_buf(),
            white: pos.piece_count(Side::White),
            black: pos.piece_count(Side::Black),
        });
    };
    let moves = moves
        .into_iter()
        .map(|(mv, score)| TableMove {
            mv,
            name: move_name(&pos, mv),
            score,
        })
        .collect();
    Ok(TableReport { side, value, moves })
}

/// The tables of `G` at `size` in `dir`, opened (and so checked: every file read once) the first
/// time and kept while the directory is unchanged, so following a game does not read the files
/// again at every move. Opened with headers only: each probe reads its byte from disk, so a large
/// table costs no memory.
fn opened<G: Retro>(dir: &Path, size: usize) -> Result<Arc<Tablebase>, TableError> {
    type Opened = (
        (PathBuf, GameKind, usize, Option<SystemTime>),
        Arc<Tablebase>,
    );
    static OPENED: Mutex<Option<Opened>> = Mutex::new(None);
    let stamp = std::fs::metadata(dir).and_then(|m| m.modified()).ok();
    let key = (dir.to_path_buf(), G::KIND, size, stamp);
    let mut slot = OPENED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((k, tb)) = slot.as_ref()
        && *k == key
    {
        return Ok(tb.clone());
    }
    let tb = Arc::new(
        Tablebase::open::<G>(dir, size, 0).map_err(|source| TableError::Open {
            dir: dir.to_path_buf(),
            source,
        })?,
    );
    *slot = Some((key, tb.clone()));
    Ok(tb)
}

/// Which position a report is about: the directory, the game, and the board with its side to
/// move.
type Key = (PathBuf, GameKind, usize, Vec<Option<Piece>>, Side);

fn key_of(dir: &Path, game: &GameState, ply: usize) -> Key {
    (
        dir.to_path_buf(),
        game.kind(),
        game.size(),
        game.pieces(ply),
        game.side_to_move(ply),
    )
}

/// The tablebase page's state: the last report, and the probe running on its thread.
#[derive(Default)]
pub struct TablebasePage {
    /// Whether its docked panel is open.
    pub open: bool,
    shown: Option<(Key, Result<TableReport, TableError>)>,
    pending: Option<(Key, mpsc::Receiver<Result<TableReport, TableError>>)>,
}

impl TablebasePage {
    /// Makes the report follow the position after `ply` moves of `game` (tables in `dir`): starts
    /// a probe on a thread when the position changed; takes a finished probe's answer. Never
    /// blocks. Does nothing while the page is closed.
    pub fn follow(&mut self, dir: &Path, game: &GameState, ply: usize) {
        if !self.open {
            return;
        }
        let key = key_of(dir, game, ply);
        if let Some((k, rx)) = &self.pending {
            if let Ok(answer) = rx.try_recv() {
                self.shown = Some((k.clone(), answer));
                self.pending = None;
            } else if *k == key {
                return;
            }
        }
        if self.shown.as_ref().is_some_and(|(k, _)| *k == key) {
            return;
        }
        // Capture the Flag has no tables: say so without a thread.
        if !Tablebase::supports(game.kind()) {
            self.shown = Some((key.clone(), probe_key(&key)));
            self.pending = None;
            return;
        }
        let (tx, rx) = mpsc::channel();
        let job = key.clone();
        std::thread::spawn(move || {
            let _ = tx.send(probe_key(&job));
        });
        self.pending = Some((key, rx));
    }

    /// Whether a probe runs (the page should look again soon).
    pub fn probing(&self) -> bool {
        self.pending.is_some()
    }

    /// The report about the position last followed, once its probe has answered (`None` while it
    /// runs).
    pub fn report(&self) -> Option<&Result<TableReport, TableError>> {
        match (&self.shown, &self.pending) {
            (Some((k, _)), Some((p, _))) if k != p => None,
            (Some((_, r)), _) => Some(r),
            (None, _) => None,
        }
    }

    /// Draws the page's docked panel, with the directory field (`typed` the set directory,
    /// `dir` the one used); returns what was asked: another directory, or a move to play.
    pub fn panel(&mut self, ui: &mut egui::Ui, typed: &str, dir: &Path) -> Vec<Action> {
        let mut actions = Vec::new();
        let mut typed_now = typed.to_string();
        ui.horizontal(|ui| {
            let label = ui.label("directory");
            ui.add(
                egui::TextEdit::singleline(&mut typed_now)
                    .hint_text("$TABLEBASE_PATH or tablebases")
                    .desired_width(ui.available_width() - 8.0),
            )
            .labelled_by(label.id);
        });
        egui::ScrollArea::vertical().show(ui, |ui| {
            actions.extend(self.ui(ui, dir).map(Action::Play));
        });
        if typed_now != typed {
            actions.insert(0, Action::SetTablebaseDir(typed_now));
        }
        actions
    }

    /// Draws the page; returns the move clicked.
    pub fn ui(&self, ui: &mut egui::Ui, dir: &Path) -> Option<Move> {
        ui.label(RichText::new(format!("tables in {}", dir.display())).weak());
        let Some(report) = self.report() else {
            ui.label("probing...");
            return None;
        };
        let report = match report {
            Ok(r) => r,
            Err(why) => {
                ui.label(RichText::new(why.to_string()).color(ui.visuals().warn_fg_color));
                return None;
            }
        };
        ui.label(RichText::new(verdict(report)).strong().size(18.0));
        ui.label(format!(
            "{} to move: {}",
            side_name(report.side),
            value_text(report.value)
        ));
        ui.separator();
        let mut clicked = None;
        egui::Grid::new("tablebase-moves")
            .striped(true)
            .num_columns(2)
            .show(ui, |ui| {
                for m in &report.moves {
                    let colour = match m.score {
                        Score::Win(_) => Color32::from_rgb(0x20, 0x90, 0x30),
                        Score::Loss(_) => Color32::from_rgb(0xc0, 0x30, 0x30),
                        _ => ui.visuals().text_color(),
                    };
                    if ui
                        .button(RichText::new(&m.name).monospace())
                        .on_hover_text("play this move")
                        .clicked()
                    {
                        clicked = Some(m.mv);
                    }
                    ui.label(RichText::new(value_text(m.score)).color(colour));
                    ui.end_row();
                }
            });
        if report.moves.is_empty() {
            ui.label("no legal move: the game is over");
        }
        clicked
    }
}
