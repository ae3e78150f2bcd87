"""Bob's helper module: the same file name as Alice's, his own move order (last first)."""

def forward(board, side):
    rows = [list(r) for r in board]
    other = "b" if side == "w" else "w"
    step = 1 if side == "w" else -1
    out = []
    for r, row in enumerate(rows):
        for j, cell in enumerate(row):
            if cell != side:
                continue
            x = 2 * j - (len(row) - 1)
            for dx in (-1, 1):
                r1 = r + step
                if not 0 <= r1 < len(rows):
                    continue
                j1 = (x + dx + len(rows[r1]) - 1)
                if j1 % 2 or not 0 <= j1 // 2 < len(rows[r1]):
                    continue
                j1 //= 2
                if rows[r1][j1] == "-":
                    new = [list(q) for q in rows]
                    new[r][j], new[r1][j1] = "-", side
                    out.append(["".join(q) for q in new])
                    continue
                if rows[r1][j1] != other:
                    continue
                r2 = r1 + step
                if not 0 <= r2 < len(rows):
                    continue
                j2 = (x + 2 * dx + len(rows[r2]) - 1)
                if j2 % 2 or not 0 <= j2 // 2 < len(rows[r2]) or rows[r2][j2 // 2] != "-":
                    continue
                new = [list(q) for q in rows]
                new[r][j], new[r1][j1], new[r2][j2 // 2] = "-", "-", side
                out.append(["".join(q) for q in new])
    return out


def movegen(board, side):
    return list(reversed(forward(board, side)))
