//! What the session needs from a search, behind one small trait: the engine's own search
//! ([`super::searcher::SearchBackend`]) and the board-call adapter implement it.

use std::sync::atomic::AtomicBool;

use boardgames_core::eval::EvalKind;
use boardgames_core::games::{AnyLine, GameKind, Move};
use boardgames_core::protocol::{Go, Info, OptionDecl};

/// A search as the session drives it. Implementations run on the session's search thread.
pub trait Backend: Send + 'static {
    /// Sets the transposition table size in MiB (the `Hash` option). A backend without a table
    /// of its own (the board-call adapter's) accepts and ignores it.
    fn resize(&mut self, _hash_mib: usize) {}
    /// Turns the per-node trace on or off (the `Trace` option). A backend that cannot trace
    /// (the board-call adapter's) accepts and ignores it.
    fn set_trace(&mut self, _on: bool) {}
    /// Sets the static evaluator of every search from now on (the `Evaluator` option). Called
    /// only when [`Backend::options`] declares `Evaluator`.
    fn set_evaluator(&mut self, _kind: EvalKind) {}
    /// Sets the tablebase directory of every search from now on (the `TablebasePath` option;
    /// `None` turns probing off). Called only when [`Backend::options`] declares it.
    fn set_tablebase(&mut self, _dir: Option<std::path::PathBuf>) {}
    /// Sets how many principal variations every search from now on reports (the `MultiPV`
    /// option; 1: one). Called only when [`Backend::options`] declares it.
    fn set_multipv(&mut self, _lines: usize) {}
    /// Sets how many threads every search from now on runs on (the `Threads` option; 1: one).
    /// Called only when [`Backend::options`] declares it.
    fn set_threads(&mut self, _threads: usize) {}
    /// The options this backend takes, listed after `uci`: the engine's own
    /// ([`super::options()`]) unless overridden. The session refuses every other option with
    /// `error unsupported`.
    fn options(&self) -> Vec<OptionDecl> {
        super::options()
    }
    /// The games this backend plays, declared after `uci` as `game` lines (each at all its
    /// sizes): all three unless overridden.
    fn games(&self) -> Vec<GameKind> {
        GameKind::ALL.to_vec()
    }
    /// Who searches, for messages such as "the option 'Evaluator' is not supported by a
    /// board-call program".
    fn searched_by(&self) -> &'static str {
        "this engine"
    }
    /// Forgets everything learnt (new game).
    fn clear(&mut self);
    /// Searches the line's position (never a finished game) within the limits of the call's
    /// `go` until they are reached, the result is proven, or its `stop` is set. Reports through
    /// its `report`, and returns the best move (a pass included), which must be legal, or `None`
    /// when it has none to give (the session then answers `bestmove none`).
    fn search(&mut self, line: &AnyLine, call: SearchCall<'_>) -> Option<Move>;
}

/// One `go` as a [`Backend`] gets it.
pub struct SearchCall<'a> {
    /// The limits of the search (never [`Go::Perft`], which the session counts itself).
    pub go: Go,
    /// Set when the search must end as soon as it can (`stop`, `quit`, a new position).
    pub stop: &'a AtomicBool,
    /// Where the search's `info` lines go.
    pub report: &'a mut dyn FnMut(Info),
}
