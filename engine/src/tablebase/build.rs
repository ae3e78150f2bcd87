//! Building the tables by retrograde analysis, in order of progress.
//!
//! Oska and Hexapawn pieces only move forward and captures remove pieces, so every move either
//! lowers the number of pieces or raises the *progress* of the position (the rows all pieces have
//! come from their homes) by at least one; a pass keeps both and swaps the side to move. The
//! builder therefore never iterates to a fixed point. Materials are built by rising total piece
//! count; a material `(w, b)` is built together with its colour mirror `(b, w)`, level by level
//! from the highest progress down. Within a level every position with a move depends only on
//! finished levels or smaller materials, so the level's positions are shared out among threads;
//! positions whose side must pass are done after them, from the same board with the other side to
//! move, which is then finished (or the board is a draw because neither side can move).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};

use super::file::{Header, checksum};
use super::index::Shape;
use super::value::{self, UNSET};
use super::{Retro, TablebaseError};
use crate::games::{MoveList, Side};

/// How far a build has got, reported after every level.
#[derive(Clone, Debug)]
pub struct Progress {
    /// The material being built (White, Black pieces; its mirror is built with it).
    pub material: (usize, usize),
    /// Levels of this material done, out of `levels`.
    pub level: usize,
    /// Levels of this material.
    pub levels: usize,
    /// Positions finished in the whole build.
    pub done: u64,
    /// Positions in the whole build.
    pub total: u64,
}

/// What to build: a game's size, up to `max_pieces` pieces a side, on `threads` threads.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// The game's size.
    pub size: usize,
    /// The most pieces of a side (the size for the whole game).
    pub max_pieces: usize,
    /// Worker threads.
    pub threads: usize,
}

/// The materials a plan builds, in build order: by rising total, each with its mirror.
pub fn materials(max_pieces: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for total in 2..=2 * max_pieces {
        for w in 1..=max_pieces {
            let b = total as isize - w as isize;
            if b >= 1 && b as usize <= max_pieces {
                out.push((w, b as usize));
            }
        }
    }
    out
}

/// Receives each finished table.
pub type Finished<'a> = dyn FnMut(Header, &[u8]) -> Result<(), TablebaseError> + 'a;

/// Builds every table of the plan. `finished` gets each material's table as soon as it and its
/// mirror are complete (to write it); the tables stay in memory for the larger materials.
pub fn build<G: Retro>(
    plan: Plan,
    report: &(dyn Fn(&Progress) + Sync),
    finished: &mut Finished<'_>,
) -> Result<(), TablebaseError> {
    let shape = Shape::new(G::layout_of(plan.size));
    let k = plan.max_pieces;
    let slot = |w: usize, b: usize| w * (k + 1) + b;
    let mut tables: Vec<Vec<AtomicU8>> = (0..(k + 1) * (k + 1)).map(|_| Vec::new()).collect();
    let total: u64 = materials(k).iter().map(|&(w, b)| shape.len(w, b)).sum();
    let mut done = 0u64;
    // The sets of each size grouped by progress, for White and for Black.
    let white_sets: Vec<Vec<Vec<u128>>> =
        (0..=k).map(|n| shape.sets_by_progress(n, true)).collect();
    let black_sets: Vec<Vec<Vec<u128>>> =
        (0..=k).map(|n| shape.sets_by_progress(n, false)).collect();
    for (w, b) in materials(k) {
        if w > b {
            continue; // built with its mirror (b, w)
        }
        let pair: Vec<(usize, usize)> = if w == b {
            vec![(w, b)]
        } else {
            vec![(w, b), (b, w)]
        };
        for &(tw, tb) in &pair {
            let len = shape.len(tw, tb) as usize;
            tables[slot(tw, tb)] = std::iter::repeat_with(|| AtomicU8::new(UNSET))
                .take(len)
                .collect();
        }
        let levels = shape.max_progress(w) + shape.max_progress(b) + 1;
        for (step, level) in (0..levels).rev().enumerate() {
            let builder = Level::<G> {
                shape: &shape,
                tables: &tables,
                slot: &slot,
                overflow: AtomicBool::new(false),
                _game: std::marker::PhantomData,
            };
            // Work items: a table of the pair, a Black progress, a slice of those Black sets. The
            // White sets vary fastest, so the positions after White's moves (looked up as their
            // mirrors, numbered by the Black set first) stay within a few rows of their table.
            let mut items = Vec::new();
            for &(tw, tb) in &pair {
                for (c, blacks) in black_sets[tb].iter().enumerate().take(level + 1) {
                    let white_progress = level - c;
                    if white_progress > shape.max_progress(tw)
                        || white_sets[tw][white_progress].is_empty()
                    {
                        continue;
                    }
                    for chunk in blacks.chunks(16) {
                        items.push((tw, tb, &white_sets[tw][white_progress], chunk));
                    }
                }
            }
            let next = AtomicUsize::new(0);
            let passes = Mutex::new(Vec::new());
            let counted = std::sync::atomic::AtomicU64::new(0);
            std::thread::scope(|s| {
                for _ in 0..plan.threads.max(1) {
                    s.spawn(|| {
                        let mut moves = MoveList::new();
                        let mut mine = Vec::new();
                        let mut n = 0u64;
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(&(tw, tb, whites, blacks)) = items.get(i) else {
                                break;
                            };
                            let table = &tables[slot(tw, tb)];
                            for &black in blacks {
                                for &white in whites {
                                    if white & black != 0 {
                                        continue;
                                    }
                                    n += 1;
                                    let pos = G::from_sets(plan.size, white, black);
                                    let index = shape.index(white, black) as usize;
                                    match builder.value(&pos, &mut moves) {
                                        Some(v) => table[index].store(v, Ordering::Relaxed),
                                        None => mine.push((tw, tb, index, pos)),
                                    }
                                }
                            }
                        }
                        passes.lock().expect("no worker panics").extend(mine);
                        counted.fetch_add(n, Ordering::Relaxed);
                    });
                }
            });
            // Passes: the same board with the other side to move is finished now.
            for (tw, tb, index, pos) in passes.into_inner().expect("no worker panics") {
                let after = pos.with_side(Side::Black);
                let v = value::before(builder.lookup(&after)).unwrap_or_else(|| {
                    builder.overflow.store(true, Ordering::Relaxed);
                    UNSET
                });
                tables[slot(tw, tb)][index].store(v, Ordering::Relaxed);
            }
            if builder.overflow.load(Ordering::Relaxed) {
                return Err(TablebaseError::TooLong {
                    max: value::MAX_DISTANCE,
                });
            }
            done += counted.into_inner();
            report(&Progress {
                material: (w, b),
                level: step + 1,
                levels,
                done,
                total,
            });
        }
        for &(tw, tb) in &pair {
            let values: Vec<u8> = std::mem::take(&mut tables[slot(tw, tb)])
                .into_iter()
                .map(AtomicU8::into_inner)
                .collect();
            if let Some(i) = values.iter().position(|&v| v == UNSET) {
                return Err(TablebaseError::Internal(format!(
                    "position {i} of material w{tw}b{tb} was never reached by the build order"
                )));
            }
            let header = Header {
                game: G::KIND,
                size: plan.size,
                white: tw,
                black: tb,
                count: values.len() as u64,
                checksum: checksum(&values),
            };
            finished(header, &values)?;
            tables[slot(tw, tb)] = values.into_iter().map(AtomicU8::new).collect();
        }
    }
    Ok(())
}

/// What the threads of one level share.
struct Level<'a, G> {
    shape: &'a Shape,
    tables: &'a [Vec<AtomicU8>],
    slot: &'a (dyn Fn(usize, usize) -> usize + Sync),
    overflow: AtomicBool,
    _game: std::marker::PhantomData<G>,
}

impl<G: Retro> Level<'_, G> {
    /// The value of a White-to-move position from finished entries, or `None` if White must pass.
    #[inline]
    fn value(&self, pos: &G, moves: &mut MoveList) -> Option<u8> {
        if let Some(o) = pos.board_outcome() {
            return Some(value::of_outcome(o, Side::White));
        }
        moves.clear();
        pos.generate(moves);
        let list = moves.as_slice();
        if list.is_empty() {
            return Some(value::loss(0));
        }
        if list[0].is_pass() {
            return None;
        }
        let mut best = UNSET;
        for &mv in list {
            let v = value::before(self.lookup(&pos.play(mv))).unwrap_or_else(|| {
                self.overflow.store(true, Ordering::Relaxed);
                value::loss(0)
            });
            best = value::better(best, v);
        }
        Some(best)
    }

    /// The finished value of a position, for its side to move. Finished games are in the tables
    /// too, except those where a side has no piece left (no table has a material with 0).
    #[inline]
    fn lookup(&self, pos: &G) -> u8 {
        let (white, black) = pos.sets();
        if white == 0 || black == 0 {
            let o = pos.board_outcome().expect("a side without pieces has lost");
            return value::of_outcome(o, pos.side_to_move());
        }
        let (w, b) = match pos.side_to_move() {
            Side::White => (white, black),
            Side::Black => (self.shape.mirror(black), self.shape.mirror(white)),
        };
        let table = &self.tables[(self.slot)(w.count_ones() as usize, b.count_ones() as usize)];
        let v = table[self.shape.index(w, b) as usize].load(Ordering::Relaxed);
        debug_assert!(
            v != UNSET,
            "the build order finishes {pos:?} before it is needed"
        );
        v
    }
}
