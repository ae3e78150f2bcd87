"""The seed assignments' functions, with the seeds' own signatures and board formats, computed by
the engine's Rust core: what ``engine movegen`` and ``engine best`` print, as Python values.

A board is what the seeds pass: a Python list of strings (Oska and Hexapawn: the rows, top row
first; Capture the Flag: the history, most recent board first, each a flat row-major string).
The answers come back in the same shape. A board given as a string, in any format ``engine``
reads (``'www/---/bbb'``, ``"['www','---','bbb']"``, Lisp, flat, Haskell), is answered as a
string in that format, exactly as ``engine movegen`` / ``engine best`` print it.

So a student can compare a function with the reference in a test::

    from boardgames import seeds
    import mysubmission

    def test_movegen():
        board = ['wwww', '---', '--', '---', 'bbbb']
        assert sorted(mysubmission.movegen(board, 'w')) == sorted(seeds.movegen(board, 'w'))

The players take an optional ``evaluator``: the name of the static evaluator to search with, as
``engine best --eval`` takes it (``tuned``, the default, ``legacy``, ``material``,
``classic-advance``, ``classic-race``), so that an answer can be compared with a student's at
the same evaluator.

Bad input (a board the rules refuse, a side other than ``'w'``/``'b'``, a depth outside 1 to
100) raises ValueError with the core's message; a finished game given to a player function raises
:class:`GameOverError` (a ValueError): there is no move to make.
"""

from __future__ import annotations

import ast
from typing import List, Literal, Optional, Sequence, Tuple, Union, cast, overload

from . import _native
from ._native import GameOverError

__all__ = ["movegen", "oskaplayer", "hexapawn", "capture", "best", "GameOverError", "Board", "Rows"]

Rows = Union[List[str], Tuple[str, ...]]
"""A board as the seeds pass it in Python: a list of strings (rows, or a Capture the Flag
history)."""

Board = Union[str, Rows]
"""A board: a list of strings, or one string in any format ``engine`` reads."""


def _text(board: Board) -> "tuple[str, bool]":
    """The board as text the core reads, and whether it came as a list (then the answer is
    turned back into Python values)."""
    if isinstance(board, str):
        return board, False
    if isinstance(board, (list, tuple)) and all(isinstance(row, str) for row in board):
        for row in board:
            if any(c in row for c in "'\"[],"):
                raise ValueError(f"cannot read the board: the element {row!r} is not a row of squares")
        return "[" + ", ".join(f"'{row}'" for row in board) + "]", True
    raise ValueError(
        f"a board is a list of strings (or a string in a seed format), not {type(board).__name__}"
    )


def _check_side(side: str) -> str:
    if side not in ("w", "b"):
        raise ValueError(f"side must be 'w' or 'b', not {side!r}")
    return side


def _check_depth(depth: int) -> int:
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise ValueError(f"the depth is a whole number of plies, not {depth!r}")
    return depth


def _value(text: str, as_list: bool) -> Union[str, List[str]]:
    """An answer of the core as the Python value it spells: the list of rows, or the one flat
    board of a Capture the Flag answer. The core writes them as ``['r1', 'r2']`` and ``'b'``
    (squares never contain quotes or commas), so the common shapes are split directly."""
    if not as_list:
        return text
    if text.startswith("['") and text.endswith("']"):
        return text[2:-2].split("', '")
    if len(text) >= 2 and text[0] == text[-1] == "'" and "'" not in text[1:-1]:
        return text[1:-1]
    return cast(Union[str, List[str]], ast.literal_eval(text))


@overload
def movegen(board: str, side: str, *, game: str = "oska") -> List[str]: ...
@overload
def movegen(board: Rows, side: str, *, game: Literal["oska", "hexapawn"] = "oska") -> List[List[str]]: ...
@overload
def movegen(board: Rows, side: str, *, game: Literal["ctf"]) -> List[str]: ...
@overload
def movegen(board: Rows, side: str, *, game: str) -> List[Union[str, List[str]]]: ...


def movegen(board: Board, side: str, *, game: str = "oska") -> Sequence[Union[str, List[str]]]:
    """Every board that ``side`` (``'w'`` or ``'b'``) reaches in one move from ``board``, in the
    engine's move order; ``[]`` when the side has no move (Oska's pass) or the game is over.

    The seed's move generator (``movegen(['wwww','---','--','---','bbbb'], 'w')``) is Oska's;
    ``game='hexapawn'`` or ``game='ctf'`` gives the other games' (for Capture the Flag a list is
    the history, most recent first, and each answer one flat board string). A list in gives
    lists out; a string in, strings in its format.
    """
    text, as_list = _text(board)
    return [_value(b, as_list) for b in _native.movegen(game, text, _check_side(side))]


@overload
def best(
    game: Literal["ctf"], board: Board, side: str, depth: int, size: Optional[int] = None,
    *, evaluator: Optional[str] = None,
) -> str: ...
@overload
def best(
    game: str, board: str, side: str, depth: int, size: Optional[int] = None,
    *, evaluator: Optional[str] = None,
) -> str: ...
@overload
def best(
    game: Literal["oska", "hexapawn"], board: Rows, side: str, depth: int, size: Optional[int] = None,
    *, evaluator: Optional[str] = None,
) -> List[str]: ...
@overload
def best(
    game: str, board: Rows, side: str, depth: int, size: Optional[int] = None,
    *, evaluator: Optional[str] = None,
) -> Union[str, List[str]]: ...


def best(
    game: str,
    board: Board,
    side: str,
    depth: int,
    size: Optional[int] = None,
    *,
    evaluator: Optional[str] = None,
) -> Union[str, List[str]]:
    """The board after ``side``'s best move, searched to exactly ``depth`` plies (1 to 100) by
    the engine's alpha-beta search with the evaluator named ``evaluator`` (the tuned one by
    default): ``engine best GAME BOARD SIDE DEPTH --eval E``. The board is unchanged when the
    side must pass (Oska). An unknown evaluator raises ValueError naming the known ones."""
    text, as_list = _text(board)
    answer = _native.best(game, text, _check_side(side), _check_depth(depth), size, evaluator)
    return _value(answer, as_list)


@overload
def oskaplayer(board: str, side: str, depth: int, *, evaluator: Optional[str] = None) -> str: ...
@overload
def oskaplayer(board: Rows, side: str, depth: int, *, evaluator: Optional[str] = None) -> List[str]: ...


def oskaplayer(board: Board, side: str, depth: int, *, evaluator: Optional[str] = None) -> Union[str, List[str]]:
    """The seed's Oska player: the board after ``side``'s best move looking ``depth`` plies
    ahead, ``oskaplayer(['wwww','---','--','---','bbbb'], 'w', 2)``."""
    return best("oska", board, side, depth, evaluator=evaluator)


@overload
def hexapawn(board: str, size: int, side: str, depth: int, *, evaluator: Optional[str] = None) -> str: ...
@overload
def hexapawn(board: Rows, size: int, side: str, depth: int, *, evaluator: Optional[str] = None) -> List[str]: ...


def hexapawn(
    board: Board, size: int, side: str, depth: int, *, evaluator: Optional[str] = None
) -> Union[str, List[str]]:
    """The seed's Hexapawn player: ``hexapawn(['www','---','bbb'], 3, 'w', 2)``; ``size`` must
    agree with the board."""
    if isinstance(size, bool) or not isinstance(size, int):
        raise ValueError(f"the size is a whole number, not {size!r}")
    if size < 1:
        raise ValueError(f"the size {size} does not agree with the board")
    return best("hexapawn", board, side, depth, size, evaluator=evaluator)


def capture(history: Board, side: str, depth: int, *, evaluator: Optional[str] = None) -> str:
    """The seed's Capture the Flag player: ``capture(['-wWw--www-------bbb--bBb-'], 'w', 2)``
    takes the history of the game, most recent board first (each board a flat row-major
    string), and returns the board after the best move as one flat string."""
    answer = best("ctf", history, side, depth, evaluator=evaluator)
    assert isinstance(answer, str)
    return answer
