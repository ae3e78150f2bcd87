//! The copy of a table between its two orders, White set first (the file's) and Black set
//! first (the one a build computes in), by blocks of White sets and bit masks, on threads.

use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};

use super::super::index::{Geometry, MAX_PIECES, subsets};
use super::super::value::UNSET;
use super::sets::Rankers;
use crate::games::{Bits, bit};

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
pub(super) fn transpose(
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
    use super::super::{Values, unset};
    use super::*;

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
}
