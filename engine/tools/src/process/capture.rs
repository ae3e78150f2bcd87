//! The program's output, read by threads that keep a bounded tail of it (its process group is
//! ended as a whole with [`super::group::ProcessGroup`]).

use std::io::{Read, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// How much of standard output is kept (the answer is at its end).
pub const STDOUT_KEPT: usize = 1 << 20;
/// How much of standard error is kept (for the tail in a failure message).
pub const STDERR_KEPT: usize = 16 << 10;
/// How many lines of standard error a failure message quotes.
const TAIL_LINES: usize = 5;
/// The longest standard error tail a failure message quotes, in characters.
const TAIL_CHARS: usize = 400;
/// How long the output is still read after the program's group has ended (a process that left
/// the group may hold the pipe open forever).
const DRAIN: Duration = Duration::from_secs(1);

/// The end of a stream, kept by a thread that reads it to its end.
pub struct Capture {
    kept: Arc<Mutex<(Vec<u8>, bool)>>,
    done: mpsc::Receiver<()>,
    total: Arc<AtomicU64>,
}

impl Capture {
    /// Reads `stream` on a thread, keeping its last `keep` bytes (at most twice that in memory),
    /// copying everything to our standard error too when `echo` is set.
    pub fn start(mut stream: impl Read + Send + 'static, keep: usize, echo: bool) -> Capture {
        let kept = Arc::new(Mutex::new((Vec::new(), false)));
        let (tx, done) = mpsc::channel();
        let shared = Arc::clone(&kept);
        let total = Arc::new(AtomicU64::new(0));
        let counted = Arc::clone(&total);
        thread::spawn(move || {
            let mut chunk = [0u8; 8192];
            while let Ok(n) = stream.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                counted.fetch_add(n as u64, Ordering::Relaxed);
                if echo {
                    let _ = std::io::stderr().write_all(&chunk[..n]);
                }
                let mut guard = shared.lock().unwrap_or_else(|e| e.into_inner());
                let (buf, cut) = &mut *guard;
                buf.extend_from_slice(&chunk[..n]);
                if buf.len() > 2 * keep {
                    buf.drain(..buf.len() - keep);
                    *cut = true;
                }
            }
            let _ = tx.send(());
        });
        Capture { kept, done, total }
    }

    /// How many bytes were read so far in all.
    pub fn total(&self) -> u64 {
        self.total.load(Ordering::Relaxed)
    }

    /// What was read since the last `take` (at most the bound), as text; the stream goes on
    /// being read. A line cut by the bound is dropped.
    pub fn take(&self) -> String {
        let mut guard = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let (buf, cut) = &mut *guard;
        let text = String::from_utf8_lossy(buf).into_owned();
        let was_cut = *cut;
        buf.clear();
        *cut = false;
        match (was_cut, text.find('\n')) {
            (true, Some(i)) => text[i + 1..].to_string(),
            _ => text,
        }
    }

    /// What was read, once the stream ended (or after a short wait, when something outside the
    /// program's group still holds it open), as text; a line cut by the bound is dropped.
    pub fn finish(self) -> String {
        let _ = self.done.recv_timeout(DRAIN);
        let guard = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let (buf, cut) = &*guard;
        let text = String::from_utf8_lossy(buf);
        match (cut, text.find('\n')) {
            (true, Some(i)) => text[i + 1..].to_string(),
            _ => text.into_owned(),
        }
    }
}

/// `text` on one line: every control character (tab, line break, escape, ...) becomes a space.
/// Other characters are kept: the session writes every line through
/// [`boardgames_core::protocol::printable`], which escapes what is outside printable ASCII once.
pub fn escape(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// The last few non-blank lines of `text`, each on one line ([`escape`]) and joined with ` | `, at
/// most `TAIL_CHARS` characters (an earlier part cut off is shown as `...`); `None` for no
/// such line.
pub fn tail(text: &str) -> Option<String> {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .collect();
    let start = lines.len().saturating_sub(TAIL_LINES);
    let joined = lines[start..]
        .iter()
        .map(|l| escape(l))
        .collect::<Vec<_>>()
        .join(" | ");
    if joined.is_empty() {
        return None;
    }
    let count = joined.chars().count();
    Some(if count > TAIL_CHARS {
        let kept: String = joined.chars().skip(count - TAIL_CHARS + 3).collect();
        format!("...{kept}")
    } else {
        joined
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tails_are_escaped_and_bounded() {
        assert_eq!(tail(""), None);
        assert_eq!(tail("\n  \n"), None);
        let text =
            "1\n2\n3\nTraceback:\n  File \"p.py\"\tx\r\n\nValueError: \u{e9}\x1b[0m \\ end\n";
        assert_eq!(
            tail(text).unwrap(),
            "2 | 3 | Traceback: |   File \"p.py\" x | ValueError: \u{e9} [0m \\ end"
        );
        let long = "x".repeat(1000);
        let t = tail(&long).unwrap();
        assert_eq!(t.chars().count(), TAIL_CHARS);
        assert!(t.starts_with("...x"), "{t}");
    }
}
