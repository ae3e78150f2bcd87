"""Positions as values, in python-chess's shape: equality and hashing by what decides the game
(game, size, board, side to move, and Capture the Flag's earlier boards), pickle, deepcopy,
``turn``, ``legal_moves`` as a property, ``push_uci``/``peek``/``is_legal``/``result``, ``str()``
in rows, and the hint of ``Position(...)``."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from boardgames import BLACK, WHITE, Position

from conftest import random_positions

# For each game: two move orders from the start that reach the same board and side to move.
TRANSPOSITIONS = {
    "oska": (4, ["a1a2", "a5a4", "b1b2"], ["b1b2", "a5a4", "a1a2"]),
    "hexapawn": (4, ["a1a2", "a4a3", "b1b2"], ["b1b2", "a4a3", "a1a2"]),
    "ctf": (5, ["b1a1", "b4b3", "d1e1"], ["d1e1", "b4b3", "b1a1"]),
}


def line(game: str, size: int, moves: list) -> Position:
    pos = Position.start(game, size)
    for m in moves:
        pos.push(m)
    return pos


@pytest.mark.parametrize("game", ["oska", "hexapawn", "ctf"])
def test_transpositions_are_equal_where_the_rules_say_so(game: str) -> None:
    size, first, second = TRANSPOSITIONS[game]
    a, b = line(game, size, first), line(game, size, second)
    assert a.board() == b.board() and a.turn == b.turn and a.move_stack != b.move_stack
    if game == "ctf":
        # The boards met on the way differ, and the no-repeat rule forbids different boards.
        assert a != b
        back = line(game, size, first)
        assert back == a and hash(back) == hash(a) and {a: 1}[back] == 1
    else:
        assert a == b and hash(a) == hash(b) and {a: 1}[b] == 1 and len({a, b}) == 1
    assert {Position.start(game, size): 1}[Position.start(game, size)] == 1
    # The side to move, the size and the game count.
    c = a.copy()
    c.pop()
    assert c != a
    assert Position.start(game, size) != Position.start(game, size + 1)
    assert a != a.board() and (a == "x") is False


def test_ctf_equality_counts_the_earlier_boards_not_their_order() -> None:
    start = Position.start("ctf", 5)
    given = Position.from_board("ctf", start.board(), "w")
    assert given == start and hash(given) == hash(start)
    # The same current board reached with and without a history: not equal.
    pos = line("ctf", 5, ["c2c3", "c4c2"])
    bare = Position.from_board("ctf", pos.board(), pos.side)
    assert bare.board() == pos.board() and bare != pos
    assert Position.from_board("ctf", pos.board("history"), pos.side) == pos


@pytest.mark.parametrize("game", ["oska", "hexapawn", "ctf"])
def test_pickle_and_deepcopy_keep_the_position_and_its_line(game: str) -> None:
    positions = random_positions(game, 30, seed=11)
    positions.append(Position.from_board("ctf", ["-wWw--w-w---w---bbb--bBb-", "-wWw--www-------bbb--bBb-"], "b"))
    positions.append(Position.from_board("hexapawn", ["www", "---", "bbb"], "b"))
    for pos in positions:
        for again in (pickle.loads(pickle.dumps(pos)), copy.deepcopy(pos), copy.copy(pos)):
            assert again == pos and hash(again) == hash(pos)
            assert again.move_stack == pos.move_stack and again.command() == pos.command()
            assert again.legal_moves == pos.legal_moves and again is not pos
            if again.legal_moves:
                again.push(again.legal_moves[0])
                assert again != pos or game != "ctf"
    holder = {"line": [Position.start("oska", 4)]}
    deep = copy.deepcopy(holder)
    deep["line"][0].push("a1a2")
    assert holder["line"][0] == Position.start("oska", 4)


@pytest.mark.parametrize("game", ["oska", "hexapawn", "ctf"])
def test_python_chess_names(game: str) -> None:
    rng = random.Random(5)
    pos = Position.start(game, 5)
    assert pos.turn is WHITE and pos.result() == "*" and not pos.is_game_over()
    while not pos.is_game_over():
        moves = pos.legal_moves
        assert len(moves) == len(list(moves)) > 0 and all(m in moves and pos.is_legal(m) for m in moves)
        assert not pos.is_legal("a9a9") and not pos.is_legal("nonsense")
        turn = pos.turn
        played = pos.push_uci(rng.choice(moves))
        assert pos.peek() == played == pos.move_stack[-1] and pos.turn is (not turn)
    outcome = pos.outcome()
    assert outcome is not None and pos.legal_moves == []
    want = {True: "1-0", False: "0-1", None: "1/2-1/2"}[outcome.winner]
    assert pos.result() == outcome.result() == want
    assert outcome.protocol().split()[0] == {True: "white", False: "black", None: "draw"}[outcome.winner]
    assert outcome.termination == outcome.reason and repr(outcome).startswith("Outcome(winner=")
    assert pos.turn is (pos.side == "w") and (BLACK is False)
    with pytest.raises(IndexError):
        Position.start(game, 5).peek()
    again = pickle.loads(pickle.dumps(outcome))
    assert again == outcome and str(again) == str(outcome) and again.winner is outcome.winner


def test_str_draws_rows_and_repr_is_one_line() -> None:
    assert str(Position.start("hexapawn", 3)) == "w w w\n- - -\nb b b"
    assert str(Position.start("oska", 4)) == "w w w w\n - - -\n  - -\n - - -\nb b b b"
    assert str(Position.start("ctf", 3)) == "w W w\n- - -\nb B b"
    pos = line("oska", 4, ["a1a2"])
    assert "\n" not in repr(pos) and repr(pos) == "Position('oska', 4, '-www/w--/--/---/bbbb', 'b', moves=['a1a2'])"


def test_position_called_gives_a_hint_and_errors_name_the_move() -> None:
    with pytest.raises(TypeError, match=r"Position.start\(game, size\).*Position.from_board"):
        Position("oska", 4)
    with pytest.raises(TypeError) as e:
        Position.start("oska", 4).push()
    assert "r#" not in str(e.value) and "move_" in str(e.value)
