//! The languages of seed functions ([`Language`]) and the seed's names for their top-level
//! functions ([`seed_function`]).

use std::path::Path;

use super::format::SeedFormat;
use boardgames_core::games::GameKind;

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

    /// The language a name means: `python`, `haskell`, `lisp` (any case).
    pub fn parse(name: &str) -> Option<Language> {
        match name.trim().to_ascii_lowercase().as_str() {
            "python" | "py" => Some(Language::Python),
            "haskell" | "hs" => Some(Language::Haskell),
            "lisp" | "common lisp" | "cl" => Some(Language::Lisp),
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
/// `text`: the first of [`seed_functions`]. `None` when the file defines none of them.
pub fn seed_function(game: GameKind, language: Language, text: &str) -> Option<String> {
    seed_functions(game, language, text).into_iter().next()
}

/// Every function of the seed's names for `game` that the source `text` defines, once each, in
/// the order of the file: Python `oskaplayer`, `hexapawn`, `capture`; Haskell `oska_XXXX` (any
/// suffix) or `oska`, `hexapawn`, `capture`; Lisp `oskamaniac`, `hexapawn`, `capture`.
///
/// Comments and string literals are ignored (Python `#` and quotes, triple quotes included;
/// Haskell `--` and nested `{- -}`, strings and characters; Lisp `;`, nested `#| |#`, strings
/// and `#\` characters), and a name matches whole: Python and Haskell names exactly (a
/// Haskell `Capture` is a constructor, not `capture`), Lisp names in any case, as the Lisp
/// reader reads them. A definition is Python `def NAME` at the start of a line, a Haskell
/// line that starts with `NAME` in its first column (a signature or an equation), a Lisp
/// `(defun NAME`.
pub fn seed_functions(game: GameKind, language: Language, text: &str) -> Vec<String> {
    let code = code_only(language, text);
    let mut found: Vec<String> = Vec::new();
    for name in definitions(language, &code) {
        if is_seed_name(game, language, name) && !found.iter().any(|f| f == name) {
            found.push(name.to_string());
        }
    }
    found
}

/// Whether `name` is one of the seed's names for `game` in `language` (as [`seed_functions`]
/// lists them).
pub fn is_seed_name(game: GameKind, language: Language, name: &str) -> bool {
    match (game, language) {
        (GameKind::Oska, Language::Python) => name == "oskaplayer",
        (GameKind::Oska, Language::Haskell) => name.starts_with("oska_") || name == "oska",
        (GameKind::Oska, Language::Lisp) => name.eq_ignore_ascii_case("oskamaniac"),
        (GameKind::Hexapawn, Language::Lisp) => name.eq_ignore_ascii_case("hexapawn"),
        (GameKind::Ctf, Language::Lisp) => name.eq_ignore_ascii_case("capture"),
        (GameKind::Hexapawn, _) => name == "hexapawn",
        (GameKind::Ctf, _) => name == "capture",
    }
}

/// Whether the source `text` defines the function `name` (as [`seed_functions`] finds
/// definitions: not in comments or strings; a Lisp name in any case).
pub fn defines(language: Language, text: &str, name: &str) -> bool {
    let code = code_only(language, text);
    definitions(language, &code)
        .into_iter()
        .any(|d| match language {
            Language::Lisp => d.eq_ignore_ascii_case(name),
            _ => d == name,
        })
}

/// Where the source `text` keeps state between calls of its functions, for a note: the first
/// Python `global NAME` statement, or Lisp `setf`, `setq`, `incf`, `decf` or `push` of a global
/// `*NAME*` (not in comments or strings), with its line. A function that keeps state plays
/// differently when the interpreter lives for a game than when it starts for every move.
pub fn keeps_state(language: Language, text: &str) -> Option<String> {
    let code = code_only(language, text);
    for (i, line) in code.lines().enumerate() {
        let found = match language {
            Language::Python => line
                .trim_start()
                .strip_prefix("global ")
                .map(|rest| format!("global {}", rest.trim())),
            Language::Lisp => {
                let lower = line.to_ascii_lowercase();
                ["(setf ", "(setq ", "(incf ", "(decf "]
                    .iter()
                    .find_map(|op| {
                        let at = lower.find(op)?;
                        let name = line[at + op.len()..].trim_start();
                        let name = &name[..name
                            .find(|c: char| c.is_whitespace() || c == ')')
                            .unwrap_or(name.len())];
                        (name.len() > 2 && name.starts_with('*') && name.ends_with('*'))
                            .then(|| format!("{} {name}", op.trim_start_matches('(').trim()))
                    })
            }
            Language::Haskell => None,
        };
        if let Some(what) = found {
            return Some(format!("{what} (line {})", i + 1));
        }
    }
    None
}

/// The names the blanked source `code` ([`code_only`]) defines, in order.
fn definitions(language: Language, code: &str) -> Vec<&str> {
    let mut defined: Vec<&str> = Vec::new();
    match language {
        Language::Python => {
            for line in code.lines() {
                if let Some(rest) = line.strip_prefix("def ") {
                    defined.push(identifier(rest.trim_start()));
                }
            }
        }
        Language::Haskell => {
            for line in code.lines() {
                defined.push(identifier(line));
            }
        }
        Language::Lisp => {
            let mut rest = code;
            while let Some(i) = rest.find('(') {
                rest = &rest[i + 1..];
                let after = rest.trim_start();
                let Some(head) = after.get(..5) else { break };
                let tail = &after[5..];
                if head.eq_ignore_ascii_case("defun") && tail.starts_with(char::is_whitespace) {
                    let name = tail.trim_start();
                    let end = name
                        .find(|c: char| c.is_whitespace() || "()'\"".contains(c))
                        .unwrap_or(name.len());
                    defined.push(&name[..end]);
                }
            }
        }
    }
    defined
}

/// The identifier `text` starts with (Python and Haskell: letters, digits, `_`, and `'` after
/// the first character); empty when it starts with none.
fn identifier(text: &str) -> &str {
    let mut end = 0;
    for (i, c) in text.char_indices() {
        let ok = c.is_alphanumeric() || c == '_' || (i > 0 && c == '\'');
        if !ok {
            break;
        }
        end = i + c.len_utf8();
    }
    &text[..end]
}

/// `text` with every comment and string literal of `language` blanked out: each of their
/// characters becomes a space, line breaks stay, so that lines and columns are kept.
fn code_only(language: Language, text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |out: &mut String, c: char| out.push(if c == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    // Blanks chars[from..to] (to clamped).
    let skip = |out: &mut String, from: usize, to: usize| {
        for &c in &chars[from..to.min(chars.len())] {
            blank(out, c);
        }
        to.min(chars.len())
    };
    let at = |i: usize, s: &str| {
        s.chars()
            .enumerate()
            .all(|(k, c)| chars.get(i + k) == Some(&c))
    };
    // The end (exclusive) of a quoted literal that opens at `i` with `quote` (`len` characters)
    // and lets a backslash escape the next character.
    let quoted = |i: usize, quote: &str, multiline: bool| {
        let len = quote.chars().count();
        let mut j = i + len;
        while j < chars.len() {
            if chars[j] == '\\' {
                j += 2;
            } else if at(j, quote) {
                return j + len;
            } else if chars[j] == '\n' && !multiline {
                return j;
            } else {
                j += 1;
            }
        }
        chars.len()
    };
    // The end of a nested block comment from `open` to `close`.
    let nested = |i: usize, open: &str, close: &str| {
        let mut depth = 0;
        let mut j = i;
        while j < chars.len() {
            if at(j, open) {
                depth += 1;
                j += 2;
            } else if at(j, close) {
                depth -= 1;
                j += 2;
                if depth == 0 {
                    return j;
                }
            } else {
                j += 1;
            }
        }
        chars.len()
    };
    let line_end = |i: usize| {
        chars[i..]
            .iter()
            .position(|&c| c == '\n')
            .map_or(chars.len(), |p| i + p)
    };
    let word_char = |c: char| c.is_alphanumeric() || c == '_' || c == '\'';
    while i < chars.len() {
        let c = chars[i];
        let prev = i.checked_sub(1).map(|p| chars[p]);
        i = match language {
            Language::Python => match c {
                '#' => skip(&mut out, i, line_end(i)),
                '"' | '\'' if at(i, &c.to_string().repeat(3)) => {
                    skip(&mut out, i, quoted(i, &c.to_string().repeat(3), true))
                }
                '"' | '\'' => skip(&mut out, i, quoted(i, &c.to_string(), false)),
                _ => {
                    out.push(c);
                    i + 1
                }
            },
            Language::Haskell => {
                let symbol = |c: char| "!#$%&*+./<=>?@\\^|-~:".contains(c);
                if at(i, "{-") {
                    skip(&mut out, i, nested(i, "{-", "-}"))
                } else if at(i, "--")
                    && !prev.is_some_and(symbol)
                    && !chars[i..]
                        .iter()
                        .find(|&&d| d != '-')
                        .is_some_and(|&d| symbol(d))
                {
                    skip(&mut out, i, line_end(i))
                } else if c == '"' {
                    skip(&mut out, i, quoted(i, "\"", false))
                } else if c == '\'' && !prev.is_some_and(word_char) {
                    // A character literal: 'x' or '\...'.
                    let end = if chars.get(i + 1) == Some(&'\\') {
                        chars[i + 2..]
                            .iter()
                            .position(|&d| d == '\'' || d == '\n')
                            .map(|p| i + 2 + p + 1)
                    } else if chars.get(i + 2) == Some(&'\'') {
                        Some(i + 3)
                    } else {
                        None
                    };
                    match end {
                        Some(end) => skip(&mut out, i, end),
                        None => {
                            out.push(c);
                            i + 1
                        }
                    }
                } else {
                    out.push(c);
                    i + 1
                }
            }
            Language::Lisp => {
                if at(i, "#|") {
                    skip(&mut out, i, nested(i, "#|", "|#"))
                } else if at(i, "#\\") {
                    skip(&mut out, i, i + 3)
                } else if c == ';' {
                    skip(&mut out, i, line_end(i))
                } else if c == '"' {
                    skip(&mut out, i, quoted(i, "\"", true))
                } else {
                    out.push(c);
                    i + 1
                }
            }
        };
    }
    out
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

    #[test]
    fn comments_and_strings_define_nothing_and_names_match_exactly() {
        // The real case: an opening comment names the game before the function.
        let hs = "{- Capture the Flag\n   {- nested -} still a comment\ncapture is here too -}\n\
                  -- capture in a line comment\n\
                  module Main where\n\
                  data Piece = Capture | Other\n\
                  Capture2 :: Int\n\
                  captured = \"\\\"capture\"\n\
                  capture :: [String] -> Char -> Int -> [String]\n\
                  capture history side depth = history\n";
        assert_eq!(
            seed_functions(GameKind::Ctf, Language::Haskell, hs),
            ["capture"]
        );
        // Only in comments and strings, or only in another case: none.
        let hs = "{- capture -}\nCapture :: Int\nx = \"capture\"\n--capture\nc = '\"'\n";
        assert_eq!(seed_function(GameKind::Ctf, Language::Haskell, hs), None);
        // An operator that starts with dashes is no comment; primes stay in names.
        let hs = "x --> y = y\noska_a' b = b\noska_a' :: Int\n";
        assert_eq!(
            seed_functions(GameKind::Oska, Language::Haskell, hs),
            ["oska_a'"]
        );
        let lisp = "#| (defun capture (h s d) h)\n #| nested |# (defun hexapawn) |#\n\
                    ; (defun hexapawn (b n s d) b)\n\
                    (defvar *doc* \"(defun hexapawn ()\")\n\
                    (defun hexapawn-helper (b) b)\n\
                    (print #\\;) (print #\\\")\n\
                    (DefUn HexaPawn (board size side depth) board)\n";
        assert_eq!(
            seed_functions(GameKind::Hexapawn, Language::Lisp, lisp),
            ["HexaPawn"]
        );
        assert!(seed_functions(GameKind::Ctf, Language::Lisp, lisp).is_empty());
        let py = "'''\ndef oskaplayer(b, s, d):\n'''\n# def oskaplayer\n\
                  s = \"def oskaplayer\"\ndef oskaplayers(b):\n    pass\n";
        assert_eq!(seed_function(GameKind::Oska, Language::Python, py), None);
        let py =
            "def oskaplayer (b, s, d):\n    return b\ndef oskaplayer(b, s, d):\n    return b\n";
        assert_eq!(
            seed_functions(GameKind::Oska, Language::Python, py),
            ["oskaplayer"]
        );
    }
}
