//! The tuned weights of the oska evaluator, in the order of its features.
//! Written by `engine tune`; rerun it rather than editing by hand.

/// The fitting that produced these weights.
pub const FITTED_BY: &str = "engine tune oska oska-4.txt --seed 1";

/// The feature names the weights belong to (checked against the evaluator by a test).
pub const NAMES: [&str; 13] = ["tempo", "race", "race_lead", "pure_race", "pieces", "jumps", "exposed", "capture_swing", "mobility", "blocked", "must_pass", "home", "count_rule"];

/// One weight a feature.
pub const WEIGHTS: [i32; 13] = [217, 198, 140, 344, 53, 7, 147, 177, 113, -123, 188, 54, -191];
