//! What persists between runs: the set-up of the next new game, the players, the file path, the
//! recent files and whether moves slide.

use std::path::PathBuf;
use std::time::Duration;

use engine::arena::spec::{BOARDCALL_TIMEOUT, DEFAULT_TIMEOUT};
use engine::games::GameKind;
use engine::protocol::Go;
use serde::{Deserialize, Serialize};

use crate::controller::Launch;

/// The key under which the settings are stored between runs.
pub const SETTINGS_KEY: &str = "boardgames-gui-settings";

/// How an engine's search is limited on each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Limit {
    /// Plies.
    Depth,
    /// Nodes.
    Nodes,
    /// Milliseconds.
    MoveTime,
}

impl Limit {
    /// Every limit, in the set-up's order.
    pub const ALL: [Limit; 3] = [Limit::Depth, Limit::Nodes, Limit::MoveTime];

    /// Its name in the set-up.
    pub fn label(self) -> &'static str {
        match self {
            Limit::Depth => "depth",
            Limit::Nodes => "nodes",
            Limit::MoveTime => "movetime (ms)",
        }
    }
}

/// Who plays one side, and with which engine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Player {
    /// An engine plays this side (otherwise a human).
    pub engine: bool,
    /// The engine program; empty for ours (the `engine` next to `gui`, else on the PATH).
    pub program: String,
    /// Its arguments, separated by blanks.
    pub args: String,
    /// How each search is limited.
    pub limit: Limit,
    /// The limit's value.
    pub value: u64,
}

impl Default for Player {
    fn default() -> Self {
        Player {
            engine: false,
            program: String::new(),
            args: String::new(),
            limit: Limit::Depth,
            value: 4,
        }
    }
}

impl Player {
    /// The `go` of one move.
    pub fn go(&self) -> Go {
        let v = self.value.max(1);
        match self.limit {
            Limit::Depth => Go::Depth(u32::try_from(v).unwrap_or(u32::MAX)),
            Limit::Nodes => Go::Nodes(v),
            Limit::MoveTime => Go::MoveTime(v),
        }
    }

    /// How long the engine may take beyond its own limit (`movetime`) before it is given up as
    /// stalled, as `arena` allows: 10 s, or 120 s for a board-call program (its arguments hold
    /// `board-call`), which may be slow plain minimax. A depth or nodes limit has no time of its
    /// own, so the margin is the whole allowance.
    pub fn margin(&self) -> Duration {
        if self.args.split_whitespace().any(|a| a == "board-call") {
            BOARDCALL_TIMEOUT
        } else {
            DEFAULT_TIMEOUT
        }
    }

    /// How to start the engine.
    pub fn launch(&self) -> Launch {
        let program = if self.program.trim().is_empty() {
            default_engine()
        } else {
            PathBuf::from(self.program.trim())
        };
        Launch {
            program,
            args: self.args.split_whitespace().map(str::to_string).collect(),
            patience: self.margin(),
        }
    }
}

/// Our engine: `engine` next to the running executable (the same target directory), else the
/// name `engine`, looked up on the PATH.
pub fn default_engine() -> PathBuf {
    let name = format!("engine{}", std::env::consts::EXE_SUFFIX);
    std::env::current_exe()
        .ok()
        .and_then(|exe| {
            // Test executables live in target/debug/deps; the binaries one level up.
            let dir = exe.parent()?.to_path_buf();
            [dir.join(&name), dir.parent()?.join(&name)]
                .into_iter()
                .find(|p| p.is_file())
        })
        .unwrap_or_else(|| PathBuf::from(name))
}

/// Everything that persists between runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The game of the next new game (`oska`, `hexapawn`, `ctf`).
    pub game: String,
    /// Its size.
    pub size: usize,
    /// White's and Black's players.
    pub players: [Player; 2],
    /// The file path of the last save or open.
    pub path: String,
    /// The files last saved or opened, the latest first (at most [`RECENT_FILES`]).
    pub recent: Vec<String>,
    /// Whether a move played or gone through slides its piece (about 150 ms).
    pub animations: bool,
}

/// How many recent files the settings keep.
pub const RECENT_FILES: usize = 8;

impl Default for Settings {
    fn default() -> Self {
        Settings {
            game: GameKind::Oska.name().into(),
            size: 4,
            players: [
                Player::default(),
                Player {
                    engine: true,
                    ..Player::default()
                },
            ],
            path: "game.txt".into(),
            recent: Vec::new(),
            animations: true,
        }
    }
}

impl Settings {
    /// The chosen game (Oska when the stored name is unknown).
    pub fn kind(&self) -> GameKind {
        GameKind::parse(&self.game).unwrap_or(GameKind::Oska)
    }

    /// Puts `path` first in the recent files (once), keeping at most [`RECENT_FILES`].
    pub fn remember(&mut self, path: &str) {
        self.recent.retain(|p| p != path);
        self.recent.insert(0, path.to_string());
        self.recent.truncate(RECENT_FILES);
    }

    /// Whether White and Black are played by engines.
    pub fn engines(&self) -> [bool; 2] {
        [self.players[0].engine, self.players[1].engine]
    }
}
