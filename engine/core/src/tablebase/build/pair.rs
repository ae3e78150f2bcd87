//! The values of one pair of materials, a row (or a column) at a time: [`Pair`] is what the
//! threads building a pair share, [`Scratch`] one thread's buffers; a row is every board of one
//! Black set with both sides to move, each value the best of the moves to finished positions
//! (a Black move, a White move, a capture into a smaller material, or a pass).

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

use super::super::index::{Geometry, MAX_PIECES, Set};
use super::super::value::{self, UNSET};
use super::Retro;
use super::moves::Template;
use super::sets::{Group, Rankers};
use super::setup::{Pass, settle};
use crate::games::{Bits, MoveList, Side, bit};

/// A move of Black for one Black set, on any White set: legal when the White set holds every
/// square of `require` and none of `forbid`; it leads to the row at `base` of the table of
/// White to move, ranked by `ranker` after a capture. Without a capture, the rank is the White
/// set's rank in this Black set's row less a change for its squares in `between`.
struct BlackMove {
    require: u128,
    forbid: u128,
    /// The captured square's bit, or 0.
    cap: u128,
    /// The squares below where the piece was.
    below_from: u128,
    /// The squares up to where the piece goes.
    below_to: u128,
    base: usize,
    ranker: usize,
}

/// One thread's reusable buffers.
#[derive(Default)]
pub(super) struct Scratch {
    rankers: Rankers,
    black_moves: Vec<BlackMove>,
    /// `capture[sq]`: the row and ranker after White captures the Black piece on `sq`.
    capture: Vec<(usize, usize)>,
    /// Where the row of Black to move starts in `btm`.
    btm_row: usize,
    /// The mask of [`Group::each_free_of`].
    free: Vec<u64>,
    /// The moves of one side that the other side's set allows, by square
    /// ([`Pair::allowed_moves`]).
    allowed: Vec<Template>,
    allowed_from: Vec<usize>,
    list: MoveList,
}

impl Scratch {
    /// Calls `f` with the square and the template of each move listed by
    /// [`Pair::allowed_moves`] from a square of `own` to a square `own` leaves free: the legal
    /// moves of that side on the board.
    #[inline(always)]
    fn each_legal<S: Set>(&self, own: S, mut f: impl FnMut(usize, &Template)) {
        let mut rest = own;
        while rest != S::EMPTY {
            let from = rest.lowest();
            rest = rest.without_lowest();
            for t in &self.allowed[self.allowed_from[from]..self.allowed_from[from + 1]] {
                if own & S::bit(t.to) == S::EMPTY {
                    f(from, t);
                }
            }
        }
    }
}

/// What the threads building one pair of materials share.
pub(super) struct Pair<'a, G> {
    pub(super) shape: &'a Geometry,
    pub(super) size: usize,
    pub(super) w: usize,
    pub(super) b: usize,
    pub(super) moves: &'a [Vec<Vec<Template>>; 2],
    pub(super) mirror_bit: &'a [u128],
    /// Every set of w squares, by falling White progress.
    pub(super) whites: &'a Group,
    /// Entries in a row of `btm` and of `wtm`: C(squares - b, w).
    pub(super) row_len: usize,
    /// Black to move: the file table of (b, w), rows by the mirrored Black set.
    pub(super) btm: &'a [AtomicU8],
    /// White to move: the table of (w, b), rows by the Black set.
    pub(super) wtm: &'a [AtomicU8],
    /// White to move after Black captures: the table of (w - 1, b), rows by the Black set.
    pub(super) wtm_less: &'a [u8],
    pub(super) wtm_less_row_len: usize,
    /// Black to move after White captures: the file table of (b - 1, w).
    pub(super) btm_less: &'a [u8],
    pub(super) btm_less_row_len: usize,
    pub(super) overflow: AtomicBool,
    pub(super) _game: std::marker::PhantomData<G>,
}

impl<G: Retro> Pair<'_, G> {
    /// The value for the mover of a move to a position of value `child`.
    #[inline(always)]
    pub(super) fn before(&self, child: u8) -> u8 {
        debug_assert!(child != UNSET, "the build order finishes a position first");
        value::before(child).unwrap_or_else(|| {
            self.overflow.store(true, Ordering::Relaxed);
            value::loss(0)
        })
    }

    /// The key of a move to a position of value `child` (see [`value::move_key`]).
    #[inline(always)]
    fn key(&self, child: u8) -> u8 {
        debug_assert!(child != UNSET, "the build order finishes a position first");
        let key = value::move_key(child);
        if key == 0 {
            self.overflow.store(true, Ordering::Relaxed);
        }
        key
    }

    /// The value when the side to move of `pos` has no piece move: a pass (`None`, done
    /// later), or the game's rule for no move.
    fn no_move(pos: &G, list: &mut MoveList) -> Option<u8> {
        list.clear();
        pos.generate(list);
        match list.as_slice() {
            [m] if m.is_pass() => None,
            [] => Some(value::loss(0)),
            _ => unreachable!("a side without piece moves has none or a pass"),
        }
    }

    /// Every board with Black on `black`, both sides to move.
    pub(super) fn row<S: Set>(&self, black: u128, s: &mut Scratch) {
        let shape = self.shape;
        let squares = shape.squares();
        let (w, b) = (self.w, self.b);
        let mirrored = shape.mirror(black);
        let btm_row = shape.rank(mirrored) as usize * self.row_len;
        s.btm_row = btm_row;
        let wtm_row = shape.rank(black) as usize * self.row_len;
        s.rankers.clear(shape);
        // Rankers: the row of `btm` (the mirrored White sets among the mirrored Black set's
        // free squares), the row of `wtm`, one per White capture, one per Black move.
        let in_btm = s.rankers.add(shape, mirrored, w);
        let in_wtm = s.rankers.add(shape, black, w);
        let shift = s.rankers.add_shift(shape, black, w);
        s.capture.resize(squares, (0, 0));
        if b > 1 {
            for c in Bits(black) {
                let after = shape.mirror(black & !bit(c));
                let r = s.rankers.add(shape, after, w);
                s.capture[c] = (shape.rank(after) as usize * self.btm_less_row_len, r);
            }
        }
        self.black_moves(black, s);
        self.allowed_moves(Side::White, black, s);

        let mut free = std::mem::take(&mut s.free);
        self.whites.each_free_of(black, &mut free, |m| {
            let wide = m.set;
            let (white, white_mirrored) = (S::of(wide), S::of(m.mirrored));
            let btm_col = s.rankers.rank(in_btm, white_mirrored);
            let wtm_col = s.rankers.rank(in_wtm, white);
            let (btm_at, wtm_at) = (btm_row + btm_col, wtm_row + wtm_col);
            // The positions are made only where the rare cases below need them.
            let pos = || G::from_sets(self.size, wide, black);
            let black_pos = || pos().with_side(Side::Black);
            let outcome = G::outcome_by_placement(self.size, wide, black, Side::White);
            let black_outcome = if G::OUTCOME_IGNORES_SIDE {
                outcome
            } else {
                G::outcome_by_placement(self.size, wide, black, Side::Black)
            };
            // Black's and White's moves: the best key and how many (`None` when the game is over
            // before the moves are looked at).
            let black_moves = black_outcome
                .is_none()
                .then(|| self.black_best(s, shift, white, wtm_col));
            let white_moves = outcome
                .is_none()
                .then(|| self.white_best(s, in_btm, (white, white_mirrored), btm_col));
            // Neither side can move: the game's rule for that (Oska's draw), if it has one.
            let stuck = match (black_moves, white_moves) {
                (Some((_, 0)), Some((_, 0))) => G::outcome_when_stuck(self.size, wide, black),
                _ => None,
            };
            let (outcome, black_outcome) = match stuck {
                Some(o) => (Some(o), Some(o)),
                None => (outcome, black_outcome),
            };
            debug_assert_eq!(outcome, pos().board_outcome());
            debug_assert_eq!(black_outcome, black_pos().board_outcome());
            // Black to move (`None`: Black must pass, done below).
            let black_value = match (black_outcome, black_moves) {
                (Some(o), _) => Some(value::of_outcome(o, Side::Black)),
                (None, Some((best, count))) => {
                    debug_assert_eq!(
                        s.black_moves
                            .iter()
                            .filter(|m| wide & m.require == m.require && wide & m.forbid == 0)
                            .count(),
                        Self::count_moves(&black_pos(), &mut s.list),
                        "the move templates match the game's moves in {:?}",
                        black_pos()
                    );
                    if count == 0 {
                        Self::no_move(&black_pos(), &mut s.list)
                    } else {
                        Some(value::of_key(best))
                    }
                }
                (None, None) => unreachable!("Black's moves are counted unless the game is over"),
            };
            if let Some(v) = black_value {
                self.btm[btm_at].store(v, Ordering::Relaxed);
            }
            // White to move: every move leads to a White set of higher progress (done) or to a
            // smaller material.
            let white_value = match (outcome, white_moves) {
                (Some(o), _) => value::of_outcome(o, Side::White),
                (None, Some((best, count))) => {
                    debug_assert_eq!(
                        count,
                        Self::count_moves(&pos(), &mut s.list) as u32,
                        "the move templates match the game's moves in {:?}",
                        pos()
                    );
                    if count == 0 {
                        // A pass: Black has a move here (else the game is over), so its value
                        // is in.
                        Self::no_move(&pos(), &mut s.list).unwrap_or_else(|| {
                            self.before(self.btm[btm_at].load(Ordering::Relaxed))
                        })
                    } else {
                        value::of_key(best)
                    }
                }
                (None, None) => unreachable!("White's moves are counted unless the game is over"),
            };
            self.wtm[wtm_at].store(white_value, Ordering::Relaxed);
            if black_value.is_none() {
                self.btm[btm_at].store(self.before(white_value), Ordering::Relaxed);
            }
        });
        s.free = free;
    }

    /// The best key of Black's moves (see [`value::move_key`]) on the White set `white`, of
    /// rank `wtm_col` in this Black set's row, and how many moves there are: `shift` is the
    /// ranker of the changes of rank of [`Pair::row`].
    #[inline(always)]
    fn black_best<S: Set>(&self, s: &Scratch, shift: usize, white: S, wtm_col: usize) -> (u8, u32) {
        // `change[i]`: how much lower the rank is when the i lowest White squares are each
        // numbered one lower (their sum of `add_shift` parts).
        let mut change = [0usize; MAX_PIECES + 1];
        let mut rest = white;
        let mut j = 0;
        while rest != S::EMPTY {
            change[j + 1] = change[j] + s.rankers.part(shift, j, rest.lowest());
            rest = rest.without_lowest();
            j += 1;
        }
        let (mut best, mut count) = (0, 0);
        for m in &s.black_moves {
            let (require, forbid) = (S::of(m.require), S::of(m.forbid));
            if white & require != require || white & forbid != S::EMPTY {
                continue;
            }
            let child = if m.cap == 0 {
                // Black's piece leaves `from` and lands on a lower square: the White squares
                // between are numbered one lower among the free squares, those of indices
                // from the count below `to` to the count below `from`.
                let less = change[(white & S::of(m.below_from)).count()]
                    - change[(white & S::of(m.below_to)).count()];
                self.wtm[m.base + wtm_col - less].load(Ordering::Relaxed)
            } else if self.w == 1 {
                value::loss(0)
            } else {
                self.wtm_less[m.base + s.rankers.rank(m.ranker, white & !S::of(m.cap))]
            };
            best = best.max(self.key(child));
            count += 1;
        }
        (best, count)
    }

    /// The best key of White's moves on the White set `white` (and its mirror), among those the
    /// row's Black set allows (`s.allowed`), and how many there are: `in_btm` ranks the mirrored
    /// White sets in the row of Black to move, where `btm_col` is this one's.
    #[inline(always)]
    fn white_best<S: Set>(
        &self,
        s: &Scratch,
        in_btm: usize,
        (white, white_mirrored): (S, S),
        btm_col: usize,
    ) -> (u8, u32) {
        let btm_row = s.btm_row;
        // `rise[i]`: how much the rank grows when the i lowest mirrored White squares each
        // become one later in the set (see [`Pair::moved_rank`]).
        let mut rise = [0usize; MAX_PIECES + 1];
        let mut rest = white_mirrored;
        let mut j = 0;
        while j + 1 < self.w {
            let sq = rest.lowest();
            rest = rest.without_lowest();
            rise[j + 1] = rise[j]
                .wrapping_add(s.rankers.part(in_btm, j + 1, sq))
                .wrapping_sub(s.rankers.part(in_btm, j, sq));
            j += 1;
        }
        let (mut best, mut count) = (0, 0);
        s.each_legal(white, |from, t| {
            let child = match t.cap {
                None => self.btm[btm_row
                    + self.moved_rank(s, in_btm, (white_mirrored, &rise), btm_col, from, t.to)]
                .load(Ordering::Relaxed),
                Some(cap) => {
                    if self.b == 1 {
                        value::loss(0)
                    } else {
                        let (base, r) = s.capture[cap];
                        let moved = white_mirrored
                            ^ S::of(self.mirror_bit[from])
                            ^ S::of(self.mirror_bit[t.to]);
                        self.btm_less[base + s.rankers.rank(r, moved)]
                    }
                }
            };
            count += 1;
            best = best.max(self.key(child));
        });
        (best, count)
    }

    /// Lists the moves of `side` that the other side's set `other` allows (a quiet move to a
    /// square it leaves free, a capture of one of its pieces), from each square:
    /// `s.allowed[s.allowed_from[sq]..s.allowed_from[sq + 1]]`; those whose square of arrival is
    /// free of the side's own pieces (or is the captured piece's) are legal.
    fn allowed_moves(&self, side: Side, other: u128, s: &mut Scratch) {
        s.allowed.clear();
        s.allowed_from.clear();
        for from in 0..self.shape.squares() {
            s.allowed_from.push(s.allowed.len());
            if other & bit(from) != 0 {
                continue;
            }
            for &t in &self.moves[side.index()][from] {
                let allowed = match t.cap {
                    None => other & bit(t.to) == 0,
                    Some(cap) => other & bit(cap) != 0 && (cap == t.to || other & bit(t.to) == 0),
                };
                if allowed {
                    s.allowed.push(t);
                }
            }
        }
        s.allowed_from.push(s.allowed.len());
    }

    /// Fills `s.black_moves` with Black's moves from the Black set `black` (see [`BlackMove`]),
    /// adding a ranker for each capture.
    fn black_moves(&self, black: u128, s: &mut Scratch) {
        let shape = self.shape;
        let w = self.w;
        s.black_moves.clear();
        for from in Bits(black) {
            for t in &self.moves[Side::Black.index()][from] {
                if black & bit(t.to) != 0 {
                    continue;
                }
                let after = black & !bit(from) | bit(t.to);
                let (cap, forbid, row_len) = match t.cap {
                    None => (0, bit(t.to), self.row_len),
                    Some(c) => (
                        bit(c),
                        if c == t.to { 0 } else { bit(t.to) },
                        self.wtm_less_row_len,
                    ),
                };
                let ranker = if cap == 0 {
                    0
                } else {
                    s.rankers.add(shape, after, w)
                };
                s.black_moves.push(BlackMove {
                    require: cap,
                    forbid,
                    cap,
                    below_from: bit(from) - 1,
                    below_to: (bit(t.to) << 1) - 1,
                    base: shape.rank(after) as usize * row_len,
                    ranker,
                });
            }
        }
    }

    /// The value for Black to move on `white` and `black` when Black has no piece move: the
    /// game may be over (Oska: neither side can move), else the game's rule for no move, else a
    /// pass (`None`).
    fn black_without_move(&self, white: u128, black: u128, list: &mut MoveList) -> Option<u8> {
        match G::outcome_of_sets(self.size, white, black, Side::Black) {
            Some(o) => Some(value::of_outcome(o, Side::Black)),
            None => Self::no_move(
                &G::from_sets(self.size, white, black).with_side(Side::Black),
                list,
            ),
        }
    }

    /// Computes T (see [`Setup::self_mirror`]) at the mirrored sets of the boards with Black on
    /// `black` and White on a set of `group` (those of one progress), Black to move: a part of
    /// the row of m(`black`) in the file's order (`btm`), from Black's moves to rows of Black
    /// sets of higher progress numbered Black set first (`wtm`); and the same values on the
    /// board turned left to right into the row of m(`reflected`) when it is another set. Black
    /// passes are left to `passes`. Returns the number of values set or left to `passes`.
    pub(super) fn mirror_row<S: Set>(
        &self,
        black: u128,
        reflected: u128,
        group: &Group,
        s: &mut Scratch,
        passes: &mut Vec<Pass>,
    ) -> u64 {
        let shape = self.shape;
        let w = self.w;
        let mirrored = shape.mirror(black);
        let btm_row = shape.rank(mirrored) as usize * self.row_len;
        let turned_row = shape.rank(shape.mirror(reflected)) as usize * self.row_len;
        s.rankers.clear(shape);
        let in_btm = s.rankers.add(shape, mirrored, w);
        let in_wtm = s.rankers.add(shape, black, w);
        let shift = s.rankers.add_shift(shape, black, w);
        let in_turned = s.rankers.add(shape, shape.mirror(reflected), w);
        self.black_moves(black, s);
        let mut count = 0;
        let mut free = std::mem::take(&mut s.free);
        group.each_free_of(black, &mut free, |m| {
            let wide = m.set;
            let (white, white_mirrored) = (S::of(wide), S::of(m.mirrored));
            let at = btm_row + s.rankers.rank(in_btm, white_mirrored);
            let turned = (reflected != black)
                .then(|| turned_row + s.rankers.rank(in_turned, S::of(m.turned)));
            count += 1 + u64::from(turned.is_some());
            let black_pos = || G::from_sets(self.size, wide, black).with_side(Side::Black);
            let value = match G::outcome_by_placement(self.size, wide, black, Side::Black) {
                Some(o) => Some(value::of_outcome(o, Side::Black)),
                None => {
                    let wtm_col = s.rankers.rank(in_wtm, white);
                    let (best, moves) = self.black_best(s, shift, white, wtm_col);
                    debug_assert_eq!(
                        moves,
                        Self::count_moves(&black_pos(), &mut s.list) as u32,
                        "the move templates match the game's moves in {:?}",
                        black_pos()
                    );
                    if moves > 0 {
                        Some(value::of_key(best))
                    } else {
                        self.black_without_move(wide, black, &mut s.list)
                    }
                }
            };
            debug_assert!(
                value.is_none()
                    || G::outcome_of_sets(self.size, wide, black, Side::Black)
                        == black_pos().board_outcome()
            );
            // A pass: the value of the same board with White to move, T there, of the same sum.
            settle(self.btm, value, (at, turned), passes, || {
                shape.index(wide, black) as usize
            });
        });
        s.free = free;
        count
    }

    /// Computes T (see [`Setup::self_mirror`]) at the mirrored sets of the boards with White on
    /// `white` and Black on a set of `group` (those of one progress), Black to move: a part of
    /// the row of m(`white`) in the order Black set first (`wtm`), from Black's moves to the
    /// row of `white` in the file's order (`btm`), whose values of one more Black progress are
    /// in; and the same values on the board turned left to right into the row of
    /// m(`reflected`) when it is another set. Black passes are left to `passes`. Returns the
    /// number of values set or left to `passes`.
    pub(super) fn mirror_column<S: Set>(
        &self,
        white: u128,
        reflected: u128,
        group: &Group,
        s: &mut Scratch,
        passes: &mut Vec<Pass>,
    ) -> u64 {
        let shape = self.shape;
        let k = self.b;
        debug_assert_eq!(self.w, k, "columns are for a material its own mirror");
        let (mirrored, turned) = (shape.mirror(white), shape.mirror(reflected));
        let file_row = shape.rank(white) as usize * self.row_len;
        let out_row = shape.rank(mirrored) as usize * self.row_len;
        let turned_row = shape.rank(turned) as usize * self.row_len;
        s.rankers.clear(shape);
        // The Black sets among the squares White leaves free (the file's columns), the
        // mirrored ones among the mirrored White set's (the columns written).
        let in_file = s.rankers.add(shape, white, k);
        let in_out = s.rankers.add(shape, mirrored, k);
        let in_turned = s.rankers.add(shape, turned, k);
        self.allowed_moves(Side::Black, white, s);
        // After Black captures the White piece on `c`: the row of White's other pieces in the
        // file table of (k - 1, k), which for a material its own mirror is `btm_less` (the
        // same values as `wtm_less`, in the order whose rows are White sets: a few rows per
        // column, where `wtm_less` would be a row per Black set), and its ranker.
        s.capture.resize(shape.squares(), (0, 0));
        if self.w > 1 {
            for c in Bits(white) {
                let left = white & !bit(c);
                let r = s.rankers.add(shape, left, k);
                s.capture[c] = (shape.rank(left) as usize * self.btm_less_row_len, r);
            }
        }
        let mut count = 0;
        let mut free = std::mem::take(&mut s.free);
        group.each_free_of(white, &mut free, |m| {
            let wide = m.set;
            let black = S::of(wide);
            let at = out_row + s.rankers.rank(in_out, S::of(m.mirrored));
            let turned_at = (reflected != white)
                .then(|| turned_row + s.rankers.rank(in_turned, S::of(m.turned)));
            count += 1 + u64::from(turned_at.is_some());
            let black_pos = || G::from_sets(self.size, white, wide).with_side(Side::Black);
            let value = match G::outcome_by_placement(self.size, white, wide, Side::Black) {
                Some(o) => Some(value::of_outcome(o, Side::Black)),
                None => {
                    let col = s.rankers.rank(in_file, black);
                    // `rise[i]`: how much the rank grows when the i lowest Black squares each
                    // become one later in the set (as in [`Pair::moved_rank`]).
                    let mut rise = [0usize; MAX_PIECES + 1];
                    let mut rest = black;
                    for j in 0..k - 1 {
                        let sq = rest.lowest();
                        rest = rest.without_lowest();
                        rise[j + 1] = rise[j]
                            .wrapping_add(s.rankers.part(in_file, j + 1, sq))
                            .wrapping_sub(s.rankers.part(in_file, j, sq));
                    }
                    let (mut best, mut moves) = (0, 0);
                    s.each_legal(black, |from, t| {
                        let child = match t.cap {
                            None => {
                                // The piece goes down from `from` to `to`: the Black squares
                                // between come one later in the set.
                                let (j_f, j_t) = (
                                    (black & S::below(from)).count(),
                                    (black & S::below(t.to)).count(),
                                );
                                let rank = col
                                    .wrapping_add(s.rankers.part(in_file, j_t, t.to))
                                    .wrapping_sub(s.rankers.part(in_file, j_f, from))
                                    .wrapping_add(rise[j_f])
                                    .wrapping_sub(rise[j_t]);
                                self.btm[file_row + rank].load(Ordering::Relaxed)
                            }
                            Some(cap) => {
                                if self.w == 1 {
                                    value::loss(0)
                                } else {
                                    // White to move with a piece fewer.
                                    let (row, r) = s.capture[cap];
                                    let after = black ^ S::bit(from) ^ S::bit(t.to);
                                    self.btm_less[row + s.rankers.rank(r, after)]
                                }
                            }
                        };
                        moves += 1;
                        best = best.max(self.key(child));
                    });
                    debug_assert_eq!(
                        moves,
                        Self::count_moves(&black_pos(), &mut s.list),
                        "the move templates match the game's moves in {:?}",
                        black_pos()
                    );
                    if moves > 0 {
                        Some(value::of_key(best))
                    } else {
                        self.black_without_move(white, wide, &mut s.list)
                    }
                }
            };
            // A pass: the value of the same board with White to move, T there, of the same sum,
            // in the order Black set first.
            settle(self.wtm, value, (at, turned_at), passes, || {
                shape.index(wide, white) as usize
            });
        });
        s.free = free;
        count
    }

    /// Fills the rows of the Black set `reflected`, the reflection of `black` (left and right
    /// swapped), from the finished rows of `black`: the board turned left to right has the same
    /// value, both sides to move.
    pub(super) fn reflect_row<S: Set>(&self, black: u128, reflected: u128, s: &mut Scratch) {
        let shape = self.shape;
        let (mirrored, mirrored_reflected) = (shape.mirror(black), shape.mirror(reflected));
        let row = |set: u128| shape.rank(set) as usize * self.row_len;
        let (btm_from, btm_to) = (row(mirrored), row(mirrored_reflected));
        let (wtm_from, wtm_to) = (row(black), row(reflected));
        s.rankers.clear(shape);
        let in_btm = s.rankers.add(shape, mirrored, self.w);
        let in_wtm = s.rankers.add(shape, black, self.w);
        let out_btm = s.rankers.add(shape, mirrored_reflected, self.w);
        let out_wtm = s.rankers.add(shape, reflected, self.w);
        let mut free = std::mem::take(&mut s.free);
        self.whites.each_free_of(black, &mut free, |m| {
            let (white, white_mirrored) = (S::of(m.set), S::of(m.mirrored));
            let (turned, turned_mirrored) = (S::of(m.reflected), S::of(m.turned));
            let wtm = self.wtm[wtm_from + s.rankers.rank(in_wtm, white)].load(Ordering::Relaxed);
            self.wtm[wtm_to + s.rankers.rank(out_wtm, turned)].store(wtm, Ordering::Relaxed);
            let btm =
                self.btm[btm_from + s.rankers.rank(in_btm, white_mirrored)].load(Ordering::Relaxed);
            self.btm[btm_to + s.rankers.rank(out_btm, turned_mirrored)]
                .store(btm, Ordering::Relaxed);
        });
        s.free = free;
    }

    /// The rank by ranker `r` of the mirrored White set `mirrored` (of rank `rank`) after
    /// White's piece goes from `from` to `to`. The mirror turns the move downwards: the piece
    /// leaves square f and lands on square t below it, and the squares of the set between t
    /// and f come one later in the set, which adds `rise[j_f] - rise[j_t]` (j: the number of
    /// squares of the set below).
    #[inline(always)]
    fn moved_rank<S: Set>(
        &self,
        s: &Scratch,
        r: usize,
        (mirrored, rise): (S, &[usize; MAX_PIECES + 1]),
        rank: usize,
        from: usize,
        to: usize,
    ) -> usize {
        let (f, t) = (self.shape.mirror_square(from), self.shape.mirror_square(to));
        let (j_f, j_t) = (
            (mirrored & S::below(f)).count(),
            (mirrored & S::below(t)).count(),
        );
        rank.wrapping_add(s.rankers.part(r, j_t, t))
            .wrapping_sub(s.rankers.part(r, j_f, f))
            .wrapping_add(rise[j_f])
            .wrapping_sub(rise[j_t])
    }

    /// The number of piece moves (passes left out) of `pos`.
    fn count_moves(pos: &G, list: &mut MoveList) -> usize {
        list.clear();
        pos.generate(list);
        list.as_slice().iter().filter(|m| !m.is_pass()).count()
    }
}
