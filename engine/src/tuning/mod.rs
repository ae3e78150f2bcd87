//! Measuring and fitting evaluators against exact values: labelled position sets
//! ([`positions`]), the blunder rate of an evaluator at a depth ([`blunders`]), and the
//! logistic fit of an evaluator's weights ([`fit`], [`patterns`]), and their refinement with
//! the search ([`refine`]) on exact values or on a deeper search's moves ([`teach`]). The
//! `engine positions`, `blunders`, `tune`, `tune-patterns`, `refine-patterns` and
//! `refine-weights` commands run them.

pub mod blunders;
pub mod fit;
pub mod patterns;
pub mod positions;
pub mod refine;
pub mod teach;
