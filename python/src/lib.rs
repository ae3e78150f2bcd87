//! `boardgames._native`: the parts of the Python package `boardgames` that come from the Rust
//! core (the `engine` crate), through PyO3: positions and their rules ([`Position`]), the
//! seeds' functions as `engine movegen` and `engine best` compute them, the exact solver and the
//! tablebases. The Python modules of the package wrap these in the seeds' signatures and give
//! scores as objects; this module answers in text (boards in the input's format, scores as the
//! protocol writes them).
//!
//! Every failure is a Python exception with the core's message (a `ValueError` for bad input):
//! nothing here panics on what a caller passes.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use boardgames_core::eval::{EvalKind, Evaluate};
use boardgames_core::exact::{ExactSolver, Method, finished};
use boardgames_core::games::format::{Format, parse_board, print_board, print_history};
use boardgames_core::games::notation::{move_name, parse_move};
use boardgames_core::games::setup::Setup;
use boardgames_core::games::{
    AnyLine, Ctf, Game, GameKind, Hexapawn, Line, MoveList, Oska, Outcome, Reason, Side,
};
use boardgames_core::protocol::{Info, OptionKind, Reply};
use boardgames_core::score::Score;
use boardgames_core::search::{Limits, Searcher};
use boardgames_core::tablebase::{MEMORY_LIMIT, Retro, Tablebase, probe_for};
use boardgames_core::with_game;
use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt};

create_exception!(
    _native,
    GameOverError,
    PyValueError,
    "The position is a finished game, so there is no move to make (what `engine best` exits \
     with status 3 for)."
);

/// A `ValueError` with `message`.
fn value_error(message: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(message.to_string())
}

/// A game by name (`oska`, `hexapawn`, `ctf`).
fn game_kind(game: &str) -> PyResult<GameKind> {
    GameKind::parse(game).map_err(value_error)
}

/// A whole-number argument: a `TypeError` for what is not an `int`, a `ValueError` for one too
/// large for 64 bits (which no size, depth or table size is).
fn whole(value: &Bound<'_, PyAny>, what: &str) -> PyResult<i64> {
    if !value.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be an int, not {}",
            value.get_type().name()?
        )));
    }
    value
        .extract::<i64>()
        .map_err(|_| value_error(format!("{what} {value} is out of range")))
}

/// A side: `w` or `b` (`white`, `black` too).
fn side_of(side: &str) -> PyResult<Side> {
    Side::parse(side).map_err(value_error)
}

/// What pickle keeps of an outcome: the winner (as `Outcome.winner`) and the reason's place in
/// the core's list of reasons.
type OutcomeState = (Option<bool>, usize);

/// The end of a game, in python-chess's shape: who won (`winner` is `True` for White, `False`
/// for Black, `None` for a draw) and why (`termination`, a code of protocol.md's `result` line:
/// `far-row`, `flag-captured`, ...).
#[pyclass(module = "boardgames", name = "Outcome", frozen, eq, hash)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PyOutcome {
    outcome: Outcome,
}

#[pymethods]
impl PyOutcome {
    /// The winner: `True` (White, `WHITE`), `False` (Black, `BLACK`), or `None` for a draw.
    #[getter]
    fn winner(&self) -> Option<bool> {
        self.outcome.winner().map(|s| s == Side::White)
    }

    /// Why the game ended, as protocol.md's `result` line gives it (`far-row`, `no-pieces`,
    /// `all-home`, `no-legal-move`, `flag-captured`, `flag-past`, `both-stuck`, ...).
    #[getter]
    fn termination(&self) -> &'static str {
        self.outcome.reason().code()
    }

    /// The same as `termination`.
    #[getter]
    fn reason(&self) -> &'static str {
        self.termination()
    }

    /// Whether nobody won.
    #[getter]
    fn is_draw(&self) -> bool {
        self.outcome.winner().is_none()
    }

    /// The result as python-chess writes it: `1-0`, `0-1` or `1/2-1/2`.
    fn result(&self) -> &'static str {
        match self.outcome.winner() {
            Some(Side::White) => "1-0",
            Some(Side::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The protocol's `result` line without its keyword: `white far-row`, `draw both-stuck`.
    fn protocol(&self) -> String {
        let who = self.outcome.winner().map_or("draw", Side::name);
        format!("{who} {}", self.termination())
    }

    fn __str__(&self) -> String {
        self.outcome.to_string()
    }

    /// What pickle stores: the winner and the reason's place in the core's list of reasons,
    /// given back to `Outcome._restore`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, OutcomeState)> {
        let restore = py.get_type::<PyOutcome>().getattr("_restore")?;
        let reason = self.outcome.reason();
        let index = Reason::ALL.iter().position(|&r| r == reason).unwrap_or(0);
        Ok((restore, (self.winner(), index)))
    }

    /// The outcome a pickle stored (see `__reduce__`).
    #[classmethod]
    fn _restore(
        _cls: &Bound<'_, pyo3::types::PyType>,
        winner: Option<bool>,
        reason: usize,
    ) -> PyResult<PyOutcome> {
        let reason = *Reason::ALL
            .get(reason)
            .ok_or_else(|| value_error(format!("no reason number {reason}")))?;
        let outcome = match winner {
            Some(true) => Outcome::Win(Side::White, reason),
            Some(false) => Outcome::Win(Side::Black, reason),
            None => Outcome::Draw(reason),
        };
        Ok(PyOutcome { outcome })
    }

    fn __repr__(&self) -> String {
        let winner = match self.winner() {
            Some(true) => "True",
            Some(false) => "False",
            None => "None",
        };
        format!(
            "Outcome(winner={winner}, termination='{}')",
            self.termination()
        )
    }
}

/// A position of Oska, Hexapawn or Capture the Flag with the line that led to it, under the
/// rules of the engine's core.
///
/// Made by `Position.start(game, size)` or `Position.from_board(game, board, side)`; moves are
/// strings such as `a1a2` (origin then landing square) or `pass`.
#[pyclass(module = "boardgames")]
#[derive(Clone, Debug)]
pub struct Position {
    line: AnyLine,
    size: usize,
    /// How the line was set up: the start, or a board with its side and earlier boards (what
    /// pickle keeps, with the moves).
    setup: Setup,
    /// The moves pushed since the set-up, as named when played.
    moves: Vec<String>,
}

impl Position {
    /// The `/`-joined board of the current position.
    fn slash(&self) -> String {
        with_game!(l in &self.line => boardgames_core::games::format::slash(l.current()))
    }

    /// The current side to move.
    fn side_to_move(&self) -> Side {
        with_game!(l in &self.line => l.current().side_to_move())
    }

    /// Plays `name` (a ValueError saying why when it is not legal, changing nothing) and
    /// returns the move as the engine names it.
    fn play(&mut self, name: &str) -> PyResult<String> {
        let name = with_game!(l in &mut self.line => {
            let mv = parse_move(l, name).map_err(value_error)?;
            let name = move_name(l.current(), mv);
            l.push(mv);
            name
        });
        self.moves.push(name.clone());
        Ok(name)
    }

    /// How the game ended, or `None` while it goes on.
    fn finished(&self) -> Option<Outcome> {
        with_game!(l in &self.line => l.outcome())
    }

    /// What equality and hashing compare: the game, the size, the board, the side to move, and
    /// in Capture the Flag the earlier boards (as a sorted list: the no-repeat rule forbids them
    /// whatever their order).
    fn key(&self) -> (GameKind, usize, String, Side, Vec<String>) {
        let earlier = match &self.line {
            AnyLine::Ctf(l) => {
                let mut boards: Vec<String> = l
                    .earlier()
                    .iter()
                    .map(boardgames_core::games::format::slash)
                    .collect();
                boards.sort_unstable();
                boards.dedup();
                boards
            }
            _ => Vec::new(),
        };
        (
            self.line.kind(),
            self.size,
            self.slash(),
            self.side_to_move(),
            earlier,
        )
    }

    /// The line `setup` describes in `kind` at `size`, checked by the rules.
    fn set_up(kind: GameKind, size: usize, setup: Setup) -> PyResult<Position> {
        let line: AnyLine =
            with_game!(kind, G => setup.line::<G>(size).map_err(value_error)?.into());
        Ok(Position {
            size: with_game!(l in &line => l.current().size()),
            line,
            setup,
            moves: Vec::new(),
        })
    }

    /// The position (and its history) read from `board` in any seed format.
    fn read(kind: GameKind, board: &str, side: Side) -> PyResult<Position> {
        with_game!(kind, G => Self::read_game::<G>(board, side))
    }

    /// [`Position::read`] for game `G`.
    fn read_game<G: Game>(board: &str, side: Side) -> PyResult<Position>
    where
        AnyLine: From<Line<G>>,
    {
        let line = parse_board::<G>(board, side).map_err(value_error)?.line;
        Ok(Position {
            size: line.current().size(),
            setup: Setup::of(&line),
            line: line.into(),
            moves: Vec::new(),
        })
    }
}

/// What `Position.__reduce__` gives pickle: `Position._restore` and its arguments.
type Reduced<'py> = (
    Bound<'py, PyAny>,
    (&'static str, usize, String, Vec<String>),
);

/// The text of a Python list of strings: `['www', '---', 'bbb']`, the seeds' Python format.
fn python_list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| format!("'{s}'")).collect();
    format!("[{}]", quoted.join(", "))
}

/// A board argument: a string in any seed format, or a list (or tuple) of strings (the seeds'
/// Python format: rows, or a Capture the Flag history), as text the core reads.
fn board_text(board: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(text) = board.extract::<String>() {
        return Ok(text);
    }
    match board.extract::<Vec<String>>() {
        Ok(items) => {
            if let Some(bad) = items
                .iter()
                .find(|s| s.contains(['\'', '"', '[', ']', ',']))
            {
                return Err(value_error(format!(
                    "cannot read the board: the element {bad:?} of the list is not a row of squares"
                )));
            }
            Ok(python_list(&items))
        }
        Err(_) => Err(value_error(format!(
            "a board is a string in a seed format or a list of strings, not {}",
            board.get_type().name()?
        ))),
    }
}

#[pymethods]
impl Position {
    /// `Position(...)` makes nothing: a `TypeError` naming the two ways to make one.
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(
        _args: &Bound<'_, pyo3::types::PyTuple>,
        _kwargs: Option<&Bound<'_, pyo3::types::PyDict>>,
    ) -> PyResult<Position> {
        Err(PyTypeError::new_err(
            "a Position is made by Position.start(game, size), such as Position.start('oska', 4), \
             or Position.from_board(game, board, side), such as \
             Position.from_board('hexapawn', ['www', '---', 'bbb'], 'w')",
        ))
    }

    /// The start position of `game` (`oska`, `hexapawn` or `ctf`) of `size` (pieces a side for
    /// Oska, 4 to 11; the board's width for the others, 3 to 11), White to move.
    #[staticmethod]
    fn start(game: &str, size: &Bound<'_, PyAny>) -> PyResult<Position> {
        let kind = game_kind(game)?;
        let size = whole(size, "the size")?;
        let size = usize::try_from(size)
            .ok()
            .filter(|&n| kind.check_size(n).is_ok())
            .ok_or_else(|| {
                let (lo, hi) = kind.size_range();
                value_error(format!(
                    "{kind} size {size} is not supported: sizes {lo} to {hi} are"
                ))
            })?;
        Position::set_up(kind, size, Setup::StartPos)
    }

    /// A position of `game` from `board` with `side` (`'w'` or `'b'`) to move.
    ///
    /// `board` is in any of the seeds' formats, as `engine` reads them: rows joined with `/`
    /// (`'www/---/bbb'`), a Python or Haskell list of rows as a string or as a Python list
    /// (`['www', '---', 'bbb']`), Lisp (`'((w w w)(nil nil nil)(b b b))'`, Oska and Hexapawn),
    /// one flat row-major string, or a Capture the Flag history (a list of flat boards, most
    /// recent first; each must follow from the one before it by a legal move).
    #[staticmethod]
    fn from_board(game: &str, board: &Bound<'_, PyAny>, side: &str) -> PyResult<Position> {
        let kind = game_kind(game)?;
        let side = side_of(side)?;
        Position::read(kind, &board_text(board)?, side)
    }

    /// The game: `oska`, `hexapawn` or `ctf`.
    #[getter]
    fn game(&self) -> &'static str {
        self.line.kind().name()
    }

    /// The size: pieces a side for Oska, the board's width otherwise.
    #[getter]
    fn size(&self) -> usize {
        self.size
    }

    /// The side to move: `'w'` or `'b'`.
    #[getter]
    fn side(&self) -> String {
        self.side_to_move().letter().to_string()
    }

    /// The moves pushed since the position was made, oldest first (as `move_stack`).
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.moves.clone()
    }

    /// The moves pushed since the position was made, oldest first: python-chess's name.
    #[getter]
    fn move_stack(&self) -> Vec<String> {
        self.moves.clone()
    }

    /// The side to move as python-chess writes it: `True` (`WHITE`) or `False` (`BLACK`).
    #[getter]
    fn turn(&self) -> bool {
        self.side_to_move() == Side::White
    }

    /// Every legal move, in the engine's order (the protocol's `legal`): `['a1a2', ...]`,
    /// `['pass']` for Oska's forced pass, `[]` when the game is over. A list, so it can be
    /// iterated, counted with `len` and tested with `in`, as python-chess's `legal_moves`.
    #[getter]
    fn legal_moves(&self) -> Vec<String> {
        with_game!(l in &self.line => {
            let mut list = MoveList::new();
            l.legal_moves(&mut list);
            let pos = l.current();
            list.as_slice().iter().map(|&m| move_name(pos, m)).collect()
        })
    }

    /// Whether `move` (such as `'a1a2'` or `'pass'`) is legal here.
    #[pyo3(signature = (move_))]
    fn is_legal(&self, move_: &str) -> bool {
        with_game!(l in &self.line => parse_move(l, move_).is_ok())
    }

    /// Plays `move` (such as `'a1a2'` or `'pass'`); a move that is not legal here raises
    /// `ValueError` saying why, and changes nothing.
    #[pyo3(signature = (move_))]
    fn push(&mut self, move_: &str) -> PyResult<()> {
        self.play(move_).map(drop)
    }

    /// [`push`](Position::push), returning the move as the engine names it (python-chess's
    /// `push_uci`: moves here are already the protocol's strings).
    #[pyo3(signature = (move_))]
    fn push_uci(&mut self, move_: &str) -> PyResult<String> {
        self.play(move_)
    }

    /// Takes back the last pushed move and returns it; `IndexError` when no move was pushed.
    fn pop(&mut self) -> PyResult<String> {
        let Some(last) = self.moves.pop() else {
            return Err(PyIndexError::new_err(
                "pop from a position with no pushed move",
            ));
        };
        with_game!(l in &mut self.line => l.pop());
        Ok(last)
    }

    /// The last pushed move, without taking it back; `IndexError` when no move was pushed.
    fn peek(&self) -> PyResult<String> {
        self.moves
            .last()
            .cloned()
            .ok_or_else(|| PyIndexError::new_err("peek at a position with no pushed move"))
    }

    /// How the game ended (`Outcome`: `winner`, `termination`), or `None` while it goes on.
    fn outcome(&self) -> Option<PyOutcome> {
        self.finished().map(|outcome| PyOutcome { outcome })
    }

    /// Whether the game is over (the side to move has no legal move, or the board decides).
    fn is_game_over(&self) -> bool {
        self.finished().is_some()
    }

    /// The result as python-chess writes it: `1-0` (White won), `0-1`, `1/2-1/2`, or `*` while
    /// the game goes on.
    fn result(&self) -> &'static str {
        self.finished()
            .map_or("*", |o| PyOutcome { outcome: o }.result())
    }

    /// The current board as text in `format`: `slash` (the default, `www/---/bbb`), `python`
    /// (`['www', '---', 'bbb']`), `haskell` (`["www","---","bbb"]`), `lisp` (Oska and
    /// Hexapawn), `flat` (one row-major string), or `history` (Capture the Flag: the Python list
    /// of every board of the line as flat strings, most recent first, as the seed's `capture`
    /// takes it).
    #[pyo3(signature = (format = "slash"))]
    fn board(&self, format: &str) -> PyResult<String> {
        let kind = self.line.kind();
        let format = match format {
            "slash" => Format::Slash,
            "python" => Format::List {
                quote: '\'',
                sep: ", ".into(),
            },
            "haskell" => Format::List {
                quote: '"',
                sep: ",".into(),
            },
            "lisp" if kind == GameKind::Ctf => {
                return Err(value_error(
                    "the Lisp format is for Oska and Hexapawn: it cannot tell Capture the Flag's flags (W, B) from pawns (w, b)",
                ));
            }
            "lisp" => Format::Lisp { quoted: false },
            "flat" => Format::Flat { quote: None },
            "history" if kind == GameKind::Ctf => {
                return Ok(with_game!(l in &self.line => print_history(l, '\'', ", ")));
            }
            "history" => {
                return Err(value_error(
                    "the history format is Capture the Flag's (the seed's capture takes it)",
                ));
            }
            other => {
                return Err(value_error(format!(
                    "unknown board format '{other}': use slash, python, haskell, lisp, flat or history"
                )));
            }
        };
        Ok(with_game!(l in &self.line => print_board(l.current(), &format)))
    }

    /// The protocol's `position` command that sets this line up in an engine (after `newgame
    /// GAME SIZE`): `position startpos moves ...`, or `position board B SIDE [history ...]
    /// [moves ...]`.
    fn command(&self) -> String {
        let mut out = format!("position {}", self.setup);
        if !self.moves.is_empty() {
            out.push_str(" moves ");
            out.push_str(&self.moves.join(" "));
        }
        out
    }

    /// A copy that moves independently.
    fn copy(&self) -> Position {
        self.clone()
    }

    fn __copy__(&self) -> Position {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Position {
        self.clone()
    }

    /// What pickle stores: the game, the size, the set-up as the protocol writes it
    /// (`startpos`, or `board B SIDE [history ...]`) and the moves pushed, replayed by
    /// `Position._restore`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let restore = py.get_type::<Position>().getattr("_restore")?;
        Ok((
            restore,
            (
                self.game(),
                self.size,
                self.setup.to_string(),
                self.moves.clone(),
            ),
        ))
    }

    /// The position a pickle stored (see `__reduce__`): set up again and its moves replayed.
    #[classmethod]
    fn _restore(
        _cls: &Bound<'_, pyo3::types::PyType>,
        game: &str,
        size: usize,
        setup: &str,
        moves: Vec<String>,
    ) -> PyResult<Position> {
        let setup = setup.parse::<Setup>().map_err(value_error)?;
        let mut pos = Position::set_up(game_kind(game)?, size, setup)?;
        for m in &moves {
            pos.play(m)?;
        }
        Ok(pos)
    }

    /// Equal positions: the same game, size, board and side to move, and in Capture the Flag
    /// the same earlier boards (which its no-repeat rule forbids). The moves that led there do
    /// not count.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Position>()
            .is_ok_and(|o| self.key() == o.borrow().key())
    }

    /// A hash agreeing with `==`.
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.key().hash(&mut h);
        h.finish()
    }

    /// The board in rows, top row first, squares apart (Oska's rows centred), as python-chess's
    /// `str()` draws a board.
    fn __str__(&self) -> String {
        let slash = self.slash();
        let rows: Vec<&str> = slash.split('/').collect();
        let widest = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
        rows.iter()
            .map(|row| {
                let squares: Vec<String> = row.chars().map(String::from).collect();
                let indent = widest - row.chars().count();
                format!("{}{}", " ".repeat(indent), squares.join(" "))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn __repr__(&self) -> String {
        format!(
            "Position('{}', {}, '{}', '{}', moves={})",
            self.game(),
            self.size,
            self.slash(),
            self.side_to_move().letter(),
            python_list(&self.moves)
        )
    }
}

/// `engine movegen GAME BOARD SIDE`: every board SIDE reaches in one move, in the input's
/// format (none when SIDE must pass).
#[pyfunction]
fn movegen(game: &str, board: &str, side: &str) -> PyResult<Vec<String>> {
    let kind = game_kind(game)?;
    let side = side_of(side)?;
    with_game!(kind, G => {
        let parsed = parse_board::<G>(board, side).map_err(value_error)?;
        let mut moves = MoveList::new();
        parsed.line.legal_moves(&mut moves);
        let pos = parsed.line.current();
        Ok(moves
            .as_slice()
            .iter()
            .filter(|m| !m.is_pass())
            .map(|&m| print_board(&pos.play(m), &parsed.format))
            .collect())
    })
}

/// `engine best GAME BOARD SIDE DEPTH [--size N] [--eval E]`: the board after SIDE's best move
/// searched to exactly `depth` plies (1 to 100) with the evaluator named `evaluator` (the
/// names of `engine best --eval`; the tuned one by default), in the input's format (unchanged
/// for Oska's pass). A finished game raises `GameOverError`.
#[pyfunction]
#[pyo3(signature = (game, board, side, depth, size = None, evaluator = None))]
fn best(
    py: Python<'_>,
    game: &str,
    board: &str,
    side: &str,
    depth: &Bound<'_, PyAny>,
    size: Option<&Bound<'_, PyAny>>,
    evaluator: Option<&str>,
) -> PyResult<String> {
    let kind = game_kind(game)?;
    let evaluator = evaluator
        .map(EvalKind::parse)
        .transpose()
        .map_err(value_error)?
        .unwrap_or_default();
    let depth = whole(depth, "the depth")?;
    let size = size.map(|s| whole(s, "the size")).transpose()?;
    let side = side_of(side)?;
    let depth = match u32::try_from(depth) {
        Ok(d @ 1..=100) => d,
        _ => {
            return Err(value_error(format!(
                "the depth must be 1 to 100, not {depth}"
            )));
        }
    };
    with_game!(kind, G => {
        let parsed = parse_board::<G>(board, side).map_err(value_error)?;
        let pos = *parsed.line.current();
        if let Some(o) = parsed.line.outcome() {
            return Err(GameOverError::new_err(format!("the game is over: {o}")));
        }
        if let Some(n) = size
            && usize::try_from(n).ok() != Some(pos.size())
        {
            return Err(value_error(format!(
                "the size {n} does not agree with the board, which has size {}",
                pos.size()
            )));
        }
        let line = parsed.line;
        let result = py.detach(move || {
            let mut searcher = Searcher::<G>::new(16);
            searcher.set_evaluator(evaluator.function::<G>());
            let limits = Limits { depth: Some(depth), ..Limits::default() };
            searcher.search(&line, &limits, &AtomicBool::new(false), &mut |_| {})
        });
        let after = result.best.map_or(pos, |m| pos.play(m));
        Ok(print_board(&after, &parsed.format))
    })
}

/// Solves `position` exactly: `win K`, `loss K` or `draw` for its side to move (K plies to the
/// end with best play), with a table of `hash_mib` MiB (1 to 4096, default 64), probing the
/// tables in `tablebase` when given. A finished game is worth `loss 0` for the side to move
/// (`win 0` when the board gives it the win, `draw` for a draw). Runs without the GIL.
///
/// The searcher (its table, and the tables of `tablebase` opened) is kept between calls of the
/// same game, size, `hash_mib` and `tablebase`, as the engine keeps it between `go` commands
/// of one game: a call costs what its position costs. Capture the Flag's table is cleared for
/// each call (its values depend on the history, which differs from one call to the next).
#[pyfunction]
#[pyo3(signature = (position, hash_mib = None, tablebase = None))]
fn solve(
    py: Python<'_>,
    position: &Position,
    hash_mib: Option<&Bound<'_, PyAny>>,
    tablebase: Option<&str>,
) -> PyResult<String> {
    let hash_mib = match hash_mib {
        Some(h) => whole(h, "hash_mib")?,
        None => 64,
    };
    let hash_mib = usize::try_from(hash_mib)
        .ok()
        .filter(|n| (1..=4096).contains(n))
        .ok_or_else(|| value_error(format!("hash_mib must be 1 to 4096, not {hash_mib}")))?;
    if let Some(dir) = tablebase
        && !Path::new(dir).is_dir()
    {
        return Err(value_error(format!("tablebase {dir}: not a directory")));
    }
    let line = position.line.clone();
    let key = SolverKey {
        size: position.size,
        hash_mib,
        tablebase: tablebase.map(str::to_string),
    };
    let result = py.detach(move || with_game!(l in line => solve_line(&l, key)));
    Ok(result.map_err(value_error)?.to_string())
}

/// What a kept searcher was made for: the size, the table's MiB and the tablebase directory.
#[derive(Clone, Debug, PartialEq, Eq)]
struct SolverKey {
    size: usize,
    hash_mib: usize,
    tablebase: Option<String>,
}

/// The core's exact solver kept between [`solve`] calls, with what it was made for.
struct Kept<G: Game + Evaluate> {
    key: SolverKey,
    solver: ExactSolver<G>,
}

/// The one searcher of each game kept between [`solve`] calls: taken out while a call uses
/// it (a call made meanwhile, from another thread, makes its own), put back after.
trait SolverCache: Game + Evaluate + Sized {
    /// The game's slot.
    fn slot() -> &'static Mutex<Option<Kept<Self>>>;
}

/// Implements [`SolverCache`] for a game with a static slot of its own.
macro_rules! solver_cache {
    ($($g:ty),*) => {$(
        impl SolverCache for $g {
            fn slot() -> &'static Mutex<Option<Kept<Self>>> {
                static SLOT: Mutex<Option<Kept<$g>>> = Mutex::new(None);
                &SLOT
            }
        }
    )*};
}

solver_cache!(Oska, Hexapawn, Ctf);

/// The exact value of `line`'s position (what `engine solve` prints), with the game's kept
/// searcher when it was made for `key`, else a new one (kept after).
fn solve_line<G: SolverCache>(line: &Line<G>, key: SolverKey) -> Result<Score, String> {
    let taken = G::slot()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
        .filter(|k| k.key == key);
    let mut kept = match taken {
        Some(k) => k,
        None => {
            let size = line.current().size();
            let probe = match &key.tablebase {
                Some(dir) => {
                    probe_for::<G>(Path::new(dir), size, MEMORY_LIMIT).map_err(|e| e.to_string())?
                }
                None => None,
            };
            Kept {
                solver: ExactSolver::new(key.hash_mib, probe),
                key,
            }
        }
    };
    let value = kept
        .solver
        .value(line, Method::SOLVE, &AtomicBool::new(false), &mut |_| {});
    *G::slot().lock().unwrap_or_else(|e| e.into_inner()) = Some(kept);
    let value = value.map_err(|e| e.to_string())?;
    value.score().ok_or_else(|| format!("{value}: no distance"))
}

/// What [`probe`] found: the position's value and each move's (name, value), best first.
type Probed = (String, Vec<(String, String)>);

/// The exact value of `position` from the tables in `directory` (`win K`, `loss K`, `draw`) and
/// of each legal move (name, value), best first; `None` when no table there covers it.
/// Oska and Hexapawn only (Capture the Flag has no tables).
#[pyfunction]
fn probe(position: &Position, directory: &str) -> PyResult<Option<Probed>> {
    let dir = Path::new(directory);
    if !dir.is_dir() {
        return Err(value_error(format!(
            "the tablebase directory {directory}: not a directory"
        )));
    }
    match &position.line {
        AnyLine::Oska(l) => probe_game::<Oska>(l, dir),
        AnyLine::Hexapawn(l) => probe_game::<Hexapawn>(l, dir),
        AnyLine::Ctf(_) => Err(value_error(
            "Capture the Flag has no tablebases (the value of its positions depends on the history)",
        )),
    }
}

fn probe_game<G: Retro>(line: &Line<G>, dir: &Path) -> PyResult<Option<Probed>> {
    let pos = *line.current();
    let tb = Tablebase::open::<G>(dir, pos.size(), 0).map_err(value_error)?;
    let (Some(value), Some(moves)) = (tb.probe(&pos), tb.probe_moves(&pos)) else {
        return Ok(None);
    };
    let moves = moves
        .into_iter()
        .map(|(m, s)| (move_name(&pos, m), s.to_string()))
        .collect();
    Ok(Some((value.to_string(), moves)))
}

/// The tables of each game and size opened so far (`None`: the directory has none of them).
type Opened = Vec<((GameKind, usize), Option<Arc<Tablebase>>)>;

/// Tables opened once and kept, for probing many positions (what
/// `boardgames.tablebase.open_tablebase` wraps): the tables of each game and size in the
/// directory are opened (and checked) on the first probe of a position of that game and size.
#[pyclass(module = "boardgames._native", name = "OpenTables", frozen)]
pub struct OpenTables {
    /// The directory of the tables.
    dir: std::path::PathBuf,
    /// The tables of each game and size probed so far (`None`: none there), until closed.
    open: Mutex<Option<Opened>>,
}

impl OpenTables {
    /// The tables of `kind` at `size`: opened now when not yet; `None` when the directory has
    /// none of them.
    fn tables<G: Retro>(&self, size: usize) -> PyResult<Option<Arc<Tablebase>>> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let Some(open) = open.as_mut() else {
            return Err(value_error("the tablebase is closed"));
        };
        if let Some((_, tb)) = open.iter().find(|(k, _)| *k == (G::KIND, size)) {
            return Ok(tb.clone());
        }
        let limit = boardgames_core::tablebase::memory_limit().map_err(value_error)?;
        let tb = Tablebase::open::<G>(&self.dir, size, limit).map_err(value_error)?;
        let tb = (!tb.materials().is_empty()).then(|| Arc::new(tb));
        open.push(((G::KIND, size), tb.clone()));
        Ok(tb)
    }

    /// The value of `line`'s position from the tables of `G`, a finished game's without them.
    fn value<G: Retro>(&self, line: &Line<G>) -> PyResult<Option<Score>> {
        let pos = line.current();
        if let Some(over) = finished(line) {
            return Ok(over.score());
        }
        Ok(self.tables::<G>(pos.size())?.and_then(|tb| tb.probe(pos)))
    }

    /// Each legal move of `line`'s position with its value, best first.
    fn moves<G: Retro>(&self, line: &Line<G>) -> PyResult<Option<Vec<(String, String)>>> {
        let pos = line.current();
        let Some(tb) = self.tables::<G>(pos.size())? else {
            return Ok(None);
        };
        Ok(tb.probe_moves(pos).map(|moves| {
            moves
                .into_iter()
                .map(|(m, s)| (move_name(pos, m), s.to_string()))
                .collect()
        }))
    }
}

/// A `ValueError` for a Capture the Flag position given to the tables.
fn no_ctf_tables() -> PyErr {
    value_error(
        "Capture the Flag has no tablebases (the value of its positions depends on the history)",
    )
}

#[pymethods]
impl OpenTables {
    /// Tables of `directory` (a `ValueError` when it is not a directory); none is read yet.
    #[new]
    fn new(directory: &str) -> PyResult<OpenTables> {
        let dir = std::path::PathBuf::from(directory);
        if !dir.is_dir() {
            return Err(value_error(format!(
                "the tablebase directory {directory}: not a directory"
            )));
        }
        Ok(OpenTables {
            dir,
            open: Mutex::new(Some(Vec::new())),
        })
    }

    /// The value of `position` for its side to move as `(kind, plies)`: `('win', K)`,
    /// `('loss', K)` or `('draw', 0)`; `None` when no table covers it. A finished game has its
    /// value without tables (`('loss', 0)` for the side to move, as a rule).
    fn probe(&self, position: &Position) -> PyResult<Option<(&'static str, u32)>> {
        let value = match &position.line {
            AnyLine::Oska(l) => self.value::<Oska>(l)?,
            AnyLine::Hexapawn(l) => self.value::<Hexapawn>(l)?,
            AnyLine::Ctf(_) => return Err(no_ctf_tables()),
        };
        Ok(value.map(|v| match v {
            Score::Win(k) => ("win", k),
            Score::Loss(k) => ("loss", k),
            _ => ("draw", 0),
        }))
    }

    /// Every legal move of `position` with its value (`win K`, ...) for the side to move,
    /// best first; `None` when no table covers the position.
    fn probe_moves(&self, position: &Position) -> PyResult<Option<Vec<(String, String)>>> {
        match &position.line {
            AnyLine::Oska(l) => self.moves::<Oska>(l),
            AnyLine::Hexapawn(l) => self.moves::<Hexapawn>(l),
            AnyLine::Ctf(_) => Err(no_ctf_tables()),
        }
    }

    /// Closes the tables; a probe after raises `ValueError`.
    fn close(&self) {
        *self.open.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

/// A protocol line as a Python value.
type Parsed<'py> = (&'static str, Bound<'py, PyDict>);

/// Reads one line an engine wrote, with the core's protocol parser (protocol.md), as `(kind,
/// fields)`: `kind` is the line's first word (`id`, `game`, `option`, `uciok`, `readyok`,
/// `info`, `bestmove`, `result`, `perft`, `nodes`, `board`, `legal`, `error`) and `fields` a
/// dict of its values (scores as the protocol writes them, `cp 12`; times in milliseconds).
/// A line that does not fit the protocol raises `ValueError` with the core's error code first.
#[pyfunction]
fn parse_reply<'py>(py: Python<'py>, line: &str) -> PyResult<Parsed<'py>> {
    let reply = Reply::parse(line)
        .map_err(|e| value_error(format!("{} {}", e.code.as_str(), e.message)))?;
    let d = PyDict::new(py);
    let kind = match reply {
        Reply::IdName(text) | Reply::IdAuthor(text) => {
            let key = if line.split_whitespace().nth(1) == Some("name") {
                "name"
            } else {
                "author"
            };
            d.set_item("key", key)?;
            d.set_item("value", text)?;
            "id"
        }
        Reply::Game { game, min, max } => {
            d.set_item("game", game.name())?;
            d.set_item("min", min)?;
            d.set_item("max", max)?;
            "game"
        }
        Reply::Option(decl) => {
            d.set_item("name", &decl.name)?;
            let (kind, default, min, max, vars) = match decl.kind {
                OptionKind::Spin { default, min, max } => {
                    ("spin", default.to_string(), Some(min), Some(max), vec![])
                }
                OptionKind::Check { default } => ("check", default.to_string(), None, None, vec![]),
                OptionKind::Combo { default, vars } => ("combo", default, None, None, vars),
                OptionKind::String { default } => ("string", default, None, None, vec![]),
            };
            d.set_item("type", kind)?;
            d.set_item("default", default)?;
            d.set_item("min", min)?;
            d.set_item("max", max)?;
            d.set_item("var", vars)?;
            "option"
        }
        Reply::UciOk => "uciok",
        Reply::ReadyOk => "readyok",
        Reply::Info(info) => {
            match info {
                Info::Search(i) => {
                    d.set_item("depth", i.depth)?;
                    if let Some(k) = i.multipv {
                        d.set_item("multipv", k)?;
                    }
                    d.set_item("score", i.score.to_string())?;
                    d.set_item("nodes", i.nodes)?;
                    d.set_item("nps", i.nps)?;
                    d.set_item("time", i.time_ms)?;
                    if i.tbhits != 0 {
                        d.set_item("tbhits", i.tbhits)?;
                    }
                    d.set_item("pv", i.pv)?;
                }
                Info::Progress(p) => {
                    d.set_item("nodes", p.nodes)?;
                    d.set_item("nps", p.nps)?;
                    d.set_item("time", p.time_ms)?;
                    if let Some(stage) = p.stage {
                        d.set_item("stage", stage)?;
                    }
                    if let Some(root) = p.root {
                        d.set_item("root", root)?;
                    }
                    if let Some(bound) = p.bound {
                        d.set_item("bound", bound.to_string())?;
                    }
                }
                Info::String(text) => d.set_item("string", text)?,
                Info::Trace(text) => d.set_item("trace", text)?,
                Info::Other(text) => d.set_item("other", text)?,
            }
            "info"
        }
        Reply::BestMove(mv) => {
            d.set_item("move", mv.map(|m| m.to_string()))?;
            "bestmove"
        }
        Reply::Result(result) => {
            if let Some(r) = result {
                d.set_item("winner", r.winner.map(|s| s == Side::White))?;
                d.set_item("reason", r.reason)?;
            }
            "result"
        }
        Reply::Perft { mv, nodes } => {
            d.set_item("move", mv)?;
            d.set_item("nodes", nodes)?;
            "perft"
        }
        Reply::Nodes(n) => {
            d.set_item("nodes", n)?;
            "nodes"
        }
        Reply::Board {
            game,
            size,
            board,
            side,
            ..
        } => {
            d.set_item("game", game.name())?;
            d.set_item("size", size)?;
            d.set_item("board", board.to_string())?;
            d.set_item("turn", side == Side::White)?;
            "board"
        }
        Reply::Legal(moves) => {
            d.set_item("moves", moves)?;
            "legal"
        }
        Reply::Error { code, message } => {
            d.set_item("code", code.as_str())?;
            d.set_item("message", message)?;
            "error"
        }
    };
    Ok((kind, d))
}

/// The native module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Position>()?;
    m.add_class::<PyOutcome>()?;
    m.add("GameOverError", m.py().get_type::<GameOverError>())?;
    m.add_function(wrap_pyfunction!(movegen, m)?)?;
    m.add_function(wrap_pyfunction!(best, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(probe, m)?)?;
    m.add_class::<OpenTables>()?;
    m.add_function(wrap_pyfunction!(parse_reply, m)?)?;
    Ok(())
}
