//! What the session says: replies written whole, one writer at a time, and the replies built
//! from a line (`show`, `legal`, a game's result, errors).

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use boardgames_core::games::notation::{MoveText, move_name};
use boardgames_core::games::setup::SetupBoard;
use boardgames_core::games::{Game, Line, Move, MoveList, PositionError};
use boardgames_core::protocol::{ErrorCode, GameResult, ProtocolError, Reply, Setup, printable};

/// Where replies go: whole lines, flushed, one writer at a time.
pub(super) struct Out<W: Write> {
    inner: Arc<Mutex<W>>,
    broken: Arc<AtomicBool>,
}

impl<W: Write> Clone for Out<W> {
    fn clone(&self) -> Self {
        Out {
            inner: Arc::clone(&self.inner),
            broken: Arc::clone(&self.broken),
        }
    }
}

impl<W: Write> Out<W> {
    /// Replies written to `output`.
    pub(super) fn new(output: W) -> Self {
        Out {
            inner: Arc::new(Mutex::new(output)),
            broken: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Whether a write failed (the reader of the output is gone).
    pub(super) fn is_broken(&self) -> bool {
        self.broken.load(Ordering::Relaxed)
    }

    /// Writes one reply as a whole line, and flushes it.
    pub(super) fn send(&self, reply: &Reply) {
        let mut text = printable(&reply.to_string()).into_owned();
        text.push('\n');
        let mut w = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if w.write_all(text.as_bytes())
            .and_then(|()| w.flush())
            .is_err()
        {
            self.broken.store(true, Ordering::Relaxed);
        }
    }
}

/// An error reply's content.
pub(super) fn error(code: ErrorCode, message: impl Into<String>) -> ProtocolError {
    ProtocolError::new(code, message)
}

/// The error reply of a position that the rules refuse.
pub(super) fn position_error(e: &PositionError) -> ProtocolError {
    let code = match e {
        PositionError::UnsupportedSize { .. } => ErrorCode::Unsupported,
        PositionError::MoveSyntax { .. } => ErrorCode::Syntax,
        PositionError::IllegalMove { .. } => ErrorCode::IllegalMove,
        _ => ErrorCode::BadPosition,
    };
    error(code, e.to_string())
}

/// The game's result, when the line's position ends it.
pub(super) fn result_of<G: Game>(line: &Line<G>) -> Option<GameResult> {
    line.outcome().map(|o| GameResult {
        winner: o.winner(),
        reason: o.reason().code().to_string(),
    })
}

/// The `board` line of `show`: the current board, and when the line has earlier boards, its first
/// board (`startpos` when that is the game's start) with the moves played since.
pub(super) fn board_reply<G: Game>(line: &Line<G>) -> Reply {
    let pos = line.current();
    let from = line.earlier().first().map(|first| {
        let later = line.earlier().iter().skip(1).chain([pos]);
        let moves = line
            .earlier()
            .iter()
            .zip(later)
            .map(|(a, b)| MoveText::of(a, move_between(a, b)))
            .collect();
        let is_start = G::start(pos.size())
            .is_ok_and(|s| s.same_board(first) && s.side_to_move() == first.side_to_move());
        let setup = if is_start {
            Setup::StartPos
        } else {
            Setup::Board {
                board: SetupBoard::of(first),
                side: first.side_to_move(),
                history: Vec::new(),
            }
        };
        (setup, moves)
    });
    Reply::Board {
        game: G::KIND,
        size: pos.size() as u32,
        board: SetupBoard::of(pos),
        side: pos.side_to_move(),
        from,
    }
}

/// The move that leads from `a` to `b`, consecutive positions of a line (the session builds lines
/// from legal moves only).
fn move_between<G: Game>(a: &G, b: &G) -> Move {
    let mut moves = MoveList::new();
    a.generate(&mut moves);
    moves
        .as_slice()
        .iter()
        .copied()
        .find(|&m| {
            let next = a.play(m);
            next.same_board(b) && next.side_to_move() == b.side_to_move()
        })
        .expect("consecutive boards of a line are one move apart")
}

/// The `legal` line: the legal moves of the line's position.
pub(super) fn legal_reply<G: Game>(line: &Line<G>) -> Reply {
    let mut moves = MoveList::new();
    line.legal_moves(&mut moves);
    let pos = line.current();
    Reply::Legal(
        moves
            .as_slice()
            .iter()
            .map(|&m| move_name(pos, m))
            .collect(),
    )
}
