"""boardgames.engine against our engine, against an independent Capture-the-Flag-only engine
written in Python (engine/tests/protocol/ctf_engine.py, which shares no code with the toolkit),
and against engines that crash or hang."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path
from typing import List

import pytest

from boardgames import BLACK, WHITE, PovScore, Position, Score
from boardgames.engine import (
    AnalysisComplete,
    EngineError,
    EngineProtocol,
    EngineTerminatedError,
    Limit,
    SimpleEngine,
    TimeoutError as EngineTimeout,
    parse_info,
    popen,
)

from conftest import CTF_ENGINE

HERE = Path(__file__).resolve().parent


def recording(engine_bin: Path, log: Path) -> List[str]:
    """A command that runs our engine behind a proxy writing every line it is sent to `log`."""
    proxy = (
        "import subprocess, sys, threading\n"
        "e = subprocess.Popen([sys.argv[1]], stdin=subprocess.PIPE, bufsize=0)\n"
        "log = open(sys.argv[2], 'a', buffering=1)\n"
        "for line in sys.stdin:\n"
        "    log.write(line)\n"
        "    e.stdin.write(line.encode())\n"
        "e.stdin.close(); e.wait()\n"
    )
    return [sys.executable, "-c", proxy, str(engine_bin), str(log)]


def test_play_analyse_and_newgame_only_when_the_game_changes(engine_bin: Path, tmp_path: Path) -> None:
    log = tmp_path / "sent.txt"
    with SimpleEngine.popen(recording(engine_bin, log)) as engine:
        assert engine.id["name"].startswith("boardgames-engine")
        assert engine.games == {"oska": (4, 11), "hexapawn": (3, 11), "ctf": (3, 11)}
        pos = Position.start("oska", 4)
        for _ in range(4):
            result = engine.play(pos, Limit(depth=3))
            assert result.move in pos.legal_moves
            assert result.info["depth"] == 3 and isinstance(result.info["score"].relative, Score)
            assert result.info["pv"][0] == result.move
            pos.push(result.move)
        hexa = Position.start("hexapawn", 3)
        lines = engine.analyse(hexa, Limit(depth=7), multipv=3)
        assert [line["multipv"] for line in lines] == [1, 2, 3]
        assert all(line["score"].relative.is_loss for line in lines)
        assert lines[0]["score"].relative == Score("loss", 6) and lines[0]["score"].white() == Score("loss", 6)
        assert lines[0]["score"].black() == Score("win", 6) and lines[0]["score"].is_mate()
        assert {line["pv"][0] for line in lines} == set(hexa.legal_moves)
        for key in ("score", "pv", "depth", "nodes", "nps", "time"):
            assert key in lines[0]
        single = engine.analyse(hexa, Limit(depth=7))
        assert single["depth"] == 7 and "multipv" not in single and single["score"].relative == Score("loss", 6)
        (one,) = engine.analyse(hexa, Limit(depth=7), multipv=1)
        assert one["multipv"] == 1 and one["pv"] == single["pv"]
        engine.play(Position.start("hexapawn", 3), Limit(nodes=50))
        engine.play(Position.start("hexapawn", 4), Limit(time=0.05))
        over = engine.play(Position.from_board("hexapawn", "---/-b-/w--", "b"), Limit(depth=2))
        assert over.move is None and over.result == "white far-row"
    sent = log.read_text().splitlines()
    assert [line for line in sent if line.startswith("newgame")] == [
        "newgame oska 4",
        "newgame hexapawn 3",
        "newgame hexapawn 4",
        "newgame hexapawn 3",
    ]
    assert "setoption name MultiPV value 3" in sent and "setoption name MultiPV value 1" in sent
    assert "go movetime 50" in sent and sent[-1] == "quit"


def test_configure_refusals_are_engine_errors(engine_bin: Path) -> None:
    with SimpleEngine.popen(str(engine_bin)) as engine:
        engine.configure({"Hash": 32, "Evaluator": "material", "Trace": False, "TablebasePath": None})
        with pytest.raises(EngineError, match="Hash 0 is out of range") as refused:
            engine.configure({"Hash": 0})
        assert refused.value.code == "bad-value"
        engine.configure({"Threads": 2})
        with pytest.raises(EngineError, match="no option 'Ponder'"):
            engine.configure({"Ponder": True})
        with pytest.raises(EngineError, match="refused 'setoption name TablebasePath value /no/such"):
            engine.configure({"TablebasePath": "/no/such/dir"})
        # The engine goes on after a refusal.
        assert engine.play(Position.start("ctf", 5), Limit(depth=2)).move is not None


def test_limits_are_one_go_each(engine_bin: Path) -> None:
    assert Limit(depth=3).go() == "go depth 3"
    assert Limit(time=0.25).go() == "go movetime 250"
    assert (
        Limit(white_clock=60, black_clock=59.5, white_inc=1, black_inc=0.5, remaining_moves=10).go()
        == "go wtime 60000 btime 59500 winc 1000 binc 500 movestogo 10"
    )
    assert Limit().go() == "go infinite"
    for bad in [Limit(depth=3, nodes=5), Limit(depth=0), Limit(white_clock=1), Limit(time=1, white_clock=1, black_clock=1)]:
        with pytest.raises(ValueError):
            bad.go()
    with SimpleEngine.popen(str(engine_bin)) as engine:
        pos = Position.start("ctf", 5)
        r = engine.play(pos, Limit(white_clock=0.5, black_clock=0.5, white_inc=0.01, black_inc=0.01))
        assert r.move in pos.legal_moves
        with pytest.raises(EngineError, match="infinite"):
            engine.play(pos, Limit())


def test_analysis_can_be_stopped(engine_bin: Path) -> None:
    with SimpleEngine.popen(str(engine_bin)) as engine:
        pos = Position.start("ctf", 7)
        started = time.monotonic()
        with engine.analysis(pos) as analysis:
            depths = []
            for info in analysis:
                if "depth" in info:
                    depths.append(info["depth"])
                if len(depths) >= 4:
                    analysis.stop()
            best = analysis.wait()
        assert depths[:4] == [1, 2, 3, 4]
        assert best.move in pos.legal_moves
        assert analysis.info["depth"] >= 4
        assert time.monotonic() - started < 30
        # An analysis left running is stopped by the next call.
        engine.analysis(pos)
        assert engine.play(pos, Limit(depth=1)).move in pos.legal_moves


def test_the_asyncio_api(engine_bin: Path) -> None:
    async def main() -> None:
        engine = await EngineProtocol.popen(str(engine_bin), timeout=5)
        pos = Position.start("hexapawn", 4)
        result = await engine.play(pos, Limit(depth=2))
        assert result.move in pos.legal_moves
        analysis = await engine.analysis(pos, Limit(depth=3))
        seen = [info async for info in analysis]
        assert [i["depth"] for i in seen if "depth" in i][-1] == 3
        with pytest.raises(AnalysisComplete):
            await analysis.get()
        assert (await analysis.wait()).move in pos.legal_moves
        assert await engine.quit() == 0

    asyncio.run(main())


def test_an_independent_python_engine_plays_a_whole_game_against_ours(engine_bin: Path) -> None:
    ctf_only = [sys.executable, str(CTF_ENGINE)]
    with SimpleEngine.popen(ctf_only) as theirs, SimpleEngine.popen(str(engine_bin)) as ours:
        assert theirs.games == {"ctf": (3, 11)} and theirs.options == {}
        with pytest.raises(EngineError, match="does not play oska"):
            theirs.play(Position.start("oska", 4), Limit(depth=1))
        with pytest.raises(EngineError, match="no option 'MultiPV'"):
            theirs.analyse(Position.start("ctf", 5), Limit(depth=1), multipv=2)
        pos = Position.start("ctf", 5)
        players = {"w": theirs, "b": ours}
        while pos.outcome() is None and len(pos.moves) < 400:
            result = players[pos.side].play(pos, Limit(depth=2))
            assert result.move in pos.legal_moves
            pos.push(result.move)
        assert pos.outcome() is not None
        final = theirs.play(pos, Limit(depth=1))
        assert final.move is None and final.result == pos.outcome().protocol()


def test_info_lines_are_parsed() -> None:
    info = parse_info("depth 3 multipv 2 score loss 2 nodes 37 nps 185929 time 12 tbhits 4 pv c3c2 a2b3".split())
    assert info == {
        "depth": 3, "multipv": 2, "score": PovScore(Score("loss", 2), WHITE), "nodes": 37, "nps": 185929,
        "time": 0.012, "tbhits": 4, "pv": ["c3c2", "a2b3"],
    }
    # Seen from Black, the side to move: White wins.
    black = parse_info("depth 3 score loss 2 nodes 37 nps 185929 time 12 pv c3c2".split(), BLACK)
    assert black["score"].relative == Score("loss", 2) and black["score"].white() == Score("win", 2)
    assert black["score"].pov(BLACK) == Score("loss", 2) and black["score"].pov(WHITE) == Score("win", 2)
    progress = parse_info("nodes 20791 nps 482154 time 43 stage wdl root 1/5 bound win 23".split())
    assert progress["root"] == (1, 5) and progress["bound"].relative == Score("win", 23) and progress["stage"] == "wdl"
    assert parse_info("depth 1 score draw nodes 2 nps 1 time 0 pv".split())["score"].relative.is_draw
    assert parse_info("someinfo 1 2".split()) == {"other": "someinfo 1 2"}
    assert parse_info("string hello  world".split()) == {"string": "hello world"}
    with pytest.raises(EngineError, match="malformed"):
        parse_info("depth x score".split())


def gone(pid: int) -> bool:
    """Whether the process has ended (a zombie waiting for its parent counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def wait_gone(pids: List[int]) -> bool:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if all(gone(p) for p in pids):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize(
    "mode, error, message",
    [
        ("crash", EngineTerminatedError, "killed by SIGSEGV; its standard error ends: 'fake engine: about to crash'"),
        ("exit", EngineTerminatedError, "exit status 3"),
        ("hang", EngineTimeout, "did not answer within 1.0 s"),
        ("garbage", EngineError, "malformed info line"),
    ],
)
def test_a_failing_engine_gives_the_documented_error_and_leaves_no_process(
    tmp_path: Path, mode: str, error: type, message: str
) -> None:
    pidfile = tmp_path / "pids"
    command = [sys.executable, str(HERE / "fake_engine.py"), mode, str(pidfile)]
    engine = SimpleEngine.popen(command, timeout=1)
    pids = [int(p) for p in pidfile.read_text().split()]
    assert not any(gone(p) for p in pids)
    started = time.monotonic()
    with pytest.raises(error, match=message):
        engine.play(Position.start("ctf", 5), Limit(depth=3))
    assert time.monotonic() - started < 5
    if mode == "hang":
        assert isinstance(sys.exc_info()[1] or EngineTimeout("x"), TimeoutError)
    engine.quit()
    assert wait_gone(pids), [p for p in pids if not gone(p)]
    if mode != "garbage":
        with pytest.raises(EngineTerminatedError):
            engine.play(Position.start("ctf", 5), Limit(depth=3))


def test_the_timeout_error_is_a_builtin_timeout_error() -> None:
    assert issubclass(EngineTimeout, TimeoutError) and issubclass(EngineTimeout, EngineError)
    assert issubclass(EngineTerminatedError, EngineError)


def test_a_program_that_cannot_start(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="cannot start '/no/such/engine': no such program"):
        SimpleEngine.popen("/no/such/engine")
    with pytest.raises(FileNotFoundError):
        asyncio.run(popen(["/no/such/engine", "--flag"]))
    not_executable = tmp_path / "engine.txt"
    not_executable.write_text("uci\n")
    with pytest.raises(EngineTerminatedError, match="cannot start"):
        SimpleEngine.popen(str(not_executable))


def test_an_engine_that_quits_during_the_handshake(tmp_path: Path) -> None:
    with pytest.raises(EngineTerminatedError, match="exit status 0"):
        SimpleEngine.popen([sys.executable, "-c", "print('id name nothing')"], timeout=2)


def test_board_call_engines_are_engines_too(engine_bin: Path, tmp_path: Path) -> None:
    """A seed-shaped program and a seed function, through `engine board-call`, driven by the
    client against our engine."""
    seed_player = Path(__file__).resolve().parents[2] / "examples" / "seed_player.py"
    program = [str(engine_bin), "board-call", "--format", "python", "--", sys.executable, str(seed_player)]
    function_file = tmp_path / "first.py"
    function_file.write_text(
        "def hexapawn(board, size, side, depth):\n"
        "    # The first straight step found, scanning from the top row.\n"
        "    step = 1 if side == 'w' else -1\n"
        "    for r, row in enumerate(board):\n"
        "        for c, piece in enumerate(row):\n"
        "            if piece == side and 0 <= r + step < size and board[r + step][c] == '-':\n"
        "                rows = [list(x) for x in board]\n"
        "                rows[r][c], rows[r + step][c] = '-', side\n"
        "                return [''.join(x) for x in rows]\n"
        "    return board\n"
    )
    function = [str(engine_bin), "board-call", "--no-sandbox", "--", f"{function_file}:hexapawn"]
    for command in (program, function):
        with SimpleEngine.popen(command, timeout=60) as theirs, SimpleEngine.popen(str(engine_bin)) as ours:
            pos = Position.start("hexapawn", 4)
            players = {"w": theirs, "b": ours}
            while pos.outcome() is None:
                result = players[pos.side].play(pos, Limit(depth=2))
                assert result.move in pos.legal_moves, (command, pos.board(), result)
                pos.push(result.move)
            assert pos.outcome().winner in (True, False)


def test_analysis_keeps_the_last_line_of_each_principal_variation(engine_bin: Path) -> None:
    with SimpleEngine.popen(str(engine_bin), timeout=5) as engine:
        engine.ping()
        engine.configure({"MultiPV": 2})
        pos = Position.start("oska", 4)
        with engine.analysis(pos, Limit(depth=3)) as analysis:
            infos = list(analysis)
        assert [(i["depth"], i["multipv"]) for i in infos if "depth" in i] == [
            (d, k) for d in (1, 2, 3) for k in (1, 2)
        ]
        assert [line["multipv"] for line in analysis.multipv] == [1, 2]
        assert analysis.info == analysis.multipv[0] and analysis.info["depth"] == 3
        assert analysis.wait().move == analysis.info["pv"][0]
        assert engine.timeout == 5


@pytest.mark.parametrize("game,size", [("oska", 8), ("hexapawn", 7), ("ctf", 7)])
def test_a_cancelled_call_leaves_the_engine_ready(engine_bin: Path, tmp_path: Path, game: str, size: int) -> None:
    """A play or analyse cancelled by asyncio.wait_for stops the search; the next call works at
    once, with the MultiPV of before."""
    log = tmp_path / "sent.txt"

    async def main() -> None:
        transport, engine = await popen(recording(engine_bin, log), timeout=5)
        assert transport.get_pid() == engine.pid
        pos = Position.start(game, size)
        for cancelled in (
            engine.play(pos, Limit(time=3)),
            engine.analyse(pos, Limit(time=3), multipv=2),
            engine.analyse(pos, Limit(nodes=10**12)),
        ):
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(cancelled, 0.3)
            started = time.monotonic()
            info = await engine.analyse(pos, Limit(depth=2))
            assert info["depth"] == 2 and "multipv" not in info and info["pv"][0] in pos.legal_moves
            assert time.monotonic() - started < 2
        await engine.quit()

    asyncio.run(main())
    sent = log.read_text().splitlines()
    assert sent.count("stop") == 3
    assert "setoption name MultiPV value 2" in sent and sent.count("setoption name MultiPV value 1") == 1
