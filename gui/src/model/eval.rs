//! What the engines say about positions, without drawing it: scores turned to White's point of
//! view, one engine's last report ([`EngineView`]) and the evaluation graph's points.

use boardgames_core::games::{Move, Side};
use boardgames_core::protocol::SearchInfo;
use boardgames_core::score::Score;

use crate::game::GameState;

/// A score from the side to move's point of view, turned to White's.
pub fn white_view(score: Score, side: Side) -> Score {
    match (side, score) {
        (Side::White, s) => s,
        (Side::Black, Score::Cp(x)) => Score::Cp(x.saturating_neg()),
        (Side::Black, Score::Win(k)) => Score::Loss(k),
        (Side::Black, Score::Loss(k)) => Score::Win(k),
        (Side::Black, Score::Draw) => Score::Draw,
    }
}

/// A White's-view score in words: `+0.35` (pawns), `White wins in 4`, `Black wins in 2`, `draw`.
pub fn score_text(white: Score) -> String {
    match white {
        Score::Cp(x) => format!("{:+.2}", f64::from(x) / 100.0),
        Score::Win(k) => format!("White wins in {k}"),
        Score::Loss(k) => format!("Black wins in {k}"),
        Score::Draw => "draw".to_string(),
    }
}

/// Where an engine's search stands, as its panel's title says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchState {
    /// The search runs.
    Searching,
    /// The engine answered.
    Done,
    /// The search was stopped before it answered (pause, a new position, a new game).
    Stopped,
    /// The engine failed: its report is kept, but its move is no longer offered.
    Failed,
}

impl SearchState {
    /// The word in the panel's title.
    pub fn word(self) -> &'static str {
        match self {
            SearchState::Searching => "searching",
            SearchState::Done => "done",
            SearchState::Stopped => "stopped",
            SearchState::Failed => "failed",
        }
    }
}

/// What one engine last reported about one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineView {
    /// Who it is (`White's engine`, `Analysis`).
    pub title: String,
    /// Which engine: the name it was chosen by, and its `id name` when that differs (empty when
    /// not known).
    pub engine: String,
    /// The moves of the game up to the searched position.
    pub moves: Vec<String>,
    /// The side to move there.
    pub side: Side,
    /// The last `info depth` line of the best line (`multipv 1`, or without `multipv`), once
    /// one has come.
    pub info: Option<SearchInfo>,
    /// With several lines (`MultiPV`): the last `info depth` line of each `multipv K`, at index
    /// K - 1 (a line not reported yet is `None`); empty while the engine reports one line.
    pub lines: Vec<Option<SearchInfo>>,
    /// Where the search stands.
    pub state: SearchState,
    /// When the search started.
    pub started: std::time::Instant,
}

impl EngineView {
    /// A view of a search that has just started on the position after `moves`.
    pub fn new(title: String, moves: Vec<String>, side: Side) -> EngineView {
        EngineView {
            title,
            engine: String::new(),
            moves,
            side,
            info: None,
            lines: Vec::new(),
            state: SearchState::Searching,
            started: std::time::Instant::now(),
        }
    }

    /// Keeps an `info depth` line: the last of each `multipv K`. Returns whether it is the best
    /// line's (which sets [`EngineView::info`]).
    pub fn record(&mut self, info: SearchInfo) -> bool {
        let k = info.multipv.unwrap_or(1).max(1) as usize;
        if info.multipv.is_some() {
            if self.lines.len() < k {
                self.lines.resize(k, None);
            }
            self.lines[k - 1] = Some(info.clone());
        }
        if k == 1 {
            self.info = Some(info);
        }
        k == 1
    }

    /// The lines shown, best first: every `multipv` line reported (line K's last report), or
    /// the one line when the engine reports one.
    pub fn shown_lines(&self) -> Vec<&SearchInfo> {
        if self.lines.is_empty() {
            self.info.iter().collect()
        } else {
            self.lines.iter().flatten().collect()
        }
    }

    /// The first move of each line legal at the searched position, best line first (a line
    /// whose first move is not legal is left out); empty when the engine failed or the position
    /// is no longer in the game. One arrow each on the board.
    pub fn line_moves(&self, game: &GameState) -> Vec<Move> {
        if !self.matches(game) || self.state == SearchState::Failed {
            return Vec::new();
        }
        self.shown_lines()
            .into_iter()
            .filter_map(|info| {
                game.look_ahead(self.ply(), &info.pv[..info.pv.len().min(1)])
                    .first()
                    .map(|s| s.mv)
            })
            .collect()
    }

    /// Whether the search is still running.
    pub fn running(&self) -> bool {
        self.state == SearchState::Searching
    }

    /// Ends a running search's view in `state` (a finished one keeps its state).
    pub fn finish(&mut self, state: SearchState) {
        if self.running() {
            self.state = state;
        }
    }

    /// The number of moves before the searched position.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// Whether the searched position is still the one after `ply()` moves of `game`.
    pub fn matches(&self, game: &GameState) -> bool {
        self.ply() <= game.len() && game.move_names()[..self.ply()] == self.moves[..]
    }

    /// The score from White's point of view.
    pub fn white_score(&self) -> Option<Score> {
        self.info.as_ref().map(|i| white_view(i.score, self.side))
    }

    /// The engine's best move (the first move of its principal variation), if it is legal in
    /// `game` at the searched position and the engine has not failed since.
    pub fn best_move(&self, game: &GameState) -> Option<Move> {
        if !self.matches(game) || self.state == SearchState::Failed {
            return None;
        }
        let pv = &self.info.as_ref()?.pv;
        game.look_ahead(self.ply(), &pv[..pv.len().min(1)])
            .first()
            .map(|s| s.mv)
    }
}

/// The graph's points: one per position of the game, the start position's at x = 0 and each
/// move's at x = the number of moves (plies) played, with the last score reported for that
/// position (White's view), or the result when the game is over there.
pub fn graph_points(game: &GameState, evals: &[Option<Score>]) -> Vec<(usize, Score)> {
    (0..=game.len())
        .filter_map(|ply| {
            let over = game.outcome(ply).map(|o| match o.winner() {
                Some(Side::White) => Score::Win(0),
                Some(Side::Black) => Score::Loss(0),
                None => Score::Draw,
            });
            over.or_else(|| evals.get(ply).copied().flatten())
                .map(|s| (ply, s))
        })
        .collect()
}
