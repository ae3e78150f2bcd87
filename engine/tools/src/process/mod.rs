//! Running child processes, for the client (an engine) and the board-call adapter (a
//! submission) alike.
//!
//! - `orphans`: children that do not outlive this program (the parent-death signal, one
//!   long-lived thread to fork from).
//! - [`group`]: ending children through rustix: a process group as a whole, a single process,
//!   and the cleanups done after a child's exit, registered by the layer that knows what its
//!   children leave (the board-call adapter).
//! - [`capture`]: a child's output read by threads that keep its end, its standard error's tail
//!   for messages.
//! - [`cgroup`]: the run folders and pids cgroups of untrusted programs, removed after a killed
//!   adapter.
//! - [`path`]: programs found on `PATH`.
//! - [`contain`]: an engine's descendants end with it: a pids cgroup per engine, and the
//!   arena as a child subreaper that kills what engines leave behind.
//!
//! The files of this folder import no other, but `cgroup` and `contain` end processes with
//! `group`, and `contain` uses `cgroup`'s cgroups.

pub mod capture;
pub mod cgroup;
#[cfg(target_os = "linux")]
pub mod contain;
pub mod group;
#[cfg(target_os = "linux")]
pub(crate) mod orphans;
pub mod path;

pub use path::{find_on_path, on_path};
