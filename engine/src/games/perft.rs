//! Perft: the number of move sequences of exactly D plies from a position.
//!
//! A forced pass counts as a ply; play stops at a finished game, so a sequence that ends the game
//! before D plies is not counted. The last ply is bulk-counted (moves are counted, not played)
//! wherever the game allows it.

use std::sync::atomic::{AtomicBool, Ordering};

use super::{Game, Line, Move, MoveList};

/// Below this remaining depth a subtree is counted without looking at the stop flag (it is
/// small enough to finish at once).
const CHECK_STOP_FROM: u32 = 3;

/// Perft of the line's current position to `depth` plies.
pub fn perft<G: Game>(line: &mut Line<G>, depth: u32) -> u64 {
    perft_until(line, depth, &AtomicBool::new(false)).unwrap_or(0)
}

/// Perft that gives up (returns `None`) soon after `stop` is set.
pub fn perft_until<G: Game>(line: &mut Line<G>, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if G::NO_REPEAT {
        perft_line(line, depth, stop)
    } else {
        perft_plain(line.current(), depth, stop)
    }
}

fn stopped(depth: u32, stop: &AtomicBool) -> bool {
    depth >= CHECK_STOP_FROM && stop.load(Ordering::Relaxed)
}

/// Perft along a line, for games whose history restricts the moves.
fn perft_line<G: Game>(line: &mut Line<G>, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if stopped(depth, stop) {
        return None;
    }
    let mut moves = MoveList::new();
    line.legal_moves(&mut moves);
    if depth == 1 {
        return Some(moves.len() as u64);
    }
    let mut total = 0;
    for &m in moves.as_slice() {
        line.push(m);
        let n = perft_line(line, depth - 1, stop);
        line.pop();
        total += n?;
    }
    Some(total)
}

/// Perft for games without a history rule: plain copy-make recursion.
fn perft_plain<G: Game>(pos: &G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if pos.board_outcome().is_some() {
        return Some(0);
    }
    if depth == 1 {
        return Some(pos.count_moves() as u64);
    }
    if stopped(depth, stop) {
        return None;
    }
    let mut moves = MoveList::new();
    pos.generate(&mut moves);
    let mut total = 0;
    for &m in moves.as_slice() {
        total += perft_plain(&pos.play(m), depth - 1, stop)?;
    }
    Some(total)
}

/// Perft split by the first move: each legal move with its count, in generation order.
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
