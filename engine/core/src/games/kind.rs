//! The three games by name, and their size ranges.

use std::fmt;

use super::PositionError;

/// The three games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Oska: n pieces a side on 2n-3 rows.
    Oska,
    /// Hexapawn: n pawns a side on an n x n board.
    Hexapawn,
    /// Capture the Flag: N x N board with a flag a side and no repeated board.
    Ctf,
}

impl GameKind {
    /// Every game, in a fixed order.
    pub const ALL: [GameKind; 3] = [GameKind::Oska, GameKind::Hexapawn, GameKind::Ctf];

    /// The name used on the command line and in the protocol.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Oska => "oska",
            GameKind::Hexapawn => "hexapawn",
            GameKind::Ctf => "ctf",
        }
    }

    /// The supported sizes (pieces a side for Oska, board width otherwise), inclusive.
    pub const fn size_range(self) -> (usize, usize) {
        match self {
            GameKind::Oska => (4, 11),
            GameKind::Hexapawn | GameKind::Ctf => (3, 11),
        }
    }

    /// Parses a game name (`oska`, `hexapawn`, `ctf`; `capture` is accepted for `ctf`).
    pub fn parse(text: &str) -> Result<GameKind, PositionError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "oska" => Ok(GameKind::Oska),
            "hexapawn" => Ok(GameKind::Hexapawn),
            "ctf" | "capture" | "capture-the-flag" => Ok(GameKind::Ctf),
            _ => Err(PositionError::UnknownGame(text.trim().to_string())),
        }
    }

    /// Checks a size against [`GameKind::size_range`].
    pub fn check_size(self, size: usize) -> Result<(), PositionError> {
        let (lo, hi) = self.size_range();
        if (lo..=hi).contains(&size) {
            Ok(())
        } else {
            Err(PositionError::UnsupportedSize { game: self, size })
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
