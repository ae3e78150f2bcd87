//! `engine tablebase probe GAME BOARD SIDE [--dir DIR]`: every move with its value, best first,
//! then the position's value.

use std::path::Path;

use anyhow::{Result, bail};
use boardgames_core::games::notation::move_name;
use boardgames_core::games::{GameKind, Side};
use boardgames_core::tablebase::{Retro, TableGame, Tablebase};
use boardgames_core::with_table_game;

use super::{DirArg, dir_of};
use crate::cli::{emit, game_kind};
use crate::commands::common::{existing_dir, read, side_letter};

/// Print each move of a position with its exact value, then the position's value.
///
/// Print every legal move of the position with its exact value for SIDE, best first, then
/// the position's value (`win K`, `loss K` or `draw`) as the last line.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// oska or hexapawn.
    #[arg(value_parser = game_kind)]
    game: GameKind,
    /// The board, in any seed format.
    #[arg(allow_hyphen_values = true)]
    board: String,
    /// The side to move: w or b.
    #[arg(value_parser = side_letter)]
    side: Side,
    #[command(flatten)]
    dir: DirArg,
}

/// Prints the moves and the value from the tables, which must cover the position.
pub fn run(args: Args) -> Result<()> {
    let Args {
        game,
        board,
        side,
        dir,
    } = args;
    let dir = &dir_of(dir.dir);
    let kind = TableGame::of(game)?;
    existing_dir(dir.to_path_buf(), "the tablebase directory")?;
    with_table_game!(kind, G => probe_game::<G>(&board, side, dir))
}

fn probe_game<G: Retro>(board: &str, side: Side, dir: &Path) -> Result<()> {
    let parsed = read::<G>(board, side)?;
    let pos = *parsed.line.current();
    let tb = open::<G>(dir, pos.size())?;
    // A table damaged since it was checked at open is an error naming it, never a value.
    let (Some(value), Some(moves)) = (tb.try_probe(&pos)?, tb.try_probe_moves(&pos)?) else {
        bail!(
            "no table in {} covers this position ({} White and {} Black pieces)",
            dir.display(),
            pos.piece_count(Side::White),
            pos.piece_count(Side::Black)
        );
    };
    let mut out = String::new();
    for (mv, score) in moves {
        out.push_str(&format!("{} {score}\n", move_name(&pos, mv)));
    }
    out.push_str(&format!("{value}\n"));
    emit(out)
}

/// Opens the tables of `G` at the board's size in `dir`, with a message when there are none.
fn open<G: Retro>(dir: &Path, size: usize) -> Result<Tablebase> {
    // Errors name the file or directory at fault.
    let tb = Tablebase::open::<G>(dir, size, 0)?;
    if tb.materials().is_empty() {
        bail!(
            "no {} {size} tables in {} (build them with: engine tablebase build {} {size} --dir {})",
            G::KIND,
            dir.display(),
            G::KIND,
            dir.display()
        );
    }
    Ok(tb)
}
