//! Function adapters: a seed *function* (`FILE.py:FUNCTION`, `FILE.hs:FUNCTION`,
//! `FILE.lisp:FUNCTION`) as an engine ([`FunctionCall`]).
//!
//! Each move is one call of the function by its driver (`driver.rs`). The driver lives
//! for one game (it is started at the game's first move and ended by `newgame`), unless reuse
//! is turned off, when it lives one move. It runs under [`ResourceLimits`], in the sandbox
//! ([`super::sandbox`]).

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::board_call::{BoardCall, InputMode, SeedArgs, adapter_options};
use super::driver::Driver;
use super::fault::{Failed, Fault};
use super::limits::ResourceLimits;
use super::spec::{FunctionError, FunctionSpec};
use crate::process::capture::escape;
use crate::session::backend::{Backend, SearchCall};
use boardgames_core::games::AnyLine;
use boardgames_core::games::Move;
use boardgames_core::games::{Game, GameKind, Line};
use boardgames_core::protocol::{Info, OptionDecl};

/// The adapter: a seed function as a [`Backend`].
#[derive(Debug)]
pub struct FunctionCall {
    /// The function.
    pub spec: FunctionSpec,
    /// The depth when `go` gives none.
    pub depth: u32,
    /// The limits the driver runs under.
    pub limits: ResourceLimits,
    /// Keep the driver for the whole game (else one driver a move).
    pub reuse: bool,
    driver: Option<Driver>,
    noted: bool,
    /// How long the last call ran (from the request to the answer or the failure).
    ran: Duration,
}

impl FunctionCall {
    /// An adapter for `spec`; fails when the file is unreadable or the toolchain is missing.
    pub fn new(
        spec: FunctionSpec,
        depth: u32,
        limits: ResourceLimits,
        reuse: bool,
    ) -> Result<FunctionCall, FunctionError> {
        spec.check_toolchain()?;
        Ok(FunctionCall {
            spec,
            depth,
            limits,
            reuse,
            driver: None,
            noted: false,
            ran: Duration::ZERO,
        })
    }

    fn shape(&self) -> BoardCall {
        BoardCall {
            program: self.spec.file.clone(),
            args: Vec::new(),
            format: self.spec.language.format(),
            depth: self.depth,
            input: InputMode::Stdin,
            limits: None,
        }
    }

    /// One call of the function: the text it returned. The driver is started at the game's
    /// first call, and ended after a failure, a stop, or each move when reuse is off.
    fn call(
        &mut self,
        game: GameKind,
        board: &str,
        side: char,
        depth: u32,
        size: usize,
        stop: &AtomicBool,
    ) -> Result<Option<String>, Failed> {
        if self.driver.as_ref().is_some_and(|d| d.game != game) {
            self.driver = None;
        }
        if self.driver.is_none() {
            self.driver = Some(Driver::start(&self.spec, &self.limits, game, stop)?);
        }
        let d = self.driver.as_mut().expect("started above");
        let asked = Instant::now();
        let result = d.ask(board, side, depth, size, &self.limits, stop);
        self.ran = asked.elapsed();
        if result.is_err() || !self.reuse || matches!(result, Ok(None)) {
            self.driver = None;
        }
        result
    }

    fn search_line<G: Game>(&mut self, line: &Line<G>, call: SearchCall<'_>) -> Option<Move> {
        let SearchCall { go, stop, report } = call;
        let pos = *line.current();
        let shape = self.shape();
        let SeedArgs {
            moves,
            board,
            side,
            depth,
        } = SeedArgs::of(line, go, self.depth, shape.board_text(line));
        if !self.noted {
            self.noted = true;
            for note in super::sandbox::notes(&self.limits) {
                report(Info::String(format!("board-call: note: {note}")));
            }
        }
        let function = self.spec.function.clone();
        let called = self.call(G::KIND, &board, side, depth, pos.size(), stop);
        let ran = self.ran.as_millis();
        let mut fail = |fault: Fault, why: String| {
            report(Info::String(format!(
                "board-call: [{fault}] {function}: {why} (called with '{board}' {side} {depth}; \
                 it ran {ran} ms)"
            )));
            None
        };
        match called {
            Err((fault, why)) => fail(fault, why),
            Ok(None) => moves.as_slice().first().copied(),
            Ok(Some(value)) => match shape.read_answer(line, &moves, &value) {
                None => fail(
                    Fault::NoBoard,
                    format!(
                        "it returned '{}', not a {} board of size {}",
                        escape(&value),
                        G::KIND,
                        pos.size()
                    ),
                ),
                Some(a) => match a.best {
                    Some(m) => Some(m),
                    None => fail(
                        Fault::Illegal,
                        format!(
                            "its board '{}' is not the result of any legal move",
                            escape(&a.text)
                        ),
                    ),
                },
            },
        }
    }
}

impl Backend for FunctionCall {
    fn options(&self) -> Vec<OptionDecl> {
        adapter_options()
    }

    fn searched_by(&self) -> &'static str {
        "a board-call function"
    }

    /// The seed's game when the function bears one of its names (a seed function plays one
    /// game), else all three.
    fn games(&self) -> Vec<GameKind> {
        self.spec
            .game()
            .map_or_else(|| GameKind::ALL.to_vec(), |g| vec![g])
    }

    /// A new game: the driver of the last one ends.
    fn clear(&mut self) {
        self.driver = None;
    }

    fn search(&mut self, line: &AnyLine, call: SearchCall<'_>) -> Option<Move> {
        boardgames_core::with_game!(l in line => self.search_line(l, call))
    }
}
