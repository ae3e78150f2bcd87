"""boardgames.solve and boardgames.tablebase against `engine solve` and `engine tablebase`."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from boardgames import PovScore, Position, Score, solve, tablebase

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


# Finished games of each game, with the side to move and the value it must get.
FINISHED = [
    ("hexapawn", "---/-b-/w--", "b", Score("loss", 0)),  # White reached the far row
    ("oska", "----/---/--/---/ww-b", "b", Score("loss", 0)),  # White's pieces are all home
    ("ctf", "-----/-----/--w--/-----/-bWb-", "b", Score("loss", 0)),  # White's flag got through
]


@pytest.mark.parametrize("game,board,side,value", FINISHED)
def test_a_finished_game_gets_its_value(game: str, board: str, side: str, value: Score, tables: Path) -> None:
    pos = Position.from_board(game, board, side)
    assert pos.is_game_over()
    assert solve(pos) == value and solve(pos, hash_mib=1) == value
    if game != "ctf":
        with tablebase.open_tablebase(tables) as tb:
            assert tb.probe(pos) == value and tb.probe_wdl(pos) == -1 and tb.probe_dtm(pos) == 0


def test_solve_keeps_its_table_and_stays_exact(engine_bin: Path, tables: Path, tmp_path: Path) -> None:
    """Solved one after another in one process (the kept searcher), then each with a fresh one
    (another table size each time): the same values, and the tables' values."""
    positions = [p for p in random_positions("hexapawn", 300, seed=21) if p.size == 4 and not p.is_game_over()]
    assert len(positions) > 40
    with tablebase.open_tablebase(tables) as tb:
        for i, pos in enumerate(positions):
            assert solve(pos) == tb.probe(pos), pos
            assert solve(pos, hash_mib=2 + i % 2) == tb.probe(pos), pos
    # Several sizes and games one after another in the same process.
    for pos in random_positions("oska", 30, seed=3):
        if pos.size == 4 and not pos.is_game_over():
            want = engine(engine_bin, tmp_path, "solve", "oska", pos.board(), pos.side).splitlines()[-1]
            assert str(solve(pos)) == want
            assert str(solve(Position.start("hexapawn", 3))) == "loss 6"


def test_an_open_tablebase_answers_as_probe_does(engine_bin: Path, tables: Path, tmp_path: Path) -> None:
    oska = tmp_path / "oska"
    engine(engine_bin, tmp_path, "tablebase", "build", "oska", "4", "--dir", str(oska))
    for directory, game in [(tables, "hexapawn"), (oska, "oska")]:
        positions = [p for p in random_positions(game, 200, seed=8) if p.size == 4 and not p.is_game_over()]
        assert len(positions) > 20
        with tablebase.open_tablebase(directory) as tb:
            for pos in positions:
                value = tablebase.probe(pos, directory)
                assert value is not None
                assert tb.probe(pos) == tb.get(pos) == value
                assert tb.probe_wdl(pos) == tb.get_wdl(pos) == {"win": 1, "draw": 0, "loss": -1}[value.kind]
                assert tb.probe_dtm(pos) == tb.get_dtm(pos) == {"win": 1, "draw": 0, "loss": -1}[value.kind] * value.value
                assert tb.probe_moves(pos) == tablebase.probe_moves(pos, directory)
            other_size = Position.start(game, 5)
            assert tb.get(other_size) is None and tb.get_wdl(other_size) is None and tb.get_dtm(other_size) is None
            for probe in (tb.probe, tb.probe_wdl, tb.probe_dtm):
                with pytest.raises(KeyError):
                    probe(other_size)
            assert tb.probe_moves(other_size) is None
            with pytest.raises(ValueError, match="Capture the Flag"):
                tb.probe_wdl(Position.start("ctf", 5))
        with pytest.raises(ValueError, match="closed"):
            tb.probe_wdl(positions[0])
    with pytest.raises(ValueError, match="not a directory"):
        tablebase.open_tablebase(tmp_path / "missing")


def test_pov_scores() -> None:
    white_to_move = PovScore(Score("win", 3), True)
    assert white_to_move.white() == Score("win", 3) and white_to_move.black() == Score("loss", 3)
    black_to_move = PovScore(Score("win", 3), False)
    assert black_to_move.white() == Score("loss", 3) and black_to_move.pov(False) == Score("win", 3)
    assert PovScore(Score("loss", 3), True) == black_to_move and white_to_move != black_to_move
    assert str(black_to_move) == "win 3" and -black_to_move == PovScore(Score("loss", 3), False)
    assert Score("win", 3).mate() == 3 and Score("loss", 4).mate() == -4 and Score("cp", 5).mate() is None
    assert Score("win", 3).is_mate() and not Score("draw").is_mate() and not Score("cp", 1).is_mate()
    assert Score("win", 3).score() is None and Score("win", 3).score(mate_score=1000) == 997
    assert Score("loss", 4).score(mate_score=1000) == -996 and Score("cp", -7).score() == -7
    assert Score("draw").score() == 0


def test_the_bulk_benchmark_runs(engine_bin: Path) -> None:
    """python/bench/bulk.py (docs/performance.md's figures), on a few positions: every row
    measured, for both games."""
    import sys

    bench = Path(__file__).resolve().parents[1] / "bench" / "bulk.py"
    done = subprocess.run(
        [sys.executable, str(bench), "--engine", str(engine_bin), "--positions", "60", "--seconds", "0.2"],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ") and "/s" in line]
    assert len(rows) == 6 and all(float(r.split("|")[2].replace(",", "")) > 0 for r in rows), done.stdout
