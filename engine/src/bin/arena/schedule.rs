//! The arguments `arena match` and `arena class` share: the game and its size, and how the
//! games are scheduled (openings, games at once, the draw adjudication).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use boardgames_core::games::GameKind;
use boardgames_core::games::openings::random_openings;
use boardgames_core::games::setup::Setup;
use boardgames_core::with_game;
use boardgames_tools::arena::openings::read_openings;
use clap::Args;

/// `--game` and `--size`.
#[derive(Args, Debug)]
pub struct GameArgs {
    /// oska, hexapawn or ctf.
    #[arg(long, default_value = "oska")]
    pub game: String,
    /// Pieces a side (Oska) or board width (Hexapawn, ctf).
    #[arg(long, default_value_t = 4)]
    pub size: usize,
}

impl GameArgs {
    /// The game, checked with its size; errors name the option at fault.
    pub fn kind(&self) -> Result<GameKind> {
        let game = GameKind::parse(&self.game).context("--game")?;
        game.check_size(self.size).context("--size")?;
        Ok(game)
    }
}

/// The openings, the games played at once and the draw adjudication.
#[derive(Args, Debug)]
pub struct ScheduleArgs {
    /// Openings file: one position per line (startpos, or BOARD SIDE [history ...]).
    #[arg(long, conflicts_with = "random_plies")]
    pub openings: Option<PathBuf>,
    /// Openings of N random plies from the start (one per round).
    #[arg(long)]
    pub random_plies: Option<usize>,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Plies after which a game is adjudicated a draw (Capture the Flag has no draw of its own:
    /// raise this, to 10000 say, to play its long games to their end).
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
}

impl ScheduleArgs {
    /// The openings of `game` at `size`: those of `--openings`, else `rounds` openings of
    /// `--random-plies` plies (fewer when there are not so many), else the start.
    pub fn openings(&self, game: GameKind, size: usize, rounds: usize) -> Result<Vec<Setup>> {
        if let Some(path) = &self.openings {
            return openings_file(path, game, size);
        }
        if let Some(plies) = self.random_plies {
            let found = with_game!(game, G => random_openings::<G>(size, plies, rounds, self.seed));
            if found.is_empty() {
                bail!(
                    "--random-plies {plies}: no unfinished position of {} {size} is {plies} plies from the start",
                    game.name(),
                );
            }
            return Ok(found);
        }
        Ok(vec![Setup::StartPos])
    }
}

/// The openings of an `--openings` file, checked by the rules; errors name the file and line.
fn openings_file(path: &Path, game: GameKind, size: usize) -> Result<Vec<Setup>> {
    let bytes = std::fs::read(path)
        .with_context(|| format!("--openings: cannot read {}", path.display()))?;
    let text = boardgames_core::record::file_text(&bytes)
        .map_err(|e| anyhow::anyhow!("--openings {}: openings {e}", path.display()))?;
    with_game!(game, G => read_openings::<G>(text, size))
        .map_err(|e| anyhow::anyhow!("--openings {}: {e}", path.display()))
}
