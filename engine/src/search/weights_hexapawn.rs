//! The tuned weights of the hexapawn evaluator, in the order of its features.
//! Written by `engine tune`; rerun it rather than editing by hand.

/// The fitting that produced these weights.
pub const FITTED_BY: &str = "engine tune hexapawn hexapawn-4.txt hexapawn-5.txt hexapawn-6.txt hexapawn-5-results.txt hexapawn-6-results.txt --seed 1";

/// The feature names the weights belong to (checked against the evaluator by a test).
#[rustfmt::skip]
pub const NAMES: [&str; 15] = ["tempo", "pawns", "advance", "advance2", "passed", "race", "win_next", "threats", "attacked", "blocked", "mobility", "few_moves", "defended", "free_takes", "open_files"];

/// One weight a feature.
#[rustfmt::skip]
pub const WEIGHTS: [i32; 15] = [112, 97, 59, 4, 4, 516, 465, 125, 185, -4, 73, -27, -34, 165, -70];
