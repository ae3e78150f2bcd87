//! The one-shot commands. Each writes its whole answer to stdout only once it has succeeded, so
//! a bad argument leaves stdout empty.

use std::io::Write;

use anyhow::Result;
use engine::adapter::{BoardCall, InputMode, SeedFormat};
use engine::games::format::{Parsed, parse_board, print_board};
use engine::games::notation::move_name;
use engine::games::perft::{perft as count, perft_divide};
use engine::games::{Game, GameKind, MoveList, Side};
use engine::with_game;

/// Reads GAME, BOARD and SIDE.
fn read<G: Game>(board: &str, side: &str) -> Result<Parsed<G>> {
    let side = Side::parse(side)?;
    Ok(parse_board::<G>(board, side)?)
}

fn emit(out: String) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out.as_bytes())?;
    stdout.flush()?;
    Ok(())
}

/// `engine movegen GAME BOARD SIDE`.
pub fn movegen(game: &str, board: &str, side: &str) -> Result<()> {
    let kind = GameKind::parse(game)?;
    with_game!(kind, G => {
        let parsed = read::<G>(board, side)?;
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

/// `engine perft GAME BOARD SIDE DEPTH`.
pub fn perft(game: &str, board: &str, side: &str, depth: u32) -> Result<()> {
    let kind = GameKind::parse(game)?;
    with_game!(kind, G => {
        let mut parsed = read::<G>(board, side)?;
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

/// `engine board-call [--format F] [--depth N] [--input args|stdin] -- PROGRAM [ARGS...]`.
pub fn board_call(format: &str, depth: u32, input: &str, command: Vec<String>) -> Result<()> {
    let format = SeedFormat::parse(format).map_err(|e| anyhow::anyhow!("--format: {e}"))?;
    let input = match input {
        "args" => InputMode::Args,
        "stdin" => InputMode::Stdin,
        other => anyhow::bail!("--input '{other}': use args or stdin"),
    };
    let mut words = command.into_iter();
    let program = words
        .next()
        .ok_or_else(|| anyhow::anyhow!("board-call needs a PROGRAM after --"))?;
    let backend = BoardCall {
        program: program.into(),
        args: words.collect(),
        format,
        depth,
        input,
    };
    engine::session::run_stdio(backend)?;
    Ok(())
}
