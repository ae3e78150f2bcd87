//! `engine movegen GAME BOARD SIDE`.

use anyhow::Result;
use boardgames_core::games::format::print_board;
use boardgames_core::games::{Game, MoveList};
use boardgames_core::with_game;

use super::common::Position;
use crate::cli::emit;

/// Print every board SIDE can reach in one move.
///
/// Print every board reachable in one move by SIDE, one per line, in the input's format (no
/// line at all when SIDE has no move, as in Oska's pass).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    position: Position,
}

/// Prints the boards, or nothing when SIDE must pass.
pub fn run(args: Args) -> Result<()> {
    let kind = args.position.game;
    with_game!(kind, G => {
        let parsed = args.position.read::<G>()?;
        let mut moves = MoveList::new();
        parsed.line.legal_moves(&mut moves);
        let pos = parsed.line.current();
        let mut out = String::new();
        for &m in moves.as_slice().iter().filter(|m| !m.is_pass()) {
            out.push_str(&print_board(&pos.play(m), &parsed.format));
            out.push('\n');
        }
        emit(out)
    })
}
