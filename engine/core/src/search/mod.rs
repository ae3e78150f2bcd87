//! Game-tree search: one generic negamax alpha-beta with iterative deepening for all three games.
//!
//! - Scores are integers from the side to move's view. A won game is worth [`WIN`] minus its
//!   distance in plies from the root, a lost one the negation, so the search prefers the quickest
//!   win and the slowest loss; everything else is a static evaluation ([`Evaluate`]) backed up.
//! - The depth limit is exact: a search to depth N never plays a move from a position N plies
//!   from the root (no quiescence, no extensions). At the limit a position is either over (its
//!   value is exact) or evaluated statically.
//! - The transposition table stores depth, bound type, score (wins and losses counted from the
//!   node), best move and whether the subtree was *complete* (no leaf cut by the depth limit). A
//!   stored score cuts the search only when it was searched to exactly the remaining depth, or is
//!   complete (a game-theoretic bound) and was searched to at most the remaining depth. This keeps
//!   the value of a depth-N search identical to plain depth-N minimax, which the tests check.
//! - Capture the Flag forbids recreating an earlier board, so a position's value depends on the
//!   path that led to it, and a stored value could be wrong on another path. For Capture the Flag
//!   the table is therefore used only to order moves (its move is tried first), never to cut the
//!   search: correctness over speed. The searched line is a [`Line`], so the rule applies along
//!   it exactly as in the game.
//! - Move ordering: the table move, then captures, then two killer moves a ply, then the others
//!   by the history heuristic. A game and size may order captures by the history heuristic too
//!   and search every move after the first with a null window first (principal variation
//!   search), as Oska 6 does; see [`SearchStyle`].
//! - Several principal variations ([`Limits::multipv`]): the root searches each move with the
//!   window's lower end at the N-th best value so far, so the N best moves get their values
//!   (not bounds) and lines; each is reported as its own [`Event::Iteration`], best first.
//! - Exact solving ([`Limits::solve`]) of Oska and Hexapawn uses a dedicated solver (`solve.rs`):
//!   alpha-beta over the whole game tree without depth limit or evaluation, win/draw/loss first,
//!   then the exact distance, optionally on several threads sharing the table
//!   ([`Limits::threads`]). For Capture the Flag (and for every game while the trace is on) it
//!   deepens until the root value is a win or loss, or until an iteration had no leaf cut by the
//!   depth limit: its value is then exact, a proven draw included. For Capture the Flag the value
//!   is exact for the given history (the earlier boards take part in the repetition rule), not
//!   for the board alone.
//!
//! The search and the solver recurse once a ply, with a few KiB of stack a ply; lines are capped
//! at [`MAX_PLY`] plies, so a search needs a bounded stack whatever its limits. The threads that
//! search (the session's, the solver's helpers) get [`SEARCH_STACK`]; the tests measure the
//! stack a line of [`MAX_PLY`] plies takes on the largest board of each game.

mod certify;
mod checkpoint;
mod proof;
mod solve;
pub mod trace;
mod tt;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::eval::{EVAL_LIMIT, Evaluate, SearchStyle};
use crate::games::format::slash;
use crate::games::notation::move_name;
use crate::games::{Game, Line, MAX_MOVES, Move, MoveList, Outcome};
use crate::score::{DECIDED, MAX_PLY, Score, WIN};
use crate::splitmix::mix;
pub use certify::CertifyError;
pub use checkpoint::CheckpointError;
pub use proof::{Proof, ProofProgress, ProofSearch};
pub use solve::Progress;
pub use trace::{NodeKind, TraceNode};
use tt::{Bound, Table};

/// Exact values the search may use at its nodes: a tablebase's probe. `Some` only for exact
/// values (`Score::Win`, `Score::Loss` or `Score::Draw`).
pub type Probe<G> = Arc<dyn Fn(&G) -> Option<Score> + Send + Sync>;

/// A static evaluation the search calls at its leaves: the score of a position for its side to
/// move (see [`Evaluate::evaluate`]).
pub type Evaluator<G> = Arc<dyn Fn(&G) -> i32 + Send + Sync>;

/// The most threads a search or solve takes ([`Limits::threads`]): the `Threads` option's and
/// `--threads`' greatest value.
pub const MAX_THREADS: usize = 256;

/// The largest transposition table asked for, in MiB (1 TiB): the `Hash` option's and `--hash`'
/// greatest value. What a machine takes is smaller: see [`check_hash`].
pub const MAX_HASH_MIB: usize = 1 << 20;

/// The memory free for new allocations now, in MiB (`MemAvailable` of `/proc/meminfo`); `None`
/// where it cannot be read (not Linux).
pub fn free_memory_mib() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// Why a search's setting is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// A transposition table larger than the memory free now.
    #[error("{mib} MiB is more than the memory free now ({free} MiB)")]
    HashTooLarge {
        /// The size asked for, in MiB.
        mib: usize,
        /// The memory free now, in MiB.
        free: usize,
    },
}

/// Whether a transposition table of `mib` MiB fits the memory free now ([`free_memory_mib`]):
/// the table size follows the machine rather than a fixed cap. The error says how much is free.
pub fn check_hash(mib: usize) -> Result<(), SearchError> {
    match free_memory_mib() {
        Some(free) if mib > free => Err(SearchError::HashTooLarge { mib, free }),
        _ => Ok(()),
    }
}

/// Larger than any score: the initial window is `(-INFINITY, INFINITY)`.
pub const INFINITY: i32 = WIN + 1;
/// The stack of a thread that searches: room for lines of [`MAX_PLY`] plies many times over (a
/// debug build takes under 2 MiB for them), set explicitly so that it does not depend on the
/// platform's default or on `RUST_MIN_STACK`.
pub const SEARCH_STACK: usize = 16 << 20;

/// The ordering key of the moves whose place is fixed: the table move first, then captures (when
/// `captures_first`, see [`SearchStyle`]), then the two killers; a pass last. `None` for the other
/// moves, which the caller orders (by the history heuristic).
#[inline]
pub(crate) fn fixed_order_key<G: Game>(
    pos: &G,
    m: Move,
    table_move: Option<Move>,
    killers: &[Option<Move>; 2],
    captures_first: bool,
) -> Option<u32> {
    if Some(m) == table_move {
        Some(u32::MAX)
    } else if captures_first && pos.is_capture(m) {
        Some(u32::MAX - 1)
    } else if Some(m) == killers[0] {
        Some(u32::MAX - 2)
    } else if Some(m) == killers[1] {
        Some(u32::MAX - 3)
    } else if m.is_pass() {
        Some(0)
    } else {
        None
    }
}

/// One step of a selection sort of `moves` by `keys` (the same length): brings the move with
/// the highest key among those from `i` on to `i` (the first of equal keys wins) and returns it.
/// Moves are ordered lazily because a cutoff often comes after the first few.
#[inline]
pub(crate) fn pick_next(keys: &mut [u32], moves: &mut MoveList, i: usize) -> Move {
    let mut pick = i;
    for j in i + 1..keys.len() {
        if keys[j] > keys[pick] {
            pick = j;
        }
    }
    keys.swap(i, pick);
    moves.as_mut_slice().swap(i, pick);
    moves.as_slice()[i]
}

/// When to stop searching. The default sets no limit: the search deepens until the tree is
/// exhausted, [`MAX_PLY`] is reached or `stop` is raised.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Search exactly this many plies (0 is taken as 1).
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Stop after about this long.
    pub movetime: Option<Duration>,
    /// Start no new iteration that would likely end later than this after the start (the next
    /// one's time is predicted from the last one's and the growth in nodes); a clock's target.
    pub target_time: Option<Duration>,
    /// Search until stopped (the search still returns once the tree is exhausted).
    pub infinite: bool,
    /// Solve: search until the root value is proven, ignoring `depth`.
    pub solve: bool,
    /// Threads (0 and 1: one, the deterministic default). An exact solve of Oska or Hexapawn
    /// shares its table among them (see `solve.rs`); a depth-limited search runs helpers that
    /// search the same root with another move order and share the table ("lazy SMP"), while the
    /// calling thread's iterations are the ones reported. The value of a depth-N search is
    /// the same on any number of threads (a table entry cuts only at the depth it was searched
    /// to; see the module doc); the move may differ between moves of equal value. The trace
    /// always searches on one thread.
    pub threads: usize,
    /// How many principal variations to find (0 and 1: one, the default): the best `multipv`
    /// root moves, each with its exact score and line, reported best first at every depth (all
    /// the legal moves when there are fewer). An exact solve ([`Limits::solve`]) finds one.
    pub multipv: usize,
}

/// What one finished iteration found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IterationInfo {
    /// The iteration's depth.
    pub depth: u32,
    /// The root score.
    pub score: Score,
    /// Nodes searched so far in this search.
    pub nodes: u64,
    /// Positions answered by the tablebase so far (see [`Searcher::set_probe`]).
    pub tbhits: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation (legal from the root; may stop early at a table hit).
    pub pv: Vec<Move>,
    /// Whether no leaf was cut by the depth limit: the score is then the exact game value.
    /// With several lines, this line's own subtree is meant.
    pub exact: bool,
    /// Which of the iteration's lines this is, from 1 = the best (see [`Limits::multipv`]).
    pub multipv: usize,
}

impl IterationInfo {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let us = self.time.as_micros().max(1);
        (self.nodes as u128 * 1_000_000 / us) as u64
    }
}

/// Something the search reports while it runs.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// An iteration finished.
    Iteration(&'a IterationInfo),
    /// A node returned (only when the trace is on).
    Trace(&'a TraceNode),
    /// How far an exact solve has got (once a second in long solves, and when a stage ends;
    /// see [`Progress`]).
    Progress(&'a Progress),
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best move; `None` only when the game is over ([`Move::PASS`] for a forced Oska pass).
    pub best: Option<Move>,
    /// The root score of the last finished iteration.
    pub score: Score,
    /// The depth of the last finished iteration (0 if none finished).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Whether the score is the exact game value (see [`IterationInfo::exact`]).
    pub exact: bool,
}

/// The search's caller-side context, passed down the recursion.
struct Ctx<'s, 'r> {
    stop: &'s AtomicBool,
    report: &'r mut dyn FnMut(Event<'_>),
}

/// One of the best root moves of a search for several lines ([`Limits::multipv`]).
#[derive(Clone, Debug)]
struct RootLine {
    /// Its exact value.
    value: i32,
    /// The move first, then the principal variation after it.
    pv: Vec<Move>,
    /// Whether its subtree had no leaf cut by the depth limit.
    exact: bool,
}

/// What a node returned, for the trace.
#[derive(Clone, Copy)]
struct NodeResult {
    value: i32,
    kind: NodeKind,
    best: Option<Move>,
}

const HISTORY_SIZE: usize = 2 * 128 * 128;
const HISTORY_MAX: u32 = 1 << 20;

/// An alpha-beta searcher for one game; keeps its transposition table, killers and history
/// between searches until [`Searcher::clear`].
pub struct Searcher<G: Game> {
    table: Arc<Table>,
    /// Whether a search ran since the last [`Searcher::clear`] (or the table's creation): only
    /// then is there anything to forget. Clearing a table writes all of it, which a session that
    /// starts many games of other kinds (each `newgame` clears) need not pay for.
    used: bool,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<u32>,
    trace: bool,
    eval: Evaluator<G>,
    probe: Option<Probe<G>>,
    /// The search style of every position, instead of the game's (see [`Searcher::set_style`]).
    style: Option<SearchStyle>,
    // State of the running search.
    nodes: u64,
    tbhits: u64,
    horizon: bool,
    aborted: bool,
    solve: bool,
    iteration: u32,
    started: Instant,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    pv: Vec<Vec<Move>>,
    path: Vec<String>,
    /// How many root lines the running search finds (1: only the best move's).
    multipv: usize,
    /// With several lines: the best root moves so far in this iteration, best first.
    lines: Vec<RootLine>,
    // The exact solver (see `solve`).
    /// Nonzero in helper threads: perturbs their move ordering.
    skew: u64,
    /// The nodes of a depth-limited search on several threads, all threads' together: each
    /// adds its nodes as it goes (1024 at each [`Searcher::poll`]), and each stops at the
    /// node limit by this count.
    peers: Option<Arc<AtomicU64>>,
    root_best: Option<Move>,
    root_done: usize,
    root_total: usize,
    stage: &'static str,
    next_progress: Duration,
}

impl<G: Game + Evaluate> Searcher<G> {
    /// A searcher with a transposition table of at most `hash_mib` MiB (0: no table).
    pub fn new(hash_mib: usize) -> Self {
        Self::with_table(Arc::new(Table::new(hash_mib)))
    }

    fn with_table(table: Arc<Table>) -> Self {
        Searcher {
            table,
            used: false,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; HISTORY_SIZE],
            trace: false,
            eval: Arc::new(<G as Evaluate>::evaluate),
            probe: None,
            style: None,
            nodes: 0,
            tbhits: 0,
            horizon: false,
            aborted: false,
            solve: false,
            iteration: 0,
            started: Instant::now(),
            deadline: None,
            node_limit: None,
            pv: vec![Vec::new(); MAX_PLY + 1],
            path: Vec::new(),
            multipv: 1,
            lines: Vec::new(),
            skew: 0,
            peers: None,
            root_best: None,
            root_done: 0,
            root_total: 0,
            stage: "",
            next_progress: Duration::ZERO,
        }
    }

    /// Replaces the transposition table by an empty one of at most `hash_mib` MiB.
    pub fn resize(&mut self, hash_mib: usize) {
        self.table = Arc::new(Table::new(hash_mib));
    }

    /// Forgets everything learnt: the transposition table, killers and history.
    pub fn clear(&mut self) {
        if !std::mem::take(&mut self.used) {
            return;
        }
        self.table.clear();
        self.killers.fill([None; 2]);
        self.history.fill(0);
    }

    /// Turns the trace on or off: when on, every node visited is reported as [`Event::Trace`].
    pub fn set_trace(&mut self, on: bool) {
        self.trace = on;
    }

    /// Replaces the static evaluator (for experiments such as evaluator-against-material
    /// matches); [`Evaluate::evaluate`] is the default.
    pub fn set_evaluator(&mut self, eval: fn(&G) -> i32) {
        self.eval = Arc::new(eval);
    }

    /// Replaces the static evaluator by any function, such as one with weights being fitted
    /// (`engine-tune refine-patterns`).
    pub fn set_evaluator_with(&mut self, eval: Evaluator<G>) {
        self.eval = eval;
    }

    /// Searches every position in `style` instead of its game's ([`Evaluate::search_style`]);
    /// `None` returns to the game's. For players that must stay as they were, such as those of
    /// the training sets (their games, and so the sets, would change with the style).
    pub fn set_style(&mut self, style: Option<SearchStyle>) {
        self.style = style;
    }

    /// Gives the search exact values to use at its nodes (a tablebase): a position the probe
    /// answers is not searched further, and its value counts as exact. `None` turns probing off.
    pub fn set_probe(&mut self, probe: Option<Probe<G>>) {
        self.probe = probe;
    }

    /// Searches the line's current position within `limits`, polling `stop` every 1024 nodes.
    /// Reports each finished iteration (and each node when tracing) through `report`. Never
    /// prints.
    pub fn search(
        &mut self,
        line: &Line<G>,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(Event<'_>),
    ) -> SearchResult {
        let exact_solver = limits.solve && !G::NO_REPEAT && !self.trace;
        if limits.threads > 1 && !exact_solver && !self.trace {
            return self.search_shared(line, limits, stop, report);
        }
        self.search_one(line, limits, stop, report)
    }

    /// A depth-limited search on `limits.threads` threads: helpers search the same root with
    /// their own move order (see [`Searcher::skew`]) and the same table until this thread's
    /// search ends; this thread's iterations are reported, with every thread's nodes.
    fn search_shared(
        &mut self,
        line: &Line<G>,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(Event<'_>),
    ) -> SearchResult {
        let done = AtomicBool::new(false);
        let peers = Arc::new(AtomicU64::new(0));
        // Helpers find one line each; every thread stops at the node limit, counted over all.
        let helper_limits = Limits {
            threads: 1,
            multipv: 1,
            target_time: None,
            ..limits.clone()
        };
        let result = std::thread::scope(|scope| {
            for i in 1..limits.threads {
                let mut h = self.helper(mix(i as u64) | 1);
                h.peers = Some(Arc::clone(&peers));
                let (done, helper_limits, line) = (&done, &helper_limits, line.clone());
                // A helper that cannot be started only leaves the search with fewer threads.
                let _ = std::thread::Builder::new()
                    .name("engine-search".into())
                    .stack_size(SEARCH_STACK)
                    .spawn_scoped(scope, move || {
                        h.search_one(&line, helper_limits, done, &mut |_| {});
                        h.flush_peers();
                    });
            }
            self.peers = Some(Arc::clone(&peers));
            let r = self.search_one(line, limits, stop, report);
            done.store(true, Ordering::Relaxed);
            r
        });
        // Every helper has added its last nodes (the scope joined them); this thread's since
        // its last poll are added here.
        let nodes = peers.load(Ordering::Relaxed) + (result.nodes & 1023);
        self.peers = None;
        SearchResult { nodes, ..result }
    }

    /// The nodes searched so far: by this thread alone, or on several threads by all of them
    /// (the shared count, and this thread's nodes since its last poll).
    fn total_nodes(&self) -> u64 {
        match &self.peers {
            Some(p) => p.load(Ordering::Relaxed) + (self.nodes & 1023),
            None => self.nodes,
        }
    }

    /// A helper's nodes not yet added to the shared count (those since its last poll).
    fn flush_peers(&self) {
        if let Some(p) = &self.peers {
            p.fetch_add(self.nodes & 1023, Ordering::Relaxed);
        }
    }

    /// [`Searcher::search`] on this thread alone.
    fn search_one(
        &mut self,
        line: &Line<G>,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(Event<'_>),
    ) -> SearchResult {
        self.used = true;
        self.started = Instant::now();
        self.deadline = limits.movetime.map(|t| self.started + t);
        self.node_limit = limits.nodes;
        self.nodes = 0;
        self.tbhits = 0;
        self.aborted = false;
        self.solve = limits.solve;
        self.multipv = if limits.solve {
            1
        } else {
            limits.multipv.max(1)
        };
        self.path.clear();
        let mut line = line.clone();

        let pos = *line.current();
        if let Some(outcome) = line.outcome() {
            let value = outcome_value(outcome, &pos, 0);
            return SearchResult {
                best: None,
                score: Score::from_value(value, true),
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
                exact: true,
            };
        }
        let mut moves = MoveList::new();
        line.legal_moves(&mut moves);
        let first = moves.as_slice()[0];
        let mut result = SearchResult {
            best: Some(first),
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
            pv: vec![first],
            exact: false,
        };
        let max_depth = if limits.solve {
            MAX_PLY as u32
        } else {
            limits
                .depth
                .unwrap_or(MAX_PLY as u32)
                .clamp(1, MAX_PLY as u32)
        };
        let mut ctx = Ctx { stop, report };
        // When the last iteration ended and how long it took, for `target_time`.
        // When the last iteration ended, the nodes searched by then and by it alone, and its
        // growth over the one before: for `target_time`.
        let (mut last_end, mut last_total, mut last_nodes) = (Duration::ZERO, 0u64, 0u64);
        let mut last_growth = 0.0f64;
        // Oska and Hexapawn have no history rule: the dedicated solver (the trace keeps the
        // iterative path, whose trace format is defined by iterations).
        if limits.solve && !G::NO_REPEAT && !self.trace {
            return self.solve_exact(&mut ctx, pos, limits.threads.max(1));
        }
        for depth in 1..=max_depth {
            self.iteration = depth;
            self.horizon = false;
            self.lines.clear();
            let value = self.node(&mut ctx, &mut line, depth, 0, -INFINITY, INFINITY);
            if self.aborted {
                break;
            }
            let exact = !self.horizon;
            let score = Score::from_value(value, exact);
            let pv = self.pv[0].clone();
            if self.multipv > 1 {
                for (k, l) in self.lines.iter().enumerate() {
                    let info = IterationInfo {
                        depth,
                        score: Score::from_value(l.value, l.exact),
                        nodes: self.total_nodes(),
                        tbhits: self.tbhits,
                        time: self.started.elapsed(),
                        pv: l.pv.clone(),
                        exact: l.exact,
                        multipv: k + 1,
                    };
                    (ctx.report)(Event::Iteration(&info));
                }
            } else {
                let info = IterationInfo {
                    depth,
                    score,
                    nodes: self.total_nodes(),
                    tbhits: self.tbhits,
                    time: self.started.elapsed(),
                    pv: pv.clone(),
                    exact,
                    multipv: 1,
                };
                (ctx.report)(Event::Iteration(&info));
            }
            result = SearchResult {
                best: pv.first().copied().or(Some(first)),
                score,
                depth,
                nodes: self.total_nodes(),
                pv,
                exact,
            };
            // An exact iteration cannot change with more depth; a proven win or loss ends a solve.
            if exact || (limits.solve && score.is_decided()) {
                break;
            }
            if let Some(target) = limits.target_time {
                let elapsed = self.started.elapsed();
                let took = elapsed.saturating_sub(last_end);
                let nodes = self.total_nodes() - last_total;
                // The next iteration takes this one's time times the growth in nodes, the larger
                // of the last two (depths alternate between cheap and dear), within 2 to 8.
                let growth = if last_nodes == 0 {
                    3.0
                } else {
                    nodes as f64 / last_nodes as f64
                };
                let predicted = growth.max(last_growth).clamp(2.0, 8.0);
                if elapsed + took.mul_f64(predicted) > target {
                    break;
                }
                (last_end, last_total, last_nodes) = (elapsed, self.total_nodes(), nodes);
                last_growth = growth;
            }
        }
        result.nodes = self.nodes;
        result
    }

    /// Checks the stop flag and the limits.
    #[cold]
    fn poll(&mut self, ctx: &Ctx<'_, '_>) {
        if let Some(p) = &self.peers {
            p.fetch_add(1024, Ordering::Relaxed);
        }
        if ctx.stop.load(Ordering::Relaxed)
            || self.node_limit.is_some_and(|n| self.total_nodes() >= n)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.aborted = true;
        }
    }

    /// Searches one node: keeps the "a leaf was cut by the depth limit" flag per subtree and
    /// emits the trace line.
    fn node(
        &mut self,
        ctx: &mut Ctx<'_, '_>,
        line: &mut Line<G>,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.poll(ctx);
        }
        if self.aborted {
            return 0;
        }
        let outer_horizon = std::mem::replace(&mut self.horizon, false);
        let r = self.node_inner(ctx, line, depth, ply, alpha, beta);
        if self.trace && !self.aborted {
            self.emit(ctx, line, ply, alpha, beta, r);
        }
        self.horizon |= outer_horizon;
        r.value
    }

    #[cold]
    fn emit(
        &mut self,
        ctx: &mut Ctx<'_, '_>,
        line: &Line<G>,
        ply: usize,
        alpha: i32,
        beta: i32,
        r: NodeResult,
    ) {
        let pos = line.current();
        let node = TraceNode {
            iteration: self.iteration,
            ply: ply as u32,
            path: self.path.clone(),
            side: pos.side_to_move(),
            board: slash(pos),
            alpha,
            beta,
            value: r.value,
            kind: r.kind,
            cutoff: ply > 0 && r.value <= alpha,
            best: r.best.map(|m| move_name(pos, m)),
        };
        (ctx.report)(Event::Trace(&node));
    }

    fn node_inner(
        &mut self,
        ctx: &mut Ctx<'_, '_>,
        line: &mut Line<G>,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> NodeResult {
        let pos = *line.current();
        self.pv[ply].clear();
        let end = |value| NodeResult {
            value,
            kind: NodeKind::End,
            best: None,
        };
        if let Some(outcome) = pos.board_outcome() {
            return end(outcome_value(outcome, &pos, ply));
        }
        if ply > 0
            && let Some(value) = self.probe_value(&pos, ply)
        {
            return NodeResult {
                value,
                kind: NodeKind::Table,
                best: None,
            };
        }
        let loss = -(WIN - ply as i32);
        let mut moves = MoveList::new();
        if depth == 0 || ply >= MAX_PLY {
            // A side with no legal move has lost; otherwise the depth limit cuts here.
            let has_move = if G::NO_REPEAT {
                pos.generate(&mut moves);
                line.filter_repetitions(&mut moves);
                !moves.is_empty()
            } else {
                pos.count_moves() > 0
            };
            if !has_move {
                return end(loss);
            }
            self.horizon = true;
            return NodeResult {
                value: (self.eval)(&pos).clamp(-EVAL_LIMIT, EVAL_LIMIT),
                kind: NodeKind::Leaf,
                best: None,
            };
        }

        let key = Game::hash(&pos);
        let mut table_move = None;
        if let Some(e) = self.table.probe(key) {
            table_move = e.best();
            let depth_ok = e.depth as u32 == depth
                || (e.complete() && (self.solve || e.depth as u32 <= depth));
            // Capture the Flag: ordering only (values depend on the path; see the module doc). The
            // root always searches, so that it has a best move.
            if !G::NO_REPEAT && ply > 0 && depth_ok {
                let s = from_table(e.score, ply);
                let usable = match e.bound() {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if usable {
                    if !e.complete() {
                        self.horizon = true;
                    }
                    return NodeResult {
                        value: s,
                        kind: NodeKind::Table,
                        best: None,
                    };
                }
            }
        }

        pos.generate(&mut moves);
        line.filter_repetitions(&mut moves);
        if moves.is_empty() {
            return end(loss);
        }

        // Order: table move, captures (in the classic style), killers, history.
        let side = pos.side_to_move().index();
        let killers = self.killers[ply];
        let style = self.style.unwrap_or_else(|| pos.search_style());
        let mut keys = [0u32; MAX_MOVES];
        for (k, &m) in keys.iter_mut().zip(moves.as_slice()) {
            *k = fixed_order_key(&pos, m, table_move, &killers, style.captures_first)
                .unwrap_or_else(|| {
                    let h = self.history[history_index(side, m)];
                    // A helper of a search on several threads orders these moves a little
                    // differently, so that the threads do not all search the same tree.
                    if self.skew == 0 {
                        h
                    } else {
                        h ^ (mix(key ^ self.skew ^ ((m.from as u64) << 8 | m.to as u64)) >> 56)
                            as u32
                    }
                });
        }

        let alpha0 = alpha;
        let mut best_value = -INFINITY;
        let mut best_move = None;
        let n = moves.len();
        // Several lines (`Limits::multipv`) are found in this one pass over the root's moves:
        // each move is searched with the window's lower end at the worst of the best lines so
        // far (-INFINITY while there are fewer than wanted) instead of at the best, so a move
        // that enters them comes back with its exact value and one that does not fails low. One
        // pass, unlike re-searching the root with the best moves excluded, keeps the root's
        // table entry true for the whole move list, and costs Capture the Flag (whose table
        // does not cut) no repeated searches.
        let several = ply == 0 && self.multipv > 1;
        for i in 0..n {
            let m = pick_next(&mut keys[..n], &mut moves, i);

            let floor = if several { self.lines_floor() } else { alpha };
            // The subtree's own "a leaf was cut" flag, for its line's exactness.
            let outer_horizon = several && std::mem::replace(&mut self.horizon, false);
            if self.trace {
                self.path.push(move_name(&pos, m));
            }
            line.push(m);
            // Null window (see `SearchStyle`): a move that does not beat `floor` fails low
            // cheaply; one that does is searched again for its value. Off for several lines
            // (they need values) and while tracing (the trace shows plain alpha-beta).
            let v = if style.null_window && i > 0 && !several && !self.trace && beta > floor + 1 {
                let v = -self.node(ctx, line, depth - 1, ply + 1, -floor - 1, -floor);
                if v > floor && v < beta && !self.aborted {
                    -self.node(ctx, line, depth - 1, ply + 1, -beta, -floor)
                } else {
                    v
                }
            } else {
                -self.node(ctx, line, depth - 1, ply + 1, -beta, -floor)
            };
            line.pop();
            if self.trace {
                self.path.pop();
            }
            if self.aborted {
                return end(0);
            }
            if several {
                if v > floor {
                    self.add_line(v, m, !self.horizon);
                }
                self.horizon |= outer_horizon;
            }
            if v > best_value {
                best_value = v;
                best_move = Some(m);
                if v > alpha {
                    alpha = v;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    let this = &mut head[ply];
                    this.clear();
                    this.push(m);
                    this.extend_from_slice(&tail[0]);
                    if v >= beta {
                        // Moves whose place is fixed (a pass, captures in the classic style)
                        // earn no history.
                        let fixed = m.is_pass() || (style.captures_first && pos.is_capture(m));
                        if !fixed {
                            self.reward(ply, side, m, depth);
                        }
                        break;
                    }
                }
            }
        }

        let bound = Bound::of(best_value, alpha0, beta);
        self.table.store(
            key,
            to_table(best_value, ply),
            depth,
            bound,
            !self.horizon,
            best_move,
        );
        NodeResult {
            value: best_value,
            kind: NodeKind::Node,
            best: best_move,
        }
    }

    /// The lower end of the root window while several lines are searched: the value of the
    /// worst of the best lines so far, or -INFINITY while there are fewer than wanted.
    fn lines_floor(&self) -> i32 {
        if self.lines.len() < self.multipv {
            -INFINITY
        } else {
            self.lines.last().map_or(-INFINITY, |l| l.value)
        }
    }

    /// Records root move `m` of exact value `v` (its line is in `self.pv[1]`) among the best
    /// lines, after those of equal value (found first), keeping at most `multipv`.
    fn add_line(&mut self, v: i32, m: Move, exact: bool) {
        let at = self.lines.partition_point(|l| l.value >= v);
        let mut pv = Vec::with_capacity(self.pv[1].len() + 1);
        pv.push(m);
        pv.extend_from_slice(&self.pv[1]);
        self.lines.insert(
            at,
            RootLine {
                value: v,
                pv,
                exact,
            },
        );
        self.lines.truncate(self.multipv);
    }

    /// The exact value at `ply` of a position the probe answers (counted as a table hit).
    #[inline]
    fn probe_value(&mut self, pos: &G, ply: usize) -> Option<i32> {
        let score = self.probe.as_ref()?(pos)?;
        self.tbhits += 1;
        Some(match score {
            Score::Win(k) => WIN - ply as i32 - k as i32,
            Score::Loss(k) => -(WIN - ply as i32 - k as i32),
            _ => 0,
        })
    }

    /// Killer and history update for a quiet move that caused a cutoff.
    fn reward(&mut self, ply: usize, side: usize, m: Move, depth: u32) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        let h = &mut self.history[history_index(side, m)];
        *h += depth * depth;
        if *h > HISTORY_MAX {
            for v in &mut self.history {
                *v /= 2;
            }
        }
    }
}

#[inline]
fn history_index(side: usize, m: Move) -> usize {
    side * 16384 + (m.from as usize & 127) * 128 + (m.to as usize & 127)
}

/// The value of a finished game at `ply` for the side to move in `pos`.
fn outcome_value<G: Game>(outcome: Outcome, pos: &G, ply: usize) -> i32 {
    match outcome.winner() {
        None => 0,
        Some(w) if w == pos.side_to_move() => WIN - ply as i32,
        Some(_) => -(WIN - ply as i32),
    }
}

/// A score as stored: wins and losses counted from the node instead of the root.
#[inline]
fn to_table(v: i32, ply: usize) -> i32 {
    if v > DECIDED {
        v + ply as i32
    } else if v < -DECIDED {
        v - ply as i32
    } else {
        v
    }
}

/// A stored score back at `ply`.
#[inline]
fn from_table(v: i32, ply: usize) -> i32 {
    if v > DECIDED {
        v - ply as i32
    } else if v < -DECIDED {
        v + ply as i32
    } else {
        v
    }
}
