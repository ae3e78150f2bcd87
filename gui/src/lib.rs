//! A desktop program to play Oska, Hexapawn and Capture the Flag against any engine that speaks
//! the protocol (protocol.md), built with eframe/egui.
//!
//! - [`game`]: a game in progress over the rules of [`boardgames_core::games`], whichever game it is.
//! - [`model`]: the game on the table and everything shown about it, without egui or tokio.
//! - [`settings`]: what persists between runs (the set-up, the players, the saved engines, the
//!   recent files).
//! - [`dialogs`]: the native Open and Save dialogs.
//! - [`saving`]: saving without losing another game (the suggested name, the question before
//!   another file is replaced, writing through a temporary file).
//! - [`error`]: the errors of the public functions, one enum per concern.
//! - [`hub`]: the engine hub, owner of the tokio runtime and of every engine process.
//! - [`controller`]: one engine process's actor on that runtime, talking through channels.
//! - [`board`]: drawing the board and finding squares on screen.
//! - [`panels`]: the main window's panels, each a function returning an [`panels::Action`].
//! - [`widgets`]: small widgets the panels and the editor share.
//! - [`analysis`]: the live engine panel and the evaluation graph.
//! - [`tree`]: the search tree explorer over the engine's `info trace` lines.
//! - [`editor`]: the position editor.
//! - [`console`]: the engine console (every line to and from each engine).
//! - [`solve`]: the solver window (`go solve` on an engine of its own).
//! - [`tablebase`]: the tablebase page (exact values read with [`boardgames_core::tablebase`]).
//! - [`review`]: the game review (each move's value before and after, marks, accuracy).
//! - [`tools`]: the dock's tools behind one trait ([`tools::ToolPanel`]).
//! - [`app`]: composes them ([`app::GuiApp`]).

pub mod analysis;
pub mod app;
pub mod board;
pub mod console;
pub mod controller;
pub mod dialogs;
pub mod editor;
pub mod error;
pub mod game;
pub mod hub;
pub mod model;
pub mod panels;
pub mod review;
pub mod saving;
pub mod settings;
pub mod solve;
pub mod tablebase;
pub mod tools;
pub mod tree;
pub mod widgets;

pub use app::GuiApp;
pub use settings::Settings;
