//! The tuned weights of the ctf evaluator, in the order of its features.
//! Written by `engine tune`; rerun it rather than editing by hand.

/// The fitting that produced these weights.
pub const FITTED_BY: &str = "hand-set starting values";

/// The feature names the weights belong to (checked against the evaluator by a test).
pub const NAMES: [&str; 13] = ["tempo", "pawns", "advance", "flag_to_go", "flag_race", "take_flag", "flag_threats", "stoppers", "guards", "attack", "takes", "mobility", "flag_room"];

/// One weight a feature.
pub const WEIGHTS: [i32; 13] = [10, 100, 4, 25, 20, 5000, -200, -10, 10, 4, 20, 3, 10];
