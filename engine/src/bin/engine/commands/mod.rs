//! The commands of the `engine` binary, one module each, each with its arguments (`Args`) and
//! its `run`. Each writes its whole answer to stdout only once it has succeeded, so a bad
//! argument leaves stdout empty.

pub mod bench;
pub mod best;
pub mod board_call;
pub mod common;
pub mod movegen;
pub mod perft;
pub mod proof;
pub mod solve;
pub mod tablebase;
