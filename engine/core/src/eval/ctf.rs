//! The Capture the Flag evaluator: flag safety and the flag's race past the enemy pawns, fitted
//! to exact game values.
//!
//! A side wins by taking the enemy flag, by taking every enemy pawn, by leaving the opponent
//! without a move, or by walking its flag past every enemy pawn. The features, each from the
//! side to move's view (own minus the opponent's where there are two sides):
//!
//! - `tempo`: 1 (the side to move);
//! - `pawns`: material; `advance`: rows the pawns have advanced;
//! - `flag_to_go`: rows the opponent's flag still has to walk to stand past every pawn of the
//!   side to move, minus the rows its own flag has to walk (an enemy pawn on the flag's row or
//!   beyond still stops it);
//! - `flag_race`: +1 when the side to move's flag needs no more moves than the opponent's (it
//!   moves first), -1 otherwise;
//! - `take_flag`: the side to move can take the enemy flag on this move (a pawn next to it with
//!   the square behind it empty);
//! - `flag_threats`: enemy pawns that could take the side to move's flag on their next move,
//!   minus the same against the enemy flag;
//! - `stoppers`: enemy pawns that still stand on or beyond the row of the side to move's flag
//!   (they can still stop it), minus the same for the other flag;
//! - `guards`: own pawns next to the own flag, minus the opponent's;
//! - `attack`: how close the pawns stand to the enemy flag (for each pawn, 2N minus its distance,
//!   summed), own minus the opponent's;
//! - `takes`: enemy pawns the side to move can jump, minus own pawns the opponent can jump;
//! - `mobility`: moves of the side minus the opponent's; `flag_room`: empty squares next to the
//!   own flag minus next to the enemy flag;
//! - `home_guard`: the side has a pawn on its own home row, minus the same for the opponent. No
//!   flag can stand past a pawn on that row (there is no row beyond it), and pawns never step
//!   back, so while the pawn stays there the enemy flag's race is closed for good;
//! - `open_race`: how near the side's flag is to passing every enemy pawn (N minus the rows to
//!   go), counted only while the race is open (no enemy pawn on its home row), minus the same
//!   for the opponent: a flag walking towards a closed race gains nothing and only puts itself
//!   among the enemy pawns;
//! - `rear`: rows the side's rearmost pawn has advanced, minus the opponent's;
//! - `flag_out`: rows the side's flag has left its home row by, minus the opponent's;
//! - `flag_lines`: the jump lines over the enemy flag that the side's pawns could use (the
//!   square to jump from and the landing square on the board, the landing square not held by an
//!   enemy pawn), minus the same over the own flag: a flag on its home row between two of its
//!   pawns, or in a corner, cannot be taken at all;
//! - then the threats, which a fixed-depth search meets at its horizon, where the side to move
//!   and the other side are not alike (the one to move takes first). A pawn is *hanging* when an
//!   enemy pawn can jump it and the jumper cannot be jumped back at once where it lands.
//!   `safe_take`: the side to move can take a hanging enemy pawn now (it wins a pawn);
//!   `hanging`: own pawns hanging (the opponent threatens them; one move may save one of them);
//!   `double_threat`: two or more own pawns hanging (one move seldom saves both).
//!
//! The history rule (no board may recur) is applied by the search along its line; a static
//! evaluation sees the board alone. The weights come from `weights_ctf.rs`, fitted by
//! `engine-tune tune`, except at the size `weights_ctf_refined.rs` names (5 x 5), whose weights
//! `engine-tune refine-weights` refined from those, together with a piece-square term there
//! ([`piece_square_term`]: a weight for each kind of piece on each square). It never searches.

use super::common::advanced;
use super::weights_ctf::WEIGHTS;
use super::weights_ctf_refined as refined;
use super::{Evaluate, legacy};
use crate::games::layout::grid_offset;
use crate::games::{Bits, Ctf, Game, Side, bit};

/// The feature names, in order.
pub const FEATURES: [&str; 21] = [
    "tempo",
    "pawns",
    "advance",
    "flag_to_go",
    "flag_race",
    "take_flag",
    "flag_threats",
    "stoppers",
    "guards",
    "attack",
    "takes",
    "mobility",
    "flag_room",
    "home_guard",
    "open_race",
    "rear",
    "flag_out",
    "flag_lines",
    "safe_take",
    "hanging",
    "double_threat",
];

/// The pawn directions of a side: forward, left, right, as (row, column) steps.
fn pawn_dirs(side: Side) -> [(isize, isize); 3] {
    let f = if side == Side::White { 1 } else { -1 };
    [(f, 0), (0, -1), (0, 1)]
}

#[derive(Default, Clone, Copy)]
struct SideInfo {
    pawns: i32,
    advance: i32,
    /// Rows the flag must walk to stand past every enemy pawn.
    flag_to_go: i32,
    /// Enemy pawns on or beyond the flag's row.
    stoppers: i32,
    /// This side's pawns that can take the enemy flag now.
    flag_takers: i32,
    guards: i32,
    attack: i32,
    /// Enemy pawns this side can jump.
    takes: i32,
    moves: i32,
    flag_room: i32,
    /// A pawn stands on this side's home row (the enemy flag can never pass it).
    home_guard: bool,
    /// Rows the rearmost pawn has advanced.
    rear: i32,
    /// Rows the flag has left its home row by.
    flag_out: i32,
    /// Jump lines over the enemy flag open to this side's pawns.
    flag_lines: i32,
    /// Enemy pawns this side can jump without its jumper being jumped back where it lands.
    hanging_victims: i32,
}

fn side_info(pos: &Ctf, side: Side) -> SideInfo {
    let n = pos.size();
    let own = pos.pawn_bits(side);
    let opp = pos.pawn_bits(side.opposite());
    let flags = [Side::White, Side::Black]
        .into_iter()
        .filter_map(|s| pos.flag_square(s))
        .fold(0u128, |a, f| a | bit(f));
    let occupied = own | opp | flags;
    let enemy_flag = pos.flag_square(side.opposite());
    let enemy_pieces = opp | enemy_flag.map_or(0, bit);
    let mut info = SideInfo {
        rear: n as i32,
        ..SideInfo::default()
    };
    let mut hanging_victims = 0u128;
    for sq in Bits(own) {
        info.pawns += 1;
        let adv = advanced(side, sq / n, n);
        info.advance += adv;
        info.rear = info.rear.min(adv);
        info.home_guard |= adv == 0;
        if let Some(f) = enemy_flag {
            let dist = (sq / n).abs_diff(f / n) + (sq % n).abs_diff(f % n);
            info.attack += (2 * n) as i32 - dist as i32;
        }
        for (dr, dc) in pawn_dirs(side) {
            let Some(to) = grid_offset(n, sq, dr, dc) else {
                continue;
            };
            if occupied & bit(to) == 0 {
                info.moves += 1;
            } else if enemy_pieces & bit(to) != 0
                && let Some(land) = grid_offset(n, sq, 2 * dr, 2 * dc)
                && occupied & bit(land) == 0
            {
                info.moves += 1;
                if Some(to) == enemy_flag {
                    info.flag_takers += 1;
                } else {
                    info.takes += 1;
                    if hanging_victims & bit(to) == 0
                        && !retaken(
                            n,
                            side,
                            occupied & !bit(sq) & !bit(to) | bit(land),
                            opp & !bit(to),
                            land,
                        )
                    {
                        hanging_victims |= bit(to);
                    }
                }
            }
        }
    }
    info.hanging_victims = hanging_victims.count_ones() as i32;
    if let Some(f) = enemy_flag {
        for (dr, dc) in pawn_dirs(side) {
            if grid_offset(n, f, -dr, -dc).is_some()
                && let Some(land) = grid_offset(n, f, dr, dc)
                && opp & bit(land) == 0
            {
                info.flag_lines += 1;
            }
        }
    }
    if let Some(f) = pos.flag_square(side) {
        let fr = (f / n) as i32;
        info.flag_out = advanced(side, f / n, n);
        for (dr, dc) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            if let Some(s) = grid_offset(n, f, dr, dc) {
                if occupied & bit(s) == 0 {
                    info.moves += 1;
                    info.flag_room += 1;
                } else if own & bit(s) != 0 {
                    info.guards += 1;
                }
            }
        }
        for p in Bits(opp) {
            let pr = (p / n) as i32;
            let ahead = match side {
                Side::White => pr >= fr,
                Side::Black => pr <= fr,
            };
            if ahead {
                info.stoppers += 1;
                let need = match side {
                    Side::White => pr + 1 - fr,
                    Side::Black => fr - pr + 1,
                };
                info.flag_to_go = info.flag_to_go.max(need);
            }
        }
    }
    info
}

/// Whether a pawn of `side` standing on `sq` can be jumped by one of the enemy pawns `enemy`,
/// `occupied` being every piece on the board.
fn retaken(n: usize, side: Side, occupied: u128, enemy: u128, sq: usize) -> bool {
    pawn_dirs(side.opposite()).into_iter().any(|(dr, dc)| {
        grid_offset(n, sq, -dr, -dc).is_some_and(|from| enemy & bit(from) != 0)
            && grid_offset(n, sq, dr, dc).is_some_and(|land| occupied & bit(land) == 0)
    })
}

/// Rows `side`'s flag still has to walk to stand past every enemy pawn (the plain race count).
pub fn flag_to_go(pos: &Ctf, side: Side) -> i32 {
    side_info(pos, side).flag_to_go
}

/// How near `me`'s flag is to passing every enemy pawn (`n` minus the rows to go), 0 while an
/// enemy pawn stands on its home row: the flag can never pass that one.
fn open_race(me: &SideInfo, op: &SideInfo, n: i32) -> i32 {
    if op.home_guard { 0 } else { n - me.flag_to_go }
}

/// Piece kinds of the piece-square term: own pawn, own flag, the opponent's pawn, its flag.
const KINDS: usize = 4;

/// Squares of an `n` x `n` board as the piece-square term tells them apart: rows seen from the
/// side to move (row 0 its home row), columns folded left to right (the rules are the same
/// mirrored).
pub fn square_classes(n: usize) -> usize {
    n * n.div_ceil(2)
}

/// Weights of the piece-square term of an `n` x `n` board: one a piece kind (own pawn, own
/// flag, the opponent's pawn, its flag) and square class, in that order.
pub fn piece_square_len(n: usize) -> usize {
    KINDS * square_classes(n)
}

/// The index of each piece of `pos` in the piece-square weights, calling `each` once a piece.
#[inline]
fn piece_squares(pos: &Ctf, mut each: impl FnMut(usize)) {
    let n = pos.size();
    let me = pos.side_to_move();
    let half = n.div_ceil(2);
    let class = |sq: usize| {
        let r = advanced(me, sq / n, n) as usize;
        let c = sq % n;
        r * half + c.min(n - 1 - c)
    };
    let per_kind = square_classes(n);
    for (k, side) in [(0, me), (1, me.opposite())] {
        for sq in Bits(pos.pawn_bits(side)) {
            each(2 * k * per_kind + class(sq));
        }
        if let Some(f) = pos.flag_square(side) {
            each((2 * k + 1) * per_kind + class(f));
        }
    }
}

/// How many pieces of each kind stand on each square class (see [`piece_square_len`]): the
/// features of the piece-square term, `out` cleared first.
pub fn piece_square_counts(pos: &Ctf, out: &mut Vec<i32>) {
    out.clear();
    out.resize(piece_square_len(pos.size()), 0);
    piece_squares(pos, |i| out[i] += 1);
}

/// The piece-square term of `pos`: at the size whose weights `engine-tune refine-weights` refined
/// (`weights_ctf_refined.rs`), the sum of its piece-square weights over the pieces; 0 at the
/// other sizes.
#[inline]
pub fn piece_square_term(pos: &Ctf) -> i32 {
    if pos.size() != refined::SIZE {
        return 0;
    }
    let mut sum = 0;
    piece_squares(pos, |i| sum += refined::SQUARES[i]);
    sum
}

/// Every weight in use at the size `weights_ctf_refined.rs` names, as `engine-tune refine-weights`
/// refines them: the features', then the piece-square term's.
pub fn refined_weights() -> Vec<i32> {
    [&refined::WEIGHTS[..], &refined::SQUARES[..]].concat()
}

/// The features of `pos` from the side to move's view, in the order of [`FEATURES`].
pub fn features(pos: &Ctf) -> [i32; 21] {
    let n = pos.size() as i32;
    let me_side = pos.side_to_move();
    let me = side_info(pos, me_side);
    let op = side_info(pos, me_side.opposite());
    [
        1,
        me.pawns - op.pawns,
        me.advance - op.advance,
        op.flag_to_go - me.flag_to_go,
        if me.flag_to_go <= op.flag_to_go {
            1
        } else {
            -1
        },
        i32::from(me.flag_takers > 0),
        op.flag_takers - me.flag_takers,
        me.stoppers - op.stoppers,
        me.guards - op.guards,
        me.attack - op.attack,
        me.takes - op.takes,
        me.moves - op.moves,
        me.flag_room - op.flag_room,
        i32::from(me.home_guard) - i32::from(op.home_guard),
        open_race(&me, &op, n) - open_race(&op, &me, n),
        me.rear - op.rear,
        me.flag_out - op.flag_out,
        me.flag_lines - op.flag_lines,
        i32::from(me.hanging_victims > 0),
        op.hanging_victims,
        i32::from(op.hanging_victims >= 2),
    ]
}

/// The tuned Capture the Flag evaluator: the features' score, with the weights refined for one
/// size there, plus the piece-square term ([`piece_square_term`]); the classic search style.
impl Evaluate for Ctf {
    super::tuned_linear!(FEATURES, features, WEIGHTS, piece_square_term);

    /// The refined weights at their size (`weights_ctf_refined.rs`), the fitted ones elsewhere.
    #[inline]
    fn weights_at(size: usize) -> &'static [i32] {
        if size == refined::SIZE {
            &refined::WEIGHTS
        } else {
            &WEIGHTS
        }
    }

    fn legacy(&self) -> i32 {
        legacy::ctf::evaluate(self)
    }

    fn piece_square_counts(&self, out: &mut Vec<i32>) {
        piece_square_counts(self, out)
    }

    fn race_steps(&self, side: Side) -> i32 {
        flag_to_go(self, side)
    }
}
