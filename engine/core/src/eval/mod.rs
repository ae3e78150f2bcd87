//! Static evaluators: the tuned one of each game, the first version's (`legacy`), and the classic
//! evaluators of the seed assignments, kept as sparring partners.
//!
//! Every evaluator scores a position for the side to move without searching. The tuned evaluators
//! are linear: a game computes a vector of *features* (each from the side to move's view, so the
//! colour-mirrored position gets the same vector), and the score is their dot product with
//! weights fitted to exact game values by `engine-tune tune` (see `crate::tuning`). The weights live in
//! `weights_*.rs`, written by that command.
//!
//! Each game's evaluator is written out in its file (`oska.rs`, `hexapawn.rs`, `ctf.rs`), with
//! its [`Evaluate`] implementation; `common.rs` holds what they share and imports no other file
//! here; `patterns.rs` the pattern terms of Oska and Hexapawn; `legacy/` the first version's
//! evaluators. The search ([`crate::search`]) uses this module, never the other way round.

pub mod common;
pub mod ctf;
pub mod hexapawn;
pub mod legacy;
pub mod oska;
pub mod patterns;
pub mod weights_ctf;
pub mod weights_ctf_refined;
pub mod weights_hexapawn;
pub mod weights_oska;

use std::fmt;

use crate::games::{Game, Side};

pub use common::{EVAL_LIMIT, classic_advance, dot, material};

/// Which static evaluator a search uses (the `Evaluator` option of the protocol).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EvalKind {
    /// The game's tuned evaluator (the default).
    #[default]
    Tuned,
    /// The first version's hand-weighted evaluator.
    Legacy,
    /// Classic: own pieces minus the opponent's, 100 each.
    Material,
    /// Classic: material plus 10 a row for every row a pawn has advanced.
    ClassicAdvance,
    /// Classic: a plain race count (Oska: the single steps each side still needs to bring every
    /// piece home; Hexapawn: material and the rows the most advanced pawn still has to go;
    /// Capture the Flag: material and the rows the flag still has to go past every enemy pawn).
    ClassicRace,
}

/// Why an evaluator's name is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// A name that is none of [`EvalKind::name`]'s.
    #[error("unknown evaluator '{0}': expected one of {names}", names = EvalKind::ALL.map(EvalKind::name).join(", "))]
    Unknown(String),
}

impl EvalKind {
    /// Every evaluator, the default first.
    pub const ALL: [EvalKind; 5] = [
        EvalKind::Tuned,
        EvalKind::Legacy,
        EvalKind::Material,
        EvalKind::ClassicAdvance,
        EvalKind::ClassicRace,
    ];

    /// The name used by the protocol and the command line.
    pub const fn name(self) -> &'static str {
        match self {
            EvalKind::Tuned => "tuned",
            EvalKind::Legacy => "legacy",
            EvalKind::Material => "material",
            EvalKind::ClassicAdvance => "classic-advance",
            EvalKind::ClassicRace => "classic-race",
        }
    }

    /// Parses a name of [`EvalKind::name`] (any case).
    pub fn parse(text: &str) -> Result<EvalKind, EvalError> {
        let t = text.trim().to_ascii_lowercase();
        EvalKind::ALL
            .into_iter()
            .find(|k| k.name() == t)
            .ok_or_else(|| EvalError::Unknown(text.trim().to_string()))
    }

    /// The evaluation function of this kind for game `G`.
    pub fn function<G: Evaluate>(self) -> fn(&G) -> i32 {
        match self {
            EvalKind::Tuned => <G as Evaluate>::evaluate,
            EvalKind::Legacy => <G as Evaluate>::legacy,
            EvalKind::Material => material::<G>,
            EvalKind::ClassicAdvance => classic_advance::<G>,
            EvalKind::ClassicRace => classic_race::<G>,
        }
    }
}

impl fmt::Display for EvalKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The parts of [`Evaluate`] that every tuned evaluator writes the same way, for use inside a
/// game's `impl Evaluate` as `tuned_linear!(names, features, weights, term)`:
/// [`Evaluate::FEATURE_NAMES`] from `names`, [`Evaluate::features`] from the array that
/// `features(pos)` returns, [`Evaluate::weights`] from `weights`, and [`Evaluate::evaluate`]: the
/// features' score at the size's weights ([`Evaluate::weights_at`]) plus the game's own term
/// `term(pos)` ([`common::tuned`]).
macro_rules! tuned_linear {
    ($names:expr, $features:path, $weights:expr, $term:path) => {
        const FEATURE_NAMES: &'static [&'static str] = &$names;

        fn features(&self, out: &mut [i32]) {
            out.copy_from_slice(&$features(self));
        }

        fn weights() -> &'static [i32] {
            &$weights
        }

        #[inline]
        fn evaluate(&self) -> i32 {
            let weights = Self::weights_at($crate::games::Game::size(self));
            $crate::eval::common::tuned(&$features(self), weights, $term(self))
        }
    };
}

pub(crate) use tuned_linear;

/// A static evaluation: a score of the position for the side to move, without searching.
pub trait Evaluate: Game {
    /// The names of the tuned evaluator's features, in the order of [`Evaluate::features`].
    const FEATURE_NAMES: &'static [&'static str];

    /// The tuned evaluator's features, from the side to move's view; `out` has
    /// `FEATURE_NAMES.len()` slots.
    fn features(&self, out: &mut [i32]);

    /// The tuned evaluator's weights fitted by `engine-tune tune` for every size, in the order of
    /// [`Evaluate::FEATURE_NAMES`].
    fn weights() -> &'static [i32];

    /// The weights the tuned evaluator uses at board size `size`: those of
    /// [`Evaluate::weights`], unless `engine-tune refine-weights` refined a set for this size
    /// (Capture the Flag 5, `weights_ctf_refined.rs`).
    #[inline]
    fn weights_at(_size: usize) -> &'static [i32] {
        Self::weights()
    }

    /// The tuned score for the side to move: positive is good for it. Within [`EVAL_LIMIT`]. The
    /// features' dot product with the weights, plus (Hexapawn and Oska of sizes with fitted
    /// patterns) the pattern term of [`patterns`].
    fn evaluate(&self) -> i32;

    /// The first version's evaluator.
    fn legacy(&self) -> i32;

    /// The features of a piece-square term, weighted after [`Evaluate::FEATURE_NAMES`]'s in a
    /// refined set of weights (Capture the Flag: see [`ctf::piece_square_counts`]); none in
    /// the other games (pattern weights instead). `out` is cleared first.
    fn piece_square_counts(&self, out: &mut Vec<i32>) {
        out.clear();
    }

    /// The plain race count of a side for [`EvalKind::ClassicRace`]: how far it still is from
    /// winning the race (smaller is better).
    fn race_steps(&self, side: Side) -> i32;

    /// How the search orders and windows its moves in this game and size (see
    /// [`SearchStyle`]); the classic style unless a game says otherwise.
    #[inline]
    fn search_style(&self) -> SearchStyle {
        SearchStyle::CLASSIC
    }
}

/// How the search treats the moves of one game and size. The depth-N value is the same in every
/// style (plain minimax's); the style changes the order of the moves, and so the size of the
/// tree, and which of several equally good moves is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchStyle {
    /// Captures are tried right after the table move, before the killers and the other moves.
    /// When false they take their place by the history heuristic like any other move, and earn
    /// history when they cut.
    pub captures_first: bool,
    /// Principal variation search: every move after a node's first is searched with a null
    /// window first, and again with the full window only if it proves better.
    pub null_window: bool,
}

impl SearchStyle {
    /// Captures first, every move with the full window.
    pub const CLASSIC: SearchStyle = SearchStyle {
        captures_first: true,
        null_window: false,
    };
}

/// The plain race count: 10 for every step the opponent still needs beyond the side to move's
/// (Oska), plus material in Hexapawn and Capture the Flag.
pub fn classic_race<G: Evaluate>(pos: &G) -> i32 {
    let me = pos.side_to_move();
    let race = 10 * (pos.race_steps(me.opposite()) - pos.race_steps(me));
    if G::KIND == crate::games::GameKind::Oska {
        race
    } else {
        material(pos) + 3 * race
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_and_an_unknown_one_lists_them() {
        for kind in EvalKind::ALL {
            assert_eq!(EvalKind::parse(&kind.name().to_uppercase()), Ok(kind));
        }
        assert_eq!(
            EvalKind::parse(" best ").unwrap_err().to_string(),
            "unknown evaluator 'best': expected one of tuned, legacy, material, classic-advance, \
             classic-race"
        );
    }
}
