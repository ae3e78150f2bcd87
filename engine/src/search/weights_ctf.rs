//! The tuned weights of the ctf evaluator, in the order of its features.
//! Written by `engine tune`; rerun it rather than editing by hand.

/// The fitting that produced these weights.
pub const FITTED_BY: &str =
    "engine tune ctf ctf-4.txt ctf-5-results.txt ctf-7-results.txt --seed 1";

/// The feature names the weights belong to (checked against the evaluator by a test).
#[rustfmt::skip]
pub const NAMES: [&str; 18] = ["tempo", "pawns", "advance", "flag_to_go", "flag_race", "take_flag", "flag_threats", "stoppers", "guards", "attack", "takes", "mobility", "flag_room", "home_guard", "open_race", "rear", "flag_out", "flag_lines"];

/// One weight a feature.
#[rustfmt::skip]
pub const WEIGHTS: [i32; 18] = [-2, 121, -12, -25, 36, 337, -13, -8, 14, 1, 53, -3, 73, 63, 63, 46, 21, 50];
