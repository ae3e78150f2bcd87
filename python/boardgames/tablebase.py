"""Exact values from the tablebases of Oska and Hexapawn (built by ``engine tablebase build``,
see docs/tablebases.md), read by the Rust core.

For many positions, open the directory once with :func:`open_tablebase` (as python-chess's
``chess.syzygy.open_tablebase``): the handle keeps the tables it has read open::

    with open_tablebase("tables") as tables:
        for position in positions:
            print(tables.probe_wdl(position), tables.probe_dtm(position))

:func:`probe` and :func:`probe_moves` read the tables again on every call (so they see tables
rebuilt meanwhile).
"""

from __future__ import annotations

import os
from types import TracebackType
from typing import Dict, Optional, Type, Union

from . import _native
from ._native import Position
from .score import Score

__all__ = ["probe", "probe_moves", "open_tablebase", "Tablebase"]

PathLike = Union[str, "os.PathLike[str]"]

_WDL = {"win": 1, "draw": 0, "loss": -1}


class Tablebase:
    """The tables of a directory, each game and size's read (and checked) on the first probe of
    one of its positions and kept until :meth:`close` (or the end of a ``with`` block).

    A finished game has its value without tables: a loss in 0 for the side to move (a win in 0
    when the board gives it the win, a draw for a draw). The ``probe_*`` methods raise KeyError
    for a position no table covers (as python-chess's); the ``get_*`` methods return None. A
    Capture the Flag position raises ValueError (its values depend on the history: no tables).
    """

    def __init__(self, directory: PathLike) -> None:
        self.directory = os.fspath(directory)
        self._tables = _native.OpenTables(self.directory)

    def get(self, position: Position) -> Optional[Score]:
        """The exact value of ``position`` for its side to move (``Score('win', K)``, ...), or
        None when no table covers it."""
        found = self._tables.probe(position)
        return None if found is None else Score(found[0], found[1])

    def probe(self, position: Position) -> Score:
        """:meth:`get`, raising KeyError when no table covers the position."""
        found = self.get(position)
        if found is None:
            raise KeyError(f"no table of {self.directory} covers {position!r}")
        return found

    def get_wdl(self, position: Position) -> Optional[int]:
        """1 when the side to move wins, 0 for a draw, -1 when it loses (as
        ``chess.gaviota``'s); None when no table covers the position."""
        found = self._tables.probe(position)
        return None if found is None else _WDL[found[0]]

    def probe_wdl(self, position: Position) -> int:
        """:meth:`get_wdl`, raising KeyError when no table covers the position."""
        found = self.get_wdl(position)
        if found is None:
            raise KeyError(f"no table of {self.directory} covers {position!r}")
        return found

    def get_dtm(self, position: Position) -> Optional[int]:
        """The plies to the end with best play, signed: ``K`` when the side to move wins in K,
        ``-K`` when it loses in K, 0 for a draw (and for a finished game lost by the side to
        move: :meth:`probe_wdl` tells them apart); None when no table covers the position."""
        found = self._tables.probe(position)
        if found is None:
            return None
        kind, plies = found
        return plies if kind == "win" else -plies

    def probe_dtm(self, position: Position) -> int:
        """:meth:`get_dtm`, raising KeyError when no table covers the position."""
        found = self.get_dtm(position)
        if found is None:
            raise KeyError(f"no table of {self.directory} covers {position!r}")
        return found

    def probe_moves(self, position: Position) -> Optional[Dict[str, Score]]:
        """Every legal move of ``position`` with its exact value for the side to move, best
        first (a dict in that order); None when no table covers the position."""
        found = self._tables.probe_moves(position)
        if found is None:
            return None
        return {move: Score.parse(value) for move, value in found}

    def close(self) -> None:
        """Lets the tables go; a probe after raises ValueError."""
        self._tables.close()

    def __enter__(self) -> "Tablebase":
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Tablebase {self.directory!r}>"


def open_tablebase(directory: PathLike) -> Tablebase:
    """A :class:`Tablebase` of the tables in ``directory`` (a ValueError when it is not a
    directory), which keeps them open between probes."""
    return Tablebase(directory)


def probe(position: Position, directory: PathLike) -> Optional[Score]:
    """The exact value of ``position`` for its side to move, from the tables in ``directory``:
    ``Score('win', K)``, ``Score('loss', K)`` or ``Score('draw')``; None when no table there
    covers the position (its game, size or material).

    Reads the tables for this one call; for many positions :func:`open_tablebase` is far
    faster. Raises ValueError for a directory that does not exist, a table that fails its
    checks, or a Capture the Flag position (which has no tables).
    """
    found = _native.probe(position, os.fspath(directory))
    return None if found is None else Score.parse(found[0])


def probe_moves(position: Position, directory: PathLike) -> Optional[Dict[str, Score]]:
    """Every legal move of ``position`` with its exact value for the side to move, best first
    (a dict in that order); None when no table covers the position."""
    found = _native.probe(position, os.fspath(directory))
    if found is None:
        return None
    return {move: Score.parse(value) for move, value in found[1]}
