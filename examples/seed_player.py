#!/usr/bin/env python3
"""A tiny seed-shaped Hexapawn player: board in, board out.

Usage:  python3 seed_player.py BOARD SIDE DEPTH
   or:  echo "BOARD SIDE DEPTH" | python3 seed_player.py

BOARD is a Python list of rows, top row (White's home) first, e.g. "['www', '---', 'bbb']";
SIDE is w or b; DEPTH is accepted and ignored (the player is greedy, not a search). It prints
the board after its move in the same format. Greedy: a move that reaches the far row, else a
capture, else the first straight step, scanning the board from White's side.
"""

import ast
import sys


def moves(rows, side):
    """Every board reachable by one legal Hexapawn move of `side`."""
    n = len(rows)
    step = 1 if side == "w" else -1
    other = "b" if side == "w" else "w"
    out = []
    for r in range(n):
        for c in range(n):
            if rows[r][c] != side:
                continue
            r2 = r + step
            if not 0 <= r2 < n:
                continue
            for dc, target in ((0, "-"), (-1, other), (1, other)):
                c2 = c + dc
                if 0 <= c2 < n and rows[r2][c2] == target:
                    new = [list(row) for row in rows]
                    new[r][c], new[r2][c2] = "-", side
                    out.append((r2, target != "-", ["".join(row) for row in new]))
    return out


def choose(rows, side):
    far = len(rows) - 1 if side == "w" else 0
    options = moves(rows, side)
    for wanted in (lambda m: m[0] == far, lambda m: m[1], lambda m: True):
        for m in options:
            if wanted(m):
                return m[2]
    return rows


def main():
    words = sys.argv[1:]
    if not words:
        # The board may contain blanks: the side and the depth are the last two words.
        words = sys.stdin.readline().rsplit(None, 2)
    board, side = words[0], words[1]
    rows = ast.literal_eval(board)
    print(repr(choose(rows, side)))


if __name__ == "__main__":
    main()
