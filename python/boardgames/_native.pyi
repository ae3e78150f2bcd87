"""Type stubs of boardgames._native, the Rust core through PyO3 (python/src/lib.rs)."""

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

class GameOverError(ValueError):
    """The position is a finished game: there is no move to make."""

class Outcome:
    """How a game ended, in python-chess's shape."""

    @property
    def winner(self) -> Optional[bool]:
        """True (White), False (Black), or None for a draw."""
    @property
    def termination(self) -> str:
        """The reason's code: ``far-row``, ``no-pieces``, ``flag-captured``, ..."""
    @property
    def reason(self) -> str:
        """The same as ``termination``."""
    @property
    def is_draw(self) -> bool: ...
    def result(self) -> str:
        """``1-0``, ``0-1`` or ``1/2-1/2``."""
    def protocol(self) -> str:
        """``white far-row``, ``draw both-stuck``: the protocol's ``result`` line's words."""
    def __hash__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...

class Position:
    """A position with its line, under the engine's rules."""

    @staticmethod
    def start(game: str, size: int) -> Position:
        """The start position of ``game`` (oska, hexapawn, ctf) of ``size``."""
    @staticmethod
    def from_board(game: str, board: Union[str, Sequence[str]], side: str) -> Position:
        """A position from a board in any seed format, ``side`` (w or b) to move."""
    @property
    def game(self) -> str: ...
    @property
    def size(self) -> int: ...
    @property
    def side(self) -> str:
        """``'w'`` or ``'b'``."""
    @property
    def turn(self) -> bool:
        """True (``WHITE``) or False (``BLACK``)."""
    @property
    def moves(self) -> List[str]:
        """The moves pushed, oldest first."""
    @property
    def move_stack(self) -> List[str]:
        """The moves pushed, oldest first."""
    @property
    def legal_moves(self) -> List[str]:
        """Every legal move, in the engine's order."""
    def is_legal(self, move_: str) -> bool: ...
    def push(self, move_: str) -> None: ...
    def push_uci(self, move_: str) -> str: ...
    def pop(self) -> str: ...
    def peek(self) -> str: ...
    def outcome(self) -> Optional[Outcome]: ...
    def is_game_over(self) -> bool: ...
    def result(self) -> str:
        """``1-0``, ``0-1``, ``1/2-1/2`` or ``*``."""
    def board(self, format: str = "slash") -> str:
        """slash, python, haskell, lisp, flat or history."""
    def command(self) -> str:
        """The protocol's ``position ...`` command for this line."""
    def copy(self) -> Position: ...
    def __copy__(self) -> Position: ...
    def __deepcopy__(self, memo: Any) -> Position: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class OpenTables:
    """Tables of a directory, opened on first use and kept."""

    def __init__(self, directory: str) -> None: ...
    def probe(self, position: Position) -> Optional[Tuple[str, int]]: ...
    def probe_moves(self, position: Position) -> Optional[List[Tuple[str, str]]]: ...
    def close(self) -> None: ...

def movegen(game: str, board: str, side: str) -> List[str]: ...
def best(
    game: str,
    board: str,
    side: str,
    depth: int,
    size: Optional[int] = None,
    evaluator: Optional[str] = None,
) -> str: ...
def solve(position: Position, hash_mib: Optional[int] = None, tablebase: Optional[str] = None) -> str: ...
def probe(position: Position, directory: str) -> Optional[Tuple[str, List[Tuple[str, str]]]]: ...
def parse_reply(line: str) -> Tuple[str, Dict[str, Any]]: ...
