//! `engine tablebase build | plan | probe | verify`: the exact tables of Oska and Hexapawn.

mod build;
mod plan;
mod probe;
mod verify;

use std::path::PathBuf;

use anyhow::Result;
use boardgames_core::games::GameKind;
use boardgames_core::tablebase::TableGame;

use super::common::{DEFAULT_DIR, env_dir};
use crate::cli::{board_size, game_kind};

crate::cli::subcommands! {
    /// Build, plan, probe and verify the exact tables of Oska and Hexapawn.
    ///
    /// Exact tables of Oska and Hexapawn (every position, or every position with at most K
    /// pieces a side), built by retrograde analysis: `build`, `plan` (the build as jobs for a
    /// cluster scheduler), `probe`, `verify`. The directory is
    /// --dir, else $TABLEBASE_PATH, else ./tablebases.
    pub struct Args;
    /// What `engine tablebase` does.
    enum Action {
        Build(build),
        Plan(plan),
        Probe(probe),
        Verify(verify),
    }
}

/// `--dir DIR` of `probe` and `verify`: the tables to read.
#[derive(clap::Args, Debug)]
struct DirArg {
    /// The directory of the table files.
    #[arg(long)]
    dir: Option<PathBuf>,
}

/// The directory to use: `--dir`, else `$TABLEBASE_PATH` (when set and not empty), else
/// `./tablebases`.
fn dir_of(dir: Option<PathBuf>) -> PathBuf {
    dir.or_else(|| env_dir().map(|(dir, _)| dir))
        .unwrap_or_else(|| PathBuf::from(DEFAULT_DIR))
}

/// `GAME SIZE` of `build`, `plan` and `verify`: a game with tables and one of its sizes.
#[derive(clap::Args, Debug)]
struct GameSize {
    /// oska or hexapawn.
    #[arg(value_parser = game_kind)]
    game: GameKind,
    /// The size (pieces a side for Oska, board width for Hexapawn).
    #[arg(allow_hyphen_values = true, value_parser = board_size)]
    size: usize,
}

impl GameSize {
    /// The game and size, checked: a game with tables, a size the game has.
    fn checked(&self) -> Result<(TableGame, usize)> {
        let game = TableGame::of(self.game)?;
        game.kind().check_size(self.size)?;
        Ok((game, self.size))
    }
}
