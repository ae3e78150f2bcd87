//! The tree of moves of the game on the table: the main line and its variations.
//!
//! Every node but the root is a move played after its parent's position. A node's first child is
//! its main continuation, the others are variations, in the order they were made. Nodes are kept
//! in one vector and named by their index ([`NodeId`]); a deleted node is only unlinked from its
//! parent, so ids never change while the tree lives.

use boardgames_core::games::Move;
use boardgames_core::score::Score;

/// A node of a [`MoveTree`].
pub type NodeId = usize;

/// The root: the start position, before any move.
pub const ROOT: NodeId = 0;

#[derive(Clone, Debug)]
struct Node {
    /// The move that leads here (`None` at the root).
    mv: Option<Move>,
    /// Its name in the protocol's notation.
    name: String,
    parent: Option<NodeId>,
    children: Vec<NodeId>,
    /// The last score an engine reported for the position here (White's view).
    eval: Option<Score>,
    /// The move's annotation mark (`!`, `?`, `??`; empty: none).
    mark: String,
}

/// The moves played from a start position, as a tree.
#[derive(Clone, Debug)]
pub struct MoveTree {
    nodes: Vec<Node>,
}

impl Default for MoveTree {
    fn default() -> Self {
        MoveTree::new()
    }
}

impl MoveTree {
    /// A tree with only the start.
    pub fn new() -> MoveTree {
        MoveTree {
            nodes: vec![Node {
                mv: None,
                name: String::new(),
                parent: None,
                children: Vec::new(),
                eval: None,
                mark: String::new(),
            }],
        }
    }

    /// The move that leads to `id` (`None` at the root).
    pub fn mv(&self, id: NodeId) -> Option<Move> {
        self.nodes[id].mv
    }

    /// The name of the move that leads to `id` (empty at the root).
    pub fn name(&self, id: NodeId) -> &str {
        &self.nodes[id].name
    }

    /// The node `id` follows.
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.nodes[id].parent
    }

    /// The moves played after `id`: the main continuation first, then the variations.
    pub fn children(&self, id: NodeId) -> &[NodeId] {
        &self.nodes[id].children
    }

    /// The child of `id` reached by `mv`, if it was played.
    pub fn child(&self, id: NodeId, mv: Move) -> Option<NodeId> {
        self.children(id)
            .iter()
            .copied()
            .find(|&c| self.nodes[c].mv == Some(mv))
    }

    /// The node reached by `mv` (named `name`) after `id`: the existing one, or a new last
    /// variation.
    pub fn add(&mut self, id: NodeId, mv: Move, name: &str) -> NodeId {
        if let Some(c) = self.child(id, mv) {
            return c;
        }
        let new = self.nodes.len();
        self.nodes.push(Node {
            mv: Some(mv),
            name: name.to_string(),
            parent: Some(id),
            children: Vec::new(),
            eval: None,
            mark: String::new(),
        });
        self.nodes[id].children.push(new);
        new
    }

    /// The number of moves from the start to `id`.
    pub fn depth(&self, id: NodeId) -> usize {
        self.path(id).len() - 1
    }

    /// The nodes from the root to `id`, both included.
    pub fn path(&self, id: NodeId) -> Vec<NodeId> {
        let mut path = vec![id];
        let mut at = id;
        while let Some(p) = self.nodes[at].parent {
            path.push(p);
            at = p;
        }
        path.reverse();
        path
    }

    /// The line through `id`: the path to it, then its main continuation to the end.
    pub fn line_through(&self, id: NodeId) -> Vec<NodeId> {
        let mut line = self.path(id);
        let mut at = id;
        while let Some(&first) = self.nodes[at].children.first() {
            line.push(first);
            at = first;
        }
        line
    }

    /// The main line: the root and the first continuations to the end.
    pub fn main_line(&self) -> Vec<NodeId> {
        self.line_through(ROOT)
    }

    /// Whether `id` is on the main line.
    pub fn is_main(&self, id: NodeId) -> bool {
        self.path(id)
            .windows(2)
            .all(|w| self.nodes[w[0]].children.first() == Some(&w[1]))
    }

    /// Whether `id` is still in the tree (not deleted with a node above it).
    pub fn contains(&self, id: NodeId) -> bool {
        id < self.nodes.len()
            && self
                .path(id)
                .windows(2)
                .all(|w| self.nodes[w[0]].children.contains(&w[1]))
    }

    /// Makes the line through `id` the main line: every node on its path becomes its parent's
    /// first continuation (the others keep their order).
    pub fn promote(&mut self, id: NodeId) {
        for w in self.path(id).windows(2) {
            let children = &mut self.nodes[w[0]].children;
            if let Some(i) = children.iter().position(|&c| c == w[1]) {
                let c = children.remove(i);
                children.insert(0, c);
            }
        }
    }

    /// Deletes `id` and every move after it; returns its parent. The start cannot be deleted
    /// (`None`). When `id` was the main continuation, the next variation becomes it.
    pub fn delete(&mut self, id: NodeId) -> Option<NodeId> {
        let parent = self.nodes.get(id)?.parent?;
        self.nodes[parent].children.retain(|&c| c != id);
        Some(parent)
    }

    /// The names of the moves from the start to `id`.
    pub fn names(&self, id: NodeId) -> Vec<String> {
        self.path(id)[1..]
            .iter()
            .map(|&n| self.nodes[n].name.clone())
            .collect()
    }

    /// The lines that end a variation (every leaf off the main line), from the start, in the
    /// tree's order: adding them in this order after the main line rebuilds the tree.
    pub fn variations(&self) -> Vec<Vec<String>> {
        let main_end = *self.main_line().last().unwrap_or(&ROOT);
        let mut out = Vec::new();
        let mut stack = vec![ROOT];
        while let Some(id) = stack.pop() {
            let children = &self.nodes[id].children;
            if children.is_empty() && id != main_end {
                out.push(self.names(id));
            }
            stack.extend(children.iter().rev());
        }
        out
    }

    /// The score last reported for the position at `id`.
    pub fn eval(&self, id: NodeId) -> Option<Score> {
        self.nodes[id].eval
    }

    /// Keeps a score reported for the position at `id`.
    pub fn set_eval(&mut self, id: NodeId, score: Score) {
        self.nodes[id].eval = Some(score);
    }

    /// The annotation mark of the move that leads to `id` (`!`, `?`, `??`; empty: none).
    pub fn mark(&self, id: NodeId) -> &str {
        &self.nodes[id].mark
    }

    /// Sets the annotation mark of the move that leads to `id` (empty: none).
    pub fn set_mark(&mut self, id: NodeId, mark: &str) {
        self.nodes[id].mark = mark.to_string();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(from: u8, to: u8) -> Move {
        Move { from, to }
    }

    /// The tree after `1 2 3` (main), `1 4` and `1 4 5` and `6`.
    fn sample() -> (MoveTree, [NodeId; 6]) {
        let mut t = MoveTree::new();
        let a = t.add(ROOT, mv(0, 1), "a");
        let b = t.add(a, mv(1, 2), "b");
        let c = t.add(b, mv(2, 3), "c");
        let d = t.add(a, mv(1, 4), "d");
        let e = t.add(d, mv(4, 5), "e");
        let f = t.add(ROOT, mv(0, 6), "f");
        (t, [a, b, c, d, e, f])
    }

    #[test]
    fn adding_a_played_move_again_reuses_its_node() {
        let (mut t, [a, b, ..]) = sample();
        assert_eq!(t.add(a, mv(1, 2), "b"), b);
        assert_eq!(t.children(a).len(), 2);
    }

    #[test]
    fn lines_paths_and_the_main_line() {
        let (t, [a, b, c, d, e, f]) = sample();
        assert_eq!(t.main_line(), [ROOT, a, b, c]);
        assert_eq!(t.line_through(d), [ROOT, a, d, e]);
        assert_eq!(t.path(e), [ROOT, a, d, e]);
        assert_eq!(t.depth(e), 3);
        assert!(t.is_main(c) && !t.is_main(d) && !t.is_main(f));
        assert_eq!(t.names(e), ["a", "d", "e"]);
        assert_eq!(
            t.variations(),
            [vec!["a", "d", "e"], vec!["f"]],
            "every leaf off the main line, in order"
        );
        let _ = b;
    }

    #[test]
    fn promoting_makes_the_line_main_and_keeps_the_old_main_as_a_variation() {
        let (mut t, [a, b, c, d, e, _]) = sample();
        t.promote(e);
        assert_eq!(t.main_line(), [ROOT, a, d, e]);
        assert_eq!(t.children(a), [d, b]);
        assert!(!t.is_main(c));
        assert_eq!(t.variations()[0], ["a", "b", "c"]);
    }

    #[test]
    fn deleting_unlinks_the_move_and_what_follows() {
        let (mut t, [a, b, c, d, e, f]) = sample();
        assert_eq!(t.delete(d), Some(a));
        assert!(!t.contains(d) && !t.contains(e) && t.contains(c));
        assert_eq!(t.children(a), [b]);
        // Deleting the main continuation makes the next variation the main line.
        assert_eq!(t.delete(a), Some(ROOT));
        assert_eq!(t.main_line(), [ROOT, f]);
        assert_eq!(t.delete(ROOT), None, "the start stays");
    }
}
