"""The Python examples of docs/scripting.md run as written (each ```python block alone, with the
engine under test first on PATH), and print what the page says they print."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

PAGE = REPO / "docs" / "scripting.md"


def blocks() -> list:
    return re.findall(r"^```python\n(.*?)^```$", PAGE.read_text(), flags=re.S | re.M)


def test_the_page_has_its_examples() -> None:
    found = blocks()
    assert len(found) >= 8
    assert any("multipv=3" in b and 'Position.start("ctf"' in b for b in found)


# For each example (found by a line of it): lines its output must contain.
EXPECTED = {
    'pos = Position.start("hexapawn", 3)': [
        "['a1a2', 'b1b2', 'c1c2']",
        "w--/-w-/-bb b ['b1b2', 'a3b2', 'c1b2']",
        "['w--', '-w-', '-bb']",
        "white wins: all the winner's remaining pieces stand on the opponent's home row",
        "True all-home 1-0",
        "['a1a2', 'b1b2', 'c1c2'] True",
        "\nw - -\n- w -\n- b b\n",
        "-wWw-/-w-w-/--w--/-bbb-/-bBb- position board -wWw-/-w-w-/--w--/-bbb-/-bBb- b history -wWw-/-www-/-----/-bbb-/-bBb-",
        "c2c3 is not a legal move here",
    ],
    'start = ["wwww"': [
        "['-www', 'w--', '--', '---', 'bbbb']",
        "['www-', '--w', '--', '---', 'bbbb']",
        "['-ww', 'w--', 'bbb']",
        "w-Ww--www-------bbb--bBb-",
    ],
    "multipv=3": ["plies: ", "\n1 ", "\n2 ", "\n3 "],
    "engine.configure({\"Hash\": 0})": ["bad-value the engine refused 'setoption name Hash value 0'"],
    "asyncio.run(main())": ["cancelled\n", "cp "],
    "tablebase.probe(start, tables)": ["loss 6", "win 11", "\n1 11 {'"],
    "seen = {a:": ["True found True"],
    'evaluator=name': ["\ntuned ['", "\nmaterial ['", "\nclassic-race ['"],
}


@pytest.mark.parametrize("number", range(len(blocks())))
def test_each_python_example_runs(engine_bin: Path, tmp_path: Path, number: int) -> None:
    code = blocks()[number]
    env = dict(os.environ, PATH=f"{engine_bin.parent}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("TABLEBASE_PATH", None)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip(), "the example printed nothing"
    checked = [k for k in EXPECTED if k in code]
    for key in checked:
        for want in EXPECTED[key]:
            assert want in "\n" + done.stdout, (want, done.stdout)
    if "evaluator=name" in code:
        # The evaluators do not all choose alike here (cli.md's example of --eval).
        assert len({line.split(" ", 1)[1] for line in done.stdout.splitlines()}) > 1, done.stdout
    if "multipv=3" in code:
        plies = int(done.stdout.split(" plies:")[0].split()[-1])
        assert plies > 4
        assert len([line for line in done.stdout.splitlines() if line[:2] in ("1 ", "2 ", "3 ")]) == 3


@pytest.mark.parametrize("number", range(len(blocks())))
def test_each_python_example_passes_mypy_strict(tmp_path: Path, number: int) -> None:
    script = tmp_path / "example.py"
    script.write_text(blocks()[number])
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(script)],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
