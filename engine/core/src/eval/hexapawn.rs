//! The Hexapawn evaluator: races of passed pawns, threats and blocked files, fitted to exact
//! game values.
//!
//! Hexapawn is won by the first pawn to reach the far row, by taking every enemy pawn, or by
//! leaving the opponent without a move. The features, each from the side to move's view (own
//! minus the opponent's where there are two sides):
//!
//! - `tempo`: 1 (the side to move);
//! - `pawns`: material;
//! - `advance`, `advance2`: rows advanced by all pawns, and the sum of their squares (a pawn near
//!   the far row is worth much more than one at home);
//! - `passed`: pawns with no enemy pawn ahead on their own or a neighbouring column; nothing can
//!   stop them any more;
//! - `race`: +1 when the side to move's nearest passed pawn arrives no later than the opponent's
//!   (it moves first), -1 when the opponent's arrives first, 0 without passed pawns;
//! - `win_next`: the side to move has a pawn one row from the far row that can move (it wins on
//!   this move);
//! - `threats`: the opponent's pawns one row from the far row that can move next turn;
//! - `attacked`: own pawns an enemy pawn can take, minus enemy pawns the side to move can take;
//! - `blocked`: own pawns facing an enemy pawn head-on with nothing to take (own minus the
//!   opponent's): locked files;
//! - `mobility`: moves of the side minus the opponent's; `few_moves`: 1 when the side to move has
//!   at most one move (no-move danger: a side without a move has lost), minus the same for the
//!   opponent;
//! - `defended`: pawns with an own pawn diagonally behind them, which can answer a capture;
//! - `free_takes`: 1 when the side to move can take an undefended enemy pawn, minus the own
//!   undefended pawns the opponent could take;
//! - `open_files`: pawns with nothing ahead on their column;
//! - `spare`: waiting moves (empty squares ahead of pawns whose column is closed further on),
//!   own minus the opponent's, and `spare_lead`: +1 when the side to move has more of them (it
//!   must move first, so a tie runs it out first), -1 otherwise.
//!
//! The weights come from `weights_hexapawn.rs`, fitted by `engine-tune tune`. It never searches.

use std::sync::LazyLock;

use super::common::advanced;
use super::weights_hexapawn::WEIGHTS;
use super::{Evaluate, legacy, patterns};
use crate::games::{Game, GameKind, Hexapawn, Side, bit};

/// The feature names, in order.
pub const FEATURES: [&str; 17] = [
    "tempo",
    "pawns",
    "advance",
    "advance2",
    "passed",
    "race",
    "win_next",
    "threats",
    "attacked",
    "blocked",
    "mobility",
    "few_moves",
    "defended",
    "free_takes",
    "open_files",
    "spare",
    "spare_lead",
];

#[derive(Default, Clone, Copy, Debug, PartialEq, Eq)]
struct SideInfo {
    pawns: i32,
    advance: i32,
    advance2: i32,
    passed: i32,
    /// Rows the nearest passed pawn still has to go (`i32::MAX` without one).
    nearest_passed: i32,
    /// Rows the most advanced pawn still has to go.
    nearest: i32,
    /// Pawns one row from the far row that can move.
    about_to_win: i32,
    /// Enemy pawns this side can take.
    takes: i32,
    blocked: i32,
    moves: i32,
    /// Pawns with an own pawn diagonally behind them (a capture there can be answered).
    defended: i32,
    /// Enemy pawns this side can take that no enemy pawn defends.
    free_takes: i32,
    /// Pawns with no pawn of either side ahead on their column.
    open: i32,
    /// Empty squares straight ahead of the pawns whose column is closed further on: steps that
    /// can be spent waiting.
    spare: i32,
}

/// The masks of one board size.
struct Masks {
    /// Every square of the board.
    board: u128,
    /// Every square but the first column's.
    not_first: u128,
    /// Every square but the last column's.
    not_last: u128,
    /// Each row's squares.
    rows: [u128; MAX_SIZE],
}

/// The smallest and the largest Hexapawn board (11 x 11: 121 squares of a `u128`).
const MIN_SIZE: usize = GameKind::Hexapawn.size_range().0;
const MAX_SIZE: usize = GameKind::Hexapawn.size_range().1;

fn masks(n: usize) -> &'static Masks {
    static MASKS: LazyLock<Vec<Masks>> = LazyLock::new(|| {
        (MIN_SIZE..=MAX_SIZE)
            .map(|n| {
                let first = (0..n).fold(0u128, |m, r| m | bit(r * n));
                let board = (1u128 << (n * n)) - 1;
                let mut rows = [0; MAX_SIZE];
                for (r, row) in rows.iter_mut().enumerate().take(n) {
                    *row = ((1u128 << n) - 1) << (r * n);
                }
                Masks {
                    board,
                    not_first: board & !first,
                    not_last: board & !(first << (n - 1)),
                    rows,
                }
            })
            .collect()
    });
    &MASKS[n - MIN_SIZE]
}

/// Bitboard steps of one side on an `n` x `n` board: "forward" is towards that side's far row.
struct Steps {
    n: usize,
    white: bool,
    m: &'static Masks,
}

impl Steps {
    /// The squares one row ahead of `x`.
    #[inline]
    fn ahead(&self, x: u128) -> u128 {
        if self.white {
            (x << self.n) & self.m.board
        } else {
            x >> self.n
        }
    }

    /// The squares one row behind `x`.
    #[inline]
    fn behind(&self, x: u128) -> u128 {
        if self.white {
            x >> self.n
        } else {
            (x << self.n) & self.m.board
        }
    }

    /// The squares diagonally ahead of `x` to the left (lower column) and to the right.
    #[inline]
    fn diagonals(&self, x: u128) -> (u128, u128) {
        (
            self.ahead((x & self.m.not_first) >> 1),
            self.ahead((x & self.m.not_last) << 1),
        )
    }

    /// Every square behind a square of `x` on its column (not `x` itself).
    #[inline]
    fn all_behind(&self, x: u128) -> u128 {
        let (mut acc, mut f) = (0, self.behind(x));
        while f != 0 {
            acc |= f;
            f = self.behind(f);
        }
        acc
    }

    /// Rows the most advanced of the non-empty `x` still has to go.
    #[inline]
    fn to_go(&self, x: u128) -> i32 {
        let row = if self.white {
            (127 - x.leading_zeros()) as usize / self.n
        } else {
            x.trailing_zeros() as usize / self.n
        };
        if self.white {
            (self.n - 1 - row) as i32
        } else {
            row as i32
        }
    }
}

/// The counts of one side, computed on whole bitboards (`tests::side_info_naive` is the same,
/// pawn by pawn).
fn side_info(pos: &Hexapawn, side: Side) -> SideInfo {
    let n = pos.size();
    let m = masks(n);
    let own = pos.bits(side);
    let opp = pos.bits(side.opposite());
    let empty = m.board & !(own | opp);
    let us = Steps {
        n,
        white: side == Side::White,
        m,
    };
    let them = Steps {
        white: !us.white,
        ..us
    };
    let mut info = SideInfo {
        nearest_passed: i32::MAX,
        nearest: i32::MAX,
        ..SideInfo::default()
    };
    if own == 0 {
        return info;
    }
    info.pawns = own.count_ones() as i32;
    for (r, &row) in m.rows.iter().enumerate().take(n) {
        let k = (own & row).count_ones() as i32;
        let adv = advanced(side, r, n);
        info.advance += k * adv;
        info.advance2 += k * adv * adv;
    }
    info.nearest = us.to_go(own);
    // An enemy pawn ahead on the same or a neighbouring column stops a pawn: the squares behind
    // the enemy pawns and their neighbours are the pawns that are not passed.
    let spread = opp | ((opp & m.not_first) >> 1) | ((opp & m.not_last) << 1);
    let passed = own & !us.all_behind(spread);
    info.passed = passed.count_ones() as i32;
    if passed != 0 {
        info.nearest_passed = us.to_go(passed);
    }
    let (own_left, own_right) = us.diagonals(own);
    info.defended = (own & (own_left | own_right)).count_ones() as i32;
    let closed = own & us.all_behind(own | opp);
    info.open = (own & !closed).count_ones() as i32;
    // The empty squares straight ahead of the pawns of closed columns, up to the first piece.
    let mut run = us.ahead(closed) & empty;
    while run != 0 {
        info.spare += run.count_ones() as i32;
        run = us.ahead(run) & empty;
    }
    let steps = us.ahead(own) & empty;
    info.moves = (steps.count_ones()
        + (own_left & opp).count_ones()
        + (own_right & opp).count_ones()) as i32;
    // A pawn can take where an enemy pawn could take it.
    let (opp_left, opp_right) = them.diagonals(opp);
    let takers = own & (opp_left | opp_right);
    let movers = us.behind(steps) | takers;
    info.blocked = (own & us.behind(opp) & !takers).count_ones() as i32;
    let last_but_one = if us.white { m.rows[n - 2] } else { m.rows[1] };
    info.about_to_win = (movers & last_but_one).count_ones() as i32;
    let taken = (own_left | own_right) & opp;
    info.takes = taken.count_ones() as i32;
    info.free_takes = (taken & !(opp_left | opp_right)).count_ones() as i32;
    info
}

/// The rows the most advanced pawn of `side` still has to go (the plain race count).
pub fn closest(pos: &Hexapawn, side: Side) -> i32 {
    let i = side_info(pos, side);
    if i.pawns == 0 {
        pos.size() as i32
    } else {
        i.nearest
    }
}

/// The features of `pos` from the side to move's view, in the order of [`FEATURES`].
pub fn features(pos: &Hexapawn) -> [i32; 17] {
    let me_side = pos.side_to_move();
    let me = side_info(pos, me_side);
    let op = side_info(pos, me_side.opposite());
    let race = match (me.nearest_passed, op.nearest_passed) {
        (a, b) if a != i32::MAX && a <= b => 1,
        (_, b) if b != i32::MAX => -1,
        _ => 0,
    };
    [
        1,
        me.pawns - op.pawns,
        me.advance - op.advance,
        me.advance2 - op.advance2,
        me.passed - op.passed,
        race,
        i32::from(me.about_to_win > 0),
        op.about_to_win,
        op.takes - me.takes,
        me.blocked - op.blocked,
        me.moves - op.moves,
        i32::from(me.moves <= 1) - i32::from(op.moves <= 1),
        me.defended - op.defended,
        i32::from(me.free_takes > 0) - op.free_takes,
        me.open - op.open,
        me.spare - op.spare,
        if me.spare > op.spare { 1 } else { -1 },
    ]
}

/// The tuned Hexapawn evaluator: the features' score plus the pattern term
/// ([`patterns::score`]); the classic search style.
impl Evaluate for Hexapawn {
    super::tuned_linear!(FEATURES, features, WEIGHTS, patterns::score);

    fn legacy(&self) -> i32 {
        legacy::hexapawn::evaluate(self)
    }

    fn race_steps(&self, side: Side) -> i32 {
        closest(self, side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Bits;
    use crate::splitmix::SplitMix64;

    /// Whether a pawn of `side` (pawns `own`) on `sq` has an own pawn diagonally behind it.
    fn is_defended(n: usize, own: u128, sq: usize, side: Side) -> bool {
        let (r, c) = (sq / n, sq % n);
        let back = if side == Side::White {
            r.checked_sub(1)
        } else {
            Some(r + 1).filter(|&b| b < n)
        };
        back.is_some_and(|b| {
            (c > 0 && own & bit(b * n + c - 1) != 0) || (c + 1 < n && own & bit(b * n + c + 1) != 0)
        })
    }

    /// The counts of one side, pawn by pawn: the evaluator's first implementation, kept as the
    /// reference of the bitboard one.
    fn side_info_naive(pos: &Hexapawn, side: Side) -> SideInfo {
        let n = pos.size();
        let own = pos.bits(side);
        let opp = pos.bits(side.opposite());
        let empty = !(own | opp);
        let mut info = SideInfo {
            nearest_passed: i32::MAX,
            nearest: i32::MAX,
            ..SideInfo::default()
        };
        let dir: isize = if side == Side::White { 1 } else { -1 };
        // The first column's squares.
        let col0 = (0..n).fold(0u128, |m, r| m | bit(r * n));
        let mut taken = 0u128;
        for sq in Bits(own) {
            let (r, c) = (sq / n, sq % n);
            let adv = advanced(side, r, n);
            let to_go = n as i32 - 1 - adv;
            info.pawns += 1;
            info.advance += adv;
            info.advance2 += adv * adv;
            info.nearest = info.nearest.min(to_go);
            // Squares of this column, of the neighbouring columns, and of the rows ahead.
            let column = col0 << c;
            let mut near = column;
            if c > 0 {
                near |= col0 << (c - 1);
            }
            if c + 1 < n {
                near |= col0 << (c + 1);
            }
            let ahead_rows = if side == Side::White {
                !((1u128 << ((r + 1) * n)) - 1)
            } else {
                (1u128 << (r * n)) - 1
            };
            let passed = opp & near & ahead_rows == 0;
            if is_defended(n, own, sq, side) {
                info.defended += 1;
            }
            let column_ahead = (own | opp) & column & ahead_rows != 0;
            if column_ahead {
                info.spare += (1..n as isize)
                    .map(|k| r as isize + k * dir)
                    .take_while(|&r2| {
                        r2 >= 0 && r2 < n as isize && empty & bit(r2 as usize * n + c) != 0
                    })
                    .count() as i32;
            } else {
                info.open += 1;
            }
            if passed {
                info.passed += 1;
                info.nearest_passed = info.nearest_passed.min(to_go);
            }
            if to_go == 0 {
                continue;
            }
            let fr = (r as isize + dir) as usize;
            let ahead = fr * n + c;
            let mut moves = 0;
            if empty & bit(ahead) != 0 {
                moves += 1;
            }
            for dc in [-1isize, 1] {
                let cc = c as isize + dc;
                if cc >= 0 && (cc as usize) < n {
                    let t = fr * n + cc as usize;
                    if opp & bit(t) != 0 {
                        moves += 1;
                        if taken & bit(t) == 0 && !is_defended(n, opp, t, side.opposite()) {
                            info.free_takes += 1;
                        }
                        taken |= bit(t);
                    }
                }
            }
            if moves == 0 && opp & bit(ahead) != 0 {
                info.blocked += 1;
            }
            if moves > 0 && to_go == 1 {
                info.about_to_win += 1;
            }
            info.moves += moves;
        }
        info.takes = taken.count_ones() as i32;
        info
    }

    /// Random boards of every size (pawns anywhere, even on a far row, as `from_bits` allows),
    /// and positions of random games: the bitboard counts equal the pawn-by-pawn ones.
    #[test]
    fn bitboard_counts_equal_the_pawn_by_pawn_ones() {
        let mut rng = SplitMix64::new(11);
        let mut checked = 0;
        let mut check = |pos: &Hexapawn| {
            for side in [Side::White, Side::Black] {
                assert_eq!(
                    side_info(pos, side),
                    side_info_naive(pos, side),
                    "{pos:?} {side:?}"
                );
                checked += 1;
            }
        };
        for n in MIN_SIZE..=MAX_SIZE {
            for _ in 0..400 {
                let (mut white, mut black) = (0u128, 0u128);
                for sq in 0..n * n {
                    match rng.below(5) {
                        0 => white |= bit(sq),
                        1 => black |= bit(sq),
                        _ => {}
                    }
                }
                for to_move in [Side::White, Side::Black] {
                    check(&Hexapawn::from_bits(n, white, black, to_move));
                }
            }
            for _ in 0..50 {
                let mut pos = Hexapawn::start(n).unwrap();
                let mut moves = crate::games::MoveList::new();
                while pos.board_outcome().is_none() {
                    check(&pos);
                    moves.clear();
                    pos.generate(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    pos = pos.play(moves.as_slice()[rng.below(moves.len())]);
                }
            }
        }
        assert!(checked > 10_000, "{checked} positions checked");
    }
}
