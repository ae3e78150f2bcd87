//! Long Capture the Flag games: the repetition rule against a plain scan of the history, a search
//! and `show` after 100 000 plies of history (through a real session in memory).

use crate::common;

use std::io::{self, Cursor, Write};
use std::sync::{Arc, Mutex};

use boardgames_core::games::{Ctf, Game, Line, MoveList};
use boardgames_core::protocol::MAX_LINE;
use boardgames_tools::session::{SearchBackend, run};
use common::{Rng, legal, long_ctf_game, random_line};

/// Whether `pos`'s board is the current board or an earlier one: the rule read literally.
fn seen_naive(line: &Line<Ctf>, pos: &Ctf) -> bool {
    line.current().same_board(pos) || line.earlier().iter().any(|b| b.same_board(pos))
}

#[test]
fn repetition_checks_agree_with_a_scan_of_the_history() {
    let mut rng = Rng::new(11);
    for game in 0..300 {
        let size = [3, 4, 5, 6, 7][game % 5];
        let mut line = random_line::<Ctf>(&mut rng, size, 200);
        let base = line.len();
        // A random walk of pushes and pops below the game's line, as a search makes.
        for _ in 0..200 {
            let pos = *line.current();
            let mut pseudo = MoveList::new();
            if pos.board_outcome().is_none() {
                pos.generate(&mut pseudo);
            }
            for &m in pseudo.as_slice() {
                let next = pos.play(m);
                assert_eq!(
                    line.seen(&next),
                    seen_naive(&line, &next),
                    "game {game}, size {size}, after {} plies",
                    line.len()
                );
            }
            let moves = legal(&line);
            let naive: Vec<_> = pseudo
                .as_slice()
                .iter()
                .copied()
                .filter(|&m| !seen_naive(&line, &pos.play(m)))
                .collect();
            assert_eq!(moves.as_slice(), naive.as_slice(), "game {game}");
            if line.len() > base && (moves.is_empty() || rng.below(3) == 0) {
                line.pop();
            } else if !moves.is_empty() {
                line.push(moves.as_slice()[rng.below(moves.len())]);
            }
        }
    }
}

/// Output collected in memory.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Runs a whole session on `input`; returns its output lines.
fn session(input: String) -> Vec<String> {
    let sink = Sink::default();
    run(
        Cursor::new(input.into_bytes()),
        sink.clone(),
        SearchBackend::default(),
    );
    let bytes = sink.0.lock().unwrap().clone();
    String::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// A random game of Capture the Flag 11 of 100000 plies (see [`long_ctf_game`], from `seed`),
/// and the output of a session that is sent it as a `position` and then `commands`.
fn after_a_long_game(seed: u64, commands: &str) -> (Line<Ctf>, Vec<String>) {
    let (line, moves) = long_ctf_game(11, 100_000, seed);
    let out = session(format!(
        "newgame ctf 11\nposition startpos moves {}\n{commands}",
        moves.join(" ")
    ));
    (line, out)
}

#[test]
fn a_search_after_100000_plies_of_history_works() {
    let (line, out) = after_a_long_game(7, "go depth 4\n");
    assert!(!out.iter().any(|l| l.starts_with("error")), "{out:?}");
    let best = out.last().unwrap().strip_prefix("bestmove ").unwrap();
    let legal: Vec<String> = legal(&line)
        .as_slice()
        .iter()
        .map(|&m| boardgames_core::games::notation::move_name(line.current(), m))
        .collect();
    assert!(legal.iter().any(|m| m == best), "{best} not in {legal:?}");
    assert!(
        out.iter().any(|l| l.starts_with("info depth 4 ")),
        "{out:?}"
    );
}

#[test]
fn show_of_a_100000_ply_game_fits_a_line_and_restores_it() {
    let (_, out) = after_a_long_game(3, "show\nlegal\n");
    assert_eq!(out.len(), 3, "{:?}", &out[..out.len().min(3)]);
    let shown = out[0].clone();
    assert!(shown.len() <= MAX_LINE, "show is {} bytes", shown.len());
    assert_eq!(out[1], "result none");
    // What show printed, sent back as a command, gives the same state.
    let (_, from) = shown
        .split_once(" from ")
        .expect("show names the line's start");
    assert!(from.starts_with("startpos moves "), "{}", &from[..40]);
    let restore = format!("position {from}");
    assert!(
        restore.len() <= MAX_LINE,
        "the restoring command is {} bytes",
        restore.len()
    );
    let again = session(format!("newgame ctf 11\n{restore}\nshow\nlegal\n"));
    assert_eq!(again, out);
}
