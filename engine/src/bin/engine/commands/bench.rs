//! `engine bench`: fixed positions of every game searched to fixed depths.

use std::sync::atomic::AtomicBool;

use anyhow::Result;
use boardgames_core::eval::Evaluate;
use boardgames_core::games::{Game, GameKind, Side};
use boardgames_core::search::{Limits, Searcher};
use boardgames_core::with_game;

use super::common::read;
use crate::cli::emit;

/// Search fixed positions: the node count and the speed.
///
/// Search fixed positions of every game to fixed depths; the last line is `nodes N nps M`
/// (N is a signature of the search, checked against engine/bench.sig).
#[derive(clap::Args, Debug)]
pub struct Args {}

/// The bench positions: game, board, side, depth.
const BENCH: &[(GameKind, &str, Side, u32)] = &[
    (GameKind::Oska, "wwww/---/--/---/bbbb", Side::White, 10),
    (
        GameKind::Oska,
        "wwwww/----/---/--/---/----/bbbbb",
        Side::White,
        13,
    ),
    (
        GameKind::Oska,
        "wwwwww/-----/----/---/--/---/----/-----/bbbbbb",
        Side::White,
        10,
    ),
    (
        GameKind::Oska,
        "w-ww-/-w--/---/--/-b-/b---/b-b-b",
        Side::Black,
        12,
    ),
    (GameKind::Hexapawn, "wwww/----/----/bbbb", Side::White, 12),
    (
        GameKind::Hexapawn,
        "wwwww/-----/-----/-----/bbbbb",
        Side::White,
        10,
    ),
    (
        GameKind::Hexapawn,
        "wwwwww/------/------/------/------/bbbbbb",
        Side::White,
        8,
    ),
    (
        GameKind::Ctf,
        "-wWw-/-www-/-----/-bbb-/-bBb-",
        Side::White,
        7,
    ),
    (GameKind::Ctf, "wWw/---/bBb", Side::White, 14),
];

fn bench_one<G: Game + Evaluate>(board: &str, side: Side, depth: u32) -> Result<u64> {
    let parsed = read::<G>(board, side)?;
    let mut searcher = Searcher::<G>::new(16);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let result = searcher.search(&parsed.line, &limits, &AtomicBool::new(false), &mut |_| {});
    Ok(result.nodes)
}

/// Searches the positions and prints each one's node count, then the total and the speed.
pub fn run(_args: Args) -> Result<()> {
    let start = std::time::Instant::now();
    let mut total = 0u64;
    let mut out = String::new();
    for &(kind, board, side, depth) in BENCH {
        let nodes = with_game!(kind, G => bench_one::<G>(board, side, depth))?;
        out.push_str(&format!(
            "{kind} {board} {} depth {depth} nodes {nodes}\n",
            side.letter()
        ));
        total += nodes;
    }
    let us = start.elapsed().as_micros().max(1);
    out.push_str(&format!(
        "nodes {total} nps {}\n",
        total as u128 * 1_000_000 / us
    ));
    emit(out)
}
