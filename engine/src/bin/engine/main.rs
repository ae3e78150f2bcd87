//! The `engine` binary: with no arguments it speaks the line protocol of `protocol.md` on stdin
//! and stdout; with a subcommand it runs one-shot commands that mirror the seeds' functions.

mod commands;
mod tablebase;
mod tune;

use std::fmt::Display;
use std::path::PathBuf;
use std::process::ExitCode;
use std::str::FromStr;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::error::ErrorKind;
use clap::{Args, Parser, Subcommand};
use engine::eval::EvalKind;
use engine::games::GameKind;
use engine::tuning::teach::Games;

/// Rules engine for Oska, Hexapawn and Capture the Flag.
///
/// Without a subcommand, the engine speaks the line protocol of protocol.md on stdin/stdout
/// (send `uci` to start, `quit` to end).
///
/// GAME is oska, hexapawn or ctf. BOARD is in any seed format: rows joined with '/'
/// (wwww/---/--/---/bbbb), a Python or Haskell list of rows (['www','---','bbb']), a Lisp list
/// ((w w w w)(nil nil nil)(nil nil)(nil nil nil)(b b b b)), one row-major string, or for ctf a
/// history list of such strings, most recent first. SIDE is w or b. Results are printed in the
/// format of the input.
///
/// GAME, SIDE and every number are spelt exactly as in the protocol: the names in lower case,
/// numbers with digits only (no sign). A bad argument prints one line on stderr and exits with
/// status 1; `best` on a finished game exits with status 3.
#[derive(Parser, Debug)]
#[command(name = "engine", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// The limits of a function adapter's driver (`engine board-call FILE.py:FUNCTION`), and of a
/// program with `--limited`; 0 turns one off.
/// The game, size and set files of a pattern-weights command (`tune-patterns`,
/// `refine-patterns`).
#[derive(Args, Debug, Clone)]
pub(crate) struct PatternArgs {
    /// hexapawn or oska.
    #[arg(value_parser = game_name)]
    pub game: String,
    /// The size (board width, or Oska's pieces a side).
    #[arg(allow_hyphen_values = true, value_parser = board_size)]
    pub size: usize,
    /// Set files of GAME made by `engine positions` (exact values; `tune-patterns` also takes
    /// game results made with --results).
    pub files: Vec<PathBuf>,
    /// Set files whose positions, and the positions one move after them, are left out (the
    /// sets `engine blunders` measures on); may be given more than once.
    #[arg(long)]
    pub exclude: Vec<PathBuf>,
}

/// The settings of a refinement with the search (`refine-patterns`, `refine-weights`).
#[derive(Args, Debug, Clone)]
pub(crate) struct RefineArgs {
    /// Depths searched: a range such as 3-4 or a list such as 3,4.
    #[arg(long, default_value = "3,4")]
    pub depths: String,
    /// Gradient steps (default 100 for refine-patterns, 30 for refine-weights).
    #[arg(long)]
    pub epochs: Option<usize>,
    /// Step size (default 0.05 for refine-patterns; for refine-weights, about how many units
    /// each weight moves an epoch, default 1).
    #[arg(long)]
    pub rate: Option<f64>,
    /// Temperature of the pairwise loss, in evaluation units.
    #[arg(long, default_value_t = 100.0)]
    pub temperature: f64,
    /// Threads searching, 1 to 64 (the weights do not depend on it).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: u16,
}

#[derive(Args, Debug, Clone)]
pub(crate) struct LimitArgs {
    /// CPU seconds of the driver for one game (RLIMIT_CPU).
    #[arg(long, value_name = "SECONDS", default_value_t = 300)]
    pub cpu: u64,
    /// Address space of each of its processes, in MiB (RLIMIT_AS).
    #[arg(long, value_name = "MIB", default_value_t = 2048)]
    pub memory: u64,
    /// Processes and threads it may run at once (the cap of a pids cgroup where one can be
    /// made, else watched).
    #[arg(long, value_name = "N", default_value_t = 32)]
    pub processes: u64,
    /// Wall-clock milliseconds one move may take.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pub move_timeout: u64,
    /// MiB it may print during one move.
    #[arg(long, value_name = "MIB", default_value_t = 64)]
    pub output: u64,
    /// Keep the network (by default a private network namespace, where the system allows it).
    #[arg(long)]
    pub allow_network: bool,
    /// Start the driver for every move instead of once per game.
    #[arg(long)]
    pub no_reuse: bool,
    /// Run a PROGRAM under these limits too (a function always runs under them), in the sandbox
    /// with a scratch folder as its working directory: it sees its own file and the files its
    /// arguments name (give them as absolute paths), read-only.
    #[arg(long)]
    pub limited: bool,
    /// Run without the sandbox (bubblewrap): the submission can then read and write whatever
    /// this user can, and what it starts may outlive it. Warns on every run.
    #[arg(long)]
    pub no_sandbox: bool,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print every board SIDE can reach in one move.
    ///
    /// Print every board reachable in one move by SIDE, one per line, in the input's format (no
    /// line at all when SIDE has no move, as in Oska's pass).
    Movegen {
        /// oska, hexapawn or ctf.
        #[arg(value_parser = game_name)]
        game: String,
        /// The board, in any seed format.
        #[arg(allow_hyphen_values = true)]
        board: String,
        /// The side to move: w or b.
        #[arg(value_parser = side_name)]
        side: String,
    },
    /// Count the move sequences of exactly DEPTH plies.
    ///
    /// Count move sequences of exactly DEPTH plies: one line `MOVE COUNT` per legal move, then
    /// `nodes TOTAL`.
    Perft {
        /// oska, hexapawn or ctf.
        #[arg(value_parser = game_name)]
        game: String,
        /// The board, in any seed format.
        #[arg(allow_hyphen_values = true)]
        board: String,
        /// The side to move: w or b.
        #[arg(value_parser = side_name)]
        side: String,
        /// Plies to count, 0 to 30 (a forced pass counts as a ply).
        #[arg(allow_hyphen_values = true, value_parser = perft_depth)]
        depth: u32,
    },
    /// Act as a protocol engine by calling a seed-shaped program or function.
    ///
    /// Speak the protocol on stdin/stdout, calling a seed-shaped PROGRAM (board in, board out)
    /// once per `go`: PROGRAM [ARGS...] BOARD SIDE DEPTH (or that line on its stdin), whose last
    /// printed board (one line in any seed format or a Python tuple, or one row per line; traces
    /// and trailers ignored) is the board after its move. Or a seed FUNCTION: FILE.py:FUNCTION,
    /// FILE.hs:FUNCTION or FILE.lisp:FUNCTION, called with the seed's arguments by a driver
    /// started once per game, under limits (--cpu, --memory, ...; a PROGRAM too with
    /// --limited). See protocol.md, "The board-call adapter".
    BoardCall {
        /// The board format sent to the program: slash, python, haskell, lisp or flat.
        #[arg(long, default_value = "slash")]
        format: String,
        /// The depth passed when `go` names none (go nodes, go movetime, ...).
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
        depth: u32,
        /// How the program gets BOARD SIDE DEPTH: as arguments (args) or one line on stdin.
        #[arg(long, default_value = "args")]
        input: String,
        /// Limits of a function's driver.
        #[command(flatten)]
        limits: LimitArgs,
        /// The program and its arguments (after `--`).
        #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
        command: Vec<String>,
    },
    /// Print the board after SIDE's best move, searched to exactly DEPTH plies.
    ///
    /// Search SIDE's best move to exactly DEPTH plies and print the board after it, in the
    /// input's format, as the last line (the board unchanged when SIDE must pass). On a finished
    /// game: prints "the game is over: ..." on stderr, nothing on stdout, and exits with status 3.
    Best {
        /// oska, hexapawn or ctf.
        #[arg(value_parser = game_name)]
        game: String,
        /// The board, in any seed format.
        #[arg(allow_hyphen_values = true)]
        board: String,
        /// The side to move: w or b.
        #[arg(value_parser = side_name)]
        side: String,
        /// Plies to search, 1 to 100 (2: SIDE's move and the reply).
        #[arg(allow_hyphen_values = true, value_parser = best_depth)]
        depth: u32,
        /// Print one line per searched node before the answer (format: see the search module).
        #[arg(long)]
        trace: bool,
        /// The board size, which must agree with the board (Hexapawn's size argument).
        #[arg(long, allow_hyphen_values = true, value_parser = board_size)]
        size: Option<usize>,
        /// Transposition table size in MiB, 1 to 4096.
        #[arg(long, default_value_t = 16, allow_hyphen_values = true, value_parser = hash_mib)]
        hash: usize,
        /// The static evaluator: tuned (the game's own, fitted to exact values), legacy (the
        /// first version's), or one of the seeds' classic ones: material, classic-advance
        /// (material and rows advanced), classic-race (the race count). Any case.
        #[arg(long, value_name = "NAME", default_value = "tuned", ignore_case = true,
              value_parser = eval_kind())]
        eval: EvalKind,
        /// Tablebase directory: positions its tables cover get their exact values (default:
        /// $TABLEBASE_PATH, else ./tablebases if it exists; a named directory must exist; see
        /// `engine tablebase`).
        #[arg(long, value_name = "DIR")]
        tablebase: Option<PathBuf>,
    },
    /// Solve a position exactly: win K, loss K or draw.
    ///
    /// Solve the position exactly: the last line is `win K`, `loss K` or `draw` for SIDE (K plies
    /// to the end with best play). Progress goes to stderr.
    Solve {
        /// oska, hexapawn or ctf.
        #[arg(value_parser = game_name)]
        game: String,
        /// The board, in any seed format.
        #[arg(allow_hyphen_values = true)]
        board: String,
        /// The side to move: w or b.
        #[arg(value_parser = side_name)]
        side: String,
        /// Transposition table size in MiB, 1 to 4096.
        #[arg(long, default_value_t = 64, allow_hyphen_values = true, value_parser = hash_mib)]
        hash: usize,
        /// Threads sharing the table (Oska and Hexapawn; 1 is deterministic, more are faster but
        /// their node counts vary from run to run; the value is exact either way).
        #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = threads)]
        threads: u32,
        /// Tablebase directory: positions its tables cover get their exact values (default:
        /// $TABLEBASE_PATH, else ./tablebases if it exists; a named directory must exist; see
        /// `engine tablebase`).
        #[arg(long, value_name = "DIR")]
        tablebase: Option<PathBuf>,
    },
    /// Search fixed positions: the node count and the speed.
    ///
    /// Search fixed positions of every game to fixed depths; the last line is `nodes N nps M`
    /// (N is a signature of the search, checked against engine/bench.sig).
    Bench,
    /// Developer tool: make a set of positions labelled with exact values.
    ///
    /// Make a set of positions labelled with exact values (random and engine play from the start,
    /// each kept position solved with all its moves), or with game results (--results), for
    /// `engine blunders` and `engine tune`.
    #[command(hide = true)]
    Positions {
        /// oska, hexapawn or ctf.
        #[arg(value_parser = game_name)]
        game: String,
        /// The size (pieces a side for Oska, board width otherwise).
        #[arg(allow_hyphen_values = true, value_parser = board_size)]
        size: usize,
        /// Positions wanted.
        #[arg(long, default_value_t = 2000, allow_hyphen_values = true, value_parser = positive)]
        count: usize,
        /// Seed of the random choices (the same seed gives the same set).
        #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = seed)]
        seed: u64,
        /// The most nodes one solve may take; positions that need more are left out.
        #[arg(long, default_value_t = 2_000_000, allow_hyphen_values = true, value_parser = positive_u64)]
        budget: u64,
        /// Capture the Flag: earlier boards kept with each position (the history rule), 0 to 1000.
        #[arg(long, default_value_t = 4, allow_hyphen_values = true, value_parser = history_boards)]
        history: usize,
        /// Transposition table of the solver in MiB, 1 to 4096.
        #[arg(long, default_value_t = 256, allow_hyphen_values = true, value_parser = hash_mib)]
        hash: usize,
        /// Label positions with the results of games between engines using these evaluators
        /// (comma-separated, or all) instead of exact values: for sizes too large to solve.
        #[arg(long)]
        results: Option<String>,
        /// With --results: the depths the players search to, each game's side a random one
        /// (a range such as 2-4 or a list such as 4,6).
        #[arg(long, value_name = "DEPTHS", requires = "results")]
        depths: Option<String>,
        /// Instead of games: every distinct position within PLIES plies of the start (at most
        /// --count), each solved with all its moves.
        #[arg(long, value_name = "PLIES", allow_hyphen_values = true, value_parser = plies)]
        opening: Option<usize>,
        /// The file to write.
        #[arg(long)]
        out: PathBuf,
        /// Exact tables (see `engine tablebase`) the solver probes: positions they cover are
        /// labelled at once, so sets of games the solver alone cannot reach can start earlier.
        #[arg(long, value_name = "DIR")]
        tablebase: Option<PathBuf>,
    },
    /// Developer tool: measure the evaluators' blunder rates on position sets.
    ///
    /// Print blunder rates: for each evaluator and depth, the share of a set's critical positions
    /// (where some move throws the value away) in which the searched move throws it away.
    #[command(hide = true)]
    Blunders {
        /// Set files made by `engine positions`.
        files: Vec<PathBuf>,
        /// Evaluators, comma-separated, or all: tuned, legacy, material, classic-advance,
        /// classic-race.
        #[arg(long, default_value = "all")]
        evals: String,
        /// Depths: a range such as 1-6 or a list such as 3,4.
        #[arg(long, default_value = "1-6")]
        depths: String,
        /// After the table, each blunder as a line of a set, under a comment naming the
        /// evaluator, the depth and the move it plays.
        #[arg(long)]
        show: bool,
    },
    /// Developer tool: fit a game's tuned evaluator to position sets.
    ///
    /// Fit the weights of GAME's tuned evaluator to set files by logistic regression on the
    /// exact values; prints the fit and, with --write, writes the weights file.
    #[command(hide = true)]
    Tune {
        /// oska, hexapawn or ctf.
        #[arg(value_parser = game_name)]
        game: String,
        /// Set files made by `engine positions`.
        files: Vec<PathBuf>,
        /// Seed deciding the held-out fifth.
        #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = seed)]
        seed: u64,
        /// Write the weights to this file (engine/src/eval/weights_GAME.rs).
        #[arg(long)]
        write: Option<PathBuf>,
    },
    /// Developer tool: fit the pattern weights of one size.
    ///
    /// Fit the pattern weights of the Hexapawn or Oska evaluator of one size to set files (the
    /// positions and every position one move after them, with the linear features' score as
    /// given; a position of a result set counts alone, aimed at its game's result); prints the
    /// fit and, with --write, writes the weights file.
    #[command(hide = true)]
    TunePatterns {
        #[command(flatten)]
        target: PatternArgs,
        /// Seed deciding the held-out fifth and the order of the examples.
        #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = seed)]
        seed: u64,
        /// Write the weights to this file (engine/data/patterns/GAME-SIZE.bin).
        #[arg(long)]
        write: Option<PathBuf>,
    },
    /// Developer tool: refine the pattern weights with the search.
    ///
    /// Refine the pattern weights of the Hexapawn or Oska evaluator of one size with the search:
    /// gradient steps on a pairwise loss so that searches to DEPTHS, in the critical positions
    /// of the set files, score a move that keeps the exact value above every move that throws
    /// it away (docs/research/2026-11-24-strength.md,
    /// "Refining the weights with the search"); prints each epoch's blunders
    /// and, with --write, writes the weights file.
    #[command(hide = true)]
    RefinePatterns {
        #[command(flatten)]
        target: PatternArgs,
        /// The weights to start from: a file written by `engine tune-patterns` (default: the
        /// committed weights of the size).
        #[arg(long)]
        from: Option<PathBuf>,
        #[command(flatten)]
        refine: RefineArgs,
        /// Write the weights to this file (engine/data/patterns/GAME-SIZE.bin).
        #[arg(long)]
        write: Option<PathBuf>,
    },
    /// Developer tool: refine Capture the Flag's weights, taught by a deeper search.
    ///
    /// Refine the linear weights of the Capture the Flag evaluator for one board size, and a
    /// piece-square term of that size (a weight for each kind of piece on each square, started
    /// at 0), with the search, taught by a deeper search. It starts from the weights of `engine
    /// tune` (weights_ctf.rs), with which the tuned player plays games at --depth against the
    /// classic evaluators; in each position where it is to move before --max-ply, the same
    /// player searched to --teacher-depth gives the teacher's move; gradient steps on a
    /// pairwise loss then make searches to DEPTHS score the teacher's move above every other
    /// (docs/research/2026-11-24-strength.md,
    /// "Capture the Flag 5: refined by a deeper search"). Prints each epoch's agreement
    /// and, with --write, writes a weights file for that size only.
    #[command(hide = true)]
    RefineWeights {
        /// ctf (Oska and Hexapawn have pattern terms: see refine-patterns).
        #[arg(value_parser = game_name)]
        game: String,
        /// Board width of the games.
        #[arg(allow_hyphen_values = true, value_parser = board_size)]
        size: usize,
        /// Openings; each is played twice, the tuned evaluator once with each colour.
        #[arg(long, default_value_t = 300)]
        openings: usize,
        /// Random plies of an opening.
        #[arg(long, default_value_t = 4)]
        plies: usize,
        /// Seed of the openings.
        #[arg(long, default_value_t = 1000, allow_hyphen_values = true, value_parser = seed)]
        seed: u64,
        /// Depth of both players in the games.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: u32,
        /// The opponents, comma-separated, in turn from one opening to the next.
        #[arg(long, default_value = "classic-race,material,classic-advance")]
        opponents: String,
        /// Positions are kept before this ply of a game (counted from the start).
        #[arg(long, default_value_t = 200)]
        max_ply: usize,
        /// Depth of the teacher's search.
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=64))]
        teacher_depth: u32,
        /// A set file of exactly labelled positions (from `engine positions`) whose critical
        /// positions of SIZE join the taught ones, judged by their exact values (repeat for
        /// several).
        #[arg(long, value_name = "FILE")]
        exact: Vec<PathBuf>,
        /// How many taught positions' pairs one pair of an exact position counts as (few exact
        /// positions have both a move that keeps the value and one that throws it away).
        #[arg(long, default_value_t = 25.0)]
        exact_weight: f64,
        #[command(flatten)]
        refine: RefineArgs,
        /// Write the weights to this file (engine/src/eval/weights_ctf_refined.rs, which the
        /// evaluator uses at the size it names).
        #[arg(long)]
        write: Option<PathBuf>,
    },
    /// Build, probe and verify the exact tables of Oska and Hexapawn.
    ///
    /// Exact tables of Oska and Hexapawn (every position, or every position with at most K
    /// pieces a side), built by retrograde analysis: `build`, `probe`, `verify`. The directory is
    /// --dir, else $TABLEBASE_PATH, else ./tablebases.
    Tablebase {
        #[command(subcommand)]
        action: TablebaseAction,
    },
}

/// GAME as the protocol spells it: `oska`, `hexapawn` or `ctf`, lower case.
fn game_name(text: &str) -> Result<String, String> {
    GameKind::ALL
        .iter()
        .find(|g| g.name() == text)
        .map(|g| g.name().to_string())
        .ok_or_else(|| format!("'{text}' is not a game: write oska, hexapawn or ctf"))
}

/// SIDE as the protocol spells it: `w` or `b`.
fn side_name(text: &str) -> Result<String, String> {
    match text {
        "w" | "b" => Ok(text.to_string()),
        _ => Err(format!("'{text}' is not a side: write w or b")),
    }
}

/// A whole number written with decimal digits only (no sign), from `lo` to `hi`.
fn digits<T: FromStr + PartialOrd + Display>(text: &str, lo: T, hi: T) -> Result<T, String> {
    let range = || format!("a whole number from {lo} to {hi}, digits only");
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("'{text}' is not {}", range()));
    }
    match text.parse::<T>() {
        Ok(n) if n >= lo && n <= hi => Ok(n),
        _ => Err(format!("{text} is out of range: {}", range())),
    }
}

fn best_depth(text: &str) -> Result<u32, String> {
    digits(text, 1, 100)
}

fn perft_depth(text: &str) -> Result<u32, String> {
    digits(text, 0, 30)
}

fn hash_mib(text: &str) -> Result<usize, String> {
    digits(text, 1, 4096)
}

fn threads(text: &str) -> Result<u32, String> {
    digits(text, 1, 64)
}

fn max_pieces(text: &str) -> Result<usize, String> {
    digits(text, 1, engine::tablebase::index::MAX_PIECES)
}

fn board_size(text: &str) -> Result<usize, String> {
    digits(text, 3, 11)
}

fn positive(text: &str) -> Result<usize, String> {
    digits(text, 1, usize::MAX)
}

fn positive_u64(text: &str) -> Result<u64, String> {
    digits(text, 1, u64::MAX)
}

fn seed(text: &str) -> Result<u64, String> {
    digits(text, 0, u64::MAX)
}

fn plies(text: &str) -> Result<usize, String> {
    digits(text, 0, 40)
}

fn history_boards(text: &str) -> Result<usize, String> {
    digits(text, 0, 1000)
}

/// Reads an evaluator's name; `--help` and errors list every name.
fn eval_kind() -> impl TypedValueParser<Value = EvalKind> {
    PossibleValuesParser::new(EvalKind::ALL.map(EvalKind::name))
        .map(|name| EvalKind::parse(&name).expect("a listed name"))
}

/// What `engine tablebase` does.
#[derive(Subcommand, Debug)]
enum TablebaseAction {
    /// Compute the value (win or loss with its distance in plies, or draw) of every position of
    /// GAME at SIZE with at most K pieces a side, both sides to move, and write one file per
    /// material. Memory: one byte per position with White to move (Black to move is its mirror),
    /// plus a second copy of the largest materials while they are built (the start says how much).
    Build {
        /// oska or hexapawn.
        #[arg(value_parser = game_name)]
        game: String,
        /// The size (pieces a side for Oska, board width for Hexapawn).
        #[arg(allow_hyphen_values = true, value_parser = board_size)]
        size: usize,
        /// Build only positions with at most this many pieces a side, 1 to 8 and at most SIZE
        /// (default: the whole game).
        #[arg(long, value_name = "K", allow_hyphen_values = true, value_parser = max_pieces)]
        max_pieces: Option<usize>,
        /// The directory for the table files.
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Worker threads, 1 to 64.
        #[arg(long, default_value_t = 2, allow_hyphen_values = true, value_parser = threads)]
        threads: u32,
    },
    /// Print every legal move of the position with its exact value for SIDE, best first, then
    /// the position's value (`win K`, `loss K` or `draw`) as the last line.
    Probe {
        /// oska or hexapawn.
        #[arg(value_parser = game_name)]
        game: String,
        /// The board, in any seed format.
        #[arg(allow_hyphen_values = true)]
        board: String,
        /// The side to move: w or b.
        #[arg(value_parser = side_name)]
        side: String,
        /// The directory of the table files.
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// Check every table of GAME at SIZE as probing does: a regular file, its header, name and
    /// length, and the checksum of all its values.
    Verify {
        /// oska or hexapawn.
        #[arg(value_parser = game_name)]
        game: String,
        /// The size.
        #[arg(allow_hyphen_values = true, value_parser = board_size)]
        size: usize,
        /// The directory of the table files.
        #[arg(long)]
        dir: Option<PathBuf>,
    },
}

/// The exit status of `engine best` on a finished game.
const GAME_OVER: u8 = 3;

/// Parses the command line. `--help` and `--version` print and exit 0; any other error prints
/// one line on stderr (the error and the command's usage) and exits 1.
fn parse_cli() -> Result<Cli, ExitCode> {
    Cli::try_parse().map_err(|e| {
        if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        let text = e.render().to_string();
        // The message is the first paragraph (missing arguments are listed on lines of their
        // own), joined into one line.
        let message: Vec<&str> = text
            .lines()
            .take_while(|l| !l.trim().is_empty())
            .map(str::trim)
            .collect();
        let message = message.join(" ");
        let first = message.strip_prefix("error: ").unwrap_or(&message);
        let usage = text
            .lines()
            .find_map(|l| l.strip_prefix("Usage: "))
            .map_or(String::new(), |u| format!(" (usage: {u}; see --help)"));
        eprintln!("error: {first}{usage}");
        ExitCode::FAILURE
    })
}

fn main() -> ExitCode {
    let cli = match parse_cli() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    // The protocol loop (no subcommand, and board-call) handles a closed output itself.
    if !matches!(cli.command, None | Some(Command::BoardCall { .. })) {
        engine::default_sigpipe();
    }
    let result = match cli.command {
        None => engine::session::run_stdio(engine::session::SearchBackend::default())
            .map_err(anyhow::Error::from),
        Some(Command::Movegen { game, board, side }) => commands::movegen(&game, &board, &side),
        Some(Command::Perft {
            game,
            board,
            side,
            depth,
        }) => commands::perft(&game, &board, &side, depth),
        Some(Command::BoardCall {
            format,
            depth,
            input,
            limits,
            command,
        }) => commands::board_call(&format, depth, &input, &limits, command),
        Some(Command::Best {
            game,
            board,
            side,
            depth,
            trace,
            size,
            hash,
            eval,
            tablebase: tb,
        }) => commands::best(&game, &board, &side, depth, trace, size, hash, eval, tb),
        Some(Command::Solve {
            game,
            board,
            side,
            hash,
            threads,
            tablebase: tb,
        }) => commands::solve(&game, &board, &side, hash, threads as usize, tb),
        Some(Command::Bench) => commands::bench(),
        Some(Command::Positions {
            game,
            size,
            count,
            seed,
            budget,
            history,
            hash,
            results,
            depths,
            opening,
            out,
            tablebase,
        }) => {
            let spec = engine::tuning::positions::SetSpec {
                size,
                count,
                seed,
                budget,
                history,
                hash_mib: hash,
            };
            tune::positions(
                &game,
                &spec,
                results.as_deref(),
                depths.as_deref(),
                opening,
                tablebase.as_deref(),
                &out,
            )
        }
        Some(Command::Blunders {
            files,
            evals,
            depths,
            show,
        }) => tune::blunders(&files, &evals, &depths, show),
        Some(Command::Tune {
            game,
            files,
            seed,
            write,
        }) => tune::tune(&game, &files, seed, write.as_deref()),
        Some(Command::TunePatterns {
            target,
            seed,
            write,
        }) => tune::tune_patterns(&target, seed, write.as_deref()),
        Some(Command::RefinePatterns {
            target,
            from,
            refine,
            write,
        }) => tune::refine_options(&refine, 100, 0.05).and_then(|options| {
            tune::refine_patterns(&target, from.as_deref(), &options, write.as_deref())
        }),
        Some(Command::RefineWeights {
            game,
            size,
            openings,
            plies,
            seed,
            depth,
            opponents,
            max_ply,
            teacher_depth,
            exact,
            exact_weight,
            refine,
            write,
        }) => tune::refine_options(&refine, 30, 1.0).and_then(|options| {
            let games = Games {
                size,
                openings,
                plies,
                seed,
                depth,
                opponents: tune::parse_evals(&opponents, "--opponents")?,
                max_ply,
            };
            tune::refine_weights(
                &game,
                &games,
                teacher_depth,
                (&exact, exact_weight),
                &options,
                write.as_deref(),
            )
        }),
        Some(Command::Tablebase { action }) => match action {
            TablebaseAction::Build {
                game,
                size,
                max_pieces,
                dir,
                threads,
            } => tablebase::build(
                &game,
                size,
                max_pieces,
                &tablebase::dir_of(dir),
                threads as usize,
            ),
            TablebaseAction::Probe {
                game,
                board,
                side,
                dir,
            } => tablebase::probe(&game, &board, &side, &tablebase::dir_of(dir)),
            TablebaseAction::Verify { game, size, dir } => {
                tablebase::verify(&game, size, &tablebase::dir_of(dir))
            }
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is::<commands::GameOver>() => {
            eprintln!("{e}");
            ExitCode::from(GAME_OVER)
        }
        Err(e) => {
            // The message may quote a file (a set of positions): one line, no control character.
            eprintln!("error: {}", engine::protocol::shown(&format!("{e:#}")));
            ExitCode::FAILURE
        }
    }
}
