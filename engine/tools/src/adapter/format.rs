//! The board formats a seed program or function takes ([`SeedFormat`]).

use boardgames_core::games::GameKind;
use boardgames_core::games::format::Format;

/// The board format sent to the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeedFormat {
    /// Rows joined with `/`: `wwww/---/--/---/bbbb`.
    Slash,
    /// A Python list of rows, `['wwww', '---', ...]`; for Capture the Flag the seed's history
    /// list of flat boards, most recent first.
    Python,
    /// A Haskell list of rows, `["wwww","---",...]`; for Capture the Flag a history list.
    Haskell,
    /// Lisp lists: `((w w w w)(nil nil nil)...)`.
    Lisp,
    /// One row-major string: `wwww-----------bbbb`.
    Flat,
}

/// A board format [`SeedFormat::parse`] does not know: the text given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown board format '{0}': use slash, python, haskell, lisp or flat")]
pub struct UnknownFormat(pub String);

impl SeedFormat {
    /// Reads `slash`, `python`, `haskell`, `lisp` or `flat`.
    pub fn parse(text: &str) -> Result<SeedFormat, UnknownFormat> {
        Ok(match text {
            "slash" => SeedFormat::Slash,
            "python" => SeedFormat::Python,
            "haskell" => SeedFormat::Haskell,
            "lisp" => SeedFormat::Lisp,
            "flat" => SeedFormat::Flat,
            _ => return Err(UnknownFormat(text.to_string())),
        })
    }

    /// The quote and separator of a list format (Python, Haskell).
    pub(super) fn list(self) -> Option<(char, &'static str)> {
        match self {
            SeedFormat::Python => Some(('\'', ", ")),
            SeedFormat::Haskell => Some(('"', ",")),
            _ => None,
        }
    }

    /// The format of one board (a Capture the Flag history prints its boards flat).
    pub(super) fn board_format(self, kind: GameKind) -> Format {
        match (self, self.list()) {
            (_, Some((quote, sep))) if kind == GameKind::Ctf => Format::History {
                quote,
                sep: sep.into(),
            },
            (_, Some((quote, sep))) => Format::List {
                quote,
                sep: sep.into(),
            },
            (SeedFormat::Lisp, _) => Format::Lisp { quoted: false },
            (SeedFormat::Flat, _) => Format::Flat { quote: None },
            _ => Format::Slash,
        }
    }
}
