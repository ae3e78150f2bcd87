//! Position sets labelled with exact values: generated from random and engine play, solved by the
//! exact solver, stored one position a line.
//!
//! A line of a set file is `BOARD SIDE VALUE MOVE=VALUE ...`: the board (for Capture the Flag the
//! history list, most recent first, without blanks), the side to move, the exact value of the
//! position for the side to move (`win K`, `loss K` or `draw` written `wK`, `lK`, `d`), then every
//! legal move with the exact value it keeps for the mover. Lines starting with `#` are comments.
//!
//! Sizes too large to solve get *result* sets instead: positions of games between engines at
//! small depths, each labelled with the game's result for the side to move (`rw`, `rd`, `rl`)
//! and no moves. They serve the fit (as in Texel tuning), not the blunder rate.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

use boardgames_core::eval::{EvalKind, Evaluate, SearchStyle};
use boardgames_core::exact::{ExactSolver, Method};
use boardgames_core::games::format::{parse_board, print_history, slash};
use boardgames_core::games::notation::{move_name, parse_move};
use boardgames_core::games::{Game, Line, Move, MoveList, PositionError, Side};
use boardgames_core::score::Score;
use boardgames_core::search::{Limits, Probe, Searcher};
use boardgames_core::splitmix::SplitMix64;

/// Win, draw or loss: the part of a value that a blunder throws away (the core's, with the
/// labels the fits aim at).
pub use boardgames_core::exact::Wdl;

/// A position with its exact value and the exact value of every legal move.
#[derive(Clone, Debug)]
pub struct Labelled<G: Game> {
    /// The position with the earlier boards that count for the history rule.
    pub line: Line<G>,
    /// The exact value for the side to move; for a result label, `Win(0)`, `Draw` or `Loss(0)`.
    pub value: Score,
    /// Whether `value` is the exact game value (false: the result of one game played on).
    pub exact: bool,
    /// Every legal move and the exact value it keeps for the mover.
    pub moves: Vec<(Move, Score)>,
}

impl<G: Game> Labelled<G> {
    /// Whether some legal move throws the value away (a position where a blunder is possible).
    pub fn critical(&self) -> bool {
        let best = Wdl::of(self.value);
        self.exact && self.moves.iter().any(|&(_, s)| Wdl::of(s) < best)
    }

    /// The exact value `mv` keeps for the mover.
    pub fn value_of(&self, mv: Move) -> Option<Score> {
        self.moves.iter().find(|&&(m, _)| m == mv).map(|&(_, s)| s)
    }
}

/// How a set is made.
#[derive(Clone, Debug)]
pub struct SetSpec {
    /// The size of the game.
    pub size: usize,
    /// Positions wanted.
    pub count: usize,
    /// The seed of the random choices.
    pub seed: u64,
    /// The most nodes one exact solve may take; positions that need more are left out.
    pub budget: u64,
    /// Capture the Flag: the most earlier boards kept with a position.
    pub history: usize,
    /// Transposition table of the solver, MiB.
    pub hash_mib: usize,
}

/// What a move is worth to the mover, from the value of the position after it.
fn for_mover(child: Score) -> Score {
    match child {
        Score::Win(k) => Score::Loss(k + 1),
        Score::Loss(k) => Score::Win(k + 1),
        other => other,
    }
}

/// Solves a line within `budget` nodes: the exact value, or `None` (the one exact-value
/// function, [`ExactSolver::value`]).
fn solve<G: Game + Evaluate>(
    solver: &mut ExactSolver<G>,
    line: &Line<G>,
    budget: u64,
) -> Option<Score> {
    let method = Method::Solve {
        nodes: Some(budget),
        threads: 1,
    };
    solver
        .value(line, method, &AtomicBool::new(false), &mut |_| {})
        .ok()?
        .score()
}

/// Labels a position: its value and every move's, or `None` when a solve exceeds the budget.
pub fn label<G: Game + Evaluate>(
    searcher: &mut ExactSolver<G>,
    line: &Line<G>,
    budget: u64,
) -> Option<Labelled<G>> {
    let mut moves = MoveList::new();
    line.legal_moves(&mut moves);
    let value = solve(searcher, line, budget)?;
    let mut labelled = Vec::with_capacity(moves.len());
    let mut child = line.clone();
    for &m in moves.as_slice() {
        child.push(m);
        // A finished child is its result, from the same function.
        let v = for_mover(solve(searcher, &child, budget)?);
        child.pop();
        labelled.push((m, v));
    }
    Some(Labelled {
        line: line.clone(),
        value,
        exact: true,
        moves: labelled,
    })
}

/// Generates a set: games from the start in which each move is random or chosen by a shallow
/// search with the `legacy` evaluator (half and half, depth 1 to 3). Each game is then walked back from its end: positions
/// with at least two legal moves, not seen before, are labelled (two in three of them, at random)
/// until one needs more than the budget, as earlier positions of the game mostly would too. So
/// the sets lean to the later part of games where the solver cannot reach the start. Stops early
/// when 200 games in a row add nothing (small games have few positions). `progress` is called
/// with the number kept and tried so far.
pub fn generate<G: Game + Evaluate>(
    spec: &SetSpec,
    progress: &mut dyn FnMut(usize, usize),
) -> Vec<Labelled<G>> {
    generate_probed(spec, None, progress)
}

/// [`generate`] with the solver probing exact tables (`probe`, from [`boardgames_core::tablebase`]): the
/// positions they cover are labelled at once, so the sets reach back to the start of games the
/// solver alone cannot solve within the budget. The same seed gives the same set.
pub fn generate_probed<G: Game + Evaluate>(
    spec: &SetSpec,
    probe: Option<Probe<G>>,
    progress: &mut dyn FnMut(usize, usize),
) -> Vec<Labelled<G>> {
    let mut rng = SplitMix64::new(spec.seed ^ 0x0005_EED0_F5E7);
    let mut solver = ExactSolver::<G>::new(spec.hash_mib, probe);
    // The player uses the frozen first-version evaluator, so that a set does not change when the
    // tuned weights do.
    let mut player = Searcher::<G>::new(1);
    player.set_evaluator(EvalKind::Legacy.function::<G>());
    player.set_style(Some(SearchStyle::CLASSIC));
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut tried = 0usize;
    let mut idle = 0;
    let start = G::start(spec.size).expect("the size was checked");
    let stop = AtomicBool::new(false);
    while out.len() < spec.count && idle < 200 {
        let mut game = Line::new(start);
        while game.outcome().is_none() && game.len() < 300 {
            let mut moves = MoveList::new();
            game.legal_moves(&mut moves);
            let mv = if rng.below(2) == 0 {
                moves.as_slice()[rng.below(moves.len())]
            } else {
                player.clear();
                let limits = Limits {
                    depth: Some(1 + rng.below(3) as u32),
                    ..Limits::default()
                };
                player
                    .search(&game, &limits, &stop, &mut |_| {})
                    .best
                    .unwrap_or(moves.as_slice()[0])
            };
            game.push(mv);
        }
        let boards: Vec<G> = game
            .earlier()
            .iter()
            .copied()
            .chain(std::iter::once(*game.current()))
            .collect();
        let before = out.len();
        for end in (0..boards.len()).rev() {
            let keep = (end + 1).saturating_sub(spec.history + 1);
            let line = if G::NO_REPEAT {
                Line::from_history(&boards[keep..=end]).expect("boards of a game")
            } else {
                Line::new(boards[end])
            };
            let mut moves = MoveList::new();
            line.legal_moves(&mut moves);
            if moves.len() < 2 || rng.below(3) == 0 {
                continue;
            }
            let key = line
                .earlier()
                .iter()
                .fold(Game::hash(line.current()), |h, p| {
                    h.rotate_left(7) ^ p.board_hash()
                });
            if !seen.insert(key) {
                continue;
            }
            tried += 1;
            match label(&mut solver, &line, spec.budget) {
                Some(l) => {
                    out.push(l);
                    progress(out.len(), tried);
                    if out.len() == spec.count {
                        break;
                    }
                }
                None => break,
            }
        }
        idle = if out.len() == before { idle + 1 } else { 0 };
    }
    out
}

/// Generates an opening set: every distinct position within `plies` plies of the start (level by
/// level, at most `spec.count`) with at least two legal moves, each labelled with its exact value
/// and its moves' (a position whose solve exceeds the budget is left out). The positions every
/// game passes through early, where a shallow search sees least of the game's end, and which
/// random and engine play visit once each at most.
pub fn generate_opening<G: Game + Evaluate>(
    spec: &SetSpec,
    plies: usize,
    probe: Option<Probe<G>>,
    progress: &mut dyn FnMut(usize, usize),
) -> Vec<Labelled<G>> {
    let mut solver = ExactSolver::<G>::new(spec.hash_mib, probe);
    let start = Line::new(G::start(spec.size).expect("the size was checked"));
    let key = |line: &Line<G>| {
        line.earlier()
            .iter()
            .fold(Game::hash(line.current()), |h, p| {
                h.rotate_left(7) ^ p.board_hash()
            })
    };
    let mut seen = HashSet::from([key(&start)]);
    let mut level = vec![start];
    let mut out = Vec::new();
    let mut tried = 0;
    for ply in 0..=plies {
        let mut next = Vec::new();
        for line in &level {
            let mut moves = MoveList::new();
            line.legal_moves(&mut moves);
            if moves.len() >= 2 && out.len() < spec.count {
                tried += 1;
                if let Some(l) = label(&mut solver, line, spec.budget) {
                    out.push(l);
                    progress(out.len(), tried);
                }
            }
            if ply == plies {
                continue;
            }
            for &m in moves.as_slice() {
                let mut child = line.clone();
                child.push(m);
                // Only Capture the Flag's rules look at earlier boards.
                if !G::NO_REPEAT {
                    child = Line::new(*child.current());
                }
                if child.outcome().is_none() && seen.insert(key(&child)) {
                    next.push(child);
                }
            }
        }
        level = next;
    }
    out
}

/// The plies after which a game of a result set is stopped as a draw (the match runner's usual
/// cap).
pub const RESULT_CAP: usize = 400;

/// The depths of the players of a result set unless told otherwise (`engine-tune positions --depths`).
pub const RESULT_DEPTHS: [u32; 3] = [2, 3, 4];

/// Generates a result set: games between engines (each side a random one of `evals`, searching
/// to a random one of `depths`, usually [`RESULT_DEPTHS`], after 2 to 5 random plies), a random
/// quarter of their positions kept, each labelled with
/// the game's result for its side to move. A game still going after [`RESULT_CAP`] plies is
/// stopped there and counts as a draw, as a match stops it (only Capture the Flag, whose pieces
/// may move back and forth, plays so long).
pub fn generate_results<G: Game + Evaluate>(
    spec: &SetSpec,
    evals: &[EvalKind],
    depths: &[u32],
    progress: &mut dyn FnMut(usize, usize),
) -> Vec<Labelled<G>> {
    assert!(!depths.is_empty(), "a result set needs the players' depths");
    let mut rng = SplitMix64::new(spec.seed ^ 0x7E5_0175);
    let mut players = [Searcher::<G>::new(1), Searcher::<G>::new(1)];
    for p in &mut players {
        p.set_style(Some(SearchStyle::CLASSIC));
    }
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut games = 0;
    let start = G::start(spec.size).expect("the size was checked");
    let stop = AtomicBool::new(false);
    while out.len() < spec.count && games < 100 * spec.count {
        games += 1;
        let depths = [
            depths[rng.below(depths.len())],
            depths[rng.below(depths.len())],
        ];
        for p in &mut players {
            p.clear();
            p.set_evaluator(evals[rng.below(evals.len())].function::<G>());
        }
        let mut game = Line::new(start);
        let opening = 2 + rng.below(4);
        while game.outcome().is_none() && game.len() < RESULT_CAP {
            let mut moves = MoveList::new();
            game.legal_moves(&mut moves);
            let mv = if game.len() < opening {
                moves.as_slice()[rng.below(moves.len())]
            } else {
                let s = game.current().side_to_move().index();
                let limits = Limits {
                    depth: Some(depths[s]),
                    ..Limits::default()
                };
                players[s]
                    .search(&game, &limits, &stop, &mut |_| {})
                    .best
                    .unwrap_or(moves.as_slice()[0])
            };
            game.push(mv);
        }
        let winner = game.outcome().and_then(|o| o.winner());
        let positions: Vec<G> = game.earlier().to_vec();
        for (i, pos) in positions.iter().enumerate() {
            if i < opening || rng.below(4) != 0 || !seen.insert(Game::hash(pos)) {
                continue;
            }
            let value = match winner {
                None => Score::Draw,
                Some(w) if w == pos.side_to_move() => Score::Win(0),
                Some(_) => Score::Loss(0),
            };
            let keep = (i + 1).saturating_sub(spec.history + 1);
            let line = if G::NO_REPEAT {
                Line::from_history(&positions[keep..=i]).expect("boards of a game")
            } else {
                Line::new(*pos)
            };
            out.push(Labelled {
                line,
                value,
                exact: false,
                moves: Vec::new(),
            });
            progress(out.len(), games);
            if out.len() == spec.count {
                break;
            }
        }
    }
    out
}

fn label_text(l: &Labelled<impl Game>) -> String {
    if l.exact {
        return score_text(l.value);
    }
    match Wdl::of(l.value) {
        Some(Wdl::Win) => "rw".into(),
        Some(Wdl::Draw) => "rd".into(),
        _ => "rl".into(),
    }
}

/// A value as a set writes it: `wK`, `lK`, `d` (or `cpV` for a heuristic score).
pub fn score_text(s: Score) -> String {
    match s {
        Score::Win(k) => format!("w{k}"),
        Score::Loss(k) => format!("l{k}"),
        Score::Draw => "d".into(),
        Score::Cp(v) => format!("cp{v}"),
    }
}

fn parse_score(text: &str) -> Option<Score> {
    if text == "d" {
        return Some(Score::Draw);
    }
    let (kind, k) = text.split_at(1.min(text.len()));
    let k: u32 = k.parse().ok()?;
    match kind {
        "w" => Some(Score::Win(k)),
        "l" => Some(Score::Loss(k)),
        _ => None,
    }
}

/// The text of a set: `header` lines (each given a `# `), then one line a position.
pub fn write<G: Game>(set: &[Labelled<G>], header: &[String]) -> String {
    let mut out = String::new();
    for h in header {
        let _ = writeln!(out, "# {h}");
    }
    for l in set {
        let pos = l.line.current();
        let board = if G::NO_REPEAT {
            print_history(&l.line, '\'', ",")
        } else {
            slash(pos)
        };
        let _ = write!(
            out,
            "{board} {} {}",
            pos.side_to_move().letter(),
            label_text(l)
        );
        for &(m, s) in &l.moves {
            let _ = write!(out, " {}={}", move_name(pos, m), score_text(s));
        }
        out.push('\n');
    }
    out
}

/// Why a position set is refused ([`read`]); each names its line, counted from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionsError {
    /// Fewer than three fields.
    #[error("line {line}: expected BOARD SIDE VALUE MOVE=VALUE...")]
    Fields {
        /// The line.
        line: usize,
    },
    /// A side, board or move that does not parse.
    #[error("line {line}: {why}")]
    Position {
        /// The line.
        line: usize,
        /// What is wrong with it.
        why: PositionError,
    },
    /// A result label followed by moves.
    #[error("line {line}: a result label (rw, rd, rl) takes no moves")]
    ResultWithMoves {
        /// The line.
        line: usize,
    },
    /// A value that is not `wK`, `lK` or `d`.
    #[error("line {line}: '{text}' is not a value (wK, lK or d)")]
    Value {
        /// The line.
        line: usize,
        /// The value as written.
        text: String,
    },
    /// A move's field without its value.
    #[error("line {line}: '{word}' is not MOVE=VALUE")]
    NotMoveValue {
        /// The line.
        line: usize,
        /// The field as written.
        word: String,
    },
    /// Not every legal move listed.
    #[error("line {line}: {listed} moves are listed but the position has {legal} legal moves")]
    MoveCount {
        /// The line.
        line: usize,
        /// The moves listed.
        listed: usize,
        /// The legal moves of the position.
        legal: usize,
    },
}

/// Reads a set written by [`write`]; errors name the line.
pub fn read<G: Game>(text: &str) -> Result<Vec<Labelled<G>>, PositionsError> {
    let mut set = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let no = i + 1;
        let t = raw.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let at = |why: PositionError| PositionsError::Position { line: no, why };
        let score = |text: &str| {
            parse_score(text).ok_or_else(|| PositionsError::Value {
                line: no,
                text: text.to_string(),
            })
        };
        let mut words = t.split_whitespace();
        let (Some(board), Some(side), Some(value)) = (words.next(), words.next(), words.next())
        else {
            return Err(PositionsError::Fields { line: no });
        };
        let side = Side::parse(side).map_err(at)?;
        let line = parse_board::<G>(board, side).map_err(at)?.line;
        let result = match value {
            "rw" => Some(Score::Win(0)),
            "rd" => Some(Score::Draw),
            "rl" => Some(Score::Loss(0)),
            _ => None,
        };
        if let Some(value) = result {
            if words.next().is_some() {
                return Err(PositionsError::ResultWithMoves { line: no });
            }
            set.push(Labelled {
                line,
                value,
                exact: false,
                moves: Vec::new(),
            });
            continue;
        }
        let value = score(value)?;
        let mut moves = Vec::new();
        for w in words {
            let (m, v) = w
                .split_once('=')
                .ok_or_else(|| PositionsError::NotMoveValue {
                    line: no,
                    word: w.to_string(),
                })?;
            let mv = parse_move(&line, m).map_err(at)?;
            moves.push((mv, score(v)?));
        }
        let mut legal = MoveList::new();
        line.legal_moves(&mut legal);
        if legal.len() != moves.len() {
            return Err(PositionsError::MoveCount {
                line: no,
                listed: moves.len(),
                legal: legal.len(),
            });
        }
        set.push(Labelled {
            line,
            value,
            exact: true,
            moves,
        });
    }
    Ok(set)
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardgames_core::games::Oska;

    #[test]
    fn a_bad_line_is_refused_with_its_number() {
        let err = |text: &str| read::<Oska>(text).unwrap_err().to_string();
        assert_eq!(
            err("# a set\nwwww/---/--/---/bbbb"),
            "line 2: expected BOARD SIDE VALUE MOVE=VALUE..."
        );
        assert_eq!(
            err("wwww/---/--/---/bbbb w q"),
            "line 1: 'q' is not a value (wK, lK or d)"
        );
        assert_eq!(
            err("wwww/---/--/---/bbbb w rw x"),
            "line 1: a result label (rw, rd, rl) takes no moves"
        );
        assert!(err("wwww/---/--/---/bbbb w w3").starts_with("line 1: 0 moves are listed"));
        assert!(err("wwww/---/--/---/bbbb x w3").starts_with("line 1: "));
        assert_eq!(read::<Oska>("wwww/---/--/---/bbbb w rd").unwrap().len(), 1);
    }
}
