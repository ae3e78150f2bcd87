//! The tuned weights of the ctf evaluator, in the order of its features.
//! Written by `engine tune`; rerun it rather than editing by hand.

/// The fitting that produced these weights.
pub const FITTED_BY: &str =
    "engine tune ctf ctf-4.txt ctf-5-results.txt ctf-7-results.txt --seed 1";

/// The feature names the weights belong to (checked against the evaluator by a test).
#[rustfmt::skip]
pub const NAMES: [&str; 13] = ["tempo", "pawns", "advance", "flag_to_go", "flag_race", "take_flag", "flag_threats", "stoppers", "guards", "attack", "takes", "mobility", "flag_room"];

/// One weight a feature.
#[rustfmt::skip]
pub const WEIGHTS: [i32; 13] = [-4, 145, -24, 60, 48, 454, -33, 19, 45, 5, 48, 6, 50];
