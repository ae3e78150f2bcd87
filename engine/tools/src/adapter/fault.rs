//! The named ways a submission fails ([`Fault`]), and how an ended program's fault is told
//! from its exit status and its standard error.

use std::fmt;
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;

/// A named way a submission failed; the adapter's `info string` says `board-call: [NAME] ...`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The file did not load, compile, or define the function.
    Load,
    /// The function raised an exception (or signalled a condition).
    Exception,
    /// The interpreter died.
    Crash,
    /// The move took longer than the move timeout.
    Timeout,
    /// It ran out of the memory limit.
    Memory,
    /// It used up its CPU time.
    Cpu,
    /// Its group held more processes than allowed.
    Processes,
    /// It printed more than allowed during a move.
    Output,
    /// Its result is not a board of the game.
    NoBoard,
    /// Its board is not the result of a legal move.
    Illegal,
}

impl Fault {
    /// The name in brackets.
    pub fn as_str(self) -> &'static str {
        match self {
            Fault::Load => "load",
            Fault::Exception => "exception",
            Fault::Crash => "crash",
            Fault::Timeout => "timeout",
            Fault::Memory => "memory",
            Fault::Cpu => "cpu",
            Fault::Processes => "processes",
            Fault::Output => "output",
            Fault::NoBoard => "no board",
            Fault::Illegal => "illegal",
        }
    }

    /// Every fault.
    pub const ALL: [Fault; 10] = [
        Fault::Load,
        Fault::Exception,
        Fault::Crash,
        Fault::Timeout,
        Fault::Memory,
        Fault::Cpu,
        Fault::Processes,
        Fault::Output,
        Fault::NoBoard,
        Fault::Illegal,
    ];

    /// The fault named in a message `... board-call: [NAME] ...`, if any.
    pub fn find_in(text: &str) -> Option<Fault> {
        let rest = &text[text.find("board-call: [")? + "board-call: [".len()..];
        let name = &rest[..rest.find(']')?];
        Fault::ALL.into_iter().find(|f| f.as_str() == name)
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether an error text is about memory running out.
pub(crate) fn about_memory(text: &str) -> bool {
    let t = text.to_ascii_lowercase();
    [
        "memoryerror",
        "heap overflow",
        "heap exhausted",
        "heap-exhausted",
        "out of memory",
        "cannot allocate memory",
        "memory exhausted",
    ]
    .iter()
    .any(|m| t.contains(m))
}

/// A failure with its fault and message.
pub(crate) type Failed = (Fault, String);

/// The fault of a program that ended (`status`, `None` when it could not be waited for) with
/// `stderr` on its standard error: [`Fault::Cpu`] when the CPU limit's signal ended it (in the
/// sandbox, `bwrap` exits with 128 plus the signal's number), [`Fault::Memory`] when it says
/// memory ran out, else [`Fault::Crash`].
pub(crate) fn ended_fault(status: Option<ExitStatus>, stderr: &str) -> Fault {
    let signal = status.and_then(|s| s.signal().or_else(|| s.code().map(|c| c - 128)));
    match signal {
        Some(libc::SIGXCPU) => Fault::Cpu,
        _ if about_memory(stderr) => Fault::Memory,
        _ => Fault::Crash,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults_are_found_in_messages() {
        assert_eq!(
            Fault::find_in(
                "illegal move by x (white): bestmove none (the engine said: board-call: [memory] f: MemoryError)"
            ),
            Some(Fault::Memory)
        );
        assert_eq!(Fault::find_in("crash by x"), None);
    }
}
