//! The tuned weights of the oska evaluator, in the order of its features.
//! Written by `engine tune`; rerun rather than editing by hand.

/// The fitting that produced these weights.
pub const FITTED_BY: &str =
    "engine tune oska oska-4.txt oska-5.txt oska-5-results.txt oska-6-results.txt --seed 1";

/// The feature names the weights belong to (checked against the evaluator by a test).
#[rustfmt::skip]
pub const NAMES: [&str; 15] = ["tempo", "race", "race_lead", "pure_race", "pieces", "jumps", "exposed", "capture_swing", "mobility", "blocked", "must_pass", "home", "count_rule", "contact_pieces", "few_pieces"];

/// One weight a feature.
#[rustfmt::skip]
pub const WEIGHTS: [i32; 15] = [19, 15, 153, 229, -23, -9, 38, 16, 12, -28, 181, -59, -46, 86, -107];
