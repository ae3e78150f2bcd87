//! What the engines say about positions, without drawing it: scores turned to White's point of
//! view, one engine's last report ([`EngineView`]) and the evaluation graph's points.

use engine::games::{Move, Side};
use engine::protocol::{Score, SearchInfo};

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
    /// The moves of the game up to the searched position.
    pub moves: Vec<String>,
    /// The side to move there.
    pub side: Side,
    /// The last `info depth` line, once one has come.
    pub info: Option<SearchInfo>,
    /// Where the search stands.
    pub state: SearchState,
}

impl EngineView {
    /// A view of a search that has just started on the position after `moves`.
    pub fn new(title: String, moves: Vec<String>, side: Side) -> EngineView {
        EngineView {
            title,
            moves,
            side,
            info: None,
            state: SearchState::Searching,
        }
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

/// The graph's points: one per move played, at x = the number of moves, with the last score
/// reported for the position after it (White's view), or the result when the game is over there.
pub fn graph_points(game: &GameState, evals: &[Option<Score>]) -> Vec<(usize, Score)> {
    (1..=game.len())
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
