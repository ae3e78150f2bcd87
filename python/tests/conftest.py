"""Shared fixtures: the engine binary under test and a plain line-by-line driver of it.

The engine is $BOARDGAMES_ENGINE, by default target/debug/engine of the repository (what
`cargo test --workspace` leaves; python/test.sh builds it when missing)."""

from __future__ import annotations

import os
import random
import subprocess
from pathlib import Path
from typing import Iterator, List

import pytest

REPO = Path(__file__).resolve().parents[2]
CTF_ENGINE = REPO / "engine" / "tests" / "protocol" / "ctf_engine.py"


def engine_path() -> Path:
    path = Path(os.environ.get("BOARDGAMES_ENGINE", REPO / "target" / "debug" / "engine"))
    if not os.access(path, os.X_OK):
        pytest.fail(f"no engine binary at {path}: build it (cargo build -p engine) or set BOARDGAMES_ENGINE")
    return path


@pytest.fixture(scope="session")
def engine_bin() -> Path:
    return engine_path()


class Pipe:
    """The engine spoken to line by line, without the client under test."""

    def __init__(self, program: Path):
        self.proc = subprocess.Popen(
            [str(program)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix: str) -> List[str]:
        assert self.proc.stdout is not None
        lines = []
        while True:
            line = self.proc.stdout.readline()
            assert line, "the engine exited"
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines

    def ask(self, *commands: str) -> List[str]:
        """Sends the commands then isready; the lines before readyok."""
        for c in commands:
            self.send(c)
        self.send("isready")
        return self.until("readyok")[:-1]

    def close(self) -> None:
        self.send("quit")
        self.proc.wait(10)


@pytest.fixture
def pipe(engine_bin: Path) -> Iterator[Pipe]:
    p = Pipe(engine_bin)
    p.send("uci")
    p.until("uciok")
    yield p
    p.close()


SIZES = {"oska": [4, 5, 6, 8], "hexapawn": [3, 4, 5, 7], "ctf": [3, 4, 5, 6, 9]}


def random_positions(game: str, count: int, seed: int) -> list:
    """`count` positions of `game` met along random games from the start of random sizes, each a
    boardgames.Position with its line (about one in ten a finished game)."""
    from boardgames import Position

    rng = random.Random(seed)
    found = []
    while len(found) < count:
        pos = Position.start(game, rng.choice(SIZES[game]))
        for _ in range(rng.randrange(0, 60)):
            moves = pos.legal_moves
            if not moves:
                break
            pos.push(rng.choice(moves))
        # Mostly positions where the game goes on; one in ten finished games is kept.
        if pos.outcome() is not None and pos.moves and rng.random() > 0.1:
            pos.pop()
        found.append(pos)
    return found
