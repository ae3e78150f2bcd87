"""boardgames.solve and boardgames.tablebase against `engine solve` and `engine tablebase`."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from boardgames import Position, Score, solve, tablebase

from conftest import random_positions


def engine(engine_bin: Path, cwd: Path, *args: str) -> str:
    done = subprocess.run([str(engine_bin), *args], capture_output=True, text=True, cwd=cwd, env={"PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def tables(engine_bin: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("tables")
    engine(engine_bin, directory, "tablebase", "build", "hexapawn", "4", "--dir", str(directory))
    return directory


def test_solve_equals_engine_solve(engine_bin: Path, tmp_path: Path) -> None:
    checked = 0
    # Sizes the debug build solves in well under a second.
    for game, count, largest in [("hexapawn", 60, 4), ("oska", 40, 4)]:
        for pos in random_positions(game, count, seed=7):
            if pos.outcome() is not None or pos.size > largest:
                continue
            want = engine(engine_bin, tmp_path, "solve", game, pos.board(), pos.side).splitlines()[-1]
            assert str(solve(pos)) == want, pos
            checked += 1
    assert checked >= 20
    assert solve(Position.start("hexapawn", 3)) == Score("loss", 6)
    assert solve(Position.start("ctf", 3)) == Score.parse(
        engine(engine_bin, tmp_path, "solve", "ctf", "wWw/---/bBb", "w").splitlines()[-1]
    )
    with pytest.raises(ValueError, match="the game is over"):
        solve(Position.from_board("hexapawn", "---/-b-/w--", "b"))
    for bad in [0, 5000, -1, 2**80]:
        with pytest.raises(ValueError, match="hash_mib"):
            solve(Position.start("hexapawn", 3), hash_mib=bad)
    with pytest.raises(ValueError, match="not a directory"):
        solve(Position.start("hexapawn", 3), tablebase=tmp_path / "missing")


def test_probe_equals_engine_tablebase_probe(engine_bin: Path, tables: Path, tmp_path: Path) -> None:
    positions = [p for p in random_positions("hexapawn", 200, seed=4) if p.size == 4]
    assert len(positions) > 20
    for pos in positions:
        if pos.outcome() is not None:
            continue
        lines = engine(engine_bin, tmp_path, "tablebase", "probe", "hexapawn", pos.board(), pos.side, "--dir", str(tables)).splitlines()
        value = tablebase.probe(pos, tables)
        assert str(value) == lines[-1]
        moves = tablebase.probe_moves(pos, tables)
        assert moves is not None
        assert [f"{m} {s}" for m, s in moves.items()] == lines[:-1]
        assert solve(pos, tablebase=tables) == value


def test_probe_outside_the_tables(engine_bin: Path, tmp_path: Path, tables: Path) -> None:
    small = tmp_path / "small"
    engine(engine_bin, tmp_path, "tablebase", "build", "hexapawn", "4", "--max-pieces", "2", "--dir", str(small))
    assert tablebase.probe(Position.start("hexapawn", 4), small) is None
    assert tablebase.probe(Position.start("hexapawn", 5), tables) is None
    with pytest.raises(ValueError, match="not a directory"):
        tablebase.probe(Position.start("hexapawn", 4), tmp_path / "missing")
    with pytest.raises(ValueError, match="Capture the Flag has no tablebases"):
        tablebase.probe(Position.start("ctf", 5), tables)
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / "hexapawn-4-w1b1.tb").write_bytes(b"not a table")
    with pytest.raises(ValueError, match="hexapawn-4-w1b1.tb"):
        tablebase.probe(Position.start("hexapawn", 4), damaged)


def test_scores() -> None:
    assert [str(Score.parse(t)) for t in ["cp -5", "win 3", "loss 0", "draw"]] == ["cp -5", "win 3", "loss 0", "draw"]
    ranked = sorted([Score("win", 5), Score("loss", 2), Score("cp", 30), Score("draw"), Score("win", 1), Score("loss", 8), Score("cp", -40)])
    assert ranked == [Score("loss", 2), Score("loss", 8), Score("cp", -40), Score("draw"), Score("cp", 30), Score("win", 5), Score("win", 1)]
    assert -Score("win", 3) == Score("loss", 3) and Score("win", 3).plies == 3 and Score("cp", 7).cp == 7
    for bad in ["", "win", "win -1", "cp x", "mate 3"]:
        with pytest.raises(ValueError):
            Score.parse(bad)
