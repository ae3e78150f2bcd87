//! The openings file of a match (`arena --openings FILE`): positions read from a file and
//! checked by the rules. Each opening is played twice, once with each engine as White; random
//! openings come from [`boardgames_core::games::openings`].

use boardgames_core::games::Game;
use boardgames_core::games::setup::Setup;
use boardgames_core::record::start_line;
use thiserror::Error;

/// Why an openings file is refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OpeningsError {
    /// A line that is not a position the rules accept, or one where the game is over.
    #[error("openings line {line}: {why}")]
    Line {
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        why: String,
    },
    /// No position in the file.
    #[error("the openings file holds no position")]
    Empty,
}

/// Reads an openings file: one position per line, as the protocol's `position` takes it without
/// the word `position` (`startpos`, `board BOARD SIDE [history ...]`, or just `BOARD SIDE
/// [history ...]`); blank lines and `#` comments are skipped. Each is checked by the rules.
pub fn read_openings<G: Game>(text: &str, size: usize) -> Result<Vec<Setup>, OpeningsError> {
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
        let at = |why: String| OpeningsError::Line { line: i + 1, why };
        let start = Setup::parse(&spec).map_err(|e| at(e.to_string()))?;
        let l = start_line::<G>(&start, size).map_err(|e| at(e.to_string()))?;
        if let Some(o) = l.outcome() {
            return Err(at(format!("the game is already over ({o})")));
        }
        out.push(start);
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardgames_core::games::Oska;

    #[test]
    fn openings_file_is_checked() {
        let ok = read_openings::<Oska>("# comment\nstartpos\nwwww/---/--/---/bbbb b\n", 4).unwrap();
        assert_eq!(ok.len(), 2);
        let e = read_openings::<Oska>("\nwwww/---/--/---/bbbx w\n", 4)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("openings line 2: 'wwww/---/--/---/bbbx' is not a board"),
            "{e}"
        );
        let e = read_openings::<Oska>("wwww/---/--/---/bbb w\n", 4)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("openings line 1: row 5 has 3 squares"), "{e}");
        let e = read_openings::<Oska>("wwww/---/--/---/---- w", 4).unwrap_err();
        assert!(e.to_string().contains("already over"), "{e}");
        assert_eq!(
            read_openings::<Oska>("# none\n", 4),
            Err(OpeningsError::Empty)
        );
    }
}
