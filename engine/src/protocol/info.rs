//! The `info` lines of a search.

use super::*;

/// The `info depth ...` line of a completed search iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Plies searched.
    pub depth: u32,
    /// Which line this is when the engine reports several (`multipv K`, from 1 = the best;
    /// the `MultiPV` option); `None` when it reports one, which is then printed without it.
    pub multipv: Option<u32>,
    /// The score.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since `go`.
    pub time_ms: u64,
    /// Positions answered by a tablebase (printed as `tbhits N` only when not 0).
    pub tbhits: u64,
    /// The principal variation.
    pub pv: Vec<String>,
}

/// An `info` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// A completed iteration.
    Search(SearchInfo),
    /// `info trace TEXT`: one searched node (when the `Trace` option is on).
    Trace(String),
    /// `info string TEXT`: free text for humans.
    String(String),
    /// Any other `info` line (its text after `info`), which a GUI ignores: engines may add their
    /// own kinds. The text starts with a word other than `depth`, `trace` and `string`.
    Other(String),
}
