//! `arena class DIR ...` (every submission of a folder against every other) and
//! `arena report RECORDS...` (standings and per-submission report of record files, such as the
//! shards of a class).

use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;
use engine::arena::class::{
    ClassLimits, ClassReport, discover, engines, note_lines, notes_in, notes_section, parse_shard,
    shard, timed_record,
};
use engine::arena::stats::SprtVerdict;
use engine::arena::{GameOutcome, MatchConfig, Tournament, run_jobs, schedule};
use engine::protocol::{readable, shown};
use engine::record::{GameRecord, file_text, referee_records};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::schedule::{GameArgs, ScheduleArgs};

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
    /// CPU seconds of a submission for one game ([cpu]).
    #[arg(long, value_name = "SECONDS", default_value_t = 300)]
    cpu: u64,
    /// MiB of address space of each submission process ([memory]).
    #[arg(long, value_name = "MIB", default_value_t = 2048)]
    memory: u64,
    /// Processes a submission may hold at once ([processes]).
    #[arg(long, value_name = "N", default_value_t = 32)]
    processes: u64,
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
}

fn print_report(report: &ClassReport, notes: &[String]) {
    out!("{}", report.standings.table());
    let notes = notes_section(notes);
    if !notes.is_empty() {
        out!();
        out!("{notes}");
    }
    out!();
    out!("{}", report.table());
    let failures = report.failures();
    if !failures.is_empty() {
        out!();
        out!("First failures:");
        out!("{failures}");
    }
}

/// `arena class`.
pub async fn run_class(args: ClassArgs) -> Result<ExitCode> {
    let game = args.game.kind()?;
    let size = args.game.size;
    if args.rounds == 0 {
        bail!("--rounds must be at least 1");
    }
    if args.no_sandbox {
        eprintln!(
            "warning: --no-sandbox: the submissions run unconfined: each can read and write every \
             file this user can, the other submissions included, and what it starts may outlive \
             its game"
        );
    } else if let Err(e) = engine::adapter::sandbox::bwrap() {
        bail!("{e}");
    }
    let class = discover(&args.dir, game, args.function.as_deref())?;
    let subs = &class.subs;
    let written_notes = note_lines(&class.notes);
    let notes = notes_in(&written_notes);
    let exe = std::env::current_exe().context("finding the arena binary")?;
    let engine_exe = exe.with_file_name(format!("engine{}", std::env::consts::EXE_SUFFIX));
    let limits = ClassLimits {
        depth: args.depth,
        move_timeout_ms: args.move_timeout,
        cpu: args.cpu,
        memory: args.memory,
        processes: args.processes,
        format: args.format.clone(),
        no_reuse: args.no_reuse,
        no_sandbox: args.no_sandbox,
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
    let bar = ProgressBar::with_draw_target(Some(jobs.len() as u64), ProgressDrawTarget::stderr());
    if !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed_precise} (eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut records: Vec<GameRecord> = Vec::new();
    let mut write_error = None;
    let on_game = |g: &GameOutcome, _: &engine::arena::table::Standings| {
        let record = timed_record(g);
        let fault = engine::adapter::Fault::find_in(g.reason())
            .map(|f| f.as_str().to_string())
            .or_else(|| g.record.tag("Fault").map(str::to_string));
        // Progress, not the result: on standard error (above the bar on a terminal).
        bar.suspend(|| {
            // Not eprintln!: standard error may be a closed pipe.
            let _ = writeln!(
                std::io::stderr(),
                "Finished game {} ({} vs {}): {} {{{}}}",
                g.job.number,
                shown(&g.record.white),
                shown(&g.record.black),
                g.result().as_str(),
                fault.map_or_else(|| readable(g.reason()), |f| format!("[{}]", shown(&f)))
            );
        });
        bar.inc(1);
        if let Some(w) = records_file.as_mut()
            && write_error.is_none()
            && let Err(e) = writeln!(w, "{record}").and_then(|()| w.flush())
        {
            write_error = Some(e);
        }
        records.push(record);
    };
    run_jobs(config, jobs, on_game).await?;
    bar.finish_and_clear();
    if let Some(e) = write_error {
        bail!("--records: cannot write: {e}");
    }
    out!();
    print_report(&ClassReport::from_records(&records)?, &notes);
    Ok(ExitCode::SUCCESS)
}

/// `arena report`: every record file is read and refereed by the rules
/// ([`referee_records`]); the first bad line of any file stops the report, named with its file.
pub fn run_report(args: ReportArgs) -> Result<ExitCode> {
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
    Ok(ExitCode::SUCCESS)
}
