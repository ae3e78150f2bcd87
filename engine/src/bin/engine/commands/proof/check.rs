//! `engine proof check FILE [--tablebase DIR]`.

use std::path::PathBuf;

use anyhow::{Context, Result, anyhow};
use boardgames_core::certificate::{Certificate, CertificateError, check};
use boardgames_core::tablebase::{TableGame, Tablebase, memory_limit};
use boardgames_core::with_table_game;

use crate::cli::emit;
use crate::commands::common::existing_dir;

/// Verify a proof certificate with the rules and the tables only.
///
/// Verify a proof certificate (written by `engine solve --proof --certificate FILE`) with the
/// rules and, for its table leaves, the tables of --tablebase DIR: every move played from the
/// root is legal, at the prover's turns one move, at the other side's every reply, every leaf's
/// value is the rules' or the tables' and reaches the claim. Prints `certificate FILE: valid:
/// VALUE (N nodes, L leaves)`; a refused certificate is one line on stderr naming the claim, the
/// node, its line and the moves from the root, and exit status 1.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The certificate file.
    file: PathBuf,
    /// The tables to check the table leaves against (needed when the certificate has any).
    #[arg(long, value_name = "DIR")]
    tablebase: Option<PathBuf>,
}

/// Reads, checks and answers.
pub fn run(args: Args) -> Result<()> {
    let Args { file, tablebase } = args;
    let name = file.display().to_string();
    let text = std::fs::read(&file).with_context(|| format!("cannot read {name}"))?;
    let text = String::from_utf8(text)
        .map_err(|_| anyhow!("certificate {name} refused: it is not UTF-8 text"))?;
    let cert = Certificate::parse(&text).map_err(|e| anyhow!("certificate {name} refused: {e}"))?;
    let tables = match tablebase {
        None => None,
        Some(dir) => {
            let dir = existing_dir(dir, "--tablebase")?;
            let game =
                TableGame::of(cert.game).map_err(|e| anyhow!("certificate {name} refused: {e}"))?;
            let limit = memory_limit()?;
            let tb = with_table_game!(game, G => Tablebase::open::<G>(&dir, cert.size, limit))?;
            Some(tb)
        }
    };
    let checked = check(&cert, tables.as_ref()).map_err(|e| match e {
        CertificateError::NeedsTables { place } => anyhow!(
            "certificate {name} refused: {place}: a table leaf, and checking it needs the \
             tables: give them with --tablebase DIR"
        ),
        e => anyhow!("certificate {name} refused: {e}"),
    })?;
    let tables = if checked.table_leaves > 0 {
        format!(", {} of them table leaves", checked.table_leaves)
    } else {
        String::new()
    };
    emit(format!(
        "certificate {name}: valid: {} ({} nodes, {} leaves{tables})\n",
        checked.claimed, checked.nodes, checked.leaves
    ))
}
