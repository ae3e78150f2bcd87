"""Exact values from the tablebases of Oska and Hexapawn (built by ``engine tablebase build``,
see docs/tablebases.md), read by the Rust core."""

from __future__ import annotations

import os
from typing import Dict, Optional, Union

from . import _native
from ._native import Position
from .score import Score

__all__ = ["probe", "probe_moves"]

PathLike = Union[str, "os.PathLike[str]"]


def probe(position: Position, directory: PathLike) -> Optional[Score]:
    """The exact value of ``position`` for its side to move, from the tables in ``directory``:
    ``Score('win', K)``, ``Score('loss', K)`` or ``Score('draw')``; None when no table there
    covers the position (its game, size or material).

    Raises ValueError for a directory that does not exist, a table that fails its checks, or a
    Capture the Flag position (which has no tables).
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
