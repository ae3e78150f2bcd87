//! Zobrist keys shared by the games: one per piece kind and square, one for the side to move and
//! one per size. Fixed pseudo-random numbers (splitmix64), so hashes are the same on every run.

use crate::splitmix::step as splitmix;

const fn make_keys() -> [[u64; 128]; 4] {
    let mut keys = [[0u64; 128]; 4];
    let mut state = 0x0123_4567_89AB_CDEFu64;
    let mut p = 0;
    while p < 4 {
        let mut s = 0;
        while s < 128 {
            let (ns, v) = splitmix(state);
            state = ns;
            keys[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    keys
}

/// Keys per piece index (see [`super::Piece::index`]) and square.
pub static PIECE_SQUARE: [[u64; 128]; 4] = make_keys();

/// Xored in when Black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix(0xFEED_FACE_CAFE_BEEF).1;

/// A key per size, so that equal bit patterns of different sizes hash apart.
pub const fn size_key(size: usize) -> u64 {
    splitmix(0x5151_0000 + size as u64).1
}

/// The board hash of a set of squares holding one piece kind.
#[inline]
pub fn hash_bits(piece: usize, mut bits: u128) -> u64 {
    let mut h = 0;
    while bits != 0 {
        let s = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        h ^= PIECE_SQUARE[piece][s];
    }
    h
}
