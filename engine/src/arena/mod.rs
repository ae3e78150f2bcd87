//! The match runner's parts that do not talk to engines: statistics.

pub mod stats;
