//! The exact value of a position, worked out one way for every surface: `engine solve`, the
//! Python `solve`, the GUI's game review and the class grading (`arena class --grade`, through
//! the tuning's labelling) all ask [`ExactSolver::value`].
//!
//! In order: a finished game is its result (win, loss or draw in 0 plies for the side to move);
//! a position the tables cover is the tables' value; any other is the solver's (alpha-beta to the
//! end, with the tables as leaves), within a node budget, or with [`Method::Prove`] the
//! proof-number search's (win, loss or draw, no distance). A position the budget does not settle
//! is an error that says how far the search got, never an estimate. [`ExactSolver::value_certified`]
//! gives the proof search's value with its certificate ([`crate::certificate`]).

use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use thiserror::Error;

use crate::certificate::{Builder, Certificate, Claim, Leaf, Value};
use crate::eval::Evaluate;
use crate::games::{Game, GameKind, Line};
use crate::score::Score;
use crate::search::{
    CertifyError, CheckpointError, Event, Limits, Probe, Proof, ProofProgress, ProofSearch,
    SEARCH_STACK, Searcher,
};

/// Win, draw or loss for the side to move, ordered from the worst (a loss) to the best.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// The side to move loses with best play.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins with best play.
    Win,
}

impl Wdl {
    /// `win`, `draw` or `loss`.
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        }
    }

    /// The class of an exact score (`None` for a heuristic one).
    pub fn of(score: Score) -> Option<Wdl> {
        match score {
            Score::Win(_) => Some(Wdl::Win),
            Score::Loss(_) => Some(Wdl::Loss),
            Score::Draw => Some(Wdl::Draw),
            Score::Cp(_) => None,
        }
    }

    /// The label a fit aims at: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn target(self) -> f64 {
        match self {
            Wdl::Win => 1.0,
            Wdl::Draw => 0.5,
            Wdl::Loss => 0.0,
        }
    }
}

impl From<Wdl> for Value {
    /// The same result in the certificates' words.
    fn from(wdl: Wdl) -> Value {
        match wdl {
            Wdl::Win => Value::Win,
            Wdl::Draw => Value::Draw,
            Wdl::Loss => Value::Loss,
        }
    }
}

impl From<Value> for Wdl {
    /// The same result in the exact values' words.
    fn from(value: Value) -> Wdl {
        match value {
            Value::Win => Wdl::Win,
            Value::Draw => Wdl::Draw,
            Value::Loss => Wdl::Loss,
        }
    }
}

/// What gave an exact value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// The game is over: its result.
    GameOver,
    /// The tablebases.
    Tables,
    /// The exact solver (alpha-beta to the end of the game).
    Solver,
    /// The proof-number search.
    Proof,
}

/// The exact value of a position for its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exact {
    /// Win, draw or loss.
    pub wdl: Wdl,
    /// Plies to the end with best play (the winner winning soonest, the loser lasting longest);
    /// `None` from the proof search, which proves the result only.
    pub plies: Option<u32>,
    /// What gave it.
    pub source: Source,
    /// Nodes searched for it (0 from the game's end and the tables).
    pub nodes: u64,
}

impl Exact {
    /// The value as a [`Score`] (`Win(K)`, `Loss(K)`, `Draw`); `None` for a proof's win or loss,
    /// which has no distance.
    pub fn score(&self) -> Option<Score> {
        match (self.wdl, self.plies) {
            (Wdl::Draw, _) => Some(Score::Draw),
            (Wdl::Win, Some(k)) => Some(Score::Win(k)),
            (Wdl::Loss, Some(k)) => Some(Score::Loss(k)),
            (_, None) => None,
        }
    }

    /// The exact value a decided [`Score`] states; `None` for a heuristic one.
    fn of_score(score: Score, source: Source, nodes: u64) -> Option<Exact> {
        let plies = match score {
            Score::Win(k) | Score::Loss(k) => Some(k),
            _ => None,
        };
        Some(Exact {
            wdl: Wdl::of(score)?,
            plies,
            source,
            nodes,
        })
    }
}

impl fmt::Display for Exact {
    /// `win 5`, `loss 3`, `draw`, or from the proof search `win` or `loss`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = match self.wdl {
            Wdl::Win => "win",
            Wdl::Draw => return f.write_str("draw"),
            Wdl::Loss => "loss",
        };
        match self.plies {
            Some(k) => write!(f, "{word} {k}"),
            None => f.write_str(word),
        }
    }
}

/// What a search for an exact value reports as it goes.
pub enum Report<'a> {
    /// The solver's iterations and progress.
    Search(Event<'a>),
    /// The proof-number search's progress.
    Proof(&'a ProofProgress),
}

/// Where [`ExactSolver::value`] reports (it may be called from the proof search's thread).
pub type Reporter<'r> = &'r mut (dyn FnMut(Report<'_>) + Send);

/// How to settle a position the game's end and the tables do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The exact solver: the value with its distance.
    Solve {
        /// The most nodes it may search (`None`: as many as it takes).
        nodes: Option<u64>,
        /// Threads sharing its table (Oska and Hexapawn; 1 is deterministic).
        threads: usize,
    },
    /// The proof-number search: win, draw or loss, no distance (Oska and Hexapawn only).
    Prove {
        /// The most nodes it may search (`None`: as many as it takes).
        nodes: Option<u64>,
    },
}

impl Method {
    /// The exact solver with no node limit, on one thread.
    pub const SOLVE: Method = Method::Solve {
        nodes: None,
        threads: 1,
    };
}

/// Why a position has no exact value.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ExactError {
    /// The solver stopped (its node budget, or the stop flag) before it proved a result.
    #[error(
        "not solved: the search reached {depth} plies ({nodes} nodes) without proving a result"
    )]
    NotSolved {
        /// The depth of its last finished iteration.
        depth: u32,
        /// Nodes searched.
        nodes: u64,
    },
    /// The proof-number search stopped (its node budget, or the stop flag) before a result.
    #[error("not proved: the proof-number search stopped after {nodes} nodes without a result")]
    NotProved {
        /// Nodes searched.
        nodes: u64,
    },
    /// The proof search was asked of a game whose values depend on the history.
    #[error(
        "the proof-number search is for Oska and Hexapawn: in {0} a position's value depends on \
         the boards before it"
    )]
    NoProofFor(GameKind),
    /// The proof search's checkpoint could not be read or written.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// The proof search's thread could not be started or failed.
    #[error("the proof-number search failed: {0}")]
    ProofFailed(String),
    /// The proof's certificate could not be written.
    #[error("{0}")]
    Certify(#[from] CertifyError),
    /// The proof on threads failed.
    #[error("the proof-number search on threads failed: {0}")]
    Parallel(#[from] crate::split::ParallelError),
}

/// Where [`Method::Prove`] keeps its state, so that a proof too long for one process stops and
/// goes on (see [`ExactSolver::set_checkpoint`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// Written every [`Checkpoint::every`] of search time and when the search stops before a
    /// result (its node budget or the stop flag).
    pub path: PathBuf,
    /// How often the state is written while the search runs.
    pub every: Duration,
    /// A checkpoint to go on from (it may be [`Checkpoint::path`] itself).
    pub resume: Option<PathBuf>,
}

/// The value of a finished game for its side to move (`None` while it goes on): a loss in 0
/// plies, a win in 0 when the board gives the win to the side to move, a draw for a draw.
pub fn finished<G: Game>(line: &Line<G>) -> Option<Exact> {
    let outcome = line.outcome()?;
    let wdl = match outcome.winner() {
        None => Wdl::Draw,
        Some(w) if w == line.current().side_to_move() => Wdl::Win,
        Some(_) => Wdl::Loss,
    };
    Some(Exact {
        wdl,
        plies: (wdl != Wdl::Draw).then_some(0),
        source: Source::GameOver,
        nodes: 0,
    })
}

/// The one way to a position's exact value (see the module's documentation). It keeps its
/// transposition table and the tables' probe between calls, so many values in a row (a game's
/// review, a class's grading, Python's bulk solves) pay for the table once; the table's pages
/// are touched only as the search uses them, so a small position costs what it searches.
pub struct ExactSolver<G: Game + Evaluate> {
    searcher: Searcher<G>,
    probe: Option<Probe<G>>,
    hash_mib: usize,
    checkpoint: Option<Checkpoint>,
    proof_threads: usize,
}

impl<G: Game + Evaluate> ExactSolver<G> {
    /// A solver with a transposition table of at most `hash_mib` MiB and the tables' `probe`
    /// (`None`: no tables; see [`crate::tablebase::probe_for`]).
    pub fn new(hash_mib: usize, probe: Option<Probe<G>>) -> Self {
        let mut searcher = Searcher::new(hash_mib);
        searcher.set_probe(probe.clone());
        ExactSolver {
            searcher,
            probe,
            hash_mib,
            checkpoint: None,
            proof_threads: 1,
        }
    }

    /// Makes [`Method::Prove`] (and [`Self::value_certified`]) prove with `threads` workers:
    /// the tree cut into jobs ([`crate::split::prove_in_parallel`]), each worker with its own
    /// share of the table. 1 (the default) is the one search, deterministic and resumable.
    pub fn set_proof_threads(&mut self, threads: usize) {
        self.proof_threads = threads.max(1);
    }

    /// Makes [`Method::Prove`] write its state to a checkpoint as it goes and when it stops
    /// before a result, and go on from one (`None`: neither). A resumed proof gives the answer
    /// an uninterrupted one gives; its node budget counts the nodes of the runs before it.
    pub fn set_checkpoint(&mut self, checkpoint: Option<Checkpoint>) {
        self.checkpoint = checkpoint;
    }

    /// The result of the game if it is over, else the tables' value if they cover the position:
    /// the exact values that need no search.
    pub fn known(&self, line: &Line<G>) -> Option<Exact> {
        if let Some(over) = finished(line) {
            return Some(over);
        }
        let score = self.probe.as_ref()?(line.current())?;
        Exact::of_score(score, Source::Tables, 0)
    }

    /// The exact value of `line`'s current position for its side to move: [`Self::known`], else
    /// by `method`. `stop` ends the search early (an error, as a spent budget is); the search's
    /// iterations and progress go to `report` (`&mut |_| {}` for none).
    pub fn value(
        &mut self,
        line: &Line<G>,
        method: Method,
        stop: &AtomicBool,
        report: Reporter<'_>,
    ) -> Result<Exact, ExactError> {
        if let Some(known) = self.known(line) {
            return Ok(known);
        }
        match method {
            Method::Solve { nodes, threads } => {
                let limits = Limits {
                    solve: true,
                    nodes,
                    threads: threads.max(1),
                    ..Limits::default()
                };
                let r = self
                    .searcher
                    .search(line, &limits, stop, &mut |e| report(Report::Search(e)));
                // A win or loss is proved wherever it is found; a draw only by a search that
                // reached every end.
                let settled = r.exact || matches!(r.score, Score::Win(_) | Score::Loss(_));
                settled
                    .then(|| Exact::of_score(r.score, Source::Solver, r.nodes))
                    .flatten()
                    .ok_or(ExactError::NotSolved {
                        depth: r.depth,
                        nodes: r.nodes,
                    })
            }
            Method::Prove { nodes } => Ok(self.prove(line, nodes, false, stop, report)?.0),
        }
    }

    /// [`Self::value`] by [`Method::Prove`], with the certificate of the value
    /// ([`crate::certificate`]): one leaf for a position [`Self::known`] answers (an end leaf, or
    /// a table leaf), else the proof search's tree (see [`ProofSearch::certify`]; `nodes` limits
    /// the search for the value, not the certificate's). Oska and Hexapawn only.
    pub fn value_certified(
        &mut self,
        line: &Line<G>,
        nodes: Option<u64>,
        stop: &AtomicBool,
        report: Reporter<'_>,
    ) -> Result<(Exact, Certificate), ExactError> {
        if G::NO_REPEAT {
            return Err(ExactError::NoProofFor(G::KIND));
        }
        let pos = line.current();
        if let Some(known) = self.known(line) {
            let value = Value::from(known.wdl);
            let mut builder = Builder::for_position(pos);
            let leaf = builder.leaf(match known.source {
                Source::Tables => Leaf::Table(value),
                _ => Leaf::End(value),
            });
            let claims = Claim::of_value(value, pos.side_to_move(), leaf);
            let cert = builder.finish(claims).map_err(CertifyError::from)?;
            return Ok((known, cert));
        }
        let (exact, cert) = self.prove(line, nodes, true, stop, report)?;
        let cert = cert.ok_or_else(|| ExactError::ProofFailed("no certificate".into()))?;
        Ok((exact, cert))
    }

    /// [`Method::Prove`]: the proof-number search, on a thread with the search's stack; with
    /// `certify`, the certificate of its value too.
    fn prove(
        &mut self,
        line: &Line<G>,
        nodes: Option<u64>,
        certify: bool,
        stop: &AtomicBool,
        report: Reporter<'_>,
    ) -> Result<(Exact, Option<Certificate>), ExactError> {
        if G::NO_REPEAT {
            return Err(ExactError::NoProofFor(G::KIND));
        }
        let pos = *line.current();
        let (hash, probe) = (self.hash_mib, self.probe.clone());
        if self.proof_threads > 1 {
            if self.checkpoint.is_some() {
                return Err(ExactError::ProofFailed(
                    "checkpoints are of the one-thread search: cut a long proof into jobs \
                     instead (engine proof plan)"
                        .into(),
                ));
            }
            let report = &mut |p: &ProofProgress| report(Report::Proof(p));
            let done = crate::split::prove_in_parallel(
                &pos,
                self.proof_threads,
                hash,
                probe,
                nodes,
                certify,
                stop,
                report,
            )?;
            let Some(value) = done.value else {
                return Err(ExactError::NotProved { nodes: done.nodes });
            };
            let wdl = Wdl::from(value);
            let exact = Exact {
                wdl,
                plies: None,
                source: Source::Proof,
                nodes: done.nodes,
            };
            return Ok((exact, done.certificate));
        }
        let checkpoint = self.checkpoint.clone();
        let (proof, searched, cert) = std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(SEARCH_STACK)
                .spawn_scoped(scope, move || {
                    let mut search = match checkpoint.as_ref().and_then(|c| c.resume.as_ref()) {
                        Some(from) => ProofSearch::<G>::load(from, &pos, hash, probe)?,
                        None => ProofSearch::<G>::new(hash, probe),
                    };
                    if let Some(c) = &checkpoint {
                        search.checkpoint_to(&c.path, c.every);
                    }
                    let report = &mut |p: &ProofProgress| report(Report::Proof(p));
                    let proof = search.resume(&pos, nodes, stop, report);
                    if let Some(e) = search.autosave_error() {
                        return Err(ExactError::Checkpoint(e.clone()));
                    }
                    if let (Proof::Unknown, Some(c)) = (proof, &checkpoint) {
                        search.save(&c.path)?;
                    }
                    let searched = search.nodes();
                    let cert = (certify && proof != Proof::Unknown)
                        .then(|| search.certify(&pos, proof, stop, report));
                    Ok((proof, searched, cert))
                })
                .map_err(|e| ExactError::ProofFailed(e.to_string()))?
                .join()
                .map_err(|_| ExactError::ProofFailed("its thread panicked".into()))?
        })?;
        let Some(wdl) = proof.value().map(Wdl::from) else {
            return Err(ExactError::NotProved { nodes: searched });
        };
        let exact = Exact {
            wdl,
            plies: None,
            source: Source::Proof,
            nodes: searched,
        };
        Ok((exact, cert.transpose()?))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::games::{Ctf, Hexapawn, MoveList, Oska};

    /// The value by plain negamax over the whole tree, with no table and no pruning: the
    /// independent evidence the solver is checked against. `None` when the tree has more than
    /// `*budget` nodes (the budget is spent as it goes).
    fn naive<G: Game>(line: &mut Line<G>, budget: &mut u64) -> Option<Score> {
        *budget = budget.checked_sub(1)?;
        if let Some(over) = finished(line) {
            return over.score();
        }
        let mut moves = MoveList::new();
        line.legal_moves(&mut moves);
        let mut best: Option<Score> = None;
        for &m in moves.as_slice() {
            line.push(m);
            let v = naive(line, budget);
            line.pop();
            let v = match v? {
                Score::Win(k) => Score::Loss(k + 1),
                Score::Loss(k) => Score::Win(k + 1),
                other => other,
            };
            best = Some(best.map_or(v, |b| if v.value() > b.value() { v } else { b }));
        }
        best
    }

    /// Every position of the first `plies` plies from the start of `G` at `size`, as lines.
    pub(crate) fn positions<G: Game>(size: usize, plies: usize) -> Vec<Line<G>> {
        let mut out = vec![Line::new(G::start(size).unwrap())];
        let mut frontier = out.clone();
        for _ in 0..plies {
            let mut next = Vec::new();
            for line in &frontier {
                let mut moves = MoveList::new();
                line.legal_moves(&mut moves);
                for &m in moves.as_slice() {
                    let mut l = line.clone();
                    l.push(m);
                    next.push(l);
                }
            }
            out.extend(next.iter().cloned());
            frontier = next;
        }
        out
    }

    fn quiet() -> impl FnMut(Report<'_>) + Send {
        |_| {}
    }

    /// One solver for all the positions (its table kept between calls) agrees with the naive
    /// negamax on every one whose tree is small enough for it (at least `at_least` of them),
    /// finished games included, and the proof search on win, draw or loss.
    fn agrees_with_negamax<G: Game + Evaluate>(size: usize, plies: usize, at_least: usize) {
        let mut solver = ExactSolver::<G>::new(1, None);
        let stop = AtomicBool::new(false);
        let (mut finished_seen, mut checked) = (0, 0);
        for mut line in positions::<G>(size, plies) {
            let Some(expected) = naive(&mut line, &mut 20_000) else {
                continue;
            };
            checked += 1;
            let got = solver
                .value(&line, Method::SOLVE, &stop, &mut quiet())
                .unwrap();
            assert_eq!(got.score(), Some(expected), "{line:?}");
            if got.source == Source::GameOver {
                finished_seen += 1;
            }
            if !G::NO_REPEAT {
                let proof = solver
                    .value(&line, Method::Prove { nodes: None }, &stop, &mut quiet())
                    .unwrap();
                assert_eq!(proof.wdl, Wdl::of(expected).unwrap(), "{line:?}");
            }
        }
        assert!(finished_seen > 0, "no finished game among the positions");
        assert!(checked >= at_least, "{checked} positions checked");
    }

    #[test]
    fn hexapawn_3_every_position_as_negamax_says() {
        agrees_with_negamax::<Hexapawn>(3, 9, 100);
    }

    #[test]
    fn oska_4_early_positions_as_negamax_says() {
        // The naive tree of Oska 4 is large: its positions after a few plies, whose own trees
        // the test still searches whole.
        let mut solver = ExactSolver::<Oska>::new(1, None);
        let stop = AtomicBool::new(false);
        let deep: Vec<Line<Oska>> = positions::<Oska>(4, 3)
            .into_iter()
            .filter(|l| l.len() == 3)
            .take(3)
            .collect();
        for mut line in deep {
            // Play on until the tree is small enough for the naive search.
            for _ in 0..8 {
                let mut moves = MoveList::new();
                line.legal_moves(&mut moves);
                match moves.as_slice().first() {
                    Some(&m) => line.push(m),
                    None => break,
                }
            }
            let expected = naive(&mut line, &mut 5_000_000).expect("a small tree");
            let got = solver
                .value(&line, Method::SOLVE, &stop, &mut quiet())
                .unwrap();
            assert_eq!(got.score(), Some(expected), "{line:?}");
        }
    }

    #[test]
    fn capture_the_flag_values_hold_across_histories_with_one_kept_table() {
        // The same board after two different histories: what the first call learnt must not
        // answer the second.
        agrees_with_negamax::<Ctf>(3, 6, 100);
    }

    #[test]
    fn a_finished_game_is_its_result_for_the_side_to_move() {
        let board = "w--/---/---";
        let line = crate::games::format::parse_board::<Hexapawn>(board, crate::games::Side::Black)
            .unwrap()
            .line;
        let solver = ExactSolver::<Hexapawn>::new(1, None);
        let known = solver.known(&line).unwrap();
        assert_eq!(
            (known.wdl, known.plies, known.source),
            (Wdl::Loss, Some(0), Source::GameOver)
        );
        assert_eq!(known.to_string(), "loss 0");
    }

    #[test]
    fn a_spent_budget_is_an_error_not_an_estimate() {
        let line = Line::new(Oska::start(5).unwrap());
        let mut solver = ExactSolver::<Oska>::new(1, None);
        let stop = AtomicBool::new(false);
        let solve = Method::Solve {
            nodes: Some(50),
            threads: 1,
        };
        let err = solver.value(&line, solve, &stop, &mut quiet()).unwrap_err();
        assert!(matches!(err, ExactError::NotSolved { .. }), "{err}");
        let prove = Method::Prove { nodes: Some(50) };
        let err = solver.value(&line, prove, &stop, &mut quiet()).unwrap_err();
        assert!(matches!(err, ExactError::NotProved { .. }), "{err}");
        let ctf = Line::new(Ctf::start(5).unwrap());
        let mut solver = ExactSolver::<Ctf>::new(1, None);
        let err = solver.value(&ctf, Method::Prove { nodes: None }, &stop, &mut quiet());
        assert_eq!(err, Err(ExactError::NoProofFor(GameKind::Ctf)));
    }

    #[test]
    fn the_tables_answer_before_the_search() {
        // A probe that calls every position a draw: the solver must not be asked.
        let probe: Probe<Hexapawn> = std::sync::Arc::new(|_: &Hexapawn| Some(Score::Draw));
        let mut solver = ExactSolver::<Hexapawn>::new(1, Some(probe));
        let line = Line::new(Hexapawn::start(3).unwrap());
        let got = solver
            .value(&line, Method::SOLVE, &AtomicBool::new(false), &mut quiet())
            .unwrap();
        assert_eq!(
            (got.wdl, got.source, got.nodes),
            (Wdl::Draw, Source::Tables, 0)
        );
    }
}
