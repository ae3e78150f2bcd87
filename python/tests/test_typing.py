"""The installed package is typed: mypy --strict checks a script using it against its inline
types and the native module's stub (py.typed and _native.pyi are installed), and catches a
misuse."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

GOOD = '''
from typing import List, Optional
from boardgames import Position, Score, Outcome, solve, seeds, tablebase
from boardgames.engine import Limit, SimpleEngine, PlayResult

pos: Position = Position.start("hexapawn", 3)
moves: List[str] = pos.legal_moves
pos.push(moves[0])
side: str = pos.side
outcome: Optional[Outcome] = pos.outcome()
value: Score = solve(pos)
plies: Optional[int] = value.plies
probed: Optional[Score] = tablebase.probe(pos, "tables")
limit = Limit(depth=3)

def best(engine: SimpleEngine) -> Optional[str]:
    result: PlayResult = engine.play(pos, limit)
    return result.move
'''

BAD = '''
from boardgames import Position
pos = Position.start("hexapawn", "3")
'''


def mypy(code: str, tmp_path: Path) -> subprocess.CompletedProcess:
    script = tmp_path / "script.py"
    script.write_text(code)
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(script)],
        capture_output=True, text=True, cwd=tmp_path,
    )


def test_mypy_strict_accepts_a_correct_script(tmp_path: Path) -> None:
    done = mypy(GOOD, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_catches_a_misuse(tmp_path: Path) -> None:
    done = mypy(BAD, tmp_path)
    assert done.returncode == 1 and 'incompatible type "str"; expected "int"' in done.stdout, done.stdout
