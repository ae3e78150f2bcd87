//! The shape of a board: rows of given lengths, squares numbered row-major from the top left.

use super::bit;

/// The shape of a board of one game and size. Square `i` is the `i`-th square reading rows from
/// the top, each row from the left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    row_len: Vec<usize>,
    row_start: Vec<usize>,
    /// For each square, its (row, column), both from 0.
    coords: Vec<(usize, usize)>,
    mask: u128,
}

impl Layout {
    /// A layout from its row lengths, top row first. The total must be at most 128.
    pub fn new(row_len: Vec<usize>) -> Layout {
        let mut row_start = Vec::with_capacity(row_len.len());
        let mut coords = Vec::new();
        for (r, &len) in row_len.iter().enumerate() {
            row_start.push(coords.len());
            coords.extend((0..len).map(|c| (r, c)));
        }
        assert!(coords.len() <= 128, "a board has at most 128 squares");
        let mask = (0..coords.len()).fold(0u128, |m, s| m | bit(s));
        Layout {
            row_len,
            row_start,
            coords,
            mask,
        }
    }

    /// A square board of `n` rows of `n`.
    pub fn square(n: usize) -> Layout {
        Layout::new(vec![n; n])
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.row_len.len()
    }

    /// The length of each row, top first.
    pub fn row_lengths(&self) -> &[usize] {
        &self.row_len
    }

    /// The length of row `r` (from 0).
    pub fn row_len(&self, r: usize) -> usize {
        self.row_len[r]
    }

    /// Number of squares.
    pub fn squares(&self) -> usize {
        self.coords.len()
    }

    /// A bit for every square.
    pub fn mask(&self) -> u128 {
        self.mask
    }

    /// The square at row `r`, column `c` (both from 0), if it exists.
    pub fn square_at(&self, r: usize, c: usize) -> Option<usize> {
        (r < self.rows() && c < self.row_len[r]).then(|| self.row_start[r] + c)
    }

    /// The (row, column) of a square, both from 0.
    pub fn coords(&self, sq: usize) -> (usize, usize) {
        self.coords[sq]
    }

    /// The name of a square: column letter then row number from 1 (`a1` is the top left).
    pub fn square_name(&self, sq: usize) -> String {
        let (r, c) = self.coords[sq];
        format!("{}{}", (b'a' + c as u8) as char, r + 1)
    }
}

/// On an `n` x `n` board, the square `dr` rows and `dc` columns away from `sq`, if on the board.
pub fn grid_offset(n: usize, sq: usize, dr: isize, dc: isize) -> Option<usize> {
    let (r, c) = ((sq / n) as isize + dr, (sq % n) as isize + dc);
    (r >= 0 && c >= 0 && r < n as isize && c < n as isize).then(|| r as usize * n + c as usize)
}
