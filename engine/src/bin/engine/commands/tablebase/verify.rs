//! `engine tablebase verify GAME SIZE [--dir DIR]`: reads every table whole, checks checksums,
//! and names the tables missing from the set.

use anyhow::{Result, bail};
use boardgames_core::tablebase::Tablebase;
use boardgames_core::tablebase::file::file_name;

use super::{DirArg, GameSize, dir_of};
use crate::cli::emit;
use crate::commands::common::existing_dir;

/// Check every table of GAME at SIZE: its file, header and checksum, and that none is missing.
///
/// Check every table of GAME at SIZE as probing does: a regular file, its header, name and
/// length, and the checksum of all its values; and that the set is whole: every material up to
/// the most pieces a side of a table present (a build up to K pieces a side writes them all).
/// A set with a table missing is not sound: each missing one is named.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    game: GameSize,
    #[command(flatten)]
    dir: DirArg,
}

/// Prints how many tables were checked, or fails naming the first that is unsound, or every
/// table missing.
pub fn run(args: Args) -> Result<()> {
    let Args { game, dir } = args;
    let dir = &dir_of(dir.dir);
    let (kind, size) = game.checked()?;
    existing_dir(dir.to_path_buf(), "the tablebase directory")?;
    let found = Tablebase::verify(dir, kind, size)?;
    let (n, k) = (found.present.len(), found.max_pieces);
    if n == 0 {
        bail!("no {kind} {size} tables in {}", dir.display());
    }
    if !found.missing.is_empty() {
        let names: Vec<String> = found
            .missing
            .iter()
            .map(|&(w, b)| file_name(kind.kind(), size, w, b))
            .collect();
        bail!(
            "{kind} {size} in {} is incomplete, not sound: {} of the {} tables up to {k} pieces a side missing: {} (the {n} present are sound; build the missing ones with `engine tablebase build {kind} {size} --max-pieces {k} --dir {}`)",
            dir.display(),
            names.len(),
            k * k,
            names.join(", "),
            dir.display()
        );
    }
    emit(format!(
        "{n} tables of {kind} {size} in {} are sound, every material up to {k} pieces a side\n",
        dir.display()
    ))
}
