//! The `arena` binary: plays matches and tournaments between engines over the protocol
//! (`arena match ...`) and checks an engine's conformance (`arena check ...`).

/// `println!` that never panics: when standard output is closed (`arena ... | head`) the line is
/// dropped and [`OUTPUT_CLOSED`] ends the run through [`interrupted`].
macro_rules! out {
    () => {
        out!("")
    };
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if writeln!(std::io::stdout(), $($arg)*).is_err() {
            crate::OUTPUT_CLOSED.notify_one();
        }
    }};
}

/// Notified when a line cannot be written to standard output. (Not SIGPIPE: writing to an engine
/// that has died raises it too.)
static OUTPUT_CLOSED: tokio::sync::Notify = tokio::sync::Notify::const_new();

mod class;
#[path = "../common/limits.rs"]
mod limits;
mod schedule;

use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use boardgames_core::protocol::{readable, shown};
use boardgames_core::record::RecordResult;
use boardgames_tools::arena::stats::{Sprt, SprtVerdict};
use boardgames_tools::arena::{EngineSpec, GameOutcome, MatchConfig, Tournament, run_tournament};
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use schedule::{GameArgs, ScheduleArgs};

/// Match runner for engines that speak the protocol of protocol.md.
///
/// Plays matches, round robins and gauntlets of Oska, Hexapawn and Capture the Flag, refereed by
/// the rules library, and checks engines against the protocol. Seed-shaped programs (board in,
/// board out) play through `engine board-call`. See docs/arena.md.
#[derive(Parser, Debug)]
#[command(name = "arena", version)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Play a match (two engines), a round robin or a gauntlet.
    ///
    /// Every engine must declare the game and size (its `game NAME MIN MAX` lines): one that
    /// does not is refused before the first game. See docs/arena.md.
    Match(Box<MatchArgs>),
    /// Play a class of students' submissions against each other, in a sandbox.
    ///
    /// Every submission in DIR (one subfolder per student, or seed functions in .py, .hs, .lisp
    /// files and executable programs) against every other, under limits; standings,
    /// crosstable, notes on the students and a report per submission on stdout (with --grade
    /// the exact grading of every move, with --html FILE a web page too), the games' progress
    /// on stderr. See docs/classroom.md.
    Class(Box<class::ClassArgs>),
    /// Standings, Elo and reports of record files, such as the shards of a class.
    ///
    /// Standings, Elo (and SPRT for two engines), crosstable and the per-submission report of
    /// record files, such as the shards of a class (with --grade the exact grading, with --html
    /// FILE a web page too); every record is refereed by the rules when read.
    Report(class::ReportArgs),
    /// Run the conformance suite against PROGRAM [ARGS...]; exit status 0 when it conforms.
    Check {
        /// The program and its arguments.
        #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
        command: Vec<String>,
    },
}

#[derive(Args, Debug)]
struct MatchArgs {
    #[command(flatten)]
    game: GameArgs,
    /// An engine: cmd=PATH name=NAME arg=ARG... option.NAME=VALUE
    /// depth=N|nodes=N|movetime=MS|tc=[MOVES/]TIME[+INC] timemargin=MS timeout=MS (default
    /// 10000), or boardcall="PROGRAM ARGS" format=python ... (PROGRAM ARGS split as a shell does,
    /// so 'a path with blanks' is one word; timeout= defaults to 120000) (repeat for each engine).
    ///
    /// tc= puts the engine on a clock as cutechess-cli writes it (seconds; TIME may be M:SS):
    /// tc=40/60+0.6 is 60 s for every 40 moves plus 0.6 s a move, tc=10+0.1 is 10 s for the
    /// game plus 0.1 s a move. The engine gets `go wtime ... btime ... [winc ..] [binc ..]
    /// [movestogo N]`; a move that takes longer than its time left plus timemargin= (milliseconds,
    /// default 0) loses the game by a time forfeit. Without tc= every go is depth=3 unless
    /// depth=, nodes= or movetime= says otherwise.
    #[arg(long = "engine", num_args = 1.., action = clap::ArgAction::Append, required = true)]
    engine: Vec<String>,
    /// The words of each `--engine`, grouped (filled from the matches, not by clap).
    #[arg(skip)]
    engines: Vec<Vec<String>>,
    /// match (two engines), round-robin or gauntlet (the first engine against each other).
    #[arg(long)]
    tournament: Option<String>,
    /// Games of each pairing (each opening is played twice, colours swapped).
    #[arg(long, conflicts_with = "rounds")]
    games: Option<usize>,
    /// Rounds of each pairing: two games per round, one opening, colours swapped.
    #[arg(long)]
    rounds: Option<usize>,
    #[command(flatten)]
    schedule: ScheduleArgs,
    /// Write every game record to this file.
    #[arg(long)]
    records: Option<PathBuf>,
    /// Stop a two-engine match early: elo0=0 elo1=10 alpha=0.05 beta=0.05.
    #[arg(long, num_args = 1..)]
    sprt: Option<Vec<String>>,
}

fn parse_sprt(words: &[String]) -> Result<Sprt> {
    let mut sprt = Sprt {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
    };
    for w in words {
        let (k, v) = w
            .split_once('=')
            .with_context(|| format!("--sprt '{w}': expected key=value"))?;
        let x: f64 = v
            .parse()
            .ok()
            .filter(|x: &f64| x.is_finite())
            .with_context(|| format!("--sprt '{w}': '{v}' is not a number"))?;
        match k {
            "elo0" => sprt.elo0 = x,
            "elo1" => sprt.elo1 = x,
            "alpha" => sprt.alpha = x,
            "beta" => sprt.beta = x,
            _ => bail!("--sprt '{w}': unknown key '{k}' (elo0, elo1, alpha, beta)"),
        }
    }
    if !(sprt.alpha > 0.0 && sprt.alpha < 1.0 && sprt.beta > 0.0 && sprt.beta < 1.0) {
        bail!("--sprt: alpha and beta must lie strictly between 0 and 1");
    }
    if sprt.elo1 <= sprt.elo0 {
        bail!("--sprt: elo1 must be greater than elo0");
    }
    Ok(sprt)
}

fn result_text(r: RecordResult) -> &'static str {
    match r {
        RecordResult::White => "1-0",
        RecordResult::Black => "0-1",
        RecordResult::Draw => "1/2-1/2",
        RecordResult::Unfinished => "*",
    }
}

fn config(args: &MatchArgs) -> Result<MatchConfig> {
    let game = args.game.kind()?;
    let size = args.game.size;
    let exe = std::env::current_exe().context("finding the arena binary")?;
    let engine_exe = exe.with_file_name(format!("engine{}", std::env::consts::EXE_SUFFIX));
    let engines = args
        .engines
        .iter()
        .map(|words| EngineSpec::parse(words, &engine_exe))
        .collect::<Result<Vec<_>, _>>()?;
    let tournament = match &args.tournament {
        Some(t) => Tournament::parse(t)?,
        None => Tournament::Match,
    };
    let games_per_pairing = match (args.games, args.rounds) {
        (Some(0), _) | (_, Some(0)) => bail!("--games and --rounds must be at least 1"),
        (Some(g), _) => g,
        (_, Some(r)) => 2 * r,
        (None, None) => 2,
    };
    let rounds = games_per_pairing.div_ceil(2);
    let openings = args.schedule.openings(game, size, rounds)?;
    if let Some(plies) = args.schedule.random_plies
        && openings.len() < rounds
    {
        eprintln!(
            "warning: --random-plies {plies} found {} distinct openings of {} {size} for {rounds} \
             rounds: openings are reused (about {:.1} rounds each)",
            openings.len(),
            game.name(),
            rounds as f64 / openings.len() as f64
        );
    }
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
    Ok(MatchConfig {
        game,
        size,
        engines,
        tournament,
        games_per_pairing,
        openings,
        concurrency: args.schedule.concurrency,
        max_plies: args.schedule.max_plies,
        sprt,
    })
}

async fn run_match(args: MatchArgs) -> Result<ExitCode> {
    let config = config(&args)?;
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let two = names.len() == 2;
    let sprt = config.sprt;
    let total = boardgames_tools::arena::schedule(&config)?.len();
    let mut records = match &args.records {
        Some(p) => {
            Some(BufWriter::new(File::create(p).with_context(|| {
                format!("--records: cannot create {}", p.display())
            })?))
        }
        None => None,
    };
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    if !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed_precise} (eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut write_error = None;
    let on_game = |g: &GameOutcome, s: &boardgames_tools::arena::table::Standings| {
        let (a, b) = g.job.pair;
        bar.suspend(|| {
            out!(
                "Finished game {} ({} vs {}): {} {{{}}}",
                g.job.number,
                shown(&g.record.white),
                shown(&g.record.black),
                result_text(g.result()),
                readable(g.reason())
            );
            out!("{}", s.pairs[a][b].score_line(&names[a], &names[b]));
        });
        bar.inc(1);
        if let Some(w) = records.as_mut()
            && write_error.is_none()
            && let Err(e) = writeln!(w, "{}", g.record).and_then(|()| w.flush())
        {
            write_error = Some(e);
        }
    };
    let summary = run_tournament(config, on_game).await?;
    bar.finish_and_clear();
    if let Some(e) = write_error {
        bail!("--records: cannot write: {e}");
    }
    if summary.skipped > 0 {
        out!(
            "{} scheduled games were not played (the SPRT decided)",
            summary.skipped
        );
    }
    let st = &summary.standings;
    if two {
        if let (Some(sprt), Some(v)) = (sprt, summary.sprt) {
            let (llr, lo, hi) = sprt.llr(&st.pairs[0][1]);
            let verdict = match v {
                SprtVerdict::AcceptH0 => "H0 was accepted",
                SprtVerdict::AcceptH1 => "H1 was accepted",
                SprtVerdict::Continue => "no decision yet",
            };
            out!("SPRT: llr {llr:.2} ({lo:.2}, {hi:.2}), {verdict}");
        }
        out!("{}", st.pairs[0][1].score_line(&names[0], &names[1]));
        out!("{}", st.pairs[0][1].elo_line());
    } else {
        out!("{}", st.table());
    }
    if let Some(line) = st.faults_line() {
        out!("{line}");
    }
    Ok(ExitCode::SUCCESS)
}

async fn check(command: Vec<String>) -> Result<ExitCode> {
    let mut words = command.into_iter();
    let program = words.next().context("arena check needs a PROGRAM")?;
    let args: Vec<String> = words.collect();
    let words: Vec<&str> = std::iter::once(program.as_str())
        .chain(args.iter().map(String::as_str))
        .collect();
    out!("Checking {}", shown(&words.join(" ")));
    let report = boardgames_tools::conformance::run(&program, &args).await;
    out!("{report}");
    if report.passed() {
        out!("The engine conforms to protocol.md.");
        Ok(ExitCode::SUCCESS)
    } else {
        out!("The engine does NOT conform to protocol.md.");
        Ok(ExitCode::FAILURE)
    }
}

/// Waits for a closed standard output ([`OUTPUT_CLOSED`]), Ctrl-C (SIGINT) or, on Unix, SIGTERM,
/// and names it.
async fn interrupted() -> &'static str {
    tokio::select! {
        () = OUTPUT_CLOSED.notified() => "output closed",
        signal = signalled() => signal,
    }
}

/// Waits for Ctrl-C (SIGINT) or, on Unix, SIGTERM, and names it; never returns if neither can be
/// watched.
async fn signalled() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => tokio::select! {
                r = tokio::signal::ctrl_c() => match r {
                    Ok(()) => "interrupted",
                    Err(_) => std::future::pending().await,
                },
                _ = term.recv() => "terminated",
            },
            Err(_) => match tokio::signal::ctrl_c().await {
                Ok(()) => "interrupted",
                Err(_) => std::future::pending().await,
            },
        }
    }
    #[cfg(not(unix))]
    match tokio::signal::ctrl_c().await {
        Ok(()) => "interrupted",
        Err(_) => std::future::pending().await,
    }
}

fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
    let mut cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    if let (Cmd::Match(args), Some(("match", m))) = (&mut cli.command, matches.subcommand()) {
        args.engines = m
            .get_occurrences::<String>("engine")
            .map(|occ| occ.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
    }
    // Engines may be board-call adapters: what a killed one leaves (run folders, cgroups) is
    // removed after each engine's exit.
    boardgames_tools::adapter::sandbox::clean_after_each_engine();
    // What an engine leaves behind (a `setsid` grandchild outside its cgroup, or anything where
    // no cgroup can be made) is reparented here and killed when an engine ends. Without it the
    // engines' cgroups and process groups are all there is.
    #[cfg(target_os = "linux")]
    if let Err(e) = boardgames_tools::process::contain::become_subreaper() {
        eprintln!(
            "warning: cannot become a child subreaper ({e}): what an engine leaves outside its \
             process group may outlive it"
        );
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async {
        let work = async {
            match cli.command {
                Cmd::Match(args) => run_match(*args).await,
                Cmd::Check { command } => check(command).await,
                Cmd::Class(args) => class::run_class(*args).await,
                Cmd::Report(args) => class::run_report(args).await,
            }
        };
        tokio::select! {
            r = work => r,
            signal = interrupted() => {
                // The engines run in process groups of their own: end them here.
                boardgames_tools::client::kill_all();
                // Not eprintln!: standard error may be the closed pipe too.
                let _ = writeln!(std::io::stderr(), "arena: {signal}: every engine was ended");
                // 141 = 128 + SIGPIPE, as a shell reports a pipe's writer that the pipe ended.
                Ok(ExitCode::from(if signal == "output closed" { 141 } else { 130 }))
            }
        }
    });
    // A grading still running on its thread after Ctrl-C is not waited for.
    runtime.shutdown_background();
    match result {
        Ok(code) => code,
        Err(e) => {
            // The message may quote a file or an engine: one line, no control character.
            eprintln!("error: {}", shown(&format!("{e:#}")));
            ExitCode::from(2)
        }
    }
}
