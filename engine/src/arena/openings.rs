//! Openings for matches: the start position, positions read from a file, or random plies from
//! the start. Each opening is played twice, once with each engine as White.

use crate::games::setup::Setup;
use crate::games::{Game, Line, MoveList};
use crate::record::start_line;

/// The generator of random openings (SplitMix64), so that a seed gives the same openings on
/// every machine.
pub use crate::splitmix::SplitMix64 as Rng;

/// `count` openings of `plies` random legal plies from the start, none of them finished and no
/// two alike (fewer when the game has fewer such positions; tries are bounded).
pub fn random_openings<G: Game>(size: usize, plies: usize, count: usize, seed: u64) -> Vec<Setup> {
    let Ok(start) = G::start(size) else {
        return Vec::new();
    };
    if plies == 0 {
        return vec![Setup::StartPos];
    }
    let mut rng = Rng::new(seed);
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

/// Reads an openings file: one position per line, as the protocol's `position` takes it without
/// the word `position` (`startpos`, `board BOARD SIDE [history ...]`, or just `BOARD SIDE
/// [history ...]`); blank lines and `#` comments are skipped. Each is checked by the rules.
pub fn read_openings<G: Game>(text: &str, size: usize) -> Result<Vec<Setup>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let spec = if line.starts_with("startpos") || line.starts_with("board ") {
            line.to_string()
        } else {
            format!("board {line}")
        };
        let start = Setup::parse(&spec).map_err(|e| format!("openings line {}: {e}", i + 1))?;
        let l =
            start_line::<G>(&start, size).map_err(|e| format!("openings line {}: {e}", i + 1))?;
        if let Some(o) = l.outcome() {
            return Err(format!(
                "openings line {}: the game is already over ({o})",
                i + 1
            ));
        }
        out.push(start);
    }
    if out.is_empty() {
        return Err("the openings file holds no position".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Ctf, Oska};

    #[test]
    fn random_openings_are_distinct_legal_and_reproducible() {
        let a = random_openings::<Oska>(4, 4, 10, 7);
        assert_eq!(a.len(), 10);
        assert_eq!(a, random_openings::<Oska>(4, 4, 10, 7));
        for s in &a {
            let line = s.line::<Oska>(4).unwrap();
            assert!(line.outcome().is_none());
            assert_eq!(line.current().side_to_move(), crate::games::Side::White);
        }
        let c = random_openings::<Ctf>(5, 3, 5, 1);
        assert_eq!(c.len(), 5);
        for s in &c {
            assert_eq!(s.line::<Ctf>(5).unwrap().len(), 3, "history kept: {s}");
        }
    }

    #[test]
    fn openings_file_is_checked() {
        let ok = read_openings::<Oska>("# comment\nstartpos\nwwww/---/--/---/bbbb b\n", 4).unwrap();
        assert_eq!(ok.len(), 2);
        let e = read_openings::<Oska>("\nwwww/---/--/---/bbbx w\n", 4).unwrap_err();
        assert!(
            e.starts_with("openings line 2: 'wwww/---/--/---/bbbx' is not a board"),
            "{e}"
        );
        let e = read_openings::<Oska>("wwww/---/--/---/bbb w\n", 4).unwrap_err();
        assert!(e.starts_with("openings line 1: row 5 has 3 squares"), "{e}");
        let e = read_openings::<Oska>("wwww/---/--/---/---- w", 4).unwrap_err();
        assert!(e.contains("already over"), "{e}");
    }
}
