//! The evaluators of the toolkit's first version, kept unchanged under the name `legacy` so that
//! the tuned evaluators can be measured against them (blunder rates, gauntlets, the
//! before-and-after table of docs/research/2026-11-24-fitting.md).

pub mod ctf;
pub mod hexapawn;
pub mod oska;
