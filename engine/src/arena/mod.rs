//! The match runner's parts that do not talk to engines: statistics and openings.

pub mod openings;
pub mod stats;
