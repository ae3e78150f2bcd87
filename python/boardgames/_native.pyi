"""Type stubs of boardgames._native, the Rust core through PyO3 (python/src/lib.rs)."""

from typing import List, Optional, Sequence, Tuple, Union

class GameOverError(ValueError):
    """The position is a finished game: there is no move to make."""

class Outcome:
    """How a game ended."""

    @property
    def winner(self) -> Optional[str]:
        """``'w'``, ``'b'``, or None for a draw."""
    @property
    def reason(self) -> str:
        """The reason's code: ``far-row``, ``no-pieces``, ``flag-captured``, ..."""
    @property
    def is_draw(self) -> bool: ...
    def result(self) -> str:
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
    def moves(self) -> List[str]:
        """The moves pushed, oldest first."""
    def legal_moves(self) -> List[str]: ...
    def push(self, move: str) -> None: ...
    def pop(self) -> str: ...
    def outcome(self) -> Optional[Outcome]: ...
    def board(self, format: str = "slash") -> str:
        """slash, python, haskell, lisp, flat or history."""
    def command(self) -> str:
        """The protocol's ``position ...`` command for this line."""
    def copy(self) -> Position: ...
    def __copy__(self) -> Position: ...

def movegen(game: str, board: str, side: str) -> List[str]: ...
def best(game: str, board: str, side: str, depth: int, size: Optional[int] = None) -> str: ...
def solve(position: Position, hash_mib: Optional[int] = None, tablebase: Optional[str] = None) -> str: ...
def probe(position: Position, directory: str) -> Optional[Tuple[str, List[Tuple[str, str]]]]: ...
