//! Perft: the number of move sequences of exactly D plies from a position.
//!
//! A forced pass counts as a ply; play stops at a finished game, so a sequence that ends the game
//! before D plies is not counted. The last ply is bulk-counted (moves are counted, not played)
//! wherever the game allows it.
//!
//! The walk is iterative: an explicit stack of move lists on the heap, not recursion, so a depth
//! of any size (the protocol accepts up to 4294967295) costs no thread stack. Oska and Hexapawn
//! games are short (pieces only move forward), so their walk is as deep as the longest game at
//! most. A Capture the Flag line only ends when no earlier board can be avoided, and may run to
//! hundreds of thousands of plies, so the walk follows lines of at most [`MAX_LINE`] plies and
//! gives up ([`Halt::TooLong`]) rather than grow without bound.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{Game, Line, Move, MoveList};

/// Below this remaining depth a subtree is counted without looking at the stop flag (it is
/// small enough to finish at once).
const CHECK_STOP_FROM: u32 = 3;

/// The longest line (in plies from the counted position) the walk follows: 1 048 576. A line
/// costs about 200 bytes of memory a ply, so this bounds the walk's memory near 200 MiB.
pub const MAX_LINE: usize = 1 << 20;

/// Why a perft gave up before it had counted everything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Halt {
    /// The stop flag was raised.
    Stopped,
    /// A line reached [`MAX_LINE`] plies while more were asked for (Capture the Flag only).
    TooLong,
}

impl fmt::Display for Halt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Halt::Stopped => f.write_str("stopped"),
            Halt::TooLong => write!(
                f,
                "a line reached {MAX_LINE} plies, the longest perft follows; nothing more was counted"
            ),
        }
    }
}

/// Perft of the line's current position to `depth` plies.
///
/// # Panics
///
/// When a line reaches [`MAX_LINE`] plies (only a Capture the Flag perft deeper than that can);
/// [`perft_until`] reports it instead.
pub fn perft<G: Game>(line: &mut Line<G>, depth: u32) -> u64 {
    match perft_until(line, depth, &AtomicBool::new(false)) {
        Ok(n) => n,
        Err(halt) => panic!("perft {depth}: {halt}"),
    }
}

/// Perft that gives up soon after `stop` is set ([`Halt::Stopped`]), or when a line reaches
/// [`MAX_LINE`] plies ([`Halt::TooLong`]). The line is left as it was.
pub fn perft_until<G: Game>(
    line: &mut Line<G>,
    depth: u32,
    stop: &AtomicBool,
) -> Result<u64, Halt> {
    perft_bounded(line, depth, stop, MAX_LINE)
}

/// The moves a position (at the end of the walk's line) may play: a range of the walk's move
/// store, and the next one to play.
struct Frame {
    /// Where the position's moves start in the store (they run to the next frame's start, or to
    /// the store's end for the last frame).
    start: usize,
    /// The next move to play.
    next: usize,
}

/// The number of moves at the end of `line`, or 0 when the game is over: the count of a last
/// ply.
#[inline]
fn count_last<G: Game>(line: &Line<G>, moves: &mut MoveList) -> u64 {
    if G::NO_REPEAT {
        line.legal_moves(moves);
        moves.len() as u64
    } else {
        let pos = line.current();
        if pos.board_outcome().is_some() {
            0
        } else {
            pos.count_moves() as u64
        }
    }
}

/// [`perft_until`] with lines of at most `max_line` plies.
fn perft_bounded<G: Game>(
    line: &mut Line<G>,
    depth: u32,
    stop: &AtomicBool,
    max_line: usize,
) -> Result<u64, Halt> {
    if depth == 0 {
        return Ok(1);
    }
    let mut moves = MoveList::new();
    if depth == 1 {
        return Ok(count_last(line, &mut moves));
    }
    if depth >= CHECK_STOP_FROM && stop.load(Ordering::Relaxed) {
        return Err(Halt::Stopped);
    }
    let mut store: Vec<Move> = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();
    line.legal_moves(&mut moves);
    store.extend_from_slice(moves.as_slice());
    frames.push(Frame { start: 0, next: 0 });
    let mut total = 0u64;
    // Invariant: the line has been pushed `frames.len() - 1` moves past the counted position,
    // and the last frame holds the moves of its current position.
    let result = loop {
        let Some(top) = frames.last_mut() else {
            break Ok(total);
        };
        if top.next == store.len() {
            store.truncate(top.start);
            frames.pop();
            if !frames.is_empty() {
                line.pop();
            }
            continue;
        }
        let m = store[top.next];
        top.next += 1;
        line.push(m);
        // The plies still to play from the new position (at least 1: frames are only pushed
        // for positions with at least 2 to go).
        let left = depth - frames.len() as u32;
        if left == 1 {
            total += count_last(line, &mut moves);
            line.pop();
            continue;
        }
        if left >= CHECK_STOP_FROM && stop.load(Ordering::Relaxed) {
            line.pop();
            break Err(Halt::Stopped);
        }
        line.legal_moves(&mut moves);
        if moves.is_empty() {
            line.pop();
            continue;
        }
        if frames.len() >= max_line {
            line.pop();
            break Err(Halt::TooLong);
        }
        let start = store.len();
        store.extend_from_slice(moves.as_slice());
        frames.push(Frame { start, next: start });
    };
    // On giving up, return the line to the counted position.
    for _ in 1..frames.len() {
        line.pop();
    }
    result
}

/// Perft split by the first move: each legal move with its count, in generation order.
///
/// # Panics
///
/// As [`perft`].
pub fn perft_divide<G: Game>(line: &mut Line<G>, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = MoveList::new();
    line.legal_moves(&mut moves);
    if depth == 0 {
        return Vec::new();
    }
    moves
        .as_slice()
        .iter()
        .map(|&m| {
            line.push(m);
            let n = perft(line, depth - 1);
            line.pop();
            (m, n)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Ctf, GameKind, Hexapawn, Oska};
    use crate::splitmix::mix;

    /// The count by plain recursion, the form perft had before it was made iterative: every
    /// move is played, none bulk-counted, and the history rule applies through the line.
    fn recursive<G: Game>(line: &mut Line<G>, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = MoveList::new();
        line.legal_moves(&mut moves);
        let mut total = 0;
        for &m in moves.as_slice() {
            line.push(m);
            total += recursive(line, depth - 1);
            line.pop();
        }
        total
    }

    /// Compares the walk with the recursion from the start and from positions a few random
    /// moves in (seeded), at depths 0 to `deepest`, on every size of the game; checks that the
    /// line is left as it was.
    fn agrees<G: Game>(deepest: u32) {
        let (lo, hi) = G::KIND.size_range();
        for size in lo..=hi {
            for seed in 0..3u64 {
                let mut line = Line::new(G::start(size).expect("a supported size"));
                let mut moves = MoveList::new();
                for k in 0..seed * 3 {
                    line.legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    let i = mix(seed * 1000 + k) as usize % moves.len();
                    line.push(moves.as_slice()[i]);
                }
                let before = line.len();
                for depth in 0..=deepest {
                    let want = recursive(&mut line, depth);
                    let got = perft_until(&mut line, depth, &AtomicBool::new(false));
                    assert_eq!(
                        got,
                        Ok(want),
                        "{} {size} seed {seed} depth {depth}",
                        G::KIND
                    );
                    assert_eq!(line.len(), before);
                }
            }
        }
    }

    #[test]
    fn the_walk_counts_as_the_recursion_on_every_game_and_size() {
        agrees::<Oska>(4);
        agrees::<Hexapawn>(4);
        agrees::<Ctf>(3);
    }

    #[test]
    fn games_that_end_count_to_the_end() {
        // Hexapawn 3 is over within 12 plies (two steps for each of three pawns a side): deeper counts are 0, and a huge depth ends at once.
        let mut line = Line::new(Hexapawn::start(3).unwrap());
        assert_eq!(perft(&mut line, 20), 0);
        assert_eq!(perft(&mut line, u32::MAX), 0);
        assert!(recursive(&mut line, 4) > 0);
    }

    #[test]
    fn a_raised_stop_flag_ends_a_walk_of_any_depth_and_restores_the_line() {
        for kind in GameKind::ALL {
            let (_, hi) = kind.size_range();
            crate::with_game!(kind, G => {
                let mut line = Line::new(G::start(hi).unwrap());
                let stop = AtomicBool::new(true);
                assert_eq!(perft_until(&mut line, u32::MAX, &stop), Err(Halt::Stopped));
                assert_eq!(line.len(), 0);
                // Shallow counts finish without looking at the flag.
                assert!(perft_until(&mut line, 2, &stop).is_ok());
            });
        }
    }

    #[test]
    fn a_capture_the_flag_line_longer_than_the_bound_halts_the_walk() {
        // The first line of Capture the Flag 5 runs past 60 plies (see the long lines below).
        let mut line = Line::new(Ctf::start(5).unwrap());
        let stop = AtomicBool::new(false);
        assert_eq!(
            perft_bounded(&mut line, u32::MAX, &stop, 40),
            Err(Halt::TooLong)
        );
        assert_eq!(line.len(), 0);
        // Within the bound, the same depth counts.
        assert_eq!(
            perft_bounded(&mut line, 4, &stop, 40),
            Ok(recursive(&mut line, 4))
        );
    }

    #[test]
    fn capture_the_flag_lines_thousands_of_plies_long_cost_no_stack() {
        // Perft's lines on Capture the Flag 5 pass 2 500 plies within a second of a release
        // build (the recursion overflowed a 2 MiB stack between depths 2 000 and 5 000). Walk to
        // a bound of 2 000 plies on a 64 KiB stack, stopping after a while if it is not met.
        let done = std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(|| {
                let mut line = Line::new(Ctf::start(5).unwrap());
                let stop = std::sync::Arc::new(AtomicBool::new(false));
                let s = std::sync::Arc::clone(&stop);
                let timer = std::thread::spawn(move || {
                    std::thread::sleep(std::time::Duration::from_secs(60));
                    s.store(true, Ordering::Relaxed);
                });
                let r = perft_bounded(&mut line, u32::MAX, &stop, 2000);
                stop.store(true, Ordering::Relaxed);
                drop(timer);
                (r, line.len())
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(done, (Err(Halt::TooLong), 0));
    }
}
