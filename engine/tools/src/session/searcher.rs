//! The session's search: [`boardgames_core::search::Searcher`] behind the [`Backend`] trait, one searcher
//! per game, created on first use so that its table is allocated only for games played.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::{Backend, SearchCall};
use boardgames_core::eval::{EvalKind, Evaluate};
use boardgames_core::games::Move;
use boardgames_core::games::notation::line_names;
use boardgames_core::games::{AnyLine, Ctf, Game, Hexapawn, Line, MoveList, Oska, Side};
use boardgames_core::protocol::{Go, Info, ProgressInfo, SearchInfo};
use boardgames_core::search::{Event, Limits, Probe, Searcher};
use boardgames_core::tablebase::OpenProbe;

/// The engine's own search.
pub struct SearchBackend {
    hash_mib: usize,
    trace: bool,
    evaluator: EvalKind,
    /// The `TablebasePath` option.
    tablebase: Option<PathBuf>,
    /// The `MultiPV` option.
    multipv: usize,
    /// The `Threads` option.
    threads: usize,
    oska: Option<Searcher<Oska>>,
    hexapawn: Option<Searcher<Hexapawn>>,
    ctf: Option<Searcher<Ctf>>,
    oska_tables: Tables<Oska>,
    hexapawn_tables: Tables<Hexapawn>,
}

/// The tables opened for one game: the size they are of, and their probe with the tables behind
/// it (`None`: no tables of that size).
type Tables<G> = Option<(usize, Option<OpenProbe<G>>)>;

impl SearchBackend {
    /// A backend with a table of `hash_mib` MiB per game searched.
    pub fn new(hash_mib: usize) -> Self {
        SearchBackend {
            hash_mib,
            trace: false,
            evaluator: EvalKind::default(),
            tablebase: None,
            multipv: 1,
            threads: 1,
            oska: None,
            hexapawn: None,
            ctf: None,
            oska_tables: None,
            hexapawn_tables: None,
        }
    }
}

impl Default for SearchBackend {
    fn default() -> Self {
        Self::new(super::HASH_MIB.0 as usize)
    }
}

/// The search limits of a `go` for `side` to move (never called with `go perft`), finding
/// `multipv` lines on `threads` threads.
fn limits(go: Go, side: Side, multipv: usize, threads: usize) -> Limits {
    let mut l = Limits {
        multipv,
        threads,
        ..Limits::default()
    };
    match go {
        Go::Depth(d) => l.depth = Some(d),
        Go::Nodes(n) => l.nodes = Some(n),
        Go::MoveTime(ms) => l.movetime = Some(Duration::from_millis(ms)),
        Go::Infinite => l.infinite = true,
        Go::Solve => l.solve = true,
        Go::Clock(clock) => {
            let b = super::timing::budget(&clock, side);
            l.movetime = Some(b.hard);
            l.target_time = Some(b.target);
        }
        Go::Perft(_) => {}
    }
    l
}

/// What a new searcher is set up with.
#[derive(Clone, Copy)]
struct Settings {
    hash_mib: usize,
    trace: bool,
    evaluator: EvalKind,
    multipv: usize,
    threads: usize,
}

/// The probe of the tables of `line`'s game and size in `dir`, opened once per size; an error
/// is reported as `info string` and the search goes on without tables.
fn probe_of<G: Game>(
    cache: &mut Tables<G>,
    dir: Option<&std::path::Path>,
    size: usize,
    report: &mut dyn FnMut(Info),
) -> Option<Probe<G>> {
    let dir = dir?;
    if cache.as_ref().is_none_or(|(s, _)| *s != size) {
        let probe = boardgames_core::tablebase::memory_limit()
            .and_then(|limit| boardgames_core::tablebase::open_probe::<G>(dir, size, limit))
            .unwrap_or_else(|e| {
                report(Info::String(format!("tablebase not used: {e}")));
                None
            });
        *cache = Some((size, probe));
    }
    cache
        .as_ref()
        .and_then(|(_, p)| p.as_ref().map(|(probe, _)| probe.clone()))
}

/// After a search: a table found damaged or changed while it was probed (the probes that needed
/// it answered nothing) is reported as `info string`, and the tables are dropped, to be opened
/// and checked again by the next search.
fn check_tables<G: Game>(cache: &mut Tables<G>, report: &mut dyn FnMut(Info)) {
    if let Some((_, Some((_, tables)))) = cache
        && let Some(e) = tables.fault()
    {
        report(Info::String(format!(
            "tablebase damaged while in use, its values not used: {e}"
        )));
        *cache = None;
    }
}

fn run<G: Game + Evaluate>(
    slot: &mut Option<Searcher<G>>,
    settings: Settings,
    probe: Option<Probe<G>>,
    line: &Line<G>,
    go: Go,
    stop: &AtomicBool,
    report: &mut dyn FnMut(Info),
) -> Option<Move> {
    let searcher = slot.get_or_insert_with(|| {
        let mut s = Searcher::new(settings.hash_mib);
        s.set_trace(settings.trace);
        s.set_evaluator(settings.evaluator.function());
        s
    });
    searcher.set_probe(probe);
    let pos = *line.current();
    let result = searcher.search(
        line,
        &limits(go, pos.side_to_move(), settings.multipv, settings.threads),
        stop,
        &mut |event| match event {
            Event::Iteration(i) => report(Info::Search(SearchInfo {
                depth: i.depth,
                // Numbered only when several lines are asked for (one line is printed as
                // before the option existed).
                multipv: (settings.multipv > 1).then_some(i.multipv as u32),
                score: i.score,
                nodes: i.nodes,
                nps: i.nps(),
                time_ms: i.time.as_millis() as u64,
                tbhits: i.tbhits,
                pv: line_names(&pos, &i.pv),
            })),
            Event::Trace(node) => report(Info::Trace(node.to_string())),
            Event::Progress(p) => report(Info::Progress(ProgressInfo {
                nodes: p.nodes,
                nps: p.nps(),
                time_ms: p.time.as_millis() as u64,
                stage: Some(p.stage.to_string()),
                root: Some((p.root_done as u32, p.root_moves as u32)),
                bound: p.bound,
            })),
        },
    );
    result.best.or_else(|| {
        let mut moves = MoveList::new();
        line.legal_moves(&mut moves);
        moves.as_slice().first().copied()
    })
}

/// Runs `$body` on each searcher created so far.
macro_rules! each_searcher {
    ($self:ident, $s:ident => $body:expr) => {
        if let Some($s) = &mut $self.oska {
            $body;
        }
        if let Some($s) = &mut $self.hexapawn {
            $body;
        }
        if let Some($s) = &mut $self.ctf {
            $body;
        }
    };
}

impl Backend for SearchBackend {
    fn resize(&mut self, hash_mib: usize) {
        self.hash_mib = hash_mib;
        each_searcher!(self, s => s.resize(hash_mib));
    }

    fn set_trace(&mut self, on: bool) {
        self.trace = on;
        each_searcher!(self, s => s.set_trace(on));
    }

    /// A new evaluator also clears what the searchers learnt: their tables hold values of the
    /// old one.
    fn set_evaluator(&mut self, kind: EvalKind) {
        if kind != self.evaluator {
            self.evaluator = kind;
            each_searcher!(self, s => {
                s.set_evaluator(kind.function());
                s.clear()
            });
        }
    }

    fn clear(&mut self) {
        each_searcher!(self, s => s.clear());
    }

    /// New tables: the next search of each game opens them (and clears nothing: tables only
    /// add exact values).
    fn set_tablebase(&mut self, dir: Option<PathBuf>) {
        self.tablebase = dir;
        self.oska_tables = None;
        self.hexapawn_tables = None;
    }

    fn set_multipv(&mut self, lines: usize) {
        self.multipv = lines;
    }

    fn set_threads(&mut self, threads: usize) {
        self.threads = threads;
    }

    fn search(&mut self, line: &AnyLine, call: SearchCall<'_>) -> Option<Move> {
        let SearchCall { go, stop, report } = call;
        let settings = Settings {
            hash_mib: self.hash_mib,
            trace: self.trace,
            evaluator: self.evaluator,
            multipv: self.multipv,
            threads: self.threads,
        };
        let dir = self.tablebase.as_deref();
        match line {
            AnyLine::Oska(l) => {
                let probe = probe_of(&mut self.oska_tables, dir, l.current().size(), report);
                let best = run(&mut self.oska, settings, probe, l, go, stop, report);
                check_tables(&mut self.oska_tables, report);
                best
            }
            AnyLine::Hexapawn(l) => {
                let probe = probe_of(&mut self.hexapawn_tables, dir, l.current().size(), report);
                let best = run(&mut self.hexapawn, settings, probe, l, go, stop, report);
                check_tables(&mut self.hexapawn_tables, report);
                best
            }
            AnyLine::Ctf(l) => run(&mut self.ctf, settings, None, l, go, stop, report),
        }
    }
}
