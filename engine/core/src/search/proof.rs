//! Proof-number search (depth-first, df-pn) for games without the history rule (Oska,
//! Hexapawn): win, draw or loss of a position, without the distance.
//!
//! The exact solver ([`super::Searcher`] with [`super::Limits::solve`]) searches every reply
//! to a depth it deepens; a proof-number search instead grows the tree where a proof is
//! cheapest. Each node carries a *proof number* (how many leaves at least must still be proved
//! for the attacker to win there) and a *disproof number* (for the attacker not to win): at the
//! attacker's turn the proof number is the least of its children's and the disproof number
//! their sum, at the defender's the other way round. A leaf starts at (1, replies) or
//! (replies, 1) by whose turn it is; an ended game, or a position the tablebase covers
//! ([`Probe`]), is proved (0, inf) or disproved (inf, 0) at once.
//!
//! - Depth first (Nagai's df-pn): a node is searched with thresholds on both numbers and
//!   returns when either is reached; its child with the best number is searched with the
//!   thresholds that keep it the best, the second best's number times 1 + 1/4 (Pawlewicz and
//!   Lew's 1 + epsilon, which cuts the back and forth between two children of close numbers).
//! - The numbers live in a transposition table of fixed size (`--hash`): buckets of three
//!   entries in one cache line, chosen by the high bits of the position's hash; a new entry
//!   replaces the one with the least work below it. A node loads its children's buckets
//!   together (prefetch) before it looks at them: the lookups, cache misses in a large table,
//!   are most of the time. A lost entry costs time, never correctness: only proved and
//!   disproved entries decide anything, and they are exact.
//! - These games are finite and acyclic (pieces only move forward; two passes in a row end the
//!   game), so the graph-history problems of df-pn do not arise.
//! - Win, draw or loss: the side to move is the attacker first. Proved: a win. Disproved: a
//!   loss if no draw took part (every leaf that disproved was a win of the defender, so the
//!   disproof is a proof for the other side), else the other side attacks: proved, a loss,
//!   disproved, a draw.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::Probe;
use crate::games::{Game, MoveList, Side};
use crate::score::{MAX_PLY, Score};

/// A proof or disproof number that no finite search reaches: proved (the other number) or
/// disproved.
pub(super) const INF: u32 = u32::MAX;

/// Entries in a bucket of the table (one cache line).
const WAYS: usize = 3;

/// Nodes between two reports of [`ProofSearch::run`].
const REPORT_EVERY: u64 = 1 << 20;

/// The result of a proof-number search, for the side to move at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Proof {
    /// The side to move wins with best play.
    Win,
    /// The side to move loses with best play.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// Stopped (node limit or stop flag) before a result.
    Unknown,
}

impl Proof {
    /// The result as a certificate states it (`None` for [`Proof::Unknown`]).
    pub fn value(self) -> Option<crate::certificate::Value> {
        use crate::certificate::Value;
        match self {
            Proof::Win => Some(Value::Win),
            Proof::Draw => Some(Value::Draw),
            Proof::Loss => Some(Value::Loss),
            Proof::Unknown => None,
        }
    }
}

impl std::fmt::Display for Proof {
    /// `win`, `loss`, `draw` or `unknown`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Proof::Win => "win",
            Proof::Loss => "loss",
            Proof::Draw => "draw",
            Proof::Unknown => "unknown",
        })
    }
}

/// How far a proof-number search has got, reported every 2^20 nodes and when a stage proves
/// or disproves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofProgress {
    /// The side trying to force a win in this stage.
    pub attacker: Side,
    /// The root's proof and disproof numbers now (`u32::MAX`: proved or disproved).
    pub root: (u32, u32),
    /// Nodes expanded so far, both stages.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Entries of the table in use.
    pub used: usize,
    /// Entries of the table.
    pub capacity: usize,
}

impl std::fmt::Display for ProofProgress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let number = |n: u32| {
            if n == INF {
                "inf".to_string()
            } else {
                n.to_string()
            }
        };
        let secs = self.time.as_secs_f64();
        write!(
            f,
            "proof attacker {} pn {} dn {} nodes {} time {secs:.1}s nps {} table {:.1}%",
            self.attacker.name(),
            number(self.root.0),
            number(self.root.1),
            self.nodes,
            if secs > 0.0 {
                (self.nodes as f64 / secs) as u64
            } else {
                0
            },
            100.0 * self.used as f64 / self.capacity.max(1) as f64
        )
    }
}

/// One entry of the table: the numbers of a position for the stage's attacker.
#[derive(Clone, Copy, Default)]
pub(super) struct Entry {
    /// The position's hash; 0: empty.
    pub(super) key: u64,
    pub(super) pn: u32,
    pub(super) dn: u32,
}

/// A bucket of the table: one cache line, so that a lookup costs one miss (prefetched for the
/// children of a node before they are looked at).
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
pub(super) struct Bucket {
    pub(super) entries: [Entry; WAYS],
    /// Nodes expanded below each entry's position (saturating): what replacing it loses.
    pub(super) work: [u32; WAYS],
}

/// Which of a run's two stages a search is in (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stage {
    /// The side to move at the root attacks.
    First,
    /// The first stage was disproved with a draw among its leaves: the other side attacks.
    Second,
}

/// Where and how often a running search writes its state (see [`ProofSearch::checkpoint_to`]).
pub(super) struct Autosave {
    pub(super) path: std::path::PathBuf,
    pub(super) every: Duration,
    pub(super) last: Instant,
}

/// A proof-number search with its table and the tablebase it probes.
pub struct ProofSearch<G: Game> {
    pub(super) table: Vec<Bucket>,
    pub(super) used: usize,
    pub(super) probe: Option<Probe<G>>,
    pub(super) attacker: Side,
    pub(super) stage: Stage,
    pub(super) nodes: u64,
    pub(super) limit: u64,
    pub(super) stopped: bool,
    /// A drawn leaf was disproved in this stage (see the module doc).
    pub(super) draw_seen: bool,
    /// A drawn leaf was met since the table was last emptied (by any run that kept it).
    pub(super) table_draws: bool,
    pub(super) start: Instant,
    /// Search time of the runs before this one (a search resumed from a checkpoint).
    pub(super) elapsed_before: Duration,
    next_report: u64,
    /// The root, for the reports.
    pub(super) root: Option<G>,
    /// The root's hash: a resumed search must be given the same position.
    pub(super) root_key: Option<u64>,
    pub(super) autosave: Option<Autosave>,
    /// Why the last periodic checkpoint could not be written (the search stopped then).
    pub(super) autosave_failed: Option<super::checkpoint::CheckpointError>,
}

impl<G: Game> ProofSearch<G> {
    /// A search with a table of `hash_mib` MiB (at least one bucket), probing `probe` at its
    /// leaves.
    pub fn new(hash_mib: usize, probe: Option<Probe<G>>) -> Self {
        let bytes = hash_mib.max(1) << 20;
        let buckets = (bytes / std::mem::size_of::<Bucket>()).max(1);
        ProofSearch {
            table: vec![Bucket::default(); buckets],
            used: 0,
            probe,
            attacker: Side::White,
            stage: Stage::First,
            nodes: 0,
            limit: u64::MAX,
            stopped: false,
            draw_seen: false,
            table_draws: false,
            start: Instant::now(),
            elapsed_before: Duration::ZERO,
            next_report: REPORT_EVERY,
            root: None,
            root_key: None,
            autosave: None,
            autosave_failed: None,
        }
    }

    /// Proves or disproves a win for the side to move of `pos`, then, if needed, for the other
    /// side: win, draw or loss. Stops after `nodes` expansions in all, or when `stop` is set,
    /// with [`Proof::Unknown`]; [`ProofSearch::resume`] then goes on from where it stopped.
    /// `report` gets the progress now and then.
    ///
    /// # Panics
    ///
    /// For a game with the history rule (Capture the Flag), whose values depend on the path.
    pub fn run(
        &mut self,
        pos: &G,
        nodes: Option<u64>,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&ProofProgress),
    ) -> Proof {
        self.begin_run(pos);
        self.begin_stage(Stage::First, pos.side_to_move());
        self.resume(pos, nodes, stop, report)
    }

    /// [`ProofSearch::run`], keeping what the table learnt in the last run when its attacker
    /// is this one's (the side to move, in the first stage): a worker proving many positions of
    /// one cut shares their transpositions. Only proofs and disproofs decide anything, and they
    /// hold for the attacker whatever the root; a disproof that a draw took part in is caught
    /// by the draw flag, set if a draw was met since the table was emptied.
    pub fn run_keeping_table(
        &mut self,
        pos: &G,
        nodes: Option<u64>,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&ProofProgress),
    ) -> Proof {
        if self.root_key.is_none()
            || self.stage != Stage::First
            || self.attacker != pos.side_to_move()
            || G::NO_REPEAT
        {
            return self.run(pos, nodes, stop, report);
        }
        self.begin_run(pos);
        self.draw_seen = self.table_draws;
        self.resume(pos, nodes, stop, report)
    }

    /// A new run of `pos`: its nodes and time count from 0.
    fn begin_run(&mut self, pos: &G) {
        self.nodes = 0;
        self.elapsed_before = Duration::ZERO;
        self.root_key = Some(Game::hash(pos));
    }

    /// Goes on with the search of `pos` where the last [`ProofSearch::run`] or `resume` stopped,
    /// or where the checkpoint it was loaded from ([`ProofSearch::load`]) left it; a search
    /// that has not started starts. `nodes` counts every run's nodes together. The answer is
    /// the one an uninterrupted run gives: the table holds only exact proofs and disproofs and
    /// estimates, and the stage and its draw flag are kept.
    ///
    /// # Panics
    ///
    /// For a game with the history rule, or a position other than the one the search began
    /// with (check [`ProofSearch::root_key`] first).
    pub fn resume(
        &mut self,
        pos: &G,
        nodes: Option<u64>,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&ProofProgress),
    ) -> Proof {
        assert!(
            !G::NO_REPEAT,
            "proof-number search is for games without the history rule"
        );
        match self.root_key {
            None => return self.run(pos, nodes, stop, report),
            Some(key) => assert_eq!(key, Game::hash(pos), "resumed on another position"),
        }
        self.start = Instant::now();
        self.next_report = (self.nodes / REPORT_EVERY + 1) * REPORT_EVERY;
        self.limit = nodes.unwrap_or(u64::MAX);
        self.stopped = false;
        self.root = Some(*pos);
        let mover = pos.side_to_move();
        let proof = loop {
            let decided = self.stage(pos, stop, report);
            match (self.stage, decided) {
                (_, None) => break Proof::Unknown,
                (Stage::First, Some(true)) => break Proof::Win,
                (Stage::First, Some(false)) if !self.draw_seen => break Proof::Loss,
                (Stage::First, Some(false)) => self.begin_stage(Stage::Second, mover.opposite()),
                (Stage::Second, Some(true)) => break Proof::Loss,
                (Stage::Second, Some(false)) => break Proof::Draw,
            }
        };
        self.elapsed_before += self.start.elapsed();
        self.start = Instant::now();
        proof
    }

    /// The hash of the position the search began with (`None` before the first run): a search
    /// loaded from a checkpoint resumes only on it.
    pub fn root_key(&self) -> Option<u64> {
        self.root_key
    }

    /// Writes the search's state to `path` every `every` of search time while it runs (at its
    /// reports, about every million nodes), so a killed process loses at most that much. A
    /// write that fails stops the search; [`ProofSearch::autosave_error`] says why.
    pub fn checkpoint_to(&mut self, path: &std::path::Path, every: Duration) {
        self.autosave = Some(Autosave {
            path: path.to_path_buf(),
            every,
            last: Instant::now(),
        });
    }

    /// Stops the search at its next node (the numbers found so far stay in the table).
    pub(super) fn stop_now(&mut self) {
        self.stopped = true;
    }

    /// Why the last periodic checkpoint failed (the search stopped there), if it did.
    pub fn autosave_error(&self) -> Option<&super::checkpoint::CheckpointError> {
        self.autosave_failed.as_ref()
    }

    /// Nodes expanded so far, every run of the search together.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Starts `stage`, `attacker` attacking: the numbers of the other attacker are of no use,
    /// so the table is emptied.
    pub(super) fn begin_stage(&mut self, stage: Stage, attacker: Side) {
        if self.used > 0 {
            self.table.fill(Bucket::default());
            self.used = 0;
        }
        self.stage = stage;
        self.attacker = attacker;
        self.draw_seen = false;
        self.table_draws = false;
    }

    /// Searches the current stage on: whether its attacker can force a win from `pos`
    /// (`None`: stopped).
    pub(super) fn stage(
        &mut self,
        pos: &G,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&ProofProgress),
    ) -> Option<bool> {
        let mut root = self.leaf(pos);
        while root.0 != 0 && root.1 != 0 && !self.stopped {
            root = self.mid(pos, (INF, INF), 0, stop, report);
        }
        // The stage's end, and a stop, are reported (a stopped search says how far it got).
        report(&self.progress(root));
        match root {
            (0, _) => Some(true),
            (_, 0) => Some(false),
            _ => None,
        }
    }

    fn progress(&self, root: (u32, u32)) -> ProofProgress {
        ProofProgress {
            attacker: self.attacker,
            root,
            nodes: self.nodes,
            time: self.elapsed(),
            used: self.used,
            capacity: self.table.len() * WAYS,
        }
    }

    /// The root's numbers from its children's in the table now (the root's own entry is
    /// stored when its search returns); a child not in the table counts as (1, 1).
    fn root_numbers(&self) -> (u32, u32) {
        let Some(root) = &self.root else {
            return (1, 1);
        };
        let mut moves = MoveList::new();
        root.generate(&mut moves);
        let or = root.side_to_move() == self.attacker;
        let (mut least, mut sum) = (INF, 0u32);
        for &m in moves.as_slice() {
            let (pn, dn) = self
                .find(Game::hash(&root.play(m)))
                .map_or((1, 1), |e| (e.pn, e.dn));
            let (small, add) = if or { (pn, dn) } else { (dn, pn) };
            least = least.min(small);
            sum = sum.saturating_add(add);
        }
        if or { (least, sum) } else { (sum, least) }
    }

    /// The numbers of a position not expanded yet: from the table, else from its end, the
    /// tablebase or its count of replies.
    pub(super) fn leaf(&mut self, pos: &G) -> (u32, u32) {
        if let Some(e) = self.find(Game::hash(pos)) {
            return (e.pn, e.dn);
        }
        let mover = pos.side_to_move();
        let decided = |winner: Option<Side>, this: &mut Self| {
            if winner == Some(this.attacker) {
                (0, INF)
            } else {
                this.draw_seen |= winner.is_none();
                this.table_draws |= winner.is_none();
                (INF, 0)
            }
        };
        if let Some(outcome) = pos.board_outcome() {
            return decided(outcome.winner(), self);
        }
        if let Some(score) = self.probe.as_ref().and_then(|p| p(pos)) {
            let winner = match score {
                Score::Win(_) => Some(mover),
                Score::Loss(_) => Some(mover.opposite()),
                _ => None,
            };
            return decided(winner, self);
        }
        let replies = pos.count_moves() as u32;
        if replies == 0 {
            // A side without a legal move has lost.
            return decided(Some(mover.opposite()), self);
        }
        if mover == self.attacker {
            (1, replies)
        } else {
            (replies, 1)
        }
    }

    /// Expands `pos` (not decided) until its proof number reaches `th.0` or its disproof
    /// number `th.1`; returns its numbers.
    pub(super) fn mid(
        &mut self,
        pos: &G,
        th: (u32, u32),
        ply: usize,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&ProofProgress),
    ) -> (u32, u32) {
        self.nodes += 1;
        let work_before = self.nodes;
        if self.nodes >= self.next_report {
            self.next_report += REPORT_EVERY;
            let root = self.root_numbers();
            report(&self.progress(root));
            if stop.load(Ordering::Relaxed) {
                self.stopped = true;
            }
            self.autosave_if_due();
        }
        if self.nodes >= self.limit || ply >= MAX_PLY {
            self.stopped = true;
        }
        let mut moves = MoveList::new();
        pos.generate(&mut moves);
        let children: Vec<G> = moves.as_slice().iter().map(|&m| pos.play(m)).collect();
        // The children's buckets are loaded at once, not one miss after another.
        for c in &children {
            self.prefetch(Game::hash(c));
        }
        let mut numbers: Vec<(u32, u32)> = children.iter().map(|c| self.leaf(c)).collect();
        // At the attacker's turn the proof number is the least of the children's (`min`
        // picks by it) and the disproof number the sum; at the defender's, the other way.
        let or = pos.side_to_move() == self.attacker;
        let pick = |(pn, dn): (u32, u32)| if or { (pn, dn) } else { (dn, pn) };
        loop {
            let (mut best, mut least, mut second, mut sum) = (0, INF, INF, 0u32);
            for (i, &n) in numbers.iter().enumerate() {
                let (small, add) = pick(n);
                sum = sum.saturating_add(add);
                if small < least {
                    (best, second, least) = (i, least, small);
                } else if small < second {
                    second = small;
                }
            }
            let (pn, dn) = pick((least, sum));
            let (th_least, th_sum) = pick(th);
            if least >= th_least || sum >= th_sum || self.stopped {
                let work = (self.nodes - work_before + 1).min(u32::MAX as u64) as u32;
                self.store(Game::hash(pos), (pn, dn), work);
                return (pn, dn);
            }
            // The best child stays best below the second's number (with 1 + 1/4 of slack) and
            // the sum stays below its threshold.
            let child_least = th_least.min(
                second
                    .saturating_add(1)
                    .max(second.saturating_add(second / 4)),
            );
            let child_sum = if th_sum == INF {
                INF
            } else {
                th_sum - sum + pick(numbers[best]).1
            };
            // Another path may have searched the child since it was looked up.
            if let Some(e) = self.find(Game::hash(&children[best]))
                && (e.pn, e.dn) != numbers[best]
            {
                numbers[best] = (e.pn, e.dn);
                continue;
            }
            numbers[best] = self.mid(
                &children[best],
                pick((child_least, child_sum)),
                ply + 1,
                stop,
                report,
            );
        }
    }

    /// The bucket of a position, from the high bits of its hash.
    fn bucket(&self, key: u64) -> usize {
        ((u128::from(key) * self.table.len() as u128) >> 64) as usize
    }

    /// Asks the processor to load the bucket of `key` into the cache.
    fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const Bucket = &self.table[self.bucket(key)];
            // SAFETY: a prefetch only hints the cache; it reads nothing and never faults.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    fn find(&self, key: u64) -> Option<Entry> {
        let key = key.max(1);
        self.table[self.bucket(key)]
            .entries
            .iter()
            .find(|e| e.key == key)
            .copied()
    }

    /// Stores the numbers of the position of hash `key`, replacing in its bucket the same
    /// position, else an empty entry, else the entry with the least work.
    pub(super) fn store(&mut self, key: u64, (pn, dn): (u32, u32), work: u32) {
        // Keys are never 0, the empty entry's (a hash of 0 is kept as 1).
        let key = key.max(1);
        let at = self.bucket(key);
        let bucket = &mut self.table[at];
        let slot = match bucket.entries.iter().position(|e| e.key == key) {
            Some(i) => i,
            None => match bucket.entries.iter().position(|e| e.key == 0) {
                Some(i) => {
                    self.used += 1;
                    i
                }
                None => (0..WAYS).min_by_key(|&i| bucket.work[i]).unwrap_or(0),
            },
        };
        bucket.work[slot] = if bucket.entries[slot].key == key {
            work.saturating_add(bucket.work[slot])
        } else {
            work
        };
        bucket.entries[slot] = Entry { key, pn, dn };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Hexapawn;
    use crate::splitmix::SplitMix64;

    #[test]
    fn positions_spread_over_every_bucket() {
        let mut search = ProofSearch::<Hexapawn>::new(1, None);
        let capacity = search.table.len() * WAYS;
        let mut rng = SplitMix64::new(1);
        for _ in 0..4 * capacity {
            search.store(rng.next_u64(), (1, 1), 1);
        }
        // Four times as many positions as entries: nearly every entry is taken (when the
        // bucket came from the low bits of keys whose lowest bit was set, only half were).
        assert!(
            search.used * 100 >= capacity * 95,
            "{} of {capacity}",
            search.used
        );
        let key = rng.next_u64();
        search.store(key, (3, 4), 1);
        assert_eq!(search.find(key).map(|e| (e.pn, e.dn)), Some((3, 4)));
        assert!(search.find(key ^ 1).is_none());
    }
}
