//! The checker of certificates: the rules ([`crate::games`]) and the tables' probes
//! ([`crate::tablebase`]) only, nothing of the search.
//!
//! Each claim is checked by a depth-first walk from its root node that plays the edges' moves:
//! every move must be legal where it is played; at the claim's side's turn a node has exactly
//! one edge, at the other side's turn one edge for every legal move (none missing, none twice);
//! a leaf's value must be the rules' (an end leaf) or the tables' (a table leaf), and reach the
//! claim's level for its side. A node met again is compared with the position it was first met
//! as (the whole board and the side to move) and not checked again, so the time is linear in the
//! size of the certificate; a node met again while it is still on the path is a cycle. Every
//! node must be reached from a claim.

use super::{Certificate, CertificateError, Claim, Claimed, Leaf, Node, NodeId, Place, Value};
use crate::games::format::{parse_board, slash};
use crate::games::notation::{legal_move, move_name};
use crate::games::{Line, MoveList};
use crate::score::Score;
use crate::tablebase::{Retro, TableGame, Tablebase};

/// What a certificate that passed proves, and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The root's value its claims state.
    pub claimed: Claimed,
    /// Its nodes, leaves included.
    pub nodes: usize,
    /// Its leaves.
    pub leaves: usize,
    /// Its table leaves.
    pub table_leaves: usize,
}

/// Checks `cert` with the rules and, for its table leaves, `tables` (the tables of its game and
/// size; `None`: a table leaf is refused with [`CertificateError::NeedsTables`]). The first
/// failure is the error, naming its place.
pub fn check(cert: &Certificate, tables: Option<&Tablebase>) -> Result<Checked, CertificateError> {
    let game = TableGame::of(cert.game).map_err(|_| {
        CertificateError::Invalid(format!(
            "certificates are for Oska and Hexapawn, not {}: a position's value there depends \
             on the boards before it",
            cert.game
        ))
    })?;
    crate::with_table_game!(game, G => check_game::<G>(cert, tables))
}

/// Where a node stands in the walk of one claim.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Unseen,
    /// On the path from the root to the node being looked at.
    OnPath,
    Done,
}

/// A node on the path: its children still to enter.
struct Frame<G> {
    node: NodeId,
    /// Each edge's move name, child id and position.
    children: Vec<(String, NodeId, G)>,
    next: usize,
}

/// [`check`] for a game with tables.
fn check_game<G: Retro>(
    cert: &Certificate,
    tables: Option<&Tablebase>,
) -> Result<Checked, CertificateError> {
    let root = parse_board::<G>(&cert.board, cert.side)
        .map_err(|e| CertificateError::Invalid(format!("the root board: {e}")))?;
    let root = *root.line.current();
    if root.size() != cert.size {
        return Err(CertificateError::Invalid(format!(
            "the root board is of size {}, the header says {}",
            root.size(),
            cert.size
        )));
    }
    let claimed = cert.claimed().ok_or_else(|| {
        CertificateError::Invalid("the claims contradict each other: both sides win".into())
    })?;
    let mut reached = vec![false; cert.nodes.len()];
    for (i, claim) in cert.claims.iter().enumerate() {
        Walk {
            cert,
            tables,
            claim: *claim,
            number: i + 1,
            state: vec![State::Unseen; cert.nodes.len()],
            positions: vec![None; cert.nodes.len()],
            stack: Vec::new(),
        }
        .run(root, &mut reached)?;
    }
    if let Some(node) = reached.iter().position(|r| !r) {
        return Err(CertificateError::Unreached {
            node: node as NodeId,
            line: cert.line_of(node as NodeId),
        });
    }
    let leaves = |table: bool| {
        cert.nodes
            .iter()
            .filter(|n| match n {
                Node::Leaf(Leaf::Table(_)) => true,
                Node::Leaf(Leaf::End(_)) => !table,
                Node::Inner(_) => false,
            })
            .count()
    };
    Ok(Checked {
        claimed,
        nodes: cert.nodes.len(),
        leaves: leaves(false),
        table_leaves: leaves(true),
    })
}

/// The check of one claim.
struct Walk<'a, G> {
    cert: &'a Certificate,
    tables: Option<&'a Tablebase>,
    claim: Claim,
    /// The claim's number, from 1.
    number: usize,
    state: Vec<State>,
    /// Each node's position, once met.
    positions: Vec<Option<G>>,
    stack: Vec<Frame<G>>,
}

impl<G: Retro> Walk<'_, G> {
    /// Checks the claim's tree from the root position `root`, marking the nodes it reaches.
    fn run(mut self, root: G, reached: &mut [bool]) -> Result<(), CertificateError> {
        if self.claim.root as usize >= self.cert.nodes.len() {
            return Err(CertificateError::Invalid(format!(
                "claim {} ({}): the certificate has no node {} (it has {})",
                self.number,
                self.claim,
                self.claim.root,
                self.cert.nodes.len()
            )));
        }
        self.enter(self.claim.root, root, reached)?;
        while let Some(top) = self.stack.last_mut() {
            let Some((mv, child, pos)) = top.children.get(top.next).cloned() else {
                let done = top.node;
                self.state[done as usize] = State::Done;
                self.stack.pop();
                continue;
            };
            top.next += 1;
            let parent = top.node;
            let refuse = |walk: &Self, why: String| walk.refuse_at_parent(why);
            if child as usize >= self.cert.nodes.len() {
                return Err(refuse(
                    &self,
                    format!(
                        "move {mv} leads to node {child}, which the certificate does not hold \
                         (it has {} nodes)",
                        self.cert.nodes.len()
                    ),
                ));
            }
            match self.state[child as usize] {
                State::OnPath => {
                    return Err(refuse(
                        &self,
                        format!(
                            "move {mv} leads to node {child} (line {}), which is on the path from \
                             the root to node {parent}: the ids make a cycle",
                            self.cert.line_of(child)
                        ),
                    ));
                }
                State::Done => {
                    let before = self.positions[child as usize];
                    if before != Some(pos) {
                        let shown = |p: Option<G>| {
                            p.map_or("none".to_string(), |p| {
                                format!("{} {}", slash(&p), p.side_to_move().letter())
                            })
                        };
                        return Err(refuse(
                            &self,
                            format!(
                                "move {mv} leads to {}, but node {child} (line {}) was reached \
                                 before as another position, {}",
                                shown(Some(pos)),
                                self.cert.line_of(child),
                                shown(before)
                            ),
                        ));
                    }
                }
                State::Unseen => self.enter(child, pos, reached)?,
            }
        }
        Ok(())
    }

    /// The place of the node on top of the stack, reached by the moves of the frames below it.
    fn place_of_top(&self) -> Place {
        let node = self.stack.last().map_or(self.claim.root, |f| f.node);
        let path = self
            .stack
            .iter()
            .take(self.stack.len().saturating_sub(1))
            .map(|f| f.children[f.next - 1].0.clone())
            .collect();
        self.place(node, path)
    }

    fn place(&self, node: NodeId, path: Vec<String>) -> Place {
        Place {
            claim: self.number,
            claim_text: self.claim.to_string(),
            node,
            line: self.cert.line_of(node),
            path,
        }
    }

    /// A refusal at the node on top of the stack (the parent of the edge being followed).
    fn refuse_at_parent(&self, why: String) -> CertificateError {
        CertificateError::Refused {
            place: Box::new(self.place_of_top()),
            why,
        }
    }

    /// Meets `node` for the first time, as `pos`: checks it and, for an inner node, puts it on
    /// the path with its children.
    fn enter(
        &mut self,
        node: NodeId,
        pos: G,
        reached: &mut [bool],
    ) -> Result<(), CertificateError> {
        self.positions[node as usize] = Some(pos);
        reached[node as usize] = true;
        // The node's place: the moves of every frame on the stack.
        let path: Vec<String> = self
            .stack
            .iter()
            .map(|f| f.children[f.next - 1].0.clone())
            .collect();
        let refuse = |walk: &Self, why: String| CertificateError::Refused {
            place: Box::new(walk.place(node, path.clone())),
            why,
        };
        let line = Line::new(pos);
        let mover = pos.side_to_move();
        let side = self.claim.side;
        match &self.cert.nodes[node as usize] {
            Node::Leaf(leaf) => {
                let (truth, source) = match leaf {
                    Leaf::End(_) => match line.outcome() {
                        Some(o) => (
                            Value::for_side(o.winner(), mover),
                            format!("the rules ({o})"),
                        ),
                        None => {
                            return Err(refuse(
                                self,
                                format!(
                                    "an end leaf, but the game is not over here ({} to move has \
                                     {} legal moves)",
                                    mover,
                                    pos.count_moves()
                                ),
                            ));
                        }
                    },
                    Leaf::Table(_) => {
                        let Some(tables) = self.tables else {
                            return Err(CertificateError::NeedsTables {
                                place: Box::new(self.place(node, path.clone())),
                            });
                        };
                        let score = tables
                            .try_probe(&pos)
                            .map_err(|e| refuse(self, format!("the tables: {e}")))?;
                        let value = match score {
                            Some(Score::Win(_)) => Value::Win,
                            Some(Score::Loss(_)) => Value::Loss,
                            Some(Score::Draw) => Value::Draw,
                            _ => {
                                return Err(refuse(
                                    self,
                                    "a table leaf, but the tables given do not cover this position"
                                        .into(),
                                ));
                            }
                        };
                        (value, "the tables".to_string())
                    }
                };
                if leaf.value() != truth {
                    return Err(refuse(
                        self,
                        format!(
                            "the file says {} for {mover} to move, {source} say {truth}",
                            leaf.value()
                        ),
                    ));
                }
                let for_side = if mover == side { truth } else { truth.flip() };
                if !self.claim.level.reached_by(for_side) {
                    return Err(refuse(
                        self,
                        format!(
                            "a {} for {side} here, short of the claim's {}",
                            for_side,
                            self.claim.level.name()
                        ),
                    ));
                }
                self.state[node as usize] = State::Done;
                Ok(())
            }
            Node::Inner(edges) => {
                let mut played = Vec::with_capacity(edges.len());
                let mut children = Vec::with_capacity(edges.len());
                for &(text, child) in edges {
                    let name = text.to_string();
                    let mv = legal_move(&line, text, &name)
                        .map_err(|e| refuse(self, format!("move {name}: {e}")))?;
                    played.push(mv);
                    children.push((name, child, pos.play(mv)));
                }
                if mover == side {
                    if edges.len() != 1 {
                        return Err(refuse(
                            self,
                            format!(
                                "{side}'s turn, the claim's side: exactly one move is due, not {}",
                                edges.len()
                            ),
                        ));
                    }
                } else {
                    for (i, mv) in played.iter().enumerate() {
                        if played[..i].contains(mv) {
                            return Err(refuse(
                                self,
                                format!("{mover}'s reply {} is listed twice", move_name(&pos, *mv)),
                            ));
                        }
                    }
                    let mut legal = MoveList::new();
                    line.legal_moves(&mut legal);
                    if let Some(&missing) = legal.as_slice().iter().find(|m| !played.contains(m)) {
                        return Err(refuse(
                            self,
                            format!(
                                "{mover}'s reply {} is missing: every reply of the other side is \
                                 due ({} legal, {} listed)",
                                move_name(&pos, missing),
                                legal.len(),
                                played.len()
                            ),
                        ));
                    }
                }
                self.state[node as usize] = State::OnPath;
                self.stack.push(Frame {
                    node,
                    children,
                    next: 0,
                });
                Ok(())
            }
        }
    }
}
