//! The commands of the `engine-tune` binary, one module each, each with its arguments (`Args`)
//! and its `run`.

pub mod blunders;
pub mod common;
pub mod positions;
pub mod refine_patterns;
pub mod refine_weights;
pub mod tune;
pub mod tune_patterns;
