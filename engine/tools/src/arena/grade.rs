//! Exact grading of a class: for every position a submission moved in where the game is solved
//! (by the tablebases where they cover it, else by the exact solver within a node budget),
//! whether its move kept the value: a won position thrown away (to a draw or a loss), a drawn
//! position lost. Beside each student, our engine searching the same positions to the class's
//! depth (the reference). The judgment of a move and the reference's search are those of
//! `engine-tune blunders` ([`crate::tuning::blunders`]), so the reference's figures equal that
//! tool's on the set of the graded positions ([`Grading::set`]).
//!
//! Everything is read from the game records (start, moves, players, and the `Depth` tag that
//! `arena class` writes), so a class can be graded after the fact from its record files.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::ArenaError;
use crate::tuning::blunders::{blunders_in, thrown_away};
use crate::tuning::positions::{Labelled, Wdl, label, write};
use boardgames_core::eval::{EvalKind, Evaluate};
use boardgames_core::exact::ExactSolver;
use boardgames_core::games::format::slash;
use boardgames_core::games::notation::{move_name, parse_move};
use boardgames_core::games::{Game, GameKind, Line, Move, Side};
use boardgames_core::protocol::shown;
use boardgames_core::record::{GameRecord, RecordResult};
use boardgames_core::score::Score;
use boardgames_core::with_game;

/// The tag of a class record that holds the depth every function was called with.
pub const DEPTH_TAG: &str = "Depth";

/// The default node budget of one exact solve when grading.
pub const DEFAULT_NODES: u64 = 2_000_000;

/// The evaluator of the reference engine (our engine's default).
pub const REFERENCE: EvalKind = EvalKind::Tuned;

/// How to grade.
#[derive(Clone, Debug)]
pub struct GradeSettings {
    /// The depth of the reference engine; `None`: the records' `Depth` tag.
    pub depth: Option<u32>,
    /// The most nodes one exact solve may take; a position that needs more is left ungraded.
    pub nodes: u64,
    /// A tablebase directory (see `engine tablebase`) the solver probes.
    pub tablebase: Option<PathBuf>,
    /// The solver's transposition table, MiB.
    pub hash_mib: usize,
    /// A wall-clock budget for the whole grading: positions not reached within it are left
    /// ungraded (and counted); `None`: no limit, so that the grading depends on the records
    /// alone.
    pub seconds: Option<f64>,
}

/// Counts of one player's moves in solved positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Won positions moved in.
    pub won: usize,
    /// Won positions whose move threw the win away.
    pub won_thrown: usize,
    /// Drawn positions moved in.
    pub drawn: usize,
    /// Drawn positions whose move lost.
    pub drawn_lost: usize,
    /// Critical positions (where some move throws the value away), as `engine-tune blunders`
    /// counts them.
    pub critical: usize,
}

impl Tally {
    /// Moves that threw the value away.
    pub fn blunders(&self) -> usize {
        self.won_thrown + self.drawn_lost
    }

    /// The three shares of the grading's tables ([`share`]): the won positions thrown away, the
    /// drawn ones lost, and the blunders among the critical positions.
    pub fn shares(&self) -> [String; 3] {
        [
            share(self.won_thrown, self.won),
            share(self.drawn_lost, self.drawn),
            share(self.blunders(), self.critical),
        ]
    }

    fn count(&mut self, pos_value: Score, thrown: bool) {
        match Wdl::of(pos_value) {
            Some(Wdl::Win) => {
                self.won += 1;
                self.won_thrown += usize::from(thrown);
            }
            Some(Wdl::Draw) => {
                self.drawn += 1;
                self.drawn_lost += usize::from(thrown);
            }
            _ => {}
        }
    }
}

/// A game's `GameNumber` tag, if it has a valid one.
fn game_number(r: &GameRecord) -> Option<usize> {
    r.tag("GameNumber").and_then(|n| n.parse::<usize>().ok())
}

/// The finished games of `records` (all but the unfinished), in the order of their numbers
/// (`GameNumber`; games without one last, in the order given).
pub fn finished_by_number(records: &[GameRecord]) -> Vec<&GameRecord> {
    let mut games: Vec<&GameRecord> = records
        .iter()
        .filter(|r| r.result != RecordResult::Unfinished)
        .collect();
    games.sort_by_key(|r| game_number(r).unwrap_or(usize::MAX));
    games
}

/// `part` of `whole` as `3/20 15.0%`, or `-` when `whole` is 0.
pub fn share(part: usize, whole: usize) -> String {
    if whole == 0 {
        "-".to_string()
    } else {
        format!("{part}/{whole} {:.1}%", 100.0 * part as f64 / whole as f64)
    }
}

/// A move that threw a value away, with its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadMove {
    /// The game's number (`GameNumber` tag; 0 when missing).
    pub game: usize,
    /// The move's number in the game, from 1.
    pub ply: usize,
    /// The board before the move, in the `/`-joined rows of the protocol.
    pub board: String,
    /// The side to move.
    pub side: Side,
    /// The move played.
    pub played: String,
    /// The exact value of the position for the mover.
    pub value: Score,
    /// The exact value the played move kept.
    pub keeps: Score,
    /// A move that kept the value.
    pub best: String,
}

impl BadMove {
    /// How bad: 2 for a win thrown to a loss, 1 for a win to a draw or a draw to a loss; then
    /// the sooner the loss, the worse.
    fn badness(&self) -> (u8, i64) {
        let drop = match (Wdl::of(self.value), Wdl::of(self.keeps)) {
            (Some(Wdl::Win), Some(Wdl::Loss)) => 2,
            _ => 1,
        };
        let soon = match self.keeps {
            Score::Loss(k) => -i64::from(k),
            _ => i64::MIN,
        };
        (drop, soon)
    }

    /// The move in words: `game 2, move 22, black to move wins in 5 plies: played a3a2, which
    /// loses in 6 plies; d5b3 keeps the win` (moves escaped with [`shown`]).
    pub fn words(&self) -> String {
        format!(
            "game {}, move {}, {} to move {}: played {}, which {}; {} keeps the {}",
            self.game,
            self.ply,
            self.side.name(),
            value_words(self.value),
            shown(&self.played),
            value_words(self.keeps),
            shown(&self.best),
            match Wdl::of(self.value) {
                Some(Wdl::Win) => "win",
                _ => "draw",
            },
        )
    }

    /// [`BadMove::words`] and the board as text ([`diagram`]) below.
    pub fn describe(&self) -> String {
        format!("{}\n{}", self.words(), diagram(&self.board))
    }
}

/// An exact value for the side to move, in words: `wins in 5 plies`, `draws`, `loses in 4
/// plies`.
pub fn value_words(s: Score) -> String {
    match s {
        Score::Win(k) => format!("wins in {k} plies"),
        Score::Loss(k) => format!("loses in {k} plies"),
        Score::Draw => "draws".into(),
        Score::Cp(v) => format!("is not solved ({v} cp)"),
    }
}

/// A board of `/`-joined rows drawn as text: one line a row, numbered as moves name them (row
/// 1 first, White's home row), squares apart (a square's letter is its place in its row, `a` the
/// first), rows centred (so an Oska board shows its shape), `.` an empty square.
pub fn diagram(board: &str) -> String {
    let rows: Vec<&str> = board.split('/').collect();
    let widest = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    let mut out = String::new();
    for (i, r) in rows.iter().enumerate() {
        let n = r.chars().count();
        let cells: Vec<String> = r
            .chars()
            .map(|c| if c == '-' { '.' } else { c }.to_string())
            .collect();
        let _ = writeln!(
            out,
            "  {:>2}  {}{}",
            i + 1,
            " ".repeat(widest - n),
            cells.join(" ")
        );
    }
    out.truncate(out.trim_end().len());
    out
}

/// One student's grading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StudentGrade {
    /// The submission's name.
    pub name: String,
    /// Distinct positions (with the move played) it moved in.
    pub moved: usize,
    /// Of those, the solved ones (graded).
    pub solved: usize,
    /// Its moves.
    pub own: Tally,
    /// The reference engine's moves in the same positions.
    pub reference: Tally,
    /// Its worst move, if it threw any value away.
    pub worst: Option<BadMove>,
}

/// The grading of a class.
#[derive(Clone, Debug, PartialEq)]
pub struct Grading {
    /// The game.
    pub game: GameKind,
    /// Its size.
    pub size: usize,
    /// The reference engine's depth.
    pub depth: u32,
    /// The node budget of a solve.
    pub nodes: u64,
    /// The tablebase directory probed, if any.
    pub tablebase: Option<PathBuf>,
    /// Per student, by name.
    pub students: Vec<StudentGrade>,
    /// The graded positions as a set of `engine-tune` (one line a student's distinct position,
    /// each student's in turn): `engine-tune blunders` on it gives the reference's figures.
    pub set: String,
    /// Seconds the grading took.
    pub seconds: f64,
    /// The wall-clock budget, when one was given.
    pub budget: Option<f64>,
    /// Positions left ungraded because the budget was spent before they were reached.
    pub out_of_time: usize,
}

/// A key of a line: its position and the earlier boards that count for the rules.
fn key<G: Game>(line: &Line<G>) -> u64 {
    line.earlier()
        .iter()
        .fold(Game::hash(line.current()), |h, p| {
            h.rotate_left(7) ^ p.board_hash()
        })
}

/// The game, size and depth of the records, checked to be one of each.
fn settings_of(
    records: &[GameRecord],
    depth: Option<u32>,
) -> Result<(GameKind, usize, u32), ArenaError> {
    let first = records
        .iter()
        .find(|r| r.result != RecordResult::Unfinished)
        .ok_or_else(|| ArenaError::Config("--grade: the records hold no finished game".into()))?;
    if let Some(r) = records
        .iter()
        .find(|r| r.game != first.game || r.size != first.size)
    {
        return Err(ArenaError::Config(format!(
            "--grade: the records mix {} {} and {} {}: grade one game at a time",
            first.game, first.size, r.game, r.size
        )));
    }
    let depth = match depth {
        Some(d) => d,
        None => {
            let tags: HashSet<&str> = records.iter().filter_map(|r| r.tag(DEPTH_TAG)).collect();
            let mut tags: Vec<&str> = tags.into_iter().collect();
            tags.sort_unstable();
            match tags.as_slice() {
                [one] => one.parse::<u32>().ok().filter(|&d| d > 0).ok_or_else(|| {
                    ArenaError::Config(format!(
                        "--grade: the records' {DEPTH_TAG} tag '{}' is not a depth",
                        shown(one)
                    ))
                })?,
                [] => {
                    return Err(ArenaError::Config(format!(
                        "--grade: the records have no {DEPTH_TAG} tag (records of arena class \
                         have it): give the depth the functions were called with, --depth N"
                    )));
                }
                many => {
                    return Err(ArenaError::Config(format!(
                        "--grade: the records were played at depths {}: give one with --depth N",
                        many.join(", ")
                    )));
                }
            }
        }
    };
    Ok((first.game, first.size, depth))
}

/// Grades the finished games of `records` (one game and size). `progress` is called with the
/// positions done and the positions to do.
pub fn grade(
    records: &[GameRecord],
    settings: &GradeSettings,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Grading, ArenaError> {
    let (game, size, depth) = settings_of(records, settings.depth)?;
    let started = Instant::now();
    let (students, set, out_of_time) =
        with_game!(game, G => grade_of::<G>(records, size, depth, settings, progress))?;
    Ok(Grading {
        game,
        size,
        depth,
        nodes: settings.nodes,
        tablebase: settings.tablebase.clone(),
        students,
        set,
        seconds: started.elapsed().as_secs_f64(),
        budget: settings.seconds,
        out_of_time,
    })
}

/// One student's distinct decisions: the line before the move, the move, and where it was
/// played (game number, ply from 1).
type Decisions<G> = Vec<(Line<G>, Move, usize, usize)>;

fn grade_of<G: Game + Evaluate>(
    records: &[GameRecord],
    size: usize,
    depth: u32,
    settings: &GradeSettings,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<(Vec<StudentGrade>, String, usize), ArenaError> {
    // Each student's decisions, each distinct (position, move) once, in game order.
    let mut names: Vec<String> = records
        .iter()
        .flat_map(|r| [r.white.clone(), r.black.clone()])
        .collect();
    names.sort_by(|a, b| super::class::by_name(a, b));
    names.dedup();
    let mut decisions: Vec<Decisions<G>> = names.iter().map(|_| Vec::new()).collect();
    let mut seen: Vec<HashSet<(u64, Move)>> = names.iter().map(|_| HashSet::new()).collect();
    for r in finished_by_number(records) {
        let lines = r.replay::<G>().map_err(|e| {
            ArenaError::Config(format!(
                "--grade: game {} ({} vs {}) does not replay: {e}",
                game_number(r).unwrap_or(0),
                shown(&r.white),
                shown(&r.black)
            ))
        })?;
        for (i, text) in r.moves.iter().enumerate() {
            let line = &lines[i];
            let mv = parse_move(line, text).map_err(|e| {
                ArenaError::Config(format!("--grade: move {} '{}': {e}", i + 1, shown(text)))
            })?;
            let mover = match line.current().side_to_move() {
                Side::White => &r.white,
                Side::Black => &r.black,
            };
            let s = names
                .binary_search_by(|n| super::class::by_name(n, mover))
                .expect("collected above");
            if seen[s].insert((key(line), mv)) {
                decisions[s].push((line.clone(), mv, game_number(r).unwrap_or(0), i + 1));
            }
        }
    }
    let total: usize = decisions.iter().map(Vec::len).sum();
    let probe = match &settings.tablebase {
        Some(dir) => boardgames_core::tablebase::probe_for::<G>(
            dir,
            size,
            boardgames_core::tablebase::MEMORY_LIMIT,
        )
        .map_err(|e| ArenaError::Config(format!("--tablebase: {e}")))?,
        None => None,
    };
    let mut solver = ExactSolver::<G>::new(settings.hash_mib, probe);
    // Labelled positions are solved once, whoever moved in them.
    let mut labelled: std::collections::HashMap<u64, Option<Labelled<G>>> =
        std::collections::HashMap::new();
    let mut done = 0;
    let mut out_of_time = 0;
    let started = Instant::now();
    let mut out = Vec::new();
    let mut set: Vec<Labelled<G>> = Vec::new();
    for (s, name) in names.iter().enumerate() {
        let mut own = Tally::default();
        let mut graded: Vec<Labelled<G>> = Vec::new();
        let mut worst: Option<BadMove> = None;
        for (line, mv, game_no, ply) in &decisions[s] {
            let spent = settings
                .seconds
                .is_some_and(|b| started.elapsed().as_secs_f64() >= b);
            let pos = match labelled.get(&key(line)) {
                Some(known) => known.clone(),
                None if spent => {
                    out_of_time += 1;
                    None
                }
                None => {
                    let l = label(&mut solver, line, settings.nodes);
                    labelled.insert(key(line), l.clone());
                    l
                }
            };
            done += 1;
            progress(done, total);
            let Some(pos) = pos else { continue };
            let thrown = thrown_away(&pos, *mv);
            own.count(pos.value, thrown.is_some());
            own.critical += usize::from(pos.critical());
            if let Some(keeps) = thrown {
                let best = pos
                    .moves
                    .iter()
                    .find(|&&(_, v)| Wdl::of(v) == Wdl::of(pos.value))
                    .map_or_else(String::new, |&(m, _)| move_name(pos.line.current(), m));
                let bad = BadMove {
                    game: *game_no,
                    ply: *ply,
                    board: slash(pos.line.current()),
                    side: pos.line.current().side_to_move(),
                    played: move_name(pos.line.current(), *mv),
                    value: pos.value,
                    keeps,
                    best,
                };
                if worst.as_ref().is_none_or(|w| bad.badness() > w.badness()) {
                    worst = Some(bad);
                }
            }
            graded.push(pos);
        }
        // The reference: `engine-tune blunders`'s own count on the same positions.
        let (rate, found) = blunders_in(&graded, REFERENCE, depth);
        let mut reference = Tally {
            critical: rate.positions,
            ..Tally::default()
        };
        let thrown: HashSet<u64> = found.iter().map(|b| key(&b.pos.line)).collect();
        for pos in &graded {
            reference.count(pos.value, thrown.contains(&key(&pos.line)));
        }
        out.push(StudentGrade {
            name: name.clone(),
            moved: decisions[s].len(),
            solved: graded.len(),
            own,
            reference,
            worst,
        });
        set.extend(graded);
    }
    let header = [
        format!(
            "{} size {size}: the positions arena --grade graded",
            G::KIND
        ),
        format!(
            "one line a student's distinct position, each student's in turn (students: {})",
            names
                .iter()
                .map(|n| shown(n))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    ];
    Ok((out, write(&set, &header), out_of_time))
}

impl Grading {
    /// The whole class as one row: every student's counts added up (named `(all)`, no worst
    /// move).
    pub fn total(&self) -> StudentGrade {
        let add = |a: Tally, b: &Tally| Tally {
            won: a.won + b.won,
            won_thrown: a.won_thrown + b.won_thrown,
            drawn: a.drawn + b.drawn,
            drawn_lost: a.drawn_lost + b.drawn_lost,
            critical: a.critical + b.critical,
        };
        StudentGrade {
            name: "(all)".into(),
            moved: self.students.iter().map(|s| s.moved).sum(),
            solved: self.students.iter().map(|s| s.solved).sum(),
            own: self
                .students
                .iter()
                .fold(Tally::default(), |t, s| add(t, &s.own)),
            reference: self
                .students
                .iter()
                .fold(Tally::default(), |t, s| add(t, &s.reference)),
            worst: None,
        }
    }

    /// Where the exact values came from, in words.
    pub fn source(&self) -> String {
        let solver = format!("the exact solver within {} nodes a solve", self.nodes);
        match &self.tablebase {
            Some(dir) => format!("the tablebases in {} and {solver}", dir.display()),
            None => solver,
        }
    }

    /// The table: per student the positions moved in and solved, the won positions thrown
    /// away, the drawn positions lost, and the blunders among critical positions (as
    /// `engine-tune blunders` rates them); then the same for the reference engine. Names
    /// escaped with [`shown`].
    pub fn table(&self) -> String {
        let names: Vec<String> = self
            .students
            .iter()
            .map(|s| shown(&s.name).into_owned())
            .collect();
        let width = names.iter().map(|n| n.len()).max().unwrap_or(7).max(7);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Grading: {} {}, every position a student moved in (once per student) solved by {}; \
             the reference is our engine ({} evaluator) at depth {}, in the same positions",
            self.game,
            self.size,
            self.source(),
            REFERENCE.name(),
            self.depth
        );
        let _ = writeln!(
            out,
            "{:<width$} {:>6} {:>6} {:>14} {:>14} {:>14}   {:>14} {:>14} {:>14}",
            "Student",
            "Moved",
            "Solved",
            "Won thrown",
            "Drawn lost",
            "Blunders",
            "ref Won thrown",
            "ref Drawn lost",
            "ref Blunders"
        );
        let total = self.total();
        for (s, name) in self
            .students
            .iter()
            .zip(names.iter().map(String::as_str))
            .chain(std::iter::once((&total, "(all)")))
        {
            let cells = |t: &Tally| t.shares().map(|c| format!("{c:>14}")).join(" ");
            let _ = writeln!(
                out,
                "{:<width$} {:>6} {:>6} {}   {}",
                name,
                s.moved,
                s.solved,
                cells(&s.own),
                cells(&s.reference),
            );
        }
        let unsolved = total.moved - total.solved - self.out_of_time;
        if unsolved > 0 {
            let _ = writeln!(
                out,
                "{unsolved} position(s) needed more than {} nodes a solve and are not graded \
                 (--grade-nodes, --tablebase)",
                self.nodes
            );
        }
        if let (Some(b), n @ 1..) = (self.budget, self.out_of_time) {
            let _ = writeln!(
                out,
                "{n} position(s) were not reached within the budget of {b} s and are not \
                 graded (--grade-seconds)"
            );
        }
        let _ = write!(out, "Graded in {:.1} s", self.seconds);
        out
    }

    /// Each student's worst move (a won position thrown to a loss before one thrown to a draw,
    /// the sooner loss first), with the board drawn as text.
    pub fn worst_moves(&self) -> String {
        let mut out = String::new();
        for s in &self.students {
            match &s.worst {
                Some(w) => {
                    let _ = writeln!(out, "{}: {}", shown(&s.name), w.describe());
                }
                None if s.solved > 0 => {
                    let _ = writeln!(
                        out,
                        "{}: kept the value in all {} solved positions",
                        shown(&s.name),
                        s.solved
                    );
                }
                None => {}
            }
        }
        out.truncate(out.trim_end().len());
        out
    }
}

/// The directory named by `--tablebase`, else `$TABLEBASE_PATH` (when set and not empty),
/// else `./tablebases` when it is a directory, else none; a named directory must exist.
pub fn tablebase_dir(named: Option<&Path>) -> Result<Option<PathBuf>, ArenaError> {
    let named = named.map(|d| (d.to_path_buf(), "--tablebase")).or_else(|| {
        std::env::var_os("TABLEBASE_PATH")
            .filter(|v| !v.is_empty())
            .map(|v| (PathBuf::from(v), "$TABLEBASE_PATH"))
    });
    match named {
        Some((dir, _)) if dir.is_dir() => Ok(Some(dir)),
        Some((dir, what)) => Err(ArenaError::Config(format!(
            "{what} {}: not a directory",
            dir.display()
        ))),
        None => {
            let default = PathBuf::from("tablebases");
            Ok(default.is_dir().then_some(default))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diagram_centres_the_rows() {
        assert_eq!(
            diagram("wwww/---/--/---/bbbb"),
            "   1  w w w w\n   2   . . .\n   3    . .\n   4   . . .\n   5  b b b b"
        );
    }

    #[test]
    fn shares_never_divide_by_zero() {
        assert_eq!(share(0, 0), "-");
        assert_eq!(share(3, 20), "3/20 15.0%");
    }
}
