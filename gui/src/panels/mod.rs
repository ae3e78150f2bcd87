//! The panels of the main window. Each is a function that draws from the [`Model`] and the
//! [`Settings`] and returns what the person asked for as an [`Action`]; the app applies it.
//!
//! [`Model`]: crate::model::Model
//! [`Settings`]: crate::settings::Settings

pub mod board_area;
pub mod dock;
pub mod engine_manager;
pub mod engines;
pub mod help;
pub mod menu;
pub mod moves;
pub mod path_dialog;
pub mod position;
pub mod question;
pub mod setup;
pub mod status;

use boardgames_core::games::{GameKind, Move, Side};

use crate::console::Role;
use crate::controller::Launch;
use crate::model::NodeId;
use crate::settings::{Player, SavedEngine};
use dock::Tool;

/// What the person asked for in a panel (or with a key).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Start a new game of the set-up's game and size.
    NewGame,
    /// Bring back the last unsaved game that was replaced.
    BringBack,
    /// Change the set-up's game and size (for the next new game).
    SetSetup(GameKind, usize),
    /// Sets the time control of new games (a valid one, or empty for none).
    SetClock(String),
    /// Change a side's player (0 White, 1 Black).
    SetPlayer(usize, Player),
    /// Save the game to its file, or to one chosen in the Save dialog when it has none.
    Save,
    /// Save the game to this file.
    SaveTo(String),
    /// Open the record file at this path.
    OpenFile(String),
    /// Choose a file in the Save dialog, then save there.
    SaveAs,
    /// Choose a file in the Open dialog, then open it.
    OpenDialog,
    /// Open a recent file.
    OpenRecent(String),
    /// Close the window (asks first when the game is not saved).
    Quit,
    /// Open (true) or close a tool's docked panel.
    ShowTool(Tool, bool),
    /// Open a tool's docked panel when it is closed, else close it.
    ToggleTool(Tool),
    /// Replay the `n`th game of the opened file.
    LoadRecord(usize),
    /// Open the "Set position" window.
    OpenPositionDialog,
    /// Start a game from a board typed in a seed format.
    SetPosition(GameKind, String, Side),
    /// Turn the board half a turn.
    Flip,
    /// Analysis on or off.
    ToggleAnalysis,
    /// Open the position editor on the shown position.
    OpenEditor,
    /// The position editor on or off.
    ToggleEditor,
    /// Open the solver window.
    OpenSolver,
    /// Show a note in the status line.
    Note(String),
    /// Show the position after that many moves.
    GoTo(usize),
    /// Show the position at a node of the move tree (the game becomes the line through it).
    GoToNode(NodeId),
    /// Make the line through a node of the move tree the main line.
    Promote(NodeId),
    /// Delete a node of the move tree and every move after it.
    DeleteNode(NodeId),
    /// Take back (to the human's turn against an engine).
    TakeBack,
    /// Play a move after the shown position.
    Play(Move),
    /// Play the best move the board's arrow shows.
    PlayBest,
    /// A square clicked on the board.
    Click(usize),
    /// A piece dragged from one square to another.
    Drag(usize, usize),
    /// Pause (true) or resume engine play.
    Pause(bool),
    /// The thinking engine should move now (`stop`).
    MoveNow,
    /// Open the engine manager.
    OpenEngines,
    /// Replace the saved engines (the engine manager's Apply).
    SetEngines(Vec<SavedEngine>),
    /// Choose the analysis engine (a saved engine's name; empty: ours).
    SetAnalysisEngine(String),
    /// Set how many lines the analysis engine reports (1 to 5).
    SetLines(u32),
    /// Set the tablebase directory (empty: `$TABLEBASE_PATH`, else `tablebases`).
    SetTablebaseDir(String),
    /// Run a traced search of the shown position (the search tree).
    RunTreeSearch,
    /// Solve the shown position (the solver).
    RunSolve,
    /// Stop the running solve.
    StopSolve,
    /// Review the game on the table (the game review).
    StartReview,
    /// Show the position after this many moves of the reviewed line.
    ReviewGoTo(usize),
    /// Send a typed command to the engine of this role (the engine console).
    SendToEngine(Role, String),
    /// Start an engine to read the options of its `uci` reply (the engine manager).
    ReadOptions(String, Launch),
    /// Choose the engine manager's selected engine's program in a file dialog.
    BrowseEngine,
}
