//! `engine board-call [--format F] [--depth N] [--input args|stdin] [LIMITS] -- PROGRAM
//! [ARGS...]`, or `-- FILE.EXT:FUNCTION` for a function.

use anyhow::Result;
use boardgames_tools::adapter::{
    BoardCall, FunctionCall, FunctionSpec, InputMode, Language, SeedFormat,
};

use crate::limits::DriverLimits;

/// Act as a protocol engine by calling a seed-shaped program or function.
///
/// Speak the protocol on stdin/stdout, calling a seed-shaped PROGRAM (board in, board out)
/// once per `go`: PROGRAM [ARGS...] BOARD SIDE DEPTH (or that line on its stdin), whose last
/// printed board (one line in any seed format or a Python tuple, or one row per line; traces
/// and trailers ignored) is the board after its move. Or a seed FUNCTION: FILE.py:FUNCTION,
/// FILE.hs:FUNCTION or FILE.lisp:FUNCTION, called with the seed's arguments by a driver
/// started once per game, under limits (--cpu, --memory, ...; a PROGRAM too with
/// --limited). See protocol.md, "The board-call adapter".
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The board format sent to the program: slash, python, haskell, lisp or flat.
    #[arg(long, default_value = "slash")]
    format: String,
    /// The depth passed when `go` names none (go nodes, go movetime, ...).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    depth: u32,
    /// How the program gets BOARD SIDE DEPTH: as arguments (args) or one line on stdin.
    #[arg(long, default_value = "args")]
    input: String,
    /// A function's folder (a student's): visible read-only to it and its working directory,
    /// so that the modules beside its file import.
    #[arg(long, value_name = "DIR")]
    folder: Option<std::path::PathBuf>,
    /// A function's language (python, haskell, lisp) when its file's extension does not say.
    #[arg(long)]
    language: Option<String>,
    /// Limits of a function's driver.
    #[command(flatten)]
    limits: LimitArgs,
    /// The program and its arguments (after `--`).
    #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
    command: Vec<String>,
}

/// The limits of a function adapter's driver (`engine board-call FILE.py:FUNCTION`), and of a
/// program with `--limited`; 0 turns one off.
#[derive(clap::Args, Debug, Clone)]
struct LimitArgs {
    #[command(flatten)]
    driver: DriverLimits,
    /// Wall-clock milliseconds one move may take.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    move_timeout: u64,
    /// MiB it may print during one move.
    #[arg(long, value_name = "MIB", default_value_t = 64)]
    output: u64,
    /// Keep the network (by default a private network namespace, where the system allows it).
    #[arg(long)]
    allow_network: bool,
    /// Start the driver for every move instead of once per game.
    #[arg(long)]
    no_reuse: bool,
    /// Run a PROGRAM under these limits too (a function always runs under them), in the sandbox
    /// with a scratch folder as its working directory: it sees its own file and the files its
    /// arguments name (give them as absolute paths), read-only.
    #[arg(long)]
    limited: bool,
    /// Run without the sandbox (bubblewrap): the submission can then read and write whatever
    /// this user can, and what it starts may outlive it. Warns on every run.
    #[arg(long)]
    no_sandbox: bool,
}

/// Speaks the protocol until `quit` or the end of stdin, calling the program or function.
pub fn run(args: Args) -> Result<()> {
    let Args {
        format,
        depth,
        input,
        folder,
        language,
        limits: given,
        command,
    } = args;
    let language = match language {
        Some(l) => Some(
            Language::parse(&l)
                .ok_or_else(|| anyhow::anyhow!("--language '{l}': use python, haskell or lisp"))?,
        ),
        None => None,
    };
    let some = |v: u64| (v > 0).then_some(v);
    let limits = boardgames_tools::adapter::ResourceLimits {
        cpu_seconds: some(given.driver.cpu),
        memory_mib: some(given.driver.memory),
        processes: some(given.driver.processes),
        move_timeout: some(given.move_timeout).map(std::time::Duration::from_millis),
        output_bytes: some(given.output).map(|m| m << 20),
        file_mib: boardgames_tools::adapter::ResourceLimits::untrusted().file_mib,
        scratch_mib: some(given.driver.scratch),
        load_timeout: some(given.driver.load_timeout).map(std::time::Duration::from_millis),
        compile_timeout: some(given.driver.compile_timeout).map(std::time::Duration::from_secs),
        no_network: !given.allow_network,
        sandbox: !given.no_sandbox,
    };
    let function = match command.as_slice() {
        [one] => FunctionSpec::parse_as(one, language),
        _ => None,
    };
    // An untrusted run needs the sandbox, or says on every run that it has none.
    let check_sandbox = || -> Result<()> {
        if given.no_sandbox {
            eprintln!(
                "warning: --no-sandbox: the submission runs unconfined: it can read and write every \
                 file this user can, and what it starts may outlive it"
            );
        } else if let Err(e) = boardgames_tools::adapter::sandbox::bwrap() {
            anyhow::bail!("{e}");
        }
        // Stopped by a signal, it removes its runs' folders and cgroups first.
        boardgames_tools::adapter::sandbox::clean_on_signals();
        Ok(())
    };
    if let Some(spec) = function {
        let spec = match &folder {
            Some(f) => spec?.in_folder(f)?,
            None => spec?,
        };
        let backend = FunctionCall::new(spec, depth, limits, !given.no_reuse)?;
        check_sandbox()?;
        boardgames_tools::session::run_stdio(backend)?;
        return Ok(());
    }
    let format = SeedFormat::parse(&format).map_err(|e| anyhow::anyhow!("--format: {e}"))?;
    let input = match input.as_str() {
        "args" => InputMode::Args,
        "stdin" => InputMode::Stdin,
        other => anyhow::bail!("--input '{other}': use args or stdin"),
    };
    if given.limited {
        check_sandbox()?;
    }
    let mut words = command.into_iter();
    let program = words
        .next()
        .ok_or_else(|| anyhow::anyhow!("board-call needs a PROGRAM after --"))?;
    let backend = BoardCall {
        program: program.into(),
        args: words.collect(),
        format,
        depth,
        input,
        limits: given.limited.then_some(limits),
    };
    boardgames_tools::session::run_stdio(backend)?;
    Ok(())
}
