//! A class's report from its game records (of one run or of merged shards): the standings, and
//! per submission its score, faults by name, time per move and first failure.

use super::*;

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

    /// The mean milliseconds a move, one decimal (`12.5`), or `-` where no move was timed.
    pub fn ms_per_move(&self) -> String {
        if self.timed_moves == 0 {
            "-".to_string()
        } else {
            format!("{:.1}", self.think_ms as f64 / self.timed_moves as f64)
        }
    }
}

/// The standings and each submission's results, from records.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassReport {
    /// Wins, losses and draws (names in [`by_name`] order).
    pub standings: Standings,
    /// Per submission, in the order of `standings.names`.
    pub entries: Vec<Entry>,
    /// Games counted.
    pub games: usize,
}

/// The order of students' names in reports: case-insensitive (`alice` before `Bob`), then
/// byte by byte, so that names differing only in case keep one order.
pub fn by_name(a: &str, b: &str) -> std::cmp::Ordering {
    a.to_lowercase()
        .cmp(&b.to_lowercase())
        .then_with(|| a.cmp(b))
}

/// The fault of a finished game's record: the board-call fault named in its reason, else the
/// referee's `Fault` tag.
pub(super) fn fault_name(record: &GameRecord) -> Option<String> {
    let reason = record.tag("Reason").unwrap_or("");
    if let Some(f) = Fault::find_in(reason) {
        return Some(f.as_str().to_string());
    }
    record.tag("Fault").map(str::to_string)
}

/// The board before the last move was asked for: the record replayed.
pub(super) fn last_board(record: &GameRecord) -> Option<String> {
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
pub(super) fn start_side(record: &GameRecord) -> Side {
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
        let mut names: Vec<String> = names.into_iter().map(str::to_string).collect();
        names.sort_by(|a, b| by_name(a, b));
        let index = |n: &str| {
            names
                .binary_search_by(|m| by_name(m, n))
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
            let per_move = e.ms_per_move();
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
