"""A Capture-the-Flag-only protocol engine, written for the conformance tests from protocol.md and
docs/rules.md alone (it shares no code with the toolkit): it declares `game ctf 3 11` and no
option, plays the first legal move, counts `go perft`, and answers `go solve` with
`error unsupported`."""

import re
import sys

MAX_LINE = 1 << 20
U32 = 4294967295
U64 = 18446744073709551615
OTHER = {"w": "b", "b": "w"}
NAMES = {"w": "white", "b": "black"}


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class Refused(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def start(n):
    rows = [["-"] * n for _ in range(n)]
    f = (n - 1) // 2
    for c, piece in ((f - 1, "w"), (f, "W"), (f + 1, "w")):
        if 0 <= c < n:
            rows[0][c] = piece
            rows[n - 1][c] = {"w": "b", "W": "B"}[piece]
    if n >= 5:
        for c in (f - 1, f, f + 1):
            rows[1][c] = "w"
            rows[n - 2][c] = "b"
    return tuple("".join(r) for r in rows)


def square(r, c):
    return "abcdefghijk"[c] + str(r + 1)


def moves(board, side, seen):
    """(name, next board) for every legal move of side."""
    n = len(board)
    fwd = 1 if side == "w" else -1
    flag = side.upper()
    foe = {OTHER[side], OTHER[side].upper()}
    result = []
    for r in range(n):
        for c in range(n):
            piece = board[r][c]
            if piece not in (side, flag):
                continue
            dirs = [(fwd, 0), (0, -1), (0, 1)] + ([(-fwd, 0)] if piece == flag else [])
            for dr, dc in dirs:
                targets = [((r + dr, c + dc), None)]
                if piece == side:
                    targets.append(((r + 2 * dr, c + 2 * dc), (r + dr, c + dc)))
                for (r2, c2), over in targets:
                    if not (0 <= r2 < n and 0 <= c2 < n) or board[r2][c2] != "-":
                        continue
                    if over is not None and board[over[0]][over[1]] not in foe:
                        continue
                    rows = [list(x) for x in board]
                    rows[r][c] = "-"
                    rows[r2][c2] = piece
                    if over is not None:
                        rows[over[0]][over[1]] = "-"
                    nxt = tuple("".join(x) for x in rows)
                    if nxt not in seen:
                        result.append((square(r, c) + square(r2, c2), nxt))
    return result


def pieces(board, kind):
    return [(r, c) for r, row in enumerate(board) for c, p in enumerate(row) if p == kind]


def outcome(board, side, seen):
    """(winner, reason) of the position with side to move, or None."""
    moved = OTHER[side]
    for s in (moved, side):
        if not pieces(board, OTHER[s].upper()):
            return s, "flag-captured"
        if not pieces(board, OTHER[s]):
            return s, "no-pieces"
    for s in (moved, side):
        (fr, _), = pieces(board, s.upper())
        foes = [r for r, _ in pieces(board, OTHER[s])]
        if all((r < fr) if s == "w" else (r > fr) for r in foes):
            return s, "flag-past"
    if not moves(board, side, seen):
        return moved, "no-legal-move"
    return None


def perft(board, side, seen, depth):
    if depth == 0:
        return 1
    if outcome(board, side, seen):
        return 0
    total = 0
    for _, nxt in moves(board, side, seen):
        total += perft(nxt, OTHER[side], seen | {nxt}, depth - 1)
    return total


MOVE = re.compile(r"^([a-z])([1-9][0-9]*)([a-z])([1-9][0-9]*)$")
BOARD = re.compile(r"^[wbWB/-]+$")


def number(word, limit, least, what):
    if not word.isdigit():
        raise Refused("syntax", f"'{word}' is not a number")
    if int(word) > limit or int(word) < least:
        raise Refused("bad-value", f"{what} {word} is out of range")
    return int(word)


def parse_board(text):
    rows = text.split("/")
    if len(rows) == 1:
        n = int(len(text) ** 0.5)
        if n * n != len(text):
            raise Refused("bad-position", f"board '{text}' is not square")
        rows = [text[i * n:(i + 1) * n] for i in range(n)]
    n = len(rows)
    if not 3 <= n <= 11:
        raise Refused("unsupported", f"board '{text}': ctf sizes are 3 to 11")
    if any(len(r) != n for r in rows):
        raise Refused("bad-position", f"board '{text}': rows of unequal length")
    flat = "".join(rows)
    if flat.count("W") > 1 or flat.count("B") > 1 or not ("W" in flat or "B" in flat):
        raise Refused("bad-position", f"board '{text}': wrong flags")
    return tuple(rows)


class Engine:
    def __init__(self):
        self.size = 5
        self.set_line(start(5), "w", [])
        self.searching = None

    def set_line(self, board, side, boards):
        self.board, self.side = board, side
        self.seen = set(boards) | {board}
        # The line's first board and side, and the moves played since (for `show`).
        self.first, self.played = (board, side), []

    def position(self, words):
        i = 1
        if words[i:i + 1] == ["startpos"]:
            base, side, history, i = start(self.size), "w", [], i + 1
        elif words[i:i + 1] == ["board"] and len(words) > i + 2:
            base, side = words[i + 1], words[i + 2]
            if not BOARD.match(base) or side not in ("w", "b"):
                raise Refused("syntax", "a board or side spelled wrongly")
            i += 3
            history = []
            if words[i:i + 1] == ["history"]:
                i += 1
                while i < len(words) and words[i] != "moves":
                    history.append(words[i])
                    i += 1
                if not history:
                    raise Refused("syntax", "history needs a board")
        else:
            raise Refused("syntax", "position startpos | board BOARD SIDE")
        mvs = []
        if i < len(words):
            if words[i] != "moves" or i + 1 == len(words):
                raise Refused("syntax", "moves needs a move")
            mvs = words[i + 1:]
            for m in mvs:
                if m != "pass" and not MOVE.match(m):
                    raise Refused("syntax", f"'{m}' is not a move")
        if self.searching:
            raise Refused("busy", "a search is running")
        if isinstance(base, str):
            base = parse_board(base)
            if len(base) != self.size:
                raise Refused("unsupported", "the board is not of the current size")
            boards = [parse_board(h) for h in history]
        else:
            boards = []
        # The history, oldest first, must be a game: each board one legal move after the one
        # before it, the sides alternating, no board repeated.
        chain = list(reversed(boards)) + [base]
        s = side if len(boards) % 2 == 0 else OTHER[side]
        first, played, seen = (chain[0], s), [], set()
        for k in range(len(chain) - 1):
            older, newer = chain[k], chain[k + 1]
            seen.add(older)
            if len(older) != len(base):
                raise Refused("bad-position", f"history board {len(chain) - k}: not the board's size")
            name = None
            if not outcome(older, s, seen):
                name = next((m for m, b in moves(older, s, seen) if b == newer), None)
            if name is None:
                raise Refused("bad-position",
                              f"history board {len(chain) - k - 1}: no legal move leads to it "
                              f"from history board {len(chain) - k}")
            played.append(name)
            s = OTHER[s]
        board, seen = base, set(boards) | {base}
        for k, m in enumerate(mvs, 1):
            if outcome(board, side, seen):
                raise Refused("illegal-move", f"move {k} '{m}': the game is over")
            nxt = dict(moves(board, side, seen)).get(m)
            if nxt is None:
                raise Refused("illegal-move", f"move {k} '{m}' is not a legal move here")
            board, side = nxt, OTHER[side]
            seen = seen | {board}
            played.append(m)
        self.board, self.side, self.seen = board, side, seen
        self.first, self.played = first, played

    def go(self, words):
        args = words[1:]
        if not args:
            raise Refused("syntax", "go needs a limit")
        kind = args[0]
        wait = False
        if kind in ("depth", "perft") and len(args) == 2:
            n = number(args[1], U32, 1 if kind == "depth" else 0, kind)
            wait = kind == "depth" and n > 1000
        elif kind in ("nodes", "movetime") and len(args) == 2:
            number(args[1], U64, 1, kind)
        elif kind in ("infinite", "solve") and len(args) == 1:
            wait = kind == "infinite"
        elif kind in ("wtime", "btime", "winc", "binc", "movestogo") and len(args) % 2 == 0:
            keys = args[0::2]
            if len(set(keys)) != len(keys) or not {"wtime", "btime"} <= set(keys):
                raise Refused("syntax", "a clock needs wtime and btime, each key once")
            for k, v in zip(keys, args[1::2]):
                if k not in ("wtime", "btime", "winc", "binc", "movestogo"):
                    raise Refused("syntax", f"'{k}' is not a clock key")
                number(v, U64, 0, k)
        else:
            raise Refused("syntax", "go: a limit and its number")
        if self.searching:
            raise Refused("busy", "a search is running")
        if kind == "solve":
            raise Refused("unsupported", "this engine does not prove values")
        if kind == "perft":
            depth = int(args[1])
            total = 0
            if not outcome(self.board, self.side, self.seen) and depth > 0:
                for name, nxt in moves(self.board, self.side, self.seen):
                    count = perft(nxt, OTHER[self.side], self.seen | {nxt}, depth - 1)
                    out(f"perft {name} {count}")
                    total += count
            elif depth == 0:
                total = 1
            out(f"nodes {total}")
            out("bestmove none")
            return
        over = outcome(self.board, self.side, self.seen)
        if over:
            out(f"result {NAMES[over[0]]} {over[1]}")
            best = "none"
        else:
            best = moves(self.board, self.side, self.seen)[0][0]
        if wait:
            self.searching = best
        else:
            out(f"bestmove {best}")

    def stop(self):
        if self.searching:
            out(f"bestmove {self.searching}")
            self.searching = None

    def show(self):
        line = f"board ctf {self.size} {'/'.join(self.board)} {self.side}"
        if self.played:
            board, side = self.first
            if board == start(self.size) and side == "w":
                line += " from startpos"
            else:
                line += f" from board {'/'.join(board)} {side}"
            line += " moves " + " ".join(self.played)
        out(line)
        over = outcome(self.board, self.side, self.seen)
        out(f"result {NAMES[over[0]]} {over[1]}" if over else "result none")

    def line(self, text):
        words = text.split()
        if not words or words[0].startswith("#"):
            return True
        cmd, rest = words[0], words[1:]
        simple = {"uci", "isready", "stop", "quit", "show", "legal"}
        if cmd not in simple | {"newgame", "setoption", "position", "go"}:
            raise Refused("unknown-command", f"'{cmd}' is not a command")
        if cmd in simple and rest:
            raise Refused("syntax", f"'{cmd}' takes no words")
        if cmd == "uci":
            out("id name ctf-only test engine")
            out("id author the conformance tests")
            out("game ctf 3 11")
            out("uciok")
        elif cmd == "isready":
            out("readyok")
        elif cmd == "quit":
            self.stop()
            return False
        elif cmd == "stop":
            self.stop()
        elif cmd == "show":
            self.show()
        elif cmd == "legal":
            names = [m for m, _ in moves(self.board, self.side, self.seen)]
            if outcome(self.board, self.side, self.seen):
                names = []
            out(" ".join(["legal"] + names))
        elif cmd == "newgame":
            if len(rest) != 2:
                raise Refused("syntax", "newgame GAME SIZE")
            if rest[0] not in ("oska", "hexapawn", "ctf"):
                raise Refused("bad-value", f"'{rest[0]}' is not a game")
            size = number(rest[1], U32, 0, "size")
            if self.searching:
                raise Refused("busy", "a search is running")
            if rest[0] != "ctf":
                raise Refused("unsupported", "this engine plays ctf only")
            if not 3 <= size <= 11:
                raise Refused("unsupported", "ctf sizes are 3 to 11")
            self.size = size
            self.set_line(start(size), "w", [])
        elif cmd == "setoption":
            if len(rest) != 4 or rest[0] != "name" or rest[2] != "value":
                raise Refused("syntax", "setoption name NAME value VALUE")
            if self.searching:
                raise Refused("busy", "a search is running")
            raise Refused("unsupported", f"there is no option '{rest[1]}'")
        elif cmd == "position":
            self.position(words)
        elif cmd == "go":
            self.go(words)
        return True


def main():
    engine = Engine()
    stdin = sys.stdin.buffer
    while True:
        raw = stdin.readline(MAX_LINE + 2)
        if not raw:
            break
        if len(raw) > MAX_LINE + 1 or (len(raw) == MAX_LINE + 1 and not raw.endswith(b"\n")):
            while raw and not raw.endswith(b"\n"):
                raw = stdin.readline(MAX_LINE)
            out("error too-long the line is longer than 1 MiB")
            continue
        raw = raw[:-1] if raw.endswith(b"\n") else raw
        raw = raw[:-1] if raw.endswith(b"\r") else raw
        try:
            text = raw.decode("ascii")
            if any(not (" " <= ch <= "~" or ch == "\t") for ch in text):
                raise UnicodeError
        except UnicodeError:
            out("error syntax a character outside printable ASCII")
            continue
        try:
            if not engine.line(text):
                return
        except Refused as e:
            out(f"error {e.code} {e}")
    engine.stop()


main()
