//! The engine's options: those it declares after `uci`, and the reading of a `setoption` into a
//! [`Setting`] that the session keeps and the search thread applies.

use std::path::PathBuf;

use super::replies::error;
use boardgames_core::eval::EvalKind;
use boardgames_core::games::MAX_MOVES;
use boardgames_core::protocol::{ErrorCode, OptionDecl, OptionKind, ProtocolError};

/// The hash size options: default, least, greatest (MiB). A value above the memory free at the
/// time is refused ([`boardgames_core::search::check_hash`]).
pub const HASH_MIB: (i64, i64, i64) = (16, 1, boardgames_core::search::MAX_HASH_MIB as i64);
/// The `Threads` option (threads a search runs on): default, least, greatest.
pub const THREADS: (i64, i64, i64) = (1, 1, boardgames_core::search::MAX_THREADS as i64);
/// The `MultiPV` option (principal variations reported): default, least, greatest. The greatest
/// is the most moves a position can have, so every legal move can always be asked for.
pub const MULTI_PV: (i64, i64, i64) = (1, 1, MAX_MOVES as i64);

/// The options of the engine's own search, as listed after `uci` (a [`super::Backend`] may take
/// fewer: see [`super::Backend::options`]).
pub fn options() -> Vec<OptionDecl> {
    vec![
        OptionDecl {
            name: "Hash".into(),
            kind: OptionKind::Spin {
                default: HASH_MIB.0,
                min: HASH_MIB.1,
                max: HASH_MIB.2,
            },
        },
        OptionDecl {
            name: "Trace".into(),
            kind: OptionKind::Check { default: false },
        },
        OptionDecl {
            name: "Evaluator".into(),
            kind: OptionKind::Combo {
                default: EvalKind::default().name().into(),
                vars: EvalKind::ALL.iter().map(|k| k.name().into()).collect(),
            },
        },
        OptionDecl {
            name: "TablebasePath".into(),
            kind: OptionKind::String {
                default: NO_PATH.into(),
            },
        },
        OptionDecl {
            name: "MultiPV".into(),
            kind: OptionKind::Spin {
                default: MULTI_PV.0,
                min: MULTI_PV.1,
                max: MULTI_PV.2,
            },
        },
        OptionDecl {
            name: "Threads".into(),
            kind: OptionKind::Spin {
                default: THREADS.0,
                min: THREADS.1,
                max: THREADS.2,
            },
        },
    ]
}

/// The `TablebasePath` value that means no tables.
const NO_PATH: &str = "<empty>";

/// The names of some options, for messages: `Hash, Trace, Evaluator`.
fn option_names(options: &[OptionDecl]) -> String {
    let names: Vec<&str> = options.iter().map(|o| o.name.as_str()).collect();
    names.join(", ")
}

/// An option's value as a number: digits only, as every number of the protocol (no sign, no
/// '+'); `None` when it is not one or does not fit.
fn whole_number(value: &str) -> Option<i64> {
    Some(value)
        .filter(|v| v.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|v| v.parse().ok())
}

/// The value of the spin option `name` (default, least, greatest in `range`), read from
/// `value`: refused unless all digits and in range. `unit` follows "a whole number" in the
/// message (" of MiB"), `range_unit` the range (" (MiB)").
fn spin(
    name: &str,
    value: &str,
    (_, lo, hi): (i64, i64, i64),
    unit: &str,
    range_unit: &str,
) -> Result<i64, ProtocolError> {
    let n = whole_number(value).ok_or_else(|| {
        error(
            ErrorCode::BadValue,
            format!("{name} '{value}' is not a whole number{unit} (digits only); unchanged"),
        )
    })?;
    if !(lo..=hi).contains(&n) {
        return Err(error(
            ErrorCode::BadValue,
            format!("{name} {n} is out of range {lo} to {hi}{range_unit}; unchanged"),
        ));
    }
    Ok(n)
}

/// The new value of one option, read from a `setoption`.
#[derive(Clone, Debug)]
pub(super) enum Setting {
    /// `Hash`, MiB.
    Hash(usize),
    /// `Trace`.
    Trace(bool),
    /// `Evaluator`.
    Evaluator(EvalKind),
    /// `TablebasePath`: the directory, or none.
    Tablebase(Option<PathBuf>),
    /// `MultiPV`.
    MultiPv(usize),
    /// `Threads`.
    Threads(usize),
}

impl Setting {
    /// Reads `setoption name NAME value VALUE`, given the options the backend takes
    /// ([`super::Backend::options`]) and who searches ([`super::Backend::searched_by`]), for
    /// messages. An option that is not declared, or a value it cannot take, is an error that says
    /// why; nothing changes then.
    pub(super) fn read(
        name: &str,
        value: &str,
        options: &[OptionDecl],
        searched_by: &str,
    ) -> Result<Setting, ProtocolError> {
        let declared =
            |options: &[OptionDecl]| options.iter().any(|o| o.name.eq_ignore_ascii_case(name));
        if !declared(options) {
            let listed = option_names(options);
            // `options` here is the backend's list; `self::options()` the engine's own.
            let message = if declared(&self::options()) {
                format!(
                    "the option '{name}' is not supported by {} (options: {listed})",
                    searched_by
                )
            } else {
                format!("there is no option '{name}' (options: {listed})")
            };
            return Err(error(ErrorCode::Unsupported, message));
        }
        Ok(match name.to_ascii_lowercase().as_str() {
            "hash" => {
                let mib = spin("Hash", value, HASH_MIB, " of MiB", " (MiB)")?;
                boardgames_core::search::check_hash(mib as usize)
                    .map_err(|why| error(ErrorCode::BadValue, format!("Hash {why}; unchanged")))?;
                Setting::Hash(mib as usize)
            }
            "trace" => {
                let on = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(error(
                            ErrorCode::BadValue,
                            format!("Trace '{value}' must be true or false"),
                        ));
                    }
                };
                Setting::Trace(on)
            }
            "evaluator" => {
                let kind = EvalKind::parse(value).map_err(|_| {
                    let names: Vec<&str> = EvalKind::ALL.iter().map(|k| k.name()).collect();
                    error(
                        ErrorCode::BadValue,
                        format!(
                            "Evaluator '{value}' must be one of {}; unchanged",
                            names.join(", ")
                        ),
                    )
                })?;
                Setting::Evaluator(kind)
            }
            "multipv" => {
                let n = spin("MultiPV", value, MULTI_PV, "", "")?;
                Setting::MultiPv(n as usize)
            }
            "threads" => {
                let n = spin("Threads", value, THREADS, "", "")?;
                Setting::Threads(n as usize)
            }
            "tablebasepath" => {
                let dir = (value != NO_PATH).then(|| PathBuf::from(value));
                if let Some(d) = &dir
                    && !d.is_dir()
                {
                    return Err(error(
                        ErrorCode::BadValue,
                        format!("TablebasePath '{value}' is not a directory; unchanged"),
                    ));
                }
                Setting::Tablebase(dir)
            }
            _ => {
                return Err(error(
                    ErrorCode::Unsupported,
                    format!("the option '{name}' is declared but not handled by the session"),
                ));
            }
        })
    }
}
