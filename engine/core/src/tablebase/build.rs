//! Building the tables by retrograde analysis, in order of progress, a row at a time.
//!
//! Oska and Hexapawn pieces only move forward and captures remove pieces, so every move either
//! lowers the number of pieces or moves a piece of the mover forward; a pass keeps the board and
//! swaps the side to move. The builder therefore never iterates to a fixed point. Materials are
//! built by rising total piece count, a material `(w, b)` (w White and b Black pieces, w <= b)
//! together with its colour mirror `(b, w)`, one Black set B at a time, the Black sets taken by
//! falling Black progress (the rows the Black pieces have come from their home). For one Black
//! set, the White sets are taken by falling White progress, and for each board both sides to
//! move are done:
//!
//! - Black to move: Black's moves lead to Black sets of higher progress (finished) or to a
//!   material with fewer pieces. These values form one row of the file table of `(b, w)`: the
//!   row of the mirror of B (Black to move is stored as its colour mirror, see [`super::index`]).
//! - White to move: White's moves keep B and lead to White sets of higher progress (done just
//!   before, in the row above) or capture a Black piece (a smaller material). These values are
//!   stored in a second copy of the table of `(w, b)` numbered by the Black set first
//!   ("B-major"), where they too form one row: the row that Black's moves from a lower Black set
//!   read.
//! - A side that must pass takes the value of the same board with the other side to move (both
//!   stuck is a finished game), done in the same step.
//!
//! So every write goes to one row and every read to a few rows of a few kilobytes: the build is
//! not bound by memory latency, as it is when each position's value lands far from the last. The
//! Black sets of one progress are independent and shared out among the threads. At the end of a
//! pair, the B-major copy of `(w, b)` is turned into the file's order (White set first); it is
//! kept while the next total is built, whose Black captures read it. A material with as many
//! pieces a side is its own mirror: it is computed once, by sums of progress
//! (`Setup::self_mirror`), where the game's [`Retro::SELF_MIRROR_ONCE`] says so, else in both
//! orders (twice the work of one).
//!
//! [`build_material`] builds one pair alone from the files of the two materials it reads (one
//! job of a cluster build, see [`super::jobs`]): the table after Black captures is turned Black
//! set first when read.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering};

use super::file::{Header, checksum};
use super::index::{Geometry, MAX_PIECES, Set, subsets};
use super::value::{self, UNSET};
use super::{Retro, TablebaseError};
use crate::games::{Bits, MoveList, Side, bit};

/// How far a build has got, reported after every stage.
#[derive(Clone, Debug)]
pub struct BuildProgress {
    /// The material being built (White, Black pieces; its mirror is built with it).
    pub material: (usize, usize),
    /// Stages of this material done, out of `levels` (one stage per Black progress).
    pub level: usize,
    /// Stages of this material.
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

/// The most bytes of tables a build of `plan` on `shape` holds at once: while a pair is
/// built, its tables (two orders; three for a pair of two materials at the end) beside the
/// tables of the total below it (the file's order and the copy numbered Black set first),
/// which it reads or which are being written meanwhile. Older tables are written already and
/// dropped.
pub fn memory(plan: &Plan, shape: &Geometry) -> u64 {
    // (total pieces, bytes) of each pair's tables kept after it is built.
    let mut kept: Vec<(usize, u64)> = Vec::new();
    let mut peak = 0;
    for (w, b) in materials(plan.max_pieces) {
        if w > b {
            continue;
        }
        kept.retain(|&(total, _)| total + 1 >= w + b);
        let len = shape.len(w, b);
        let building = if w == b { 2 * len } else { 3 * len };
        peak = peak.max(kept.iter().map(|&(_, n)| n).sum::<u64>() + building);
        // Both materials' file tables and one copy; a material its own mirror keeps one.
        kept.push((w + b, if w == b { len } else { 3 * len }));
    }
    peak
}

/// Receives each finished table.
pub type Finished<'a> = dyn FnMut(Header, &[u8]) -> Result<(), TablebaseError> + 'a;

/// A table shared by the threads (each writes its own rows).
type Values = Vec<AtomicU8>;

/// A table of `len` unset entries.
fn unset(len: usize) -> Values {
    vec![UNSET; len].into_iter().map(AtomicU8::new).collect()
}

/// Builds every table of the plan. `finished` gets each material's table as soon as it and its
/// mirror are complete (to write it); the tables stay in memory for the larger materials.
pub fn build<G: Retro>(
    plan: Plan,
    report: &(dyn Fn(&BuildProgress) + Sync),
    finished: &mut Finished<'_>,
) -> Result<(), TablebaseError> {
    build_measured::<G>(plan, report, finished).map(|_| ())
}

/// [`build`], returning the most bytes of tables it held at once (what [`memory`] foretells).
pub fn build_measured<G: Retro>(
    plan: Plan,
    report: &(dyn Fn(&BuildProgress) + Sync),
    finished: &mut Finished<'_>,
) -> Result<u64, TablebaseError> {
    let k = plan.max_pieces;
    let setup = Setup::new::<G>(plan.size, k)?;
    let shape = &setup.shape;
    let mut held = Held::default();
    let slot = |w: usize, b: usize| w * (k + 1) + b;
    // `file[slot(w, b)]`: the finished White-to-move table of (w, b) in the file's order (White
    // set first); `black_first[slot(w, b)]`: the same values numbered Black set first.
    let mut file: Vec<Vec<u8>> = (0..(k + 1) * (k + 1)).map(|_| Vec::new()).collect();
    let mut black_first: Vec<Vec<u8>> = (0..(k + 1) * (k + 1)).map(|_| Vec::new()).collect();
    let total: u64 = materials(k).iter().map(|&(w, b)| shape.len(w, b)).sum();
    let mut done = 0u64;
    // The tables of the material before, handed to `finished` (checked, summed, written) on
    // this thread while the next material is computed on the others.
    let mut unwritten: Vec<(usize, usize)> = Vec::new();
    for (w, b) in materials(k) {
        if w > b {
            continue; // built with its mirror (b, w)
        }
        // This total reads the tables of the total below (Black captures the copy numbered
        // Black set first, White captures the file's order); older ones are written already
        // (they were handed over while the material after them was computed) and no longer
        // needed.
        for x in 1..=k {
            for y in 1..=k {
                if x + y + 1 < w + b {
                    held.drop(&mut black_first[slot(x, y)]);
                    held.drop(&mut file[slot(x, y)]);
                }
            }
        }
        let len = shape.len(w, b) as usize;
        let btm = held.table(len);
        let wtm = held.table(len);
        let (files, tables) = (&file, (&btm, &wtm));
        let wtm_less: &[u8] = if w > 1 {
            &black_first[slot(w - 1, b)]
        } else {
            &[]
        };
        let progress = &mut progress_of(report, (w, b), &mut done, total);
        std::thread::scope(|scope| {
            let computing = scope.spawn(|| {
                setup.pair::<G>(
                    (w, b),
                    plan.threads,
                    Tables {
                        btm: tables.0,
                        wtm: tables.1,
                        wtm_less,
                        btm_less: if b > 1 { &files[slot(b - 1, w)] } else { &[] },
                    },
                    progress,
                )
            });
            let written = unwritten.drain(..).try_for_each(|(tw, tb)| {
                hand_over::<G>(plan.size, (tw, tb), &files[slot(tw, tb)], finished)
            });
            let computed = computing
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            written.and(computed)
        })?;
        let mut wtm = wtm;
        if w != b {
            let white_first = held.table(len);
            transpose(shape, (w, b), &wtm, &white_first, true, None, plan.threads);
            file[slot(w, b)] = finished_values(white_first);
            black_first[slot(w, b)] = finished_values(wtm);
        } else {
            // The mirror of (w, w) is itself: no later material reads this copy.
            held.drop(&mut wtm);
        }
        file[slot(b, w)] = finished_values(btm);
        unwritten = pair_of(w, b);
    }
    for (tw, tb) in unwritten {
        hand_over::<G>(plan.size, (tw, tb), &file[slot(tw, tb)], finished)?;
    }
    Ok(held.peak)
}

/// The values of a table no longer written to.
fn finished_values(table: Values) -> Vec<u8> {
    table.into_iter().map(AtomicU8::into_inner).collect()
}

/// The materials a job of material `(w, b)` (w <= b) writes: it and its mirror.
fn pair_of(w: usize, b: usize) -> Vec<(usize, usize)> {
    if w == b {
        vec![(w, b)]
    } else {
        vec![(w, b), (b, w)]
    }
}

/// The materials whose tables a job of material `(w, b)` (w <= b, built with its mirror)
/// reads: the White-to-move tables after Black captures, (w - 1, b), and after White captures,
/// (b - 1, w) (Black to move, stored as its mirror). Fewer where a side has one piece left.
pub fn inputs(w: usize, b: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if w > 1 {
        out.push((w - 1, b));
    }
    if b > 1 && !out.contains(&(b - 1, w)) {
        out.push((b - 1, w));
    }
    out
}

/// The most bytes of tables [`build_material`] of `(w, b)` (w <= b) holds at once: the input
/// after Black captures, read and turned Black set first (two copies a moment), then with it
/// the input after White captures and both orders of the pair, and at the end the pair's three
/// tables (two for a material that is its own mirror) while the copy is turned into the file's
/// order.
pub fn material_memory(shape: &Geometry, (w, b): (usize, usize)) -> u64 {
    let len = shape.len(w, b);
    let less_white = if w > 1 { shape.len(w - 1, b) } else { 0 };
    let less_black = if b > 1 { shape.len(b - 1, w) } else { 0 };
    let end = if w == b { 2 * len } else { 3 * len };
    (2 * less_white)
        .max(less_white + less_black + 2 * len)
        .max(end)
}

/// Builds the tables of one material `(w, b)` (w <= b) and its mirror `(b, w)`, computed
/// together, from the tables of the materials it reads ([`inputs`]): `input` gives each in the
/// file's order (checked), `finished` gets each table built. Returns the most bytes of tables
/// held at once (what [`material_memory`] foretells).
pub fn build_material<G: Retro>(
    size: usize,
    (w, b): (usize, usize),
    threads: usize,
    input: &mut dyn FnMut(usize, usize) -> Result<Vec<u8>, TablebaseError>,
    report: &(dyn Fn(&BuildProgress) + Sync),
    finished: &mut Finished<'_>,
) -> Result<u64, TablebaseError> {
    if w > b || w == 0 || b > size {
        return Err(TablebaseError::Internal(format!(
            "material w{w}b{b} is not one a job builds (1 <= W <= B <= {size})"
        )));
    }
    let setup = Setup::new::<G>(size, b)?;
    let shape = &setup.shape;
    let mut held = Held::default();
    let mut loaded = |held: &mut Held, (x, y): (usize, usize)| -> Result<Values, TablebaseError> {
        let values = input(x, y)?;
        if values.len() as u64 != shape.len(x, y) {
            return Err(TablebaseError::Internal(format!(
                "the table of w{x}b{y} has {} values, not {}",
                values.len(),
                shape.len(x, y)
            )));
        }
        held.now += values.len() as u64;
        held.peak = held.peak.max(held.now);
        Ok(values.into_iter().map(AtomicU8::new).collect())
    };
    // White to move after Black captures, numbered Black set first.
    let mut wtm_less = Vec::new();
    if w > 1 {
        let mut in_file = loaded(&mut held, (w - 1, b))?;
        let black_first = held.table(in_file.len());
        transpose(
            shape,
            (w - 1, b),
            &black_first,
            &in_file,
            false,
            None,
            threads,
        );
        held.drop(&mut in_file);
        wtm_less = finished_values(black_first);
    }
    let mut btm_less = if b > 1 {
        finished_values(loaded(&mut held, (b - 1, w))?)
    } else {
        Vec::new()
    };
    let len = shape.len(w, b) as usize;
    let mut btm = held.table(len);
    let mut wtm = held.table(len);
    // Positions of the pair: a material that is its own mirror is one table.
    let total = if w == b { len as u64 } else { 2 * len as u64 };
    let mut done = 0;
    setup.pair::<G>(
        (w, b),
        threads,
        Tables {
            btm: &btm,
            wtm: &wtm,
            wtm_less: &wtm_less,
            btm_less: &btm_less,
        },
        &mut progress_of(report, (w, b), &mut done, total),
    )?;
    held.drop(&mut wtm_less);
    held.drop(&mut btm_less);
    if w != b {
        let white_first = held.table(len);
        transpose(shape, (w, b), &wtm, &white_first, true, None, threads);
        held.drop(&mut wtm);
        finish::<G>(size, (w, b), white_first, finished)?;
    } else {
        held.drop(&mut wtm);
    }
    finish::<G>(size, (b, w), std::mem::take(&mut btm), finished)?;
    Ok(held.peak)
}

/// The progress callback of [`Setup::pair`] for material `material`: adds each stage's positions
/// to `done` (out of `total`) and reports them.
fn progress_of<'a>(
    report: &'a (dyn Fn(&BuildProgress) + Sync),
    material: (usize, usize),
    done: &'a mut u64,
    total: u64,
) -> impl FnMut(usize, usize, u64) + 'a {
    move |level, levels, positions| {
        *done += positions;
        report(&BuildProgress {
            material,
            level,
            levels,
            done: *done,
            total,
        });
    }
}

/// Hands a finished table to `finished` (refusing one with a position never reached) and gives
/// its values back.
fn finish<G: Retro>(
    size: usize,
    (w, b): (usize, usize),
    table: Values,
    finished: &mut Finished<'_>,
) -> Result<Vec<u8>, TablebaseError> {
    let values = finished_values(table);
    hand_over::<G>(size, (w, b), &values, finished)?;
    Ok(values)
}

/// Hands the finished values of `(w, b)` to `finished` with their header, refusing a table with
/// a position never reached.
fn hand_over<G: Retro>(
    size: usize,
    (w, b): (usize, usize),
    values: &[u8],
    finished: &mut Finished<'_>,
) -> Result<(), TablebaseError> {
    // `contains` looks for the byte many at a time (`position` one at a time).
    if values.contains(&UNSET) {
        let i = values.iter().position(|&v| v == UNSET).unwrap_or_default();
        return Err(TablebaseError::Internal(format!(
            "position {i} of material w{w}b{b} was never reached by the build order"
        )));
    }
    let header = Header {
        game: G::KIND,
        size,
        white: w,
        black: b,
        count: values.len() as u64,
        checksum: checksum(values),
    };
    finished(header, values)
}

/// The bytes of tables a build holds, counted as they are made and dropped.
#[derive(Default)]
struct Held {
    now: u64,
    peak: u64,
}

impl Held {
    /// A new table of `len` unset entries, counted.
    fn table(&mut self, len: usize) -> Values {
        self.now += len as u64;
        self.peak = self.peak.max(self.now);
        unset(len)
    }

    /// Drops a table, counted.
    fn drop<T>(&mut self, table: &mut Vec<T>) {
        self.now -= table.len() as u64;
        *table = Vec::new();
    }
}

/// The tables one pair of materials reads and writes.
struct Tables<'a> {
    /// Black to move: the file table of (b, w).
    btm: &'a [AtomicU8],
    /// White to move: the table of (w, b), numbered Black set first.
    wtm: &'a [AtomicU8],
    /// White to move after Black captures: the table of (w - 1, b), Black set first.
    wtm_less: &'a [u8],
    /// Black to move after White captures: the file table of (b - 1, w).
    btm_less: &'a [u8],
}

/// What every pair of materials of a build shares: the board, the move templates, the sets of
/// squares by progress.
struct Setup {
    shape: Geometry,
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
    fn new<G: Retro>(size: usize, k: usize) -> Result<Setup, TablebaseError> {
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
    fn pair<G: Retro>(
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
fn settle(
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
struct Pass {
    /// Where its value goes.
    at: usize,
    /// Where the same value goes on the board turned left to right, if that is another board.
    reflected: Option<usize>,
    /// The same board with White to move.
    source: usize,
}

/// The sets that a row or a column goes through for one set of the other side (every White set,
/// by falling progress, for [`Pair::row`] and [`Pair::reflect_row`]; those of one progress for
/// [`Pair::mirror_row`] and [`Pair::mirror_column`]), with what each looks up precomputed, and
/// which of them hold each square: the sets that leave the other side's set free are found as a
/// bit mask, so the others cost nothing (testing each set took a branch, mispredicted often:
/// about two thirds of the sets overlap at Oska 5's 5 against 5).
struct Group {
    members: Vec<Member>,
    /// Words of a mask: one bit a member.
    words: usize,
    /// `holds[sq * words + i]`: bit j of word i set when member 64 i + j holds `sq`.
    holds: Vec<u64>,
}

/// A set of a [`Group`].
#[derive(Clone, Copy)]
struct Member {
    /// The set of squares.
    set: u128,
    /// The set mirrored (the other colour's).
    mirrored: u128,
    /// The mirrored set turned left to right (itself when the board is not).
    turned: u128,
    /// The set turned left to right.
    reflected: u128,
}

impl Group {
    /// The group of `sets`, in their order; `reflect` turns a set left to right.
    fn new(
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
    fn each_free_of(&self, other: u128, free: &mut Vec<u64>, mut f: impl FnMut(&Member)) {
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

/// One kind of move of one side from one square, the same on every board: to `to`, over or
/// onto the opponent's piece on `cap` if it is a capture. A move is legal when `to` is empty
/// (or is `cap`) and, for a capture, an opponent's piece stands on `cap`.
#[derive(Clone, Copy, Debug)]
struct Template {
    to: usize,
    cap: Option<usize>,
}

/// The move templates of the game, `[side][from]`, found with the game's own move generation
/// on boards of one or two pieces.
fn templates<G: Retro>(
    size: usize,
    squares: usize,
) -> Result<[Vec<Vec<Template>>; 2], TablebaseError> {
    let board = |side: Side, own: u128, opp: u128| match side {
        Side::White => G::from_sets(size, own, opp),
        Side::Black => G::from_sets(size, opp, own).with_side(Side::Black),
    };
    let odd = |what: String| {
        TablebaseError::Internal(format!(
            "{} {size}: the builder does not model the move {what}",
            G::KIND
        ))
    };
    let mut out: [Vec<Vec<Template>>; 2] = [vec![Vec::new(); squares], vec![Vec::new(); squares]];
    let mut list = MoveList::new();
    for side in [Side::White, Side::Black] {
        for (from, mine) in out[side.index()].iter_mut().enumerate() {
            for x in std::iter::once(None).chain((0..squares).filter(|&x| x != from).map(Some)) {
                let opp = x.map_or(0, bit);
                let pos = board(side, bit(from), opp);
                list.clear();
                pos.generate(&mut list);
                for &m in list.as_slice().iter().filter(|m| !m.is_pass()) {
                    let to = m.to as usize;
                    let (white, black) = pos.play(m).sets();
                    let (own_after, opp_after) = match side {
                        Side::White => (white, black),
                        Side::Black => (black, white),
                    };
                    let cap = match opp_after {
                        _ if m.from as usize != from || own_after != bit(to) => {
                            return Err(odd(format!("{}-{to}", m.from)));
                        }
                        0 if opp != 0 => x,
                        o if o == opp => None,
                        _ => return Err(odd(format!("{from}-{to}"))),
                    };
                    // Rows are numbered from White's home: White moves to higher rows, Black to
                    // lower ones (the rank updates of the build rely on it).
                    let row = |sq: usize| G::layout_of(size).coords(sq).0;
                    if (side == Side::White && row(to) <= row(from))
                        || (side == Side::Black && row(to) >= row(from))
                    {
                        return Err(odd(format!("{from}-{to}")));
                    }
                    if cap.is_some() || x.is_none() {
                        if !mine.iter().any(|t| t.to == to && t.cap == cap) {
                            mine.push(Template { to, cap });
                        }
                    } else if !mine.iter().any(|t| t.to == to && t.cap.is_none()) {
                        // A quiet move that only appears next to an opponent's piece.
                        return Err(odd(format!("{from}-{to}")));
                    }
                }
            }
        }
    }
    Ok(out)
}

/// The left-right reflection of the squares of `G` at `size`, one bit a square, when the game's
/// move templates are the same on the board turned left to right (both games: the rows are
/// symmetric, the moves go straight or diagonally forward, and the outcomes look only at rows
/// and counts); empty when they are not, so that the builder computes every row.
fn reflection<G: Retro>(
    size: usize,
    moves: &[Vec<Vec<Template>>; 2],
) -> Result<Vec<u128>, TablebaseError> {
    if !G::REFLECTS {
        return Ok(Vec::new());
    }
    let layout = G::layout_of(size);
    let turn = |sq: usize| {
        let (r, c) = layout.coords(sq);
        layout
            .square_at(r, layout.row_len(r) - 1 - c)
            .expect("a row's squares turned left to right are in the row")
    };
    for side in moves {
        for (from, templates) in side.iter().enumerate() {
            let turned = &side[turn(from)];
            let same = templates.len() == turned.len()
                && templates.iter().all(|t| {
                    turned
                        .iter()
                        .any(|u| u.to == turn(t.to) && u.cap == t.cap.map(turn))
                });
            if !same {
                return Err(TablebaseError::Internal(format!(
                    "{} {size}: the moves from square {from} are not those of its reflection",
                    G::KIND
                )));
            }
        }
    }
    Ok((0..layout.squares()).map(|sq| bit(turn(sq))).collect())
}

/// The colex ranks of sets among the squares not in a fixed set (see [`super::index`]), for
/// many fixed sets: ranker `r` holds `parts[r + j * squares + sq]`, the share of square `sq`
/// when it is the set's j-th lowest square.
#[derive(Default)]
struct Rankers {
    parts: Vec<u32>,
    squares: usize,
    used: usize,
}

impl Rankers {
    /// Forgets every ranker.
    fn clear(&mut self, shape: &Geometry) {
        self.squares = shape.squares();
        self.used = 0;
    }

    /// A ranker for sets of up to `k` squares among those not in `skip`.
    fn add(&mut self, shape: &Geometry, skip: u128, k: usize) -> usize {
        // Checked to fit in u32 before the build.
        self.add_with(skip, k, |c, j| shape.choose(c, j + 1) as u32)
    }

    /// A table of the changes of rank when one square below the rest of the set leaves the
    /// skipped squares (see [`Pair::row`]): `C(c - 1, j)` for a square numbered c among those
    /// not in `skip` when it is the set's j-th lowest, for sets of up to `k` squares.
    fn add_shift(&mut self, shape: &Geometry, skip: u128, k: usize) -> usize {
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
    fn part(&self, at: usize, j: usize, sq: usize) -> usize {
        self.parts[at + j * self.squares + sq] as usize
    }

    /// The rank of `set` (disjoint from the skipped squares) by ranker `at`.
    #[inline(always)]
    fn rank<S: Set>(&self, at: usize, set: S) -> usize {
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
struct Scratch {
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
struct Pair<'a, G> {
    shape: &'a Geometry,
    size: usize,
    w: usize,
    b: usize,
    moves: &'a [Vec<Vec<Template>>; 2],
    mirror_bit: &'a [u128],
    /// Every set of w squares, by falling White progress.
    whites: &'a Group,
    /// Entries in a row of `btm` and of `wtm`: C(squares - b, w).
    row_len: usize,
    /// Black to move: the file table of (b, w), rows by the mirrored Black set.
    btm: &'a [AtomicU8],
    /// White to move: the table of (w, b), rows by the Black set.
    wtm: &'a [AtomicU8],
    /// White to move after Black captures: the table of (w - 1, b), rows by the Black set.
    wtm_less: &'a [u8],
    wtm_less_row_len: usize,
    /// Black to move after White captures: the file table of (b - 1, w).
    btm_less: &'a [u8],
    btm_less_row_len: usize,
    overflow: AtomicBool,
    _game: std::marker::PhantomData<G>,
}

impl<G: Retro> Pair<'_, G> {
    /// The value for the mover of a move to a position of value `child`.
    #[inline(always)]
    fn before(&self, child: u8) -> u8 {
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
    fn row<S: Set>(&self, black: u128, s: &mut Scratch) {
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
    fn mirror_row<S: Set>(
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
    fn mirror_column<S: Set>(
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
    fn reflect_row<S: Set>(&self, black: u128, reflected: u128, s: &mut Scratch) {
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

/// White sets per block of [`transpose`] (a multiple of 64): the block's rows of the file order
/// are written a little at a time while every Black set goes by, so they stay in the cache (one
/// cache line of each at a time), and each Black set's row of the other order is touched in the
/// few cache lines where these White sets fall.
const TRANSPOSE_BLOCK: usize = 1024;

/// Words of the bit masks over the White sets of a block of [`transpose`].
const BLOCK_WORDS: usize = TRANSPOSE_BLOCK / 64;

/// Copies the table of `(w, b)` between its two orders on `threads` threads: `black_first` into
/// `file` (White set first) when `to_file`, else the other way; unset values are not copied, nor
/// the boards whose White progress plus Black progress is not of the parity `sum_parity`, if
/// given (those are not looked at).
///
/// The work goes by blocks of [`TRANSPOSE_BLOCK`] consecutive White sets; for each Black set in
/// turn, each White set of the block that it leaves free takes the next column of its row of the
/// file order (the Black sets among the free squares come in the same order as among all
/// squares), and its column in the Black set's row is ranked from the squares. Taking one White
/// set at a time instead reads (or writes) one byte of a different row of the other order for
/// every entry, a cache miss each in a large table: a third of the time of the job of Oska 5
/// 4 against 5. The White sets of the block that a Black set leaves free are found as a bit
/// mask (those holding none of its squares), so the pairs that overlap (two thirds of them for
/// Oska 5's 5 against 5) cost nothing: testing each pair instead took a fifth of that job.
fn transpose(
    shape: &Geometry,
    (w, b): (usize, usize),
    black_first: &[AtomicU8],
    file: &[AtomicU8],
    to_file: bool,
    sum_parity: Option<usize>,
    threads: usize,
) {
    let squares = shape.squares();
    let row_len = shape.choose(squares - w, b) as usize;
    let from_row_len = shape.choose(squares - b, w) as usize;
    let whites: Vec<u128> = subsets(squares, w).collect();
    let blacks: Vec<u128> = subsets(squares, b).collect();
    // Colex ranks among all squares, for sets of up to w squares.
    let mut all = Rankers::default();
    all.clear(shape);
    let colex = all.add(shape, 0, w.max(1));
    let blocks = whites.len().div_ceil(TRANSPOSE_BLOCK);
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                let mut squares_of = vec![[0usize; MAX_PIECES]; TRANSPOSE_BLOCK];
                let mut cols = [0usize; TRANSPOSE_BLOCK];
                let mut share = vec![0usize; w * squares];
                // `holds[sq]`: the White sets of the block that hold `sq`, a bit each.
                let mut holds = vec![[0u64; BLOCK_WORDS]; squares];
                loop {
                    let block = next.fetch_add(1, Ordering::Relaxed);
                    if block >= blocks {
                        break;
                    }
                    let first = block * TRANSPOSE_BLOCK;
                    let mine = &whites[first..(first + TRANSPOSE_BLOCK).min(whites.len())];
                    // `present[p]`: the White sets of the block of progress parity p.
                    let mut present = [[0u64; BLOCK_WORDS]; 2];
                    holds.iter_mut().for_each(|h| *h = [0; BLOCK_WORDS]);
                    for (j, &white) in mine.iter().enumerate() {
                        for (k, sq) in Bits(white).enumerate() {
                            squares_of[j][k] = sq;
                            holds[sq][j / 64] |= 1 << (j % 64);
                        }
                        let parity = sum_parity.map_or(0, |_| shape.progress(white, true) % 2);
                        present[parity][j / 64] |= 1 << (j % 64);
                        cols[j] = 0;
                    }
                    for (rank_black, &black) in blacks.iter().enumerate() {
                        // Every White set of the block takes its column, looked at or not.
                        let (mut free, mut skipped) = match sum_parity {
                            None => (present[0], [0; BLOCK_WORDS]),
                            Some(parity) => {
                                let wanted = (parity + shape.progress(black, false)) % 2;
                                (present[wanted], present[1 - wanted])
                            }
                        };
                        for sq in Bits(black) {
                            for ((f, x), h) in free.iter_mut().zip(&mut skipped).zip(&holds[sq]) {
                                *f &= !h;
                                *x &= !h;
                            }
                        }
                        for (word, mut rest) in skipped.into_iter().enumerate() {
                            while rest != 0 {
                                cols[word * 64 + rest.trailing_zeros() as usize] += 1;
                                rest &= rest - 1;
                            }
                        }
                        for sq in Bits(black) {
                            for (f, h) in free.iter_mut().zip(&holds[sq]) {
                                *f &= !h;
                            }
                        }
                        if free.iter().all(|&f| f == 0) {
                            continue;
                        }
                        let base = rank_black * from_row_len;
                        // `share[k * squares + sq]`: what a White square `sq` adds to the rank
                        // as the set's k-th lowest, numbered among the squares the Black set
                        // leaves free (its number less the Black squares below it).
                        let mut among = 0;
                        for sq in 0..squares {
                            if black & bit(sq) == 0 {
                                for k in 0..w {
                                    share[k * squares + sq] = all.part(colex, k, among);
                                }
                                among += 1;
                            }
                        }
                        for (word, mut rest) in free.into_iter().enumerate() {
                            while rest != 0 {
                                let j = word * 64 + rest.trailing_zeros() as usize;
                                rest &= rest - 1;
                                let mut rank = 0;
                                for (k, &sq) in squares_of[j][..w].iter().enumerate() {
                                    rank += share[k * squares + sq];
                                }
                                let (from, to) = (
                                    &black_first[base + rank],
                                    &file[(first + j) * row_len + cols[j]],
                                );
                                cols[j] += 1;
                                let (from, to) = if to_file { (from, to) } else { (to, from) };
                                // Unset: a value this copy does not hold (see `self_mirror`).
                                let v = from.load(Ordering::Relaxed);
                                if v != UNSET {
                                    to.store(v, Ordering::Relaxed);
                                }
                            }
                        }
                    }
                }
            });
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_counts_the_pair_built_and_the_total_below() {
        use crate::games::{Game, Oska};
        let shape = Geometry::new(Oska::layout_of(5));
        let plan = Plan {
            size: 5,
            max_pieces: 5,
            threads: 1,
        };
        // While 5 against 5 is built: its two copies, and both orders of 4 against 5 and its
        // mirror, which it reads or which are being written.
        assert_eq!(
            memory(&plan, &shape),
            2 * shape.len(5, 5) + 3 * shape.len(4, 5)
        );
    }

    #[test]
    fn too_large_a_build_is_refused_before_it_starts() {
        let plan = Plan {
            size: 8,
            max_pieces: 8,
            threads: 1,
        };
        let err = build::<crate::games::Oska>(plan, &|_| {}, &mut |_, _| Ok(())).unwrap_err();
        assert!(err.to_string().contains("too large to build"), "{err}");
    }

    #[test]
    fn transpose_moves_every_entry_to_its_place_and_back() {
        use crate::games::{Game, Hexapawn, Oska};
        // More White sets than a block (C(26, 3) = 2 600 for Oska 5), so that blocks and a
        // partial last block are crossed; and a board with both orders of other lengths.
        for (layout, (w, b)) in [
            (Oska::layout_of(5), (3, 2)),
            (Oska::layout_of(5), (2, 3)),
            (Hexapawn::layout_of(4), (3, 4)),
        ] {
            let shape = Geometry::new(layout);
            let squares = shape.squares();
            let len = shape.len(w, b) as usize;
            // Each entry's own value, from its place in the Black-first order.
            let value = |at: u64| (at.wrapping_mul(2_654_435_761) >> 7) as u8;
            let black_first: Values = (0..len as u64).map(|at| AtomicU8::new(value(at))).collect();
            let file = unset(len);
            transpose(&shape, (w, b), &black_first, &file, true, None, 2);
            for white in subsets(squares, w) {
                for black in subsets(squares, b).filter(|&black| black & white == 0) {
                    let (there, here) = (shape.index(black, white), shape.index(white, black));
                    assert_eq!(
                        file[here as usize].load(Ordering::Relaxed),
                        value(there),
                        "{white:b} {black:b}"
                    );
                }
            }
            let back = unset(len);
            transpose(&shape, (w, b), &back, &file, false, None, 3);
            assert!(
                back.iter()
                    .zip(&black_first)
                    .all(|(x, y)| x.load(Ordering::Relaxed) == y.load(Ordering::Relaxed))
            );
            // Only the boards of one parity of White progress plus Black progress.
            for parity in [0, 1] {
                let some = unset(len);
                transpose(&shape, (w, b), &black_first, &some, true, Some(parity), 2);
                let mut copied = 0;
                for white in subsets(squares, w) {
                    for black in subsets(squares, b).filter(|&black| black & white == 0) {
                        let sum = shape.progress(white, true) + shape.progress(black, false);
                        let here = some[shape.index(white, black) as usize].load(Ordering::Relaxed);
                        if sum % 2 == parity {
                            assert_eq!(here, value(shape.index(black, white)));
                            copied += 1;
                        } else {
                            assert_eq!(here, UNSET, "{white:b} {black:b}");
                        }
                    }
                }
                assert!(copied > 0 && copied < len, "{copied} of {len}");
            }
        }
    }

    #[test]
    fn subsets_are_in_colex_order() {
        let all: Vec<u128> = subsets(5, 2).collect();
        assert_eq!(all, vec![3, 5, 6, 9, 10, 12, 17, 18, 20, 24]);
        assert_eq!(subsets(4, 0).collect::<Vec<_>>(), vec![0]);
        assert_eq!(subsets(2, 3).count(), 0);
        assert_eq!(subsets(70, 1).last(), Some(1u128 << 69));
        // The whole word: Oska 11 has 128 squares.
        assert_eq!(subsets(128, 1).count(), 128);
        assert_eq!(subsets(128, 1).last(), Some(1u128 << 127));
        assert_eq!(subsets(128, 2).count(), 128 * 127 / 2);
        assert_eq!(subsets(128, 3).last(), Some(0b111u128 << 125));
        assert_eq!(subsets(128, 128).collect::<Vec<_>>(), vec![u128::MAX]);
    }
}
