//! The transposition table: a power-of-two array of two-entry buckets, sized in MiB.
//!
//! Slot 0 of a bucket keeps the entry searched deepest, slot 1 the most recent one. An entry holds
//! the full 64-bit key, so a hit is a real hit for any practical purpose.

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

/// One stored search result.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Entry {
    key: u64,
    /// Score, with win/loss distances counted from this node (not from the root).
    pub score: i32,
    /// Remaining depth the node was searched to.
    pub depth: u16,
    from: u8,
    to: u8,
    /// Bit 0-1: bound; bit 2: complete (no leaf cut by the depth limit); bit 3: has a move; bit 7: used.
    flags: u8,
}

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
}

/// The table itself.
pub(crate) struct Table {
    buckets: Vec<[Entry; 2]>,
}

impl Table {
    /// A table of at most `mib` MiB (0 disables it).
    pub fn new(mib: usize) -> Table {
        let bytes = mib.saturating_mul(1 << 20);
        let per = std::mem::size_of::<[Entry; 2]>();
        let mut count = bytes / per;
        if count > 0 {
            // Largest power of two that fits.
            count = 1 << (usize::BITS - 1 - count.leading_zeros());
        }
        Table {
            buckets: vec![[Entry::default(); 2]; count],
        }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.buckets.fill([Entry::default(); 2]);
    }

    #[inline]
    fn index(&self, key: u64) -> Option<usize> {
        (!self.buckets.is_empty()).then(|| (key as usize) & (self.buckets.len() - 1))
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = &self.buckets[self.index(key)?];
        b.iter()
            .find(|e| e.flags & Entry::USED != 0 && e.key == key)
            .copied()
    }

    /// Stores a result.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
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
            key,
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
        let bucket = &mut self.buckets[i];
        let deep = &bucket[0];
        if deep.flags & Entry::USED == 0 || deep.key == key || entry.depth >= deep.depth {
            bucket[0] = entry;
        } else {
            bucket[1] = entry;
        }
    }
}
