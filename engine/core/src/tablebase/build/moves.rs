//! The moves of a game as the builder sees them: one [`Template`] a kind of move from a square,
//! found with the game's own move generation and checked against what the builder models, and
//! the left-right reflection of the board where the moves allow it.

use super::super::{Retro, TablebaseError};
use crate::games::{MoveList, Side, bit};

/// One kind of move of one side from one square, the same on every board: to `to`, over or
/// onto the opponent's piece on `cap` if it is a capture. A move is legal when `to` is empty
/// (or is `cap`) and, for a capture, an opponent's piece stands on `cap`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Template {
    pub(super) to: usize,
    pub(super) cap: Option<usize>,
}

/// The move templates of the game, `[side][from]`, found with the game's own move generation
/// on boards of one or two pieces.
pub(super) fn templates<G: Retro>(
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
pub(super) fn reflection<G: Retro>(
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
