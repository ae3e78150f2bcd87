//! `engine perft GAME BOARD SIDE DEPTH`.

use anyhow::Result;
use boardgames_core::games::notation::move_name;
use boardgames_core::games::perft::{perft as count, perft_divide};
use boardgames_core::with_game;

use super::common::PositionDepth;
use crate::cli::{digits, emit};

/// Count the move sequences of exactly DEPTH plies.
///
/// Count move sequences of exactly DEPTH plies: one line `MOVE COUNT` per legal move, then
/// `nodes TOTAL`.
#[derive(clap::Args, Debug)]
#[command(mut_arg("depth", |a| a
    .help("Plies to count, 0 to 30 (a forced pass counts as a ply)")
    .value_parser(|t: &str| digits(t, 0u32, 30))))]
pub struct Args {
    #[command(flatten)]
    at: PositionDepth,
}

/// Prints the count below each move, then the total.
pub fn run(args: Args) -> Result<()> {
    let depth = args.at.depth;
    let kind = args.at.position.game;
    with_game!(kind, G => {
        let mut parsed = args.at.position.read::<G>()?;
        let pos = *parsed.line.current();
        let divide = perft_divide(&mut parsed.line, depth);
        let total = if depth == 0 { count(&mut parsed.line, 0) } else { divide.iter().map(|d| d.1).sum() };
        let mut out = String::new();
        for (m, n) in divide {
            out.push_str(&format!("{} {n}\n", move_name(&pos, m)));
        }
        out.push_str(&format!("nodes {total}\n"));
        emit(out)
    })
}
