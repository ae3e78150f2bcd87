//! The game review: every move's value before and after it, exact where the tablebases cover
//! the position (Oska and Hexapawn; [`crate::tablebase::probe`]) or the solver proves it within
//! [`SOLVE_NODES`], and estimated by a search of our engine elsewhere, then a mark for each move (`??`, `?`, `!`) and an accuracy for each
//! side.
//!
//! The tables are read, and then the solver runs, on a thread of their own; the searches run on an engine process started
//! through the engine hub, one position after the other. Nothing here waits: [`Review::poll`]
//! reads what has arrived. [`judge`] and [`accuracy`] are the UI-free rules (thresholds in
//! docs/gui.md).

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};

use boardgames_core::eval::Evaluate;
use boardgames_core::exact::{ExactSolver, Method};
use boardgames_core::games::{Line, Side};
use boardgames_core::protocol::Go;
use boardgames_core::score::Score;

use boardgames_core::tablebase::{MEMORY_LIMIT, Retro, TableGame, probe_for};
use boardgames_core::with_table_game;
use eframe::egui::{self, RichText};

use crate::controller::{EngineEvent, EngineHandle, Request, Search};
use crate::game::GameState;
use crate::model::{score_text, side_name, white_view};
use crate::tablebase::probe;

/// A move whose expected points drop by at least this much is a mistake (`?`).
pub const MISTAKE: f64 = 0.10;

/// A move whose expected points drop by at least this much is a blunder (`??`), as is a move
/// that turns an exact win into a draw or a loss, or an exact draw into a loss.
pub const BLUNDER: f64 = 0.30;

/// The centipawn scale of the expected points of an estimate: `1 / (1 + e^(-cp / SCALE))`.
pub const SCALE: f64 = 150.0;

/// The depth of the review's searches (positions no table covers).
pub const DEPTH: u32 = 6;

/// A position's value, from White's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value {
    /// The value (White's view).
    pub score: Score,
    /// Whether it is exact (a table, or the game's end) rather than a search's estimate.
    pub exact: bool,
    /// For an exact value, how many legal moves keep it (for `!`: the only move that does).
    pub keeping: Option<usize>,
}

/// One move reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// The move's index (0: the first move).
    pub ply: usize,
    /// Its name.
    pub name: String,
    /// The side that played it.
    pub side: Side,
    /// The value before it and after it (White's view).
    pub before: Value,
    /// The value after it.
    pub after: Value,
    /// The expected points the mover lost with it (0 to 1).
    pub loss: f64,
    /// Its mark: `??`, `?`, `!` or empty.
    pub mark: &'static str,
}

/// A score from the view of `side` (the review keeps White's view).
fn seen_by(score: Score, side: Side) -> Score {
    white_view(score, side)
}

/// The expected points of a score for the side it is seen by: a win 1, a draw 0.5, a loss 0,
/// an estimate on a logistic curve of its centipawns ([`SCALE`]).
pub fn points(score: Score) -> f64 {
    match score {
        Score::Win(_) => 1.0,
        Score::Loss(_) => 0.0,
        Score::Draw => 0.5,
        Score::Cp(cp) => 1.0 / (1.0 + (-f64::from(cp) / SCALE).exp()),
    }
}

/// The outcome class of an exact score: win 2, draw 1, loss 0 (`None` for an estimate).
fn class(score: Score) -> Option<u8> {
    match score {
        Score::Win(_) => Some(2),
        Score::Draw => Some(1),
        Score::Loss(_) => Some(0),
        Score::Cp(_) => None,
    }
}

/// Judges a move of `side` from the values before and after it (White's view): the expected
/// points it lost and its mark. `??`: an exact win or draw thrown away (both values exact), or a
/// loss of at least [`BLUNDER`]; `?`: a loss of at least [`MISTAKE`]; `!`: the only legal move
/// (of several) that keeps an exact win or draw. `scores` are the best move's and the played
/// move's scores in one search of the position before it (the mover's view, every legal move
/// searched with `MultiPV`): an estimate's loss is then their difference, free of the swing
/// between searches of positions with different sides to move.
pub fn judge(
    side: Side,
    before: &Value,
    after: &Value,
    legal: usize,
    scores: Option<(Score, Score)>,
) -> (f64, &'static str) {
    let b = seen_by(before.score, side);
    let a = seen_by(after.score, side);
    let loss = match scores {
        Some((best, played)) if !(before.exact && after.exact) => {
            (points(best) - points(played)).max(0.0)
        }
        _ => (points(b) - points(a)).max(0.0),
    };
    let exact = before.exact && after.exact;
    if exact && let (Some(cb), Some(ca)) = (class(b), class(a)) {
        if ca < cb {
            return (loss, "??");
        }
        if cb >= 1 && before.keeping == Some(1) && legal > 1 {
            return (loss, "!");
        }
        return (loss, "");
    }
    let mark = if loss >= BLUNDER {
        "??"
    } else if loss >= MISTAKE {
        "?"
    } else {
        ""
    };
    (loss, mark)
}

/// A side's accuracy in percent: 100 × (1 − the mean expected points lost per move); `None`
/// when it has no move reviewed.
pub fn accuracy(moves: &[MoveReview], side: Side) -> Option<f64> {
    let losses: Vec<f64> = moves
        .iter()
        .filter(|m| m.side == side)
        .map(|m| m.loss)
        .collect();
    if losses.is_empty() {
        return None;
    }
    Some(100.0 * (1.0 - losses.iter().sum::<f64>() / losses.len() as f64))
}

/// The exact values of every position of `game` (0 to its length): its end where the game is
/// over, else the tables in `dir` where they cover it (`None` elsewhere).
pub fn exact_values(dir: &Path, game: &GameState) -> Vec<Option<Value>> {
    (0..=game.len())
        .map(|ply| {
            if let Some(o) = game.outcome(ply) {
                let score = match o.winner() {
                    Some(Side::White) => Score::Win(0),
                    Some(Side::Black) => Score::Loss(0),
                    None => Score::Draw,
                };
                return Some(Value {
                    score,
                    exact: true,
                    keeping: None,
                });
            }
            let report = probe(dir, game, ply).ok()?;
            let keeping = report
                .moves
                .iter()
                .filter(|m| class(m.score) == class(report.value))
                .count();
            Some(Value {
                score: seen_by(report.value, report.side),
                exact: true,
                keeping: Some(keeping),
            })
        })
        .collect()
}

/// Nodes the exact solver may spend on one position that no table covers: enough to prove the
/// positions of a game's last moves (and more with tables as leaves), little enough that a
/// review of a whole game takes seconds. A position that needs more is estimated by a search.
pub const SOLVE_NODES: u64 = 200_000;

/// What the thread of exact values finds: first the tables' (and the game's end's) values of
/// every position, then, one by one, the values the solver proves of the others.
enum Found {
    /// The values from the tables and the game's end (`None` where neither gives one).
    Tables(Vec<Option<Value>>),
    /// The solver's exact value of the position after this many moves.
    Solved(usize, Value),
}

/// The exact values of every position of `game` on `tx`: the tables' first ([`exact_values`]),
/// then those the solver proves within [`SOLVE_NODES`] nodes (Oska and Hexapawn, with the
/// tables as leaves; the last positions first, which are the quickest). Ends when done or when
/// the review no longer listens.
fn find_values(dir: &Path, game: &GameState, tx: &Sender<Found>) {
    let values = exact_values(dir, game);
    let open: Vec<usize> = (0..values.len())
        .rev()
        .filter(|&p| values[p].is_none())
        .collect();
    if tx.send(Found::Tables(values)).is_err() {
        return;
    }
    // Capture the Flag's values depend on the history: the search's estimate stands.
    if let Ok(table_game) = TableGame::of(game.kind()) {
        with_table_game!(table_game, G => solve_each::<G>(dir, game, &open, tx));
    }
}

/// Every exact value [`Review::start`] finds for `game` (the tables' in `dir`, the game's end,
/// the solver's), found here on the calling thread: for tests and tools.
pub fn all_exact_values(dir: &Path, game: &GameState) -> Vec<Option<Value>> {
    let (tx, rx) = channel();
    find_values(dir, game, &tx);
    drop(tx);
    let mut values = Vec::new();
    for found in rx {
        match found {
            Found::Tables(v) => values = v,
            Found::Solved(ply, v) => values[ply] = Some(v),
        }
    }
    values
}

/// [`find_values`]' solver part for the positions after `plies` moves of `game` of `G`.
fn solve_each<G: Retro + Evaluate>(
    dir: &Path,
    game: &GameState,
    plies: &[usize],
    tx: &Sender<Found>,
) {
    // Tables that fail to open only leave the solver without leaves (the page says why).
    let probe = probe_for::<G>(dir, game.size(), MEMORY_LIMIT)
        .ok()
        .flatten();
    let mut solver = ExactSolver::<G>::new(16, probe);
    let method = Method::Solve {
        nodes: Some(SOLVE_NODES),
        threads: 1,
    };
    for &ply in plies {
        let side = game.side_to_move(ply);
        let Ok(pos) = G::from_cells(game.size(), &game.pieces(ply), side) else {
            continue;
        };
        let stop = AtomicBool::new(false);
        // A position the budget does not settle keeps the search's estimate.
        let Some(score) = solver
            .value(&Line::new(pos), method, &stop, &mut |_| {})
            .ok()
            .and_then(|exact| exact.score())
        else {
            continue;
        };
        let value = Value {
            score: seen_by(score, side),
            exact: true,
            keeping: None,
        };
        if tx.send(Found::Solved(ply, value)).is_err() {
            return;
        }
    }
}

/// The review of each move from the values of the positions (`values[k]` before move `k`) and
/// the searches' best and played moves' scores (`scores[k]`, the mover's view; see [`judge`]).
pub fn moves_of(
    game: &GameState,
    values: &[Option<Value>],
    scores: &[Option<(Score, Score)>],
) -> Vec<MoveReview> {
    (0..game.len())
        .filter_map(|ply| {
            let before = values.get(ply).copied().flatten()?;
            let after = values.get(ply + 1).copied().flatten()?;
            let side = game.side_to_move(ply);
            let legal = game.legal_moves(ply).len();
            let scores = scores.get(ply).copied().flatten();
            let (loss, mark) = judge(side, &before, &after, legal, scores);
            Some(MoveReview {
                ply,
                name: game.move_name(ply),
                side,
                before,
                after,
                loss,
                mark,
            })
        })
        .collect()
}

/// The review's state: the game reviewed, the values found so far, the tables' thread and the
/// engine searching the positions they do not cover.
#[derive(Default)]
pub struct Review {
    /// Whether its docked panel is open.
    pub open: bool,
    /// The game reviewed.
    game: Option<GameState>,
    /// The value of each position (0 to the game's length), as they arrive.
    values: Vec<Option<Value>>,
    /// For each position searched, the best move's and the played move's scores (the side to
    /// move's view).
    scores: Vec<Option<(Score, Score)>>,
    /// The lines of the running search: each first move's last score.
    lines: Vec<(String, Score)>,
    /// The `MultiPV` value sent (every legal move), once the engine declared the option.
    multipv: Option<i64>,
    /// The exact values' thread ([`find_values`]), while it runs.
    tables: Option<Receiver<Found>>,
    /// Whether the tables' values have come (the searches start after them).
    tables_read: bool,
    /// The engine for the positions no table covers, and the position it searches.
    engine: Option<EngineHandle>,
    searching: Option<usize>,
    /// The last score of the running search (side to move's view).
    last: Option<Score>,
    /// Why the review could not be finished.
    error: Option<String>,
}

/// What the review panel asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReviewAction {
    /// Review the game on the table.
    Start,
    /// Show the position after this many moves (a move's mark was clicked).
    GoTo(usize),
}

impl Review {
    /// Starts reviewing `game` (replacing a review under way): the tables in `dir` are read on
    /// a thread; the positions they leave get a search of the engine `spawn` starts. Returns
    /// the engine of the earlier review, for the hub to end.
    pub fn start(&mut self, game: &GameState, dir: &Path) -> Option<EngineHandle> {
        let old = self.engine.take();
        self.game = Some(game.clone());
        self.values = vec![None; game.len() + 1];
        self.scores = vec![None; game.len() + 1];
        self.lines.clear();
        self.multipv = None;
        self.searching = None;
        self.last = None;
        self.error = None;
        let (tx, rx) = channel();
        let (game, dir) = (game.clone(), dir.to_path_buf());
        std::thread::spawn(move || find_values(&dir, &game, &tx));
        self.tables = Some(rx);
        self.tables_read = false;
        old
    }

    /// Whether values are still coming.
    pub fn running(&self) -> bool {
        self.tables.is_some() || self.searching.is_some()
    }

    /// The game reviewed.
    pub fn game(&self) -> Option<&GameState> {
        self.game.as_ref()
    }

    /// The value of each position found so far (0 to the game's length).
    pub fn values(&self) -> &[Option<Value>] {
        &self.values
    }

    /// The moves reviewed so far (those with both values).
    pub fn moves(&self) -> Vec<MoveReview> {
        self.game
            .as_ref()
            .map_or_else(Vec::new, |g| moves_of(g, &self.values, &self.scores))
    }

    /// Forgets the review (the game on the table was replaced); returns its engine, for the hub
    /// to end.
    pub fn clear(&mut self) -> Option<EngineHandle> {
        self.game = None;
        self.values.clear();
        self.scores.clear();
        self.tables = None;
        self.error = None;
        self.end()
    }

    /// Gives up the engine at once (closing the app, or a new review); returns it, for the hub
    /// to end.
    pub fn end(&mut self) -> Option<EngineHandle> {
        self.searching = None;
        self.engine.take()
    }

    /// Reads the tables' answer and the engine's events; starts the next search when one is
    /// due (`spawn` starts the engine the first time). Returns an engine to end once the review
    /// needs it no more. Returns whether anything changed in the second place.
    pub fn poll(
        &mut self,
        spawn: impl FnOnce() -> Option<EngineHandle>,
    ) -> (Option<EngineHandle>, bool) {
        let mut changed = false;
        while let Some(rx) = &self.tables {
            match rx.try_recv() {
                Ok(Found::Tables(values)) => {
                    for (slot, v) in self.values.iter_mut().zip(values) {
                        if slot.is_none() {
                            *slot = v;
                        }
                    }
                    self.tables_read = true;
                    changed = true;
                }
                // An exact value replaces an estimate the search may have given meanwhile.
                Ok(Found::Solved(ply, value)) => {
                    if let Some(slot) = self.values.get_mut(ply) {
                        *slot = Some(value);
                        changed = true;
                    }
                }
                Err(TryRecvError::Empty) if !self.tables_read => return (None, changed),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    if !self.tables_read {
                        self.error = Some("reading the tables failed".into());
                    }
                    self.tables = None;
                }
            }
        }
        let Some(game) = self.game.clone() else {
            return (None, changed);
        };
        if let Some(handle) = &self.engine {
            for event in handle.poll() {
                match event {
                    EngineEvent::Ready(info) => {
                        // Every legal move searched: the played move's score comes from the
                        // same search as the best one's.
                        if let Some(max) = info.options.iter().find_map(|o| match &o.kind {
                            boardgames_core::protocol::OptionKind::Spin { max, .. }
                                if o.name.eq_ignore_ascii_case("MultiPV") =>
                            {
                                Some(*max)
                            }
                            _ => None,
                        }) {
                            handle.send(Request::SetOption {
                                name: "MultiPV".into(),
                                value: max.to_string(),
                            });
                            self.multipv = Some(max);
                        }
                    }
                    EngineEvent::Search { id, info } if Some(id as usize) == self.searching => {
                        if info.multipv.unwrap_or(1) == 1 {
                            self.last = Some(info.score);
                        }
                        if let Some(first) = info.pv.first() {
                            match self.lines.iter_mut().find(|(m, _)| m == first) {
                                Some(line) => line.1 = info.score,
                                None => self.lines.push((first.clone(), info.score)),
                            }
                        }
                    }
                    EngineEvent::BestMove { id, .. } if Some(id as usize) == self.searching => {
                        let ply = id as usize;
                        let side = game.side_to_move(ply);
                        let lines = std::mem::take(&mut self.lines);
                        if let Some(score) = self.last.take() {
                            self.values[ply] = Some(Value {
                                score: seen_by(score, side),
                                exact: false,
                                keeping: None,
                            });
                            // The played move's score, or the worst line's when it was not
                            // reported (a bound: it is no better).
                            let played = (ply < game.len())
                                .then(|| game.move_name(ply))
                                .and_then(|name| lines.iter().find(|(m, _)| *m == name))
                                .map(|&(_, s)| s)
                                .or_else(|| {
                                    lines
                                        .iter()
                                        .map(|&(_, s)| s)
                                        .min_by(|a, b| points(*a).total_cmp(&points(*b)))
                                });
                            if self.multipv.is_some()
                                && let Some(played) = played
                            {
                                self.scores[ply] = Some((score, played));
                            }
                        } else {
                            self.error = Some(format!(
                                "the engine gave no score for the position after {ply} moves"
                            ));
                        }
                        self.searching = None;
                        changed = true;
                    }
                    EngineEvent::Failed(why) => {
                        self.error = Some(format!("the review's engine failed: {why}"));
                        self.searching = None;
                        changed = true;
                        return (self.engine.take(), changed);
                    }
                    _ => {}
                }
            }
        }
        if self.searching.is_some() || self.error.is_some() {
            return (None, changed);
        }
        let Some(next) = self.values.iter().position(Option::is_none) else {
            return (self.engine.take(), changed);
        };
        if self.engine.is_none() {
            match spawn() {
                Some(h) => self.engine = Some(h),
                None => {
                    self.error = Some("the review's engine cannot run: no async runtime".into());
                    return (None, true);
                }
            }
        }
        if let Some(handle) = &self.engine {
            handle.send(Request::Think(Search {
                id: next as u64,
                game: game.kind(),
                size: u32::try_from(game.size()).unwrap_or(u32::MAX),
                setup: game.setup(),
                moves: game.move_names()[..next].to_vec(),
                go: Go::Depth(DEPTH),
            }));
            self.searching = Some(next);
            self.last = None;
            self.lines.clear();
        }
        (None, changed)
    }

    /// Draws the review's docked panel; `shown` is the number of moves shown on the board.
    pub fn ui(&self, ui: &mut egui::Ui, table: &GameState, shown: usize) -> Option<ReviewAction> {
        let mut action = None;
        ui.horizontal_wrapped(|ui| {
            let again = self.game.is_some();
            let label = if again {
                "Review again"
            } else {
                "Review the game"
            };
            if ui
                .add_enabled(!table.is_empty(), egui::Button::new(label))
                .on_hover_text("every move's value before and after it: exact from the tables where they cover the position or from the solver where it proves it quickly, else a search")
                .clicked()
            {
                action = Some(ReviewAction::Start);
            }
            if self.running() {
                ui.spinner();
                let done = self.values.iter().filter(|v| v.is_some()).count();
                ui.label(format!("{done} of {} positions", self.values.len()));
            }
        });
        if let Some(why) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, why);
        }
        let Some(game) = &self.game else {
            ui.label(RichText::new("Review the game on the table, during or after it.").weak());
            return action;
        };
        let moves = moves_of(game, &self.values, &self.scores);
        ui.horizontal_wrapped(|ui| {
            for side in [Side::White, Side::Black] {
                let text = match accuracy(&moves, side) {
                    Some(a) => format!("{} accuracy {a:.0} %", side_name(side)),
                    None => format!("{} accuracy -", side_name(side)),
                };
                ui.label(RichText::new(text).strong());
            }
        });
        let exact = self.values.iter().flatten().filter(|v| v.exact).count();
        let estimated = self.values.iter().flatten().count() - exact;
        ui.label(
            RichText::new(format!(
                "{exact} positions exact (tables, the solver or the game's end), {estimated} estimated (depth {DEPTH})"
            ))
            .weak(),
        );
        ui.separator();
        let offset = usize::from(game.side_to_move(0) == Side::Black);
        egui::ScrollArea::both()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                egui::Grid::new("review-moves")
                    .num_columns(3)
                    .striped(true)
                    .show(ui, |ui| {
                        for m in &moves {
                            let k = m.ply + offset;
                            let number = if k % 2 == 0 {
                                format!("{}.", k / 2 + 1)
                            } else {
                                format!("{}...", k / 2 + 1)
                            };
                            let text = format!("{number} {}{}", m.name, m.mark);
                            let mut rich = RichText::new(text).monospace();
                            if m.mark.starts_with('?') {
                                rich = rich.color(ui.visuals().warn_fg_color);
                            }
                            if ui
                                .selectable_label(shown == m.ply + 1, rich)
                                .on_hover_text("show the position after this move")
                                .clicked()
                            {
                                action = Some(ReviewAction::GoTo(m.ply + 1));
                            }
                            ui.label(format!(
                                "{} -> {}",
                                value_text(&m.before),
                                value_text(&m.after)
                            ));
                            ui.label(
                                RichText::new(if m.before.exact && m.after.exact {
                                    "exact"
                                } else {
                                    "estimate"
                                })
                                .weak(),
                            );
                            ui.end_row();
                        }
                    });
            });
        action
    }
}

/// A value as the review shows it (White's view, as the engine panels): `+0.35`, `White wins in
/// 5`, `draw`.
pub fn value_text(v: &Value) -> String {
    score_text(v.score)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exact(score: Score, keeping: Option<usize>) -> Value {
        Value {
            score,
            exact: true,
            keeping,
        }
    }

    fn estimate(cp: i32) -> Value {
        Value {
            score: Score::Cp(cp),
            exact: false,
            keeping: None,
        }
    }

    #[test]
    fn marks_follow_the_documented_thresholds() {
        // White throws away a win (White's view: a win, then a draw).
        let (_, m) = judge(
            Side::White,
            &exact(Score::Win(5), Some(2)),
            &exact(Score::Draw, None),
            3,
            None,
        );
        assert_eq!(m, "??");
        // Black keeps its win with the only winning move (White's view: White loses).
        let (loss, m) = judge(
            Side::Black,
            &exact(Score::Loss(7), Some(1)),
            &exact(Score::Loss(6), None),
            4,
            None,
        );
        assert_eq!((loss, m), (0.0, "!"));
        // The only move at all is no "!".
        let (_, m) = judge(
            Side::Black,
            &exact(Score::Loss(7), Some(1)),
            &exact(Score::Loss(6), None),
            1,
            None,
        );
        assert_eq!(m, "");
        // Estimates: 0 -> -0.7 pawns for White is a mistake, 0 -> -2.5 a blunder, +0.1 nothing.
        assert_eq!(
            judge(Side::White, &estimate(0), &estimate(-50), 3, None).1,
            ""
        );
        assert_eq!(
            judge(Side::White, &estimate(0), &estimate(-70), 3, None).1,
            "?"
        );
        assert_eq!(
            judge(Side::White, &estimate(0), &estimate(-250), 3, None).1,
            "??"
        );
        assert_eq!(
            judge(Side::White, &estimate(0), &estimate(10), 3, None).1,
            ""
        );
        // With one search's best and played scores, their difference decides, not the values
        // of the two positions (searched with different sides to move).
        let best_played = Some((Score::Cp(40), Score::Cp(30)));
        assert_eq!(
            judge(Side::White, &estimate(80), &estimate(-90), 3, best_played).1,
            ""
        );
        let best_played = Some((Score::Cp(40), Score::Cp(-300)));
        assert_eq!(
            judge(Side::White, &estimate(40), &estimate(-10), 3, best_played).1,
            "??"
        );
        // Black's view is the other way round.
        assert_eq!(
            judge(Side::Black, &estimate(0), &estimate(250), 3, None).1,
            "??"
        );
    }

    #[test]
    fn accuracy_is_one_hundred_less_the_mean_loss() {
        let m = |ply, side, loss, mark| MoveReview {
            ply,
            name: format!("m{ply}"),
            side,
            before: estimate(0),
            after: estimate(0),
            loss,
            mark,
        };
        let moves = [
            m(0, Side::White, 0.0, ""),
            m(1, Side::Black, 0.5, "??"),
            m(2, Side::White, 0.2, "?"),
        ];
        assert!((accuracy(&moves, Side::White).unwrap() - 90.0).abs() < 1e-9);
        assert!((accuracy(&moves, Side::Black).unwrap() - 50.0).abs() < 1e-9);
        assert_eq!(accuracy(&moves[..1], Side::Black), None);
    }
}
