//! The engine binary over its command line and protocol, the client and the conformance suite: one test binary.
//!
//! The integration tests are grouped into a few binaries, so that the library is linked a few
//! times rather than once per file; each module was a test binary of its own. Run one module
//! with `cargo test -p engine --test GROUP MODULE::`.

#[path = "../common/mod.rs"]
mod common;

mod cli;
mod client;
mod conformance;
mod error_examples;
mod fuzz;
mod protocol_examples;
mod simple_client;
mod walks;
