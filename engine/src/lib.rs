//! A toolkit for playing, analysing and solving Oska, Hexapawn and Capture the Flag.
//!
//! - [`games`]: the rules of the three games behind one [`games::Game`] trait, board formats,
//!   move notation and perft.
//! - [`search`]: alpha-beta search, static evaluators, the search trace and exact solving.

pub mod games;
pub mod search;
