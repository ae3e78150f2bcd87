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
from boardgames.engine import InfoDict, Limit, SimpleEngine, PlayResult

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

# The overloads: a list in gives a list out, a string in a string out.
rows: List[str] = seeds.oskaplayer(["wwww", "---", "--", "---", "bbbb"], "w", 2, evaluator="material")
text: str = seeds.oskaplayer("wwww/---/--/---/bbbb", "w", 2)
hexa: List[str] = seeds.hexapawn(["www", "---", "bbb"], 3, "w", 2)
flat: str = seeds.capture(["-wWw--www-------bbb--bBb-"], "w", 2)
boards: List[List[str]] = seeds.movegen(["wwww", "---", "--", "---", "bbbb"], "w")
texts: List[str] = seeds.movegen("wwww/---/--/---/bbbb", "w")
flats: List[str] = seeds.movegen(["-wWw--www-------bbb--bBb-"], "w", game="ctf")
turn: bool = pos.turn
winner: Optional[bool] = outcome.winner if outcome is not None else None

def scores(engine: SimpleEngine) -> None:
    info: InfoDict = engine.analyse(pos, limit)
    lines: List[InfoDict] = engine.analyse(pos, limit, multipv=2)
    relative: Score = info["score"].relative
    white: Score = lines[0]["score"].white()
    depth: int = info["depth"]
    maximum: Optional[int] = engine.options["Hash"].max
    with tablebase.open_tablebase("tables") as tb:
        wdl: int = tb.probe_wdl(pos)
        dtm: Optional[int] = tb.get_dtm(pos)
'''

BAD = '''
from boardgames import Position
pos = Position.start("hexapawn", "3")
'''

# A list given to a player comes back a list, so reading it as a string is an error.
BAD_OVERLOAD = '''
from boardgames import seeds
text: str = seeds.oskaplayer(["wwww", "---", "--", "---", "bbbb"], "w", 2)
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
    done = mypy(BAD_OVERLOAD, tmp_path)
    assert done.returncode == 1 and 'has type "list[str]", variable has type "str"' in done.stdout, done.stdout


def test_mypy_strict_accepts_the_package_itself(tmp_path: Path) -> None:
    """The package's source (python/boardgames, with the native module's stub)."""
    source = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path), "boardgames"],
        capture_output=True, text=True, cwd=source,
    )
    assert done.returncode == 0, done.stdout + done.stderr
