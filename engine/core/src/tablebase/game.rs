//! The games that have tablebases, as a type of their own: code that needs tables takes a
//! [`TableGame`], so no default arm can choose the wrong game, and Capture the Flag is refused
//! once, where a [`GameKind`] becomes a [`TableGame`].

use std::fmt;
use std::str::FromStr;

use super::TablebaseError;
use crate::games::GameKind;

/// A game with tablebases: Oska or Hexapawn. (Capture the Flag has none: its no-repetition rule
/// makes a position's value depend on the boards before it.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableGame {
    /// Oska.
    Oska,
    /// Hexapawn.
    Hexapawn,
}

impl TableGame {
    /// Both games with tables.
    pub const ALL: [TableGame; 2] = [TableGame::Oska, TableGame::Hexapawn];

    /// The game's kind.
    pub const fn kind(self) -> GameKind {
        match self {
            TableGame::Oska => GameKind::Oska,
            TableGame::Hexapawn => GameKind::Hexapawn,
        }
    }

    /// The game with tables of `kind`; Capture the Flag is an error that says why it has none.
    pub fn of(kind: GameKind) -> Result<TableGame, TablebaseError> {
        match kind {
            GameKind::Oska => Ok(TableGame::Oska),
            GameKind::Hexapawn => Ok(TableGame::Hexapawn),
            GameKind::Ctf => Err(TablebaseError::Unsupported(format!(
                "{kind} has no tablebases: its no-repetition rule makes a position's value \
                 depend on the history (oska and hexapawn only)"
            ))),
        }
    }
}

impl TryFrom<GameKind> for TableGame {
    type Error = TablebaseError;

    fn try_from(kind: GameKind) -> Result<TableGame, TablebaseError> {
        TableGame::of(kind)
    }
}

impl From<TableGame> for GameKind {
    fn from(game: TableGame) -> GameKind {
        game.kind()
    }
}

impl FromStr for TableGame {
    type Err = TablebaseError;

    /// A game's name as [`GameKind::parse`] reads it, refusing Capture the Flag.
    fn from_str(text: &str) -> Result<TableGame, TablebaseError> {
        let kind = GameKind::parse(text).map_err(|e| TablebaseError::Unsupported(e.to_string()))?;
        TableGame::of(kind)
    }
}

impl fmt::Display for TableGame {
    /// The game's name (`oska`, `hexapawn`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind().fmt(f)
    }
}

/// Runs `$body` with the type `$G` standing for the game of a [`TableGame`]: the one place that
/// turns a table game chosen at run time into its type (as `with_game!` does for the three games).
///
/// ```
/// use boardgames_core::tablebase::TableGame;
/// use boardgames_core::games::Game;
/// let rows = boardgames_core::with_table_game!(TableGame::Oska, G => G::KIND.name());
/// assert_eq!(rows, "oska");
/// ```
#[macro_export]
macro_rules! with_table_game {
    ($game:expr, $G:ident => $body:expr) => {
        match $game {
            $crate::tablebase::TableGame::Oska => {
                type $G = $crate::games::Oska;
                $body
            }
            $crate::tablebase::TableGame::Hexapawn => {
                type $G = $crate::games::Hexapawn;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;

    #[test]
    fn each_table_game_is_its_kind_and_ctf_is_refused() {
        for game in TableGame::ALL {
            assert_eq!(TableGame::of(game.kind()).unwrap(), game);
            assert_eq!(game.to_string().parse::<TableGame>().unwrap(), game);
            assert_eq!(with_table_game!(game, G => G::KIND), game.kind());
        }
        let err = TableGame::of(GameKind::Ctf).unwrap_err().to_string();
        assert!(err.contains("ctf has no tablebases"), "{err}");
        assert!("chess".parse::<TableGame>().is_err());
    }
}
