//! What the `engine` and `engine-tune` binaries share: the spelling of GAME, SIZE and numbers on
//! the command line, and the convention for answers and errors (a command writes its whole answer
//! at once; a bad argument or a failure is one line on stderr and exit status 1), and the
//! [`subcommands!`] that binds a command's modules to its subcommands. Each binary includes this
//! file as its `cli` module.

use std::fmt::Display;
use std::io::Write;
use std::process::ExitCode;
use std::str::FromStr;

use anyhow::Result;
use boardgames_core::games::GameKind;
use clap::Parser;
use clap::error::ErrorKind;

/// Declares the subcommands of a command, one module each (`Variant(module)`: the module's
/// `Args`, whose doc comment is the subcommand's help, and its `run(Args) -> Result<()>`), as an
/// enum deriving `clap::Subcommand` with a `run` that runs the chosen module's.
///
/// With a `struct Args;` before the enum, it also declares that `Args` (the command's, its doc
/// comment the command's help) holding the chosen subcommand, and the command's `run`.
macro_rules! subcommands {
    (
        $(#[$args_meta:meta])* pub struct Args;
        $(#[$meta:meta])* enum $name:ident { $($variant:ident($module:ident)),+ $(,)? }
    ) => {
        $(#[$args_meta])*
        #[derive(clap::Args, Debug)]
        pub struct Args {
            #[command(subcommand)]
            action: $name,
        }

        /// Runs the chosen subcommand.
        pub fn run(args: Args) -> anyhow::Result<()> {
            args.action.run()
        }

        $crate::cli::subcommands! { $(#[$meta])* enum $name { $($variant($module)),+ } }
    };
    ($(#[$meta:meta])* enum $name:ident { $($variant:ident($module:ident)),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(clap::Subcommand, Debug)]
        enum $name {
            $($variant($module::Args)),+
        }

        impl $name {
            /// Runs the chosen subcommand.
            fn run(self) -> anyhow::Result<()> {
                match self {
                    $(Self::$variant(args) => $module::run(args)),+
                }
            }
        }
    };
}
pub(crate) use subcommands;

/// GAME as the protocol spells it: `oska`, `hexapawn` or `ctf`, lower case.
pub(crate) fn game_kind(text: &str) -> Result<GameKind, String> {
    GameKind::ALL
        .into_iter()
        .find(|g| g.name() == text)
        .ok_or_else(|| format!("'{text}' is not a game: write oska, hexapawn or ctf"))
}

/// A whole number written with decimal digits only (no sign), from `lo` to `hi`.
pub(crate) fn digits<T: FromStr + PartialOrd + Display>(
    text: &str,
    lo: T,
    hi: T,
) -> Result<T, String> {
    let range = || format!("a whole number from {lo} to {hi}, digits only");
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("'{text}' is not {}", range()));
    }
    match text.parse::<T>() {
        Ok(n) if n >= lo && n <= hi => Ok(n),
        _ => Err(format!("{text} is out of range: {}", range())),
    }
}

/// A board size, 3 to 11.
pub(crate) fn board_size(text: &str) -> Result<usize, String> {
    digits(text, 3, 11)
}

/// A transposition table size in MiB, from 1 to the memory free now (see
/// [`boardgames_core::search::check_hash`]).
pub(crate) fn hash_mib(text: &str) -> Result<usize, String> {
    let mib = digits(text, 1, boardgames_core::search::MAX_HASH_MIB)?;
    boardgames_core::search::check_hash(mib).map_err(|e| e.to_string())?;
    Ok(mib)
}

/// Writes a command's whole answer to stdout.
pub fn emit(out: String) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out.as_bytes())?;
    stdout.flush()?;
    Ok(())
}

/// Parses the command line. `--help` and `--version` print and exit 0; any other error prints
/// one line on stderr (the error and the command's usage) and exits 1.
pub fn parse<P: Parser>() -> Result<P, ExitCode> {
    P::try_parse().map_err(|e| {
        if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
            // A binary whose command is required, run without one: its help, and status 1.
            let _ = e.print();
            return ExitCode::FAILURE;
        }
        let text = e.render().to_string();
        // The message is the first paragraph (missing arguments are listed on lines of their
        // own), joined into one line.
        let message: Vec<&str> = text
            .lines()
            .take_while(|l| !l.trim().is_empty())
            .map(str::trim)
            .collect();
        let message = message.join(" ");
        let first = message.strip_prefix("error: ").unwrap_or(&message);
        let usage = text
            .lines()
            .find_map(|l| l.strip_prefix("Usage: "))
            .map_or(String::new(), |u| format!(" (usage: {u}; see --help)"));
        eprintln!("error: {first}{usage}");
        ExitCode::FAILURE
    })
}

/// Reports a command's failure: one line on stderr, exit status 1.
pub fn failure(e: &anyhow::Error) -> ExitCode {
    // The message may quote a file (a set of positions): one line, no control character.
    eprintln!(
        "error: {}",
        boardgames_core::protocol::shown(&format!("{e:#}"))
    );
    ExitCode::FAILURE
}
