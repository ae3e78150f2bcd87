//! How an engine of a match is described on the command line: `key=value` words such as
//! `cmd=./engine name=deep depth=4 option.Hash=32 timeout=5000` or
//! `cmd=./engine tc=40/60+0.6 timemargin=50`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::protocol::Go;

use super::ArenaError;
use super::clock::TimeControl;

/// The margin added to an engine's own time limit before it counts as stalled, unless `timeout=`
/// says otherwise. It also bounds the handshake and every `isready`.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

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
    /// PROGRAM split on blanks).
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
        let mut timeout = DEFAULT_TIMEOUT;
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
                "timeout" => timeout = Duration::from_millis(number(word, value)?),
                "tc" => tc = Some(TimeControl::parse(value).map_err(|why| bad(word, why))?),
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
            let words: Vec<&str> = prog.split_whitespace().collect();
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
            a.extend(words.iter().map(|w| w.to_string()));
            a.append(&mut args);
            args = a;
            program = Some(engine_exe.to_path_buf());
            if name.is_none() {
                name = Some(words.last().copied().unwrap_or("boardcall").to_string());
            }
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
            timeout,
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
