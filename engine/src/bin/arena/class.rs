//! `arena class DIR ...` (every submission of a folder against every other) and
//! `arena report RECORDS...` (standings and per-submission report of record files, such as the
//! shards of a class).

use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use boardgames_core::protocol::{readable, shown};
use boardgames_core::record::{GameRecord, file_text, referee_records};
use boardgames_tools::arena::class::{
    ClassLimits, ClassNote, ClassReport, discover, engines, note_lines, notes_in, notes_section,
    parse_shard, shard, timed_record,
};
use boardgames_tools::arena::grade::{
    DEFAULT_NODES, DEPTH_TAG, GradeSettings, grade, tablebase_dir,
};
use boardgames_tools::arena::html::{Page, page};
use boardgames_tools::arena::stats::SprtVerdict;
use boardgames_tools::arena::{GameOutcome, MatchConfig, Tournament, run_jobs, schedule};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::schedule::{GameArgs, ScheduleArgs};
use crate::limits::DriverLimits;

/// `arena class`.
#[derive(Args, Debug)]
pub struct ClassArgs {
    /// The folder of submissions: one subfolder per student (the file that defines the
    /// function, helper modules beside it), or one file per student: FILE.py, FILE.hs,
    /// FILE.lisp (the function named by --function, else the seed's name for the game:
    /// oskaplayer, oska_XXXX, oskamaniac, hexapawn, capture) and executable programs (board
    /// in, board out). A manifest DIR/class.csv (student,file,function,language) overrides
    /// what is found.
    dir: PathBuf,
    #[command(flatten)]
    game: GameArgs,
    /// The depth every function is called with.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    depth: u32,
    /// The function's name in every file (instead of the seed's names).
    #[arg(long)]
    function: Option<String>,
    /// Rounds of each pairing: two games per round, one opening, colours swapped.
    #[arg(long, default_value_t = 1)]
    rounds: usize,
    #[command(flatten)]
    schedule: ScheduleArgs,
    /// Write every game record (with thinking times) to this file.
    #[arg(long)]
    records: Option<PathBuf>,
    /// Play only the K-th of N slices of the schedule (games K, K+N, ...); merge the shards'
    /// records with `arena report`.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Wall-clock milliseconds a move may take; a slower move loses the game ([timeout]).
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    move_timeout: u64,
    #[command(flatten)]
    limits: DriverLimits,
    /// Board format sent to executable programs: slash, python, haskell, lisp or flat.
    #[arg(long, default_value = "python")]
    format: String,
    /// Start the interpreter for every move instead of once per game (slower; for comparison).
    #[arg(long)]
    no_reuse: bool,
    /// Run the submissions without the sandbox (bubblewrap): each can then read and write
    /// whatever this user can, the other submissions included. Warns on every run.
    #[arg(long)]
    no_sandbox: bool,
    #[command(flatten)]
    output: OutputArgs,
}

/// The grading and the web page, of `arena class` and `arena report`.
#[derive(Args, Debug)]
pub struct OutputArgs {
    /// Grade every move exactly: in each position a student moved in that the tablebases or the
    /// solver (within --grade-nodes) solve, whether the move kept the value (a won position
    /// thrown away, a drawn position lost), beside our engine at the class's depth; and each
    /// student's worst move, drawn. See docs/classroom.md.
    #[arg(long)]
    grade: bool,
    /// With --grade: the most nodes one exact solve may take; a position that needs more is
    /// not graded (and counted).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_NODES,
          value_parser = clap::value_parser!(u64).range(1..))]
    grade_nodes: u64,
    /// With --grade: seconds the whole grading may take; positions not reached by then are not
    /// graded (and counted). Default: no limit (the grading then depends on the records alone).
    #[arg(long, value_name = "SECONDS", value_parser = positive_seconds)]
    grade_seconds: Option<f64>,
    /// With --grade: a tablebase directory (see `engine tablebase`) for exact values (default:
    /// $TABLEBASE_PATH, else ./tablebases if it exists).
    #[arg(long, value_name = "DIR")]
    tablebase: Option<PathBuf>,
    /// With --grade: write the graded positions to FILE as a set of `engine-tune` (`engine-tune
    /// blunders FILE --evals tuned --depths D` gives the reference's blunders).
    #[arg(long, value_name = "FILE", requires = "grade")]
    grade_set: Option<PathBuf>,
    /// Also write the report as one self-contained web page (no script, no request): the
    /// standings, the crosstable, notes and faults with the failing boards drawn, the points
    /// as the games went, and the grading.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

/// `arena report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Record files (of `arena class --records`, `arena match --records`, or shards). Every game
    /// is refereed by the rules when read: an illegal move, or a result the moves contradict,
    /// is refused with its file and line.
    #[arg(required = true)]
    records: Vec<PathBuf>,
    /// For two engines: elo0=0 elo1=10 alpha=0.05 beta=0.05.
    #[arg(long, num_args = 1..)]
    sprt: Option<Vec<String>>,
    /// With --grade: the depth of the reference engine (default: the records' Depth tag, the
    /// depth the class's functions were called with).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    depth: Option<u32>,
    #[command(flatten)]
    output: OutputArgs,
}

fn print_report(report: &ClassReport, notes: &[String]) {
    out!("{}", report.standings.table());
    if report.standings.names.len() > 2 {
        out!();
        out!("{}", report.standings.crosstable());
    }
    let notes = notes_section(notes);
    if !notes.is_empty() {
        out!();
        out!("{notes}");
    }
    out!();
    out!("{}", report.table());
    section("First failures:", &report.failures());
}

/// A section after a blank line: `title`, then `body`; nothing when `body` is empty.
fn section(title: &str, body: &str) {
    if !body.is_empty() {
        out!();
        out!("{title}");
        out!("{body}");
    }
}

/// A progress bar on standard error when it is a terminal, else none (the caller prints lines).
fn progress_bar(len: usize, what: &str) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{bar:40}} {{pos}}/{{len}} {what}, {{elapsed_precise}} (eta {{eta}}) {{wide_msg}}"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    Some(bar)
}

/// A number of seconds above 0.
fn positive_seconds(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0)
        .ok_or_else(|| format!("'{text}' is not a number of seconds above 0"))
}

/// After the report: the grading (with `--grade`) on standard output and the web page (with
/// `--html`). The grading runs on a thread of its own, so that Ctrl-C still ends the run.
async fn finish(
    mut records: Vec<GameRecord>,
    report: &ClassReport,
    notes: &[String],
    output: &OutputArgs,
    depth: Option<u32>,
    title: String,
) -> Result<()> {
    let mut grading = None;
    if output.grade {
        let settings = GradeSettings {
            depth,
            nodes: output.grade_nodes,
            tablebase: tablebase_dir(output.tablebase.as_deref())?,
            hash_mib: 64,
            seconds: output.grade_seconds,
        };
        let (graded, given_back) = tokio::task::spawn_blocking(move || {
            let mut bar: Option<ProgressBar> = None;
            let mut told = false;
            let mut progress = |done: usize, total: usize| {
                if !told {
                    told = true;
                    bar = progress_bar(total, "positions graded");
                    if bar.is_none() {
                        let _ = writeln!(
                            std::io::stderr(),
                            "Grading {total} positions (distinct per student)"
                        );
                    }
                }
                if let Some(b) = &bar {
                    b.set_position(done as u64);
                }
            };
            let g = grade(&records, &settings, &mut progress);
            if let Some(b) = bar {
                b.finish_and_clear();
            }
            (g, records)
        })
        .await
        .context("the grading thread failed")?;
        records = given_back;
        let graded = graded?;
        out!();
        out!("{}", graded.table());
        section("Worst moves:", &graded.worst_moves());
        if let Some(path) = &output.grade_set {
            std::fs::write(path, &graded.set)
                .with_context(|| format!("--grade-set: cannot write {}", path.display()))?;
        }
        grading = Some(graded);
    }
    if let Some(path) = &output.html {
        write_html(path, &title, &records, report, notes, grading.as_ref())?;
    }
    Ok(())
}

fn write_html(
    path: &Path,
    title: &str,
    records: &[GameRecord],
    report: &ClassReport,
    notes: &[String],
    grading: Option<&boardgames_tools::arena::grade::Grading>,
) -> Result<()> {
    let html = page(&Page {
        title,
        records,
        report,
        notes,
        grading,
    });
    std::fs::write(path, html).with_context(|| format!("--html: cannot write {}", path.display()))
}

/// The ways a path may be written in an engine's message: as it is, escaped by [`shown`], and
/// with every byte outside printable ASCII as `\xNN` (lower and upper case hex), as the
/// adapter passes a program's standard error on (`acc\xc3\xa9nt` for `accént`).
fn spellings(path: &str) -> Vec<String> {
    let bytes = |upper: bool| {
        path.bytes()
            .map(|b| match b {
                b'\\' => "\\\\".to_string(),
                0x20..=0x7e => char::from(b).to_string(),
                _ if upper => format!("\\x{b:02X}"),
                _ => format!("\\x{b:02x}"),
            })
            .collect::<String>()
    };
    let mut all = vec![
        path.to_string(),
        shown(path).into_owned(),
        bytes(false),
        bytes(true),
    ];
    all.sort();
    all.dedup();
    // The longest first, so that no spelling is cut by a shorter one.
    all.sort_by_key(|p| std::cmp::Reverse(p.len()));
    all
}

/// `text` without the class folder's absolute path (a traceback names the student's file
/// with it), however the message spells it ([`spellings`]: a folder named `accént` arrives as
/// `acc\xc3\xa9nt`), and with the home folder as `~`: a report to publish names files
/// relative to the class folder.
fn without_paths(text: &str, dir: &Path) -> String {
    let mut out = text.to_string();
    let mut prefixes = Vec::new();
    if let Ok(canonical) = dir.canonicalize() {
        prefixes.push(canonical);
    }
    if let Ok(cwd) = std::env::current_dir() {
        prefixes.push(cwd.join(dir));
    }
    prefixes.push(dir.to_path_buf());
    for p in prefixes.iter().filter(|p| p.is_absolute()) {
        for p in spellings(&format!("{}/", p.display())) {
            if p.len() > 1 {
                out = out.replace(&p, "");
            }
        }
    }
    if let Some(home) = std::env::var_os("HOME").filter(|h| h.len() > 1) {
        for h in spellings(&format!("{}/", Path::new(&home).display())) {
            out = out.replace(&h, "~/");
        }
    }
    out
}

/// In debug builds only, for the tests: sleeps `ARENA_TEST_DISCOVERY_PAUSE_MS` milliseconds
/// before discovery, so that a test can signal the arena while it discovers.
fn discovery_pause() {
    #[cfg(debug_assertions)]
    if let Some(ms) = std::env::var("ARENA_TEST_DISCOVERY_PAUSE_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }
}

/// What `--no-sandbox` means: on standard error, and as a note of the report and the records.
const NO_SANDBOX: &str = "the submissions ran unconfined: each could read and write every file \
                          this user can, the other submissions included, and what it started \
                          may have outlived its game";

/// `arena class`.
pub async fn run_class(args: ClassArgs) -> Result<ExitCode> {
    let game = args.game.kind()?;
    let size = args.game.size;
    if args.rounds == 0 {
        bail!("--rounds must be at least 1");
    }
    if args.no_sandbox {
        eprintln!("warning: --no-sandbox: {NO_SANDBOX}");
    } else if let Err(e) = boardgames_tools::adapter::sandbox::bwrap() {
        bail!("{e}");
    }
    // On a thread of its own, so that SIGTERM and Ctrl-C end the run during discovery too.
    let (dir, function) = (args.dir.clone(), args.function.clone());
    let class = tokio::task::spawn_blocking(move || {
        discovery_pause();
        discover(&dir, game, function.as_deref())
    })
    .await
    .context("the discovery thread failed")??;
    let subs = &class.subs;
    let mut class_notes = class.notes.clone();
    if args.no_sandbox {
        // In the report and the records too, not only on standard error.
        class_notes.insert(
            0,
            ClassNote {
                name: "--no-sandbox".into(),
                text: NO_SANDBOX.into(),
            },
        );
    }
    let written_notes = note_lines(&class_notes);
    let notes = notes_in(&written_notes);
    let exe = std::env::current_exe().context("finding the arena binary")?;
    let engine_exe = exe.with_file_name(format!("engine{}", std::env::consts::EXE_SUFFIX));
    let limits = ClassLimits {
        depth: args.depth,
        move_timeout_ms: args.move_timeout,
        cpu: args.limits.cpu,
        memory: args.limits.memory,
        processes: args.limits.processes,
        format: args.format.clone(),
        no_reuse: args.no_reuse,
        no_sandbox: args.no_sandbox,
        load_timeout_ms: args.limits.load_timeout,
        compile_timeout_s: args.limits.compile_timeout,
        scratch_mib: args.limits.scratch,
    };
    let config = MatchConfig {
        game,
        size,
        engines: engines(subs, &engine_exe, &limits),
        tournament: Tournament::RoundRobin,
        games_per_pairing: 2 * args.rounds,
        openings: args.schedule.openings(game, size, args.rounds)?,
        concurrency: args.schedule.concurrency,
        max_plies: args.schedule.max_plies,
        sprt: None,
    };
    let all = schedule(&config)?;
    let scheduled = all.len();
    let jobs = match &args.shard {
        Some(s) => {
            let (k, n) = parse_shard(s)?;
            shard(all, k, n)
        }
        None => all,
    };
    out!(
        "Class of {} submissions, {} {}, depth {}: {} games{}",
        subs.len(),
        game.name(),
        size,
        args.depth,
        jobs.len(),
        args.shard.as_ref().map_or_else(String::new, |s| format!(
            " (shard {} of {scheduled})",
            shown(s)
        ))
    );
    let mut records_file = match &args.records {
        Some(p) => {
            let mut w = BufWriter::new(
                File::create(p)
                    .with_context(|| format!("--records: cannot create {}", p.display()))?,
            );
            // The notes go first, as comments: `arena report` shows them.
            w.write_all(written_notes.as_bytes())
                .and_then(|()| w.flush())
                .with_context(|| format!("--records: cannot write {}", p.display()))?;
            Some(w)
        }
        None => None,
    };
    let bar = progress_bar(jobs.len(), "games");
    let mut records: Vec<GameRecord> = Vec::new();
    let mut write_error = None;
    let depth = args.depth.to_string();
    let on_game = |g: &GameOutcome, _: &boardgames_tools::arena::table::Standings| {
        let mut record = timed_record(g);
        record.tags.push((DEPTH_TAG.to_string(), depth.clone()));
        for (k, v) in &mut record.tags {
            if k == "Reason" {
                *v = without_paths(v, &args.dir);
            }
        }
        let fault = boardgames_tools::adapter::Fault::find_in(g.reason())
            .map(|f| f.as_str().to_string())
            .or_else(|| g.record.tag("Fault").map(str::to_string));
        // Progress, not the result: on standard error, a bar on a terminal, else a line.
        let line = format!(
            "Finished game {} ({} vs {}): {} {{{}}}",
            g.job.number,
            shown(&g.record.white),
            shown(&g.record.black),
            g.result().as_str(),
            fault.map_or_else(
                || readable(&without_paths(g.reason(), &args.dir)),
                |f| format!("[{}]", shown(&f))
            )
        );
        match &bar {
            Some(b) => {
                b.set_message(line);
                b.inc(1);
            }
            // Not eprintln!: standard error may be a closed pipe.
            None => {
                let _ = writeln!(std::io::stderr(), "{line}");
            }
        }
        if let Some(w) = records_file.as_mut()
            && write_error.is_none()
            && let Err(e) = writeln!(w, "{record}").and_then(|()| w.flush())
        {
            write_error = Some(e);
        }
        records.push(record);
    };
    run_jobs(config, jobs, on_game).await?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Some(e) = write_error {
        bail!("--records: cannot write: {e}");
    }
    out!();
    let report = ClassReport::from_records(&records)?;
    print_report(&report, &notes);
    let title = format!(
        "Class of {} submissions: {} {}, depth {}",
        subs.len(),
        game.name(),
        size,
        args.depth
    );
    finish(
        records,
        &report,
        &notes,
        &args.output,
        Some(args.depth),
        title,
    )
    .await?;
    Ok(ExitCode::SUCCESS)
}

/// `arena report`: every record file is read and refereed by the rules
/// ([`referee_records`]); the first bad line of any file stops the report, named with its file.
pub async fn run_report(args: ReportArgs) -> Result<ExitCode> {
    let mut records = Vec::new();
    let mut notes = Vec::new();
    for path in &args.records {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let text = file_text(&bytes).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let mut found =
            referee_records(text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        records.append(&mut found);
        notes.extend(notes_in(text));
    }
    let report = ClassReport::from_records(&records)?;
    out!("{} games from {} file(s)", report.games, args.records.len());
    let st = &report.standings;
    if st.names.len() == 2 {
        out!("{}", st.pairs[0][1].score_line(&st.names[0], &st.names[1]));
        out!("{}", st.pairs[0][1].elo_line());
        if let Some(words) = &args.sprt {
            let sprt = super::parse_sprt(words)?;
            let (llr, lo, hi) = sprt.llr(&st.pairs[0][1]);
            let verdict = match sprt.verdict(&st.pairs[0][1]) {
                SprtVerdict::AcceptH0 => "H0 was accepted",
                SprtVerdict::AcceptH1 => "H1 was accepted",
                SprtVerdict::Continue => "no decision yet",
            };
            out!("SPRT: llr {llr:.2} ({lo:.2}, {hi:.2}), {verdict}");
        }
        out!();
    } else if args.sprt.is_some() {
        bail!(
            "--sprt needs exactly two engines in the records, found {}",
            st.names.len()
        );
    }
    print_report(&report, &notes);
    let title = format!(
        "Report of {} games from {} record file(s)",
        report.games,
        args.records.len()
    );
    finish(records, &report, &notes, &args.output, args.depth, title).await?;
    Ok(ExitCode::SUCCESS)
}
