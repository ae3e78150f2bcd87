//! The evaluators of the toolkit's first version, kept unchanged under the name `legacy` so that
//! the tuned evaluators can be measured against them (blunder rates, gauntlets, the README's
//! before-and-after table).

pub mod ctf;
pub mod hexapawn;
pub mod oska;
