//! A toolkit for playing, analysing and solving Oska, Hexapawn and Capture the Flag.
//!
//! - [`games`]: the rules of the three games behind one [`games::Game`] trait, board formats,
//!   move notation and perft.
//! - [`record`]: the game record format shared by the match runner and the GUI.
//! - [`arena`]: match statistics (Elo, LOS, SPRT).

pub mod arena;
pub mod games;
pub mod record;
