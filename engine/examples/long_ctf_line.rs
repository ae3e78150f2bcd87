//! Prints a legal Capture the Flag line of 10 000 moves from the 11 x 11 start (the fixture
//! `src/session/testdata/ctf11_10000_moves.txt`): a seeded random walk that avoids captures and
//! game ends, and prefers sideways and flag moves so that the pawns do not run out of moves.

use boardgames_core::games::notation::move_name;
use boardgames_core::games::{Ctf, Game, Line, MoveList};

fn main() {
    let mut line = Line::new(Ctf::start(11).expect("11 is supported"));
    let mut seed: u64 = 12345;
    let mut names = Vec::new();
    while names.len() < 10_000 {
        let mut moves = MoveList::new();
        line.legal_moves(&mut moves);
        let pos = *line.current();
        let quiet: Vec<_> = moves
            .as_slice()
            .iter()
            .copied()
            .filter(|&m| {
                let mut next = line.clone();
                next.push(m);
                !pos.is_capture(m) && next.outcome().is_none()
            })
            .collect();
        let layout = pos.layout();
        let sideways: Vec<_> = quiet
            .iter()
            .copied()
            .filter(|m| {
                layout.coords(m.from as usize).0 == layout.coords(m.to as usize).0
                    || pos.piece_at(m.from as usize).is_some_and(|p| p.is_flag())
            })
            .collect();
        let pool = if sideways.is_empty() { quiet } else { sideways };
        if pool.is_empty() {
            eprintln!("stuck after {} moves", names.len());
            std::process::exit(1);
        }
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let m = pool[(seed >> 33) as usize % pool.len()];
        names.push(move_name(&pos, m));
        line.push(m);
    }
    println!("{}", names.join(" "));
}
