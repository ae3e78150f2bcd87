//! Time management for `go wtime ...`: how long to think on a clock.
//!
//! From the side to move's remaining time `T`, increment `I` and `movestogo` (or, without it,
//! an estimate of [`MOVES_LEFT`] moves still to play, as these games are short), the engine
//! plans a *target* of `usable / moves + 3/4 I`, where `usable` is `T` less a [`OVERHEAD`] for
//! the exchange of lines and the start of the search. Iterative deepening starts no iteration
//! that would likely end past the target. A *hard limit* aborts a running iteration: at most
//! five targets and never more than half the usable time (nine tenths when this is the last
//! move before the time control), so the clock cannot run out while a few moves remain.

use std::time::Duration;

use boardgames_core::games::Side;
use boardgames_core::protocol::Clock;

/// Time kept back on every move for reading the `go`, starting the search, writing the
/// `bestmove` and the referee's reading it, on a loaded machine (milliseconds). The clock is
/// only lost when one exchange is delayed by more than this (measured: delays of more than 60 ms
/// on two cores with a load average of 9).
pub const OVERHEAD: u64 = 100;

/// Moves the side to move expects still to play when the clock does not say (`movestogo`).
pub const MOVES_LEFT: u64 = 20;

/// How long to think on one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Start no iteration that would likely end after this.
    pub target: Duration,
    /// Stop the search at this, whatever it is doing.
    pub hard: Duration,
}

/// The budget of the side to move `side` on `clock`.
pub fn budget(clock: &Clock, side: Side) -> Budget {
    let (time, inc) = clock.of(side);
    let moves = clock.movestogo.map_or(MOVES_LEFT, u64::from).max(1);
    let usable = time.saturating_sub(OVERHEAD);
    let target = (usable / moves).saturating_add(inc.saturating_mul(3) / 4);
    let share = if moves == 1 {
        usable / 10 * 9
    } else {
        usable / 2
    };
    let hard = target.saturating_mul(5).min(share).max(1);
    Budget {
        target: Duration::from_millis(target.clamp(1, hard)),
        hard: Duration::from_millis(hard),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(time: u64, inc: u64, movestogo: Option<u32>) -> Clock {
        Clock {
            wtime: time,
            btime: 7,
            winc: inc,
            binc: 1,
            movestogo,
        }
    }

    fn ms(b: Budget) -> (u128, u128) {
        (b.target.as_millis(), b.hard.as_millis())
    }

    #[test]
    fn sudden_death_with_increment() {
        // 1 s + 10 ms: 900 / 20 + 7 = 52 ms, up to 260 ms.
        assert_eq!(ms(budget(&clock(1000, 10, None), Side::White)), (52, 260));
        // The other side's clock is read for Black.
        assert_eq!(ms(budget(&clock(1000, 10, None), Side::Black)), (1, 1));
    }

    #[test]
    fn never_more_than_half_the_time_left() {
        for time in [0, 1, 5, 10, 11, 20, 50, 100, 1000, 60_000, u64::MAX] {
            for inc in [0, 10, 100, 5000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let b = budget(&clock(time, inc, mtg), Side::White);
                    let usable = time.saturating_sub(OVERHEAD);
                    let cap = if mtg == Some(1) { usable } else { usable / 2 };
                    assert!(
                        b.hard.as_millis() <= u128::from(cap.max(1)),
                        "{time} {inc} {mtg:?}"
                    );
                    assert!(b.target <= b.hard && b.target >= Duration::from_millis(1));
                }
            }
        }
    }

    /// The whole output of a session on `input`.
    fn session(input: &str) -> Vec<String> {
        use std::io::Write;
        use std::sync::{Arc, Mutex};
        #[derive(Clone, Default)]
        struct Sink(Arc<Mutex<Vec<u8>>>);
        impl Write for Sink {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(buf);
                Ok(buf.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let sink = Sink::default();
        let input = std::io::Cursor::new(input.as_bytes().to_vec());
        crate::session::run(
            input,
            sink.clone(),
            crate::session::SearchBackend::default(),
        );
        let out = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        out.lines().map(str::to_string).collect()
    }

    #[test]
    fn the_engine_plays_on_a_clock() {
        // With no time left at all it still answers with a legal move (in 1 ms of search).
        // Black's clock counts after White's first move.
        for input in [
            "newgame ctf 7\ngo wtime 0 btime 0\n",
            "newgame oska 5\nposition startpos moves a1a2\ngo wtime 0 btime 200 binc 10 movestogo 3\n",
        ] {
            let out = session(input);
            let best: Vec<&String> = out.iter().filter(|l| l.starts_with("bestmove")).collect();
            assert_eq!(best.len(), 1, "{out:?}");
            assert_ne!(best[0], "bestmove none", "{out:?}");
            assert!(!out.iter().any(|l| l.starts_with("error")), "{out:?}");
        }
    }

    #[test]
    fn movestogo_spreads_the_time() {
        // 60 s for 40 moves: about 1.5 s a move.
        assert_eq!(
            ms(budget(&clock(60_000, 0, Some(40)), Side::White)),
            (1497, 7485)
        );
        // The last move before the control may use most of what is left.
        assert_eq!(
            ms(budget(&clock(1000, 0, Some(1)), Side::White)),
            (810, 810)
        );
    }
}
