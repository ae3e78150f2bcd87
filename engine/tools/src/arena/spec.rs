//! How an engine of a match is described on the command line: `key=value` words such as
//! `cmd=./engine name=deep depth=4 option.Hash=32 timeout=5000` or
//! `cmd=./engine tc=40/60+0.6 timemargin=50`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::client::{BOARDCALL_TIMEOUT, DEFAULT_TIMEOUT};
use boardgames_core::protocol::Go;

use super::ArenaError;
use boardgames_core::clock::TimeControl;

/// One engine of a match: how to start it, how to set it up and how long it may think.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Its name in the output and in the records.
    pub name: String,
    /// The program.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Options sent with `setoption` after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// The limit of every `go` (when the engine plays without a clock).
    pub limit: Go,
    /// The margin over the limit (and the bound on the handshake and `isready`).
    pub timeout: Duration,
    /// The engine's time control: it plays on a clock (`go wtime ...`) and loses on time when
    /// it overruns it by more than `timemargin`.
    pub tc: Option<TimeControl>,
    /// How far a move may overrun the clock before it is a time forfeit.
    pub timemargin: Duration,
}

fn bad(word: &str, why: impl Into<String>) -> ArenaError {
    ArenaError::Engine {
        word: word.to_string(),
        why: why.into(),
    }
}

fn number(word: &str, value: &str) -> Result<u64, ArenaError> {
    match value.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        Ok(_) => Err(bad(word, "the value must be at least 1")),
        Err(_) => Err(bad(word, format!("'{value}' is not a whole number"))),
    }
}

impl EngineSpec {
    /// Reads the words of one `--engine`. `engine_exe` is our `engine` binary, used for the
    /// `boardcall=PROGRAM` shorthand (which runs `engine board-call --format FORMAT -- PROGRAM`,
    /// PROGRAM split into words as [`split_words`] says, with [`BOARDCALL_TIMEOUT`] as the
    /// default margin).
    ///
    /// Keys: `cmd=`, `name=`, `arg=` (repeatable), `option.NAME=VALUE`, `depth=`, `nodes=`,
    /// `movetime=` (milliseconds), `tc=` (`[MOVES/]TIME[+INC]`, seconds), `timemargin=`
    /// (milliseconds), `timeout=` (milliseconds), `boardcall=`, `format=`.
    pub fn parse(words: &[String], engine_exe: &Path) -> Result<EngineSpec, ArenaError> {
        let mut name = None;
        let mut program: Option<PathBuf> = None;
        let mut args = Vec::new();
        let mut options = Vec::new();
        let mut limit = None;
        let mut timeout = None;
        let mut tc = None;
        let mut timemargin = Duration::ZERO;
        let mut boardcall: Option<String> = None;
        let mut format: Option<String> = None;
        for word in words {
            let Some((key, value)) = word.split_once('=') else {
                return Err(bad(
                    word,
                    "expected key=value (cmd=, name=, arg=, depth=, ...)",
                ));
            };
            match key {
                "cmd" => program = Some(PathBuf::from(value)),
                "name" => name = Some(value.to_string()),
                "arg" => args.push(value.to_string()),
                "depth" => {
                    let d = u32::try_from(number(word, value)?)
                        .map_err(|_| bad(word, "the depth is too large"))?;
                    limit = Some(Go::Depth(d));
                }
                "nodes" => limit = Some(Go::Nodes(number(word, value)?)),
                "movetime" => limit = Some(Go::MoveTime(number(word, value)?)),
                "timeout" => timeout = Some(Duration::from_millis(number(word, value)?)),
                "tc" => {
                    tc = Some(TimeControl::parse(value).map_err(|why| bad(word, why.to_string()))?)
                }
                "timemargin" => {
                    let ms = value
                        .parse::<u64>()
                        .ok()
                        .filter(|_| value.bytes().all(|b| b.is_ascii_digit()))
                        .ok_or_else(|| bad(word, format!("'{value}' is not a whole number")))?;
                    timemargin = Duration::from_millis(ms);
                }
                "boardcall" => boardcall = Some(value.to_string()),
                "format" => format = Some(value.to_string()),
                k if k.starts_with("option.") => {
                    let opt = &k["option.".len()..];
                    if opt.is_empty() || value.is_empty() || value.contains(char::is_whitespace) {
                        return Err(bad(word, "use option.NAME=VALUE, one word each"));
                    }
                    options.push((opt.to_string(), value.to_string()));
                }
                _ => return Err(bad(word, format!("unknown key '{key}'"))),
            }
        }
        if tc.is_some() && limit.is_some() {
            return Err(bad(
                &words.join(" "),
                "tc= is the engine's limit: give either tc= or one of depth=, nodes=, movetime=",
            ));
        }
        if let Some(prog) = boardcall {
            if program.is_some() {
                return Err(bad(
                    "boardcall=",
                    "give either cmd= or boardcall=, not both",
                ));
            }
            let words =
                split_words(&prog).map_err(|why| bad(&format!("boardcall={prog}"), why.0))?;
            if words.is_empty() {
                return Err(bad("boardcall=", "the program is empty"));
            }
            let mut a = vec!["board-call".to_string()];
            if let Some(f) = format {
                a.push("--format".into());
                a.push(f);
            }
            if let Some(Go::Depth(d)) = limit {
                a.push("--depth".into());
                a.push(d.to_string());
            }
            a.push("--".into());
            a.extend(words.iter().cloned());
            a.append(&mut args);
            args = a;
            program = Some(engine_exe.to_path_buf());
            if name.is_none() {
                // The file name of the last word, usually the script.
                name = words.last().map(|w| {
                    Path::new(w)
                        .file_name()
                        .map_or_else(|| w.clone(), |n| n.to_string_lossy().into_owned())
                });
            }
            timeout = timeout.or(Some(BOARDCALL_TIMEOUT));
        } else if format.is_some() {
            return Err(bad("format=", "format= goes with boardcall="));
        }
        let program = program.ok_or_else(|| bad(&words.join(" "), "the engine has no cmd="))?;
        let name = name.unwrap_or_else(|| {
            program
                .file_name()
                .map_or_else(|| "engine".into(), |n| n.to_string_lossy().into_owned())
        });
        Ok(EngineSpec {
            name,
            program,
            args,
            options,
            limit: limit.unwrap_or(Go::Depth(3)),
            timeout: timeout.unwrap_or(DEFAULT_TIMEOUT),
            tc,
            timemargin,
        })
    }

    /// The longest a `go` may take before the engine counts as stalled.
    pub fn go_budget(&self) -> Duration {
        match self.limit {
            Go::MoveTime(ms) => Duration::from_millis(ms) + self.timeout,
            _ => self.timeout,
        }
    }
}

/// Why a program's words cannot be split: a quote not closed, a backslash at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct WordsError(pub &'static str);

/// Splits the value of `boardcall=` into the program and its arguments, as a shell would: words
/// are separated by blanks; `'...'` keeps everything inside as it is; `"..."` too, except that a
/// backslash before `"` or `\` stands for that character; outside quotes a backslash keeps the
/// next character (a blank, a quote) as it is. So `python3 '/home/me/my games/oska.py'` and
/// `python3 /home/me/my\ games/oska.py` are two words.
pub fn split_words(text: &str) -> Result<Vec<String>, WordsError> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err(WordsError("a ' is not closed")),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => w.push(c),
                            Some(c) => {
                                w.push('\\');
                                w.push(c);
                            }
                            None => return Err(WordsError("a \" is not closed")),
                        },
                        Some(c) => w.push(c),
                        None => return Err(WordsError("a \" is not closed")),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => return Err(WordsError("a \\ ends the program: nothing follows it")),
            },
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn reads_every_key() {
        let s = EngineSpec::parse(
            &words("cmd=/bin/e name=A arg=-x arg=y option.Hash=32 nodes=500 timeout=250"),
            Path::new("engine"),
        )
        .unwrap();
        assert_eq!(s.name, "A");
        assert_eq!(s.args, ["-x", "y"]);
        assert_eq!(s.options, [("Hash".to_string(), "32".to_string())]);
        assert_eq!(s.limit, Go::Nodes(500));
        assert_eq!(s.go_budget(), Duration::from_millis(250));
    }

    #[test]
    fn boardcall_shorthand() {
        let s = EngineSpec::parse(
            &words("boardcall=python3 p.py format=python depth=2"),
            Path::new("/t/engine"),
        );
        // The value of boardcall= is one word here; the rest are other keys.
        let e = s.unwrap_err().to_string();
        assert!(e.contains("'p.py'"), "{e}");
        let s = EngineSpec::parse(
            &[
                "boardcall=python3 p.py".to_string(),
                "format=python".into(),
                "depth=2".into(),
            ],
            Path::new("/t/engine"),
        )
        .unwrap();
        assert_eq!(s.program, Path::new("/t/engine"));
        assert_eq!(
            s.args,
            [
                "board-call",
                "--format",
                "python",
                "--depth",
                "2",
                "--",
                "python3",
                "p.py"
            ]
        );
        assert_eq!(s.name, "p.py");
        // A board-call program gets a longer margin, unless timeout= says otherwise.
        assert_eq!(s.go_budget(), BOARDCALL_TIMEOUT);
        assert!(BOARDCALL_TIMEOUT >= Duration::from_secs(60));
        let s = EngineSpec::parse(
            &["boardcall=./p".to_string(), "timeout=2500".into()],
            Path::new("/t/engine"),
        )
        .unwrap();
        assert_eq!(s.go_budget(), Duration::from_millis(2500));
        let s = EngineSpec::parse(&words("cmd=./p"), Path::new("/t/engine")).unwrap();
        assert_eq!(s.go_budget(), DEFAULT_TIMEOUT);
    }

    #[test]
    fn boardcall_program_with_blanks() {
        let s = EngineSpec::parse(
            &["boardcall=python3 -u '/my games/a b.py'".to_string()],
            Path::new("/t/engine"),
        )
        .unwrap();
        assert_eq!(
            s.args,
            ["board-call", "--", "python3", "-u", "/my games/a b.py"]
        );
        assert_eq!(s.name, "a b.py");
        let e = EngineSpec::parse(
            &["boardcall=python3 'my games/a.py".to_string()],
            Path::new("/t/engine"),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "--engine: 'boardcall=python3 'my games/a.py': a ' is not closed"
        );
        let e = EngineSpec::parse(&["boardcall= ".to_string()], Path::new("e")).unwrap_err();
        assert!(e.to_string().contains("the program is empty"), "{e}");
    }

    #[test]
    fn words_split_as_a_shell_does() {
        let split = |t: &str| split_words(t).unwrap();
        assert_eq!(split("  a  b\tc "), ["a", "b", "c"]);
        assert_eq!(split(r#"a\ b 'c d' "e f""#), ["a b", "c d", "e f"]);
        assert_eq!(split(r#"x'y z'"w""#), ["xy zw"]);
        assert_eq!(split(r#"'' """#), ["", ""]);
        assert_eq!(split(r#""a \" \\ \n" 'b\'"#), [r#"a " \ \n"#, r"b\"]);
        assert!(split("").is_empty());
        assert_eq!(split_words(r#"a "b"#).unwrap_err().0, "a \" is not closed");
        assert_eq!(
            split_words(r"a\").unwrap_err().0,
            r"a \ ends the program: nothing follows it"
        );
    }

    #[test]
    fn bad_words_are_named() {
        let e = EngineSpec::parse(&words("cmd=x depth=0"), Path::new("e")).unwrap_err();
        assert!(e.to_string().contains("depth=0"), "{e}");
        let e = EngineSpec::parse(&words("name=x"), Path::new("e")).unwrap_err();
        assert!(e.to_string().contains("no cmd="), "{e}");
        let e = EngineSpec::parse(&words("cmd=x colour=red"), Path::new("e")).unwrap_err();
        assert!(e.to_string().contains("unknown key 'colour'"), "{e}");
        let e = EngineSpec::parse(&words("cmd=x tc=10+0.1 depth=3"), Path::new("e")).unwrap_err();
        assert!(e.to_string().contains("either tc="), "{e}");
        let e = EngineSpec::parse(&words("cmd=x tc=fast"), Path::new("e")).unwrap_err();
        assert!(e.to_string().contains("tc=fast"), "{e}");
        let e = EngineSpec::parse(&words("cmd=x timemargin=-5"), Path::new("e")).unwrap_err();
        assert!(e.to_string().contains("timemargin=-5"), "{e}");
    }

    #[test]
    fn time_control_and_margin() {
        let s =
            EngineSpec::parse(&words("cmd=x tc=40/60+0.6 timemargin=0"), Path::new("e")).unwrap();
        assert_eq!(s.tc.map(|t| t.to_string()).as_deref(), Some("40/60+0.6"));
        assert_eq!(s.timemargin, Duration::ZERO);
        let s = EngineSpec::parse(&words("cmd=x timemargin=50"), Path::new("e")).unwrap();
        assert_eq!((s.tc, s.timemargin), (None, Duration::from_millis(50)));
    }
}
