//! Numbering the positions of one material by combinatorial ranking.
//!
//! A material `(w, b)` is w White and b Black pieces, White to move (Black to move is the
//! colour mirror of a White-to-move position). Its positions are numbered
//! `rank(W) * C(S - w, b) + rank'(B)`, where `S` is the number of squares, `rank` is the colex rank
//! of the White squares among all squares and `rank'` that of the Black squares among the squares
//! White leaves free. Every number in `0 .. C(S, w) * C(S - w, b)` is one placement, so a table is
//! a plain array with no hash and no gap.

use crate::games::{Bits, Layout};

/// The most pieces a side a table may hold.
pub const MAX_PIECES: usize = 8;

/// The board geometry a table is indexed by.
#[derive(Clone, Debug)]
pub struct Geometry {
    squares: usize,
    rows: usize,
    /// `mirror[sq]`: the square in the same column of the mirrored row (top and bottom swapped).
    mirror: Vec<u8>,
    /// `row[sq]`: the row of a square, 0 at the top (White's home).
    row: Vec<u8>,
    /// `binomial[n][k]` = C(n, k) for n up to 128 and k up to `MAX_PIECES` (16 columns, so that
    /// the masked column indices of [`Geometry::index`] need no bounds checks).
    binomial: Box<[[u64; 16]; 129]>,
}

impl Geometry {
    /// The shape of a board layout (at most 128 squares: a set of squares is a `u128`, as in
    /// every layout of the games).
    pub fn new(layout: &Layout) -> Geometry {
        let squares = layout.squares();
        let rows = layout.rows();
        debug_assert!(squares <= 128, "a board's squares fit a u128");
        let mut binomial = Box::new([[0u64; 16]; 129]);
        for n in 0..=128 {
            binomial[n][0] = 1;
            for k in 1..=MAX_PIECES {
                binomial[n][k] = if n == 0 {
                    0
                } else {
                    binomial[n - 1][k - 1].saturating_add(binomial[n - 1][k])
                };
            }
        }
        let row = (0..squares).map(|sq| layout.coords(sq).0 as u8).collect();
        let mirror = (0..squares)
            .map(|sq| {
                let (r, c) = layout.coords(sq);
                layout
                    .square_at(rows - 1 - r, c)
                    .expect("the rows of the layouts are symmetric top to bottom")
                    as u8
            })
            .collect();
        Geometry {
            squares,
            rows,
            mirror,
            row,
            binomial,
        }
    }

    /// The number of squares.
    pub fn squares(&self) -> usize {
        self.squares
    }

    /// C(n, k).
    #[inline]
    pub fn choose(&self, n: usize, k: usize) -> u64 {
        self.binomial[n][k]
    }

    /// The number of positions of material `(w, b)`.
    pub fn len(&self, w: usize, b: usize) -> u64 {
        self.choose(self.squares, w)
            .saturating_mul(self.choose(self.squares - w, b))
    }

    /// The set with every square moved to its mirror square.
    #[inline]
    pub fn mirror(&self, set: u128) -> u128 {
        Bits(set).fold(0, |m, sq| m | 1u128 << self.mirror[sq])
    }

    /// The colex rank of `set` among all squares: the number of the row a set of its size heads
    /// in [`Geometry::index`].
    #[inline]
    pub fn rank(&self, set: u128) -> u64 {
        if self.squares <= 64 {
            self.colex(set as u64, 0)
        } else {
            self.colex(set, 0)
        }
    }

    /// The square in the same column of the mirrored row.
    #[inline]
    pub fn mirror_square(&self, sq: usize) -> usize {
        self.mirror[sq] as usize
    }

    /// The number of a placement: `white` and `black` disjoint, of the material's sizes.
    #[inline]
    pub fn index(&self, white: u128, black: u128) -> u64 {
        let w = white.count_ones() as usize;
        let b = black.count_ones() as usize;
        let (high, low) = if self.squares <= 64 {
            // The same sums on 64-bit words, for the boards that fit (all but the largest Oska).
            (
                self.colex(white as u64, 0),
                self.colex(black as u64, white as u64),
            )
        } else {
            (self.colex(white, 0), self.colex(black, white))
        };
        debug_assert!(low < self.choose(self.squares - w, b));
        high * self.choose(self.squares - w, b) + low
    }

    /// The colex rank of `set` among the squares not in `skip`: the sum of C(c, k + 1) over its
    /// squares in increasing order, c being the square's number with the `skip` squares below it
    /// left out.
    #[inline(always)]
    fn colex<S: Set>(&self, set: S, skip: S) -> u64 {
        let mut sum = 0;
        let mut rest = set;
        let mut k = 0;
        while !rest.is_zero() {
            let sq = rest.lowest();
            rest = rest.without_lowest();
            let c = sq - skip.count_below(sq);
            sum += self.binomial[c & 127][(k + 1) & 15];
            k += 1;
        }
        sum
    }

    /// How far a side's pieces have come: the sum of their rows counted from the side's home.
    #[inline]
    pub fn progress(&self, set: u128, white: bool) -> usize {
        Bits(set)
            .map(|sq| {
                let r = self.row[sq] as usize;
                if white { r } else { self.rows - 1 - r }
            })
            .sum()
    }

    /// The most progress `k` pieces of a side can have.
    pub fn max_progress(&self, k: usize) -> usize {
        k * (self.rows - 1)
    }

    /// Every set of `k` squares, grouped by the progress it has for White (`white`) or Black:
    /// `result[p]` holds the sets of progress `p`, in increasing order.
    pub fn sets_by_progress(&self, k: usize, white: bool) -> Vec<Vec<u128>> {
        let mut out = vec![Vec::new(); self.max_progress(k) + 1];
        if k == 0 {
            out[0].push(0);
            return out;
        }
        for set in subsets(self.squares, k) {
            out[self.progress(set, white)].push(set);
        }
        out
    }
}

/// Every set of `k` of the lowest `n` bits (n up to 128), in increasing order (which is colex
/// order).
pub(super) fn subsets(n: usize, k: usize) -> impl Iterator<Item = u128> {
    let mut next = (k <= n.min(128)).then(|| if k == 0 { 0 } else { u128::MAX >> (128 - k) });
    std::iter::from_fn(move || {
        let set = next?;
        next = if set == 0 {
            None
        } else {
            // Gosper's hack: the next larger set of the same size; none when the carry leaves
            // the word or the set leaves the lowest n bits.
            let low = set & set.wrapping_neg();
            set.checked_add(low).and_then(|ripple| {
                let n_next = (((ripple ^ set) >> 2) >> low.trailing_zeros()) | ripple;
                (n >= 128 || n_next >> n == 0).then_some(n_next)
            })
        };
        Some(set)
    })
}

/// A set of squares as a machine word: `u64` for boards of up to 64 squares (most), else `u128`.
pub(super) trait Set:
    Copy
    + Eq
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitXor<Output = Self>
    + std::ops::Not<Output = Self>
{
    const EMPTY: Self;
    /// The set from its 128-bit form (which fits).
    fn of(set: u128) -> Self;
    /// The set of one square.
    fn bit(sq: usize) -> Self;
    /// The lowest square (of a set that is not empty).
    fn lowest(self) -> usize;
    /// The set without its lowest square.
    fn without_lowest(self) -> Self;
    /// The squares below `sq`.
    fn below(sq: usize) -> Self;
    /// The number of squares.
    fn count(self) -> usize;
    /// Whether the set is empty.
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == Self::EMPTY
    }
    /// How many squares of the set are below `sq`.
    #[inline(always)]
    fn count_below(self, sq: usize) -> usize {
        (self & Self::below(sq)).count()
    }
}

macro_rules! set {
    ($t:ty) => {
        impl Set for $t {
            const EMPTY: Self = 0;
            #[inline(always)]
            fn of(set: u128) -> Self {
                set as $t
            }
            #[inline(always)]
            fn bit(sq: usize) -> Self {
                1 << sq
            }
            #[inline(always)]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & (self - 1)
            }
            #[inline(always)]
            fn below(sq: usize) -> Self {
                (1 << sq) - 1
            }
            #[inline(always)]
            fn count(self) -> usize {
                self.count_ones() as usize
            }
        }
    };
}
set!(u64);
set!(u128);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Game, Hexapawn, Oska};

    /// Every placement of a small material gets a distinct number below the material's size, on
    /// small boards and on the largest (Oska 11 has all 128 squares).
    #[test]
    fn index_is_a_bijection() {
        let small = [(1, 1), (2, 1), (2, 3), (3, 3)];
        let large = [(1, 0), (1, 1), (2, 1)];
        for (layout, materials) in [
            (Oska::layout_of(4), &small[..]),
            (Hexapawn::layout_of(3), &small[..]),
            (Oska::layout_of(11), &large[..]),
            (Hexapawn::layout_of(11), &large[..]),
        ] {
            let shape = Geometry::new(layout);
            assert_eq!(shape.squares(), layout.squares());
            for &(w, b) in materials {
                let mut seen = vec![false; shape.len(w, b) as usize];
                let whites: Vec<u128> = shape.sets_by_progress(w, true).concat();
                let blacks: Vec<u128> = shape.sets_by_progress(b, false).concat();
                for &white in &whites {
                    for &black in blacks.iter().filter(|&&s| s & white == 0) {
                        let i = shape.index(white, black) as usize;
                        assert!(!seen[i], "index {i} given twice");
                        seen[i] = true;
                    }
                }
                assert!(seen.iter().all(|&s| s), "every number is a placement");
            }
        }
        assert_eq!(Geometry::new(Oska::layout_of(11)).len(1, 1), 128 * 127);
    }

    #[test]
    fn mirror_swaps_progress() {
        let shape = Geometry::new(Oska::layout_of(5));
        for set in shape.sets_by_progress(3, true).concat() {
            let m = shape.mirror(set);
            assert_eq!(shape.mirror(m), set);
            assert_eq!(shape.progress(set, true), shape.progress(m, false));
        }
    }
}
