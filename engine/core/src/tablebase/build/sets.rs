//! The bit-mask machinery of the builder over sets of squares: a [`Group`] of sets with, for
//! each square, the mask of the sets holding it (so the sets free of another side's set come
//! out as a mask), and the [`Rankers`] that give a set's colex rank among the squares another
//! set leaves free.

use super::super::index::{Geometry, Set};
use crate::games::{Bits, bit};

/// The sets that a row or a column goes through for one set of the other side (every White set,
/// by falling progress, for [`Pair::row`] and [`Pair::reflect_row`]; those of one progress for
/// [`Pair::mirror_row`] and [`Pair::mirror_column`]), with what each looks up precomputed, and
/// which of them hold each square: the sets that leave the other side's set free are found as a
/// bit mask, so the others cost nothing (testing each set took a branch, mispredicted often:
/// about two thirds of the sets overlap at Oska 5's 5 against 5).
pub(super) struct Group {
    members: Vec<Member>,
    /// Words of a mask: one bit a member.
    words: usize,
    /// `holds[sq * words + i]`: bit j of word i set when member 64 i + j holds `sq`.
    holds: Vec<u64>,
}

/// A set of a [`Group`].
#[derive(Clone, Copy)]
pub(super) struct Member {
    /// The set of squares.
    pub(super) set: u128,
    /// The set mirrored (the other colour's).
    pub(super) mirrored: u128,
    /// The mirrored set turned left to right (itself when the board is not).
    pub(super) turned: u128,
    /// The set turned left to right.
    pub(super) reflected: u128,
}

impl Group {
    /// The group of `sets`, in their order; `reflect` turns a set left to right.
    pub(super) fn new(
        sets: impl Iterator<Item = u128>,
        shape: &Geometry,
        reflect: impl Fn(u128) -> u128,
    ) -> Group {
        let members: Vec<Member> = sets
            .map(|set| {
                let mirrored = shape.mirror(set);
                Member {
                    set,
                    mirrored,
                    turned: reflect(mirrored),
                    reflected: reflect(set),
                }
            })
            .collect();
        let words = members.len().div_ceil(64);
        let mut holds = vec![0u64; shape.squares() * words];
        for (j, m) in members.iter().enumerate() {
            for sq in Bits(m.set) {
                holds[sq * words + j / 64] |= 1 << (j % 64);
            }
        }
        Group {
            members,
            words,
            holds,
        }
    }

    /// Calls `f` with each member that holds no square of `other`, in order.
    #[inline(always)]
    pub(super) fn each_free_of(
        &self,
        other: u128,
        free: &mut Vec<u64>,
        mut f: impl FnMut(&Member),
    ) {
        free.clear();
        free.resize(self.words, u64::MAX);
        if !self.members.len().is_multiple_of(64) {
            free[self.words - 1] = (1 << (self.members.len() % 64)) - 1;
        }
        for sq in Bits(other) {
            let holds = &self.holds[sq * self.words..(sq + 1) * self.words];
            for (f, h) in free.iter_mut().zip(holds) {
                *f &= !h;
            }
        }
        for (word, &mask) in free.iter().enumerate() {
            let mut rest = mask;
            while rest != 0 {
                f(&self.members[word * 64 + rest.trailing_zeros() as usize]);
                rest &= rest - 1;
            }
        }
    }
}

/// The colex ranks of sets among the squares not in a fixed set (see
/// [`super::super::index`]), for many fixed sets: ranker `r` holds
/// `parts[r + j * squares + sq]`, the share of square `sq` when it is the set's j-th lowest
/// square.
#[derive(Default)]
pub(super) struct Rankers {
    parts: Vec<u32>,
    squares: usize,
    used: usize,
}

impl Rankers {
    /// Forgets every ranker.
    pub(super) fn clear(&mut self, shape: &Geometry) {
        self.squares = shape.squares();
        self.used = 0;
    }

    /// A ranker for sets of up to `k` squares among those not in `skip`.
    pub(super) fn add(&mut self, shape: &Geometry, skip: u128, k: usize) -> usize {
        // Checked to fit in u32 before the build.
        self.add_with(skip, k, |c, j| shape.choose(c, j + 1) as u32)
    }

    /// A table of the changes of rank when one square below the rest of the set leaves the
    /// skipped squares (see [`Pair::row`]): `C(c - 1, j)` for a square numbered c among those
    /// not in `skip` when it is the set's j-th lowest, for sets of up to `k` squares.
    pub(super) fn add_shift(&mut self, shape: &Geometry, skip: u128, k: usize) -> usize {
        self.add_with(skip, k, |c, j| {
            if c == 0 {
                0
            } else {
                shape.choose(c - 1, j) as u32
            }
        })
    }

    /// A table of `k` entries for every square not in `skip`: `value(c, j)` for the square
    /// numbered c among those not in `skip`, for j from 0 to k - 1. Returns where it starts.
    fn add_with(&mut self, skip: u128, k: usize, value: impl Fn(usize, usize) -> u32) -> usize {
        let at = self.used;
        self.used += k * self.squares;
        if self.parts.len() < self.used {
            self.parts.resize(self.used, 0);
        }
        let mut c = 0;
        for sq in 0..self.squares {
            if skip & bit(sq) != 0 {
                continue;
            }
            for j in 0..k {
                self.parts[at + j * self.squares + sq] = value(c, j);
            }
            c += 1;
        }
        at
    }

    /// Entry `j` of square `sq` of ranker `at`.
    #[inline(always)]
    pub(super) fn part(&self, at: usize, j: usize, sq: usize) -> usize {
        self.parts[at + j * self.squares + sq] as usize
    }

    /// The rank of `set` (disjoint from the skipped squares) by ranker `at`.
    #[inline(always)]
    pub(super) fn rank<S: Set>(&self, at: usize, set: S) -> usize {
        let mut sum = 0usize;
        let mut base = at;
        let mut rest = set;
        while rest != S::EMPTY {
            sum += self.parts[base + rest.lowest()] as usize;
            rest = rest.without_lowest();
            base += self.squares;
        }
        sum
    }
}
