"""Scores of positions: won or lost in N plies, drawn, or a heuristic evaluation; and
:class:`PovScore`, a score with the side it is seen from (python-chess's shape)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

__all__ = ["Score", "PovScore", "Color", "WHITE", "BLACK"]

Color = bool
"""A side as python-chess writes it: ``WHITE`` (True) or ``BLACK`` (False)."""
WHITE: Color = True
BLACK: Color = False

_KINDS = ("cp", "win", "loss", "draw")


@dataclass(frozen=True)
class Score:
    """A score from the side to move's point of view, as the protocol writes it.

    ``kind`` is ``"win"`` (the side to move wins, the game ends ``value`` plies from now),
    ``"loss"`` (it loses in ``value`` plies), ``"draw"`` (a proven draw, ``value`` 0) or
    ``"cp"`` (a heuristic evaluation, ``value`` in hundredths of a piece, may be negative).

    Scores compare by how good they are for the side to move: a loss (the later the better) <
    any evaluation < a win (the sooner the better); a draw ranks as the evaluation 0.

    >>> Score.parse("win 3")
    Score(kind='win', value=3)
    >>> str(Score.parse("cp -12"))
    'cp -12'
    """

    kind: str
    value: int = 0

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise ValueError(f"a score's kind is one of {', '.join(_KINDS)}, not {self.kind!r}")
        if self.kind in ("win", "loss") and self.value < 0:
            raise ValueError(f"a {self.kind} is a number of plies, not {self.value}")
        if self.kind == "draw" and self.value != 0:
            raise ValueError("a draw has no value")

    @classmethod
    def parse(cls, text: str) -> "Score":
        """Reads ``cp X``, ``win K``, ``loss K`` or ``draw`` (a ValueError otherwise)."""
        words = text.split()
        if words == ["draw"]:
            return cls("draw")
        if len(words) == 2 and words[0] in ("cp", "win", "loss"):
            try:
                value = int(words[1])
            except ValueError:
                raise ValueError(f"not a score: {text!r} ({words[1]!r} is not a number)") from None
            if words[0] != "cp" and not words[1].isdigit():
                raise ValueError(f"not a score: {text!r} (plies are a number of at least 0)")
            return cls(words[0], value)
        raise ValueError(f"not a score: {text!r} (expected 'cp X', 'win K', 'loss K' or 'draw')")

    @property
    def is_win(self) -> bool:
        """Whether the side to move wins with best play."""
        return self.kind == "win"

    @property
    def is_loss(self) -> bool:
        """Whether the side to move loses with best play."""
        return self.kind == "loss"

    @property
    def is_draw(self) -> bool:
        """Whether the position is a proven draw."""
        return self.kind == "draw"

    @property
    def is_proven(self) -> bool:
        """Whether the score is the exact game value (a win, a loss or a draw)."""
        return self.kind != "cp"

    @property
    def plies(self) -> Optional[int]:
        """The plies to the end of a won or lost game; None otherwise."""
        return self.value if self.kind in ("win", "loss") else None

    @property
    def cp(self) -> Optional[int]:
        """The evaluation of a ``cp`` score (0 for a draw); None for a win or a loss."""
        if self.kind == "cp":
            return self.value
        return 0 if self.kind == "draw" else None

    def is_mate(self) -> bool:
        """Whether the game's end is proven: a win or a loss in :meth:`mate` plies
        (python-chess's name; here the count is of plies, and a game ends by the game's rules,
        not by a mate)."""
        return self.kind in ("win", "loss")

    def mate(self) -> Optional[int]:
        """The plies to the end: ``K`` for a win in K, ``-K`` for a loss in K (``0`` for a loss
        in 0, a finished game: test :attr:`is_loss`), None for a draw or an evaluation."""
        if self.kind == "win":
            return self.value
        if self.kind == "loss":
            return -self.value
        return None

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        """The score as one number: the evaluation of a ``cp`` score, 0 for a draw; a win in K
        is ``mate_score - K`` and a loss in K ``-(mate_score - K)``, or None when
        ``mate_score`` is not given (as python-chess's ``Score.score``)."""
        if self.kind == "cp":
            return self.value
        if self.kind == "draw":
            return 0
        if mate_score is None:
            return None
        return mate_score - self.value if self.kind == "win" else -(mate_score - self.value)

    def __neg__(self) -> "Score":
        """The same score from the other side's point of view."""
        if self.kind == "win":
            return Score("loss", self.value)
        if self.kind == "loss":
            return Score("win", self.value)
        if self.kind == "cp":
            return Score("cp", -self.value)
        return self

    def _rank(self) -> Tuple[int, int]:
        if self.kind == "loss":
            return (0, self.value)
        if self.kind == "win":
            return (2, -self.value)
        return (1, self.value)

    def __lt__(self, other: "Score") -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._rank() < other._rank()

    def __le__(self, other: "Score") -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._rank() <= other._rank()

    def __gt__(self, other: "Score") -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._rank() > other._rank()

    def __ge__(self, other: "Score") -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._rank() >= other._rank()

    def __str__(self) -> str:
        return "draw" if self.kind == "draw" else f"{self.kind} {self.value}"


class PovScore:
    """A score with the side it is seen from, as python-chess's ``PovScore``: ``relative`` is the
    :class:`Score` for the side to move of the searched position (``turn``); :meth:`white`,
    :meth:`black` and :meth:`pov` give it from a given side. ``str()`` is the relative score in
    the protocol's form. Two PovScores are equal when they are the same from White's side."""

    __slots__ = ("relative", "turn")

    def __init__(self, relative: Score, turn: Color) -> None:
        self.relative = relative
        self.turn = turn

    def pov(self, color: Color) -> Score:
        """The score from ``color``'s side (``WHITE`` or ``BLACK``)."""
        return self.relative if self.turn == color else -self.relative

    def white(self) -> Score:
        """The score from White's side."""
        return self.pov(WHITE)

    def black(self) -> Score:
        """The score from Black's side."""
        return self.pov(BLACK)

    def is_mate(self) -> bool:
        """Whether the game's end is proven (see :meth:`Score.is_mate`)."""
        return self.relative.is_mate()

    def __neg__(self) -> "PovScore":
        return PovScore(-self.relative, self.turn)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PovScore):
            return NotImplemented
        return self.white() == other.white()

    def __hash__(self) -> int:
        return hash(self.white())

    def __str__(self) -> str:
        return str(self.relative)

    def __repr__(self) -> str:
        return f"PovScore({self.relative!r}, {'WHITE' if self.turn else 'BLACK'})"
