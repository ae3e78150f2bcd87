//! The Oska evaluator: features of the race home, fitted to exact game values.
//!
//! Oska is won by the side whose remaining pieces all stand on the far row first, so it is above
//! all a race, and a capture is a mixed blessing: it removes a piece the opponent would have had
//! to bring home, which *shortens* the opponent's race. The features, each from the side to
//! move's view (own minus the opponent's where there are two sides):
//!
//! - `tempo`: 1 (the side to move moves first, which wins a tied race);
//! - `race`: the single steps the opponent still needs to bring all its remaining pieces home,
//!   minus the steps the side to move needs;
//! - `race_lead`: +1 when the side to move is at least level in that race (it moves first), -1
//!   when it is behind;
//! - `pure_race`: `race_lead` again, but only once the two sides have passed each other (no piece
//!   can meet an enemy piece any more): then the race decides the game and nothing else counts;
//! - `pieces`: material; worth having (a piece can block and capture) but every piece is one
//!   more to bring home;
//! - `jumps`: enemy pieces the side to move can jump now, and `exposed`: its own pieces that the
//!   opponent could jump on its move;
//! - `capture_swing`: the best race change the side to move can get from a capture now (the jump
//!   gains a row for the jumper, the victim's remaining steps are taken off the opponent's race);
//! - `mobility`: moves the side has minus the opponent's;
//! - `blocked`: pieces, not yet home, that cannot move (own minus the opponent's);
//! - `must_pass`: -1 when the side to move has no move (it must pass and loses a tempo), +1 when
//!   the opponent has none;
//! - `home`: pieces already home (own minus the opponent's): they are out of play;
//! - `count_rule`: piece difference when both sides are one piece from being all home, where
//!   the both-home count rule can decide;
//! - `contact_pieces`: material again, but only while the sides can still meet (after that only
//!   the race counts);
//! - `few_pieces`: -1 when the side to move is down to two pieces or fewer (a side with no pieces
//!   left loses, and a lone piece in contact is hunted), +1 when the opponent is.
//!
//! The weights come from `weights_oska.rs`, fitted by `engine-tune tune`. It never searches.

use super::weights_oska::WEIGHTS;
use super::{Evaluate, SearchStyle, legacy, patterns};
use crate::games::oska::{NONE, tables};
use crate::games::{Bits, Game, Oska, Side, bit};

/// The feature names, in order.
pub const FEATURES: [&str; 15] = [
    "tempo",
    "race",
    "race_lead",
    "pure_race",
    "pieces",
    "jumps",
    "exposed",
    "capture_swing",
    "mobility",
    "blocked",
    "must_pass",
    "home",
    "count_rule",
    "contact_pieces",
    "few_pieces",
];

/// What one side's pieces look like.
#[derive(Default, Clone, Copy)]
struct SideInfo {
    /// Single steps to bring every piece home.
    steps: i32,
    pieces: i32,
    home: i32,
    moves: i32,
    blocked: i32,
    /// Enemy pieces this side can jump now.
    jumps: i32,
    /// The best race change, for this side, of one of its captures: the jumper gains one row more
    /// than a step would, and the victim's remaining steps leave the opponent's race (so the
    /// change is negative when the victim still had far to go).
    best_swing: i32,
    /// The least advanced non-home piece's row, as rows advanced (for the contact test).
    rearmost: i32,
    /// The most advanced non-home piece's advance.
    foremost: i32,
}

fn side_info(pos: &Oska, side: Side) -> SideInfo {
    let t = tables(pos.size());
    let rows = t.layout.rows();
    let own = pos.bits(side);
    let opp = pos.bits(side.opposite());
    let empty = t.layout.mask() & !(own | opp);
    let s = side.index();
    let goal = t.home[1 - s];
    let mut info = SideInfo {
        best_swing: i32::MIN,
        rearmost: i32::MAX,
        foremost: i32::MIN,
        ..SideInfo::default()
    };
    let to_go = |sq: usize, who: Side| {
        let r = t.layout.coords(sq).0;
        match who {
            Side::White => (rows - 1 - r) as i32,
            Side::Black => r as i32,
        }
    };
    for sq in Bits(own) {
        info.pieces += 1;
        if goal & bit(sq) != 0 {
            info.home += 1;
            continue;
        }
        let go = to_go(sq, side);
        info.steps += go;
        let adv = rows as i32 - 1 - go;
        info.rearmost = info.rearmost.min(adv);
        info.foremost = info.foremost.max(adv);
        let mut moves = 0;
        for d in 0..2 {
            let to = t.step[s][d][sq];
            if to == NONE {
                continue;
            }
            if empty & bit(to as usize) != 0 {
                moves += 1;
            } else if opp & bit(to as usize) != 0 {
                let j = t.jump[s][d][sq];
                if j != NONE && empty & bit(j as usize) != 0 {
                    moves += 1;
                    info.jumps += 1;
                    // The jumper saves a step; the victim's steps leave the opponent's race.
                    let victim = to_go(to as usize, side.opposite());
                    info.best_swing = info.best_swing.max(1 - victim);
                }
            }
        }
        info.moves += moves;
        if moves == 0 {
            info.blocked += 1;
        }
    }
    info
}

/// The single steps `side` still needs to bring every piece home (the plain race count).
pub fn steps(pos: &Oska, side: Side) -> i32 {
    side_info(pos, side).steps
}

/// The features of `pos` from the side to move's view, in the order of [`FEATURES`].
pub fn features(pos: &Oska) -> [i32; 15] {
    let me_side = pos.side_to_move();
    let me = side_info(pos, me_side);
    let op = side_info(pos, me_side.opposite());
    let race = op.steps - me.steps;
    let lead = if race >= 0 { 1 } else { -1 };
    // Contact is possible while some piece of a side is still behind (in its own direction)
    // an enemy piece: white advance a and black advance b on the same board meet when
    // a + b < rows - 1.
    let rows = pos.layout().rows() as i32;
    let contact =
        me.rearmost != i32::MAX && op.rearmost != i32::MAX && me.rearmost + op.rearmost < rows - 1;
    let pure = if contact { 0 } else { lead };
    let swing = if me.jumps > 0 { me.best_swing } else { 0 };
    let must_pass = i32::from(op.moves == 0 && op.pieces > op.home)
        - i32::from(me.moves == 0 && me.pieces > me.home);
    let near_done = |i: &SideInfo| i.pieces - i.home <= 1;
    let count_rule = if near_done(&me) && near_done(&op) {
        me.pieces - op.pieces
    } else {
        0
    };
    [
        1,
        race,
        lead,
        pure,
        me.pieces - op.pieces,
        me.jumps,
        op.jumps,
        swing,
        me.moves - op.moves,
        me.blocked - op.blocked,
        must_pass,
        me.home - op.home,
        count_rule,
        if contact { me.pieces - op.pieces } else { 0 },
        i32::from(op.pieces <= 2) - i32::from(me.pieces <= 2),
    ]
}

/// The tuned Oska evaluator: the features' score plus the pattern term ([`patterns::score`]).
impl Evaluate for Oska {
    super::tuned_linear!(FEATURES, features, WEIGHTS, patterns::score);

    fn legacy(&self) -> i32 {
        legacy::oska::evaluate(self)
    }

    fn race_steps(&self, side: Side) -> i32 {
        steps(self, side)
    }

    /// Oska from 6 pieces a side up: captures by the history heuristic and null windows. In
    /// Oska a capture is often a poor move (it shortens the opponent's race home), which the
    /// tuned evaluator knows: with captures first, Oska 6's first move cut a node in 73.6 % of
    /// its cutoffs; with both changes in 85.6 %, and depth-10 searches of 100 positions need a
    /// third fewer nodes (docs/research/2026-11-24-strength.md). The smaller sizes keep the
    /// classic style (their games stay as they were).
    #[inline]
    fn search_style(&self) -> SearchStyle {
        if self.size() >= 6 {
            SearchStyle {
                captures_first: false,
                null_window: true,
            }
        } else {
            SearchStyle::CLASSIC
        }
    }
}
