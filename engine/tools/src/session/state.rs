//! What a session keeps between lines: the game, the position with its earlier boards, and the
//! options; and the building of the line a `newgame` or `position` asks for.

use super::options::{HASH_MIB, MULTI_PV, Setting, THREADS};
use super::replies::{error, position_error};
use boardgames_core::eval::EvalKind;
use boardgames_core::games::notation::{MoveText, legal_move};
use boardgames_core::games::{AnyLine, Game, GameKind, Line, Move, MoveList, Oska};
use boardgames_core::protocol::{ProtocolError, Setup};

/// The state a session keeps between lines.
#[derive(Clone, Debug)]
pub struct State {
    /// The game of the last `newgame` (Oska at first).
    pub game: GameKind,
    /// The position with its earlier boards.
    pub line: AnyLine,
    /// The `Hash` option, MiB.
    pub hash_mib: usize,
    /// The `Trace` option.
    pub trace: bool,
    /// The `Evaluator` option.
    pub evaluator: EvalKind,
    /// The `MultiPV` option: how many principal variations a search reports.
    pub multipv: usize,
    /// The `Threads` option: how many threads a search runs on.
    pub threads: usize,
}

impl State {
    /// Keeps an option's new value (`TablebasePath` is the search thread's alone).
    pub(super) fn apply(&mut self, setting: &Setting) {
        match setting {
            Setting::Hash(mib) => self.hash_mib = *mib,
            Setting::Trace(on) => self.trace = *on,
            Setting::Evaluator(kind) => self.evaluator = *kind,
            Setting::MultiPv(n) => self.multipv = *n,
            Setting::Threads(n) => self.threads = *n,
            Setting::Tablebase(_) => {}
        }
    }
}

impl Default for State {
    fn default() -> Self {
        State {
            game: GameKind::Oska,
            line: Line::new(Oska::start(4).expect("size 4 is supported")).into(),
            hash_mib: HASH_MIB.0 as usize,
            trace: false,
            evaluator: EvalKind::default(),
            multipv: MULTI_PV.0 as usize,
            threads: THREADS.0 as usize,
        }
    }
}

/// Builds the line a `position` command asks for, or says which token fails and why.
pub(super) fn build_line<G: Game>(
    size: usize,
    setup: &Setup,
    moves: &[MoveText],
) -> Result<AnyLine, ProtocolError>
where
    Line<G>: Into<AnyLine>,
{
    let mut line = setup.line::<G>(size).map_err(|e| {
        let code = position_error(&e.cause).code;
        error(code, e.message)
    })?;
    for (i, &syntax) in moves.iter().enumerate() {
        let mv = match fast_move(&line, syntax) {
            Some(mv) => mv,
            None => legal_move(&line, syntax, &syntax.to_string()).map_err(|e| {
                let p = position_error(&e);
                error(p.code, format!("move {} '{syntax}': {}", i + 1, p.message))
            })?,
        };
        line.push(mv);
    }
    Ok(line.into())
}

/// The move `text` if it is certainly legal in the line's position, found without listing the
/// line's legal moves (so that long move lists apply in linear time). `None` when it is not:
/// [`parse_move`] then decides and explains.
fn fast_move<G: Game>(line: &Line<G>, syntax: MoveText) -> Option<Move> {
    let pos = line.current();
    if pos.board_outcome().is_some() {
        return None;
    }
    let mv = match syntax {
        MoveText::Pass => Move::PASS,
        MoveText::Squares { from, to } => {
            let layout = pos.layout();
            let a = layout.square_at(from.0, from.1)?;
            let b = layout.square_at(to.0, to.1)?;
            Move::new(u8::try_from(a).ok()?, u8::try_from(b).ok()?)
        }
    };
    let mut list = MoveList::new();
    pos.generate(&mut list);
    if !list.contains(mv) {
        return None;
    }
    if G::NO_REPEAT {
        let next = pos.play(mv);
        if line.seen(&next) {
            return None;
        }
    }
    Some(mv)
}
