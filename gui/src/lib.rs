//! A desktop program to play Oska, Hexapawn and Capture the Flag against any engine that speaks
//! the protocol (protocol.md), built with eframe/egui.
//!
//! - [`game`]: a game in progress over the rules of [`engine::games`], whichever game it is.
//! - [`board`]: drawing the board and finding squares on screen.
//! - [`controller`]: engines on a tokio runtime, talking to the UI through channels.
//! - [`analysis`]: the live engine panel, scores from White's view and the evaluation graph.
//! - [`tree`]: the search tree explorer over the engine's `info trace` lines.
//! - [`editor`]: the position editor.
//! - [`console`]: the engine console (every line to and from each engine).
//! - [`solve`]: the solver window (`go solve` on an engine of its own).
//! - [`app`]: the application state and its panels ([`app::GuiApp`]).

pub mod analysis;
pub mod app;
pub mod board;
pub mod console;
pub mod controller;
pub mod editor;
pub mod game;
pub mod solve;
pub mod tree;

pub use app::{GuiApp, Settings};
