//! Proof certificates: a proof tree of an Oska or Hexapawn position that anyone can check with
//! the rules and the tables alone ([`check::check`]), without trusting the search that wrote it.
//!
//! A certificate holds a game, a size, a root position (board and side to move, as the command
//! line writes them), one or more [`Claim`]s and a graph of [`Node`]s. A claim "side S gets at
//! least L" (L a win or a draw) names a root node; the tree below it is:
//!
//! - a leaf: [`Leaf::End`] (the game is over by the rules, or the side to move has no legal move)
//!   or [`Leaf::Table`] (a position the tables cover), each with its [`Value`] for the side to
//!   move as written in the file; the rules' or the tables' value must equal it and must give S
//!   at least L (a win satisfies a draw claim);
//! - an inner node: edges (move, child node). At S's turn exactly one edge; at the other side's
//!   turn one edge for every legal move, none missing, none extra, none twice.
//!
//! Positions are not stored: the checker plays the moves from the root. Nodes are shared (a
//! transposition is stored once and referenced by its id), so the graph is a DAG, and a node
//! reached by two paths must be the same position by both.
//!
//! The value of the root: a win for the side to move is one claim (mover at least win); a loss
//! is one claim (the other side at least win); a draw is two claims (White at least draw, Black
//! at least draw).
//!
//! # The text format
//!
//! One item a line, fields separated by single spaces, in this order:
//!
//! ```text
//! boardgames-certificate 1
//! game hexapawn
//! size 3
//! board www/---/bbb
//! side w
//! claim black win 7
//! nodes 8
//! 0 a1a2 1 b1b2 3 c1c2 6
//! 1 end loss
//! ...
//! ```
//!
//! The header: the format's name and version ([`FORMAT`], [`VERSION`]), the game (`oska` or
//! `hexapawn`), the size, the board (rows joined by `/`) and side (`w` or `b`), one `claim SIDE
//! LEVEL ROOT` line a claim (SIDE `white` or `black`, LEVEL `win` or `draw`, ROOT a node id),
//! then `nodes N`. Then N node lines, the k-th (from 0) with id k: `ID end VALUE` or `ID table
//! VALUE` (VALUE `win`, `draw` or `loss` for the side to move there), or `ID MOVE CHILD MOVE CHILD
//! ...` (moves in the engine's notation, `d1c2` or `pass`; at least one edge). Nothing may follow
//! the last node line. Every node must be reached from a claim.
//!
//! The module itself knows only the format and the rules' types; the checker ([`check`]) adds
//! the rules and the tables' probes. The search writes certificates through [`Builder`], which a
//! merger also uses to graft certificates of other positions under a tree of its own
//! ([`Builder::import`]).

pub mod check;

use std::fmt;

use thiserror::Error;

use crate::games::format::slash;
use crate::games::notation::MoveText;
use crate::games::{Game, GameKind, Side};
use crate::score::Score;

pub use check::{Checked, check};

/// The first word of a certificate file.
pub const FORMAT: &str = "boardgames-certificate";

/// The version of the format this module reads and writes.
pub const VERSION: u32 = 1;

/// The id of a node: its place in [`Certificate::nodes`] (and its line among the node lines).
pub type NodeId = u32;

/// Win, draw or loss, for a side named by the context (the side to move at a leaf).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    /// A loss.
    Loss,
    /// A draw.
    Draw,
    /// A win.
    Win,
}

impl Value {
    /// The same result seen by the other side.
    pub fn flip(self) -> Value {
        match self {
            Value::Loss => Value::Win,
            Value::Draw => Value::Draw,
            Value::Win => Value::Loss,
        }
    }

    /// `win`, `draw` or `loss`.
    pub fn name(self) -> &'static str {
        match self {
            Value::Loss => "loss",
            Value::Draw => "draw",
            Value::Win => "win",
        }
    }

    /// Reads `win`, `draw` or `loss`.
    pub fn parse(text: &str) -> Option<Value> {
        match text {
            "loss" => Some(Value::Loss),
            "draw" => Some(Value::Draw),
            "win" => Some(Value::Win),
            _ => None,
        }
    }

    /// The value for `side` of a game that `winner` won (`None`: a draw).
    pub fn for_side(winner: Option<Side>, side: Side) -> Value {
        match winner {
            None => Value::Draw,
            Some(w) if w == side => Value::Win,
            Some(_) => Value::Loss,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a claim's side gets at least: a win, or a draw (a win satisfies it too).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// At least a draw.
    Draw,
    /// A win.
    Win,
}

impl Level {
    /// `win` or `draw`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Draw => "draw",
            Level::Win => "win",
        }
    }

    /// Whether `value` (for the claim's side) reaches this level.
    pub fn reached_by(self, value: Value) -> bool {
        match self {
            Level::Win => value == Value::Win,
            Level::Draw => value != Value::Loss,
        }
    }
}

/// "`side` gets at least `level` from the root position", proved by the tree below `root`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Claim {
    /// The side the claim is for.
    pub side: Side,
    /// What it gets at least.
    pub level: Level,
    /// The node the tree starts at (the root position's node).
    pub root: NodeId,
}

impl Claim {
    /// The claims that state `value` of the root for `mover`, its side to move, with their trees
    /// at `root`: a win is (mover, win), a loss (the other side, win), a draw (White, draw) and
    /// (Black, draw).
    pub fn of_value(value: Value, mover: Side, root: NodeId) -> Vec<Claim> {
        let claim = |side, level| Claim { side, level, root };
        match value {
            Value::Win => vec![claim(mover, Level::Win)],
            Value::Loss => vec![claim(mover.opposite(), Level::Win)],
            Value::Draw => vec![
                claim(Side::White, Level::Draw),
                claim(Side::Black, Level::Draw),
            ],
        }
    }
}

impl fmt::Display for Claim {
    /// `white gets at least a win from node 0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} gets at least a {} from node {}",
            self.side,
            self.level.name(),
            self.root
        )
    }
}

/// A leaf: where the tree ends, with its value for the side to move as written in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Leaf {
    /// The game is over by the rules, or the side to move has no legal move.
    End(Value),
    /// A position the tables cover.
    Table(Value),
}

impl Leaf {
    /// The value written for the side to move.
    pub fn value(self) -> Value {
        match self {
            Leaf::End(v) | Leaf::Table(v) => v,
        }
    }
}

/// The leaf `pos` is to a proof, if it is one, as the proof search sees its leaves: over by the
/// board, covered by `probe` (the tables), or without a legal move (a loss), in that order.
pub fn settled<G, P>(pos: &G, probe: Option<&P>) -> Option<Leaf>
where
    G: Game,
    P: Fn(&G) -> Option<Score> + ?Sized,
{
    let mover = pos.side_to_move();
    if let Some(outcome) = pos.board_outcome() {
        return Some(Leaf::End(Value::for_side(outcome.winner(), mover)));
    }
    if let Some(score) = probe.and_then(|p| p(pos)) {
        return Some(Leaf::Table(match score {
            Score::Win(_) => Value::Win,
            Score::Loss(_) => Value::Loss,
            _ => Value::Draw,
        }));
    }
    (pos.count_moves() == 0).then_some(Leaf::End(Value::Loss))
}

/// A node of a certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// The tree ends here.
    Leaf(Leaf),
    /// Moves from here, each with the node of the position it leads to.
    Inner(Vec<(MoveText, NodeId)>),
}

/// The root's value that a certificate's claims state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Claimed {
    /// The side wins.
    Win(Side),
    /// Neither side can force a win.
    Draw,
    /// The side gets at least a draw (the claims say nothing more).
    AtLeastDraw(Side),
}

impl Claimed {
    /// The value for `side`, when the claims decide it.
    pub fn value_for(self, side: Side) -> Option<Value> {
        match self {
            Claimed::Win(w) => Some(Value::for_side(Some(w), side)),
            Claimed::Draw => Some(Value::Draw),
            Claimed::AtLeastDraw(_) => None,
        }
    }
}

impl fmt::Display for Claimed {
    /// `win for white`, `draw`, `white gets at least a draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Claimed::Win(s) => write!(f, "win for {s}"),
            Claimed::Draw => f.write_str("draw"),
            Claimed::AtLeastDraw(s) => write!(f, "{s} gets at least a draw"),
        }
    }
}

/// A certificate: a root position, its claims and the nodes of their trees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The game (Oska or Hexapawn).
    pub game: GameKind,
    /// Its size.
    pub size: usize,
    /// The root board, rows joined by `/`.
    pub board: String,
    /// The side to move at the root.
    pub side: Side,
    /// What the trees prove.
    pub claims: Vec<Claim>,
    /// The nodes, node `k` at index `k`.
    pub nodes: Vec<Node>,
    /// The line of each node in the file it was read from or will be written to (from 1).
    lines: Vec<usize>,
}

/// The size of a certificate as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Size {
    /// Bytes of its text.
    pub bytes: usize,
    /// Nodes, leaves included.
    pub nodes: usize,
    /// Leaves.
    pub leaves: usize,
}

impl fmt::Display for Size {
    /// `N nodes, L leaves, B bytes`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} nodes, {} leaves, {} bytes",
            self.nodes, self.leaves, self.bytes
        )
    }
}

/// Where in a certificate a check failed: the claim, the node, its line and the moves from the
/// root that reached it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The claim being checked (from 1, as the header lists them).
    pub claim: usize,
    /// The claim's text.
    pub claim_text: String,
    /// The node.
    pub node: NodeId,
    /// Its line in the file (from 1).
    pub line: usize,
    /// The moves from the root to it.
    pub path: Vec<String>,
}

impl fmt::Display for Place {
    /// `claim 1 (white gets at least a win from node 0), node 5 (line 13), after a1a2 b3b2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "claim {} ({}), node {} (line {}), ",
            self.claim, self.claim_text, self.node, self.line
        )?;
        if self.path.is_empty() {
            f.write_str("at the root")
        } else {
            write!(f, "after {}", self.path.join(" "))
        }
    }
}

/// Why a certificate could not be read, built or checked.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CertificateError {
    /// The text is not a certificate of this format.
    #[error("line {line}: {why}")]
    Syntax {
        /// The line (from 1).
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// The certificate as a whole is unusable (its game, its root, its claims).
    #[error("{0}")]
    Invalid(String),
    /// A check of a node failed.
    #[error("{place}: {why}")]
    Refused {
        /// Where.
        place: Box<Place>,
        /// What is wrong.
        why: String,
    },
    /// A table leaf, and no tables to check it against.
    #[error("{place}: a table leaf, and no tables were given to check it against")]
    NeedsTables {
        /// Where.
        place: Box<Place>,
    },
    /// A node that no claim reaches.
    #[error("node {node} (line {line}) is not reached from any claim")]
    Unreached {
        /// The node.
        node: NodeId,
        /// Its line.
        line: usize,
    },
    /// The builder was given a node id it does not hold.
    #[error("no node {node}: the builder holds nodes 0 to {}", *count as i64 - 1)]
    NoSuchNode {
        /// The id given.
        node: NodeId,
        /// Nodes held.
        count: usize,
    },
}

/// Lines before the first node line: the five of the position, the claims, `nodes N`.
fn header_lines(claims: usize) -> usize {
    1 + 4 + claims + 1
}

impl Certificate {
    /// The line of node `id` in its file (from 1), or 0 for an id it does not hold.
    pub fn line_of(&self, id: NodeId) -> usize {
        self.lines.get(id as usize).copied().unwrap_or(0)
    }

    /// What the claims say of the root: a win claim gives a win, two draw claims a draw, one
    /// draw claim "at least a draw". `None` for no claim, or claims that contradict each other
    /// (both sides winning).
    pub fn claimed(&self) -> Option<Claimed> {
        let win = |s: Side| {
            self.claims
                .iter()
                .any(|c| c.side == s && c.level == Level::Win)
        };
        let any = |s: Side| self.claims.iter().any(|c| c.side == s);
        match (win(Side::White), win(Side::Black)) {
            (true, true) => None,
            (true, false) => Some(Claimed::Win(Side::White)),
            (false, true) => Some(Claimed::Win(Side::Black)),
            (false, false) => match (any(Side::White), any(Side::Black)) {
                (true, true) => Some(Claimed::Draw),
                (true, false) => Some(Claimed::AtLeastDraw(Side::White)),
                (false, true) => Some(Claimed::AtLeastDraw(Side::Black)),
                (false, false) => None,
            },
        }
    }

    /// Nodes and leaves (the bytes are counted by [`Certificate::write`]).
    fn counts(&self) -> (usize, usize) {
        let leaves = self
            .nodes
            .iter()
            .filter(|n| matches!(n, Node::Leaf(_)))
            .count();
        (self.nodes.len(), leaves)
    }

    /// The text of the certificate (see the module's documentation) and its size.
    pub fn write(&self) -> (String, Size) {
        use std::fmt::Write as _;
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = writeln!(out, "{FORMAT} {VERSION}");
        let _ = writeln!(out, "game {}", self.game);
        let _ = writeln!(out, "size {}", self.size);
        let _ = writeln!(out, "board {}", self.board);
        let _ = writeln!(out, "side {}", self.side.letter());
        for c in &self.claims {
            let _ = writeln!(out, "claim {} {} {}", c.side, c.level.name(), c.root);
        }
        let _ = writeln!(out, "nodes {}", self.nodes.len());
        for (id, node) in self.nodes.iter().enumerate() {
            let _ = write!(out, "{id}");
            match node {
                Node::Leaf(Leaf::End(v)) => {
                    let _ = write!(out, " end {v}");
                }
                Node::Leaf(Leaf::Table(v)) => {
                    let _ = write!(out, " table {v}");
                }
                Node::Inner(edges) => {
                    for (mv, child) in edges {
                        let _ = write!(out, " {mv} {child}");
                    }
                }
            }
            out.push('\n');
        }
        let (nodes, leaves) = self.counts();
        let size = Size {
            bytes: out.len(),
            nodes,
            leaves,
        };
        (out, size)
    }

    /// Reads a certificate's text (see the module's documentation). An error names the line
    /// and what is wrong with it; the trees are not checked (see [`check()`]).
    pub fn parse(text: &str) -> Result<Certificate, CertificateError> {
        let all: Vec<&str> = text.split('\n').collect();
        let mut at = 0;
        let bad = |line: usize, why: String| CertificateError::Syntax { line, why };
        // The next line (its number from 1 and its fields); a missing or empty line is an error
        // naming what was due there.
        let mut next = |what: &str| -> Result<(usize, Vec<&str>), CertificateError> {
            let n = at + 1;
            match all.get(at) {
                Some(l) if !l.is_empty() => {
                    at += 1;
                    Ok((n, l.split(' ').collect()))
                }
                Some(_) if at + 1 < all.len() => {
                    Err(bad(n, format!("an empty line where {what} was due")))
                }
                _ => Err(bad(n, format!("the text ends where {what} was due"))),
            }
        };
        let (n, first) = next("the format's name")?;
        if first != [FORMAT, &VERSION.to_string()] {
            return Err(bad(
                n,
                format!(
                    "not a certificate: the first line must be '{FORMAT} {VERSION}', not '{}'",
                    shown(&first.join(" "))
                ),
            ));
        }
        // `KEY VALUE` lines of the header.
        let mut field = |key: &str| -> Result<(usize, String), CertificateError> {
            let (n, f) = next(&format!("'{key} ...'"))?;
            match f.as_slice() {
                [k, v] if *k == key => Ok((n, v.to_string())),
                _ => Err(bad(
                    n,
                    format!("expected '{key} VALUE', found '{}'", shown(&f.join(" "))),
                )),
            }
        };
        let (n, game) = field("game")?;
        let game = GameKind::ALL
            .into_iter()
            .find(|g| g.name() == game)
            .ok_or_else(|| {
                bad(
                    n,
                    format!("'{}' is not a game: oska or hexapawn", shown(&game)),
                )
            })?;
        let (n, size) = field("size")?;
        let size =
            number(&size).ok_or_else(|| bad(n, format!("'{}' is not a size", shown(&size))))?;
        let (_, board) = field("board")?;
        let (n, side) = field("side")?;
        let side = match side.as_str() {
            "w" => Side::White,
            "b" => Side::Black,
            _ => return Err(bad(n, format!("'{}' is not a side: w or b", shown(&side)))),
        };
        let mut claims = Vec::new();
        let count = loop {
            let (n, f) = next("a claim or 'nodes N'")?;
            match f.as_slice() {
                ["claim", s, level, root] => {
                    let side = match *s {
                        "white" => Side::White,
                        "black" => Side::Black,
                        _ => {
                            return Err(bad(
                                n,
                                format!("'{}' is not a side: white or black", shown(s)),
                            ));
                        }
                    };
                    let level = match *level {
                        "win" => Level::Win,
                        "draw" => Level::Draw,
                        _ => {
                            return Err(bad(
                                n,
                                format!("'{}' is not a level: win or draw", shown(level)),
                            ));
                        }
                    };
                    let root = node_id(root)
                        .ok_or_else(|| bad(n, format!("'{}' is not a node id", shown(root))))?;
                    claims.push(Claim { side, level, root });
                }
                ["nodes", count] => {
                    break number(count).ok_or_else(|| {
                        bad(n, format!("'{}' is not a number of nodes", shown(count)))
                    })?;
                }
                _ => {
                    return Err(bad(
                        n,
                        format!(
                            "expected 'claim SIDE LEVEL ROOT' or 'nodes N', found '{}'",
                            shown(&f.join(" "))
                        ),
                    ));
                }
            }
        };
        if claims.is_empty() {
            return Err(bad(header_lines(0), "no claim before 'nodes N'".into()));
        }
        let mut nodes = Vec::with_capacity(count.min(1 << 24));
        let mut node_lines = Vec::with_capacity(count.min(1 << 24));
        for id in 0..count {
            let (n, f) = next(&format!("node {id} (of {count})"))?;
            if f[0] != id.to_string() {
                return Err(bad(
                    n,
                    format!(
                        "node {id} was due here (the node lines hold ids 0 to {} in order), found '{}'",
                        count - 1,
                        shown(f[0])
                    ),
                ));
            }
            let node = match &f[1..] {
                ["end", v] | ["table", v] => {
                    let v = Value::parse(v).ok_or_else(|| {
                        bad(
                            n,
                            format!("'{}' is not a value: win, draw or loss", shown(v)),
                        )
                    })?;
                    Node::Leaf(if f[1] == "end" {
                        Leaf::End(v)
                    } else {
                        Leaf::Table(v)
                    })
                }
                [] => return Err(bad(n, format!("node {id} has neither a leaf nor an edge"))),
                edges if edges.len() % 2 == 1 => {
                    return Err(bad(
                        n,
                        format!("node {id}: the edges are pairs MOVE CHILD, and one is cut short"),
                    ));
                }
                edges => {
                    let mut out = Vec::with_capacity(edges.len() / 2);
                    for pair in edges.chunks(2) {
                        let mv = MoveText::parse(pair[0]).map_err(|e| {
                            bad(
                                n,
                                format!("node {id}: '{}' is not a move: {e}", shown(pair[0])),
                            )
                        })?;
                        if pair[0] != mv.to_string() {
                            return Err(bad(
                                n,
                                format!("node {id}: write the move '{}' as {mv}", shown(pair[0])),
                            ));
                        }
                        let child = node_id(pair[1]).ok_or_else(|| {
                            bad(
                                n,
                                format!("node {id}: '{}' is not a node id", shown(pair[1])),
                            )
                        })?;
                        out.push((mv, child));
                    }
                    Node::Inner(out)
                }
            };
            nodes.push(node);
            node_lines.push(n);
        }
        // One newline ends the last line; nothing may follow it.
        let end = at;
        if all.len() > end + 1 || all.get(end).is_some_and(|l| !l.is_empty()) {
            return Err(bad(
                end + 1,
                format!("text after the {count} node lines that 'nodes {count}' announced"),
            ));
        }
        let cert = Certificate {
            game,
            size,
            board,
            side,
            claims,
            nodes,
            lines: node_lines,
        };
        Ok(cert)
    }
}

/// A number written with digits only.
fn number(text: &str) -> Option<usize> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// A node id written with digits only.
fn node_id(text: &str) -> Option<NodeId> {
    number(text).and_then(|n| NodeId::try_from(n).ok())
}

/// At most 40 characters of a field, without control characters, for a message.
fn shown(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(40)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.chars().count() > 40 {
        out.push_str("...");
    }
    out
}

/// Builds a certificate node by node: children before their parents, so that every edge points
/// at a node that exists (and no cycle can be built); then [`Builder::finish`] with the claims.
#[derive(Clone, Debug)]
pub struct Builder {
    game: GameKind,
    size: usize,
    board: String,
    side: Side,
    nodes: Vec<Node>,
}

impl Builder {
    /// A builder for a certificate whose root is `pos`.
    pub fn for_position<G: Game>(pos: &G) -> Builder {
        Builder {
            game: G::KIND,
            size: pos.size(),
            board: slash(pos),
            side: pos.side_to_move(),
            nodes: Vec::new(),
        }
    }

    /// Nodes added so far.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether no node was added yet.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The id the next node will get.
    fn next_id(&self) -> NodeId {
        self.nodes.len() as NodeId
    }

    /// Adds a leaf; returns its id.
    pub fn leaf(&mut self, leaf: Leaf) -> NodeId {
        let id = self.next_id();
        self.nodes.push(Node::Leaf(leaf));
        id
    }

    /// Adds an inner node with its edges, whose children must have been added; returns its id.
    pub fn inner(&mut self, edges: Vec<(MoveText, NodeId)>) -> Result<NodeId, CertificateError> {
        for &(_, child) in &edges {
            self.known(child)?;
        }
        let id = self.next_id();
        self.nodes.push(Node::Inner(edges));
        Ok(id)
    }

    fn known(&self, node: NodeId) -> Result<(), CertificateError> {
        if (node as usize) < self.nodes.len() {
            Ok(())
        } else {
            Err(CertificateError::NoSuchNode {
                node,
                count: self.nodes.len(),
            })
        }
    }

    /// Adds every node of `other` (a certificate of some position below this one's root, of
    /// the same game and size), with their ids moved past the nodes held so far; returns the
    /// new ids of `other`'s claims' roots, in its claims' order. The caller points edges of its
    /// own nodes at them.
    pub fn import(&mut self, other: &Certificate) -> Result<Vec<NodeId>, CertificateError> {
        if (other.game, other.size) != (self.game, self.size) {
            return Err(CertificateError::Invalid(format!(
                "cannot import a certificate of {} {} into one of {} {}",
                other.game, other.size, self.game, self.size
            )));
        }
        let offset = self.next_id();
        let total = offset as u64 + other.nodes.len() as u64;
        if total > NodeId::MAX as u64 {
            return Err(CertificateError::Invalid(format!(
                "{total} nodes do not fit the format's ids"
            )));
        }
        for (id, node) in other.nodes.iter().enumerate() {
            let moved = match node {
                Node::Leaf(l) => Node::Leaf(*l),
                Node::Inner(edges) => {
                    let mut out = Vec::with_capacity(edges.len());
                    for &(mv, child) in edges {
                        if child as usize >= other.nodes.len() {
                            return Err(CertificateError::Invalid(format!(
                                "the certificate imported has an edge from node {id} to node \
                                 {child}, which it does not hold"
                            )));
                        }
                        out.push((mv, child + offset));
                    }
                    Node::Inner(out)
                }
            };
            self.nodes.push(moved);
        }
        Ok(other.claims.iter().map(|c| c.root + offset).collect())
    }

    /// The certificate with `claims`, each of whose roots must have been added; the nodes no
    /// claim reaches are dropped.
    pub fn finish(self, claims: Vec<Claim>) -> Result<Certificate, CertificateError> {
        for c in &claims {
            self.known(c.root)?;
        }
        if claims.is_empty() {
            return Err(CertificateError::Invalid(
                "a certificate needs a claim".into(),
            ));
        }
        // Only the nodes a claim reaches are kept (an imported certificate may hold trees no
        // claim uses), renumbered in their order: children still come before parents.
        let mut reached = vec![false; self.nodes.len()];
        let mut stack: Vec<NodeId> = claims.iter().map(|c| c.root).collect();
        while let Some(id) = stack.pop() {
            if std::mem::replace(&mut reached[id as usize], true) {
                continue;
            }
            if let Node::Inner(edges) = &self.nodes[id as usize] {
                stack.extend(edges.iter().map(|&(_, child)| child));
            }
        }
        let mut renumber = vec![0 as NodeId; self.nodes.len()];
        let mut nodes = Vec::new();
        for (id, node) in self.nodes.into_iter().enumerate() {
            if !reached[id] {
                continue;
            }
            renumber[id] = nodes.len() as NodeId;
            nodes.push(match node {
                Node::Inner(edges) => Node::Inner(
                    edges
                        .into_iter()
                        .map(|(mv, child)| (mv, renumber[child as usize]))
                        .collect(),
                ),
                leaf => leaf,
            });
        }
        let claims: Vec<Claim> = claims
            .into_iter()
            .map(|c| Claim {
                root: renumber[c.root as usize],
                ..c
            })
            .collect();
        let first = header_lines(claims.len()) + 1;
        let lines = (0..nodes.len()).map(|i| first + i).collect();
        Ok(Certificate {
            game: self.game,
            size: self.size,
            board: self.board,
            side: self.side,
            claims,
            nodes,
            lines,
        })
    }
}

#[cfg(test)]
mod tests;
