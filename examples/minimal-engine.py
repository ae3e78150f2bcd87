#!/usr/bin/env python3
"""The smallest engine: Hexapawn 3 x 3, random moves, written from protocol.md alone.

Run it with `arena check python3 examples/minimal-engine.py`. protocol.md's section
"The smallest engine" walks through it.
"""
import random
import re
import sys

START = ["www", "---", "bbb"]  # row 1 (White's home) first
OTHER = {"w": "b", "b": "w"}
MOVE = re.compile(r"pass|[a-z][1-9][0-9]*[a-z][1-9][0-9]*")
U32, U64 = 2**32 - 1, 2**64 - 1


class Refused(Exception):
    """A line that gets `error CODE MESSAGE` and changes nothing."""


def out(*lines):
    for line in lines:
        sys.stdout.write(line + "\n")
    sys.stdout.flush()


# The rules (docs/rules.md, Hexapawn): White moves down the rows, Black up.


def steps(board, side):
    """Every move of SIDE's pawns as (name, board after), the end of the game not checked."""
    ahead = 1 if side == "w" else -1
    for r, row in enumerate(board):
        for c, piece in enumerate(row):
            if piece != side:
                continue
            for dc, wants in ((0, "-"), (-1, OTHER[side]), (1, OTHER[side])):
                r2, c2 = r + ahead, c + dc
                if 0 <= r2 < 3 and 0 <= c2 < 3 and board[r2][c2] == wants:
                    after = [list(x) for x in board]
                    after[r][c], after[r2][c2] = "-", side
                    name = f"{'abc'[c]}{r + 1}{'abc'[c2]}{r2 + 1}"
                    yield name, ["".join(x) for x in after]


def result(board, side):
    """`white REASON`, `black REASON` or None, in protocol.md's order (Decisions)."""
    for s in (OTHER[side], side):
        if s in board[2 if s == "w" else 0]:
            return f"{'white' if s == 'w' else 'black'} far-row"
        if not any(OTHER[s] in row for row in board):
            return f"{'white' if s == 'w' else 'black'} no-pieces"
    if not any(steps(board, side)):
        return f"{'black' if side == 'w' else 'white'} no-legal-move"
    return None


def legal(board, side):
    return [] if result(board, side) else list(steps(board, side))


def perft(board, side, depth):
    if depth == 0:
        return 1
    return sum(perft(b, OTHER[side], depth - 1) for _, b in legal(board, side))


# Reading words.


def number(word, low, high, what):
    if not word.isdigit():
        raise Refused(f"syntax {what} '{word}' is not a number")
    if not low <= int(word) <= high:
        raise Refused(f"bad-value {what} {word} is out of range {low} to {high}")
    return int(word)


def board_word(word):
    if not re.fullmatch(r"[wbWB/-]+", word):
        raise Refused(f"syntax '{word}' is not a board")
    return word


def check_board(word, where="board"):
    rows = word.split("/")
    if len(rows) != 3:
        raise Refused(f"unsupported {where} '{word}': this engine plays 3 x 3 boards only")
    if any(len(row) != 3 for row in rows):
        raise Refused(f"bad-position {where} '{word}': every row needs 3 squares")
    if "W" in word or "B" in word:
        raise Refused(f"bad-position {where} '{word}': flags are for ctf only")
    if word.count("w") > 3 or word.count("b") > 3:
        raise Refused(f"bad-position {where} '{word}': more than 3 pawns of a side")
    return rows


def play(board, side, name, number):
    if name != "pass" and not re.fullmatch(r"([a-c][1-3]){2}", name):
        raise Refused(f"syntax move {number} '{name}' names no square of this board")
    for move, after in legal(board, side):
        if move == name:
            return after
    raise Refused(f"illegal-move move {number} '{name}': not a legal move here")


class Engine:
    def __init__(self):
        self.start, self.start_side, self.moves = START, "w", []
        self.board, self.side = START, "w"
        self.searching = False  # a `go infinite` waiting for `stop`

    def bestmove(self):
        moves = legal(self.board, self.side)
        out(f"bestmove {random.choice(moves)[0] if moves else 'none'}")
        self.searching = False

    def not_busy(self, line):
        if self.searching:
            raise Refused(f"busy a search is running: send stop first ('{line}' was ignored)")

    def command(self, line):
        words = line.split()
        cmd, args = words[0], words[1:]
        if cmd in ("uci", "isready", "stop", "quit", "show", "legal") and args:
            raise Refused(f"syntax '{cmd}' takes no words")
        if cmd == "uci":
            out("id name minimal-engine", "id author examples/minimal-engine.py")
            out("game hexapawn 3 3", "uciok")
        elif cmd == "isready":
            out("readyok")
        elif cmd == "quit":
            if self.searching:
                self.bestmove()
            sys.exit(0)
        elif cmd == "stop":
            if self.searching:
                self.bestmove()
        elif cmd == "show":
            where = ""
            if self.moves:
                first = "startpos" if (self.start, self.start_side) == (START, "w") else (
                    f"board {'/'.join(self.start)} {self.start_side}")
                where = f" from {first} moves {' '.join(self.moves)}"
            out(f"board hexapawn 3 {'/'.join(self.board)} {self.side}{where}",
                f"result {result(self.board, self.side) or 'none'}")
        elif cmd == "legal":
            out(" ".join(["legal"] + [m for m, _ in legal(self.board, self.side)]))
        elif cmd == "newgame":
            self.newgame(line, args)
        elif cmd == "setoption":
            if len(args) != 4 or args[0] != "name" or args[2] != "value":
                raise Refused("syntax setoption name NAME value VALUE")
            self.not_busy(line)
            raise Refused(f"unsupported there is no option '{args[1]}' (options: none)")
        elif cmd == "position":
            self.position(line, args)
        elif cmd == "go":
            self.go(line, args)
        else:
            raise Refused(f"unknown-command '{cmd}' is not a command")

    def newgame(self, line, args):
        if len(args) != 2:
            raise Refused("syntax newgame GAME SIZE")
        if args[0] not in ("oska", "hexapawn", "ctf"):
            raise Refused(f"bad-value '{args[0]}' is not a game")
        size = number(args[1], 0, U32, "size")
        self.not_busy(line)
        if (args[0], size) != ("hexapawn", 3):
            raise Refused(f"unsupported {args[0]} {size}: this engine plays hexapawn 3 only")
        self.__init__()

    def position(self, line, args):
        # The grammar first, word by word.
        if args[:1] == ["startpos"]:
            board, side, rest = None, "w", args[1:]
        elif args[:1] == ["board"] and len(args) >= 3:
            board, side, rest = board_word(args[1]), args[2], args[3:]
            if side not in ("w", "b"):
                raise Refused(f"syntax '{side}' is not a side")
        else:
            raise Refused("syntax position startpos | board BOARD SIDE")
        history, moves = [], []
        if board and rest[:1] == ["history"]:
            rest = rest[1:]
            while rest and rest[0] != "moves":
                history.append(board_word(rest.pop(0)))
            if not history:
                raise Refused("syntax 'history' needs at least one board")
        if rest[:1] == ["moves"]:
            moves = rest[1:]
            if not moves:
                raise Refused("syntax 'moves' needs at least one move")
        elif rest:
            raise Refused(f"syntax '{rest[0]}' is not expected here")
        for m in moves:
            if not MOVE.fullmatch(m):
                raise Refused(f"syntax '{m}' is not a move")
        self.not_busy(line)
        # Then the boards, the history (most recent first) and the moves, against the rules.
        board = check_board(board) if board else START
        boards = [check_board(b, f"history board {i}") for i, b in enumerate(history, 2)]
        start, start_side, played = board, side, []
        for i, earlier in enumerate(boards, 2):
            start_side = OTHER[start_side]
            found = [m for m, after in legal(earlier, start_side) if after == start]
            if not found:
                raise Refused(f"bad-position history board {i} '{'/'.join(earlier)}': "
                              "no legal move leads from it to the board after it")
            start, played = earlier, found[:1] + played
        for n, name in enumerate(moves, 1):
            board = play(board, side, name, n)
            side = OTHER[side]
        self.start, self.start_side, self.moves = start, start_side, played + moves
        self.board, self.side = board, side

    def go(self, line, args):
        kind = args[0] if args else ""
        if kind in ("infinite", "solve") and len(args) == 1:
            pass
        elif kind in ("depth", "nodes", "movetime", "perft") and len(args) == 2:
            low = 0 if kind == "perft" else 1
            high = U32 if kind in ("depth", "perft") else U64
            depth = number(args[1], low, high, kind)
        elif kind in ("wtime", "btime", "winc", "binc", "movestogo"):
            keys = args[0::2]
            if len(args) % 2 or len(set(keys)) != len(keys) or not {"wtime", "btime"} <= set(keys):
                raise Refused("syntax go wtime MS btime MS [winc MS] [binc MS] [movestogo N]")
            for key, value in zip(keys, args[1::2]):
                if key not in ("wtime", "btime", "winc", "binc", "movestogo"):
                    raise Refused(f"syntax '{key}' is not a clock key")
                if key == "movestogo":
                    number(value, 1, U32, key)
                else:
                    number(value, 0, U64, key)
        else:
            raise Refused("syntax go depth N | nodes N | movetime MS | clock | infinite | perft N")
        self.not_busy(line)
        if kind == "perft":
            total = 0
            for name, after in legal(self.board, self.side) if depth else []:
                count = perft(after, OTHER[self.side], depth - 1)
                total += count
                out(f"perft {name} {count}")
            out(f"nodes {total if depth else 1}", "bestmove none")
        elif result(self.board, self.side):
            out(f"result {result(self.board, self.side)}", "bestmove none")
        elif kind == "infinite":
            self.searching = True
        else:
            self.bestmove()


def main():
    engine = Engine()
    for raw in sys.stdin.buffer:
        raw = raw[:-1] if raw.endswith(b"\n") else raw
        raw = raw[:-1] if raw.endswith(b"\r") else raw
        try:
            if len(raw) > 1048576:
                raise Refused("too-long the line is longer than 1 MiB")
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise Refused("syntax the line is not UTF-8")
            for i, byte in enumerate(raw, 1):
                if not (32 <= byte <= 126 or byte == 9):
                    raise Refused(f"syntax byte {i} is \\x{byte:02x}: not printable ASCII")
            if line.strip() and not line.strip().startswith("#"):
                engine.command(line.strip())
        except Refused as refusal:
            out(f"error {refusal}")
    if engine.searching:
        engine.bestmove()


main()
