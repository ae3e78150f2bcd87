//! Who played a game: each side's player when the game started (or when that side first moved),
//! and each change of player during the game, kept as [`PLAYER_TAG`] tags of its record.

use boardgames_core::games::Side;
use boardgames_core::record::GameRecord;

use super::side_name;

/// The record tag of a change of player: `[Player "PLY SIDE NAME"]`, such as
/// `[Player "12 Black crasher"]`: from the move after `PLY` moves on, `NAME` plays `SIDE`. The
/// record readers keep tags they do not know, so such a record is read everywhere.
pub const PLAYER_TAG: &str = "Player";

/// One change of player: from the move after `ply` moves, `name` plays `side`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The number of moves played before the new player's first.
    pub ply: usize,
    /// The side whose player changed.
    pub side: Side,
    /// The new player's name.
    pub name: String,
}

/// Who played the game on the table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Players {
    /// Each side's player at the start (`None`: not known yet; the player of the set-up then).
    start: [Option<String>; 2],
    /// The changes of player, in the order of the game.
    changes: Vec<Change>,
}

impl Players {
    /// The players of a record: its `White` and `Black`, and its [`PLAYER_TAG`] tags.
    pub fn from_record(record: &GameRecord) -> Players {
        let changes = record
            .tags
            .iter()
            .filter(|(k, _)| k == PLAYER_TAG)
            .filter_map(|(_, v)| parse_change(v))
            .collect();
        Players {
            start: [Some(record.white.clone()), Some(record.black.clone())],
            changes,
        }
    }

    /// The player of `side` after `ply` moves (`None`: not known yet).
    fn at(&self, side: Side, ply: usize) -> Option<&str> {
        self.changes
            .iter()
            .rev()
            .find(|c| c.side == side && c.ply <= ply)
            .map(|c| c.name.as_str())
            .or(self.start[side.index()].as_deref())
    }

    /// Notes that `name` made the move after `ply` moves for `side`: the start's player when
    /// the side had none yet, else a change when another player made that side's last move.
    /// Changes at or after `ply` (of a line taken back) are forgotten first.
    pub fn moved(&mut self, ply: usize, side: Side, name: &str) {
        self.changes.retain(|c| c.ply < ply);
        match self.at(side, ply) {
            None => self.start[side.index()] = Some(name.to_string()),
            Some(last) if last == name => {}
            Some(_) => self.changes.push(Change {
                ply,
                side,
                name: name.to_string(),
            }),
        }
    }

    /// The names a record gives White and Black: the players at the start, else those of the
    /// set-up now (`now`) for a side that has not moved.
    pub fn names(&self, now: &[String; 2]) -> [String; 2] {
        [0, 1].map(|i| self.start[i].clone().unwrap_or_else(|| now[i].clone()))
    }

    /// The [`PLAYER_TAG`] tags of the changes within the first `len` moves.
    pub fn tags(&self, len: usize) -> Vec<(String, String)> {
        self.changes
            .iter()
            .filter(|c| c.ply < len)
            .map(|c| {
                let value = format!("{} {} {}", c.ply, side_name(c.side), c.name);
                (PLAYER_TAG.to_string(), value)
            })
            .collect()
    }

    /// The changes of player, in the order of the game.
    pub fn changes(&self) -> &[Change] {
        &self.changes
    }
}

/// Reads a [`PLAYER_TAG`] value, `PLY SIDE NAME`.
fn parse_change(value: &str) -> Option<Change> {
    let mut words = value.splitn(3, ' ');
    let ply = words.next()?.parse().ok()?;
    let side = match words.next()? {
        "White" => Side::White,
        "Black" => Side::Black,
        _ => return None,
    };
    let name = words.next()?.to_string();
    Some(Change { ply, side, name })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_players_are_those_who_moved_and_a_change_is_a_tag_read_back() {
        let now = ["engine (ours)".to_string(), "crasher".to_string()];
        let mut p = Players::default();
        assert_eq!(p.names(&now), now, "nobody moved: the set-up's");
        p.moved(0, Side::White, "human");
        p.moved(1, Side::Black, "material");
        p.moved(2, Side::White, "human");
        p.moved(3, Side::Black, "crasher");
        assert_eq!(p.names(&now), ["human", "material"]);
        let tags = p.tags(4);
        assert_eq!(
            tags,
            [(PLAYER_TAG.to_string(), "3 Black crasher".to_string())]
        );
        assert!(p.tags(3).is_empty(), "a change after the line's end");
        // Taken back and played again by the first player: no change left.
        p.moved(3, Side::Black, "material");
        assert!(p.changes().is_empty());
        let mut record = crate::game::GameState::new(boardgames_core::games::GameKind::Hexapawn, 3)
            .expect("a game")
            .record("human", "material");
        record.tags = tags;
        let read = Players::from_record(&record);
        assert_eq!(read.names(&now), ["human", "material"]);
        assert_eq!(read.changes()[0].name, "crasher");
    }
}
