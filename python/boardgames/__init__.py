"""Oska, Hexapawn and Capture the Flag from Python, on the boardgames toolkit's Rust core.

- :class:`Position`: a position and its line under the engine's rules (``legal_moves``,
  ``push``, ``pop``, ``outcome``, ``board``), from the start or from a board in any seed format.
- :mod:`boardgames.seeds`: the seed assignments' functions (``movegen``, ``oskaplayer``,
  ``hexapawn``, ``capture``) with their signatures and formats, as ``engine movegen`` and
  ``engine best`` compute them.
- :mod:`boardgames.engine`: a client for any protocol engine (protocol.md), in the shape of
  python-chess's ``chess.engine``.
- ``WHITE`` (True) and ``BLACK`` (False), as python-chess names the sides (``Position.turn``,
  ``Outcome.winner``).
- :func:`solve` and :mod:`boardgames.tablebase`: exact values.

The rules, the search and the tables are the Rust core's (the ``engine`` crate), reached
through PyO3; see docs/scripting.md of the repository.
"""

from __future__ import annotations

import os
from typing import Optional, Union

from . import seeds, tablebase
from ._native import GameOverError, Outcome, Position
from .score import BLACK, WHITE, Color, PovScore, Score

__all__ = [
    "Position",
    "Outcome",
    "Score",
    "PovScore",
    "Color",
    "WHITE",
    "BLACK",
    "GameOverError",
    "solve",
    "seeds",
    "tablebase",
    "engine",
]

__version__ = "0.1.0"


def solve(
    position: Position,
    *,
    hash_mib: int = 64,
    tablebase: Optional[Union[str, "os.PathLike[str]"]] = None,
) -> Score:
    """The exact value of ``position`` for its side to move: ``Score('win', K)``,
    ``Score('loss', K)`` or ``Score('draw')``, K the plies to the end with best play (what
    ``engine solve`` prints). ``tablebase`` names a directory of tables to answer from and to
    probe. Oska and Hexapawn are solved by the exact solver; Capture the Flag by deepening,
    which ends only on small boards. A finished game is worth ``Score('loss', 0)`` for its side
    to move (``Score('win', 0)`` when the board gives it the win, ``Score('draw')`` for a draw).

    The searcher and its table are kept between calls of one game, size, ``hash_mib`` and
    ``tablebase`` (as an engine keeps them between searches of one game), so that a call costs
    what its position costs. The search runs without the GIL, so other Python threads go on
    meanwhile.
    """
    directory = None if tablebase is None else os.fspath(tablebase)
    from . import _native

    return Score.parse(_native.solve(position, hash_mib, directory))


def __getattr__(name: str) -> object:
    # boardgames.engine is imported on first use (it pulls in asyncio and threading).
    if name == "engine":
        import importlib

        return importlib.import_module(".engine", __name__)
    raise AttributeError(f"module 'boardgames' has no attribute {name!r}")
