//! Pattern (n-tuple) terms of the Hexapawn and Oska evaluators: a weight for every way a small
//! window of the board can be filled, fitted to exact game values (`engine-tune tune-patterns`).
//!
//! The board is first seen from the side to move: when Black is to move it is turned upside
//! down and the colours swapped, so "own" pieces always move down the rows and one set of
//! weights serves both sides (and a position and its colour mirror get the same score). Each
//! square of a window is empty, own or the opponent's, so a window of k squares has 3^k
//! fillings. Each window has its own weights at each place it fits, since the rows count
//! differently near the goal than near home. The families:
//!
//! - Hexapawn: 2 rows by 3 columns (a pawn, the square ahead and both squares it can take on),
//!   3 rows by 2 columns (files that block each other, waiting moves), 3 rows by 3 columns
//!   (three files' races and breakthroughs; boards up to 6 wide), and whole rows (boards up
//!   to 6 wide);
//! - Oska: every two adjacent rows together when they hold at most 9 squares (the diagonal
//!   steps between them, pieces that meet), and every whole row of at most 6 squares. Two rows
//!   that hold more (the home rows and their neighbours from 6 pieces a side up) are cut into
//!   overlapping windows of 4 neighbouring squares of the longer row and the 3 squares of the
//!   shorter row between them (the steps of those pieces and the squares they land on). Every
//!   size also has two windows of the whole board, which no local window sees: the material
//!   (the pieces of each side, and whether the side to move is behind, level or ahead in the
//!   race: a side down to few pieces in contact is hunted down, however far ahead it is) and the
//!   race (the steps the opponent needs to bring its pieces home minus one's own, -15 to 15),
//!   each with whether the sides can still meet. Oska up to 6 pieces a side has a third, the
//!   home window: the pieces each side has not yet brought home, the race from -5 to 5 and
//!   whether the sides can still meet (who wins the count once one side is all home).
//!
//! The score is the sum of the weights of the windows' fillings, added to the linear features'
//! score. The weights of a game and size come from `engine/core/data/patterns/GAME-N.bin`
//! (little-endian i16s after a header naming the command that fitted them), written by the
//! fitting; sizes without a file get no pattern term.

use std::sync::OnceLock;

use crate::games::{Game, GameKind, Hexapawn, Oska, Side};

/// Fillings of a window of 6 squares.
const SIX: usize = 729;
/// Fillings of a window of 9 squares.
const NINE: usize = 19_683;
/// The widest Hexapawn board with 3 x 3 windows.
const SQUARE3_MAX: usize = 6;
/// The widest Hexapawn board.
const SQUARE_MAX: usize = GameKind::Hexapawn.size_range().1;
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

/// The most rows a board has (Oska 11: 19 rows).
const MAX_ROWS: usize = 19;
/// The most squares of a window made of adjacent rows (3^9 fillings).
const PAIR_MAX: usize = 9;
/// Squares of the longer row in a window cut from two rows too long to be one (Oska).
const CUT_LONG: usize = 4;
/// Fillings of such a window: 4 squares of the longer row and the 3 of the shorter between them.
const CUT: usize = 2187;
/// The race window counts the race (steps the opponent needs minus own) from -15 to 15.
const RACE_SPAN: i32 = 15;
/// Fillings of the race window: each race count, sides in contact or not.
const RACE_FILLINGS: usize = 2 * (2 * RACE_SPAN as usize + 1);
/// The largest Oska with the home window.
const HOME_MAX: usize = 6;
/// The home window counts the race from -5 to 5.
const HOME_SPAN: i32 = 5;

/// The rows of a position seen from its side to move (row 0 is its home row): own and opponent
/// bits of each row, bit i the i-th square from the left.
pub type Rows = [(u32, u32); MAX_ROWS];

/// A board shape with pattern weights: the game and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Hexapawn of this width.
    Square(usize),
    /// Oska of this many pieces a side.
    Oska(usize),
}

/// A game whose positions have pattern terms.
pub trait PatternBoard: Game {
    /// The shape of this position's board.
    fn shape(&self) -> Shape;
    /// Fills `out` with the rows seen from the side to move.
    fn rows_seen(&self, out: &mut Rows);
}

/// The rows of a board whose row `r` has the `r`-th of `lens` squares, packed row-major in
/// `own`/`opp`, turned upside down when `black` is to move (the rows of both games are symmetric
/// top to bottom).
fn rows_of(own: u128, opp: u128, lens: impl Iterator<Item = usize>, black: bool, out: &mut Rows) {
    let mut at = 0;
    let mut rows = 0;
    for (r, len) in lens.enumerate() {
        let mask = (1u128 << len) - 1;
        out[r] = (((own >> at) & mask) as u32, ((opp >> at) & mask) as u32);
        at += len;
        rows = r + 1;
    }
    if black {
        out[..rows].reverse();
    }
}

impl PatternBoard for Hexapawn {
    fn shape(&self) -> Shape {
        Shape::Square(self.size())
    }

    #[inline]
    fn rows_seen(&self, out: &mut Rows) {
        let me = self.side_to_move();
        let n = self.size();
        rows_of(
            self.bits(me),
            self.bits(me.opposite()),
            std::iter::repeat_n(n, n),
            me == Side::Black,
            out,
        );
    }
}

impl PatternBoard for Oska {
    fn shape(&self) -> Shape {
        Shape::Oska(self.size())
    }

    #[inline]
    fn rows_seen(&self, out: &mut Rows) {
        let me = self.side_to_move();
        let shape = self.shape();
        rows_of(
            self.bits(me),
            self.bits(me.opposite()),
            (0..shape.rows()).map(|r| shape.row_len(r)),
            me == Side::Black,
            out,
        );
    }
}

impl Shape {
    /// The game of the shape.
    pub fn game(self) -> GameKind {
        match self {
            Shape::Square(_) => GameKind::Hexapawn,
            Shape::Oska(_) => GameKind::Oska,
        }
    }

    /// The size (board width, or Oska's pieces a side).
    pub fn size(self) -> usize {
        match self {
            Shape::Square(n) | Shape::Oska(n) => n,
        }
    }

    /// The shape of `game` at `size`.
    pub fn of(game: GameKind, size: usize) -> Option<Shape> {
        match game {
            GameKind::Hexapawn => Some(Shape::Square(size)),
            GameKind::Oska => Some(Shape::Oska(size)),
            GameKind::Ctf => None,
        }
    }

    /// The 3 x 3 windows of a Hexapawn board of at most [`SQUARE3_MAX`] columns.
    fn squares3(self) -> usize {
        match self {
            Shape::Square(n) if n <= SQUARE3_MAX => (n - 2) * (n - 2),
            _ => 0,
        }
    }

    fn rows(self) -> usize {
        match self {
            Shape::Square(n) => n,
            Shape::Oska(n) => 2 * n - 3,
        }
    }

    fn row_len(self, r: usize) -> usize {
        match self {
            Shape::Square(n) => n,
            Shape::Oska(n) => (r as isize - (n as isize - 2)).unsigned_abs() + 2,
        }
    }

    /// Fillings of a whole row `r` as a window (0 when it is too long to be one).
    fn row_fillings(self, r: usize) -> usize {
        let len = self.row_len(r);
        if len <= ROW_MAX {
            3usize.pow(len as u32)
        } else {
            0
        }
    }

    /// Fillings of rows `r` and `r + 1` together (Oska; 0 when they hold too many squares).
    fn pair_fillings(self, r: usize) -> usize {
        let len = self.row_len(r) + self.row_len(r + 1);
        if len <= PAIR_MAX {
            3usize.pow(len as u32)
        } else {
            0
        }
    }

    /// Windows cut from rows `r` and `r + 1` (Oska) when they are too long to be one: one for
    /// every 4 neighbouring squares of the longer row.
    fn cut_windows(self, r: usize) -> usize {
        if self.pair_fillings(r) > 0 {
            0
        } else {
            self.row_len(r).max(self.row_len(r + 1)) + 1 - CUT_LONG
        }
    }

    /// Fillings of the material window (Oska, which also has the race window; Hexapawn has
    /// neither, the linear features' material and races serve there): each side's pieces, 0 to
    /// n, the race (behind, level or up to 2 steps ahead, further ahead) and whether they can
    /// still meet.
    fn material_fillings(self) -> usize {
        match self {
            Shape::Oska(n) => 6 * (n + 1) * (n + 1),
            Shape::Square(_) => 0,
        }
    }

    /// Fillings of the home window (Oska up to [`HOME_MAX`] pieces a side; 0 otherwise): the
    /// pieces each side has not yet brought home, 0 to n, the race from -5 to 5 and whether the
    /// sides can still meet.
    fn home_fillings(self) -> usize {
        match self {
            Shape::Oska(n) if n <= HOME_MAX => (n + 1) * (n + 1) * 2 * (2 * HOME_SPAN as usize + 1),
            _ => 0,
        }
    }

    /// The number of windows of one position: every window contributes exactly one weight.
    pub fn windows(self) -> usize {
        let mut k = 0;
        self.each_window_size(|_| k += 1);
        k
    }

    /// The number of weights of this shape.
    pub fn weights(self) -> usize {
        let mut k = 0;
        self.each_window_size(|w| k += w);
        k
    }

    /// Calls `f` with the number of fillings of each window, in index order.
    fn each_window_size(self, mut f: impl FnMut(usize)) {
        match self {
            Shape::Square(n) => {
                for _ in 0..2 * (n - 1) * (n - 2) {
                    f(SIX);
                }
                for _ in 0..self.squares3() {
                    f(NINE);
                }
            }
            Shape::Oska(_) => {
                for r in 0..self.rows() - 1 {
                    let w = self.pair_fillings(r);
                    if w > 0 {
                        f(w);
                    }
                    for _ in 0..self.cut_windows(r) {
                        f(CUT);
                    }
                }
                f(self.material_fillings());
                f(RACE_FILLINGS);
                if self.home_fillings() > 0 {
                    f(self.home_fillings());
                }
            }
        }
        for r in 0..self.rows() {
            let w = self.row_fillings(r);
            if w > 0 {
                f(w);
            }
        }
    }

    /// Writes into `out` (of [`Shape::windows`] slots) the weight index of each window of
    /// `pos`, seen from its side to move.
    pub fn indices<P: PatternBoard>(self, pos: &P, out: &mut [u32]) {
        let mut k = 0;
        self.each_index(pos, |i| {
            out[k] = i;
            k += 1;
        });
        debug_assert_eq!(k, self.windows());
    }

    /// Calls `f` with the weight index of each window of `pos`, in [`Shape::indices`] order.
    #[inline]
    fn each_index<P: PatternBoard>(self, pos: &P, mut f: impl FnMut(u32)) {
        let mut rows: Rows = [(0, 0); MAX_ROWS];
        pos.rows_seen(&mut rows);
        let mut base = 0u32;
        match self {
            Shape::Square(n) => {
                // Each row's fillings 2 and 3 squares wide at each column, computed once for
                // the windows that share them.
                let (mut two, mut three) = (
                    [[0u32; SQUARE_MAX]; SQUARE_MAX],
                    [[0u32; SQUARE_MAX]; SQUARE_MAX],
                );
                for (r, x) in rows.iter().enumerate().take(n) {
                    for c in 0..n - 1 {
                        two[r][c] = fill((x.0 >> c) & 3, (x.1 >> c) & 3) as u32;
                        three[r][c] = fill((x.0 >> c) & 7, (x.1 >> c) & 7) as u32;
                    }
                }
                rectangles(&three, n, 2, 3, &mut base, &mut f);
                rectangles(&two, n, 3, 2, &mut base, &mut f);
                if self.squares3() > 0 {
                    rectangles(&three, n, 3, 3, &mut base, &mut f);
                }
            }
            Shape::Oska(_) => {
                for r in 0..self.rows() - 1 {
                    let w = self.pair_fillings(r) as u32;
                    if w > 0 {
                        let low = 3usize.pow(self.row_len(r) as u32);
                        let (a, b) = (rows[r], rows[r + 1]);
                        f(base + (fill(a.0, a.1) + low * fill(b.0, b.1)) as u32);
                        base += w;
                        continue;
                    }
                    // Square j of the shorter row lies between squares j and j + 1 of the longer.
                    let (long, short) = if self.row_len(r) > self.row_len(r + 1) {
                        (rows[r], rows[r + 1])
                    } else {
                        (rows[r + 1], rows[r])
                    };
                    for c in 0..self.cut_windows(r) {
                        let top = fill((long.0 >> c) & 15, (long.1 >> c) & 15);
                        let bottom = fill((short.0 >> c) & 7, (short.1 >> c) & 7);
                        f(base + (top + 81 * bottom) as u32);
                        base += CUT as u32;
                    }
                }
                // Own pieces move to the last row, the opponent's to row 0: they can still
                // meet while an own piece not yet home is on a lower row than one of the
                // opponent's not yet home.
                let last = self.rows() - 1;
                let (mut own, mut opp) = (0, 0);
                // Pieces not yet home.
                let (mut own_left, mut opp_left) = (0, 0);
                let (mut own_back, mut opp_back) = (usize::MAX, 0);
                let mut race = 0i32;
                for (r, x) in rows.iter().enumerate().take(self.rows()) {
                    own += x.0.count_ones() as usize;
                    opp += x.1.count_ones() as usize;
                    if r < last {
                        own_left += x.0.count_ones() as usize;
                    }
                    if r > 0 {
                        opp_left += x.1.count_ones() as usize;
                    }
                    race += (x.1.count_ones() * r as u32) as i32
                        - (x.0.count_ones() * (last - r) as u32) as i32;
                    if x.0 != 0 && r < last {
                        own_back = own_back.min(r);
                    }
                    if x.1 != 0 && r > 0 {
                        opp_back = opp_back.max(r);
                    }
                }
                let contact = usize::from(own_back < opp_back);
                let n = self.size();
                // Behind, level or up to 2 steps ahead (the side to move wins a tied race),
                // further ahead.
                let class = if race < 0 {
                    0
                } else if race <= 2 {
                    1
                } else {
                    2
                };
                f(base + (((own * (n + 1) + opp) * 3 + class) * 2 + contact) as u32);
                base += self.material_fillings() as u32;
                let wide = (race.clamp(-RACE_SPAN, RACE_SPAN) + RACE_SPAN) as usize;
                f(base + (wide * 2 + contact) as u32);
                base += RACE_FILLINGS as u32;
                let w = self.home_fillings();
                if w > 0 {
                    let near = (race.clamp(-HOME_SPAN, HOME_SPAN) + HOME_SPAN) as usize;
                    let span = 2 * HOME_SPAN as usize + 1;
                    f(base
                        + (((own_left * (n + 1) + opp_left) * span + near) * 2 + contact) as u32);
                    base += w as u32;
                }
            }
        }
        for (r, x) in rows.iter().enumerate().take(self.rows()) {
            let w = self.row_fillings(r) as u32;
            if w > 0 {
                f(base + fill(x.0, x.1) as u32);
                base += w;
            }
        }
        debug_assert_eq!(base as usize, self.weights());
    }
}

/// Calls `f` with the weight index of every `h` x `w` window of an `n` x `n` board, whose rows'
/// fillings `w` squares wide starting at each column are `fills` (seen from the side to move),
/// row by row, each window a block of 3^(h w) weights from `base` on (which ends past the last
/// block); the lowest row of a window is its lowest digits.
#[inline]
fn rectangles(
    fills: &[[u32; SQUARE_MAX]; SQUARE_MAX],
    n: usize,
    h: usize,
    w: usize,
    base: &mut u32,
    f: &mut impl FnMut(u32),
) {
    let row_fillings = 3u32.pow(w as u32);
    let block = row_fillings.pow(h as u32);
    for r in 0..=n - h {
        for c in 0..=n - w {
            let mut idx = 0;
            for x in fills[r..r + h].iter().rev() {
                idx = idx * row_fillings + x[c];
            }
            f(*base + idx);
            *base += block;
        }
    }
}

/// The first bytes of a weights file. Then, as little-endian u32s, the game (0 Hexapawn, 1
/// Oska), the size, the number of weights and the length of the fitting command's text; that
/// text (UTF-8); the weights as little-endian i16s.
pub const MAGIC: &[u8; 8] = b"PATTRN03";

/// A decoded weights file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// The command that fitted them.
    pub fitted_by: String,
    /// One weight a window filling, in [`Shape::indices`] order.
    pub weights: Vec<i16>,
}

fn game_code(shape: Shape) -> usize {
    match shape {
        Shape::Square(_) => 0,
        Shape::Oska(_) => 1,
    }
}

/// Encodes weights of a shape and the command that fitted them as a weights file.
pub fn encode(shape: Shape, weights: &[i16], fitted_by: &str) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    for x in [
        game_code(shape),
        shape.size(),
        weights.len(),
        fitted_by.len(),
    ] {
        out.extend_from_slice(&(x as u32).to_le_bytes());
    }
    out.extend_from_slice(fitted_by.as_bytes());
    for w in weights {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out
}

/// Why a pattern weights file is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PatternsError {
    /// Not a weights file, or one of another version.
    #[error("not a pattern weights file of this version (bad magic)")]
    BadMagic,
    /// A header or a length that is not the shape's.
    #[error("pattern weights file does not fit {} {} ({} weights expected)", .shape.game(), .shape.size(), .shape.weights())]
    WrongShape {
        /// The shape the file was read for.
        shape: Shape,
    },
    /// The fitting command recorded in the file is not UTF-8.
    #[error("the fitting command of a pattern weights file is not UTF-8")]
    FittedByNotUtf8,
}

/// Decodes a weights file of `shape`, checking its header and length.
pub fn decode(shape: Shape, bytes: &[u8]) -> Result<Weights, PatternsError> {
    let expect = shape.weights();
    let head = |at: usize| {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    };
    if bytes.get(..8) != Some(&MAGIC[..]) {
        return Err(PatternsError::BadMagic);
    }
    let text = head(20).unwrap_or(usize::MAX);
    if head(8) != Some(game_code(shape))
        || head(12) != Some(shape.size())
        || head(16) != Some(expect)
        || Some(bytes.len()) != (24 + 2 * expect).checked_add(text)
    {
        return Err(PatternsError::WrongShape { shape });
    }
    let fitted_by = String::from_utf8(bytes[24..24 + text].to_vec())
        .map_err(|_| PatternsError::FittedByNotUtf8)?;
    Ok(Weights {
        fitted_by,
        weights: bytes[24 + text..]
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect(),
    })
}

/// The committed weights files.
const FILES: &[(Shape, &[u8])] = &[
    (
        Shape::Square(5),
        include_bytes!("../../data/patterns/hexapawn-5.bin"),
    ),
    (
        Shape::Square(6),
        include_bytes!("../../data/patterns/hexapawn-6.bin"),
    ),
    (
        Shape::Oska(4),
        include_bytes!("../../data/patterns/oska-4.bin"),
    ),
    (
        Shape::Oska(5),
        include_bytes!("../../data/patterns/oska-5.bin"),
    ),
    (
        Shape::Oska(6),
        include_bytes!("../../data/patterns/oska-6.bin"),
    ),
];

/// The committed weights of `shape`, decoded once; `None` for shapes without a file.
pub fn committed(shape: Shape) -> Option<&'static Weights> {
    static DECODED: [[OnceLock<Option<Weights>>; 12]; 2] =
        [const { [const { OnceLock::new() }; 12] }; 2];
    DECODED
        .get(game_code(shape))?
        .get(shape.size())?
        .get_or_init(|| {
            let &(_, bytes) = FILES.iter().find(|(s, _)| *s == shape)?;
            Some(decode(shape, bytes).expect("a committed pattern file is well formed"))
        })
        .as_ref()
}

/// The pattern term of `pos` with weights `w` of its shape.
#[inline]
pub fn score_with<P: PatternBoard>(pos: &P, w: &[i16]) -> i32 {
    let mut sum = 0;
    pos.shape()
        .each_index(pos, |i| sum += i32::from(w[i as usize]));
    sum
}

/// The pattern term of `pos` with the committed weights (0 for shapes without them).
#[inline]
pub fn score<P: PatternBoard>(pos: &P) -> i32 {
    committed(pos.shape()).map_or(0, |w| score_with(pos, &w.weights))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shapes() -> Vec<Shape> {
        let mut v: Vec<Shape> = (3..=8).map(Shape::Square).collect();
        v.extend((4..=8).map(Shape::Oska));
        v
    }

    #[test]
    fn indices_are_in_range_and_in_increasing_blocks() {
        for shape in shapes() {
            let mut out = vec![0u32; shape.windows()];
            match shape {
                Shape::Square(n) => shape.indices(&Hexapawn::start(n).unwrap(), &mut out),
                Shape::Oska(n) => shape.indices(&Oska::start(n).unwrap(), &mut out),
            }
            assert!(out.iter().all(|&i| (i as usize) < shape.weights()));
            // Each window has its own block of weights, in increasing order.
            assert!(out.windows(2).all(|w| w[0] < w[1]), "{shape:?}: {out:?}");
        }
    }

    /// Rows reversed, colours swapped, the other side to move.
    fn mirror<G: Game>(pos: &G) -> G {
        let layout = pos.layout();
        let cells: Vec<_> = (0..layout.squares())
            .map(|sq| {
                let (r, c) = layout.coords(sq);
                let from = layout.square_at(layout.rows() - 1 - r, c).unwrap();
                pos.piece_at(from)
                    .map(|p| crate::games::Piece::pawn(p.side().opposite()))
            })
            .collect();
        G::from_cells(pos.size(), &cells, pos.side_to_move().opposite()).unwrap()
    }

    #[test]
    fn colour_mirror_gives_the_same_indices() {
        let h = Hexapawn::from_bits(
            5,
            0b10001u128 | (0b00100u128 << 5) | (0b01000u128 << 15),
            (0b10010u128 << 20) | (0b00001u128 << 10),
            Side::White,
        );
        let o = Oska::from_bits(5, 0b1001 | (1 << 12), (1 << 20) | (1 << 6), Side::White);
        fn same<P: PatternBoard>(a: &P, b: &P) {
            let shape = a.shape();
            let (mut x, mut y) = (vec![0; shape.windows()], vec![0; shape.windows()]);
            shape.indices(a, &mut x);
            shape.indices(b, &mut y);
            assert_eq!(x, y);
        }
        same(&h, &mirror(&h));
        same(&o, &mirror(&o));
        let o6 = Oska::from_bits(
            6,
            (1 << 3) | (1 << 8) | (1 << 30),
            (1 << 37) | (1 << 7),
            Side::Black,
        );
        same(&o6, &mirror(&o6));
    }

    #[test]
    fn oska_6_cuts_the_row_pairs_too_long_to_be_windows() {
        let shape = Shape::Oska(6);
        // Rows of 6, 5, 4, 3, 2, 3, 4, 5, 6 squares: the pairs of 6 and 5 are cut into 3 windows
        // each, the 6 other pairs and the 9 rows are windows whole.
        // Then the material window (0 to 6 pieces a side, 3 classes of race, in contact or not),
        // the race window (-15 to 15, in contact or not) and the home window (0 to 6 pieces a
        // side not yet home, race -5 to 5, in contact or not).
        assert_eq!(shape.windows(), 3 + 6 + 3 + 3 + 9);
        let pairs = 2 * (19683 + 2187 + 243);
        let rows = 2 * (729 + 243 + 81 + 27) + 9;
        assert_eq!(
            shape.weights(),
            6 * CUT + pairs + 6 * 49 + 2 * 31 + 22 * 49 + rows
        );
        // White to move: its piece on the third square of row 1, Black's on the second square of
        // row 0 and on the last of row 8.
        let pos = Oska::from_bits(6, 1 << (6 + 2), (1 << 1) | (1 << 37), Side::White);
        let mut out = vec![0; shape.windows()];
        shape.indices(&pos, &mut out);
        let cut = CUT as u32;
        // Window c: squares c..c+4 of row 0 (digits 1, 3, 9, 27; the opponent's count twice),
        // squares c..c+3 of row 1 (digits 81, 243, 729).
        assert_eq!(out[..3], [2 * 3 + 729, cut + 2 + 243, 2 * cut + 81]);
        // Rows 7 and 8 (5 and 6 squares) come after the 6 whole pairs: only the last window holds
        // the last square of row 8 (its fourth square, digit 2 * 27).
        let last = 3 * cut + pairs as u32;
        assert_eq!(out[9..12], [last, last + cut, last + 2 * cut + 2 * 27]);
        // One own piece, two of the opponent's, one of which (row 8) is still behind it.
        let material = last + 3 * cut;
        // The race: the own piece needs 7 steps, the opponent's 0 and 8 (race 1: level).
        assert_eq!(out[12], material + ((7 + 2) * 3 + 1) * 2 + 1);
        let race = material + 294;
        assert_eq!(out[13], race + (1 + 15) * 2 + 1);
        // One piece a side not yet home (the opponent's on row 0 is home), race 1, in contact.
        let home = race + 62;
        assert_eq!(out[14], home + ((7 + 1) * 11 + 5 + 1) * 2 + 1);
        // The opponent's pieces all home: no contact, a race of -7.
        let passed = Oska::from_bits(6, 1 << (6 + 2), (1 << 1) | (1 << 4), Side::White);
        shape.indices(&passed, &mut out);
        assert_eq!(
            out[12..15],
            [
                material + (7 + 2) * 3 * 2,
                race + (15 - 7) * 2,
                home + 7 * 11 * 2
            ]
        );
    }

    #[test]
    fn oska_4_home_window_counts_the_pieces_not_yet_home() {
        let shape = Shape::Oska(4);
        // Rows of 4, 3, 2, 3, 4 squares: 4 pairs, the material, race and home windows, 5 rows.
        assert_eq!(shape.windows(), 4 + 3 + 5);
        let home = (2 * (2187 + 243) + 6 * 25 + 2 * 31) as u32;
        assert_eq!(shape.weights(), home as usize + 25 * 22 + 2 * (81 + 27) + 9);
        // White to move: home on row 4 and on row 1 (3 steps to go); Black home on row 0 and on
        // row 3 (3 steps to go, behind White's piece).
        let pos = Oska::from_bits(4, (1 << 12) | (1 << 4), 1 | (1 << 9), Side::White);
        let mut out = vec![0; shape.windows()];
        shape.indices(&pos, &mut out);
        // One piece a side not yet home, a race of 0, in contact.
        assert_eq!(out[6], home + ((5 + 1) * 11 + 5) * 2 + 1);
        // White's piece passes Black's: out of contact, 1 step to go against 2 (race 1).
        let passed = Oska::from_bits(4, (1 << 12) | (1 << 9), 1 | (1 << 7), Side::White);
        shape.indices(&passed, &mut out);
        assert_eq!(out[6], home + ((5 + 1) * 11 + 5 + 1) * 2);
        // Every piece home: nothing left, the race 0.
        let done = Oska::from_bits(4, (1 << 12) | (1 << 13), 1 | 2, Side::White);
        shape.indices(&done, &mut out);
        assert_eq!(out[6], home + 5 * 2);
    }

    #[test]
    fn files_round_trip_and_bad_ones_are_refused() {
        let shape = Shape::Oska(4);
        let w: Vec<i16> = (0..shape.weights()).map(|i| i as i16 - 300).collect();
        let file = encode(shape, &w, "engine tune-patterns oska 4 x.txt --seed 1");
        let back = decode(shape, &file).unwrap();
        assert_eq!(back.weights, w);
        assert_eq!(back.fitted_by, "engine tune-patterns oska 4 x.txt --seed 1");
        assert_eq!(
            decode(Shape::Oska(5), &file).unwrap_err().to_string(),
            format!(
                "pattern weights file does not fit oska 5 ({} weights expected)",
                Shape::Oska(5).weights()
            )
        );
        assert!(decode(Shape::Square(4), &file).is_err());
        assert!(decode(shape, &file[..100]).is_err());
        assert_eq!(
            decode(shape, &file[1..]).unwrap_err().to_string(),
            "not a pattern weights file of this version (bad magic)"
        );
        for &(shape, _) in FILES {
            let c = committed(shape).unwrap();
            assert_eq!(c.weights.len(), shape.weights());
            let by = format!("engine tune-patterns {} {} ", shape.game(), shape.size());
            assert!(c.fitted_by.starts_with(&by), "{}", c.fitted_by);
            assert!(
                c.weights.iter().any(|&x| x != 0),
                "{shape:?} has fitted weights"
            );
        }
        assert!(committed(Shape::Square(4)).is_none() && committed(Shape::Square(7)).is_none());
    }
}
