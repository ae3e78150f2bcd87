//! One of the three games, chosen at run time: a line of any of them ([`AnyLine`]), and the one
//! way to run generic code on whichever it is ([`with_game!`](crate::with_game)).
//!
//! The rules and everything above them are generic over [`Game`]; what holds a game that the user
//! chooses (the engine session, the board-call adapter, the GUI) keeps an [`AnyLine`] and reaches
//! the generic code through the macro.

use super::{Ctf, GameKind, Hexapawn, Line, Oska};

/// A line of any of the three games.
#[derive(Clone, Debug)]
pub enum AnyLine {
    /// Oska.
    Oska(Line<Oska>),
    /// Hexapawn.
    Hexapawn(Line<Hexapawn>),
    /// Capture the Flag.
    Ctf(Line<Ctf>),
}

impl AnyLine {
    /// Which game the line is of.
    pub fn kind(&self) -> GameKind {
        match self {
            AnyLine::Oska(_) => GameKind::Oska,
            AnyLine::Hexapawn(_) => GameKind::Hexapawn,
            AnyLine::Ctf(_) => GameKind::Ctf,
        }
    }
}

impl From<Line<Oska>> for AnyLine {
    fn from(line: Line<Oska>) -> Self {
        AnyLine::Oska(line)
    }
}

impl From<Line<Hexapawn>> for AnyLine {
    fn from(line: Line<Hexapawn>) -> Self {
        AnyLine::Hexapawn(line)
    }
}

impl From<Line<Ctf>> for AnyLine {
    fn from(line: Line<Ctf>) -> Self {
        AnyLine::Ctf(line)
    }
}

/// Runs generic code on one of the three games chosen at run time, in either of two forms:
///
/// - `with_game!(kind, G => run::<G>(args))`: the body with `G` the position type of a
///   [`GameKind`](crate::games::GameKind);
/// - `with_game!(l in &any => l.len())`: the body with `l` the line inside an
///   [`AnyLine`](crate::games::AnyLine) (by value, `&` or `&mut`, as the `AnyLine` is given).
#[macro_export]
macro_rules! with_game {
    ($l:ident in $any:expr => $body:expr) => {
        match $any {
            $crate::games::AnyLine::Oska($l) => $body,
            $crate::games::AnyLine::Hexapawn($l) => $body,
            $crate::games::AnyLine::Ctf($l) => $body,
        }
    };
    ($kind:expr, $g:ident => $body:expr) => {
        match $kind {
            $crate::games::GameKind::Oska => {
                type $g = $crate::games::Oska;
                $body
            }
            $crate::games::GameKind::Hexapawn => {
                type $g = $crate::games::Hexapawn;
                $body
            }
            $crate::games::GameKind::Ctf => {
                type $g = $crate::games::Ctf;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Game, GameKind};

    fn kind_of<G: Game>(_: &Line<G>) -> GameKind {
        G::KIND
    }

    #[test]
    fn both_forms_reach_the_same_game() {
        for kind in GameKind::ALL {
            let line: AnyLine =
                crate::with_game!(kind, G => Line::new(G::start(4).unwrap()).into());
            assert_eq!(line.kind(), kind);
            let named = crate::with_game!(l in &line => kind_of(l));
            assert_eq!(named, kind);
        }
    }
}
