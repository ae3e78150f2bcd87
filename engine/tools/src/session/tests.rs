//! In-process tests of the session: in-memory input and output.

use boardgames_core::eval::EvalKind;
use boardgames_core::games::notation::move_name;
use boardgames_core::games::{AnyLine, Ctf, Game, Line, Move, Oska, Side};
use boardgames_core::protocol::{Info, OptionKind, ProgressInfo};
use boardgames_core::score::Score;
use std::io::{Cursor, PipeWriter, Write};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, unbounded};
use proptest::prelude::*;

use super::*;

/// Output collected in memory.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Runs a whole session on `input` and returns its output lines.
fn session(input: impl Into<Vec<u8>>) -> Vec<String> {
    session_with(input, SearchBackend::default())
}

/// [`session`] with another backend.
fn session_with(input: impl Into<Vec<u8>>, backend: impl Backend) -> Vec<String> {
    let sink = Sink::default();
    run(Cursor::new(input.into()), sink.clone(), backend);
    let bytes = sink.0.lock().unwrap().clone();
    String::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Output sent line by line to a channel, for live sessions.
struct LineSink {
    partial: Vec<u8>,
    tx: Sender<String>,
}

impl Write for LineSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for &b in buf {
            if b == b'\n' {
                let line = String::from_utf8(std::mem::take(&mut self.partial)).unwrap();
                let _ = self.tx.send(line);
            } else {
                self.partial.push(b);
            }
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A session running on its own thread, fed through a pipe.
struct Live {
    input: Option<PipeWriter>,
    lines: Receiver<String>,
    done: thread::JoinHandle<()>,
}

impl Live {
    fn start() -> Live {
        Live::with(SearchBackend::default())
    }

    /// A live session with another backend.
    fn with(backend: impl Backend) -> Live {
        let (reader, writer) = io::pipe().unwrap();
        let (tx, rx) = unbounded();
        let done = thread::spawn(move || {
            run(
                reader,
                LineSink {
                    partial: Vec::new(),
                    tx,
                },
                backend,
            )
        });
        Live {
            input: Some(writer),
            lines: rx,
            done,
        }
    }

    fn send(&mut self, line: &str) {
        let w = self.input.as_mut().unwrap();
        w.write_all(line.as_bytes()).unwrap();
        w.write_all(b"\n").unwrap();
    }

    /// Sends each of `lines`, in order.
    fn send_all(&mut self, lines: &[&str]) {
        for line in lines {
            self.send(line);
        }
    }

    fn next(&self) -> String {
        self.lines
            .recv_timeout(Duration::from_secs(20))
            .expect("the session answers")
    }

    /// Lines up to and including the first one starting with `prefix`.
    fn until(&self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let l = self.next();
            let stop = l.starts_with(prefix);
            seen.push(l);
            if stop {
                return seen;
            }
        }
    }

    /// Lines before `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut seen = self.until("readyok");
        seen.pop();
        seen
    }

    fn close(mut self) -> Vec<String> {
        self.input = None;
        self.done.join().unwrap();
        self.lines.try_iter().collect()
    }
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("error ")).collect()
}

#[test]
fn handshake_and_quit() {
    let out = session("uci\nquit\nisready\n");
    assert_eq!(out.first().unwrap(), &format!("id name {NAME}"));
    assert!(out.contains(&"game oska 4 11".to_string()));
    assert!(out.contains(&"game hexapawn 3 11".to_string()));
    assert!(out.contains(&"game ctf 3 11".to_string()));
    assert!(out.contains(&"option name Hash type spin default 16 min 1 max 1048576".to_string()));
    assert!(out.contains(&"option name Threads type spin default 1 min 1 max 256".to_string()));
    assert!(out.contains(&"option name Trace type check default false".to_string()));
    assert_eq!(out.last().unwrap(), "uciok", "nothing is read after quit");
}

#[test]
fn position_with_10000_moves() {
    let moves = include_str!("testdata/ctf11_10000_moves.txt").trim();
    assert_eq!(moves.split(' ').count(), 10_000);
    let t = Instant::now();
    let out = session(format!(
        "newgame ctf 11\nposition startpos moves {moves}\nshow\nlegal\n"
    ));
    assert!(errors(&out).is_empty(), "{:?}", errors(&out));
    let board = out[0].split(' ').collect::<Vec<_>>();
    assert_eq!(board[0], "board");
    assert_eq!(board[5..8], ["from", "startpos", "moves"]);
    assert_eq!(board[8..].join(" "), moves, "show gives the moves played");
    assert_eq!(out[1], "result none");
    assert!(out[2].starts_with("legal "));
    assert!(t.elapsed() < Duration::from_secs(60));

    // The same line with a bad last move changes nothing and names the token.
    let bad = moves.rsplit_once(' ').unwrap().0.to_string() + " a1a1";
    let out = session(format!(
        "newgame ctf 11\nposition startpos moves {bad}\nshow\n"
    ));
    assert!(
        out[0].starts_with("error illegal-move move 10000 'a1a1'"),
        "{}",
        out[0]
    );
    let start = boardgames_core::games::format::slash(&Ctf::start(11).unwrap());
    assert_eq!(
        out[1],
        format!("board ctf 11 {start} w"),
        "the state is unchanged"
    );
}

#[test]
fn long_oska_line_stops_at_the_end_of_the_game() {
    let moves = ["a1a2", "a5a4"].repeat(5000).join(" ");
    let out = session(format!("position startpos moves {moves}\nshow\n"));
    assert_eq!(errors(&out).len(), 1);
    assert!(
        out[0].starts_with("error illegal-move move 3 'a1a2'"),
        "{}",
        out[0]
    );
    assert_eq!(out[1], "board oska 4 wwww/---/--/---/bbbb w");
}

#[test]
fn huge_depth_is_stoppable_and_too_huge_refused() {
    let mut live = Live::start();
    live.send("newgame ctf 11");
    live.send("go depth 4294967295");
    assert!(live.sync().iter().all(|l| l.starts_with("info ")));
    live.send("stop");
    let seen = live.until("bestmove");
    assert!(!seen.last().unwrap().ends_with("none"));
    live.send("go depth 4294967296");
    live.send("go depth 99999999999999999999999999999999");
    let seen = live.sync();
    assert_eq!(errors(&seen).len(), 2);
    assert!(seen.iter().all(|l| l.starts_with("error bad-value")));
    assert!(live.close().is_empty());
}

#[test]
fn setoption_out_of_range_is_refused() {
    let out = session(
        "setoption name Hash value 0\nsetoption name Hash value 1048577\nsetoption name Hash value -5\nsetoption name Hash value +16\nsetoption name hash value 64\nsetoption name Trace value yes\nsetoption name Trace value true\nsetoption name Ponder value true\nsetoption name Ponder value x\nsetoption name Threads value 0\nsetoption name Threads value 257\nsetoption name Threads value 2\n",
    );
    assert_eq!(out.len(), 9, "{out:?}");
    for l in &out[..4] {
        assert!(l.starts_with("error bad-value Hash"), "{l}");
    }
    assert!(out[4].starts_with("error bad-value Trace"));
    // An unknown option is unsupported whatever its value.
    assert!(out[5].starts_with("error unsupported"));
    assert!(out[6].starts_with("error unsupported"));
    assert!(out[7].starts_with("error bad-value Threads 0 is out of range 1 to 256"));
    assert!(out[8].starts_with("error bad-value Threads 257"));
}

/// The hash follows the machine: a size within range but above the memory free is refused and
/// says how much is free (on a machine with less than 1 TiB free, as every one this runs on).
#[test]
fn hash_above_the_free_memory_is_refused() {
    let Some(free) = boardgames_core::search::free_memory_mib() else {
        return;
    };
    if free >= boardgames_core::search::MAX_HASH_MIB {
        return;
    }
    let out = session("setoption name Hash value 1048576\n");
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].starts_with("error bad-value Hash 1048576 MiB is more than the memory free now ("),
        "{out:?}"
    );
    assert!(out[0].ends_with("MiB); unchanged"), "{out:?}");
}

#[test]
fn go_while_searching_is_busy_and_stop_while_idle_is_silent() {
    let mut live = Live::start();
    live.send("stop");
    assert!(live.sync().is_empty());
    live.send_all(&[
        "go infinite",
        "go depth 1",
        "position startpos moves a1a2",
        "show",
    ]);
    let seen = live.sync();
    let errs = errors(&seen);
    assert_eq!(errs.len(), 2);
    assert!(errs.iter().all(|l| l.starts_with("error busy")));
    assert!(seen.contains(&"board oska 4 wwww/---/--/---/bbbb w".to_string()));
    assert!(!seen.iter().any(|l| l.starts_with("bestmove")));
    live.send("stop");
    live.until("bestmove");
    live.send("stop");
    assert!(live.sync().is_empty());
    assert!(live.close().is_empty());
}

#[test]
fn stop_answers_quickly() {
    let mut live = Live::start();
    live.send("newgame ctf 9");
    let mut worst = Duration::ZERO;
    for _ in 0..10 {
        live.send("go infinite");
        live.sync();
        thread::sleep(Duration::from_millis(5));
        let t = Instant::now();
        live.send("stop");
        live.until("bestmove");
        worst = worst.max(t.elapsed());
    }
    assert!(worst < Duration::from_millis(500), "{worst:?}");
    live.close();
}

#[test]
fn end_of_input_stops_the_search_and_prints_its_bestmove() {
    let mut live = Live::start();
    live.send("go infinite");
    live.sync();
    let rest = live.close();
    assert_eq!(
        rest.iter().filter(|l| l.starts_with("bestmove ")).count(),
        1,
        "{rest:?}"
    );
}

#[test]
fn too_long_and_binary_lines() {
    let mut input = b"isready\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', MAX_LINE + 1));
    input.extend(b"\r\nisready\n\xff\xfe\nisready\n");
    input.extend(std::iter::repeat_n(b'y', MAX_LINE));
    input.extend(b"\n");
    let out = session(input);
    assert_eq!(
        out.len(),
        6,
        "{:?}",
        out.iter()
            .map(|l| &l[..l.len().min(40)])
            .collect::<Vec<_>>()
    );
    assert_eq!(out[0], "readyok");
    assert!(out[1].starts_with("error too-long"));
    assert_eq!(out[2], "readyok");
    assert!(out[3].starts_with("error syntax"));
    assert_eq!(out[4], "readyok");
    assert!(out[5].starts_with("error unknown-command"));
}

#[test]
fn perft_and_game_over() {
    let mut live = Live::start();
    live.send("newgame hexapawn 3");
    live.send("go perft 2");
    assert_eq!(
        live.until("bestmove"),
        [
            "perft a1a2 3",
            "perft b1b2 4",
            "perft c1c2 3",
            "nodes 10",
            "bestmove none"
        ]
    );
    live.send("position board ---/-b-/w-- b");
    live.send("go perft 1");
    assert_eq!(live.until("bestmove"), ["nodes 0", "bestmove none"]);
    live.send("go depth 3");
    assert_eq!(
        live.until("bestmove"),
        ["result white far-row", "bestmove none"]
    );
    live.send("legal");
    live.send("show");
    assert_eq!(
        live.sync(),
        [
            "legal",
            "board hexapawn 3 ---/-b-/w-- b",
            "result white far-row"
        ]
    );
    assert!(live.close().is_empty());
}

/// Lines for the fuzz test: valid commands, their mutations, and noise.
fn fuzz_line() -> impl Strategy<Value = String> {
    let valid = prop::sample::select(vec![
        "uci",
        "isready",
        "show",
        "legal",
        "stop",
        "newgame oska 4",
        "newgame hexapawn 3",
        "newgame ctf 5",
        "position startpos",
        "position startpos moves a1a2",
        "position startpos moves b1b2 a3b2",
        "position board www/---/bbb b",
        "position board -wWw--www-------bbb--bBb- w",
        "position board ----/---/--/w--/bb-- w moves pass",
        "setoption name Hash value 8",
        "setoption name Trace value false",
        "setoption name Evaluator value material",
        "setoption name Evaluator value classic-race",
        "go depth 2",
        "go nodes 50",
        "go perft 2",
        "go movetime 1",
        "# comment",
        "",
    ]);
    prop_oneof![
        3 => valid.clone().prop_map(str::to_string),
        3 => (valid.clone(), any::<prop::sample::Index>(), "[ a-z0-9/#\\-\t\r]{0,3}").prop_map(|(v, i, ins)| {
            let mut s = v.to_string();
            let at = if s.is_empty() { 0 } else { i.index(s.len()) };
            s.insert_str(at, &ins);
            s
        }),
        2 => (valid, any::<prop::sample::Index>()).prop_map(|(v, i)| {
            let mut s = v.to_string();
            if !s.is_empty() {
                s.remove(i.index(s.len()));
            }
            s
        }),
        2 => "[ -~\t]{0,40}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Each line is followed by `isready`: between two `readyok`s there is at most one `error`,
    /// and exactly one when the line does not parse; nothing panics or hangs, and each `go`
    /// that was accepted gets exactly one `bestmove`.
    #[test]
    fn fuzzed_lines(lines in prop::collection::vec(fuzz_line(), 1..30)) {
        let mut input = String::new();
        for l in &lines {
            // "go infinite" would only end at the end of input: keep the test quick.
            prop_assume!(!l.contains("infinite") && !l.contains('\n'));
            // Nor would a mutated depth such as "go depth 299" or "go perft 299" end in time.
            prop_assume!(!matches!(
                Command::parse(l),
                Ok(Command::Go(Go::Depth(d) | Go::Perft(d))) if d > 6
            ));
            input.push_str(l);
            input.push_str("\nisready\n");
        }
        let t = Instant::now();
        let out = session(input);
        prop_assert!(t.elapsed() < Duration::from_secs(60));
        let mut chunks: Vec<Vec<&String>> = vec![Vec::new()];
        for l in &out {
            if l == "readyok" {
                chunks.push(Vec::new());
            } else {
                chunks.last_mut().unwrap().push(l);
            }
        }
        // Each line's own replies come before the readyok of the isready after it (an isready
        // line adds one readyok of its own).
        let mut per_line: Vec<(&String, &Vec<&String>)> = Vec::new();
        let mut i = 0;
        for line in &lines {
            let parsed = Command::parse(line);
            if parsed == Ok(Command::Quit) {
                break;
            }
            prop_assert!(i < chunks.len(), "no readyok for {:?}", line);
            per_line.push((line, &chunks[i]));
            i += if parsed == Ok(Command::IsReady) { 2 } else { 1 };
        }
        for (line, chunk) in &per_line {
            let errs = chunk.iter().filter(|l| l.starts_with("error ")).count();
            prop_assert!(errs <= 1, "{line:?} gave {chunk:?}");
            // The reader takes one CR before the LF as part of the line ending.
            let line = line.strip_suffix('\r').unwrap_or(line);
            if meaningful(line).is_some() && Command::parse(line).is_err() {
                prop_assert_eq!(errs, 1, "{:?} gave {:?}", line, chunk);
            }
        }
        let bestmoves = out.iter().filter(|l| l.starts_with("bestmove ")).count();
        let accepted_gos = per_line
            .iter()
            .filter(|(l, chunk)| {
                matches!(Command::parse(l), Ok(Command::Go(_)))
                    && !chunk.iter().any(|c| c.starts_with("error "))
            })
            .count();
        prop_assert_eq!(bestmoves, accepted_gos);
        for l in &out {
            prop_assert!(Reply::parse(l).is_ok(), "unreadable output {}", l);
        }
    }
}

#[test]
fn end_of_input_lets_a_finite_search_finish() {
    // Piped commands: the input ends while the search runs, and the answer is still whole.
    let out = session("newgame oska 5\nposition startpos\ngo depth 7\n");
    assert!(
        out.iter().any(|l| l.starts_with("info depth 7 ")),
        "{out:?}"
    );
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
    let out = session("newgame hexapawn 4\ngo perft 5\n");
    let n = out.len();
    assert!(out[n - 2].starts_with("nodes "), "{out:?}");
    assert_eq!(out[n - 1], "bestmove none");
    assert!(!out.iter().any(|l| l.contains("perft stopped")), "{out:?}");
}

#[test]
fn evaluator_option_is_listed_with_every_evaluator() {
    let out = session("uci\n");
    let line = out
        .iter()
        .find(|l| l.starts_with("option name Evaluator "))
        .expect("the Evaluator option is listed");
    assert_eq!(
        line,
        "option name Evaluator type combo default tuned var tuned var legacy var material var classic-advance var classic-race"
    );
    let names: Vec<String> = EvalKind::ALL.iter().map(|k| k.name().to_string()).collect();
    assert_eq!(
        Reply::parse(line),
        Ok(Reply::Option(OptionDecl {
            name: "Evaluator".into(),
            kind: OptionKind::Combo {
                default: "tuned".into(),
                vars: names
            },
        }))
    );
    assert_eq!(out.last().unwrap(), "uciok");
}

/// With `TablebasePath` set to a directory of Hexapawn 4 tables, a depth-1 search reports the
/// exact value and its table hits; a bad path is refused and changes nothing; `<empty>` turns
/// the tables off again.
#[test]
fn tablebase_path_option() {
    let dir = std::env::temp_dir().join(format!("session-tb-{}", std::process::id()));
    boardgames_core::tablebase::build::build::<boardgames_core::games::Hexapawn>(
        boardgames_core::tablebase::build::Plan {
            size: 4,
            max_pieces: 4,
            threads: 1,
        },
        &|_| {},
        &mut |h, v| boardgames_core::tablebase::file::write(&dir, h, v).map(|_| ()),
    )
    .unwrap();
    let mut live = Live::start();
    live.send("uci");
    let listed = live.until("uciok");
    assert!(listed.contains(&"option name TablebasePath type string default <empty>".to_string()));
    live.send("setoption name TablebasePath value /no/such/dir");
    let err = live.sync();
    assert_eq!(err.len(), 1, "{err:?}");
    assert!(err[0].starts_with("error bad-value TablebasePath '/no/such/dir' is not a directory"));
    live.send("newgame hexapawn 4");
    let mut infos = Vec::new();
    for value in [
        "<empty>".to_string(),
        dir.display().to_string(),
        "<empty>".into(),
    ] {
        live.send(&format!("setoption name TablebasePath value {value}"));
        live.send("go depth 1");
        let seen = live.until("bestmove");
        infos.push(
            seen.into_iter()
                .find(|l| l.starts_with("info depth 1 "))
                .unwrap(),
        );
    }
    assert!(live.close().is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
    // Hexapawn 4 is a win in 11 for White (the tables and the solver agree).
    assert!(
        !infos[0].contains("tbhits") && infos[0].contains("score cp "),
        "{}",
        infos[0]
    );
    assert!(
        infos[1].contains("score win 11 ") && infos[1].contains(" tbhits "),
        "{}",
        infos[1]
    );
    assert!(!infos[2].contains("tbhits"), "{}", infos[2]);
}

/// A library searcher as the session makes it (the default table size) with evaluator `kind`.
fn library_searcher<G: Game + boardgames_core::eval::Evaluate>(
    kind: EvalKind,
) -> boardgames_core::search::Searcher<G> {
    let mut s = boardgames_core::search::Searcher::<G>::new(HASH_MIB.0 as usize);
    s.set_evaluator(kind.function());
    s
}

/// The move a fresh library searcher with evaluator `kind` chooses at `depth`.
fn library_move<G: Game + boardgames_core::eval::Evaluate>(
    line: &Line<G>,
    kind: EvalKind,
    depth: u32,
) -> String {
    searcher_move(&mut library_searcher(kind), line, depth)
}

/// The move `s` chooses at `depth`.
fn searcher_move<G: Game + boardgames_core::eval::Evaluate>(
    s: &mut boardgames_core::search::Searcher<G>,
    line: &Line<G>,
    depth: u32,
) -> String {
    let limits = boardgames_core::search::Limits {
        depth: Some(depth),
        ..Default::default()
    };
    let r = s.search(line, &limits, &AtomicBool::new(false), &mut |_| {});
    move_name(line.current(), r.best.expect("a move"))
}

fn bestmove(lines: &[String]) -> &str {
    lines
        .last()
        .and_then(|l| l.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove in {lines:?}"))
}

#[test]
fn evaluator_option_changes_the_chosen_move() {
    // Oska: White can jump b3b5 (material's choice: the only move that wins a piece) or race;
    // the plain race count prefers another move.
    let board = "ww--/--w/-w/bbb/---b";
    let line = boardgames_core::games::format::parse_board::<Oska>(board, Side::White)
        .unwrap()
        .line;
    assert_eq!(library_move(&line, EvalKind::Material, 1), "b3b5");
    assert_ne!(library_move(&line, EvalKind::ClassicRace, 1), "b3b5");

    let mut live = Live::start();
    live.send(&format!("position board {board} w"));
    // Every evaluator, spelt in odd cases, in turn and then backwards, without newgame: each
    // change also forgets what the searcher learnt with the previous evaluator (its table holds
    // that evaluator's values), so the session answers as a fresh library searcher with the new
    // evaluator given the same searches; setting the same evaluator again changes nothing.
    let order: Vec<EvalKind> = EvalKind::ALL
        .into_iter()
        .chain(EvalKind::ALL.into_iter().rev())
        .collect();
    let mut model = library_searcher::<Oska>(EvalKind::Tuned);
    let mut current = EvalKind::Tuned;
    for (i, kind) in order.into_iter().enumerate() {
        if kind != current {
            model = library_searcher(kind);
            current = kind;
        }
        let name = if i % 2 == 0 {
            kind.name().to_ascii_uppercase()
        } else {
            kind.name().to_string()
        };
        live.send(&format!("setoption NAME evaluator value {name}"));
        let err = live.sync();
        assert_eq!(err.len(), 1, "{err:?}");
        assert!(err[0].starts_with("error syntax"), "{err:?}");
        live.send(&format!("setoption name evaluator value {name}"));
        assert!(live.sync().is_empty(), "{name} is accepted");
        for depth in [1, 3] {
            live.send(&format!("go depth {depth}"));
            let seen = live.until("bestmove");
            assert_eq!(
                bestmove(&seen),
                searcher_move(&mut model, &line, depth),
                "{kind} at depth {depth} (round {i})"
            );
        }
    }
    live.send("setoption name Evaluator value material");
    live.send("go depth 1");
    assert_eq!(bestmove(&live.until("bestmove")), "b3b5");
    live.send("setoption name Evaluator value classic-race");
    live.send("go depth 1");
    assert_ne!(bestmove(&live.until("bestmove")), "b3b5");
    assert!(live.close().is_empty());
}

#[test]
fn every_evaluator_plays_a_legal_move_in_every_game() {
    for kind in EvalKind::ALL {
        for (game, size) in [("oska", 5), ("hexapawn", 4), ("ctf", 5)] {
            let out = session(format!(
                "setoption name Evaluator value {kind}\nnewgame {game} {size}\nposition startpos\nlegal\ngo depth 1\n"
            ));
            assert!(errors(&out).is_empty(), "{kind} {game}: {out:?}");
            let legal = out.iter().find(|l| l.starts_with("legal ")).unwrap();
            let best = bestmove(&out);
            assert!(
                legal.split(' ').skip(1).any(|m| m == best),
                "{kind} {game}: {best} is not in '{legal}'"
            );
        }
    }
}

#[test]
fn bad_evaluator_is_refused_and_changes_nothing() {
    let board = "ww--/--w/-w/bbb/---b";
    let out = session(format!(
        "setoption name Evaluator value material\nposition board {board} w\nsetoption name Evaluator value classic\nsetoption name Evaluator value best-one\nsetoption name Evaluators value tuned\ngo depth 1\n"
    ));
    let errs = errors(&out);
    assert_eq!(errs.len(), 3, "{out:?}");
    for e in &errs[..2] {
        assert!(e.starts_with("error bad-value Evaluator '"), "{e}");
        for k in EvalKind::ALL {
            assert!(e.contains(k.name()), "{e} lists {k}");
        }
        assert!(e.ends_with("unchanged"), "{e}");
    }
    assert_eq!(
        errs[2],
        "error unsupported there is no option 'Evaluators' (options: Hash, Trace, Evaluator, TablebasePath, MultiPV, Threads)"
    );
    assert_eq!(bestmove(&out), "b3b5", "still material: {out:?}");
}

#[test]
fn board_call_programs_have_no_evaluator_option() {
    // Hash, Trace and Threads are taken (and ignored), as GUIs set them to every engine.
    let backend = crate::adapter::BoardCall {
        program: "true".into(),
        args: Vec::new(),
        format: crate::adapter::SeedFormat::Slash,
        depth: 1,
        input: crate::adapter::InputMode::Args,
        limits: None,
    };
    let out = session_with(
        "uci\nsetoption name Evaluator value material\nsetoption name Hash value 8\nsetoption name Trace value true\nsetoption name Threads value 2\n",
        backend,
    );
    assert!(out.contains(&"option name Hash type spin default 16 min 1 max 1048576".to_string()));
    assert!(!out.iter().any(|l| l.contains("Evaluator type")), "{out:?}");
    assert_eq!(
        errors(&out),
        [
            "error unsupported the option 'Evaluator' is not supported by a board-call program (options: Hash, Trace, Threads)",
        ]
    );
}

#[test]
fn echoed_control_characters_are_escaped() {
    let sink = Sink::default();
    run(
        Cursor::new(
            b"foo\rbestmove a1a2\nh\x0bllo\nposition startpos moves a1a2\xe3\x80\x80\n".to_vec(),
        ),
        sink.clone(),
        SearchBackend::default(),
    );
    let bytes = sink.0.lock().unwrap().clone();
    assert!(
        bytes
            .iter()
            .all(|&b| b == b'\n' || (b' '..=b'~').contains(&b)),
        "{bytes:?}"
    );
    let text = String::from_utf8(bytes).unwrap();
    // A reader that splits lines at \r as well as \n sees no line starting with bestmove.
    assert!(
        !text.split(['\r', '\n']).any(|l| l.starts_with("bestmove")),
        "{text}"
    );
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(
        lines.iter().all(|l| l.starts_with("error syntax byte ")),
        "{lines:?}"
    );
    // Escaped once, as protocol.md shows it: `\x0b`, not `\\x0b`.
    assert!(
        lines[0].starts_with("error syntax byte 4 is \\x0d: "),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with("error syntax byte 2 is \\x0b: "),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].starts_with("error syntax byte 29 is \\xe3\\x80\\x80: "),
        "{}",
        lines[2]
    );
}

#[test]
fn only_one_carriage_return_before_the_line_feed() {
    let out = session("uci \r\nisready\r\r\nisready\r \n\t isready\t\r\n");
    assert_eq!(out.iter().filter(|l| *l == "uciok").count(), 1);
    assert_eq!(out.iter().filter(|l| *l == "readyok").count(), 1, "{out:?}");
    assert_eq!(errors(&out).len(), 2, "{out:?}");
}

/// The statements of protocol.md for a third-party author (issue 11, item 12), checked against
/// the engine.
#[test]
fn protocol_md_statements_hold() {
    // Handed Hexapawn positions: board conditions (the side that just moved first) before "no
    // legal move".
    let out = session(
        "newgame hexapawn 4\nposition board ----/----/----/--w- w\nshow\nposition board --b-/----/----/--w- w\nshow\n",
    );
    assert_eq!(out[1], "result white far-row");
    assert_eq!(out[3], "result black far-row");
    // Piece counts: more than SIZE is refused, zero accepted; ctf: one flag missing accepted,
    // two flags of a side or none refused.
    let out = session(
        "newgame hexapawn 3\nposition board www/w--/bbb w\nposition board ---/---/--- w\nnewgame ctf 3\nposition board wWw/---/bBW w\nposition board ww-/---/bb- w\nposition board wWw/---/bb- w\nshow\n",
    );
    assert!(out[0].starts_with("error bad-position"), "{out:?}");
    assert!(out[1].starts_with("error bad-position"), "{out:?}");
    assert!(out[2].starts_with("error bad-position"), "{out:?}");
    assert_eq!(out[4], "result white flag-captured");
    // A history cannot hold an Oska pass; the pass goes in the moves, as show writes it.
    let out = session(
        "position board ----/---/--/w--/bb-- b history ----/---/--/w--/bb--\nposition board ----/---/--/w--/bb-- w moves pass\nshow\n",
    );
    assert!(out[0].starts_with("error bad-position history"), "{out:?}");
    assert_eq!(
        out[1],
        "board oska 4 ----/---/--/w--/bb-- b from board ----/---/--/w--/bb-- w moves pass"
    );
    // Perft on a finished game: no result line.
    for (depth, total) in [(2, "nodes 0"), (0, "nodes 1")] {
        let out = session(format!(
            "position board ----/---/--/---/ww-b b\ngo perft {depth}\n"
        ));
        assert_eq!(out, [total, "bestmove none"]);
    }
    // Error precedence: the option name before its value; syntax before busy.
    let out = session("setoption name Ponder value x\nnewgame chess x\nnewgame oska 99999999999\n");
    assert!(out[0].starts_with("error unsupported"), "{out:?}");
    assert!(out[1].starts_with("error bad-value 'chess'"), "{out:?}");
    assert!(out[2].starts_with("error bad-value"), "{out:?}");
    let mut live = Live::start();
    live.send_all(&["go infinite", "go depth x", "go depth 2", "newgame oska 12"]);
    let seen = live.sync();
    let errs = errors(&seen);
    assert!(errs[0].starts_with("error syntax"), "{errs:?}");
    assert!(errs[1].starts_with("error busy"), "{errs:?}");
    assert!(errs[2].starts_with("error busy"), "{errs:?}");
    live.send("stop");
    assert!(live.sync().iter().any(|l| l.starts_with("bestmove ")));
}

/// An `info depth` line with its `nps` and `time` values blanked (they vary from run to run).
fn without_times(line: &str) -> String {
    let mut words: Vec<&str> = line.split(' ').collect();
    for i in 1..words.len() {
        if matches!(words[i - 1], "nps" | "time") {
            words[i] = "_";
        }
    }
    words.join(" ")
}

/// The `info` lines of a session's output, read back.
fn infos(lines: &[String]) -> impl Iterator<Item = Info> + '_ {
    lines.iter().filter_map(|l| match Reply::parse(l) {
        Ok(Reply::Info(i)) => Some(i),
        _ => None,
    })
}

/// The `info depth` lines of a session's output, read back.
fn search_infos(lines: &[String]) -> Vec<boardgames_core::protocol::SearchInfo> {
    infos(lines)
        .filter_map(|i| match i {
            Info::Search(i) => Some(i),
            _ => None,
        })
        .collect()
}

/// Each `info nodes` progress line among `lines`.
fn progress_lines(lines: &[String]) -> Vec<ProgressInfo> {
    infos(lines)
        .filter_map(|i| match i {
            Info::Progress(p) => Some(p),
            _ => None,
        })
        .collect()
}

/// `MultiPV` is listed after `uci`, refuses values out of range (changing nothing), and at 1
/// gives exactly the output of a session that never set it.
#[test]
fn multipv_option_is_listed_checked_and_one_is_the_default() {
    let out = session("uci\n");
    let line = "option name MultiPV type spin default 1 min 1 max 384";
    assert!(out.contains(&line.to_string()), "{out:?}");
    let out = session(
        "setoption name MultiPV value 0\nsetoption name MultiPV value 385\nsetoption name MultiPV value -2\nsetoption name MultiPV value +2\nsetoption name MultiPV value two\ngo depth 2\n",
    );
    let errs = errors(&out);
    assert_eq!(errs.len(), 5, "{out:?}");
    for e in &errs[..2] {
        assert!(e.starts_with("error bad-value MultiPV "), "{e}");
        assert!(e.ends_with("is out of range 1 to 384; unchanged"), "{e}");
    }
    for e in &errs[2..] {
        assert!(
            e.ends_with("is not a whole number (digits only); unchanged"),
            "{e}"
        );
    }
    assert!(!out.iter().any(|l| l.contains("multipv")), "{out:?}");
    let plain = session("newgame oska 5\ngo depth 5\n");
    assert!(plain.len() > 5, "{plain:?}");
    for set in [
        "setoption name MultiPV value 1\n",
        "setoption name multipv value 4\nsetoption name MultiPV value 1\n",
    ] {
        let one = session(format!("{set}newgame oska 5\ngo depth 5\n"));
        let masked = |l: &Vec<String>| l.iter().map(|l| without_times(l)).collect::<Vec<_>>();
        assert_eq!(masked(&one), masked(&plain));
    }
}

/// With `MultiPV 3` every depth prints lines `multipv 1` to `3`, best first, with distinct
/// first moves, and `bestmove` is the first move of the last depth's line 1; more lines than
/// legal moves give one a move.
#[test]
fn multipv_prints_numbered_lines_best_first() {
    let out = session("setoption name MultiPV value 3\nnewgame oska 5\ngo depth 4\n");
    let infos = search_infos(&out);
    assert_eq!(infos.len(), 4 * 3, "{out:?}");
    for (d, lines) in infos.chunks(3).enumerate() {
        let numbers: Vec<Option<u32>> = lines.iter().map(|i| i.multipv).collect();
        assert_eq!(numbers, [Some(1), Some(2), Some(3)], "{out:?}");
        assert!(lines.iter().all(|i| i.depth == d as u32 + 1), "{out:?}");
        assert!(
            lines
                .windows(2)
                .all(|w| w[0].score.value() >= w[1].score.value()),
            "{out:?}"
        );
        let mut firsts: Vec<&String> = lines.iter().map(|i| &i.pv[0]).collect();
        firsts.sort();
        firsts.dedup();
        assert_eq!(firsts.len(), 3, "{out:?}");
    }
    assert_eq!(bestmove(&out), infos[9].pv[0], "{out:?}");
    // Oska 4 has six moves at the start.
    let out = session("setoption name MultiPV value 10\ngo depth 2\n");
    let infos = search_infos(&out);
    assert_eq!(infos.len(), 2 * 6, "{out:?}");
    assert_eq!(infos[11].multipv, Some(6));
}

#[test]
fn exact_solve_reports_each_stage_then_the_value() {
    let out = session("newgame hexapawn 5\ngo solve\n");
    let progress = progress_lines(&out);
    // Stage 1 ends proving some win, at least as slow as the true one; each stage-2 test that
    // moves the bound says so, down to win 19. (Lines without a bound come once a second.)
    let staged: Vec<&ProgressInfo> = progress.iter().filter(|p| p.bound.is_some()).collect();
    let plies: Vec<u32> = staged
        .iter()
        .map(|p| match p.bound {
            Some(Score::Win(k)) => k,
            other => panic!("not a win bound: {other:?}"),
        })
        .collect();
    assert!(
        plies.len() >= 2 && plies.windows(2).all(|w| w[0] > w[1]),
        "{out:?}"
    );
    assert_eq!(plies.last(), Some(&19), "{out:?}");
    assert_eq!(staged[0].stage.as_deref(), Some("wdl"));
    assert!(
        staged[1..]
            .iter()
            .all(|p| p.stage.as_deref() == Some("distance"))
    );
    assert!(
        progress
            .iter()
            .all(|p| p.root.is_some_and(|(d, t)| d <= t && t == 5))
    );
    let n = out.len();
    assert!(
        out[n - 2].starts_with("info depth 19 score win 19 "),
        "{out:?}"
    );
    assert_eq!(out[n - 1], "bestmove d1d2");
    assert_eq!(progress.len() + 2, n, "{out:?}");
}

#[test]
fn a_long_exact_solve_reports_progress_while_it_runs() {
    let mut live = Live::start();
    live.send("newgame oska 6");
    live.send("go solve");
    // The first progress line comes about a second after `go` (Live waits up to 20 s a line).
    let first = live.until("info nodes");
    assert_eq!(first.len(), 1, "{first:?}");
    let p = &progress_lines(&first)[0];
    assert_eq!(p.stage.as_deref(), Some("wdl"));
    assert!(
        p.nodes > 0 && p.root.is_some_and(|(_, t)| t == 10),
        "{first:?}"
    );
    live.send("stop");
    let rest = live.until("bestmove");
    assert!(
        rest.iter().all(|l| !l.starts_with("info depth")),
        "a stopped solve proves nothing: {rest:?}"
    );
    live.send("quit");
    live.close();
}

/// Our search with the twists a test plants: a panic in its next search (a stand-in for a bug;
/// the searches after it run), and Hexapawn declared alone (as a seed function of one game
/// does). Without a twist, it is our search.
#[derive(Default)]
struct Twisted {
    search: SearchBackend,
    panic_next: bool,
    hexapawn_only: bool,
}

impl Backend for Twisted {
    fn resize(&mut self, hash_mib: usize) {
        self.search.resize(hash_mib);
    }
    fn set_trace(&mut self, on: bool) {
        self.search.set_trace(on);
    }
    fn set_evaluator(&mut self, kind: EvalKind) {
        self.search.set_evaluator(kind);
    }
    fn clear(&mut self) {
        self.search.clear();
    }
    fn games(&self) -> Vec<GameKind> {
        if self.hexapawn_only {
            vec![GameKind::Hexapawn]
        } else {
            self.search.games()
        }
    }
    fn search(&mut self, line: &AnyLine, call: SearchCall<'_>) -> Option<Move> {
        if std::mem::take(&mut self.panic_next) {
            panic!("a planted bug");
        }
        self.search.search(line, call)
    }
}

#[test]
fn a_panicking_search_is_reported_and_the_next_one_runs() {
    let mut live = Live::with(Twisted {
        panic_next: true,
        ..Twisted::default()
    });
    live.send("newgame hexapawn 3");
    live.send("go depth 1");
    assert_eq!(
        live.until("bestmove"),
        [
            "info string the search failed (a bug in the engine): a planted bug",
            "bestmove none"
        ]
    );
    assert!(live.sync().is_empty());
    live.send("go depth 1");
    let out = live.until("bestmove");
    let last = out.last().unwrap();
    assert!(
        ["bestmove a1a2", "bestmove b1b2", "bestmove c1c2"].contains(&last.as_str()),
        "{out:?}"
    );
    live.close();
}

#[test]
fn a_backend_of_one_game_declares_it_starts_in_it_and_refuses_the_others() {
    let out = session_with(
        "uci\nshow\nnewgame oska 4\nshow\nnewgame hexapawn 4\nshow\n",
        Twisted {
            hexapawn_only: true,
            ..Twisted::default()
        },
    );
    let games: Vec<&String> = out.iter().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games, ["game hexapawn 3 11"], "{out:?}");
    let boards: Vec<&String> = out.iter().filter(|l| l.starts_with("board ")).collect();
    assert_eq!(boards.len(), 3, "{out:?}");
    assert!(boards[0].starts_with("board hexapawn 3 "), "{out:?}");
    assert_eq!(
        boards[1], boards[0],
        "a refused newgame changes nothing: {out:?}"
    );
    assert!(boards[2].starts_with("board hexapawn 4 "), "{out:?}");
    assert_eq!(
        errors(&out),
        ["error unsupported this engine does not play oska (games: hexapawn)"],
        "{out:?}"
    );
}
