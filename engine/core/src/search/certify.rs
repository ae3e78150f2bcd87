//! Certificates from the proof-number search ([`crate::certificate`]): after a stage has proved
//! or disproved the root, the proved tree is walked from the table.
//!
//! A claim "S gets at least a win" is the proof tree of the stage whose attacker is S: at S's
//! turn one proved child, at the other side's every child. A claim "S gets at least a draw" is
//! the disproof tree of the stage whose attacker is the other side: at S's turn one disproved
//! child, at the other side's every child; its leaves are draws or wins of S. The children's
//! numbers come from the table; a child whose entry the table lost (entries are replaced) is
//! searched again, with no threshold, until it is decided. Positions are memoised, so a
//! transposition is one node. The leaves are the search's: a game over by the board, a position
//! the probe covers, a side without a move, in that order (as [`ProofSearch::leaf`] sees them).

use std::collections::HashMap;

use thiserror::Error;

use super::proof::{INF, ProofSearch, Stage};
use super::{Proof, ProofProgress};
use crate::certificate::{Builder, Certificate, CertificateError, Claim, Level, NodeId, settled};
use crate::games::notation::MoveText;
use crate::games::{Game, MoveList, Side};

/// Why a proof's certificate could not be written.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CertifyError {
    /// The stop flag ended a search the certificate needed.
    #[error("stopped before the certificate was written")]
    Stopped,
    /// The value asked for was not proved (an unknown value, or one the search does not find).
    #[error("no certificate for {0}: the proof search does not prove it")]
    NotProved(String),
    /// The certificate could not be built.
    #[error("the certificate: {0}")]
    Certificate(#[from] CertificateError),
}

/// One claim's walk: its side, whether the stage's attacker is that side (a proof tree) or the
/// other (a disproof tree), and the node of each position written so far.
struct Target<G> {
    side: Side,
    proved: bool,
    memo: HashMap<G, NodeId>,
}

impl<G: Game> ProofSearch<G> {
    /// The certificate of `proof` (a win, loss or draw of `pos` for its side to move, as
    /// [`ProofSearch::run`] gave it): one claim for a win or a loss, two for a draw. Uses the
    /// table the last stage left when its attacker is the one a claim needs, else runs that
    /// stage again (with no node limit; `stop` ends it, an error). `report` gets the progress
    /// of those searches.
    pub fn certify(
        &mut self,
        pos: &G,
        proof: Proof,
        stop: &std::sync::atomic::AtomicBool,
        report: &mut dyn FnMut(&ProofProgress),
    ) -> Result<Certificate, CertifyError> {
        let mover = pos.side_to_move();
        let Some(value) = proof.value() else {
            return Err(CertifyError::NotProved(proof.to_string()));
        };
        let mut wanted = Claim::of_value(value, mover, 0);
        // The claim whose stage's table is still here first.
        let attacker = |c: &Claim| match c.level {
            Level::Win => c.side,
            Level::Draw => c.side.opposite(),
        };
        wanted.sort_by_key(|c| attacker(c) != self.attacker);
        self.limit = u64::MAX;
        self.stopped = false;
        let mut builder = Builder::for_position(pos);
        let mut claims = Vec::new();
        for claim in wanted {
            let proved = claim.level == Level::Win;
            let good = |n: (u32, u32)| if proved { n.0 == 0 } else { n.1 == 0 };
            let a = attacker(&claim);
            if a != self.attacker || !good(self.leaf(pos)) {
                let stage = if a == mover {
                    Stage::First
                } else {
                    Stage::Second
                };
                self.begin_stage(stage, a);
                match self.stage(pos, stop, report) {
                    None => return Err(CertifyError::Stopped),
                    Some(p) if p == proved => {}
                    Some(_) => return Err(CertifyError::NotProved(proof.to_string())),
                }
            }
            let mut target = Target {
                side: claim.side,
                proved,
                memo: HashMap::new(),
            };
            let root = self.walk(pos, 0, &mut target, &mut builder, stop, report)?;
            claims.push(Claim { root, ..claim });
        }
        Ok(builder.finish(claims)?)
    }

    /// Writes the tree of `target` below `pos` (proved or disproved in the table, or decided by
    /// a search now); returns its node.
    fn walk(
        &mut self,
        pos: &G,
        ply: usize,
        target: &mut Target<G>,
        builder: &mut Builder,
        stop: &std::sync::atomic::AtomicBool,
        report: &mut dyn FnMut(&ProofProgress),
    ) -> Result<NodeId, CertifyError> {
        if let Some(&id) = target.memo.get(pos) {
            return Ok(id);
        }
        let mover = pos.side_to_move();
        if let Some(leaf) = settled(pos, self.probe.as_deref()) {
            let for_side = if mover == target.side {
                leaf.value()
            } else {
                leaf.value().flip()
            };
            let level = if target.proved {
                Level::Win
            } else {
                Level::Draw
            };
            if !level.reached_by(for_side) {
                return Err(CertifyError::NotProved(format!(
                    "{} at least for {} (a leaf gives {for_side})",
                    level.name(),
                    target.side
                )));
            }
            let id = builder.leaf(leaf);
            target.memo.insert(*pos, id);
            return Ok(id);
        }
        let proved = target.proved;
        let good = |n: (u32, u32)| if proved { n.0 == 0 } else { n.1 == 0 };
        let decided = |n: (u32, u32)| n.0 == 0 || n.1 == 0;
        let mut moves = MoveList::new();
        pos.generate(&mut moves);
        let mut chosen = Vec::new();
        if mover == target.side {
            // One good child: from the table, else the first that a search decides good.
            let mut pick = moves
                .as_slice()
                .iter()
                .copied()
                .find(|&m| good(self.leaf(&pos.play(m))));
            if pick.is_none() {
                for &m in moves.as_slice() {
                    let child = pos.play(m);
                    if !decided(self.leaf(&child))
                        && good(self.decide(&child, ply + 1, stop, report)?)
                    {
                        pick = Some(m);
                        break;
                    }
                }
            }
            let Some(m) = pick else {
                return Err(self.lost(target));
            };
            chosen.push(m);
        } else {
            for &m in moves.as_slice() {
                let child = pos.play(m);
                let mut n = self.leaf(&child);
                if !decided(n) {
                    n = self.decide(&child, ply + 1, stop, report)?;
                }
                if !good(n) {
                    return Err(self.lost(target));
                }
                chosen.push(m);
            }
        }
        let mut edges = Vec::with_capacity(chosen.len());
        for m in chosen {
            let child = self.walk(&pos.play(m), ply + 1, target, builder, stop, report)?;
            edges.push((MoveText::of(pos, m), child));
        }
        let id = builder.inner(edges)?;
        target.memo.insert(*pos, id);
        Ok(id)
    }

    /// Searches `pos` (not decided) with no threshold until it is proved or disproved.
    fn decide(
        &mut self,
        pos: &G,
        ply: usize,
        stop: &std::sync::atomic::AtomicBool,
        report: &mut dyn FnMut(&ProofProgress),
    ) -> Result<(u32, u32), CertifyError> {
        let n = self.mid(pos, (INF, INF), ply, stop, report);
        if n.0 == 0 || n.1 == 0 {
            Ok(n)
        } else {
            Err(CertifyError::Stopped)
        }
    }

    /// The error of a tree that does not hold: the search decided a node against its stage's
    /// result (a defect, never seen).
    fn lost(&self, target: &Target<G>) -> CertifyError {
        CertifyError::NotProved(format!(
            "{} for {} (a node decided against the stage's result)",
            if target.proved {
                "a win"
            } else {
                "a draw at least"
            },
            target.side
        ))
    }
}
