//! The GUI driven as a user drives it: one test binary.
//!
//! The GUI's integration tests are one binary (egui and the engine library are linked once, not
//! once per file), one module per file; run one with `cargo test -p gui --test app MODULE::`.

#[path = "../common/mod.rs"]
mod common;

mod analysis;
mod cli;
mod clocks;
mod defects;
mod dock;
mod engines;
mod issue34;
mod issue49;
mod play;
mod smaller;
mod tools;
mod unsaved;
mod variations;
