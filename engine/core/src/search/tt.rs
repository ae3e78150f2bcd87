//! The transposition table: a power-of-two array of two-entry buckets, sized in MiB.
//!
//! Slot 0 of a bucket keeps the entry searched deepest, slot 1 the most recent one. An entry is two
//! 64-bit words, the packed data and the full key xored with the data, both atomic: threads may
//! share one table without locks, and an entry torn by two concurrent writes fails the key check
//! (it reads as a miss). The full 64-bit key makes a hit a real hit for any practical purpose.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::games::Move;

/// What the stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The score is exact.
    Exact,
    /// The true score is at least the stored one (a beta cutoff).
    Lower,
    /// The true score is at most the stored one (no move raised alpha).
    Upper,
}

impl Bound {
    /// What a fail-soft value searched with the window `(alpha, beta)` says of the true score.
    #[inline]
    pub(crate) fn of(value: i32, alpha: i32, beta: i32) -> Bound {
        if value >= beta {
            Bound::Lower
        } else if value > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// One stored search result (unpacked).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Entry {
    /// Score, with win/loss distances counted from this node (not from the root).
    pub score: i32,
    /// Remaining depth the node was searched to (the exact solver stores larger values, see
    /// [`SOLVED_DEPTH`]).
    pub depth: u16,
    from: u8,
    to: u8,
    /// Bit 0-1: bound; bit 2: complete (no leaf cut by the depth limit); bit 3: has a move; bit 7: used.
    flags: u8,
}

/// Depths from here up mark entries of the exact solver (see `search::solve`): the depth-limited
/// search never cuts with them (their depth equals no remaining depth it searches to), and they
/// are kept in preference to depth-limited entries. The solver adds log2 of the subtree size.
pub(crate) const SOLVED_DEPTH: u32 = 1000;

impl Entry {
    const USED: u8 = 0x80;
    const COMPLETE: u8 = 0x04;
    const HAS_MOVE: u8 = 0x08;

    /// The bound type.
    pub fn bound(&self) -> Bound {
        match self.flags & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        }
    }

    /// Whether the subtree behind the score had no leaf cut by the depth limit, so the score is a
    /// game-theoretic bound valid at any depth.
    pub fn complete(&self) -> bool {
        self.flags & Self::COMPLETE != 0
    }

    /// The best (or refuting) move found, if any.
    pub fn best(&self) -> Option<Move> {
        (self.flags & Self::HAS_MOVE != 0).then_some(Move::new(self.from, self.to))
    }

    /// Packs into one word: score (24 bits, signed), flags, depth, from, to.
    #[inline]
    fn pack(&self) -> u64 {
        (self.score as u32 as u64 & 0xFF_FFFF)
            | (self.flags as u64) << 24
            | (self.depth as u64) << 32
            | (self.from as u64) << 48
            | (self.to as u64) << 56
    }

    #[inline]
    fn unpack(d: u64) -> Entry {
        Entry {
            score: ((d as u32) << 8) as i32 >> 8,
            flags: (d >> 24) as u8,
            depth: (d >> 32) as u16,
            from: (d >> 48) as u8,
            to: (d >> 56) as u8,
        }
    }
}

/// One slot: the key xored with the data, and the data.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    #[inline]
    fn load(&self) -> (u64, u64) {
        let data = self.data.load(Ordering::Relaxed);
        let check = self.check.load(Ordering::Relaxed);
        (check ^ data, data)
    }

    #[inline]
    fn save(&self, key: u64, data: u64) {
        self.data.store(data, Ordering::Relaxed);
        self.check.store(key ^ data, Ordering::Relaxed);
    }
}

/// `count` empty buckets, allocated zeroed: the allocator hands out fresh pages that the kernel
/// fills with zeros on first touch, so a search pays for the buckets it uses, not for the
/// table's size (a one-shot search with the default 64 MiB took 20-26 ms as a whole process
/// when every bucket was written at the start, 4-5 ms with `--hash 1`).
fn zeroed_buckets(count: usize) -> Box<[[Slot; 2]]> {
    let Ok(layout) = std::alloc::Layout::array::<[Slot; 2]>(count) else {
        std::alloc::handle_alloc_error(std::alloc::Layout::new::<[Slot; 2]>());
    };
    if layout.size() == 0 {
        return Box::new([]);
    }
    // SAFETY: the layout has a non-zero size; all-zero bytes are a valid `Slot` (two atomics
    // holding 0, the empty slot); the allocation has the layout `Box<[[Slot; 2]]>` of `count`
    // elements frees with, and the box owns it.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<[Slot; 2]>();
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, count))
    }
}

/// The table itself; shared between threads through `&Table`.
pub(crate) struct Table {
    buckets: Box<[[Slot; 2]]>,
}

impl Table {
    /// A table of at most `mib` MiB (0 disables it).
    pub fn new(mib: usize) -> Table {
        let bytes = mib.saturating_mul(1 << 20);
        let per = std::mem::size_of::<[Slot; 2]>();
        let mut count = bytes / per;
        if count > 0 {
            // Largest power of two that fits.
            count = 1 << (usize::BITS - 1 - count.leading_zeros());
        }
        Table {
            buckets: zeroed_buckets(count),
        }
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        for b in self.buckets.iter() {
            for s in b {
                s.save(0, 0);
            }
        }
    }

    #[inline]
    fn index(&self, key: u64) -> Option<usize> {
        (!self.buckets.is_empty()).then(|| (key as usize) & (self.buckets.len() - 1))
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = &self.buckets[self.index(key)?];
        b.iter().find_map(|s| {
            let (k, d) = s.load();
            (k == key && Entry::unpack(d).flags & Entry::USED != 0).then(|| Entry::unpack(d))
        })
    }

    /// Stores a result.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        score: i32,
        depth: u32,
        bound: Bound,
        complete: bool,
        best: Option<Move>,
    ) {
        let Some(i) = self.index(key) else { return };
        let (from, to) = best.map_or((0, 0), |m| (m.from, m.to));
        let entry = Entry {
            score,
            depth: depth.min(u16::MAX as u32) as u16,
            from,
            to,
            flags: Entry::USED
                | match bound {
                    Bound::Exact => 0,
                    Bound::Lower => 1,
                    Bound::Upper => 2,
                }
                | if complete { Entry::COMPLETE } else { 0 }
                | if best.is_some() { Entry::HAS_MOVE } else { 0 },
        };
        let bucket = &self.buckets[i];
        let (deep_key, deep_data) = bucket[0].load();
        let deep = Entry::unpack(deep_data);
        if deep.flags & Entry::USED == 0 || deep_key == key || entry.depth >= deep.depth {
            bucket[0].save(key, entry.pack());
        } else {
            bucket[1].save(key, entry.pack());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_table_is_empty_in_every_bucket() {
        let t = Table::new(1);
        assert_eq!(
            t.buckets.len(),
            (1 << 20) / std::mem::size_of::<[Slot; 2]>()
        );
        for b in t.buckets.iter() {
            for s in b {
                assert_eq!(s.load(), (0, 0));
            }
        }
        assert!(Table::new(0).buckets.is_empty());
        assert!(Table::new(0).probe(7).is_none());
    }

    #[test]
    fn entries_round_trip() {
        let t = Table::new(1);
        for (i, score) in [0, 1, -1, 999_999, -999_999, 100_000, -100_000]
            .into_iter()
            .enumerate()
        {
            let key = 0x1234_5678_9ABC_DEF0u64.wrapping_mul(i as u64 + 1);
            let m = Move::new(i as u8, 127);
            t.store(key, score, 1000 + i as u32, Bound::Upper, true, Some(m));
            let e = t.probe(key).unwrap();
            assert_eq!((e.score, e.depth as u32), (score, 1000 + i as u32));
            assert_eq!(
                (e.bound(), e.complete(), e.best()),
                (Bound::Upper, true, Some(m))
            );
            assert!(t.probe(key ^ 1).is_none());
        }
        t.clear();
        assert!(t.probe(0x1234_5678_9ABC_DEF0).is_none());
        t.store(0, 5, 0, Bound::Exact, false, Some(Move::PASS));
        let e = t.probe(0).unwrap();
        assert_eq!((e.score, e.best()), (5, Some(Move::PASS)));
    }
}
