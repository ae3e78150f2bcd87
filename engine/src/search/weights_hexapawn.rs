//! The tuned weights of the hexapawn evaluator, in the order of its features.
//! Written by `engine tune`; rerun it rather than editing by hand.

/// The fitting that produced these weights.
pub const FITTED_BY: &str = "hand-set starting values";

/// The feature names the weights belong to (checked against the evaluator by a test).
pub const NAMES: [&str; 12] = ["tempo", "pawns", "advance", "advance2", "passed", "race", "win_next", "threats", "attacked", "blocked", "mobility", "few_moves"];

/// One weight a feature.
pub const WEIGHTS: [i32; 12] = [10, 100, 5, 8, 20, 2000, 5000, -500, -30, 0, 5, -20];
