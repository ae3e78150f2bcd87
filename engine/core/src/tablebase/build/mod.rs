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
//!
//! The module's files, by concern: this one holds the plan (the materials in build order and
//! the memory they take), the whole build and the one-material job, and the hand-over of each
//! finished table with its header and checksum; [`setup`] what a build shares and the passes
//! over a pair of materials, level by level on the threads; [`pair`] the values of one row (or
//! column) of a pair; [`moves`] the move templates and the board's reflection; [`sets`] the
//! bit masks of the sets free of another and the colex rankers; [`transpose`] the copy of a
//! table between its two orders.

mod moves;
mod pair;
mod sets;
mod setup;
mod transpose;

use std::sync::atomic::AtomicU8;

use super::file::{Header, checksum};
use super::index::Geometry;
use super::value::UNSET;
use super::{Retro, TablebaseError};
use setup::Setup;
use transpose::transpose;

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

#[cfg(test)]
mod tests {
    use super::super::index::subsets;
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
