"""boardgames.seeds against the engine's one-shot commands: `engine movegen` and `engine best`
give the same answers on 1 000 random positions of each game."""

from __future__ import annotations

import ast
import os
import random
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from boardgames import GameOverError, Position, seeds

from conftest import random_positions

COUNT = 1000


def seed_board(pos: Position) -> list:
    """The board as the seed passes it: rows, or Capture the Flag's history."""
    return ast.literal_eval(pos.board("history" if pos.game == "ctf" else "python"))


def run(engine: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "TABLEBASE_PATH"}
    return subprocess.run([str(engine), *args], capture_output=True, text=True, cwd=cwd, env=env)


@pytest.mark.parametrize("game", ["oska", "hexapawn", "ctf"])
def test_seeds_answer_as_engine_movegen_and_best(engine_bin: Path, tmp_path: Path, game: str) -> None:
    rng = random.Random(f"seeds-{game}")
    positions = random_positions(game, COUNT, seed=len(game))
    cases = []
    for pos in positions:
        board = seed_board(pos)
        text = "[" + ", ".join(f"'{b}'" for b in board) + "]"
        cases.append((pos, board, text, rng.randint(1, 3)))

    def engine_answers(case):
        pos, _, text, depth = case
        movegen = run(engine_bin, tmp_path, "movegen", game, text, pos.side)
        best = run(engine_bin, tmp_path, "best", game, text, pos.side, str(depth))
        return movegen, best

    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(engine_answers, cases))

    finished = 0
    for (pos, board, text, depth), (movegen, best) in zip(cases, answers):
        assert movegen.returncode == 0, movegen.stderr
        expected = [ast.literal_eval(line) for line in movegen.stdout.splitlines()]
        assert seeds.movegen(board, pos.side, game=game) == expected, text
        assert seeds.movegen(text, pos.side, game=game) == movegen.stdout.splitlines()
        if best.returncode == 3:
            finished += 1
            assert pos.outcome() is not None
            with pytest.raises(GameOverError, match="the game is over"):
                seeds.best(game, board, pos.side, depth)
            continue
        assert best.returncode == 0, best.stderr
        want = ast.literal_eval(best.stdout.splitlines()[-1])
        if game == "oska":
            got = seeds.oskaplayer(board, pos.side, depth)
        elif game == "hexapawn":
            got = seeds.hexapawn(board, pos.size, pos.side, depth)
        else:
            got = seeds.capture(board, pos.side, depth)
        assert got == want, (text, pos.side, depth)
    assert finished < COUNT // 2


def test_seed_calls_as_the_assignments_write_them() -> None:
    assert seeds.oskaplayer(["wwww", "---", "--", "---", "bbbb"], "w", 2) in seeds.movegen(
        ["wwww", "---", "--", "---", "bbbb"], "w"
    )
    assert seeds.hexapawn(["www", "---", "bbb"], 3, "w", 2) in seeds.movegen(["www", "---", "bbb"], "w", game="hexapawn")
    answer = seeds.capture(["-wWw--www-------bbb--bBb-"], "w", 2)
    assert isinstance(answer, str) and len(answer) == 25
    # A string in any format is answered in that format, as `engine best` prints it.
    assert seeds.oskaplayer("((w w w w)(nil nil nil)(nil nil)(nil nil nil)(b b b b))", "w", 2).startswith("((")
    # Oska's forced pass: no board from movegen, the board unchanged from the player.
    stuck = ["----", "---", "--", "w--", "bb--"]
    assert seeds.movegen(stuck, "w") == []
    assert seeds.oskaplayer(stuck, "w", 2) == stuck


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: seeds.oskaplayer(["wwww", "---", "--", "---", "bbbb"], "x", 2), "side must be"),
        (lambda: seeds.oskaplayer(["wwww", "---", "--", "---", "bbbb"], "w", 0), "depth must be 1 to 100"),
        (lambda: seeds.oskaplayer(["wwww", "---", "--", "---", "bbbb"], "w", "2"), "whole number"),
        (lambda: seeds.hexapawn(["www", "---", "bbb"], 4, "w", 2), "does not agree"),
        (lambda: seeds.hexapawn(["www", "---", "bbb"], -3, "w", 2), "does not agree"),
        (lambda: seeds.oskaplayer(["wwww", "---", "--", "---", "bbbb"], "w", 2**80), "out of range"),
        (lambda: seeds.capture(["-wWw--www-----bbb--bBb-"], "w", 2), "23"),
        (lambda: seeds.movegen(["wwww", "---"], "w"), "rows"),
        (lambda: seeds.movegen(None, "w"), "list of strings"),
        (lambda: seeds.oskaplayer(["----", "---", "--", "---", "ww-b"], "b", 2), "the game is over"),
    ],
)
def test_bad_seed_input_is_a_value_error(call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


EVALUATORS = ["tuned", "legacy", "material", "classic-advance", "classic-race"]


@pytest.mark.parametrize("game", ["oska", "hexapawn", "ctf"])
def test_players_take_the_evaluator_of_engine_best_eval(engine_bin: Path, tmp_path: Path, game: str) -> None:
    """Each evaluator name of `engine best --eval`, through every player of the game, answers as
    the command does; and the evaluators do not all answer alike."""
    positions = [p for p in random_positions(game, 60, seed=50 + len(game)) if not p.is_game_over()][:12]
    differ = 0
    for pos in positions:
        board = seed_board(pos)
        text = "[" + ", ".join(f"'{b}'" for b in board) + "]"
        answers = set()
        for name in EVALUATORS:
            done = run(engine_bin, tmp_path, "best", game, text, pos.side, "2", "--eval", name)
            assert done.returncode == 0, done.stderr
            want = ast.literal_eval(done.stdout.strip())
            got = seeds.best(game, board, pos.side, 2, evaluator=name)
            assert got == want, (name, text)
            if game == "oska":
                assert seeds.oskaplayer(board, pos.side, 2, evaluator=name) == want
            elif game == "hexapawn":
                assert seeds.hexapawn(board, pos.size, pos.side, 2, evaluator=name) == want
            else:
                assert seeds.capture(board, pos.side, 2, evaluator=name) == want
            answers.add(str(want))
        differ += len(answers) > 1
    assert differ > 0
    with pytest.raises(ValueError, match="unknown evaluator 'best'.*classic-race"):
        seeds.best(game, seed_board(positions[0]), positions[0].side, 1, evaluator="best")
