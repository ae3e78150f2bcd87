//! The search thread: the jobs the session sends it (searches, perft, option changes) and their
//! running on the [`Backend`].

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender};

use super::backend::{Backend, SearchCall};
use super::options::Setting;
use super::replies::Out;
use boardgames_core::games::notation::{MoveText, move_name};
use boardgames_core::games::{AnyLine, MoveList};
use boardgames_core::protocol::{Go, Info, Reply};

/// A job for the search thread.
pub(super) enum Job {
    /// A `go`: a search, or perft, of the line until done or `stop` is set.
    Search {
        line: AnyLine,
        go: Go,
        stop: Arc<AtomicBool>,
    },
    /// An option's new value, for the backend.
    Set(Setting),
    /// A new game: the backend forgets what it learnt.
    Clear,
}

/// The search thread: runs each job in turn, and sends each search's best move on `done`.
pub(super) fn worker<W: Write + Send + 'static>(
    mut backend: impl Backend,
    jobs: Receiver<Job>,
    done: Sender<Option<MoveText>>,
    out: Out<W>,
) {
    for job in jobs {
        match job {
            Job::Set(Setting::Hash(mib)) => backend.resize(mib),
            Job::Set(Setting::Trace(on)) => backend.set_trace(on),
            Job::Set(Setting::Evaluator(kind)) => backend.set_evaluator(kind),
            Job::Set(Setting::Tablebase(dir)) => backend.set_tablebase(dir),
            Job::Set(Setting::MultiPv(n)) => backend.set_multipv(n),
            Job::Set(Setting::Threads(n)) => backend.set_threads(n),
            Job::Clear => backend.clear(),
            Job::Search { line, go, stop } => {
                // A panic (a bug) must not end this thread: the session would then answer every
                // later `go` with `bestmove none` and no word why. It is said, and the search
                // ends without a move; the backend's state is rebuilt by each search.
                let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match go {
                    Go::Perft(depth) => {
                        perft(&line, depth, &stop, &out);
                        None
                    }
                    _ => {
                        let mut report = |info: Info| out.send(&Reply::Info(info));
                        let call = SearchCall {
                            go,
                            stop: &stop,
                            report: &mut report,
                        };
                        let best = backend.search(&line, call);
                        if go == Go::Infinite {
                            while !stop.load(Ordering::Relaxed) {
                                thread::sleep(Duration::from_millis(1));
                            }
                        }
                        boardgames_core::with_game!(l in &line => best.map(|m| MoveText::of(l.current(), m)))
                    }
                }));
                let best = run.unwrap_or_else(|panic| {
                    let why = panic
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_default();
                    out.send(&Reply::Info(Info::String(format!(
                        "the search failed (a bug in the engine): {why}"
                    ))));
                    None
                });
                if done.send(best).is_err() {
                    return;
                }
            }
        }
    }
}

/// `go perft N`: the count of each legal move's subtree, then the total, unless `stop` is set.
fn perft<W: Write>(line: &AnyLine, depth: u32, stop: &AtomicBool, out: &Out<W>) {
    boardgames_core::with_game!(l in line => {
        let mut l = l.clone();
        let pos = *l.current();
        let mut moves = MoveList::new();
        l.legal_moves(&mut moves);
        if depth == 0 {
            out.send(&Reply::Nodes(1));
            return;
        }
        let mut total = 0;
        for &m in moves.as_slice() {
            l.push(m);
            let n = boardgames_core::games::perft::perft_until(&mut l, depth - 1, stop);
            l.pop();
            let n = match n {
                Ok(n) => n,
                Err(boardgames_core::games::perft::Halt::Stopped) => {
                    out.send(&Reply::Info(Info::String("perft stopped".into())));
                    return;
                }
                Err(halt) => {
                    out.send(&Reply::Info(Info::String(format!("perft stopped: {halt}"))));
                    return;
                }
            };
            total += n;
            out.send(&Reply::Perft { mv: move_name(&pos, m), nodes: n });
        }
        out.send(&Reply::Nodes(total));
    })
}
