//! Helpers shared by the search tests: a small random generator, random positions and a plain
//! minimax with the search's score conventions.

#![allow(dead_code)]

use engine::games::{Game, Line, MoveList};
use engine::search::{Evaluate, WIN};

/// xorshift64*: deterministic, good enough for picking moves.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A line reached by up to `max_plies` random legal moves from the start of `size`; `None` when
/// the game ended on the way.
pub fn random_line<G: Game>(size: usize, max_plies: usize, rng: &mut Rng) -> Option<Line<G>> {
    let mut line = Line::new(G::start(size).ok()?);
    let plies = rng.below(max_plies + 1);
    for _ in 0..plies {
        let mut moves = MoveList::new();
        line.legal_moves(&mut moves);
        if moves.is_empty() {
            return None;
        }
        let m = moves.as_slice()[rng.below(moves.len())];
        line.push(m);
    }
    line.outcome().is_none().then_some(line)
}

/// Plain negamax to exactly `depth` plies, with the search's conventions: a game won at ply `k`
/// is `WIN - k`, lost `-(WIN - k)`, drawn 0; a side with no legal move has lost; static
/// evaluation (clamped as the search clamps it) at the depth limit.
pub fn minimax<G: Game + Evaluate>(line: &mut Line<G>, depth: u32, ply: i32) -> i32 {
    let pos = *line.current();
    if let Some(o) = pos.board_outcome() {
        return match o.winner() {
            None => 0,
            Some(w) if w == pos.side_to_move() => WIN - ply,
            Some(_) => -(WIN - ply),
        };
    }
    let mut moves = MoveList::new();
    line.legal_moves(&mut moves);
    if moves.is_empty() {
        return -(WIN - ply);
    }
    if depth == 0 {
        let l = engine::search::EVAL_LIMIT;
        return pos.evaluate().clamp(-l, l);
    }
    let mut best = i32::MIN;
    for &m in moves.as_slice() {
        line.push(m);
        best = best.max(-minimax(line, depth - 1, ply + 1));
        line.pop();
    }
    best
}
