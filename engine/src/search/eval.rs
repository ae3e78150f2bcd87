//! Static evaluators: the tuned one of each game, the first version's (`legacy`), and the classic
//! evaluators of the seed assignments, kept as sparring partners.
//!
//! Every evaluator scores a position for the side to move without searching. The tuned evaluators
//! are linear: a game computes a vector of *features* (each from the side to move's view, so the
//! colour-mirrored position gets the same vector), and the score is their dot product with
//! weights fitted to exact game values by `engine tune` (see `crate::tuning`). The weights live in
//! `weights_*.rs`, written by that command.

use std::fmt;

use super::{EVAL_LIMIT, legacy};
use crate::games::{Ctf, Game, Hexapawn, Oska, Side};

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
    pub fn parse(text: &str) -> Result<EvalKind, String> {
        let t = text.trim().to_ascii_lowercase();
        EvalKind::ALL
            .into_iter()
            .find(|k| k.name() == t)
            .ok_or_else(|| {
                let names: Vec<&str> = EvalKind::ALL.iter().map(|k| k.name()).collect();
                format!(
                    "unknown evaluator '{}': expected one of {}",
                    text.trim(),
                    names.join(", ")
                )
            })
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

/// A static evaluation: a score of the position for the side to move, without searching.
pub trait Evaluate: Game {
    /// The names of the tuned evaluator's features, in the order of [`Evaluate::features`].
    const FEATURE_NAMES: &'static [&'static str];

    /// The tuned evaluator's features, from the side to move's view; `out` has
    /// `FEATURE_NAMES.len()` slots.
    fn features(&self, out: &mut [i32]);

    /// The tuned evaluator's weights fitted by `engine tune` for every size, in the order of
    /// [`Evaluate::FEATURE_NAMES`].
    fn weights() -> &'static [i32];

    /// The weights the tuned evaluator uses at board size `size`: those of
    /// [`Evaluate::weights`], unless `engine refine-weights` refined a set for this size
    /// (Capture the Flag 5, `weights_ctf_refined.rs`).
    fn weights_at(size: usize) -> &'static [i32];

    /// The tuned score for the side to move: positive is good for it. Within [`EVAL_LIMIT`]. The
    /// features' dot product with the weights, plus (Hexapawn and Oska of sizes with fitted
    /// patterns) the pattern term of [`super::patterns`].
    fn evaluate(&self) -> i32;

    /// The first version's evaluator.
    fn legacy(&self) -> i32;

    /// The features of a piece-square term, weighted after [`Evaluate::FEATURE_NAMES`]'s in a
    /// refined set of weights (Capture the Flag: see `eval_ctf::piece_square_counts`); none in
    /// the other games. `out` is cleared first.
    fn piece_square_counts(&self, out: &mut Vec<i32>);

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

/// The dot product of features and weights, clamped to the evaluation range.
#[inline]
pub fn dot(features: &[i32], weights: &[i32]) -> i32 {
    let s: i64 = features
        .iter()
        .zip(weights)
        .map(|(&f, &w)| i64::from(f) * i64::from(w))
        .sum();
    s.clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT)) as i32
}

/// A material count: own pieces minus the opponent's, 100 each (flags count as pieces in Capture
/// the Flag, but a side always has its flag while the game goes on).
pub fn material<G: Game>(pos: &G) -> i32 {
    let me = pos.side_to_move();
    100 * (pos.piece_count(me) as i32 - pos.piece_count(me.opposite()) as i32)
}

/// The rows a pawn of `side` on row `r` (of `rows`) has advanced from its home row.
#[inline]
pub(crate) fn advanced(side: Side, r: usize, rows: usize) -> i32 {
    match side {
        Side::White => r as i32,
        Side::Black => (rows - 1 - r) as i32,
    }
}

/// Material plus 10 for every row each pawn (not a flag) has advanced.
pub fn classic_advance<G: Game>(pos: &G) -> i32 {
    let layout = pos.layout();
    let me = pos.side_to_move();
    let mut score = material(pos);
    for sq in 0..layout.squares() {
        if let Some(p) = pos.piece_at(sq)
            && !p.is_flag()
        {
            let a = 10 * advanced(p.side(), layout.coords(sq).0, layout.rows());
            score += if p.side() == me { a } else { -a };
        }
    }
    score
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

/// No piece-square term (the games with pattern weights instead).
fn no_piece_squares<G>(_: &G, out: &mut Vec<i32>) {
    out.clear();
}

/// No weights refined for one size: every size uses the fitted ones.
#[inline]
fn not_refined(_: usize) -> Option<&'static [i32]> {
    None
}

/// Capture the Flag's weights refined for one size by `engine refine-weights`.
#[inline]
fn ctf_refined(size: usize) -> Option<&'static [i32]> {
    use super::weights_ctf_refined as refined;
    (size == refined::SIZE).then_some(&refined::WEIGHTS[..])
}

/// The [`Evaluate`] implementation of a game from its evaluator module, weights module, the
/// weights refined for one size, legacy module, plain race count, the term added to the
/// features' score (the pattern term; Capture the Flag's piece-square term), the piece-square
/// term's features and its search style.
macro_rules! evaluate_impl {
    ($game:ty, $eval:ident, $weights:ident, $refined:path, $legacy:ident, $race:ident, $patterns:path, $squares:path, $style:path) => {
        impl Evaluate for $game {
            const FEATURE_NAMES: &'static [&'static str] = &super::$eval::FEATURES;

            fn features(&self, out: &mut [i32]) {
                out.copy_from_slice(&super::$eval::features(self));
            }

            fn weights() -> &'static [i32] {
                &super::$weights::WEIGHTS
            }

            #[inline]
            fn weights_at(size: usize) -> &'static [i32] {
                $refined(size).unwrap_or(&super::$weights::WEIGHTS)
            }

            #[inline]
            fn evaluate(&self) -> i32 {
                let linear = dot(&super::$eval::features(self), Self::weights_at(self.size()));
                (linear + $patterns(self)).clamp(-EVAL_LIMIT, EVAL_LIMIT)
            }

            fn legacy(&self) -> i32 {
                legacy::$legacy::evaluate(self)
            }

            fn piece_square_counts(&self, out: &mut Vec<i32>) {
                $squares(self, out)
            }

            fn race_steps(&self, side: Side) -> i32 {
                super::$eval::$race(self, side)
            }

            #[inline]
            fn search_style(&self) -> SearchStyle {
                $style(self)
            }
        }
    };
}

/// The classic style for every size of a game.
#[inline]
fn classic_style<G>(_: &G) -> SearchStyle {
    SearchStyle::CLASSIC
}

/// Oska from 6 pieces a side up: captures by the history heuristic and null windows. In Oska a
/// capture is often a poor move (it shortens the opponent's race home), which the tuned
/// evaluator knows: with captures first, Oska 6's first move cut a node in 73.6 % of its cutoffs;
/// with both changes in 85.6 %, and depth-10 searches of 100 positions need a third fewer nodes
/// (docs/research/2026-11-24-strength.md). The smaller sizes keep the classic style (their games
/// stay as they were).
#[inline]
fn oska_style(pos: &Oska) -> SearchStyle {
    if pos.size() >= 6 {
        SearchStyle {
            captures_first: false,
            null_window: true,
        }
    } else {
        SearchStyle::CLASSIC
    }
}

evaluate_impl!(
    Oska,
    eval_oska,
    weights_oska,
    not_refined,
    oska,
    steps,
    super::patterns::score,
    no_piece_squares,
    oska_style
);
evaluate_impl!(
    Hexapawn,
    eval_hexapawn,
    weights_hexapawn,
    not_refined,
    hexapawn,
    closest,
    super::patterns::score,
    no_piece_squares,
    classic_style
);
evaluate_impl!(
    Ctf,
    eval_ctf,
    weights_ctf,
    ctf_refined,
    ctf,
    flag_to_go,
    super::eval_ctf::piece_square_term,
    super::eval_ctf::piece_square_counts,
    classic_style
);
