//! A class of submissions: every seed function (or seed-shaped program) in a folder plays every
//! other, both colours, through the board-call adapter under limits ([`crate::adapter::ResourceLimits`]).
//!
//! - [`discover`]: the submissions of a folder, by extension, with the function's name given or
//!   found from the seed's names.
//! - [`engines`]: each submission as an [`EngineSpec`] running `engine board-call`.
//! - [`shard`]: the K-th of N slices of the deterministic schedule.
//! - [`ClassReport`]: from game records (of one run or of merged shards): the standings, and per
//!   submission its score, faults by name, time per move and first failure.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::ArenaError;
use super::game::GameOutcome;
use super::schedule::GameJob;
use super::spec::EngineSpec;
use super::table::Standings;
use crate::adapter::Fault;
use crate::adapter::{Language, seed_function};
use crate::games::format::{Format, print_board};
use crate::games::{Game, GameKind, Side};
use crate::protocol::{Go, readable, shown};
use crate::record::{GameRecord, RecordResult};
use crate::with_game;

/// The most players a report of records takes: its table of pairings grows with their square.
pub const MAX_PLAYERS: usize = 2000;

/// The record tags with the time each side's engine took over its moves, in milliseconds.
pub const THINK_TAGS: [&str; 2] = ["WhiteThinkMs", "BlackThinkMs"];

/// The margin, beyond the move timeout, after which the referee counts a submission's adapter
/// as stalled: loading (and compiling a Haskell file) is not a move, and the adapter enforces
/// the move timeout itself.
pub const LOAD_MARGIN: Duration = Duration::from_secs(600);

/// One submission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    /// Its name in tables: the file name.
    pub name: String,
    /// The file.
    pub file: PathBuf,
    /// `FILE:FUNCTION` for a function, `None` for an executable program.
    pub function: Option<String>,
}

/// The submissions in `dir`, sorted by file name: `.py`, `.hs`, `.lisp` (`.lsp`, `.cl`) files
/// whose function is `function` or the seed's name for `game`, and executable files. Also the
/// files left out, each with the reason.
pub fn discover(
    dir: &Path,
    game: GameKind,
    function: Option<&str>,
) -> Result<(Vec<Submission>, Vec<String>), ArenaError> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| ArenaError::Config(format!("cannot read {}: {e}", dir.display())))?;
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    let mut subs = Vec::new();
    let mut skipped = Vec::new();
    for file in files {
        let name = file
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        if name.starts_with('.') {
            continue;
        }
        let file = std::path::absolute(&file).unwrap_or(file);
        if let Some(lang) = Language::of(&file) {
            let found = match function {
                Some(f) => Some(f.to_string()),
                None => match std::fs::read_to_string(&file) {
                    Ok(text) => seed_function(game, lang, &text),
                    Err(e) => {
                        skipped.push(format!("{name}: cannot read it: {e}"));
                        continue;
                    }
                },
            };
            match found {
                Some(f) => subs.push(Submission {
                    function: Some(format!("{}:{f}", file.display())),
                    name,
                    file,
                }),
                None => skipped.push(format!(
                    "{name}: defines none of the seed's function names for {} (give --function)",
                    game.name()
                )),
            }
        } else if is_executable(&file) {
            subs.push(Submission {
                name,
                file,
                function: None,
            });
        } else {
            skipped.push(format!(
                "{name}: not .py, .hs, .lisp or an executable program"
            ));
        }
    }
    if subs.len() < 2 {
        return Err(ArenaError::Config(format!(
            "{} holds {} submission(s); a class needs at least two{}",
            dir.display(),
            subs.len(),
            if skipped.is_empty() {
                String::new()
            } else {
                format!(" (left out: {})", skipped.join("; "))
            }
        )));
    }
    Ok((subs, skipped))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

/// How the submissions run: `engine board-call` options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassLimits {
    /// The depth passed to every function.
    pub depth: u32,
    /// Milliseconds a move may take.
    pub move_timeout_ms: u64,
    /// CPU seconds of a driver (one game).
    pub cpu: u64,
    /// MiB of address space.
    pub memory: u64,
    /// Processes of a submission's group.
    pub processes: u64,
    /// The board format of executable programs.
    pub format: String,
    /// Start a driver per move instead of per game.
    pub no_reuse: bool,
    /// Run the submissions without the sandbox (`--no-sandbox`).
    pub no_sandbox: bool,
}

/// The engines of the class: `engine_exe board-call` with the limits, for each submission (an
/// executable program with `--limited`, so that it runs under them as a function does).
pub fn engines(subs: &[Submission], engine_exe: &Path, limits: &ClassLimits) -> Vec<EngineSpec> {
    subs.iter()
        .map(|s| {
            let mut args: Vec<String> = vec![
                "board-call".into(),
                "--depth".into(),
                limits.depth.to_string(),
                "--move-timeout".into(),
                limits.move_timeout_ms.to_string(),
                "--cpu".into(),
                limits.cpu.to_string(),
                "--memory".into(),
                limits.memory.to_string(),
                "--processes".into(),
                limits.processes.to_string(),
            ];
            if limits.no_reuse {
                args.push("--no-reuse".into());
            }
            if limits.no_sandbox {
                args.push("--no-sandbox".into());
            }
            match &s.function {
                Some(f) => args.extend(["--".to_string(), f.clone()]),
                None => args.extend([
                    "--limited".to_string(),
                    "--format".to_string(),
                    limits.format.clone(),
                    "--".to_string(),
                    s.file.to_string_lossy().into_owned(),
                ]),
            }
            EngineSpec {
                name: s.name.clone(),
                program: engine_exe.to_path_buf(),
                args,
                options: Vec::new(),
                limit: Go::Depth(limits.depth),
                timeout: Duration::from_millis(limits.move_timeout_ms) + LOAD_MARGIN,
                tc: None,
                timemargin: Duration::ZERO,
            }
        })
        .collect()
}

/// Reads `K/N` (1 <= K <= N).
pub fn parse_shard(text: &str) -> Result<(usize, usize), ArenaError> {
    let bad = || ArenaError::Config(format!("--shard '{text}': expected K/N with 1 <= K <= N"));
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (k, n) = (
        k.trim().parse::<usize>().map_err(|_| bad())?,
        n.trim().parse::<usize>().map_err(|_| bad())?,
    );
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// The K-th of N slices of a schedule: the games whose number is K modulo N (games 1, 1 + N,
/// ... for K = 1), so that every slice gets a share of each round. The games keep their
/// numbers, openings and colours.
pub fn shard(jobs: Vec<GameJob>, k: usize, n: usize) -> Vec<GameJob> {
    jobs.into_iter()
        .filter(|j| (j.number - 1) % n == k - 1)
        .collect()
}

/// A game's record with the thinking times as tags ([`THINK_TAGS`]).
pub fn timed_record(outcome: &GameOutcome) -> GameRecord {
    let mut record = outcome.record.clone();
    for (tag, took) in THINK_TAGS.iter().zip(outcome.thinking) {
        record
            .tags
            .push((tag.to_string(), took.as_millis().to_string()));
    }
    record
}

/// A submission's first failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The game's number.
    pub game: usize,
    /// The fault's name (a board-call fault such as `memory`, else the referee's: `crash`,
    /// `stall`, ...).
    pub fault: String,
    /// The board it was to move on (slash format), when the record replays.
    pub board: Option<String>,
    /// The referee's reason, with the program's own message.
    pub message: String,
}

/// One submission's results.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Entry {
    /// Games played.
    pub games: u64,
    /// Points (a draw is half).
    pub points: f64,
    /// Games lost by a fault, by the fault's name.
    pub faults: BTreeMap<String, u64>,
    /// Moves made, and the milliseconds they took, where the records say.
    pub timed_moves: u64,
    /// Milliseconds over those moves.
    pub think_ms: u64,
    /// The first failure (by game number).
    pub first_failure: Option<Failure>,
}

impl Entry {
    /// Lost games by faults whose names are in `names`.
    pub fn count(&self, names: &[&str]) -> u64 {
        names
            .iter()
            .map(|n| self.faults.get(*n).copied().unwrap_or(0))
            .sum()
    }
}

/// The standings and each submission's results, from records.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassReport {
    /// Wins, losses and draws (names sorted).
    pub standings: Standings,
    /// Per submission, in the order of `standings.names`.
    pub entries: Vec<Entry>,
    /// Games counted.
    pub games: usize,
}

/// The fault of a finished game's record: the board-call fault named in its reason, else the
/// referee's `Fault` tag.
fn fault_name(record: &GameRecord) -> Option<String> {
    let reason = record.tag("Reason").unwrap_or("");
    if let Some(f) = Fault::find_in(reason) {
        return Some(f.as_str().to_string());
    }
    record.tag("Fault").map(str::to_string)
}

/// The board before the last move was asked for: the record replayed.
fn last_board(record: &GameRecord) -> Option<String> {
    with_game!(record.game, G => {
        record.replay::<G>().ok().and_then(|lines| {
            lines
                .last()
                .map(|l| {
                    let pos = l.current();
                    format!(
                        "{} {}",
                        print_board(pos, &Format::Slash),
                        pos.side_to_move().letter()
                    )
                })
        })
    })
}

/// Who moves first in a record (White when the start does not read).
fn start_side(record: &GameRecord) -> Side {
    with_game!(record.game, G => {
        record
            .start
            .line::<G>(record.size)
            .map_or(Side::White, |l| l.current().side_to_move())
    })
}

impl ClassReport {
    /// The report of `records` (one run, or shards merged). A game that appears twice (the same
    /// `GameNumber` with the same players) is an error: shards must not overlap; so are more
    /// than [`MAX_PLAYERS`] players.
    pub fn from_records(records: &[GameRecord]) -> Result<ClassReport, ArenaError> {
        let names: BTreeSet<&str> = records
            .iter()
            .flat_map(|r| [r.white.as_str(), r.black.as_str()])
            .collect();
        if names.len() > MAX_PLAYERS {
            return Err(ArenaError::Config(format!(
                "the records name {} players; a report takes at most {MAX_PLAYERS}",
                names.len()
            )));
        }
        let names: Vec<String> = names.into_iter().map(str::to_string).collect();
        // Sorted, as collected from the set.
        let index = |n: &str| {
            names
                .binary_search_by(|m| m.as_str().cmp(n))
                .expect("collected above")
        };
        let mut standings = Standings::new(names.clone());
        let mut entries = vec![Entry::default(); names.len()];
        let mut seen = BTreeSet::new();
        let mut sorted: Vec<&GameRecord> = records.iter().collect();
        let number = |r: &GameRecord| r.tag("GameNumber").and_then(|n| n.parse::<usize>().ok());
        sorted.sort_by_key(|r| number(r).unwrap_or(usize::MAX));
        let mut games = 0;
        for r in sorted {
            if r.result == RecordResult::Unfinished {
                continue;
            }
            if let Some(n) = number(r)
                && !seen.insert((n, r.white.clone(), r.black.clone()))
            {
                return Err(ArenaError::Config(format!(
                    "game {n} ({} vs {}) appears twice: do the record files overlap?",
                    r.white, r.black
                )));
            }
            games += 1;
            let (w, b) = (index(&r.white), index(&r.black));
            let white_won = match r.result {
                RecordResult::White => Some(true),
                RecordResult::Black => Some(false),
                _ => None,
            };
            standings.add(w, b, white_won);
            let (wp, bp) = match white_won {
                Some(true) => (1.0, 0.0),
                Some(false) => (0.0, 1.0),
                None => (0.5, 0.5),
            };
            let white_first = start_side(r);
            let plies = r.moves.len() as u64;
            let first_plies = plies.div_ceil(2);
            let (w_moves, b_moves) = if white_first == Side::White {
                (first_plies, plies / 2)
            } else {
                (plies / 2, first_plies)
            };
            for (i, (idx, pts, made)) in
                [(w, wp, w_moves), (b, bp, b_moves)].into_iter().enumerate()
            {
                let e = &mut entries[idx];
                e.games += 1;
                e.points += pts;
                if let Some(ms) = r.tag(THINK_TAGS[i]).and_then(|t| t.parse::<u64>().ok()) {
                    e.think_ms += ms;
                    e.timed_moves += made;
                }
            }
            if let Some(fault) = fault_name(r) {
                // The side that failed lost.
                let loser = match r.result {
                    RecordResult::White => b,
                    RecordResult::Black => w,
                    _ => continue,
                };
                let e = &mut entries[loser];
                *e.faults.entry(fault.clone()).or_insert(0) += 1;
                if e.first_failure.is_none() {
                    e.first_failure = Some(Failure {
                        game: number(r).unwrap_or(0),
                        fault,
                        board: last_board(r),
                        message: r.tag("Reason").unwrap_or("").to_string(),
                    });
                }
            }
        }
        Ok(ClassReport {
            standings,
            entries,
            games,
        })
    }

    /// The table of submissions (in standings order): games, score, illegal moves (and boards
    /// that are none), crashes (exceptions, crashes, failed loads), timeouts, limits (memory,
    /// CPU, processes, output), milliseconds per move. Names are escaped with [`shown`].
    pub fn table(&self) -> String {
        let names: Vec<_> = self.standings.names.iter().map(|n| shown(n)).collect();
        let mut order: Vec<usize> = (0..self.entries.len()).collect();
        order.sort_by(|&a, &b| {
            self.entries[b]
                .points
                .total_cmp(&self.entries[a].points)
                .then(a.cmp(&b))
        });
        let width = names.iter().map(|n| n.len()).max().unwrap_or(4).max(10);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<width$} {:>6} {:>7} {:>7} {:>7} {:>8} {:>7} {:>9}",
            "Submission", "Games", "Score", "Illegal", "Crashes", "Timeouts", "Limits", "ms/move"
        );
        for i in order {
            let e = &self.entries[i];
            let score = if e.games == 0 {
                0.0
            } else {
                100.0 * e.points / e.games as f64
            };
            let per_move = if e.timed_moves == 0 {
                "-".to_string()
            } else {
                format!("{:.1}", e.think_ms as f64 / e.timed_moves as f64)
            };
            let _ = writeln!(
                out,
                "{:<width$} {:>6} {:>6.1}% {:>7} {:>7} {:>8} {:>7} {:>9}",
                names[i],
                e.games,
                score,
                e.count(&["illegal", "no board", "illegal move", "protocol violation"]),
                e.count(&["exception", "crash", "load", "failed start"]),
                e.count(&["timeout", "stall"]),
                e.count(&["memory", "cpu", "processes", "output"]),
                per_move
            );
        }
        out.truncate(out.trim_end().len());
        out
    }

    /// Each submission's faults by name and its first failure, with the board and the
    /// program's own message; nothing for a submission without failure. Every text from a
    /// record (names, fault, message) is escaped with [`shown`], the message after its
    /// escapes are read back ([`readable`]: a compiler's curly quotes are shown as such).
    pub fn failures(&self) -> String {
        let mut out = String::new();
        for (i, e) in self.entries.iter().enumerate() {
            let Some(f) = &e.first_failure else { continue };
            let counts: Vec<String> = e
                .faults
                .iter()
                .map(|(k, v)| format!("{} {v}", shown(k)))
                .collect();
            let _ = writeln!(
                out,
                "{}: lost {} by faults ({})",
                shown(&self.standings.names[i]),
                e.faults.values().sum::<u64>(),
                counts.join(", ")
            );
            let _ = writeln!(
                out,
                "  first: game {}, [{}]{}",
                f.game,
                shown(&f.fault),
                f.board
                    .as_ref()
                    .map_or_else(String::new, |b| format!(" on {b}"))
            );
            let _ = writeln!(out, "  {}", readable(&f.message));
        }
        out.truncate(out.trim_end().len());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_schedule() {
        let jobs: Vec<GameJob> = (1..=10)
            .map(|n| GameJob {
                number: n,
                round: 1,
                pair: (0, 1),
                white: 0,
                black: 1,
                opening: 0,
            })
            .collect();
        let mut all: Vec<usize> = (1..=3)
            .flat_map(|k| shard(jobs.clone(), k, 3))
            .map(|j| j.number)
            .collect();
        all.sort_unstable();
        assert_eq!(all, (1..=10).collect::<Vec<_>>());
        assert_eq!(
            shard(jobs, 2, 3)
                .iter()
                .map(|j| j.number)
                .collect::<Vec<_>>(),
            [2, 5, 8]
        );
        assert_eq!(parse_shard("2/5").unwrap(), (2, 5));
        for bad in ["0/3", "4/3", "x", "1/0", "1/"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }
}
