//! The Capture the Flag evaluator.
//!
//! A side wins by taking the enemy flag, by taking every enemy pawn, by leaving the opponent
//! without a move, or by walking its flag past every enemy pawn. The evaluator counts, for each
//! side:
//!
//! - material: every pawn is worth a base value, a little more the further it has advanced;
//! - the flag race: how many rows the side's flag still has to travel to stand beyond every enemy
//!   pawn (fewer is better; the flag may also walk while enemy pawns advance past it);
//! - flag danger: enemy pawns standing next to the flag, where a jump could take it, are heavily
//!   penalised, the more so when the landing square behind the flag is empty;
//! - attack: own pawns close to the enemy flag (Manhattan distance) are a bonus;
//! - mobility: a side with few moves risks being left without a move.
//!
//! The score is the side to move's total minus the opponent's. It never searches.

use crate::games::{Bits, Ctf, Game, Side};

const PAWN: i32 = 100;
const ADVANCE: i32 = 4;
const FLAG_ROW: i32 = 25;
const DANGER: i32 = 120;
const ATTACK: i32 = 8;

/// The first version's evaluation of `pos` for the side to move.
pub fn evaluate(pos: &Ctf) -> i32 {
    let n = pos.size() as i32;
    let me = pos.side_to_move();
    let mut score = [0i32; 2];
    let occupied = pos.pawn_bits(Side::White)
        | pos.pawn_bits(Side::Black)
        | [Side::White, Side::Black]
            .iter()
            .filter_map(|&s| pos.flag_square(s))
            .fold(0u128, |a, f| a | (1u128 << f));
    for side in [Side::White, Side::Black] {
        let s = side.index();
        let own = pos.pawn_bits(side);
        let opp = pos.pawn_bits(side.opposite());
        let enemy_flag = pos.flag_square(side.opposite());
        for sq in Bits(own) {
            let (r, c) = ((sq as i32) / n, (sq as i32) % n);
            let advanced = if side == Side::White { r } else { n - 1 - r };
            score[s] += PAWN + ADVANCE * advanced;
            if let Some(f) = enemy_flag {
                let (fr, fc) = ((f as i32) / n, (f as i32) % n);
                let dist = (fr - r).abs() + (fc - c).abs();
                score[s] += ATTACK * (2 * n - dist).max(0) / 2;
            }
        }
        if let Some(f) = pos.flag_square(side) {
            let (fr, fc) = ((f as i32) / n, (f as i32) % n);
            // Rows to go until strictly past every enemy pawn.
            let to_go = match side {
                Side::White => Bits(opp)
                    .map(|p| p as i32 / n)
                    .max()
                    .map_or(0, |m| (m + 1 - fr).max(0)),
                Side::Black => Bits(opp)
                    .map(|p| p as i32 / n)
                    .min()
                    .map_or(0, |m| (fr - m + 1).max(0)),
            };
            score[s] -= FLAG_ROW * to_go;
            // Enemy pawns next to the flag that could jump it (enemy pawns move towards our
            // home row or sideways, never away from it).
            let enemy_dir = if side == Side::White { -1 } else { 1 };
            for (dr, dc) in [(enemy_dir, 0), (0, 1), (0, -1)] {
                // The attacker stands at flag - (dr, dc) and lands at flag + (dr, dc).
                let (ar, ac) = (fr - dr, fc - dc);
                let (lr, lc) = (fr + dr, fc + dc);
                let on = |r: i32, c: i32| r >= 0 && c >= 0 && r < n && c < n;
                if on(ar, ac) && opp & (1u128 << (ar * n + ac)) != 0 {
                    score[s] -= DANGER / 3;
                    if on(lr, lc) && occupied & (1u128 << (lr * n + lc)) == 0 {
                        score[s] -= DANGER;
                    }
                }
            }
        }
    }
    let (m, o) = (me.index(), me.opposite().index());
    score[m] - score[o]
}
