//! The Hexapawn evaluator of the first version, kept as `legacy` for comparisons.
//!
//! Hexapawn is decided by the first pawn to reach the far row, by running the opponent out of
//! pawns, or by leaving it without a move. The evaluator counts, for each side:
//!
//! - material: every pawn is worth a base value, plus a bonus growing with the square of how far
//!   it has advanced (a pawn one step from the far row is a grave threat);
//! - passed pawns: a pawn with no enemy pawn ahead of it on its own or a neighbouring column can
//!   only be stopped by a capture; it gets a large bonus;
//! - the race: if the side to move has a passed pawn at least as close to promotion as the
//!   opponent's closest passed pawn, it wins the race (it moves first), and the other way round.
//!
//! Mobility and capture threats were tried and made play worse against a material count (in
//! Hexapawn having moves is not always an asset), so they are left out.
//!
//! The score is the side to move's total minus the opponent's. It never searches.

use crate::games::{Bits, Game, Hexapawn, Side};

const PAWN: i32 = 100;
const ADVANCE2: i32 = 8;
const PASSED: i32 = 20;
const RACE: i32 = 2000;

/// The first version's evaluation of `pos` for the side to move.
pub fn evaluate(pos: &Hexapawn) -> i32 {
    let n = pos.size();
    let me = pos.side_to_move();
    let mut score = [0i32; 2];
    let mut closest_passed = [i32::MAX; 2];
    for side in [Side::White, Side::Black] {
        let own = pos.bits(side);
        let opp = pos.bits(side.opposite());
        let s = side.index();
        for sq in Bits(own) {
            let (r, c) = ((sq / n) as i32, (sq % n) as i32);
            let dir = if side == Side::White { 1 } else { -1 };
            let advanced = if side == Side::White {
                r
            } else {
                n as i32 - 1 - r
            };
            let to_go = n as i32 - 1 - advanced;
            score[s] += PAWN + ADVANCE2 * advanced * advanced;
            // Passed: no enemy pawn ahead on this or a neighbouring column.
            let mut passed = true;
            for sq2 in Bits(opp) {
                let (r2, c2) = ((sq2 / n) as i32, (sq2 % n) as i32);
                if (c2 - c).abs() <= 1 && (r2 - r) * dir > 0 {
                    passed = false;
                    break;
                }
            }
            if passed {
                score[s] += PASSED + 10 * advanced;
                closest_passed[s] = closest_passed[s].min(to_go);
            }
        }
    }
    let (m, o) = (me.index(), me.opposite().index());
    let mut total = score[m] - score[o];
    // A passed pawn cannot be stopped: the first to arrive wins (the side to move on ties).
    let (a, b) = (closest_passed[m], closest_passed[o]);
    if a != i32::MAX && a <= b {
        total += RACE - 50 * a;
    } else if b != i32::MAX && b < a {
        total -= RACE - 50 * b;
    }
    total
}
