//! A seed function named on the command line (`FILE.py:FUNCTION`): [`FunctionSpec`], and why
//! one cannot be set up ([`FunctionError`]).

use std::fmt;
use std::path::{Path, PathBuf};

use super::language::{Language, is_seed_name};
use crate::process::on_path;
use boardgames_core::games::GameKind;

/// A function adapter that cannot be set up.
#[derive(Debug, thiserror::Error)]
pub enum FunctionError {
    /// `FILE:FUNCTION` is malformed.
    #[error("'{0}': expected FILE.py:FUNCTION, FILE.hs:FUNCTION or FILE.lisp:FUNCTION")]
    Syntax(String),
    /// The file cannot be read.
    #[error("cannot read {path}: {why}")]
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        why: String,
    },
    /// The language's toolchain is not installed.
    #[error("{language} submissions need '{tool}', which is not on PATH: install {install}")]
    Toolchain {
        /// The language.
        language: &'static str,
        /// The missing program.
        tool: &'static str,
        /// What to install.
        install: &'static str,
    },
}

/// A seed function: its file, its name and its language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionSpec {
    /// The file (absolute).
    pub file: PathBuf,
    /// The function's name.
    pub function: String,
    /// The language, from the file's extension.
    pub language: Language,
    /// The student's folder (absolute), when the submission is one: visible read-only in the
    /// sandbox, and the working directory, so that helper modules beside the file import.
    /// `None`: only the file is visible, and the working directory is a scratch folder.
    pub folder: Option<PathBuf>,
}

impl FunctionSpec {
    /// The game whose seed names the function (`oskaplayer`: Oska, a Haskell `oska_XXXX`,
    /// `hexapawn`, `capture`...), or `None` for a function of another name.
    pub fn game(&self) -> Option<GameKind> {
        GameKind::ALL
            .into_iter()
            .find(|&g| is_seed_name(g, self.language, &self.function))
    }

    /// Reads `FILE.EXT:FUNCTION`; `None` when `text` is not of that shape (a program, then).
    /// The file must exist; its path is made absolute.
    pub fn parse(text: &str) -> Option<Result<FunctionSpec, FunctionError>> {
        FunctionSpec::parse_as(text, None)
    }

    /// Reads `FILE:FUNCTION` as [`FunctionSpec::parse`] does, in `language` when given (the
    /// file's extension may then be any), else in the language of the file's extension.
    pub fn parse_as(
        text: &str,
        language: Option<Language>,
    ) -> Option<Result<FunctionSpec, FunctionError>> {
        let (file, function) = text.rsplit_once(':')?;
        let language = language.or_else(|| Language::of(Path::new(file)))?;
        let ok = !function.is_empty()
            && function
                .chars()
                .all(|c| c.is_alphanumeric() || "_-'.*+!?<>=/".contains(c));
        if !ok {
            return Some(Err(FunctionError::Syntax(text.to_string())));
        }
        Some(
            std::path::absolute(file)
                .and_then(|p| std::fs::metadata(&p).map(|_| p))
                .map_err(|e| FunctionError::File {
                    path: file.into(),
                    why: e.to_string(),
                })
                .map(|file| FunctionSpec {
                    file,
                    function: function.to_string(),
                    language,
                    folder: None,
                }),
        )
    }

    /// The spec with the student's `folder` (made absolute; it must exist and hold the file).
    pub fn in_folder(mut self, folder: &Path) -> Result<FunctionSpec, FunctionError> {
        let folder = std::path::absolute(folder)
            .and_then(|p| std::fs::metadata(&p).map(|_| p))
            .map_err(|e| FunctionError::File {
                path: folder.into(),
                why: e.to_string(),
            })?;
        if !self.file.starts_with(&folder) {
            return Err(FunctionError::File {
                path: self.file.clone(),
                why: format!("it is not in the folder {}", folder.display()),
            });
        }
        self.folder = Some(folder);
        Ok(self)
    }

    /// Fails with what to install when the language's toolchain is not on `PATH`.
    pub fn check_toolchain(&self) -> Result<(), FunctionError> {
        let tool = self.language.tool();
        if on_path(tool) {
            Ok(())
        } else {
            Err(FunctionError::Toolchain {
                language: self.language.name(),
                tool,
                install: self.language.install(),
            })
        }
    }
}

impl fmt::Display for FunctionSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file.display(), self.function)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_are_read() {
        assert!(FunctionSpec::parse("python3").is_none());
        assert!(FunctionSpec::parse("x.txt:f").is_none());
        assert!(matches!(
            FunctionSpec::parse("x.py:"),
            Some(Err(FunctionError::Syntax(_)))
        ));
        assert!(matches!(
            FunctionSpec::parse("/no/such/file.py:f"),
            Some(Err(FunctionError::File { .. }))
        ));
    }
}
