//! The codes of `error CODE MESSAGE` and the error of a line that could not be read.

use std::fmt;

use super::*;

/// The codes of `error CODE MESSAGE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// The first word is no command.
    UnknownCommand,
    /// The words do not fit the command's grammar (missing or extra words, not a number, not a
    /// move).
    Syntax,
    /// A value of the right shape but not allowed (number out of range, unknown game name).
    BadValue,
    /// Something this engine does not do (unknown option, unsupported game size).
    Unsupported,
    /// A board, side or history that the rules refuse.
    BadPosition,
    /// A move that is not legal where it is played.
    IllegalMove,
    /// A state-changing command while a search runs.
    Busy,
    /// A line longer than [`MAX_LINE`] bytes, or not UTF-8.
    TooLong,
}

impl ErrorCode {
    /// Every code.
    pub const ALL: [ErrorCode; 8] = [
        ErrorCode::UnknownCommand,
        ErrorCode::Syntax,
        ErrorCode::BadValue,
        ErrorCode::Unsupported,
        ErrorCode::BadPosition,
        ErrorCode::IllegalMove,
        ErrorCode::Busy,
        ErrorCode::TooLong,
    ];

    /// The code as written on the line.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::UnknownCommand => "unknown-command",
            ErrorCode::Syntax => "syntax",
            ErrorCode::BadValue => "bad-value",
            ErrorCode::Unsupported => "unsupported",
            ErrorCode::BadPosition => "bad-position",
            ErrorCode::IllegalMove => "illegal-move",
            ErrorCode::Busy => "busy",
            ErrorCode::TooLong => "too-long",
        }
    }

    /// Reads a code.
    pub fn parse(text: &str) -> Option<ErrorCode> {
        ErrorCode::ALL.into_iter().find(|c| c.as_str() == text)
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A line that could not be read, with the code the engine answers with.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code} {message}")]
pub struct ProtocolError {
    /// The error code.
    pub code: ErrorCode,
    /// What is wrong, naming the failing word.
    pub message: String,
}

impl ProtocolError {
    /// An error with a code and message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ProtocolError {
            code,
            message: message.into(),
        }
    }

    /// The `error` reply for it.
    pub fn to_reply(&self) -> Reply {
        Reply::Error {
            code: self.code,
            message: self.message.clone(),
        }
    }
}
