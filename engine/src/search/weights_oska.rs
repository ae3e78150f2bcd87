//! The tuned weights of the oska evaluator, in the order of its features.
//! Written by `engine tune`; rerun it rather than editing by hand.

/// The fitting that produced these weights.
pub const FITTED_BY: &str = "hand-set starting values";

/// The feature names the weights belong to (checked against the evaluator by a test).
pub const NAMES: [&str; 13] = ["tempo", "race", "race_lead", "pure_race", "pieces", "jumps", "exposed", "capture_swing", "mobility", "blocked", "must_pass", "home", "count_rule"];

/// One weight a feature.
pub const WEIGHTS: [i32; 13] = [10, 30, 40, 3000, 20, 20, -20, 10, 3, -10, 40, 0, 50];
