//! Running child processes, for the client (an engine) and the board-call adapter (a
//! submission) alike.
//!
//! - `orphans`: children that do not outlive this program (the parent-death signal, one
//!   long-lived thread to fork from).
//! - [`capture`]: a child's output read by threads that keep its end, its process group ended
//!   as a whole, its standard error's tail for messages.
//! - [`cgroup`]: the run folders and pids cgroups of untrusted programs, removed after a killed
//!   adapter.
//! - [`path`]: programs found on `PATH`.
//! - [`contain`]: an engine's descendants end with it: a pids cgroup per engine, and the
//!   arena as a child subreaper that kills what engines leave behind.
//!
//! No file of this folder imports another, but `contain` uses `cgroup`'s cgroups.

pub mod capture;
pub mod cgroup;
#[cfg(target_os = "linux")]
pub mod contain;
#[cfg(target_os = "linux")]
pub(crate) mod orphans;
pub mod path;

pub use path::{find_on_path, on_path};
