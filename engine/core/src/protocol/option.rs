//! The `option` lines listed after `uci`.

use std::fmt;

use super::*;

/// The type and limits of an option, as listed after `uci`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// An integer between `min` and `max`.
    Spin {
        /// The default.
        default: i64,
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// `true` or `false`.
    Check {
        /// The default.
        default: bool,
    },
    /// One of a list of words, as UCI's `combo`: `type combo default D var V1 var V2 ...`.
    Combo {
        /// The default (one of `vars`).
        default: String,
        /// The allowed values, in order; at least one.
        vars: Vec<String>,
    },
    /// A word, as UCI's `string` (one word here): `type string default D`, `<empty>` for none.
    String {
        /// The default (`<empty>` when there is none).
        default: String,
    },
}

impl OptionKind {
    /// Reads the words after `type` of an `option` line (`spin default 16 min 1 max 4096`, ...),
    /// up to the end of the line.
    pub(super) fn parse<'a>(
        mut words: impl Iterator<Item = &'a str>,
    ) -> Result<OptionKind, ProtocolError> {
        let kind = match words.next() {
            Some("spin") => {
                let mut vals = [0i64; 3];
                for (i, key) in ["default", "min", "max"].into_iter().enumerate() {
                    if words.next() != Some(key) {
                        return Err(syntax(format!("expected '{key}'")));
                    }
                    vals[i] = parse_int(words.next(), key)?;
                }
                OptionKind::Spin {
                    default: vals[0],
                    min: vals[1],
                    max: vals[2],
                }
            }
            Some("check") => {
                if words.next() != Some("default") {
                    return Err(syntax("expected 'default'"));
                }
                let default = match words.next() {
                    Some("true") => true,
                    Some("false") => false,
                    _ => return Err(syntax("a check default is true or false")),
                };
                OptionKind::Check { default }
            }
            Some("combo") => {
                if words.next() != Some("default") {
                    return Err(syntax("expected 'default'"));
                }
                let default = words
                    .next()
                    .ok_or_else(|| syntax("the combo default is missing"))?
                    .to_string();
                let mut vars = Vec::new();
                while let Some(w) = words.next() {
                    if w != "var" {
                        return Err(syntax(format!("unexpected '{w}': expected 'var VALUE'")));
                    }
                    let v = words
                        .next()
                        .ok_or_else(|| syntax("a value is missing after 'var'"))?;
                    vars.push(v.to_string());
                }
                if vars.is_empty() {
                    return Err(syntax("a combo option needs at least one 'var VALUE'"));
                }
                return Ok(OptionKind::Combo { default, vars });
            }
            Some("string") => {
                if words.next() != Some("default") {
                    return Err(syntax("expected 'default'"));
                }
                let default = words
                    .next()
                    .ok_or_else(|| syntax("the string default is missing (<empty> for none)"))?
                    .to_string();
                OptionKind::String { default }
            }
            _ => return Err(syntax("expected type spin, check, combo or string")),
        };
        no_more(words, "the option")?;
        Ok(kind)
    }
}

/// The words after `type` of an `option` line, as [`OptionKind::parse`] reads them.
impl fmt::Display for OptionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                for v in vars {
                    write!(f, " var {v}")?;
                }
                Ok(())
            }
            OptionKind::String { default } => write!(f, "string default {default}"),
        }
    }
}

/// An `option name NAME type ...` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    /// The name (one word).
    pub name: String,
    /// Its type and limits.
    pub kind: OptionKind,
}
