//! A table entry: the exact value of a position for the side to move, in one byte.
//!
//! `0` is a draw, `1 ..= 127` a win in `v - 1` plies, `128 ..= 254` a loss in `v - 128` plies;
//! `255` marks an entry not computed yet while a table is built.

use crate::games::{Outcome, Side};
use crate::score::Score;

/// A draw.
pub const DRAW: u8 = 0;
/// Not computed yet (never in a finished table).
pub const UNSET: u8 = 255;
/// The longest win or loss a byte holds, in plies.
pub const MAX_DISTANCE: u32 = 126;

/// A win in `plies`.
#[inline]
pub fn win(plies: u32) -> u8 {
    debug_assert!(plies <= MAX_DISTANCE);
    1 + plies as u8
}

/// A loss in `plies`.
#[inline]
pub fn loss(plies: u32) -> u8 {
    debug_assert!(plies <= MAX_DISTANCE);
    128 + plies as u8
}

/// The value of a finished game for `side`, the side to move.
#[inline]
pub fn of_outcome(outcome: Outcome, side: Side) -> u8 {
    match outcome.winner() {
        None => DRAW,
        Some(w) if w == side => win(0),
        Some(_) => loss(0),
    }
}

/// The value for the mover of a move whose resulting position has value `child` for the side to
/// move there: the sides swap and the game is one ply longer. `None` when the distance overflows.
#[inline]
pub fn before(child: u8) -> Option<u8> {
    match child {
        DRAW => Some(DRAW),
        1..=127 if u32::from(child - 1) < MAX_DISTANCE => Some(loss(u32::from(child - 1) + 1)),
        128..=254 if u32::from(child - 128) < MAX_DISTANCE => Some(win(u32::from(child - 128) + 1)),
        _ => None,
    }
}

/// Which of two values the side to move prefers: the fastest win, then a draw, then the slowest
/// loss.
#[inline]
pub fn better(a: u8, b: u8) -> u8 {
    if rank(a) >= rank(b) { a } else { b }
}

/// An order of preference: higher is better.
#[inline]
fn rank(v: u8) -> i32 {
    match v {
        DRAW => 0,
        1..=127 => 1000 - i32::from(v),
        128..=254 => -1000 + i32::from(v),
        _ => i32::MIN,
    }
}

/// The mover's preference for a move to a position of value `child` (for the side to move
/// there), as a key that orders like [`better`]: `255 - d` for a win in d plies, 128 for a draw,
/// `d` for a loss in d plies; 0 when `child` is unset or the distance does not fit. The best
/// move is the one with the highest key; [`of_key`] turns the key back into a value.
#[inline]
pub fn move_key(child: u8) -> u8 {
    MOVE_KEY[child as usize]
}

/// The value of a key of [`move_key`] (unset for 0).
#[inline]
pub fn of_key(key: u8) -> u8 {
    KEY_VALUE[key as usize]
}

const MOVE_KEY: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut v = 0;
    while v < 256 {
        let c = v as u8;
        t[v] = match c {
            DRAW => 128,
            // The mover loses in c - 1 + 1 plies.
            1..=127 if ((c - 1) as u32) < MAX_DISTANCE => c,
            // The mover wins in c - 128 + 1 plies.
            128..=254 if ((c - 128) as u32) < MAX_DISTANCE => 255 - (c - 127),
            _ => 0,
        };
        v += 1;
    }
    t
};

const KEY_VALUE: [u8; 256] = {
    let mut t = [UNSET; 256];
    let mut k = 1;
    while k < 256 {
        let key = k as u8;
        t[k] = match key {
            128 => DRAW,
            1..=127 => 128 + key,
            _ => 1 + (255 - key),
        };
        k += 1;
    }
    t
};

/// The [`Score`] of a finished entry.
pub fn score(v: u8) -> Option<Score> {
    match v {
        DRAW => Some(Score::Draw),
        1..=127 => Some(Score::Win(u32::from(v - 1))),
        128..=254 => Some(Score::Loss(u32::from(v - 128))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips_and_orders() {
        for k in 0..=MAX_DISTANCE {
            assert_eq!(score(win(k)), Some(Score::Win(k)));
            assert_eq!(score(loss(k)), Some(Score::Loss(k)));
        }
        assert_eq!(before(loss(4)), Some(win(5)));
        assert_eq!(before(win(0)), Some(loss(1)));
        assert_eq!(before(DRAW), Some(DRAW));
        assert_eq!(before(win(MAX_DISTANCE)), None);
        assert_eq!(better(win(3), win(1)), win(1));
        assert_eq!(better(DRAW, win(9)), win(9));
        assert_eq!(better(loss(2), DRAW), DRAW);
        assert_eq!(better(loss(2), loss(6)), loss(6));
        assert_eq!(better(UNSET, loss(0)), loss(0));
        // The keys order moves as `better` does and give back `before`.
        for a in 0..=254u8 {
            match before(a) {
                Some(v) => assert_eq!(of_key(move_key(a)), v, "{a}"),
                None => assert_eq!(move_key(a), 0, "{a}"),
            }
            for b in 0..=254u8 {
                if let (Some(x), Some(y)) = (before(a), before(b)) {
                    let best = if move_key(a) >= move_key(b) { x } else { y };
                    assert_eq!(best, better(x, y), "{a} {b}");
                }
            }
        }
        assert_eq!(move_key(UNSET), 0);
    }
}
