"""boardgames.Position: the rules of the Rust core, checked against the engine's protocol."""

from __future__ import annotations

import random

import pytest

from boardgames import Outcome, Position

from conftest import SIZES, Pipe


@pytest.mark.parametrize("game", ["oska", "hexapawn", "ctf"])
def test_legal_moves_equal_the_engines_legal_along_random_games(pipe: Pipe, game: str) -> None:
    rng = random.Random(38)
    plies = 0
    for size in SIZES[game]:
        for _ in range(6):
            pos = Position.start(game, size)
            pipe.ask(f"newgame {game} {size}")
            while True:
                reply = pipe.ask(pos.command(), "legal", "show")
                assert reply[0].split()[1:] == pos.legal_moves, (pos.command(), reply)
                result = reply[2]
                outcome = pos.outcome()
                if outcome is None:
                    assert result == "result none"
                else:
                    assert result == "result " + outcome.protocol()
                    assert pos.legal_moves == []
                    break
                assert reply[1].split()[1:4] == [game, str(size), pos.board()]
                assert reply[1].split()[4] == pos.side
                pos.push(rng.choice(pos.legal_moves))
                plies += 1
                if len(pos.moves) > 150:
                    break
    assert plies > 100


def test_from_board_reads_every_seed_format() -> None:
    oska = Position.start("oska", 4)
    oska.push("a1a2")
    slash = oska.board()
    assert slash == "-www/w--/--/---/bbbb"
    for text in [
        slash,
        "['-www', 'w--', '--', '---', 'bbbb']",
        "['-www','w--','--','---','bbbb']",
        '["-www","w--","--","---","bbbb"]',
        "((nil w w w)(w nil nil)(nil nil)(nil nil nil)(b b b b))",
        "'((nil w w w)(w nil nil)(nil nil)(nil nil nil)(b b b b))",
        "-wwww-------bbbb",
        ["-www", "w--", "--", "---", "bbbb"],
        ("-www", "w--", "--", "---", "bbbb"),
    ]:
        pos = Position.from_board("oska", text, "b")
        assert pos.board() == slash, text
        assert pos.side == "b"
        assert pos.legal_moves == oska.legal_moves
    for fmt in ["slash", "python", "haskell", "lisp", "flat"]:
        assert Position.from_board("oska", oska.board(fmt), "b").board() == slash


def test_a_ctf_history_keeps_the_no_repetition_rule() -> None:
    pos = Position.start("ctf", 5)
    for m in ["c2c3", "c4c2"]:
        pos.push(m)
    history = pos.board("history")
    assert history.startswith("['") and history.count(",") == 2
    again = Position.from_board("ctf", history, "w")
    assert again.board() == pos.board() and again.legal_moves == pos.legal_moves
    assert again.command().startswith("position board " + pos.board() + " w history ")
    as_list = Position.from_board("ctf", eval(history), "w")  # the seed's Python list
    assert as_list.command() == again.command()
    # A move back to an earlier board is not legal: the line remembers the boards.
    flags = Position.start("ctf", 4)
    for m in ["b1b2", "b4b3", "b2b1"]:
        flags.push(m)
    assert "b3b4" not in flags.legal_moves and "b3a3" in flags.legal_moves
    with pytest.raises(ValueError, match="b3b4"):
        flags.push("b3b4")
    flat = Position.from_board("ctf", "-wWw--www-------bbb--bBb-", "w")
    assert flat.board() == "-wWw-/-www-/-----/-bbb-/-bBb-"


def test_push_pop_and_outcome() -> None:
    pos = Position.start("hexapawn", 3)
    assert pos.outcome() is None
    for m in ["b1b2", "a3b2", "c1b2"]:
        pos.push(m)
    assert pos.moves == ["b1b2", "a3b2", "c1b2"]
    assert pos.side == "b"
    assert pos.pop() == "c1b2"
    assert pos.moves == ["b1b2", "a3b2"] and pos.side == "w"
    assert pos.command() == "position startpos moves b1b2 a3b2"
    won = Position.from_board("hexapawn", "---/-b-/w--", "b")
    outcome = won.outcome()
    assert isinstance(outcome, Outcome)
    assert (outcome.winner, outcome.termination, outcome.result()) == (True, "far-row", "1-0")
    assert outcome.protocol() == "white far-row" and won.result() == "1-0" and won.is_game_over()
    assert won.legal_moves == []
    with pytest.raises(ValueError, match="the game is over"):
        won.push("b2b3")
    with pytest.raises(IndexError):
        Position.start("oska", 4).pop()
    stuck = Position.from_board("oska", "----/---/--/w--/bb--", "w")
    assert stuck.legal_moves == ["pass"]
    stuck.push("pass")
    assert stuck.side == "b" and stuck.moves == ["pass"]


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: Position.start("chess", 8), "unknown game 'chess'"),
        (lambda: Position.start("oska", 12), "oska size 12 is not supported"),
        (lambda: Position.start("oska", -1), "oska size -1 is not supported"),
        (lambda: Position.start("ctf", 2**70), "out of range"),
        (lambda: Position.from_board("oska", "www/--", "w"), "2 rows"),
        (lambda: Position.from_board("hexapawn", "www/---/bbb", "x"), "side must be 'w' or 'b'"),
        (lambda: Position.from_board("ctf", "-wWw--www-----bbb--bBb-", "w"), "23 is not a square"),
        (lambda: Position.from_board("ctf", "((w W w)(nil nil nil)(b B b))", "w"), "Lisp format"),
        (lambda: Position.from_board("hexapawn", ["www", "-'-", "bbb"], "w"), "not a row"),
        (lambda: Position.from_board("hexapawn", 42, "w"), "not int"),
        (lambda: Position.start("hexapawn", 3).push("a1a3"), "a1a3 is not a legal move"),
        (lambda: Position.start("hexapawn", 3).push("zz"), "zz"),
        (lambda: Position.start("hexapawn", 3).board("xml"), "unknown board format"),
        (lambda: Position.start("oska", 4).board("history"), "Capture the Flag"),
    ],
)
def test_bad_input_is_a_value_error(make, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make()


def test_a_size_of_another_type_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="the size must be an int, not str"):
        Position.start("oska", "4")  # type: ignore[arg-type]
