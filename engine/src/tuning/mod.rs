//! Measuring and fitting evaluators against exact values: labelled position sets
//! ([`positions`]), the blunder rate of an evaluator at a depth ([`blunders`]), and the
//! logistic fit of an evaluator's weights ([`fit`]). The `engine positions`, `engine blunders`
//! and `engine tune` commands run them.

pub mod blunders;
pub mod fit;
pub mod patterns;
pub mod positions;
pub mod refine;
