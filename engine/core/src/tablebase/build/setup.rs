//! What every pair of materials of a build shares ([`Setup`]: the board, the move templates, the
//! sets of squares by progress, built once a build), and the passes over one pair: level by
//! level of Black progress, the rows of a level shared out among the threads, or, for a material
//! that is its own mirror, sum by sum of progress, by rows and columns in turn
//! ([`Setup::self_mirror`]), with the Black passes settled after each sum.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering};

use super::super::index::Geometry;
use super::super::value;
use super::super::{Retro, TablebaseError};
use super::Tables;
use super::moves::{Template, reflection, templates};
use super::pair::{Pair, Scratch};
use super::sets::Group;
use super::transpose::transpose;
use crate::games::{Bits, bit};

/// What every pair of materials of a build shares: the board, the move templates, the sets of
/// squares by progress.
pub(super) struct Setup {
    pub(super) shape: Geometry,
    size: usize,
    moves: [Vec<Vec<Template>>; 2],
    mirror_bit: Vec<u128>,
    /// `reflect_bit[sq]`: the square at the other end of its row (left and right swapped), if
    /// the game's rules are the same on the board so turned; else empty.
    reflect_bit: Vec<u128>,
    /// `black_sets[n][p]`: the sets of n squares of Black progress p, each with its reflection
    /// (itself when the board is not reflected).
    black_sets: Vec<Vec<Vec<(u128, u128)>>>,
    /// `white_sets[n]`: the sets of n squares, by falling White progress.
    white_sets: Vec<Group>,
    /// `white_groups[n][p]`: the sets of n squares of White progress p, in colex order, each
    /// with its mirror and its colex rank among all squares (for [`Setup::self_mirror`]).
    white_groups: Vec<Vec<Vec<(u128, u128, usize)>>>,
}

impl Setup {
    /// The setup for materials of up to `k` pieces a side of `G` at `size`; refuses a board too
    /// large for the builder's 32-bit rankers.
    pub(super) fn new<G: Retro>(size: usize, k: usize) -> Result<Setup, TablebaseError> {
        let shape = Geometry::new(G::layout_of(size));
        let squares = shape.squares();
        // The rankers hold binomials C(n, j), n below the number of squares and j up to k, in
        // 32 bits (tables that large would not fit in memory anyway).
        if (0..squares).any(|n| (0..=k).any(|j| shape.choose(n, j) > u64::from(u32::MAX))) {
            return Err(TablebaseError::Unsupported(format!(
                "{} {size} with {k} pieces a side is too large to build",
                G::KIND,
            )));
        }
        let moves = templates::<G>(size, squares)?;
        let mirror_bit = (0..squares)
            .map(|sq| bit(shape.mirror_square(sq)))
            .collect();
        let reflect_bit = reflection::<G>(size, &moves)?;
        let reflect = |set: u128| {
            if reflect_bit.is_empty() {
                set
            } else {
                Bits(set).fold(0, |r, sq| r | reflect_bit[sq])
            }
        };
        let black_sets = (0..=k)
            .map(|n| {
                let by_progress = shape.sets_by_progress(n, false);
                by_progress
                    .into_iter()
                    .map(|sets| sets.into_iter().map(|set| (set, reflect(set))).collect())
                    .collect()
            })
            .collect();
        let white_sets = (0..=k)
            .map(|n| {
                let sets = shape.sets_by_progress(n, true);
                Group::new(sets.iter().rev().flatten().copied(), &shape, reflect)
            })
            .collect();
        let white_groups = (0..=k)
            .map(|n| {
                shape
                    .sets_by_progress(n, true)
                    .into_iter()
                    .map(|sets| {
                        sets.into_iter()
                            .map(|set| (set, shape.mirror(set), shape.rank(set) as usize))
                            .collect()
                    })
                    .collect()
            })
            .collect();
        Ok(Setup {
            shape,
            size,
            moves,
            mirror_bit,
            reflect_bit,
            black_sets,
            white_sets,
            white_groups,
        })
    }

    /// Computes every position of `(w, b)` (w <= b) and its mirror into `t.btm` and `t.wtm`,
    /// one Black progress (a level) at a time; `progress(level, levels, positions)` after each.
    pub(super) fn pair<G: Retro>(
        &self,
        (w, b): (usize, usize),
        threads: usize,
        t: Tables<'_>,
        progress: &mut dyn FnMut(usize, usize, u64),
    ) -> Result<(), TablebaseError> {
        let shape = &self.shape;
        let squares = shape.squares();
        let pair = Pair::<G> {
            shape,
            size: self.size,
            w,
            b,
            moves: &self.moves,
            mirror_bit: &self.mirror_bit,
            whites: &self.white_sets[w],
            row_len: shape.choose(squares - b, w) as usize,
            btm: t.btm,
            wtm: t.wtm,
            wtm_less: t.wtm_less,
            wtm_less_row_len: shape.choose(squares - b, w - 1) as usize,
            btm_less: t.btm_less,
            btm_less_row_len: shape.choose(squares - b + 1, w) as usize,
            overflow: AtomicBool::new(false),
            _game: std::marker::PhantomData,
        };
        if w == b && G::SELF_MIRROR_ONCE {
            return self.self_mirror(&pair, threads, progress);
        }
        let stages = &self.black_sets[b];
        let levels = stages.len();
        // Each position of the pair is computed once (twice for w == b: the table is its own
        // mirror, made in both orders).
        let per_set = pair.row_len as u64 * if w == b { 1 } else { 2 };
        for (step, sets) in stages.iter().rev().enumerate() {
            // A Black set and its reflection have the same progress: the row of the first of
            // the two is computed, the other's is the same values turned left to right.
            let computed: Vec<(u128, u128)> = sets
                .iter()
                .copied()
                .filter(|&(black, reflected)| black <= reflected)
                .collect();
            let next = AtomicUsize::new(0);
            std::thread::scope(|s| {
                for _ in 0..threads.max(1) {
                    s.spawn(|| {
                        let mut scratch = Scratch::default();
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(&(black, reflected)) = computed.get(i) else {
                                break;
                            };
                            if squares <= 64 {
                                pair.row::<u64>(black, &mut scratch);
                            } else {
                                pair.row::<u128>(black, &mut scratch);
                            }
                            if reflected != black {
                                if squares <= 64 {
                                    pair.reflect_row::<u64>(black, reflected, &mut scratch);
                                } else {
                                    pair.reflect_row::<u128>(black, reflected, &mut scratch);
                                }
                            }
                        }
                    });
                }
            });
            if pair.overflow.load(Ordering::Relaxed) {
                return Err(TablebaseError::TooLong {
                    max: value::MAX_DISTANCE,
                });
            }
            progress(step + 1, levels, per_set * sets.len() as u64);
        }
        Ok(())
    }

    /// Computes a material that is its own colour mirror, `(k, k)`: one table T (White to
    /// move; Black to move is T at the mirrored sets), each value once. The value of Black to
    /// move on (W, B), T(m(B), m(W)) (m: the mirror), is the best of Black's moves, each to
    /// T(W, B') with B' of one more Black progress; so T is computed by falling "sum" (White
    /// progress plus Black progress), and the values of a sum read only those of the sum above.
    /// Every other sum is computed row by row of the Black sets ([`Pair::mirror_row`]: reads
    /// the rows of the order Black set first, `pair.wtm`, writes a row of the file's order,
    /// `pair.btm`), the sums between them column by column of the White sets
    /// ([`Pair::mirror_column`]: reads a row of the file's order, writes one of the order Black
    /// set first), so that each sum reads the order the sum above wrote and no sum is turned
    /// from one order into the other; at the end the values in the order Black set first are
    /// turned into the file's order. Before, both orders were computed in full: twice the work.
    fn self_mirror<G: Retro>(
        &self,
        pair: &Pair<'_, G>,
        threads: usize,
        progress: &mut dyn FnMut(usize, usize, u64),
    ) -> Result<(), TablebaseError> {
        let k = pair.w;
        let squares = self.shape.squares();
        let whites = &self.white_groups[k];
        let blacks = &self.black_sets[k];
        let levels = whites.len() + blacks.len() - 1;
        let reflect = |set: u128| {
            if self.reflect_bit.is_empty() {
                set
            } else {
                Bits(set).fold(0, |r, sq| r | self.reflect_bit[sq])
            }
        };
        let white_groups: Vec<Group> = whites
            .iter()
            .map(|sets| Group::new(sets.iter().map(|&(set, _, _)| set), &self.shape, reflect))
            .collect();
        let black_groups: Vec<Group> = blacks
            .iter()
            .map(|sets| Group::new(sets.iter().map(|&(set, _)| set), &self.shape, reflect))
            .collect();
        for (step, sum) in (0..levels).rev().enumerate() {
            let by_rows = step % 2 == 0;
            // By rows: the Black sets of each progress with the White progress that makes the
            // sum; by columns, the White sets likewise (one of each pair of reflections).
            let items: Vec<(usize, u128, u128)> = if by_rows {
                blacks
                    .iter()
                    .enumerate()
                    .filter(|&(c, _)| c <= sum && sum - c < whites.len())
                    .flat_map(|(c, sets)| {
                        sets.iter()
                            .filter(|&&(black, reflected)| black <= reflected)
                            .map(move |&(black, reflected)| (sum - c, black, reflected))
                    })
                    .collect()
            } else {
                whites
                    .iter()
                    .enumerate()
                    .filter(|&(a, _)| a <= sum && sum - a < blacks.len())
                    .flat_map(|(a, sets)| {
                        sets.iter()
                            .map(|&(white, _, _)| (white, reflect(white)))
                            .filter(|&(white, reflected)| white <= reflected)
                            .map(move |(white, reflected)| (sum - a, white, reflected))
                    })
                    .collect()
            };
            let next = AtomicUsize::new(0);
            let filled = AtomicU64::new(0);
            let passes = std::sync::Mutex::new(Vec::new());
            std::thread::scope(|s| {
                for _ in 0..threads.max(1) {
                    s.spawn(|| {
                        let mut scratch = Scratch::default();
                        let mut mine = Vec::new();
                        let mut count = 0;
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(&(other, set, reflected)) = items.get(i) else {
                                break;
                            };
                            let (s, m) = (&mut scratch, &mut mine);
                            // The sets of the other side that go with this one.
                            let g = if by_rows {
                                &white_groups[other]
                            } else {
                                &black_groups[other]
                            };
                            count += match (by_rows, squares <= 64) {
                                (true, true) => pair.mirror_row::<u64>(set, reflected, g, s, m),
                                (true, false) => pair.mirror_row::<u128>(set, reflected, g, s, m),
                                (false, true) => pair.mirror_column::<u64>(set, reflected, g, s, m),
                                (false, false) => {
                                    pair.mirror_column::<u128>(set, reflected, g, s, m)
                                }
                            };
                        }
                        filled.fetch_add(count, Ordering::Relaxed);
                        passes
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .append(&mut mine);
                    });
                }
            });
            // Black passes: the value of the same board with White to move, of the same sum
            // and computed above (White has a move, else the game is over), in the same order.
            let table = if by_rows { pair.btm } else { pair.wtm };
            for pass in passes.into_inner().unwrap_or_else(|e| e.into_inner()) {
                let v = pair.before(table[pass.source].load(Ordering::Relaxed));
                for at in [Some(pass.at), pass.reflected].into_iter().flatten() {
                    table[at].store(v, Ordering::Relaxed);
                }
            }
            if pair.overflow.load(Ordering::Relaxed) {
                return Err(TablebaseError::TooLong {
                    max: value::MAX_DISTANCE,
                });
            }
            progress(step + 1, levels, filled.into_inner());
        }
        // The sums computed by columns (those of the parity of `levels`: the first sum, of
        // `levels - 1`, is by rows), into the file's order; the others are not looked at.
        let by_columns = Some(levels % 2);
        transpose(
            &self.shape,
            (k, k),
            pair.wtm,
            pair.btm,
            true,
            by_columns,
            threads,
        );
        Ok(())
    }
}

/// Stores a value computed by [`Pair::mirror_row`] or [`Pair::mirror_column`] in `table` at
/// `at` and at the board turned left to right, or, for a pass (`None`), leaves it to `passes`
/// with the place of the value it takes (`source`).
pub(super) fn settle(
    table: &[AtomicU8],
    value: Option<u8>,
    (at, reflected): (usize, Option<usize>),
    passes: &mut Vec<Pass>,
    source: impl FnOnce() -> usize,
) {
    match value {
        Some(v) => {
            for at in [Some(at), reflected].into_iter().flatten() {
                table[at].store(v, Ordering::Relaxed);
            }
        }
        None => passes.push(Pass {
            at,
            reflected,
            source: source(),
        }),
    }
}

/// A Black pass found by [`Pair::mirror_row`] or [`Pair::mirror_column`], settled when the
/// sum is computed, in the order that the sum writes.
pub(super) struct Pass {
    /// Where its value goes.
    at: usize,
    /// Where the same value goes on the board turned left to right, if that is another board.
    reflected: Option<usize>,
    /// The same board with White to move.
    source: usize,
}
