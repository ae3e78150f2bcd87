//! Pattern (n-tuple) terms of the Hexapawn evaluator: a weight for every way a small window of
//! the board can be filled, fitted to exact game values (`engine tune-patterns`).
//!
//! The board is first seen from the side to move: when Black is to move it is turned upside
//! down and the colours swapped, so "own" pawns always move down the rows and one set of weights
//! serves both sides (and a position and its colour mirror get the same score). Each square of a
//! window is empty, own or the opponent's, so a window of k squares has 3^k fillings. Three
//! families of windows, each at every place it fits (each place has its own weights, since the
//! rows count differently near the goal than near home):
//!
//! - 2 rows by 3 columns: a pawn, the square ahead and both squares it can take on;
//! - 3 rows by 2 columns: files that block each other, waiting moves;
//! - whole rows (boards up to 6 wide): the front lines.
//!
//! The score is the sum of the weights of the windows' fillings, added to the linear features'
//! score. The weights of a size come from `engine/data/patterns/hexapawn-N.bin` (little-endian
//! i16s after a header naming the command that fitted them), written by the fitting; sizes
//! without a file get no pattern term (4 has too few positions to fit this many weights).

use std::sync::OnceLock;

use crate::games::{Game, Hexapawn};

/// Fillings of a window of 6 squares.
const SIX: usize = 729;
/// The widest board whose whole rows are a window (3^6 fillings).
const ROW_MAX: usize = 6;

/// Base-3 value of each 6-bit mask: bit i becomes the digit 3^i.
const TERNARY: [u16; 64] = {
    let mut t = [0u16; 64];
    let mut m = 0;
    while m < 64 {
        let mut v = 0u16;
        let mut p = 1u16;
        let mut i = 0;
        while i < 6 {
            if m & (1 << i) != 0 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
};

/// The filling of `width` squares whose own and opponent bits are `own`, `opp` (bit i = square
/// i): digit 1 for own, 2 for the opponent's.
#[inline]
fn fill(own: u32, opp: u32) -> usize {
    usize::from(TERNARY[own as usize]) + 2 * usize::from(TERNARY[opp as usize])
}

/// The windows of a board size: how many of each family and where each one's weights start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The board width.
    pub n: usize,
}

impl Layout {
    /// Windows of 2 rows by 3 columns.
    fn wide(self) -> usize {
        (self.n - 1) * (self.n - 2)
    }

    /// Windows of 3 rows by 2 columns.
    fn tall(self) -> usize {
        (self.n - 2) * (self.n - 1)
    }

    /// Fillings of one whole row (0 when rows are too wide to be windows).
    fn row_fillings(self) -> usize {
        if self.n <= ROW_MAX {
            3usize.pow(self.n as u32)
        } else {
            0
        }
    }

    /// Windows of one position: every window contributes exactly one weight.
    pub fn windows(self) -> usize {
        self.wide() + self.tall() + if self.row_fillings() > 0 { self.n } else { 0 }
    }

    /// The number of weights of this size.
    pub fn weights(self) -> usize {
        (self.wide() + self.tall()) * SIX + self.n * self.row_fillings()
    }

    /// Writes into `out` (of [`Layout::windows`] slots) the weight index of each window of
    /// `pos`, seen from its side to move.
    pub fn indices(self, pos: &Hexapawn, out: &mut [u32]) {
        let mut k = 0;
        self.each_index(pos, |i| {
            out[k] = i;
            k += 1;
        });
        debug_assert_eq!(k, self.windows());
    }

    /// Calls `f` with the weight index of each window of `pos`, in [`Layout::indices`] order.
    #[inline]
    fn each_index(self, pos: &Hexapawn, mut f: impl FnMut(u32)) {
        let n = self.n;
        let me = pos.side_to_move();
        let (own, opp) = (pos.bits(me), pos.bits(me.opposite()));
        let mask = (1u128 << n) - 1;
        // Rows seen from the side to move: row 0 is its home row.
        let mut rows = [(0u32, 0u32); 11];
        for (r, slot) in rows.iter_mut().enumerate().take(n) {
            let from = if me == crate::games::Side::White {
                r
            } else {
                n - 1 - r
            };
            *slot = (
                ((own >> (from * n)) & mask) as u32,
                ((opp >> (from * n)) & mask) as u32,
            );
        }
        let mut base = 0u32;
        for r in 0..n - 1 {
            for c in 0..n - 2 {
                let (a, b) = (rows[r], rows[r + 1]);
                let top = fill((a.0 >> c) & 7, (a.1 >> c) & 7);
                let bottom = fill((b.0 >> c) & 7, (b.1 >> c) & 7);
                f(base + (top + 27 * bottom) as u32);
                base += SIX as u32;
            }
        }
        for r in 0..n - 2 {
            for c in 0..n - 1 {
                let mut idx = 0;
                for dr in (0..3).rev() {
                    let x = rows[r + dr];
                    idx = idx * 9 + fill((x.0 >> c) & 3, (x.1 >> c) & 3);
                }
                f(base + idx as u32);
                base += SIX as u32;
            }
        }
        let row = self.row_fillings() as u32;
        if row > 0 {
            for x in rows.iter().take(n) {
                f(base + fill(x.0, x.1) as u32);
                base += row;
            }
        }
        debug_assert_eq!(base as usize, self.weights());
    }
}

/// The first bytes of a weights file. Then, as little-endian u32s, the board size, the number
/// of weights and the length of the fitting command's text; that text (UTF-8); the weights as
/// little-endian i16s.
pub const MAGIC: &[u8; 8] = b"HXPATT02";

/// A decoded weights file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// The command that fitted them.
    pub fitted_by: String,
    /// One weight a window filling, in [`Layout::indices`] order.
    pub weights: Vec<i16>,
}

/// Encodes weights of a size and the command that fitted them as a weights file.
pub fn encode(n: usize, weights: &[i16], fitted_by: &str) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    for x in [n, weights.len(), fitted_by.len()] {
        out.extend_from_slice(&(x as u32).to_le_bytes());
    }
    out.extend_from_slice(fitted_by.as_bytes());
    for w in weights {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out
}

/// Decodes a weights file of size `n`, checking its header and length.
pub fn decode(n: usize, bytes: &[u8]) -> Result<Weights, String> {
    let expect = Layout { n }.weights();
    let head = |at: usize| {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    };
    if bytes.get(..8) != Some(&MAGIC[..]) {
        return Err("not a pattern weights file of this version (bad magic)".into());
    }
    let text = head(16).unwrap_or(usize::MAX);
    if head(8) != Some(n)
        || head(12) != Some(expect)
        || Some(bytes.len()) != (20 + 2 * expect).checked_add(text)
    {
        return Err(format!(
            "pattern weights file does not fit Hexapawn {n} ({expect} weights expected)"
        ));
    }
    let fitted_by = String::from_utf8(bytes[20..20 + text].to_vec())
        .map_err(|_| "the fitting command of a pattern weights file is not UTF-8".to_string())?;
    Ok(Weights {
        fitted_by,
        weights: bytes[20 + text..]
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect(),
    })
}

/// The committed weights files, by board size.
const FILES: [(usize, &[u8]); 2] = [
    (5, include_bytes!("../../data/patterns/hexapawn-5.bin")),
    (6, include_bytes!("../../data/patterns/hexapawn-6.bin")),
];

/// The committed weights of size `n`, decoded once; `None` for sizes without a file.
pub fn committed(n: usize) -> Option<&'static Weights> {
    static DECODED: [OnceLock<Option<Weights>>; 12] = [const { OnceLock::new() }; 12];
    DECODED
        .get(n)?
        .get_or_init(|| {
            let &(_, bytes) = FILES.iter().find(|(size, _)| *size == n)?;
            Some(decode(n, bytes).expect("a committed pattern file is well formed"))
        })
        .as_ref()
}

/// The pattern term of `pos` with weights `w` of its size.
#[inline]
pub fn score_with(pos: &Hexapawn, w: &[i16]) -> i32 {
    let mut sum = 0;
    Layout { n: pos.size() }.each_index(pos, |i| sum += i32::from(w[i as usize]));
    sum
}

/// The pattern term of `pos` with the committed weights (0 for sizes without them).
#[inline]
pub fn score(pos: &Hexapawn) -> i32 {
    committed(pos.size()).map_or(0, |w| score_with(pos, &w.weights))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Side;

    #[test]
    fn indices_are_in_range_and_distinct_per_window() {
        for n in 3..=8 {
            let layout = Layout { n };
            let pos = Hexapawn::start(n).unwrap();
            let mut out = vec![0u32; layout.windows()];
            layout.indices(&pos, &mut out);
            assert!(out.iter().all(|&i| (i as usize) < layout.weights()));
            // Each window has its own block of weights, in increasing order.
            assert!(out.windows(2).all(|w| w[0] < w[1]), "{n}: {out:?}");
        }
    }

    #[test]
    fn colour_mirror_gives_the_same_indices() {
        let n = 5;
        let layout = Layout { n };
        let white = 0b10001u128 | (0b00100u128 << 5) | (0b01000u128 << 15);
        let black = (0b10010u128 << 20) | (0b00001u128 << 10);
        let flip = |b: u128| {
            (0..n).fold(0u128, |m, r| {
                m | (((b >> (r * n)) & 31) << ((n - 1 - r) * n))
            })
        };
        let a = Hexapawn::from_bits(n, white, black, Side::White);
        let b = Hexapawn::from_bits(n, flip(black), flip(white), Side::Black);
        let (mut x, mut y) = (vec![0; layout.windows()], vec![0; layout.windows()]);
        layout.indices(&a, &mut x);
        layout.indices(&b, &mut y);
        assert_eq!(x, y);
    }

    #[test]
    fn files_round_trip_and_bad_ones_are_refused() {
        let w: Vec<i16> = (0..Layout { n: 4 }.weights())
            .map(|i| i as i16 - 300)
            .collect();
        let file = encode(4, &w, "engine tune-patterns 4 x.txt --seed 1");
        let back = decode(4, &file).unwrap();
        assert_eq!(back.weights, w);
        assert_eq!(back.fitted_by, "engine tune-patterns 4 x.txt --seed 1");
        assert!(decode(5, &file).is_err());
        assert!(decode(4, &file[..100]).is_err());
        for n in [5, 6] {
            let c = committed(n).unwrap();
            assert_eq!(c.weights.len(), Layout { n }.weights());
            assert!(
                c.fitted_by
                    .starts_with(&format!("engine tune-patterns {n} "))
            );
            assert!(
                c.weights.iter().any(|&x| x != 0),
                "size {n} has fitted weights"
            );
        }
        assert!(committed(4).is_none() && committed(7).is_none());
    }
}
