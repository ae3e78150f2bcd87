//! The text form of the search trace: one machine-readable line per visited node, emitted when
//! the node returns (post-order); `crate::search::trace::rebuild` rebuilds the searched tree
//! from such lines.
//!
//! A node's text looks like this (one line, fields separated by single spaces, always in this
//! order); `engine best --trace` prints it after the word `trace`, the protocol after `info trace`,
//! and [`FromStr`] accepts it with or without that leading word:
//!
//! ```text
//! trace iter=2 ply=1 path=c1b2 side=b board=ww-w/w--/--/---/bbbb alpha=-1000001 beta=1000001 value=-35 kind=node cutoff=0 best=a5b4
//! ```
//!
//! - `iter`: the depth of the iterative-deepening iteration the node belongs to;
//! - `ply`: the node's distance from the root; `path`: the moves from the root, comma-separated
//!   (`-` for the root itself);
//! - `side`, `board`: the side to move and the board in the `/`-joined form;
//! - `alpha`, `beta`: the window the node was searched with, from the side to move's view;
//! - `value`: the value the node returned upward (negamax: the side to move's view, so the parent
//!   sees its negation). Wins are `1000000 - k`, losses `-(1000000 - k)`, where `k` counts plies
//!   from the root of the search; other values are static evaluations backed up;
//! - `kind`: `leaf` (static evaluation at the depth limit), `end` (the game is over), `table` (a
//!   transposition-table hit returned a stored value), `node` (its moves were searched; its
//!   children are the lines before it whose path extends its own by one move);
//! - `cutoff`: 1 when the value made the parent stop searching its remaining moves (a beta cutoff
//!   at the parent), else 0;
//! - `best`: the move that produced the value at a `node`, `-` otherwise.

use std::fmt;
use std::str::FromStr;

use crate::games::Side;

/// How a traced node got its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// Static evaluation at the depth limit.
    Leaf,
    /// The game is over in this position.
    End,
    /// A transposition-table entry gave the value.
    Table,
    /// The node's moves were searched.
    Node,
}

impl NodeKind {
    /// The word of the `kind=` field.
    pub fn name(self) -> &'static str {
        match self {
            NodeKind::Leaf => "leaf",
            NodeKind::End => "end",
            NodeKind::Table => "table",
            NodeKind::Node => "node",
        }
    }
}

/// One traced node; [`fmt::Display`] writes it as one line, [`FromStr`] reads that line back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceNode {
    /// The depth of the iteration the node belongs to.
    pub iteration: u32,
    /// Distance from the root in plies.
    pub ply: u32,
    /// The moves from the root, in notation (`d1c2`, `pass`).
    pub path: Vec<String>,
    /// The side to move.
    pub side: Side,
    /// The board in the `/`-joined form.
    pub board: String,
    /// Lower end of the search window (side to move's view).
    pub alpha: i32,
    /// Upper end of the search window.
    pub beta: i32,
    /// The value returned upward (side to move's view).
    pub value: i32,
    /// How the value was obtained.
    pub kind: NodeKind,
    /// Whether the value made the parent stop searching its other moves.
    pub cutoff: bool,
    /// The move that gave the value, for a searched node.
    pub best: Option<String>,
}

impl fmt::Display for TraceNode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() {
            "-".to_string()
        } else {
            self.path.join(",")
        };
        write!(
            f,
            "iter={} ply={} path={} side={} board={} alpha={} beta={} value={} kind={} cutoff={} best={}",
            self.iteration,
            self.ply,
            path,
            self.side.letter(),
            self.board,
            self.alpha,
            self.beta,
            self.value,
            self.kind.name(),
            u8::from(self.cutoff),
            self.best.as_deref().unwrap_or("-")
        )
    }
}

/// What is wrong with a trace line or a set of lines.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TraceError {
    /// A line that is not a trace line.
    #[error("not a trace line: {0}")]
    Syntax(String),
    /// Lines that do not form one searched tree.
    #[error("the trace is not a tree: {0}")]
    Shape(String),
}

impl FromStr for TraceNode {
    type Err = TraceError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = |why: &str| TraceError::Syntax(format!("{why} in '{s}'"));
        let mut words = s.split_whitespace().peekable();
        if words.peek() == Some(&"trace") {
            words.next();
        }
        const KEYS: [&str; 11] = [
            "iter", "ply", "path", "side", "board", "alpha", "beta", "value", "kind", "cutoff",
            "best",
        ];
        let mut vals = [""; 11];
        for (slot, key) in vals.iter_mut().zip(KEYS) {
            let word = words.next().ok_or_else(|| bad(&format!("missing {key}")))?;
            *slot = word
                .strip_prefix(key)
                .and_then(|w| w.strip_prefix('='))
                .ok_or_else(|| bad(&format!("expected {key}=")))?;
        }
        if words.next().is_some() {
            return Err(bad("extra words"));
        }
        let num = |i: usize| -> Result<i64, TraceError> {
            vals[i]
                .parse::<i64>()
                .map_err(|_| bad(&format!("{} is not a number", KEYS[i])))
        };
        let int = |i: usize| -> Result<i32, TraceError> {
            i32::try_from(num(i)?).map_err(|_| bad(&format!("{} out of range", KEYS[i])))
        };
        let uint = |i: usize| -> Result<u32, TraceError> {
            u32::try_from(num(i)?).map_err(|_| bad(&format!("{} out of range", KEYS[i])))
        };
        let path = match vals[2] {
            "-" => Vec::new(),
            p => p.split(',').map(str::to_string).collect(),
        };
        if path.iter().any(String::is_empty) {
            return Err(bad("empty move in path"));
        }
        let side = match vals[3] {
            "w" => Side::White,
            "b" => Side::Black,
            _ => return Err(bad("side must be w or b")),
        };
        let kind = match vals[8] {
            "leaf" => NodeKind::Leaf,
            "end" => NodeKind::End,
            "table" => NodeKind::Table,
            "node" => NodeKind::Node,
            _ => return Err(bad("unknown kind")),
        };
        let cutoff = match vals[9] {
            "0" => false,
            "1" => true,
            _ => return Err(bad("cutoff must be 0 or 1")),
        };
        Ok(TraceNode {
            iteration: uint(0)?,
            ply: uint(1)?,
            path,
            side,
            board: vals[4].to_string(),
            alpha: int(5)?,
            beta: int(6)?,
            value: int(7)?,
            kind,
            cutoff,
            best: (vals[10] != "-").then(|| vals[10].to_string()),
        })
    }
}
