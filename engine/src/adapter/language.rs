//! The languages of seed functions ([`Language`]) and the seed's names for their top-level
//! functions ([`seed_function`]).

use std::path::Path;

use super::format::SeedFormat;
use crate::games::GameKind;

/// A language of submissions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Language {
    /// `.py`, run by `python3`.
    Python,
    /// `.hs`, compiled by `ghc` with a generated driver, cached.
    Haskell,
    /// `.lisp`, `.lsp` or `.cl`, run by `sbcl`.
    Lisp,
}

impl Language {
    /// The language of a file, by its extension.
    pub fn of(path: &Path) -> Option<Language> {
        match path.extension()?.to_str()? {
            "py" => Some(Language::Python),
            "hs" => Some(Language::Haskell),
            "lisp" | "lsp" | "cl" => Some(Language::Lisp),
            _ => None,
        }
    }

    /// The program that runs (or compiles) it.
    pub fn tool(self) -> &'static str {
        match self {
            Language::Python => "python3",
            Language::Haskell => "ghc",
            Language::Lisp => "sbcl",
        }
    }

    /// What to install when [`Language::tool`] is missing.
    pub(super) fn install(self) -> &'static str {
        match self {
            Language::Python => "Python 3 (Debian/Ubuntu: apt-get install python3)",
            Language::Haskell => {
                "the Glasgow Haskell Compiler (Debian/Ubuntu: apt-get install ghc; or ghcup)"
            }
            Language::Lisp => "Steel Bank Common Lisp (Debian/Ubuntu: apt-get install sbcl)",
        }
    }

    /// The board format its functions take.
    pub fn format(self) -> SeedFormat {
        match self {
            Language::Python => SeedFormat::Python,
            Language::Haskell => SeedFormat::Haskell,
            Language::Lisp => SeedFormat::Lisp,
        }
    }

    /// Its name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Language::Python => "Python",
            Language::Haskell => "Haskell",
            Language::Lisp => "Common Lisp",
        }
    }
}

/// The seed's name for the top-level function of `game` in `language`, found in the source
/// `text`: Python `oskaplayer`, `hexapawn`, `capture`; Haskell `oska_XXXX` (any suffix),
/// `hexapawn`, `capture`; Lisp `oskamaniac`, `hexapawn`, `capture`. `None` when the file
/// defines none of them.
pub fn seed_function(game: GameKind, language: Language, text: &str) -> Option<String> {
    let defined: Vec<String> = text
        .lines()
        .filter_map(|l| match language {
            Language::Python => l.strip_prefix("def ").map(|r| {
                r.split(|c: char| c == '(' || c.is_whitespace())
                    .next()
                    .unwrap_or("")
            }),
            Language::Haskell => (!l.starts_with(char::is_whitespace))
                .then(|| l.split_whitespace().next().unwrap_or("")),
            Language::Lisp => {
                let t = l.trim_start().to_ascii_lowercase();
                t.strip_prefix("(defun ").map(|r| {
                    let end = r
                        .find(|c: char| c == '(' || c.is_whitespace())
                        .unwrap_or(r.len());
                    &l.trim_start()[7..7 + end]
                })
            }
        })
        .map(str::to_string)
        .collect();
    let wanted = |name: &str| match (game, language) {
        (GameKind::Oska, Language::Python) => name == "oskaplayer",
        (GameKind::Oska, Language::Haskell) => name.starts_with("oska_") || name == "oska",
        (GameKind::Oska, Language::Lisp) => name.eq_ignore_ascii_case("oskamaniac"),
        (GameKind::Hexapawn, _) => name.eq_ignore_ascii_case("hexapawn"),
        (GameKind::Ctf, _) => name.eq_ignore_ascii_case("capture"),
    };
    defined.into_iter().find(|n| wanted(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_names_are_found() {
        let py = "import x\ndef helper(a):\n    pass\ndef oskaplayer(board, side, depth):\n    return board\n";
        assert_eq!(
            seed_function(GameKind::Oska, Language::Python, py).as_deref(),
            Some("oskaplayer")
        );
        assert_eq!(
            seed_function(GameKind::Hexapawn, Language::Python, py),
            None
        );
        let hs = "module Main where\noska_x1y2 :: [String] -> Char -> Int -> [String]\noska_x1y2 b _ _ = b\n";
        assert_eq!(
            seed_function(GameKind::Oska, Language::Haskell, hs).as_deref(),
            Some("oska_x1y2")
        );
        let lisp = "(defun helper (x) x)\n(DEFUN OSKAMANIAC (board side depth trace) board)\n";
        assert_eq!(
            seed_function(GameKind::Oska, Language::Lisp, lisp).as_deref(),
            Some("OSKAMANIAC")
        );
    }
}
