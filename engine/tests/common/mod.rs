//! Helpers shared by the integration tests: small deterministic PRNGs (runs are reproducible
//! without the `rand` crate), shortcuts to read boards, random positions of every game that are
//! reachable by legal play (random playouts from the start or from a random legal layout), a
//! plain minimax with the search's score conventions, and the engine binary started with its
//! output read line by line.

#![allow(dead_code)]

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc;

use boardgames_core::eval::Evaluate;
use boardgames_core::games::format::{parse_board, slash};
use boardgames_core::games::notation::move_name;
use boardgames_core::games::{Ctf, Game, GameKind, Line, MoveList, Piece, Side};
use boardgames_core::score::WIN;
use boardgames_core::splitmix::SplitMix64;

/// The crate's SplitMix64, with helpers to pick moves and squares.
#[derive(Clone, Debug)]
pub struct Rng(SplitMix64);

impl Rng {
    /// A generator from a seed; equal seeds give equal sequences.
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix64::new(seed ^ 0x6A09_E667_F3BC_C908))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// White or Black, evenly.
    pub fn side(&mut self) -> Side {
        if self.below(2) == 0 {
            Side::White
        } else {
            Side::Black
        }
    }
}

/// The sizes the tests exercise for each game.
pub fn sizes(kind: GameKind) -> &'static [usize] {
    match kind {
        GameKind::Oska => &[4, 5, 6, 8],
        GameKind::Hexapawn => &[3, 4, 5, 7],
        GameKind::Ctf => &[3, 4, 5, 7],
    }
}

/// Reads a board (any format) with a side to move, panicking with the error if it is refused.
pub fn line<G: Game>(text: &str, side: Side) -> Line<G> {
    match parse_board::<G>(text, side) {
        Ok(p) => p.line,
        Err(e) => panic!("{text} should be accepted, but: {e}"),
    }
}

/// The position of a board text (no history).
pub fn pos<G: Game>(text: &str, side: Side) -> G {
    *line::<G>(text, side).current()
}

/// The legal moves of a line.
pub fn legal<G: Game>(line: &Line<G>) -> MoveList {
    let mut moves = MoveList::new();
    line.legal_moves(&mut moves);
    moves
}

/// The boards (`/`-joined) reachable in one legal move; a pass gives the unchanged board.
pub fn legal_boards<G: Game>(line: &Line<G>) -> BTreeSet<String> {
    let cur = line.current();
    legal(line)
        .as_slice()
        .iter()
        .map(|&m| slash(&cur.play(m)))
        .collect()
}

/// The names of the legal moves (`d1c2`, `pass`).
pub fn legal_names<G: Game>(line: &Line<G>) -> BTreeSet<String> {
    let cur = line.current();
    legal(line)
        .as_slice()
        .iter()
        .map(|&m| move_name(cur, m))
        .collect()
}

/// A set of board strings, for comparisons.
pub fn set(boards: &[&str]) -> BTreeSet<String> {
    boards.iter().map(|s| s.to_string()).collect()
}

/// The boards after each of the six moves of Oska's four-piece start, White to move
/// (`wwww/---/--/---/bbbb`): the rules' answer, checked in the library and through the CLI.
pub const OSKA_4_FIRST_BOARDS: [&str; 6] = [
    "-www/w--/--/---/bbbb",
    "w-ww/w--/--/---/bbbb",
    "w-ww/-w-/--/---/bbbb",
    "ww-w/-w-/--/---/bbbb",
    "ww-w/--w/--/---/bbbb",
    "www-/--w/--/---/bbbb",
];

/// Plays up to `plies` random legal moves from `line`, stopping at the end of the game.
pub fn playout<G: Game>(rng: &mut Rng, line: &mut Line<G>, plies: usize) {
    for _ in 0..plies {
        let moves = legal(line);
        if moves.is_empty() {
            break;
        }
        line.push(moves.as_slice()[rng.below(moves.len())]);
    }
}

/// A random legal layout of a game and size, with a random side to move: Oska and Hexapawn get 1
/// to `size` pieces a side anywhere; Capture the Flag one flag a side and 1 to `size + 2` pawns a
/// side. The game may already be over.
pub fn random_layout<G: Game>(rng: &mut Rng, size: usize) -> G {
    let squares = G::layout_of(size).squares();
    let mut cells: Vec<Option<Piece>> = vec![None; squares];
    let mut free: Vec<usize> = (0..squares).collect();
    let mut place = |rng: &mut Rng, piece: Piece| {
        let i = rng.below(free.len());
        cells[free.swap_remove(i)] = Some(piece);
    };
    for side in [Side::White, Side::Black] {
        let pawns = match G::KIND {
            GameKind::Ctf => {
                place(rng, Piece::flag(side));
                rng.range(1, (size + 2).min(squares / 2 - 1))
            }
            _ => rng.range(1, size),
        };
        for _ in 0..pawns {
            place(rng, Piece::pawn(side));
        }
    }
    let side = rng.side();
    G::from_cells(size, &cells, side).expect("a random layout within the limits is accepted")
}

/// A random reachable line: from the start (two times in three) or from a random layout, up to
/// `max_plies` random legal moves.
pub fn random_line<G: Game>(rng: &mut Rng, size: usize, max_plies: usize) -> Line<G> {
    let start = if rng.below(3) < 2 {
        G::start(size).expect("supported size")
    } else {
        random_layout::<G>(rng, size)
    };
    let mut line = Line::new(start);
    let plies = rng.range(0, max_plies);
    playout(rng, &mut line, plies);
    line
}

/// xorshift64*: deterministic, good enough for picking moves.
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A line reached by up to `max_plies` random legal moves from the start of `size`; `None` when
/// the game ended on the way.
pub fn random_playout<G: Game>(
    size: usize,
    max_plies: usize,
    rng: &mut XorShift,
) -> Option<Line<G>> {
    let mut line = Line::new(G::start(size).ok()?);
    let plies = rng.below(max_plies + 1);
    for _ in 0..plies {
        let mut moves = MoveList::new();
        line.legal_moves(&mut moves);
        if moves.is_empty() {
            return None;
        }
        let m = moves.as_slice()[rng.below(moves.len())];
        line.push(m);
    }
    line.outcome().is_none().then_some(line)
}

/// Plain negamax to exactly `depth` plies, with the search's conventions: a game won at ply `k`
/// is `WIN - k`, lost `-(WIN - k)`, drawn 0; a side with no legal move has lost; static
/// evaluation (clamped as the search clamps it) at the depth limit.
pub fn minimax<G: Game + Evaluate>(line: &mut Line<G>, depth: u32, ply: i32) -> i32 {
    minimax_with(line, depth, ply, G::evaluate)
}

/// The value at ply `ply` of a line whose game is over, with the search's conventions (see
/// [`minimax`]); `None` while it goes on, its legal moves then in `moves`.
pub fn value_if_over<G: Game>(line: &Line<G>, ply: i32, moves: &mut MoveList) -> Option<i32> {
    let pos = line.current();
    if let Some(o) = pos.board_outcome() {
        return Some(match o.winner() {
            None => 0,
            Some(w) if w == pos.side_to_move() => WIN - ply,
            Some(_) => -(WIN - ply),
        });
    }
    line.legal_moves(moves);
    moves.is_empty().then_some(-(WIN - ply))
}

/// [`minimax`] with the static evaluator `eval` (one of `boardgames_core::eval::EvalKind`'s).
pub fn minimax_with<G: Game>(line: &mut Line<G>, depth: u32, ply: i32, eval: fn(&G) -> i32) -> i32 {
    let mut moves = MoveList::new();
    if let Some(value) = value_if_over(line, ply, &mut moves) {
        return value;
    }
    if depth == 0 {
        let l = boardgames_core::eval::EVAL_LIMIT;
        return eval(line.current()).clamp(-l, l);
    }
    let mut best = i32::MIN;
    for &m in moves.as_slice() {
        line.push(m);
        best = best.max(-minimax_with(line, depth - 1, ply + 1, eval));
        line.pop();
    }
    best
}

/// A Capture the Flag game of exactly `plies` random legal moves from the start of `size` that
/// has not ended: mostly quiet moves (captures and forward steps are rare, so that the game can
/// go on for a long time), never a move that ends the game; where every move would, some plies
/// are taken back. Returns the line and its moves.
pub fn long_ctf_game(size: usize, plies: usize, seed: u64) -> (Line<Ctf>, Vec<String>) {
    let mut rng = Rng::new(seed);
    let mut line = Line::new(Ctf::start(size).expect("supported size"));
    let mut names = Vec::with_capacity(plies);
    let mut takebacks = 0;
    while names.len() < plies {
        let pos = *line.current();
        let moves = legal(&line);
        let mut quiet = Vec::new();
        let mut other = Vec::new();
        for &m in moves.as_slice() {
            line.push(m);
            let ends = line.outcome().is_some();
            line.pop();
            if ends {
                continue;
            }
            let (from_row, _) = pos.layout().coords(m.from as usize);
            let (to_row, _) = pos.layout().coords(m.to as usize);
            let flag = pos.piece_at(m.from as usize).is_some_and(|p| p.is_flag());
            if pos.is_capture(m) || (from_row != to_row && !flag) {
                other.push(m);
            } else {
                quiet.push(m);
            }
        }
        let pick = if !quiet.is_empty() && (other.is_empty() || rng.below(5000) != 0) {
            quiet[rng.below(quiet.len())]
        } else if !other.is_empty() {
            other[rng.below(other.len())]
        } else {
            // Every move ends the game or repeats a board: take back some plies and go on.
            takebacks += 1;
            assert!(takebacks < 10_000, "the random game (seed {seed}) is stuck");
            for _ in 0..rng.range(1, 64).min(names.len()) {
                line.pop();
                names.pop();
            }
            continue;
        };
        names.push(move_name(&pos, pick));
        line.push(pick);
    }
    (line, names)
}

/// Live processes (zombies aside) whose command line mentions `dir`, after giving them up to two
/// seconds to go.
pub fn leftovers(dir: &std::path::Path) -> Vec<String> {
    let needle = dir.display().to_string();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    loop {
        let mut found = Vec::new();
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let pid = entry.file_name().to_string_lossy().into_owned();
            if !pid.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            let Ok(cmd) = std::fs::read(entry.path().join("cmdline")) else {
                continue;
            };
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
            let zombie = stat
                .rsplit(')')
                .next()
                .is_some_and(|s| s.trim_start().starts_with('Z'));
            if cmd.contains(&needle) && !zombie {
                found.push(format!("{pid}: {cmd}"));
            }
        }
        if found.is_empty() || std::time::Instant::now() > deadline {
            return found;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// Starts the engine binary with `args`, its standard input and output piped and its standard
/// error as `stderr` says.
pub fn start_engine(args: &[&str], stderr: Stdio) -> Child {
    Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("the engine binary runs")
}

/// Starts the engine binary with `args` (stderr dropped). A thread of its own reads its stdout
/// line by line into the channel, so a test can wait for a reply with a timeout instead of
/// hanging on an engine that does not answer.
pub fn spawn_engine(args: &[&str]) -> (Child, ChildStdin, mpsc::Receiver<String>) {
    let mut child = start_engine(args, Stdio::null());
    let stdin = child.stdin.take().expect("piped stdin");
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (child, stdin, lines)
}

/// A fresh directory for one test, removed when dropped. Our engine is reached through a symlink
/// inside it, so that every process a run starts names the directory on its command line (and
/// [`Scratch::leftovers`] finds what outlived a run).
pub struct Scratch {
    /// The directory.
    pub dir: std::path::PathBuf,
}

impl Scratch {
    /// A new directory `PREFIX-PID-NAME-N` in the system's temporary directory, holding the
    /// `engine` link.
    pub fn new(prefix: &str, name: &str) -> Scratch {
        static COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "{prefix}-{}-{name}-{}",
            std::process::id(),
            COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_engine"), dir.join("engine")).unwrap();
        Scratch { dir }
    }

    /// The path of our engine's link.
    pub fn engine(&self) -> String {
        self.dir.join("engine").display().to_string()
    }

    /// A path inside the directory.
    pub fn path(&self, name: &str) -> std::path::PathBuf {
        self.dir.join(name)
    }

    /// Writes a file inside the directory; returns its path.
    pub fn write(&self, name: &str, text: &(impl AsRef<[u8]> + ?Sized)) -> String {
        let p = self.path(name);
        std::fs::write(&p, text.as_ref()).unwrap();
        p.display().to_string()
    }

    /// Live processes whose command line mentions this directory (see [`leftovers`]).
    pub fn leftovers(&self) -> Vec<String> {
        leftovers(&self.dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The commands `BINARY COMMAND... -h` lists, checking that each is summed up on one line of at
/// most 100 characters (a summary that wraps onto a second line fails).
pub fn short_help_commands(binary: &str, command: &[&str]) -> BTreeSet<String> {
    let out = Command::new(binary)
        .args(command)
        .arg("-h")
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "{binary} {command:?} -h");
    let text = String::from_utf8(out.stdout).expect("UTF-8 help");
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| *l == "Commands:")
        .expect("a Commands: section");
    lines[start + 1..]
        .iter()
        .take_while(|l| !l.trim().is_empty())
        .map(|l| {
            assert!(
                l.starts_with("  ") && !l.starts_with("   "),
                "{binary}: a summary runs onto a second line: {l:?}"
            );
            assert!(
                l.len() <= 100,
                "{binary}: a summary longer than a line: {l:?}"
            );
            l.split_whitespace().next().unwrap().to_string()
        })
        .collect()
}

/// What a finished command wrote: its standard output, then its standard error after a
/// `--- stderr ---` line (what an assertion on the command shows when it fails).
pub fn text(o: &Output) -> String {
    format!(
        "{}\n--- stderr ---\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The whole number that follows the first `marker` in `text` (up to the next blank), if any.
pub fn number_after(text: &str, marker: &str) -> Option<u64> {
    text.split(marker)
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
}

/// The words of `engine tablebase build GAME SIZE --dir DIR`.
pub fn tablebase_build<'a>(game: &'a str, size: &'a str, dir: &'a std::path::Path) -> [&'a str; 6] {
    [
        "tablebase",
        "build",
        game,
        size,
        "--dir",
        dir.to_str().unwrap(),
    ]
}

/// The words of an `arena match` of Oska 4, a `tournament` of `games` games a pairing, with
/// the further `options`; the engines (for a gauntlet, its own first) are to follow.
pub fn oska_tournament(tournament: &str, games: &str, options: &[&str]) -> Vec<String> {
    let mut words = vec![
        "match",
        "--game",
        "oska",
        "--size",
        "4",
        "--tournament",
        tournament,
        "--games",
        games,
    ];
    words.extend_from_slice(options);
    words.into_iter().map(String::from).collect()
}

/// The `--engine` words of a Python proxy `script` in front of our `engine`, misbehaving as
/// `mode` says, named `name`, with the further engine settings `settings` (a limit, a timeout).
pub fn proxy_engine(
    script: &str,
    mode: &str,
    engine: &str,
    name: &str,
    settings: &[&str],
) -> Vec<String> {
    let mut words = vec![
        "--engine".to_string(),
        "cmd=python3".into(),
        format!("arg={script}"),
        format!("arg={mode}"),
        format!("arg={engine}"),
        format!("name={name}"),
    ];
    words.extend(settings.iter().map(|w| w.to_string()));
    words
}
