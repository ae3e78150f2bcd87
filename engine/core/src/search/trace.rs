//! The searched tree rebuilt from trace lines ([`rebuild`]). The lines' text form, [`TraceNode`],
//! is the protocol's (see [`crate::protocol::trace`]), re-exported here.

pub use crate::protocol::trace::{NodeKind, TraceError, TraceNode};

use crate::score::MAX_PLY;

/// A node of a rebuilt tree with its children in search order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceTree {
    /// The node's line.
    pub node: TraceNode,
    /// Its children, in the order they were searched.
    pub children: Vec<TraceTree>,
}

impl TraceTree {
    /// Number of nodes in the tree.
    pub fn size(&self) -> usize {
        1 + self.children.iter().map(TraceTree::size).sum::<usize>()
    }

    /// The largest ply in the tree.
    pub fn max_ply(&self) -> u32 {
        self.children
            .iter()
            .map(TraceTree::max_ply)
            .max()
            .unwrap_or(self.node.ply)
    }

    /// The value backed up from the leaves: a leaf's own value, or the largest negated child value.
    /// Checks on the way that every searched node reported exactly that value.
    fn backed_up(&self) -> Result<i32, TraceError> {
        if self.node.kind != NodeKind::Node {
            if !self.children.is_empty() {
                return Err(TraceError::Shape(format!(
                    "a {} node has children: {}",
                    self.node.kind.name(),
                    self.node
                )));
            }
            return Ok(self.node.value);
        }
        let mut best: Option<i32> = None;
        for child in &self.children {
            let v = -child.backed_up()?;
            best = Some(best.map_or(v, |b| b.max(v)));
        }
        let best = best.ok_or_else(|| {
            TraceError::Shape(format!("a searched node has no children: {}", self.node))
        })?;
        if best != self.node.value {
            return Err(TraceError::Shape(format!(
                "node reports {} but its children back up {best}: {}",
                self.node.value, self.node
            )));
        }
        Ok(best)
    }
}

/// Rebuilds the tree of the last iteration found in `lines` (lines of earlier iterations are
/// skipped), checks that every searched node's value is the negamax of its children's, and
/// returns the tree with the root value backed up from the leaves.
///
/// A line deeper than [`MAX_PLY`] plies (which no search of this engine reaches) is refused, so
/// the tree's recursive walks ([`TraceTree::size`], dropping it...) have bounded depth whatever
/// the lines (a trace file may come from anywhere).
pub fn rebuild(lines: &[TraceNode]) -> Result<(TraceTree, i32), TraceError> {
    if let Some(deep) = lines.iter().find(|l| l.ply as usize > MAX_PLY) {
        return Err(TraceError::Shape(format!(
            "ply {} is deeper than the {MAX_PLY} plies a search follows: {deep}",
            deep.ply
        )));
    }
    let last = lines
        .last()
        .ok_or_else(|| TraceError::Shape("no lines".into()))?
        .iteration;
    let start = lines
        .iter()
        .rposition(|l| l.iteration != last)
        .map_or(0, |i| i + 1);
    let mut stack: Vec<TraceTree> = Vec::new();
    for line in &lines[start..] {
        let mut children = Vec::new();
        while stack.last().is_some_and(|t| t.node.ply == line.ply + 1) {
            let child = stack.pop().expect("checked non-empty");
            let extends = child.node.path.len() == line.path.len() + 1
                && child.node.path.starts_with(&line.path);
            if !extends {
                return Err(TraceError::Shape(format!(
                    "{} is not a child of {}",
                    child.node, line
                )));
            }
            children.push(child);
        }
        children.reverse();
        if line.path.len() != line.ply as usize {
            return Err(TraceError::Shape(format!(
                "path length is not the ply: {line}"
            )));
        }
        if stack.last().is_some_and(|t| t.node.ply < line.ply) && line.ply == 0 {
            return Err(TraceError::Shape("nodes left over before the root".into()));
        }
        stack.push(TraceTree {
            node: line.clone(),
            children,
        });
    }
    let root = match stack.as_slice() {
        [root] if root.node.ply == 0 => root.clone(),
        _ => {
            return Err(TraceError::Shape(format!(
                "the last iteration does not end with a single root ({} pieces left)",
                stack.len()
            )));
        }
    };
    let value = root.backed_up()?;
    Ok((root, value))
}
