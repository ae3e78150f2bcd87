//! The engine's line protocol (see `protocol.md` at the top of the repository): every message in
//! both directions as a Rust type, read and written in this one place.
//!
//! - [`Command`]: a line from the GUI to the engine. [`Command::parse`] reads one line;
//!   `Display` writes it back in canonical form.
//! - [`Reply`]: a line from the engine to the GUI. [`Reply::parse`] and `Display` likewise.
//!
//! Parsing is purely syntactic: a `position` command's board and moves are checked against the
//! rules by the engine, not here (only their spelling is checked here). A failed parse gives a
//! [`ProtocolError`] whose [`ErrorCode`] is the one the engine answers with.

pub use crate::games::setup::{Setup, SetupBoard};

use crate::games::notation::MoveText;
use crate::games::setup::SetupSyntax;
use crate::games::{GameKind, Side};
use crate::score::Score;

/// The longest line, in bytes without the line ending, that an engine must accept. Longer lines
/// are refused with `error too-long`.
pub const MAX_LINE: usize = 1 << 20;

mod command;
mod errors;
mod info;
mod option;
mod reply;
pub mod trace;
mod words;

pub use command::{Clock, Command, Go};
pub use errors::{ErrorCode, ProtocolError};
pub use info::{Info, ProgressInfo, SearchInfo};
pub use option::{OptionDecl, OptionKind};
pub use reply::{GameResult, Reply};
pub use words::{meaningful, printable, readable, shown};

use words::*;

#[cfg(test)]
mod tests;
