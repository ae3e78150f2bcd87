"""A script written as a python-chess user writes one (equality, dict keys, pickle, ``turn``, the
``legal_moves`` property, ``outcome().winner``, ``analyse(...)["score"].relative``,
``options["Hash"]``, a cancelled ``asyncio.wait_for(engine.play(...))`` followed by a working
``play``) runs unchanged against the installed package and passes ``mypy --strict``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = r'''
import asyncio
import copy
import os
import pickle
import time
from typing import Dict

from boardgames import BLACK, WHITE, Position
from boardgames.engine import Limit, SimpleEngine, popen

ENGINE = os.environ["BOARDGAMES_ENGINE"]

# Two move orders reaching the same board: equal, one dict key.
board = Position.start("oska", 4)
assert board.turn == WHITE and len(board.legal_moves) == 6 and "a1a2" in board.legal_moves
other = board.copy()
for move in ["a1a2", "a5a4", "b1b2"]:
    board.push_uci(move)
for move in ["b1b2", "a5a4", "a1a2"]:
    other.push(move)
assert board == other and hash(board) == hash(other) and board.move_stack != other.move_stack
seen: Dict[Position, int] = {board: 1}
assert seen[other] == 1 and Position.start("oska", 4) not in seen
assert board.turn == BLACK and board.peek() == "b1b2"
assert pickle.loads(pickle.dumps(board)) == board and copy.deepcopy(board) == board
assert not board.is_legal("a1a2") and board.is_legal(board.legal_moves[0])
print(board)

with SimpleEngine.popen(ENGINE) as engine:
    assert engine.options["Hash"].name == "Hash" and "multipv" in engine.options
    engine.configure({"hash": 32})
    game = Position.start("hexapawn", 3)
    while not game.is_game_over():
        game.push(engine.play(game, Limit(depth=8)).move or "")
    outcome = game.outcome()
    assert outcome is not None
    print("White" if outcome.winner else "Black", "wins:", game.result(), outcome.termination)
    assert outcome.winner is BLACK and game.result() == "0-1"
    score = engine.analyse(Position.start("hexapawn", 3), Limit(depth=7))["score"]
    print(score.relative, score.white(), score.pov(BLACK))
    assert score.relative.is_loss and score.black().is_win and score.is_mate()


async def main() -> None:
    transport, engine = await popen(ENGINE)
    position = Position.start("ctf", 7)
    try:
        await asyncio.wait_for(engine.play(position, Limit(time=3)), 0.2)
    except asyncio.TimeoutError:
        pass
    started = time.monotonic()
    result = await engine.play(position, Limit(depth=2))
    assert result.move in position.legal_moves
    assert time.monotonic() - started < 1.5, time.monotonic() - started
    async with await engine.analysis(position) as analysis:
        async for info in analysis:
            if info.get("depth", 0) >= 2:
                break
    assert (await engine.play(position, Limit(depth=1))).move in position.legal_moves
    await engine.quit()
    print("after a cancelled play:", result.move)


asyncio.run(main())
'''


def run(args: list, tmp_path: Path, engine_bin: Path) -> subprocess.CompletedProcess:
    script = tmp_path / "habits.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, BOARDGAMES_ENGINE=str(engine_bin))
    return subprocess.run(
        [sys.executable, *args, str(script)], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120
    )


def test_a_python_chess_style_script_runs(engine_bin: Path, tmp_path: Path) -> None:
    done = run([], tmp_path, engine_bin)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Black wins: 0-1" in done.stdout and "after a cancelled play:" in done.stdout


def test_a_python_chess_style_script_passes_mypy_strict(engine_bin: Path, tmp_path: Path) -> None:
    done = run(["-m", "mypy", "--strict", "--no-incremental"], tmp_path, engine_bin)
    assert done.returncode == 0, done.stdout + done.stderr
