//! `engine tablebase verify GAME SIZE [--dir DIR]`: reads every table whole, checks checksums.

use anyhow::{Result, bail};
use engine::tablebase::Tablebase;

use super::{DirArg, dir_of, table_game};
use crate::cli::{board_size, emit, game_name};
use crate::commands::common::existing_dir;

/// Check every table of GAME at SIZE: its file, header and checksum.
///
/// Check every table of GAME at SIZE as probing does: a regular file, its header, name and
/// length, and the checksum of all its values.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// oska or hexapawn.
    #[arg(value_parser = game_name)]
    game: String,
    /// The size.
    #[arg(allow_hyphen_values = true, value_parser = board_size)]
    size: usize,
    #[command(flatten)]
    dir: DirArg,
}

/// Prints how many tables were checked, or fails naming the first that is unsound.
pub fn run(args: Args) -> Result<()> {
    let Args { game, size, dir } = args;
    let dir = &dir_of(dir.dir);
    let kind = table_game(&game)?;
    kind.check_size(size)?;
    existing_dir(dir.to_path_buf(), "the tablebase directory")?;
    let n = Tablebase::verify(dir, kind, size)?;
    if n == 0 {
        bail!("no {kind} {size} tables in {}", dir.display());
    }
    emit(format!(
        "{n} tables of {kind} {size} in {} are sound\n",
        dir.display()
    ))
}
