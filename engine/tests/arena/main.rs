//! The arena, class tournaments, the sandbox and board-call: one test binary.
//!
//! The integration tests are grouped into a few binaries, so that the library is linked a few
//! times rather than once per file; each module was a test binary of its own. Run one module
//! with `cargo test -p engine --test GROUP MODULE::`.

#[path = "../common/mod.rs"]
mod common;

mod arena;
mod arena_trust;
mod board_call;
mod class;
mod containment;
mod grade;
mod sandbox;
