//! The tuned weights of the ctf evaluator, in the order of its features.
//! Written by `engine tune`; rerun rather than editing by hand.

/// The fitting that produced these weights.
pub const FITTED_BY: &str =
    "engine tune ctf ctf-4.txt ctf-5-train.txt ctf-5-results.txt ctf-7-results.txt --seed 2";

/// The feature names the weights belong to (checked against the evaluator by a test).
#[rustfmt::skip]
pub const NAMES: [&str; 21] = ["tempo", "pawns", "advance", "flag_to_go", "flag_race", "take_flag", "flag_threats", "stoppers", "guards", "attack", "takes", "mobility", "flag_room", "home_guard", "open_race", "rear", "flag_out", "flag_lines", "safe_take", "hanging", "double_threat"];

/// One weight a feature.
#[rustfmt::skip]
pub const WEIGHTS: [i32; 21] = [-5, 106, -10, -29, 49, 501, -13, -20, 11, 2, 31, -2, 67, 51, 78, 46, 17, 46, 69, -4, -6];
