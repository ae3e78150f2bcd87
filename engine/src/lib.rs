//! A toolkit for playing, analysing and solving Oska, Hexapawn and Capture the Flag.
//!
//! - [`games`]: the rules of the three games behind one [`games::Game`] trait, board formats,
//!   move notation and perft.

pub mod games;
