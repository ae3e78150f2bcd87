//! The solver panel: asks our engine, on a process of its own, `go solve` for the shown
//! position, shows the search's progress (the exact solver's `info nodes` lines: stage, root
//! moves done, nodes, speed and what is proven so far; or the `info depth` lines of a solve by
//! deepening), then the proven value in words from White's point of view, the best move and the
//! line.

use std::time::Instant;

use boardgames_core::games::{GameKind, Outcome, Side};
use boardgames_core::protocol::{Go, ProgressInfo, SearchInfo};
use boardgames_core::score::Score;
use eframe::egui::{self, Color32, RichText};

use crate::analysis::white_view;
use crate::controller::{EngineEvent, EngineHandle, Request, Search};
use crate::game::GameState;
use crate::model::side_name;

/// Where a solve is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum SolveState {
    /// Nothing asked yet.
    #[default]
    Idle,
    /// The engine is solving.
    Running,
    /// `stop` was sent; waiting for the engine's `bestmove`.
    Stopping,
    /// Stopped before the value was proven.
    Stopped,
    /// The value is proven (White's point of view).
    Solved(Score),
    /// The position is already over: nothing to solve.
    Over(Outcome),
    /// The engine failed (in plain words).
    Failed(String),
}

/// A proven White's-view value in words: "White wins in K plies", "Black wins in K plies",
/// "Draw". An unproven (`cp`) score gives `None`.
pub fn result_text(white: Score) -> Option<String> {
    let plies = |k: u32| if k == 1 { "ply" } else { "plies" };
    match white {
        Score::Win(k) => Some(format!("White wins in {k} {}", plies(k))),
        Score::Loss(k) => Some(format!("Black wins in {k} {}", plies(k))),
        Score::Draw => Some("Draw".into()),
        Score::Cp(_) => None,
    }
}

/// What a `bound` of the exact solver proves, from White's point of view, in words: "White wins
/// in at most K plies", "Black wins in at most K plies" (the exact number follows when the
/// solve ends), "Draw". A `cp` score gives `None`.
pub fn bound_text(white: Score) -> Option<String> {
    let plies = |k: u32| if k == 1 { "ply" } else { "plies" };
    match white {
        Score::Win(k) => Some(format!("White wins in at most {k} {}", plies(k))),
        Score::Loss(k) => Some(format!("Black wins in at most {k} {}", plies(k))),
        Score::Draw => Some("Draw".into()),
        Score::Cp(_) => None,
    }
}

/// A progress line in words: `stage wdl (win, draw or loss?): root move 3 of 10, 1 234 567
/// nodes, 1 200 000 nodes/s, 12.3 s`.
pub fn progress_text(p: &ProgressInfo) -> String {
    let mut text = String::new();
    if let Some(stage) = &p.stage {
        let what = match stage.as_str() {
            "wdl" => " (win, draw or loss?)",
            "distance" => " (how many plies?)",
            _ => "",
        };
        text = format!("stage {stage}{what}: ");
    }
    if let Some((done, total)) = p.root {
        text.push_str(&format!("root move {done} of {total}, "));
    }
    text.push_str(&format!(
        "{} nodes, {} nodes/s, {:.1} s",
        grouped(p.nodes),
        grouped(p.nps),
        p.time_ms as f64 / 1000.0
    ));
    text
}

/// `n` with its digits in groups of three (`1 234 567`).
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// The solver panel's state.
#[derive(Default)]
pub struct Solver {
    /// Whether its docked panel is open.
    pub open: bool,
    engine: Option<EngineHandle>,
    state: SolveState,
    /// The game, size and moves of the position being (or last) solved.
    about: Option<(GameKind, usize, Vec<String>)>,
    side: Option<Side>,
    last: Option<SearchInfo>,
    /// The last `info nodes` progress line of the solve.
    progress: Option<ProgressInfo>,
    /// The last bound the solve proved (White's point of view).
    bound: Option<Score>,
    started: Option<Instant>,
}

/// What the person asked for in the solver panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveAction {
    /// Solve the shown position.
    Solve,
    /// Stop the running solve.
    Stop,
}

impl Solver {
    /// Where the solve is.
    pub fn state(&self) -> &SolveState {
        &self.state
    }

    /// Whether the engine is still working (solving or answering `stop`).
    pub fn running(&self) -> bool {
        matches!(self.state, SolveState::Running | SolveState::Stopping)
    }

    /// The last `info depth` line of the solve.
    pub fn last_info(&self) -> Option<&SearchInfo> {
        self.last.as_ref()
    }

    /// The last progress line of the solve (`info nodes ...`).
    pub fn progress(&self) -> Option<&ProgressInfo> {
        self.progress.as_ref()
    }

    /// What the solve has proven so far, from White's point of view (a bound of the exact
    /// solver's stages; the value itself once solved).
    pub fn bound(&self) -> Option<Score> {
        self.bound
    }

    /// The best line of a proven value: the best move first (the `pv` of the last `info depth`
    /// line).
    pub fn best_line(&self) -> Option<&[String]> {
        match self.state {
            SolveState::Solved(_) => self
                .last
                .as_ref()
                .map(|i| i.pv.as_slice())
                .filter(|pv| !pv.is_empty()),
            _ => None,
        }
    }

    /// The result in words, once there is one: the proven value, "Stopped ..." or why not.
    pub fn result(&self) -> Option<String> {
        match &self.state {
            SolveState::Solved(s) => result_text(*s),
            SolveState::Over(o) => Some(format!(
                "The game is already over: {}",
                crate::model::outcome_text(o)
            )),
            SolveState::Stopped => Some("Stopped before the value was proven".into()),
            SolveState::Failed(why) => Some(format!("The solver failed: {why}")),
            _ => None,
        }
    }

    /// Starts solving the position after `ply` moves of `game` on a new engine process, which
    /// `spawn` starts (the engine hub's); returns the previous process, if any, for the hub to
    /// end.
    pub fn start(
        &mut self,
        spawn: impl FnOnce() -> Option<EngineHandle>,
        game: &GameState,
        ply: usize,
    ) -> Option<EngineHandle> {
        let old = self.engine.take();
        let ply = ply.min(game.len());
        let moves = game.move_names()[..ply].to_vec();
        self.about = Some((game.kind(), game.size(), moves.clone()));
        self.side = Some(game.side_to_move(ply));
        self.last = None;
        self.progress = None;
        self.bound = None;
        if let Some(o) = game.outcome(ply) {
            self.state = SolveState::Over(o);
            self.started = None;
            return old;
        }
        let Some(handle) = spawn() else {
            self.state = SolveState::Failed("the solver cannot run: no async runtime".into());
            self.started = None;
            return old;
        };
        handle.send(Request::Think(Search {
            id: 1,
            game: game.kind(),
            size: u32::try_from(game.size()).unwrap_or(u32::MAX),
            setup: game.setup(),
            moves,
            go: Go::Solve,
        }));
        self.engine = Some(handle);
        self.state = SolveState::Running;
        self.started = Some(Instant::now());
        old
    }

    /// Asks the engine to stop (`stop`, then its `bestmove` is awaited by the engine's task).
    pub fn request_stop(&mut self) {
        if self.state == SolveState::Running
            && let Some(e) = &self.engine
        {
            e.send(Request::Stop);
            self.state = SolveState::Stopping;
        }
    }

    /// Gives up the engine at once (closing the app); returns it, for the hub to end.
    pub fn end(&mut self) -> Option<EngineHandle> {
        if self.running() {
            self.state = SolveState::Stopped;
        }
        self.engine.take()
    }

    /// Reads the engine's events; returns the engine once its work is done, for the hub to end.
    pub fn poll(&mut self) -> Option<EngineHandle> {
        let events = self.engine.as_ref().map(EngineHandle::poll)?;
        let mut done = false;
        for event in events {
            match event {
                EngineEvent::Search { info, .. } => self.last = Some(info),
                EngineEvent::Progress { info, .. } => {
                    if let Some((b, side)) = info.bound.zip(self.side) {
                        self.bound = Some(white_view(b, side));
                    }
                    self.progress = Some(info);
                }
                EngineEvent::BestMove { .. } => {
                    done = true;
                    let proven = self
                        .last
                        .as_ref()
                        .zip(self.side)
                        .map(|(i, side)| white_view(i.score, side))
                        .filter(|s| !matches!(s, Score::Cp(_)));
                    self.state = match proven {
                        Some(s) => {
                            self.bound = Some(s);
                            SolveState::Solved(s)
                        }
                        None => {
                            SolveState::Failed("the engine answered without a proven value".into())
                        }
                    };
                }
                EngineEvent::Stopped { .. } => {
                    done = true;
                    self.state = SolveState::Stopped;
                }
                EngineEvent::Failed(why) => {
                    done = true;
                    self.state = SolveState::Failed(why);
                }
                EngineEvent::Ended => {
                    done = true;
                    if self.running() {
                        self.state =
                            SolveState::Failed("the engine ended without answering".into());
                    }
                }
                _ => {}
            }
        }
        if done { self.engine.take() } else { None }
    }

    /// Draws the solver's docked panel, on the position after `view` moves of `game` (the one
    /// on the board).
    pub fn panel(
        &mut self,
        ui: &mut egui::Ui,
        game: &GameState,
        view: usize,
    ) -> Option<SolveAction> {
        let played = crate::model::moves_text(view);
        let shown = format!(
            "{} {}, {played} played, {} to move",
            game.kind().name(),
            game.size(),
            side_name(game.side_to_move(view))
        );
        self.ui(ui, &shown)
    }

    /// Draws the contents; `shown` describes the position on the board.
    pub fn ui(&mut self, ui: &mut egui::Ui, shown: &str) -> Option<SolveAction> {
        let mut action = None;
        ui.label(format!("Shown position: {shown}"));
        ui.horizontal(|ui| {
            if ui
                .add_enabled(!self.running(), egui::Button::new("Solve"))
                .on_hover_text("our engine proves the value of the shown position (go solve)")
                .clicked()
            {
                action = Some(SolveAction::Solve);
            }
            if ui
                .add_enabled(self.state == SolveState::Running, egui::Button::new("Stop"))
                .clicked()
            {
                action = Some(SolveAction::Stop);
            }
        });
        if let Some((kind, size, moves)) = &self.about {
            let after = if moves.is_empty() {
                "its start".to_string()
            } else {
                format!("after {}", moves.join(" "))
            };
            ui.label(RichText::new(format!("Solving: {} {size}, {after}", kind.name())).weak());
        }
        match &self.state {
            SolveState::Running => {
                let secs = self.started.map_or(0.0, |t| t.elapsed().as_secs_f64());
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(format!("solving... {secs:.1} s"));
                });
            }
            SolveState::Stopping => {
                ui.label("stopping: waiting for the engine's answer...");
            }
            _ => {}
        }
        // The exact solver's progress while it runs; the deepening's last depth (Capture the
        // Flag) and the last figures once it has ended.
        let progress_newer = match (&self.progress, &self.last) {
            (Some(p), Some(i)) => p.time_ms > i.time_ms,
            (p, _) => p.is_some(),
        };
        if let Some(p) = self.progress.as_ref().filter(|_| progress_newer) {
            ui.label(progress_text(p));
        } else if let Some(info) = &self.last {
            ui.label(format!(
                "depth {}   nodes {}   time {:.3} s",
                info.depth,
                grouped(info.nodes),
                info.time_ms as f64 / 1000.0
            ));
        }
        if let Some(text) = self.result() {
            let color = match self.state {
                SolveState::Failed(_) => Color32::from_rgb(0xd0, 0x30, 0x30),
                _ => ui.visuals().strong_text_color(),
            };
            ui.label(RichText::new(text).size(18.0).color(color));
        }
        let solved = matches!(self.state, SolveState::Solved(_));
        if let Some(text) = self.bound.filter(|_| !solved).and_then(bound_text) {
            ui.label(format!("Proven so far: {text}"));
        }
        if let Some(line) = self.best_line() {
            ui.label(RichText::new(format!("Best move: {}", line[0])).strong());
            let plies = if line.len() == 1 { "ply" } else { "plies" };
            ui.add(
                egui::Label::new(format!("Line ({} {plies}): {}", line.len(), line.join(" ")))
                    .wrap(),
            );
        }
        if self
            .about
            .as_ref()
            .is_some_and(|(k, _, _)| *k == GameKind::Ctf)
        {
            ui.label(
                RichText::new(
                    "Capture the Flag: no move may recreate an earlier board, so the value is \
                     exact for this game's history (the boards played before), not for the \
                     board alone.",
                )
                .weak(),
            );
        }
        action
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_and_progress_in_words() {
        assert_eq!(
            bound_text(Score::Win(23)).as_deref(),
            Some("White wins in at most 23 plies")
        );
        // Black to move and losing in at most 22 plies: White wins within 22.
        let white = white_view(Score::Loss(22), Side::Black);
        assert_eq!(
            bound_text(white).as_deref(),
            Some("White wins in at most 22 plies")
        );
        assert_eq!(
            bound_text(Score::Loss(1)).as_deref(),
            Some("Black wins in at most 1 ply")
        );
        assert_eq!(bound_text(Score::Cp(3)), None);
        let p = ProgressInfo {
            nodes: 1_234_567,
            nps: 987_654,
            time_ms: 1_250,
            stage: Some("wdl".into()),
            root: Some((3, 10)),
            bound: None,
        };
        assert_eq!(
            progress_text(&p),
            "stage wdl (win, draw or loss?): root move 3 of 10, 1 234 567 nodes, \
             987 654 nodes/s, 1.2 s"
        );
        let bare = ProgressInfo {
            stage: None,
            root: None,
            nodes: 12,
            ..p
        };
        assert_eq!(progress_text(&bare), "12 nodes, 987 654 nodes/s, 1.2 s");
    }
}
