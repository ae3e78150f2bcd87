//! What the session needs from a search, behind one small trait: the engine's own search
//! ([`super::searcher::SearchBackend`]) and the board-call adapter implement it.

use std::sync::atomic::AtomicBool;

use crate::protocol::{Go, Info};

use super::AnyLine;

/// A search as the session drives it. Implementations run on the session's search thread.
pub trait Backend: Send + 'static {
    /// Sets the transposition table size in MiB.
    fn resize(&mut self, hash_mib: usize);
    /// Turns the per-node trace on or off.
    fn set_trace(&mut self, on: bool);
    /// Forgets everything learnt (new game).
    fn clear(&mut self);
    /// Searches the line's position (never a finished game) within the limits of `go` (never
    /// [`Go::Perft`]) until they are reached, the result is proven, or `stop` is set. Reports
    /// through `report`, and returns the best move in protocol notation (`pass` included), which
    /// must be legal.
    fn search(
        &mut self,
        line: &AnyLine,
        go: Go,
        stop: &AtomicBool,
        report: &mut dyn FnMut(Info),
    ) -> String;
}
