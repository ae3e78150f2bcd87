//! Children that do not outlive this program (Linux only): the parent-death signal, asked for in
//! the child between fork and exec, and one long-lived thread to fork from.
//!
//! The kernel sends the parent-death signal when the *thread* that forked the child ends, not
//! when the process does. A child forked from a thread that ends early (a tokio blocking thread
//! that idles out, a short-lived runtime's thread) would be killed with it. So the client forks
//! every engine on [`on_spawner`]'s thread, which lives as long as the program; the adapter
//! forks its programs on the session's search thread, which lives as long as the session.

use std::io;
use std::panic::AssertUnwindSafe;
use std::sync::OnceLock;
use std::sync::mpsc;
use std::thread;

/// Asks the kernel to SIGKILL this process when the thread that forked it ends (the whole
/// parent process dying included), and fails if the parent process `parent` (its id, read before
/// the fork) is already gone: it died between the fork and here, so the signal would never come,
/// and the child must not run on.
///
/// Only for a `pre_exec` closure (in the forked child, before exec): it makes two system calls
/// and allocates nothing.
pub(crate) fn die_with_parent(parent: u32) -> io::Result<()> {
    // SAFETY: prctl(2) and getppid(2) only change or read this process's attributes.
    unsafe {
        if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
            return Err(io::Error::last_os_error());
        }
        if u32::try_from(libc::getppid()).ok() != Some(parent) {
            return Err(io::Error::from_raw_os_error(libc::ESRCH));
        }
    }
    Ok(())
}

/// A spawn to run on the spawner thread.
type SpawnTask = Box<dyn FnOnce() + Send>;

/// The spawner thread's queue (`None`: the thread could not be started).
static SPAWNER: OnceLock<Option<mpsc::Sender<SpawnTask>>> = OnceLock::new();

/// Runs `job` (a spawn) on one thread that lives as long as the program, started at the first
/// call, and waits for its result. The thread never ends: it waits for the next job, and the
/// queue's sender is never dropped. A job that panics is reported as an error and the thread goes
/// on.
pub(crate) fn on_spawner<T: Send + 'static>(
    job: impl FnOnce() -> T + Send + 'static,
) -> io::Result<T> {
    let spawner = SPAWNER.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<SpawnTask>();
        thread::Builder::new()
            .name("engine-spawner".into())
            .spawn(move || {
                for job in rx {
                    let _ = std::panic::catch_unwind(AssertUnwindSafe(job));
                }
            })
            .ok()
            .map(|_| tx)
    });
    let gone = || io::Error::other("the thread that starts engines is not running");
    let spawner = spawner.as_ref().ok_or_else(gone)?;
    let (done, result) = mpsc::sync_channel(1);
    spawner
        .send(Box::new(move || {
            let _ = done.send(job());
        }))
        .map_err(|_| gone())?;
    result
        .recv()
        .map_err(|_| io::Error::other("starting the engine panicked"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_run_on_one_thread_that_survives_a_panic() {
        let name = || thread::current().name().map(str::to_string);
        let first = on_spawner(move || (name(), thread::current().id())).unwrap();
        assert_eq!(first.0.as_deref(), Some("engine-spawner"));
        let e = on_spawner(|| -> u32 { panic!("a failing job") }).unwrap_err();
        assert!(e.to_string().contains("panicked"), "{e}");
        let again = on_spawner(|| thread::current().id()).unwrap();
        assert_eq!(again, first.1);
    }
}
