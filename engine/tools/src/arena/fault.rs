//! What went wrong with an engine during a game, as the referee names it.

use std::fmt;

use crate::client::ClientError;

/// What went wrong with an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FaultKind {
    /// It could not be started, failed the handshake or refused its setup.
    FailedStart,
    /// It exited, or closed its output or input while it kept running.
    Crash,
    /// It did not answer in time.
    Stall,
    /// It overran its clock (time control) by more than its margin.
    TimeForfeit,
    /// Its `bestmove` is not a legal move of the position.
    IllegalMove,
    /// It wrote a line that is not a protocol reply.
    Protocol,
}

impl FaultKind {
    /// The words used in reasons: `failed start`, `crash`, `stall`, `time forfeit`,
    /// `illegal move`, `protocol violation`.
    pub fn as_str(self) -> &'static str {
        match self {
            FaultKind::FailedStart => "failed start",
            FaultKind::Crash => "crash",
            FaultKind::Stall => "stall",
            FaultKind::TimeForfeit => "time forfeit",
            FaultKind::IllegalMove => "illegal move",
            FaultKind::Protocol => "protocol violation",
        }
    }

    pub(super) fn of(e: &ClientError) -> FaultKind {
        match e {
            ClientError::Spawn { .. } => FaultKind::FailedStart,
            ClientError::Crashed { .. } => FaultKind::Crash,
            ClientError::Stalled { .. } => FaultKind::Stall,
            ClientError::Protocol { .. } => FaultKind::Protocol,
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
