//! The tablebases: one test binary.
//!
//! The integration tests are grouped into a few binaries, so that the library is linked a few
//! times rather than once per file; each module was a test binary of its own. Run one module
//! with `cargo test -p engine --test GROUP MODULE::`.

#[path = "../common/mod.rs"]
mod common;

mod certificate;
mod proof;
mod tablebase;
mod tablebase_plan;
mod tablebase_trust;
