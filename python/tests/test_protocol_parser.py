"""One parser: the client reads the engine's lines with the core's protocol parser
(``_native.parse_reply``, engine/src/protocol). Every engine line of protocol.md's example
sessions (and of its other examples) is read by it, and the client's ``parse_info`` gives each
``info`` line's values as the line spells them."""

from __future__ import annotations

import re

import pytest

from boardgames import WHITE, _native
from boardgames.engine import EngineError, parse_info

from conftest import REPO

PAGE = (REPO / "protocol.md").read_text()


def engine_lines(text: str) -> list:
    """The `< ` lines of the code blocks of `text`: what the engine writes."""
    lines = []
    for block in re.findall(r"^```\n(.*?)^```$", text, flags=re.S | re.M):
        lines += [line[2:] for line in block.splitlines() if line.startswith("< ")]
    return lines


def test_every_engine_line_of_the_example_sessions_is_read() -> None:
    sessions = PAGE.split("## Example sessions", 1)[1]
    lines = engine_lines(sessions)
    assert len(lines) > 60
    kinds = set()
    for line in lines:
        kind, fields = _native.parse_reply(line)
        assert kind == line.split()[0], line
        kinds.add(kind)
        if kind == "info":
            info = parse_info(line.split()[1:])
            words = line.split()
            for key in ("depth", "nodes", "nps", "multipv", "tbhits"):
                if key in words and "depth" in info:
                    assert info[key] == int(words[words.index(key) + 1]), line  # type: ignore[literal-required]
            if "score" in words:
                at = words.index("score")
                spelled = "draw" if words[at + 1] == "draw" else " ".join(words[at + 1: at + 3])
                assert str(info["score"].relative) == spelled and info["score"].turn == WHITE
            if "pv" in words:
                assert info["pv"] == words[words.index("pv") + 1:]
            if "time" in words:
                assert info["time"] == int(words[words.index("time") + 1]) / 1000
    assert {"id", "game", "option", "uciok", "readyok", "info", "bestmove", "result", "board", "legal"} <= kinds


def test_the_other_engine_lines_of_the_page_are_read_or_refused_as_the_core_says() -> None:
    lines = engine_lines(PAGE.split("## Example sessions", 1)[0])
    assert len(lines) > 10
    for line in lines:
        try:
            kind, _ = _native.parse_reply(line)
        except ValueError as e:
            # What the core refuses, the client refuses too (an info line), with its code.
            assert str(e).split()[0] in ("syntax", "bad-value", "unknown-command"), (line, e)
            if line.startswith("info depth"):
                with pytest.raises(EngineError, match="malformed"):
                    parse_info(line.split()[1:])
        else:
            assert kind == line.split()[0]


@pytest.mark.parametrize(
    "line",
    [
        "info depth 3 score cp 10 nodes 5 nps 1 time 0",  # no pv
        "info depth 3 score mate 2 nodes 5 nps 1 time 0 pv a1a2",  # not a score of the protocol
        "info depth 3 nodes 5 score cp 1 nps 1 time 0 pv a1a2",  # out of order
        "info depth 3 multipv 0 score cp 1 nodes 5 nps 1 time 0 pv a1a2",
    ],
)
def test_the_client_refuses_what_the_core_refuses(line: str) -> None:
    with pytest.raises(ValueError):
        _native.parse_reply(line)
    with pytest.raises(EngineError, match="malformed"):
        parse_info(line.split()[1:])
