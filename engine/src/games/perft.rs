//! Perft: the number of move sequences of exactly D plies from a position.
//!
//! A forced pass counts as a ply; play stops at a finished game, so a sequence that ends the game
//! before D plies is not counted. The last ply is bulk-counted (moves are counted, not played)
//! wherever the game allows it.

use super::{Game, Line, Move, MoveList};

/// Perft of the line's current position to `depth` plies.
pub fn perft<G: Game>(line: &mut Line<G>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if G::NO_REPEAT {
        let mut moves = MoveList::new();
        line.legal_moves(&mut moves);
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut total = 0;
        for &m in moves.as_slice() {
            line.push(m);
            total += perft(line, depth - 1);
            line.pop();
        }
        total
    } else {
        perft_plain(line.current(), depth)
    }
}

/// Perft for games without a history rule: plain copy-make recursion.
fn perft_plain<G: Game>(pos: &G, depth: u32) -> u64 {
    if pos.board_outcome().is_some() {
        return 0;
    }
    if depth == 1 {
        return pos.count_moves() as u64;
    }
    let mut moves = MoveList::new();
    pos.generate(&mut moves);
    moves
        .as_slice()
        .iter()
        .map(|&m| perft_plain(&pos.play(m), depth - 1))
        .sum()
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
