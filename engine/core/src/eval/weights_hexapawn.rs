//! The tuned weights of the hexapawn evaluator, in the order of its features.
//! Written by `engine tune`; rerun rather than editing by hand.

/// The fitting that produced these weights.
pub const FITTED_BY: &str = "engine tune hexapawn hexapawn-4.txt hexapawn-5.txt hexapawn-6.txt hexapawn-5-results.txt hexapawn-6-results.txt --seed 1";

/// The feature names the weights belong to (checked against the evaluator by a test).
#[rustfmt::skip]
pub const NAMES: [&str; 17] = ["tempo", "pawns", "advance", "advance2", "passed", "race", "win_next", "threats", "attacked", "blocked", "mobility", "few_moves", "defended", "free_takes", "open_files", "spare", "spare_lead"];

/// One weight a feature.
#[rustfmt::skip]
pub const WEIGHTS: [i32; 17] = [185, 98, 55, 5, 4, 512, 457, 99, 183, -1, 102, -28, -33, 165, -101, -54, 79];
