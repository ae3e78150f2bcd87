//! What persists between runs: the set-up of the next new game, the players, the saved engines,
//! the analysis engine and its number of lines, the tablebase directory, the file path, the
//! recent files and whether moves slide.

use std::path::PathBuf;
use std::time::Duration;

use boardgames_core::clock::TimeControl;
use boardgames_core::games::GameKind;
use boardgames_core::protocol::Go;
use boardgames_tools::client::{BOARDCALL_TIMEOUT, DEFAULT_TIMEOUT};
use serde::{Deserialize, Serialize};

use crate::controller::Launch;
use crate::error::ClockError;

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
    /// The saved engine that plays (its name in [`Settings::engines`]); empty: the program and
    /// arguments above.
    pub saved: String,
}

impl Default for Player {
    fn default() -> Self {
        Player {
            engine: false,
            program: String::new(),
            args: String::new(),
            limit: Limit::Depth,
            value: 4,
            saved: String::new(),
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
    /// own: the engine is then asked `isready` after each margin of silence and given up when it
    /// does not answer within the margin.
    pub fn margin(&self) -> Duration {
        if self.args.split_whitespace().any(|a| a == "board-call") {
            BOARDCALL_TIMEOUT
        } else {
            DEFAULT_TIMEOUT
        }
    }

    /// How to start the engine typed in the set-up (not a saved one: see
    /// [`Settings::player_launch`]).
    pub fn launch(&self) -> Launch {
        launch_of(&self.program, &self.args, self.margin(), Vec::new())
    }
}

/// How to start `program` (empty: ours) with blank-separated `args`, these options sent after
/// the handshake.
fn launch_of(
    program: &str,
    args: &str,
    patience: Duration,
    options: Vec<(String, String)>,
) -> Launch {
    let program = if program.trim().is_empty() {
        default_engine()
    } else {
        PathBuf::from(program.trim())
    };
    Launch {
        program,
        args: args.split_whitespace().map(str::to_string).collect(),
        patience,
        options,
    }
}

/// An engine saved under a name in the engine manager: its program, arguments, and the options
/// sent with `setoption` after the handshake.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SavedEngine {
    /// The name it is chosen by (unique in the list).
    pub name: String,
    /// The program; empty for ours.
    pub program: String,
    /// Its arguments, separated by blanks.
    pub args: String,
    /// The options set after the handshake, as (name, value), in order.
    pub options: Vec<(String, String)>,
}

impl SavedEngine {
    /// How long it may take beyond its own limit: as [`Player::margin`] says for its arguments.
    pub fn margin(&self) -> Duration {
        Player {
            args: self.args.clone(),
            ..Player::default()
        }
        .margin()
    }

    /// How to start it, its options included.
    pub fn launch(&self) -> Launch {
        launch_of(
            &self.program,
            &self.args,
            self.margin(),
            self.options.clone(),
        )
    }
}

/// Reads a time control as the set-up takes it: empty for none, else `arena`'s `tc=` form.
pub fn time_control(text: &str) -> Result<Option<TimeControl>, ClockError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    TimeControl::parse(text)
        .map(Some)
        .map_err(|source| ClockError {
            text: text.to_string(),
            source,
        })
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

/// The game on the table when the window closed, to be restored on the next start.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Session {
    /// The game as the text of a record file (with its variations and marks); empty: none.
    pub record: String,
    /// Its file, if it has one.
    pub file: String,
    /// Whether it had changes not saved.
    pub unsaved: bool,
    /// The number of moves shown.
    pub view: usize,
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
    /// The saved engines of the engine manager.
    pub engines: Vec<SavedEngine>,
    /// The analysis engine: a saved engine's name; empty: ours.
    pub analysis: String,
    /// How many lines (principal variations) the analysis engine reports: 1 to [`MAX_LINES`].
    pub lines: u32,
    /// The tablebase directory; empty: `$TABLEBASE_PATH`, else `tablebases` (as the engine).
    pub tablebase: String,
    /// The files last saved or opened, the latest first (at most [`RECENT_FILES`]).
    pub recent: Vec<String>,
    /// Whether a move played or gone through slides its piece (about 150 ms).
    pub animations: bool,
    /// The time control of new games, as `arena`'s `tc=` takes it (`5:00+3`: five minutes a
    /// side and 3 s added after each move); empty: no clocks, each engine's limit instead.
    pub clock: String,
    /// The game on the table when the window last closed, restored on start.
    pub session: Session,
    /// The tools open in the dock beside the board (`engines`, `tablebase`, `solver`, `tree`,
    /// `console`, `help`), opened again on start.
    pub tools: Vec<String>,
}

/// How many recent files the settings keep.
pub const RECENT_FILES: usize = 8;

/// The most analysis lines that can be asked for.
pub const MAX_LINES: u32 = 5;

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
            engines: Vec::new(),
            analysis: String::new(),
            lines: 1,
            tablebase: String::new(),
            recent: Vec::new(),
            animations: true,
            clock: String::new(),
            tools: Vec::new(),
            session: Session::default(),
        }
    }
}

impl Settings {
    /// Our engine on both sides (`gui --engines`): not the saved engines or programs chosen in
    /// the set-up; each side keeps its limit.
    pub fn ours_on_both_sides(&mut self) {
        for p in &mut self.players {
            p.engine = true;
            p.program.clear();
            p.args.clear();
            p.saved.clear();
        }
    }

    /// The chosen game (Oska when the stored name is unknown).
    pub fn kind(&self) -> GameKind {
        GameKind::parse(&self.game).unwrap_or(GameKind::Oska)
    }

    /// The time control of new games (`None`: no clocks), or why the setting is not one.
    pub fn time_control(&self) -> Result<Option<TimeControl>, ClockError> {
        time_control(&self.clock)
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

    /// Replaces the saved engines. When the list keeps its length, an engine renamed in place
    /// stays chosen by the sides and the analysis that chose it under its old name.
    pub fn set_engines(&mut self, list: Vec<SavedEngine>) {
        if list.len() == self.engines.len() {
            for (old, new) in self.engines.iter().zip(&list) {
                if old.name == new.name || list.iter().any(|e| e.name == old.name) {
                    continue;
                }
                let chosen = self.players.iter_mut().map(|p| &mut p.saved);
                for name in chosen.chain([&mut self.analysis]) {
                    if *name == old.name {
                        name.clone_from(&new.name);
                    }
                }
            }
        }
        self.engines = list;
    }

    /// The saved engine of this name.
    pub fn saved(&self, name: &str) -> Option<&SavedEngine> {
        self.engines.iter().find(|e| e.name == name)
    }

    /// How to start side `i`'s engine: its saved engine's launch (options included), else the
    /// program and arguments typed in the set-up (also when the saved engine was deleted).
    pub fn player_launch(&self, i: usize) -> Launch {
        let p = &self.players[i];
        match self.saved(&p.saved) {
            Some(e) if !p.saved.is_empty() => e.launch(),
            _ => p.launch(),
        }
    }

    /// The name side `i`'s engine is chosen by: its saved engine's name, else the program as
    /// typed (`engine` for ours).
    pub fn player_label(&self, i: usize) -> String {
        let p = &self.players[i];
        if !p.saved.is_empty() && self.saved(&p.saved).is_some() {
            return p.saved.clone();
        }
        let program = p.program.trim();
        if program.is_empty() {
            "engine (ours)".into()
        } else {
            program.into()
        }
    }

    /// How to start the analysis engine (the saved one chosen, else ours).
    pub fn analysis_launch(&self) -> Launch {
        match self.saved(&self.analysis) {
            Some(e) if !self.analysis.is_empty() => e.launch(),
            _ => Player::default().launch(),
        }
    }

    /// The number of analysis lines, within 1 to [`MAX_LINES`].
    pub fn lines(&self) -> u32 {
        self.lines.clamp(1, MAX_LINES)
    }

    /// The tablebase directory: the setting, else `$TABLEBASE_PATH`, else `tablebases`.
    pub fn tablebase_dir(&self) -> PathBuf {
        let dir = self.tablebase.trim();
        if !dir.is_empty() {
            return PathBuf::from(dir);
        }
        std::env::var_os("TABLEBASE_PATH")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("tablebases"))
    }
}
