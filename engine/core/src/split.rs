//! A proof cut into independent jobs and put back together: the tree below a position, to a
//! depth, with each position once ([`Split::cut`]); its frontier positions are proved apart (by
//! other processes, machines or threads), and [`Split::combine`] works their values up to the
//! root (at each position the best for its side to move), says whether the root is decided and
//! which frontier positions still matter; [`Split::certificate`] grafts the frontier's
//! certificates under the cut tree into one certificate of the root.
//!
//! This is how the solved-game literature scaled its proofs (checkers was proved as a front of
//! many independent proofs, merged): the jobs share nothing, so any scheduler can run them.

use std::collections::HashMap;

use thiserror::Error;

use crate::certificate::{
    Builder, Certificate, CertificateError, Claim, Leaf, Level, NodeId, Value, settled,
};
use crate::games::notation::MoveText;
use crate::games::{Game, Move, MoveList, Side};
use crate::search::Probe;

/// What a position of the cut is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Above the frontier: its moves are in the cut.
    Inner,
    /// At the cut's depth: job number `.0`.
    Frontier(usize),
    /// Decided without a search: over by the rules, no legal move, or covered by the tables.
    Settled(Leaf),
}

/// One position of the cut.
#[derive(Clone, Debug)]
pub struct Node<G: Game> {
    /// The position.
    pub pos: G,
    /// What it is.
    pub kind: Kind,
    /// For an inner position, each legal move with the index of the position it leads to.
    pub edges: Vec<(Move, usize)>,
}

/// The tree below a position to a depth, each position once.
#[derive(Clone, Debug)]
pub struct Split<G: Game> {
    /// Plies from the root to the frontier.
    pub depth: u32,
    /// The positions, the root first.
    pub nodes: Vec<Node<G>>,
    /// The frontier positions' indices in [`Split::nodes`], by job number.
    pub jobs: Vec<usize>,
}

/// What the frontier's values say of the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Combined {
    /// The root's value for its side to move, if the values known decide it.
    pub root: Option<Value>,
    /// The jobs not known yet whose value could still change the root's (empty once decided).
    pub open: Vec<usize>,
}

/// Why a cut's certificate cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SplitError {
    /// A frontier position that the root's value needs has no certificate.
    #[error("job {job} has no certificate, and the root's value needs it")]
    Missing {
        /// The job.
        job: usize,
    },
    /// A job's certificate does not state what its value needs.
    #[error("job {job}'s certificate has no claim that {side} gets at least a {level}")]
    Short {
        /// The job.
        job: usize,
        /// The side the claim is needed for.
        side: Side,
        /// The level it is needed at (`win` or `draw`).
        level: &'static str,
    },
    /// The values given do not decide the root.
    #[error("the jobs' values do not decide the root")]
    Undecided,
    /// The certificate could not be assembled.
    #[error(transparent)]
    Certificate(#[from] CertificateError),
}

/// Why a proof on threads ([`prove_in_parallel`]) gave no value it can stand by.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParallelError {
    /// A worker thread could not be started (the system's reason).
    #[error("cannot start a worker: {0}")]
    Spawn(String),
    /// A worker panicked (a bug): its jobs' values are not trusted.
    #[error("a worker panicked")]
    Panicked,
    /// A job's certificate could not be written.
    #[error("a job's certificate: {0}")]
    Certify(#[from] crate::search::CertifyError),
    /// The jobs' certificates could not be put together into the root's.
    #[error(transparent)]
    Split(#[from] SplitError),
}

impl<G: Game> Split<G> {
    /// The tree below `root` to `depth` plies. A position reached by two paths is one node (by
    /// its hash and its whole board); one over by the rules, without a legal move, or covered by
    /// `probe` is settled where it is first reached; the others at `depth` are the jobs, in the
    /// order they are first reached (breadth first, moves in generation order).
    ///
    /// # Panics
    ///
    /// For a game with the history rule (Capture the Flag), whose values depend on the path.
    pub fn cut(root: &G, depth: u32, probe: Option<&Probe<G>>) -> Split<G> {
        assert!(!G::NO_REPEAT, "a cut is for games without the history rule");
        let mut split = Split {
            depth,
            nodes: Vec::new(),
            jobs: Vec::new(),
        };
        let mut index: HashMap<u64, Vec<usize>> = HashMap::new();
        let mut add = |split: &mut Split<G>, pos: G, at_depth: u32| -> (usize, bool) {
            let same = index.entry(Game::hash(&pos)).or_default();
            if let Some(&i) = same.iter().find(|&&i| split.nodes[i].pos.same_board(&pos)) {
                return (i, false);
            }
            let kind = match settled(&pos, probe.map(|p| &**p)) {
                Some(leaf) => Kind::Settled(leaf),
                None if at_depth >= depth => {
                    split.jobs.push(split.nodes.len());
                    Kind::Frontier(split.jobs.len() - 1)
                }
                None => Kind::Inner,
            };
            same.push(split.nodes.len());
            split.nodes.push(Node {
                pos,
                kind,
                edges: Vec::new(),
            });
            (split.nodes.len() - 1, true)
        };
        add(&mut split, *root, 0);
        let mut level = vec![0usize];
        for d in 0..depth {
            let mut next = Vec::new();
            for i in level {
                if split.nodes[i].kind != Kind::Inner {
                    continue;
                }
                let pos = split.nodes[i].pos;
                let mut moves = MoveList::new();
                pos.generate(&mut moves);
                let mut edges = Vec::with_capacity(moves.len());
                for &m in moves.as_slice() {
                    let (child, new) = add(&mut split, pos.play(m), d + 1);
                    edges.push((m, child));
                    if new {
                        next.push(child);
                    }
                }
                split.nodes[i].edges = edges;
            }
            level = next;
        }
        split
    }

    /// The jobs' positions, by job number.
    pub fn job_positions(&self) -> impl Iterator<Item = &G> {
        self.jobs.iter().map(|&i| &self.nodes[i].pos)
    }

    /// The root's value and the jobs that still matter, from the values known of the jobs
    /// (`known[job]`, for the job's side to move).
    pub fn combine(&self, known: &[Option<Value>]) -> Combined {
        let mut bounds: Vec<Option<(Value, Value)>> = vec![None; self.nodes.len()];
        let root = self.bounds(0, known, &mut bounds);
        let mut open = Vec::new();
        if root.0 != root.1 {
            let mut seen = vec![false; self.nodes.len()];
            self.open(0, &bounds, &mut seen, &mut open);
            open.sort_unstable();
        }
        Combined {
            root: (root.0 == root.1).then_some(root.0),
            open,
        }
    }

    /// The least and the most the side to move at node `i` can get, given `known`.
    fn bounds(
        &self,
        i: usize,
        known: &[Option<Value>],
        memo: &mut Vec<Option<(Value, Value)>>,
    ) -> (Value, Value) {
        if let Some(b) = memo[i] {
            return b;
        }
        let node = &self.nodes[i];
        let b = match node.kind {
            Kind::Settled(leaf) => (leaf.value(), leaf.value()),
            Kind::Frontier(job) => match known.get(job).copied().flatten() {
                Some(v) => (v, v),
                None => (Value::Loss, Value::Win),
            },
            Kind::Inner => {
                let (mut lo, mut hi) = (Value::Loss, Value::Loss);
                for &(_, child) in &node.edges {
                    let (clo, chi) = self.bounds(child, known, memo);
                    lo = lo.max(chi.flip());
                    hi = hi.max(clo.flip());
                }
                (lo, hi)
            }
        };
        memo[i] = Some(b);
        b
    }

    /// The unknown jobs below undecided node `i` that could still raise its least value.
    fn open(
        &self,
        i: usize,
        bounds: &[Option<(Value, Value)>],
        seen: &mut [bool],
        out: &mut Vec<usize>,
    ) {
        if std::mem::replace(&mut seen[i], true) {
            return;
        }
        let node = &self.nodes[i];
        let Some((lo, hi)) = bounds[i] else {
            return;
        };
        if lo == hi {
            return;
        }
        match node.kind {
            Kind::Frontier(job) => out.push(job),
            Kind::Settled(_) => {}
            Kind::Inner => {
                for &(_, child) in &node.edges {
                    if let Some((clo, _)) = bounds[child]
                        && clo.flip() > lo
                    {
                        self.open(child, bounds, seen, out);
                    }
                }
            }
        }
    }

    /// The certificate of the root's value from the jobs' values and certificates (`certs[job]`,
    /// each of the job's position): the cut tree down to the frontier (at the claim's side's
    /// turn one move to a position good enough, at the other side's every move), each job's
    /// certificate grafted where its position is. Only the certificates the claims need are
    /// read.
    pub fn certificate(
        &self,
        known: &[Option<Value>],
        certs: &[Option<Certificate>],
    ) -> Result<Certificate, SplitError> {
        let value = self.combine(known).root.ok_or(SplitError::Undecided)?;
        let mut bounds = vec![None; self.nodes.len()];
        self.bounds(0, known, &mut bounds);
        let root = &self.nodes[0];
        let mut builder = Builder::for_position(&root.pos);
        let mut grafted: HashMap<usize, Vec<(Claim, NodeId)>> = HashMap::new();
        let mut built: HashMap<(usize, Side, bool), NodeId> = HashMap::new();
        let mut claims = Vec::new();
        for claim in Claim::of_value(value, root.pos.side_to_move(), 0) {
            let mut graft = Graft {
                split: self,
                bounds: &bounds,
                certs,
                builder: &mut builder,
                grafted: &mut grafted,
                built: &mut built,
                side: claim.side,
                level: claim.level,
            };
            let at = graft.node(0)?;
            claims.push(Claim { root: at, ..claim });
        }
        Ok(builder.finish(claims)?)
    }
}

/// What [`prove_in_parallel`] found.
pub struct Parallel {
    /// The root's value for its side to move (`None`: stopped or out of nodes first).
    pub value: Option<Value>,
    /// The root's certificate, when asked for and decided.
    pub certificate: Option<Certificate>,
    /// Nodes of every worker together.
    pub nodes: u64,
    /// The depth of the cut and its jobs, and how many were searched.
    pub depth: u32,
    /// Jobs of the cut.
    pub jobs: usize,
    /// Jobs searched before the root was decided.
    pub searched: usize,
}

/// The shared state of the workers: the jobs' values and certificates, which are taken, and the
/// nodes spent.
struct Board {
    known: Vec<Option<Value>>,
    certs: Vec<Option<Certificate>>,
    taken: Vec<bool>,
    searched: usize,
    failure: Option<ParallelError>,
}

/// Proves `root` with `threads` workers sharing a queue of jobs: the tree is cut at the least
/// depth that gives at least two jobs a worker (at most 12 plies), each worker takes the next job
/// that can still change the root's value (the open jobs of [`Split::combine`], in order),
/// proves it with its own table of `hash_mib / threads` MiB, kept from one job to the next
/// ([`ProofSearch::run_keeping_table`]: the jobs of a cut share transpositions), and records its
/// value (and its certificate, with `certify`); once the values decide the root, the others
/// stop.
/// `nodes` bounds every worker's nodes together; `stop` stops them all. `report` gets each
/// worker's progress, with the nodes of all.
#[allow(clippy::too_many_arguments)]
pub fn prove_in_parallel<G: Game>(
    root: &G,
    threads: usize,
    hash_mib: usize,
    probe: Option<Probe<G>>,
    nodes: Option<u64>,
    certify: bool,
    stop: &std::sync::atomic::AtomicBool,
    report: &mut (dyn FnMut(&crate::search::ProofProgress) + Send),
) -> Result<Parallel, ParallelError> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

    use crate::search::{Proof, ProofSearch, SEARCH_STACK};

    let threads = threads.max(1);
    let mut depth = 0;
    let mut split = Split::cut(root, 0, probe.as_ref());
    while split.jobs.len() < 2 * threads && depth < 12 {
        let deeper = Split::cut(root, depth + 1, probe.as_ref());
        if deeper.jobs.is_empty() {
            break;
        }
        depth += 1;
        split = deeper;
    }
    let jobs = split.jobs.len();
    let board = Mutex::new(Board {
        known: vec![None; jobs],
        certs: vec![None; jobs],
        taken: vec![false; jobs],
        searched: 0,
        failure: None,
    });
    let halt = AtomicBool::new(false);
    let spent = AtomicU64::new(0);
    let budget = nodes.unwrap_or(u64::MAX);
    let report = Mutex::new(report);
    let per_worker = (hash_mib / threads).max(1);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (split, board, halt, spent, report, probe) =
                (&split, &board, &halt, &spent, &report, probe.clone());
            let worker = move || {
                let mut search = ProofSearch::<G>::new(per_worker, probe);
                loop {
                    let job = {
                        let Ok(mut b) = board.lock() else { return };
                        let combined = split.combine(&b.known);
                        if combined.root.is_some() {
                            halt.store(true, Ordering::SeqCst);
                            return;
                        }
                        let next = combined.open.iter().copied().find(|&j| !b.taken[j]);
                        match next {
                            Some(j) => {
                                b.taken[j] = true;
                                b.searched += 1;
                                j
                            }
                            None => return,
                        }
                    };
                    if stop.load(Ordering::SeqCst) {
                        halt.store(true, Ordering::SeqCst);
                    }
                    if halt.load(Ordering::SeqCst) {
                        return;
                    }
                    let pos = split.nodes[split.jobs[job]].pos;
                    let left = budget.saturating_sub(spent.load(Ordering::SeqCst));
                    let mut show = |p: &crate::search::ProofProgress| {
                        let all = spent.load(Ordering::SeqCst) + p.nodes;
                        if stop.load(Ordering::SeqCst) || all >= budget {
                            halt.store(true, Ordering::SeqCst);
                        }
                        if let Ok(mut r) = report.lock() {
                            let mut p = p.clone();
                            p.nodes = all;
                            (*r)(&p);
                        }
                    };
                    let proof = search.run_keeping_table(&pos, Some(left.max(1)), halt, &mut show);
                    let cert = match (certify, proof) {
                        (true, Proof::Win | Proof::Draw | Proof::Loss) => {
                            match search.certify(&pos, proof, halt, &mut show) {
                                Ok(c) => Some(c),
                                Err(crate::search::CertifyError::Stopped) => None,
                                Err(e) => {
                                    if let Ok(mut b) = board.lock() {
                                        b.failure = Some(e.into());
                                    }
                                    halt.store(true, Ordering::SeqCst);
                                    return;
                                }
                            }
                        }
                        _ => None,
                    };
                    let total = spent.fetch_add(search.nodes(), Ordering::SeqCst) + search.nodes();
                    if total >= budget {
                        halt.store(true, Ordering::SeqCst);
                    }
                    let Some(value) = proof.value() else {
                        return;
                    };
                    if certify && cert.is_none() {
                        return;
                    }
                    if let Ok(mut b) = board.lock() {
                        b.known[job] = Some(value);
                        b.certs[job] = cert;
                    }
                }
            };
            let spawned = std::thread::Builder::new()
                .stack_size(SEARCH_STACK)
                .spawn_scoped(scope, worker);
            if let Err(e) = spawned {
                halt.store(true, Ordering::SeqCst);
                if let Ok(mut b) = board.lock() {
                    b.failure = Some(ParallelError::Spawn(e.to_string()));
                }
            }
        }
    });
    let b = board.into_inner().map_err(|_| ParallelError::Panicked)?;
    if let Some(failure) = b.failure {
        return Err(failure);
    }
    let value = split.combine(&b.known).root;
    let certificate = match (certify, value) {
        (true, Some(_)) => Some(split.certificate(&b.known, &b.certs)?),
        _ => None,
    };
    Ok(Parallel {
        value,
        certificate,
        nodes: spent.into_inner(),
        depth,
        jobs,
        searched: b.searched,
    })
}

/// One claim's tree being grafted together.
struct Graft<'a, G: Game> {
    split: &'a Split<G>,
    bounds: &'a [Option<(Value, Value)>],
    certs: &'a [Option<Certificate>],
    builder: &'a mut Builder,
    grafted: &'a mut HashMap<usize, Vec<(Claim, NodeId)>>,
    built: &'a mut HashMap<(usize, Side, bool), NodeId>,
    side: Side,
    level: Level,
}

impl<G: Game> Graft<'_, G> {
    /// Whether the claim's side gets at least the claim's level at node `i` for sure.
    fn good(&self, i: usize) -> bool {
        let Some((lo, _)) = self.bounds[i] else {
            return false;
        };
        let pos = &self.split.nodes[i].pos;
        let least = if pos.side_to_move() == self.side {
            lo
        } else {
            // The other side's most is the claim side's least.
            let (_, hi) = self.bounds[i].unwrap_or((Value::Loss, Value::Win));
            hi.flip()
        };
        match self.level {
            Level::Win => least == Value::Win,
            Level::Draw => least >= Value::Draw,
        }
    }

    /// The certificate node of cut node `i` for this claim.
    fn node(&mut self, i: usize) -> Result<NodeId, SplitError> {
        let key = (i, self.side, self.level == Level::Win);
        if let Some(&id) = self.built.get(&key) {
            return Ok(id);
        }
        let node = &self.split.nodes[i];
        let id = match node.kind {
            Kind::Settled(leaf) => self.builder.leaf(leaf),
            Kind::Frontier(job) => self.graft(job)?,
            Kind::Inner => {
                let pos = node.pos;
                let mut edges = Vec::new();
                if pos.side_to_move() == self.side {
                    let &(m, child) = node
                        .edges
                        .iter()
                        .find(|&&(_, c)| self.good(c))
                        .ok_or(SplitError::Undecided)?;
                    edges.push((MoveText::of(&pos, m), self.node(child)?));
                } else {
                    for &(m, child) in &node.edges {
                        edges.push((MoveText::of(&pos, m), self.node(child)?));
                    }
                }
                self.builder.inner(edges)?
            }
        };
        self.built.insert(key, id);
        Ok(id)
    }

    /// The root, in the builder, of job `job`'s tree for this claim (a win's tree serves a draw
    /// claim too), importing the job's certificate the first time.
    fn graft(&mut self, job: usize) -> Result<NodeId, SplitError> {
        if !self.grafted.contains_key(&job) {
            let cert = self
                .certs
                .get(job)
                .and_then(Option::as_ref)
                .ok_or(SplitError::Missing { job })?;
            let roots = self.builder.import(cert)?;
            let claims = cert.claims.iter().copied().zip(roots).collect();
            self.grafted.insert(job, claims);
        }
        let claims = &self.grafted[&job];
        let fits =
            |c: &Claim| c.side == self.side && (c.level == self.level || c.level == Level::Win);
        claims
            .iter()
            .find(|(c, _)| fits(c))
            .map(|&(_, id)| id)
            .ok_or(SplitError::Short {
                job,
                side: self.side,
                level: self.level.name(),
            })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::certificate::check;
    use crate::eval::Evaluate;
    use crate::exact::ExactSolver;
    use crate::games::{Hexapawn, Line, Oska};
    use crate::search::ProofSearch;
    use crate::splitmix::SplitMix64;

    /// An Oska 4 position 4 to 13 random plies from the start (fewer if the game ends).
    fn random_oska(rng: &mut SplitMix64) -> Oska {
        let mut pos = Oska::start(4).unwrap();
        for _ in 0..4 + rng.next_u64() % 10 {
            let mut moves = MoveList::new();
            pos.generate(&mut moves);
            if moves.is_empty() || pos.board_outcome().is_some() {
                break;
            }
            pos = pos.play(moves.as_slice()[rng.next_u64() as usize % moves.len()]);
        }
        pos
    }

    /// Random Oska 4 positions a few plies in (from `seed`) that are not over and have a move,
    /// each given to `visit` with whether its proven value is new among them, until there are
    /// wins, draws and losses, which there must be within 400 tries.
    fn oska_roots_of_each_value(seed: u64, mut visit: impl FnMut(Oska, bool)) {
        let mut rng = SplitMix64::new(seed);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..400 {
            if seen.len() == 3 {
                break;
            }
            let pos = random_oska(&mut rng);
            if pos.board_outcome().is_none() && pos.count_moves() > 0 {
                let new = seen.insert(prove(&pos));
                visit(pos, new);
            }
        }
        assert_eq!(seen.len(), 3, "wins, draws and losses: {seen:?}");
    }

    fn prove<G: Game>(pos: &G) -> Value {
        let mut search = ProofSearch::<G>::new(1, None);
        search
            .run(pos, None, &AtomicBool::new(false), &mut |_| {})
            .value()
            .unwrap()
    }

    /// Cut at every depth to `max_depth`, each job proved apart with its certificate: the
    /// combined value is the one-process proof's, and the grafted certificate passes the checker
    /// and states it.
    fn cut_and_merge<G: Game + Evaluate>(root: G, max_depth: u32) {
        let whole = prove(&root);
        for depth in 0..=max_depth {
            let split = Split::cut(&root, depth, None);
            let mut solver = ExactSolver::<G>::new(1, None);
            let stop = AtomicBool::new(false);
            let (mut known, mut certs) = (Vec::new(), Vec::new());
            for pos in split.job_positions() {
                let (exact, cert) = solver
                    .value_certified(&Line::new(*pos), None, &stop, &mut |_| {})
                    .unwrap();
                known.push(Some(Value::from(exact.wdl)));
                certs.push(Some(cert));
            }
            let combined = split.combine(&known);
            assert_eq!(combined.root, Some(whole), "{root:?} at depth {depth}");
            assert!(combined.open.is_empty());
            let cert = split.certificate(&known, &certs).unwrap();
            let checked = check(&cert, None).unwrap_or_else(|e| panic!("depth {depth}: {e}"));
            let _ = checked;
            assert_eq!(
                cert.claimed()
                    .and_then(|c| c.value_for(root.side_to_move())),
                Some(whole)
            );
            // The certificate's text reads back as the same certificate.
            let (text, _) = cert.write();
            assert_eq!(Certificate::parse(&text).unwrap().nodes, cert.nodes);
        }
    }

    #[test]
    fn merged_proofs_equal_the_one_process_proof_with_a_valid_certificate() {
        cut_and_merge(Hexapawn::start(3).unwrap(), 3);
        cut_and_merge(Hexapawn::start(4).unwrap(), 3);
        cut_and_merge(Hexapawn::start(5).unwrap(), 2);
        cut_and_merge(Oska::start(4).unwrap(), 3);
        // Drawn and lost roots too: Oska 4 positions a few plies in.
        oska_roots_of_each_value(5, |pos, _| cut_and_merge(pos, 2));
    }

    /// With some jobs unknown: when the root is decided, no value of the unknown jobs changes
    /// it; when it is not, some job is open, and the jobs left out of `open` change nothing
    /// (their extreme values give the same bounds as leaving them unknown).
    #[test]
    fn open_jobs_are_exactly_those_that_can_still_matter() {
        let root = Hexapawn::start(4).unwrap();
        let split = Split::cut(&root, 3, None);
        let truth: Vec<Option<Value>> = split.job_positions().map(|p| Some(prove(p))).collect();
        let mut rng = SplitMix64::new(9);
        let (mut decided, mut undecided) = (0, 0);
        for _ in 0..300 {
            let known: Vec<Option<Value>> = truth
                .iter()
                .map(|v| {
                    if rng.next_u64().is_multiple_of(3) {
                        None
                    } else {
                        *v
                    }
                })
                .collect();
            let combined = split.combine(&known);
            let fill = |v: Value, only: &dyn Fn(usize) -> bool| -> Vec<Option<Value>> {
                known
                    .iter()
                    .enumerate()
                    .map(|(j, k)| k.or(only(j).then_some(v)))
                    .collect()
            };
            match combined.root {
                Some(r) => {
                    decided += 1;
                    assert_eq!(Some(r), truth_root(&split, &truth));
                    for v in [Value::Loss, Value::Draw, Value::Win] {
                        assert_eq!(split.combine(&fill(v, &|_| true)).root, Some(r));
                    }
                }
                None => {
                    undecided += 1;
                    assert!(!combined.open.is_empty());
                    let outside = |j: usize| !combined.open.contains(&j);
                    for v in [Value::Loss, Value::Draw, Value::Win] {
                        let filled = split.combine(&fill(v, &outside));
                        assert_eq!(filled.root, None, "a job left out of open decided the root");
                    }
                    // Filling the open jobs with their true values decides it.
                    let mut all = known.clone();
                    for &j in &combined.open {
                        all[j] = truth[j];
                    }
                    assert_eq!(split.combine(&all).root, truth_root(&split, &truth));
                }
            }
        }
        assert!(
            decided > 20 && undecided > 20,
            "{decided} decided, {undecided} not"
        );
    }

    /// Two and three workers prove what one search proves, with certificates that check, and
    /// a node budget or the stop flag gives no value rather than a wrong one.
    #[test]
    fn workers_prove_what_one_search_proves() {
        fn both<G: Game>(root: G) {
            let whole = prove(&root);
            for threads in [2, 3] {
                let stop = AtomicBool::new(false);
                let done =
                    prove_in_parallel(&root, threads, 4, None, None, true, &stop, &mut |_| {})
                        .unwrap();
                assert_eq!(done.value, Some(whole), "{root:?} with {threads} workers");
                assert!(done.searched <= done.jobs && done.searched > 0);
                let cert = done.certificate.unwrap();
                check(&cert, None).unwrap();
                assert_eq!(
                    cert.claimed()
                        .and_then(|c| c.value_for(root.side_to_move())),
                    Some(whole)
                );
            }
        }
        both(Hexapawn::start(4).unwrap());
        both(Hexapawn::start(5).unwrap());
        both(Oska::start(4).unwrap());
        oska_roots_of_each_value(11, |pos, new| {
            if new {
                both(pos);
            }
        });
        let root = Hexapawn::start(5).unwrap();
        let stop = AtomicBool::new(false);
        let short = prove_in_parallel(&root, 2, 4, None, Some(500), false, &stop, &mut |_| {});
        assert_eq!(short.unwrap().value, None);
        let stopped = AtomicBool::new(true);
        let halted = prove_in_parallel(
            &Hexapawn::start(6).unwrap(),
            2,
            4,
            None,
            None,
            false,
            &stopped,
            &mut |_| {},
        );
        assert_eq!(halted.unwrap().value, None);
    }

    /// One search proving the jobs of a cut one after another, its table kept, gives each the
    /// value a fresh search gives: wins, draws and losses of Oska, where a kept disproof may
    /// have had a draw among its leaves.
    #[test]
    fn a_kept_table_proves_each_job_as_a_fresh_one_does() {
        for depth in [2, 3, 4, 5] {
            let split = Split::cut(&Oska::start(4).unwrap(), depth, None);
            let mut search = ProofSearch::<Oska>::new(1, None);
            let mut seen = std::collections::HashSet::new();
            for pos in split.job_positions() {
                let kept =
                    search.run_keeping_table(pos, None, &AtomicBool::new(false), &mut |_| {});
                assert_eq!(kept.value(), Some(prove(pos)), "{pos:?}");
                seen.insert(kept);
            }
            assert!(seen.len() >= 2, "{seen:?}");
        }
    }

    /// A kept table's disproofs may rest on draws met by an earlier job. Black wins A, and
    /// A's search disproves (for Black) a drawn position through its drawn ends; B, Black to
    /// move, has one move, into that position. B is a draw: the kept draw flag sends its proof
    /// to the second stage, where without it the kept disproof made B a loss (seen, with the
    /// flag not restored). The pair was found by a scan of every Oska 4 position.
    #[test]
    fn a_kept_disproof_through_a_draw_leaves_a_draw_a_draw() {
        let read = |board: &str| {
            *crate::games::format::parse_board::<Oska>(board, crate::games::Side::Black)
                .unwrap()
                .line
                .current()
        };
        let (a, b) = (read("ww--/-b-/b-/---/b-ww"), read("wwb-/---/--/b--/b-ww"));
        assert_eq!(b.count_moves(), 1);
        assert_eq!((prove(&a), prove(&b)), (Value::Win, Value::Draw));
        let stop = AtomicBool::new(false);
        let mut search = ProofSearch::<Oska>::new(1, None);
        assert_eq!(
            search.run(&a, None, &stop, &mut |_| {}).value(),
            Some(Value::Win)
        );
        let kept = search.run_keeping_table(&b, None, &stop, &mut |_| {});
        assert_eq!(kept.value(), Some(Value::Draw));
    }

    fn truth_root<G: Game>(split: &Split<G>, truth: &[Option<Value>]) -> Option<Value> {
        split.combine(truth).root
    }

    #[test]
    fn a_missing_or_short_job_certificate_is_named() {
        let root = Hexapawn::start(3).unwrap();
        let split = Split::cut(&root, 1, None);
        let known: Vec<Option<Value>> = split.job_positions().map(|p| Some(prove(p))).collect();
        let certs = vec![None; known.len()];
        let e = split.certificate(&known, &certs).unwrap_err();
        assert!(matches!(e, SplitError::Missing { .. }), "{e}");
        let unknown = vec![None; known.len()];
        assert_eq!(
            split.certificate(&unknown, &certs).unwrap_err(),
            SplitError::Undecided
        );
    }
}
