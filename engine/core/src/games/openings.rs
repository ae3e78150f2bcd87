//! Random openings: positions a few random legal plies from the start, so that games between
//! the same players differ. The match runner plays each twice (once with each side as White);
//! the tuning commands play games from them. A rules-level utility: it needs only the rules and
//! the crate's one deterministic generator ([`SplitMix64`]), so a seed gives the same openings
//! on every machine.

use crate::games::setup::Setup;
use crate::games::{Game, Line, MoveList};
use crate::splitmix::SplitMix64;

/// `count` openings of `plies` random legal plies from the start, none of them finished and no
/// two alike (fewer when the game has fewer such positions; tries are bounded).
pub fn random_openings<G: Game>(size: usize, plies: usize, count: usize, seed: u64) -> Vec<Setup> {
    let Ok(start) = G::start(size) else {
        return Vec::new();
    };
    if plies == 0 {
        return vec![Setup::StartPos];
    }
    let mut rng = SplitMix64::new(seed);
    let mut found: Vec<Setup> = Vec::new();
    let mut moves = MoveList::new();
    for _ in 0..count * 50 {
        if found.len() == count {
            break;
        }
        let mut line = Line::new(start);
        for _ in 0..plies {
            line.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            line.push(moves.as_slice()[rng.below(moves.len())]);
        }
        if line.len() == plies && line.outcome().is_none() {
            let s = Setup::of(&line);
            if !found.contains(&s) {
                found.push(s);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Ctf, Oska, Side};

    #[test]
    fn random_openings_are_distinct_legal_and_reproducible() {
        let a = random_openings::<Oska>(4, 4, 10, 7);
        assert_eq!(a.len(), 10);
        assert_eq!(a, random_openings::<Oska>(4, 4, 10, 7));
        for s in &a {
            let line = s.line::<Oska>(4).unwrap();
            assert!(line.outcome().is_none());
            assert_eq!(line.current().side_to_move(), Side::White);
        }
        let c = random_openings::<Ctf>(5, 3, 5, 1);
        assert_eq!(c.len(), 5);
        for s in &c {
            assert_eq!(s.line::<Ctf>(5).unwrap().len(), 3, "history kept: {s}");
        }
    }
}
