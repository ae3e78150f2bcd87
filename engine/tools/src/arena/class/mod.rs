//! A class of submissions: every seed function (or seed-shaped program) in a folder plays every
//! other, both colours, through the board-call adapter under limits ([`crate::adapter::ResourceLimits`]).
//!
//! - [`discover`]: the submissions of a folder, by extension, with the function's name given or
//!   found from the seed's names.
//! - [`engines`]: each submission as an [`EngineSpec`] running `engine board-call`.
//! - [`shard`]: the K-th of N slices of the deterministic schedule.
//! - [`ClassReport`]: from game records (of one run or of merged shards): the standings, and per
//!   submission its score, faults by name, time per move and first failure.

mod report;

pub use report::{ClassReport, Entry, Failure, by_name, timed_record};

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::ArenaError;
use super::files::{Found, classify, read_text};
use super::game::GameOutcome;
use super::schedule::GameJob;
use super::spec::EngineSpec;
use super::table::Standings;
use crate::adapter::Fault;
use crate::adapter::{Language, defines, keeps_state, seed_function, seed_functions};
use boardgames_core::games::format::{Format, print_board};
use boardgames_core::games::{Game, GameKind, Side};
use boardgames_core::protocol::{Go, readable, shown};
use boardgames_core::record::{GameRecord, RecordResult};
use boardgames_core::with_game;

/// The most players a report of records takes: its table of pairings grows with their square.
pub const MAX_PLAYERS: usize = 2000;

/// The record tags with the time each side's engine took over its moves, in milliseconds.
pub const THINK_TAGS: [&str; 2] = ["WhiteThinkMs", "BlackThinkMs"];

/// The margin, beyond the move, load and compile timeouts (which the adapter enforces itself,
/// as the submission's faults), after which the referee counts a submission's adapter as
/// stalled.
pub const LOAD_MARGIN: Duration = Duration::from_secs(30);

/// One submission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    /// Its name in tables: the student's folder's name, or the file's name.
    pub name: String,
    /// The file.
    pub file: PathBuf,
    /// `FILE:FUNCTION` for a function, `None` for an executable program.
    pub function: Option<String>,
    /// The student's folder (absolute), for a submission in a folder of its own: visible to it
    /// read-only, and its working directory, so that helper modules beside the file import.
    pub folder: Option<PathBuf>,
    /// The language a manifest gave, when the file's extension does not say it.
    pub language: Option<Language>,
}

/// A line about one student (or one file) of a class, shown with the standings and written
/// into the records: why it does not play (no function, several, a manifest's mistake), or
/// something to know about how it plays (it keeps state between calls).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ClassNote {
    /// The student's (or the file's) name.
    pub name: String,
    /// What to know.
    pub text: String,
}

/// The name of the manifest file in a class folder: one line per student,
/// `student,file,function,language` (file relative to the folder; function and language may
/// be empty: found as without a manifest); `#` starts a comment line.
pub const MANIFEST: &str = "class.csv";

/// The submissions of a class folder and the notes on its students ([`discover`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Class {
    /// The submissions that play, sorted by name.
    pub subs: Vec<Submission>,
    /// The notes, sorted by name: students who do not play and why, files left out, students
    /// whose function keeps state.
    pub notes: Vec<ClassNote>,
}

/// One line of the manifest.
struct ManifestLine {
    /// Its line number in the manifest, from 1.
    line: usize,
    student: String,
    file: String,
    function: Option<String>,
    language: Option<String>,
}

/// Reads the manifest text: its lines, and notes on the lines it cannot read.
fn read_manifest(text: &str) -> (Vec<ManifestLine>, Vec<ClassNote>) {
    let mut lines = Vec::new();
    let mut notes = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if i == 0 && fields[0].eq_ignore_ascii_case("student") {
            continue;
        }
        let given = |k: usize| {
            fields
                .get(k)
                .filter(|f| !f.is_empty())
                .map(|f| f.to_string())
        };
        match (given(0), given(1)) {
            (Some(student), Some(file)) if fields.len() <= 4 => lines.push(ManifestLine {
                line: i + 1,
                student,
                file,
                function: given(2),
                language: given(3),
            }),
            _ => notes.push(ClassNote {
                name: MANIFEST.into(),
                text: format!(
                    "line {}: expected student,file[,function[,language]], found '{line}'",
                    i + 1
                ),
            }),
        }
    }
    (lines, notes)
}

/// The seed's names for `game`, for messages.
fn seed_names(game: GameKind) -> &'static str {
    match game {
        GameKind::Oska => "oskaplayer (Python), oska_XXXX (Haskell), oskamaniac (Lisp)",
        GameKind::Hexapawn => "hexapawn",
        GameKind::Ctf => "capture",
    }
}

/// The source files of a student's folder (and its subfolders, three levels deep; hidden ones
/// left out), sorted, with their language: each the path to read it by (a link's target inside
/// the class folder `root`) and the path it has in the folder. Entries left out (a link out of
/// the class folder, a FIFO, a device) are noted in `skipped` as `PATH: WHY`, the path relative
/// to `folder`.
fn sources(folder: &Path, root: &Path, skipped: &mut Vec<String>) -> Vec<(PathBuf, Language)> {
    fn walk(
        dir: &Path,
        shown: &Path,
        root: &Path,
        depth: usize,
        out: &mut Vec<(PathBuf, Language)>,
        skipped: &mut Vec<String>,
    ) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for name in entries.flatten().map(|e| e.file_name()) {
            if name.to_string_lossy().starts_with('.') {
                continue;
            }
            let path = dir.join(&name);
            match classify(&path, root) {
                Found::Folder(real) => {
                    if depth > 0 {
                        walk(&real, &shown.join(&name), root, depth - 1, out, skipped);
                    }
                }
                Found::File(real) => {
                    if let Some(lang) = Language::of(&path) {
                        out.push((real, lang));
                    }
                }
                Found::Skipped(why) => {
                    skipped.push(format!("{}: {why}", shown.join(&name).display()));
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(folder, Path::new(""), root, 3, &mut out, skipped);
    out.sort_by(|a, b| a.0.cmp(&b.0));
    skipped.sort();
    out
}

/// A file's path for messages: relative to `base` where it lies inside.
fn relative(file: &Path, base: &Path) -> String {
    file.strip_prefix(base)
        .unwrap_or(file)
        .display()
        .to_string()
}

/// The note on a function that keeps state, if it does.
fn state_note(name: &str, file: &Path, language: Language) -> Option<ClassNote> {
    let text = read_text(file).ok()?;
    keeps_state(language, &text).map(|what| ClassNote {
        name: name.to_string(),
        text: format!(
            "keeps state between calls ({what} of {}): the interpreter lives for a whole game, \
             so the function must not depend on it (--no-reuse starts one for every move)",
            file.file_name().unwrap_or_default().to_string_lossy()
        ),
    })
}

/// The student in `folder` named `name`: the one file defining the function (`function`, or
/// one of the seed's names for `game`) among its source files, or the note saying why there
/// is none. `root` is the class folder (canonical); the entries of the folder left out are
/// noted in `notes`.
fn student(
    name: &str,
    folder: &Path,
    root: &Path,
    game: GameKind,
    function: Option<&str>,
    notes: &mut Vec<ClassNote>,
) -> Result<Submission, ClassNote> {
    let note = |text: String| ClassNote {
        name: name.to_string(),
        text,
    };
    let mut skipped = Vec::new();
    let files = sources(folder, root, &mut skipped);
    notes.extend(
        skipped
            .into_iter()
            .map(|s| note(format!("left out {s} (not read)"))),
    );
    let mut found: Vec<(PathBuf, String)> = Vec::new();
    for (file, lang) in &files {
        let Ok(text) = read_text(file) else {
            continue;
        };
        match function {
            Some(f) => {
                if defines(*lang, &text, f) {
                    found.push((file.clone(), f.to_string()));
                }
            }
            None => found.extend(
                seed_functions(game, *lang, &text)
                    .into_iter()
                    .map(|f| (file.clone(), f)),
            ),
        }
    }
    let wanted = function.map_or_else(
        || {
            format!(
                "the seed's function for {} ({})",
                game.name(),
                seed_names(game)
            )
        },
        |f| format!("the function {f}"),
    );
    match found.as_slice() {
        [(file, f)] => Ok(Submission {
            name: name.to_string(),
            function: Some(format!("{}:{f}", file.display())),
            file: file.clone(),
            folder: Some(folder.to_path_buf()),
            language: None,
        }),
        [] if files.is_empty() => Err(note(
            "does not play: its folder holds no .py, .hs or .lisp file".to_string(),
        )),
        [] => Err(note(format!(
            "does not play: none of its {} source file(s) defines {wanted}: name the file and \
             function in {MANIFEST}",
            files.len()
        ))),
        several => Err(note(format!(
            "does not play: {} define {wanted}: name one in {MANIFEST}",
            several
                .iter()
                .map(|(file, f)| format!("{} ({f})", relative(file, folder)))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// The submission a manifest line names (`dir` the class folder, `root` the same canonical),
/// or the note saying what is wrong with it. The file must lie inside the class folder (links
/// and `..` resolved) and be a regular file.
fn from_manifest(
    line: &ManifestLine,
    dir: &Path,
    root: &Path,
    game: GameKind,
    function: Option<&str>,
) -> Result<Submission, ClassNote> {
    let note = |text: String| ClassNote {
        name: line.student.clone(),
        text: format!("does not play: {MANIFEST}: {text}"),
    };
    let Ok(real) = std::fs::canonicalize(dir.join(&line.file)) else {
        return Err(note(format!("{} is not a file", line.file)));
    };
    if !real.starts_with(root) {
        return Err(note(format!(
            "{} leads outside the class folder (not read)",
            line.file
        )));
    }
    let file = match classify(&real, root) {
        Found::File(f) => f,
        Found::Folder(_) => return Err(note(format!("{} is not a file", line.file))),
        Found::Skipped(why) => return Err(note(format!("{}: {why} (not read)", line.file))),
    };
    let language = match &line.language {
        Some(l) => Some(
            Language::parse(l)
                .ok_or_else(|| note(format!("language '{l}': use python, haskell or lisp")))?,
        ),
        None => None,
    };
    let Some(lang) = language.or_else(|| Language::of(&file)) else {
        return Err(note(format!(
            "{}: give its language (python, haskell or lisp)",
            line.file
        )));
    };
    let function = match line.function.as_deref().or(function) {
        Some(f) => f.to_string(),
        None => {
            let text =
                read_text(&file).map_err(|e| note(format!("cannot read {}: {e}", line.file)))?;
            match seed_functions(game, lang, &text).as_slice() {
                [f] => f.clone(),
                [] => {
                    return Err(note(format!(
                        "{} defines none of the seed's names for {} ({}): give the function",
                        line.file,
                        game.name(),
                        seed_names(game)
                    )));
                }
                several => {
                    return Err(note(format!(
                        "{} defines {}: give the function",
                        line.file,
                        several.join(", ")
                    )));
                }
            }
        }
    };
    // The student's folder: the first folder of the file's path below the class folder.
    let folder = file
        .strip_prefix(root)
        .ok()
        .filter(|r| r.components().count() > 1)
        .and_then(|r| r.components().next())
        .map(|c| root.join(c.as_os_str()));
    Ok(Submission {
        name: line.student.clone(),
        function: Some(format!("{}:{function}", file.display())),
        file,
        folder,
        language: language.filter(|l| Language::of(Path::new(&line.file)) != Some(*l)),
    })
}

/// The class in `dir`:
///
/// - each subfolder is a student named by the folder: the one file among its `.py`, `.hs` and
///   `.lisp` files (subfolders included) that defines `function` or the seed's name for `game`
///   plays, with its folder visible (its helper modules import); none or several give a note;
/// - each file at the top is a submission named by the file, as before: a `.py`, `.hs` or
///   `.lisp` (`.lsp`, `.cl`) file whose function is `function` or the seed's name for `game`,
///   or an executable program; other files are left out with a note;
/// - the manifest [`MANIFEST`], when there is one, names a student's file, function and
///   language, over what would be found: a line naming a file that a folder or a file at the
///   top holds replaces that entry (under the manifest's name, with a note), so that a file
///   plays once.
///
/// A student whose function keeps state between calls gets a note too, and plays. Too few
/// submissions, and two manifest lines naming one file, are errors (the first names every
/// note, the second both lines).
pub fn discover(dir: &Path, game: GameKind, function: Option<&str>) -> Result<Class, ArenaError> {
    let cannot =
        |e: std::io::Error| ArenaError::Config(format!("cannot read {}: {e}", dir.display()));
    let root = std::fs::canonicalize(dir).map_err(cannot)?;
    let entries = std::fs::read_dir(&root).map_err(cannot)?;
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    let mut subs = Vec::new();
    let mut notes = Vec::new();
    let manifest_text = match classify(&root.join(MANIFEST), &root) {
        Found::File(real) => match read_text(&real) {
            Ok(text) => Some(text),
            Err(e) => {
                notes.push(ClassNote {
                    name: MANIFEST.into(),
                    text: format!("left out: cannot read it: {e}"),
                });
                None
            }
        },
        Found::Folder(_) => None,
        Found::Skipped(why) => {
            // Not there at all is no note: most classes have no manifest.
            if std::fs::symlink_metadata(root.join(MANIFEST)).is_ok() {
                notes.push(ClassNote {
                    name: MANIFEST.into(),
                    text: format!("left out: {why} (not read)"),
                });
            }
            None
        }
    };
    let (manifest, manifest_notes) =
        manifest_text.map_or_else(Default::default, |t| read_manifest(&t));
    notes.extend(manifest_notes);
    // Each line's file, resolved (links and `..`), when it lies inside the class folder: one
    // file is one submission, whatever path names it.
    let resolved: Vec<Option<PathBuf>> = manifest
        .iter()
        .map(|l| {
            std::fs::canonicalize(root.join(&l.file))
                .ok()
                .filter(|r| r.starts_with(&root))
        })
        .collect();
    for (i, a) in manifest.iter().enumerate() {
        for (j, b) in manifest.iter().enumerate().skip(i + 1) {
            if let (Some(file), Some(other)) = (&resolved[i], &resolved[j])
                && file == other
            {
                return Err(ArenaError::Config(format!(
                    "{}: line {} ({},{}) and line {} ({},{}) name the same file {}: one file \
                     is one submission; keep one of the two lines",
                    dir.join(MANIFEST).display(),
                    a.line,
                    a.student,
                    a.file,
                    b.line,
                    b.student,
                    b.file,
                    relative(file, &root)
                )));
            }
        }
    }
    let mut plays = Vec::new();
    for line in &manifest {
        match from_manifest(line, &root, &root, game, function) {
            Ok(s) => {
                subs.push(s);
                plays.push(true);
            }
            Err(n) => {
                notes.push(n);
                plays.push(false);
            }
        }
    }
    for path in paths {
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        if name.starts_with('.') || name == MANIFEST {
            continue;
        }
        let note = |text: String| ClassNote {
            name: name.clone(),
            text,
        };
        if manifest.iter().any(|l| l.student == name) {
            continue;
        }
        // An entry that holds (or is) a file the manifest names is that line's student: the
        // manifest's name wins, and the entry does not play a second time under its own.
        let real = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        let covering = resolved.iter().position(|r| {
            r.as_ref()
                .is_some_and(|r| r.starts_with(&path) || r.starts_with(&real))
        });
        if let Some(i) = covering {
            let line = &manifest[i];
            notes.push(note(if plays[i] {
                format!(
                    "plays as {} ({MANIFEST} line {} names its file {})",
                    line.student, line.line, line.file
                )
            } else {
                format!(
                    "left out: {MANIFEST} line {} names its file {} for {}",
                    line.line, line.file, line.student
                )
            }));
            continue;
        }
        let file = match classify(&path, &root) {
            Found::Folder(folder) => {
                match student(&name, &folder, &root, game, function, &mut notes) {
                    Ok(s) => subs.push(s),
                    Err(n) => notes.push(n),
                }
                continue;
            }
            Found::Skipped(why) => {
                notes.push(note(format!("left out: {why} (not read)")));
                continue;
            }
            Found::File(file) => file,
        };
        if let Some(lang) = Language::of(&path) {
            let found = match function {
                Some(f) => Some(f.to_string()),
                None => match read_text(&file) {
                    Ok(text) => seed_function(game, lang, &text),
                    Err(e) => {
                        notes.push(note(format!("left out: cannot read it: {e}")));
                        continue;
                    }
                },
            };
            match found {
                Some(f) => subs.push(Submission {
                    function: Some(format!("{}:{f}", file.display())),
                    name,
                    folder: None,
                    // A link's target may not say the language its name does.
                    language: (Language::of(&file) != Some(lang)).then_some(lang),
                    file,
                }),
                None => notes.push(note(format!(
                    "left out: defines none of the seed's names for {} ({}); a helper \
                     module? A student's files go in a folder of their own, named by the \
                     student, where the modules beside the main file import; or name the \
                     function in {MANIFEST}",
                    game.name(),
                    seed_names(game)
                ))),
            }
        } else if is_executable(&file) {
            subs.push(Submission {
                name,
                file,
                function: None,
                folder: None,
                language: None,
            });
        } else {
            notes.push(note(
                "left out: not .py, .hs, .lisp, an executable program or a folder".into(),
            ));
        }
    }
    subs.sort_by(|a, b| a.name.cmp(&b.name));
    for s in &subs {
        let lang = s.language.or_else(|| Language::of(&s.file));
        if let (Some(lang), Some(_)) = (lang, &s.function)
            && let Some(n) = state_note(&s.name, &s.file, lang)
        {
            notes.push(n);
        }
    }
    notes.sort();
    if subs.len() < 2 {
        return Err(ArenaError::Config(format!(
            "{} holds {} submission(s); a class needs at least two{}",
            dir.display(),
            subs.len(),
            if notes.is_empty() {
                String::new()
            } else {
                format!(
                    " ({})",
                    notes
                        .iter()
                        .map(|n| format!("{}: {}", n.name, n.text))
                        .collect::<Vec<_>>()
                        .join("; ")
                )
            }
        )));
    }
    Ok(Class { subs, notes })
}

/// The prefix of a note's comment line in a records file ([`note_lines`]).
const NOTE_PREFIX: &str = "# class note: ";

/// The notes as comment lines of a records file (`# class note: NAME: TEXT`, escaped with
/// [`shown`]), so that `arena report` of the records shows them too ([`notes_in`]).
pub fn note_lines(notes: &[ClassNote]) -> String {
    notes
        .iter()
        .map(|n| format!("{NOTE_PREFIX}{}: {}\n", shown(&n.name), shown(&n.text)))
        .collect()
}

/// The notes in a records file's comment lines ([`note_lines`]), as written (escaped).
pub fn notes_in(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix(NOTE_PREFIX))
        .map(str::to_string)
        .collect()
}

/// The notes section of a report: `Notes:` and one line per note, each once (shards repeat
/// them), in order; nothing for no notes. `lines` are `NAME: TEXT` as [`note_lines`] writes
/// them, shown with [`readable`].
pub fn notes_section(lines: &[String]) -> String {
    let set: BTreeSet<&String> = lines.iter().collect();
    if set.is_empty() {
        return String::new();
    }
    let mut out = String::from("Notes:");
    for l in set {
        let _ = write!(out, "\n{}", readable(l));
    }
    out
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
    /// Milliseconds a driver may take to load a submission.
    pub load_timeout_ms: u64,
    /// Seconds compiling a submission may take.
    pub compile_timeout_s: u64,
    /// MiB of a submission's scratch folder (a tmpfs of its own in the sandbox).
    pub scratch_mib: u64,
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
                "--load-timeout".into(),
                limits.load_timeout_ms.to_string(),
                "--compile-timeout".into(),
                limits.compile_timeout_s.to_string(),
                "--scratch".into(),
                limits.scratch_mib.to_string(),
            ];
            if limits.no_reuse {
                args.push("--no-reuse".into());
            }
            if limits.no_sandbox {
                args.push("--no-sandbox".into());
            }
            if let Some(folder) = &s.folder {
                args.extend(["--folder".into(), folder.to_string_lossy().into_owned()]);
            }
            if let Some(lang) = s.language {
                args.extend(["--language".into(), lang.name().to_ascii_lowercase()]);
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
                // The first move of a game also loads (and may compile) the submission.
                timeout: Duration::from_millis(limits.move_timeout_ms)
                    + Duration::from_millis(limits.load_timeout_ms)
                    + Duration::from_secs(limits.compile_timeout_s)
                    + LOAD_MARGIN,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A copy of the test class of per-student folders (engine/tests/class/folders) in a
    /// fresh temporary folder, removed when dropped.
    struct Copy(PathBuf);

    impl Copy {
        fn new(tag: &str) -> Copy {
            let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/class/folders");
            let to = std::env::temp_dir().join(format!("class-unit-{}-{tag}", std::process::id()));
            let _ = std::fs::remove_dir_all(&to);
            for student in std::fs::read_dir(&from).unwrap().flatten() {
                let dir = to.join(student.file_name());
                std::fs::create_dir_all(&dir).unwrap();
                for f in std::fs::read_dir(student.path()).unwrap().flatten() {
                    std::fs::copy(f.path(), dir.join(f.file_name())).unwrap();
                }
            }
            Copy(to)
        }
    }

    impl Drop for Copy {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn names(class: &Class) -> Vec<&str> {
        class.subs.iter().map(|s| s.name.as_str()).collect()
    }

    #[test]
    fn students_are_found_in_their_folders() {
        let c = Copy::new("folders");
        let class = discover(&c.0, GameKind::Oska, None).unwrap();
        assert_eq!(names(&class), ["alice", "bob", "carol", "dave", "frank"]);
        let carol = &class.subs[2];
        assert!(carol.file.ends_with("carol/movegen.py"), "{carol:?}");
        assert!(carol.function.as_ref().unwrap().ends_with(":oskaplayer"));
        assert!(carol.folder.as_ref().unwrap().ends_with("carol"));
        // The opening comment's oska_v1 is not the function.
        assert!(
            class.subs[3]
                .function
                .as_ref()
                .unwrap()
                .ends_with("Oska.hs:oska_d4v3")
        );
        let noted: Vec<(&str, &str)> = class
            .notes
            .iter()
            .map(|n| (n.name.as_str(), n.text.as_str()))
            .collect();
        assert_eq!(noted.len(), 2, "{noted:?}");
        assert_eq!(noted[0].0, "erin");
        assert!(
            noted[0]
                .1
                .starts_with("does not play: none of its 1 source file(s)")
        );
        assert_eq!(noted[1].0, "frank");
        assert!(
            noted[1]
                .1
                .starts_with("keeps state between calls (global calls")
        );
        // The records' comment lines carry the notes back.
        let lines = notes_in(&note_lines(&class.notes));
        assert_eq!(lines.len(), 2);
        assert!(notes_section(&[lines.clone(), lines].concat()).starts_with("Notes:\nerin: "));
    }

    #[test]
    fn a_manifest_settles_what_detection_cannot() {
        let c = Copy::new("manifest");
        // Two files defining the function: ambiguous without the manifest.
        std::fs::copy(c.0.join("bob/oskaplayer.py"), c.0.join("bob/old.py")).unwrap();
        let class = discover(&c.0, GameKind::Oska, None).unwrap();
        assert!(!names(&class).contains(&"bob"));
        let bob = class.notes.iter().find(|n| n.name == "bob").unwrap();
        assert_eq!(
            bob.text,
            "does not play: old.py (oskaplayer), oskaplayer.py (oskaplayer) define the seed's \
             function for oska (oskaplayer (Python), oska_XXXX (Haskell), oskamaniac (Lisp)): \
             name one in class.csv"
        );
        std::fs::copy(c.0.join("erin/helpers.py"), c.0.join("erin/helpers.txt")).unwrap();
        std::fs::write(
            c.0.join(MANIFEST),
            "student,file,function,language\n# Bob's old file is not his player\n\
             bob,bob/oskaplayer.py\nerin,erin/helpers.txt,movegen,python\n\
             zoe,zoe/missing.py,oskaplayer\nbroken line\n",
        )
        .unwrap();
        let class = discover(&c.0, GameKind::Oska, None).unwrap();
        assert_eq!(
            names(&class),
            ["alice", "bob", "carol", "dave", "erin", "frank"]
        );
        let erin = &class.subs[4];
        assert_eq!(erin.language, Some(Language::Python));
        assert!(
            erin.function
                .as_ref()
                .unwrap()
                .ends_with("helpers.txt:movegen")
        );
        assert!(erin.folder.as_ref().unwrap().ends_with("erin"));
        let noted: Vec<String> = class
            .notes
            .iter()
            .map(|n| format!("{}: {}", n.name, n.text))
            .collect();
        assert_eq!(
            noted,
            [
                "class.csv: line 6: expected student,file[,function[,language]], found 'broken line'",
                "frank: keeps state between calls (global calls (line 44) of player.py): the \
                 interpreter lives for a whole game, so the function must not depend on it \
                 (--no-reuse starts one for every move)",
                "zoe: does not play: class.csv: zoe/missing.py is not a file",
            ]
        );
    }

    #[test]
    fn a_loose_helper_module_gets_the_right_advice() {
        let c = Copy::new("loose");
        for f in [
            "alice/oskaplayer.py",
            "alice/OskaBoard.py",
            "carol/movegen.py",
        ] {
            std::fs::copy(c.0.join(f), c.0.join(Path::new(f).file_name().unwrap())).unwrap();
        }
        for s in ["alice", "bob", "carol", "dave", "erin", "frank"] {
            std::fs::remove_dir_all(c.0.join(s)).unwrap();
        }
        std::fs::write(c.0.join("notes.txt"), "x").unwrap();
        let class = discover(&c.0, GameKind::Oska, None).unwrap();
        assert_eq!(names(&class), ["movegen.py", "oskaplayer.py"]);
        assert!(class.subs.iter().all(|s| s.folder.is_none()));
        assert_eq!(class.notes.len(), 2);
        assert_eq!(class.notes[0].name, "OskaBoard.py");
        assert!(
            class.notes[0]
                .text
                .contains("a helper module? A student's files go in a folder"),
            "{:?}",
            class.notes
        );
        assert_eq!(class.notes[1].name, "notes.txt");
        // Too few: the error names every note.
        std::fs::remove_file(c.0.join("movegen.py")).unwrap();
        let e = discover(&c.0, GameKind::Oska, None)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("holds 1 submission(s)") && e.contains("OskaBoard.py: left out"),
            "{e}"
        );
    }

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
