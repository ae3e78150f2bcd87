//! The errors of the crate's public functions, one enum per concern. Each one's message is the
//! text the window shows (the status line, a dialog, the console), and a typed error of the
//! core it comes from stays its source.

use std::io;
use std::path::PathBuf;

use boardgames_core::clock::TimeControlError;
use boardgames_core::games::{GameKind, PositionError};
use boardgames_core::record::RecordError;
use boardgames_core::tablebase::TablebaseError;

/// A game, position or move the rules refuse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// A new game of a game and size that cannot be started.
    #[error("cannot start that game: {0}")]
    Start(#[source] PositionError),
    /// A position, a record or a move the rules refuse, in their words.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// A variation of a record (counted from 1) that does not replay.
    #[error("variation {number}: {source}")]
    Variation {
        /// The variation, from 1.
        number: usize,
        /// Why it does not replay.
        #[source]
        source: PositionError,
    },
    /// A move that is not among the legal moves of the position.
    #[error("that move is not legal here")]
    IllegalMove,
    /// The position editor's position, which is not a legal one.
    #[error("Not a legal position: {0}")]
    Edited(#[source] PositionError),
}

/// A record file that cannot be read, written or played through.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The system's error.
        #[source]
        source: io::Error,
    },
    /// The file cannot be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The system's error.
        #[source]
        source: io::Error,
    },
    /// The file's text is not records.
    #[error("{}: {source}", path.display())]
    Records {
        /// The file.
        path: PathBuf,
        /// Where and why the records do not read.
        #[source]
        source: RecordError,
    },
    /// The file holds no game.
    #[error("{} holds no game", path.display())]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// The file's first game does not replay by the rules.
    #[error("{}: {source}", path.display())]
    Game {
        /// The file.
        path: PathBuf,
        /// Why the game does not replay.
        #[source]
        source: GameError,
    },
    /// The game on the table cannot be made a record.
    #[error(transparent)]
    Record(#[from] GameError),
}

/// The last session's game, which cannot be restored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// Its text is not records.
    #[error(transparent)]
    Records(#[from] RecordError),
    /// Its text holds no game.
    #[error("the session holds no game")]
    Empty,
    /// Its game does not replay by the rules.
    #[error(transparent)]
    Game(#[from] GameError),
}

/// A time control that does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("clock '{text}': {source}")]
pub struct ClockError {
    /// The text, without blanks at its ends.
    pub text: String,
    /// Why it does not read.
    #[source]
    pub source: TimeControlError,
}

/// A command for an engine, or an engine, that the engine hub refuses.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// White's or Black's engine searches.
    #[error("it is thinking: wait for its move, or Pause first")]
    Thinking,
    /// The analysis engine searches.
    #[error("it is analysing: stop the analysis first")]
    Analysing,
    /// The console's command goes to no engine that takes commands.
    #[error("commands go to White's, Black's or the analysis engine")]
    NoEngine,
    /// The engine the command is for does not run.
    #[error("that engine is not running")]
    NotRunning,
    /// The analysis engine cannot be started: the hub has no runtime.
    #[error("the analysis engine cannot run: no async runtime")]
    NoRuntime,
}

/// A list of saved engines that cannot be saved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineListError {
    /// An engine (counted from 1) without a name.
    #[error("engine {0} has no name")]
    NoName(usize),
    /// Two engines of the same name.
    #[error("two engines are named '{0}'")]
    SameName(String),
    /// An option's name that is not one word.
    #[error("engine '{engine}': the option name '{option}' must be one word")]
    OptionName {
        /// The engine's name.
        engine: String,
        /// The option's name.
        option: String,
    },
}

/// Why the tablebase has no answer about a position.
#[derive(Clone, Debug, thiserror::Error)]
pub enum TableError {
    /// The game has no tables (Capture the Flag).
    #[error(
        "Capture the Flag has no tablebases: the value of its positions depends on the history"
    )]
    NoTables,
    /// The position is none of the game's.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// The tables cannot be read.
    #[error("cannot read the tablebase in {}: {source}", dir.display())]
    Open {
        /// The directory.
        dir: PathBuf,
        /// Why they cannot be read.
        #[source]
        source: TablebaseError,
    },
    /// The directory holds no tables of the game and size.
    #[error(
        "no {kind} {size} tables in {} (build them with: engine tablebase build {kind} {size} \
         --dir {})",
        dir.display(),
        dir.display()
    )]
    Missing {
        /// The game.
        kind: GameKind,
        /// Its size.
        size: usize,
        /// The directory.
        dir: PathBuf,
    },
    /// No table covers the position (or a position after one of its moves).
    #[error(
        "no table in {} covers this position ({white} White and {black} Black pieces)",
        dir.display()
    )]
    Uncovered {
        /// The directory.
        dir: PathBuf,
        /// White's pieces.
        white: usize,
        /// Black's pieces.
        black: usize,
    },
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use super::*;
    use crate::game::GameState;
    use crate::panels::engine_manager::check;
    use crate::settings::{SavedEngine, time_control};

    #[test]
    fn the_messages_are_the_ones_the_window_showed_and_the_core_error_is_the_source() {
        let e = time_control(" 0 ").expect_err("no time");
        assert_eq!(
            e.to_string(),
            "clock '0': the time must be more than 0 seconds"
        );
        assert_eq!(e.source, TimeControlError::NoTime);
        assert!(e.source().is_some());

        let e = GameState::new(GameKind::Oska, 99).map_err(GameError::Start);
        let e = e.expect_err("no such size");
        assert!(
            e.to_string()
                .starts_with("cannot start that game: oska size 99"),
            "{e}"
        );
        let source = e.source().expect("a source");
        assert!(source.downcast_ref::<PositionError>().is_some());

        let named = |name: &str| SavedEngine {
            name: name.into(),
            ..SavedEngine::default()
        };
        let e = check(&[named("a"), named(" ")]).expect_err("no name");
        assert_eq!(e, EngineListError::NoName(2));
        assert_eq!(e.to_string(), "engine 2 has no name");
        let e = check(&[named("a"), named("a ")]).expect_err("twice");
        assert_eq!(e.to_string(), "two engines are named 'a'");

        let e = TableError::Missing {
            kind: GameKind::Oska,
            size: 4,
            dir: PathBuf::from("tb"),
        };
        assert_eq!(
            e.to_string(),
            "no oska 4 tables in tb (build them with: engine tablebase build oska 4 --dir tb)"
        );
        assert_eq!(
            EngineError::NotRunning.to_string(),
            "that engine is not running"
        );
    }

    #[test]
    fn a_file_error_names_the_file_and_keeps_the_system_error() {
        let path = std::env::temp_dir()
            .join("gui-no-such-folder-47")
            .join("g.txt");
        let e = crate::saving::write_replacing(&path, "x").expect_err("no folder");
        assert!(matches!(e, FileError::Write { .. }), "{e:?}");
        let shown = e.to_string();
        assert!(
            shown.starts_with(&format!("cannot write {}: ", path.display())),
            "{shown}"
        );
        let source = e.source().expect("a source");
        assert!(source.downcast_ref::<io::Error>().is_some());
    }
}
