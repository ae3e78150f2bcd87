//! The Oska evaluator of the first version, kept as `legacy` for comparisons.
//!
//! Oska is a race with a twist: a side wins when all its *remaining* pieces stand on the far row,
//! so a piece is worth having (it can capture, block and cannot be eliminated) but every piece is
//! also one more that has to make the trip. The evaluator weighs, for each side:
//!
//! - every piece, and more for an advanced one: a piece is worth a base value plus a bonus per row
//!   it has advanced, so trading a back piece for an advanced one is good;
//! - the race: the number of single steps the side still needs to bring every piece home; a side
//!   that needs fewer steps than the opponent is winning the race;
//! - pieces already home are a good thing but are out of play (they can neither move nor capture);
//! - threats: an opponent piece that the side to move can jump now is worth part of a piece to
//!   it, and a piece of the side to move that the opponent could jump is a liability;
//! - mobility: a side with few moves risks passing.
//!
//! The score is the side to move's total minus the opponent's. It never searches.

use crate::games::{Game, Oska, Side, bit};

const PIECE: i32 = 100;
const ADVANCE: i32 = 8;
const RACE: i32 = 3;
const THREAT: i32 = 35;
const MOBILITY: i32 = 3;

/// The first version's evaluation of `pos` for the side to move.
pub fn evaluate(pos: &Oska) -> i32 {
    let layout = pos.layout();
    let rows = layout.rows();
    let me = pos.side_to_move();
    let mut score = [0i32; 2];
    let mut steps = [0i32; 2];
    let mut mobility = [0i32; 2];
    let mut hanging = [0i32; 2];
    for side in [Side::White, Side::Black] {
        let own = pos.bits(side);
        let opp = pos.bits(side.opposite());
        let empty = layout.mask() & !(own | opp);
        let s = side.index();
        for sq in crate::games::Bits(own) {
            let (r, c) = layout.coords(sq);
            let advanced = match side {
                Side::White => r,
                Side::Black => rows - 1 - r,
            } as i32;
            let to_go = rows as i32 - 1 - advanced;
            score[s] += PIECE + ADVANCE * advanced;
            steps[s] += to_go;
            if to_go == 0 {
                continue;
            }
            // Diagonal neighbours one row forward, and the squares two rows on.
            let fwd = |dr: i32| -> isize {
                match side {
                    Side::White => r as isize + dr as isize,
                    Side::Black => r as isize - dr as isize,
                }
            };
            for dx in [-1i32, 1] {
                let Some(step) = diag(layout, r, c, fwd(1), dx) else {
                    continue;
                };
                if empty & bit(step) != 0 {
                    mobility[s] += 1;
                } else if opp & bit(step) != 0 {
                    let (r1, c1) = layout.coords(step);
                    if let Some(land) = diag(layout, r1, c1, fwd(2), dx)
                        && empty & bit(land) != 0
                    {
                        mobility[s] += 1;
                        // The opponent's piece on `step` is hanging to `side`.
                        hanging[side.opposite().index()] += 1;
                    }
                }
            }
        }
    }
    let (m, o) = (me.index(), me.opposite().index());
    let mut total = score[m] - score[o];
    total += RACE * (steps[o] - steps[m]);
    total += MOBILITY * (mobility[m] - mobility[o]);
    // The side to move can take one hanging piece now; its own hanging pieces are at risk.
    total += THREAT * i32::from(hanging[o] > 0) - THREAT / 2 * hanging[m].min(2);
    total
}

/// The square one row on (row `to_row`) from (r, c), moving diagonally towards `dx` (half-square
/// steps of the rules' geometry), if it exists.
fn diag(
    layout: &crate::games::Layout,
    r: usize,
    c: usize,
    to_row: isize,
    dx: i32,
) -> Option<usize> {
    if to_row < 0 || to_row as usize >= layout.rows() {
        return None;
    }
    let len = layout.row_len(r) as i32;
    let x = 2 * c as i32 - (len - 1) + dx;
    let nlen = layout.row_len(to_row as usize) as i32;
    let twice = x + nlen - 1;
    if twice < 0 || twice % 2 != 0 {
        return None;
    }
    let nc = (twice / 2) as usize;
    layout.square_at(to_row as usize, nc)
}
