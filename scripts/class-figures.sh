#!/usr/bin/env bash
# The class figures of docs/classroom.md: a class of 20 generated Python submissions (minimax to the
# depth they are given, each with its own evaluation weights) played at depth 2 on Oska 4, once
# with the interpreter kept for the game and once started for every move (--no-reuse); with MODES
# containing `grade`, once more with --grade (the exact grading's time and its totals).
#
#   [MODES="reuse no-reuse grade"] scripts/class-figures.sh [ARENA] [CONCURRENCY]
set -euo pipefail
arena=${1:-target/release/arena}
conc=${2:-2}
dir=$(mktemp -d)
out=$(mktemp -d)
trap 'rm -rf "$dir" "$out"' EXIT
for i in $(seq -w 1 20); do
    cat > "$dir/student$i.py" <<PY
"""Generated for scripts/class-figures.sh: Oska minimax (seed 004) with weights $i."""
ADVANCE, MATERIAL = $((10#$i % 5 + 1)), $((10#$i % 7 + 2))


def movegen(board, side):
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
                j1 = x + dx + len(rows[r1]) - 1
                if j1 % 2 or not 0 <= j1 // 2 < len(rows[r1]):
                    continue
                j1 //= 2
                if rows[r1][j1] == "-":
                    new = [list(q) for q in rows]
                    new[r][j], new[r1][j1] = "-", side
                    out.append(["".join(q) for q in new])
                elif rows[r1][j1] == other:
                    r2 = r1 + step
                    if not 0 <= r2 < len(rows):
                        continue
                    j2 = x + 2 * dx + len(rows[r2]) - 1
                    if j2 % 2 or not 0 <= j2 // 2 < len(rows[r2]) or rows[r2][j2 // 2] != "-":
                        continue
                    new = [list(q) for q in rows]
                    new[r][j], new[r1][j1], new[r2][j2 // 2] = "-", "-", side
                    out.append(["".join(q) for q in new])
    return out


def evaluate(board, side):
    n = len(board)
    score = 0
    for r, row in enumerate(board):
        for cell in row:
            if cell == "w":
                score += MATERIAL + ADVANCE * r
            elif cell == "b":
                score -= MATERIAL + ADVANCE * (n - 1 - r)
    return score if side == "w" else -score


def minimax(board, side, me, depth):
    moves = movegen(board, side)
    if depth == 0 or not moves:
        return evaluate(board, me)
    other = "b" if side == "w" else "w"
    values = [minimax(m, other, me, depth - 1) for m in moves]
    return max(values) if side == me else min(values)


def oskaplayer(board, side, depth):
    other = "b" if side == "w" else "w"
    moves = movegen(board, side)
    if not moves:
        return board
    return max(moves, key=lambda m: minimax(m, other, side, depth - 1))
PY
done
for mode in ${MODES:-reuse no-reuse}; do
    extra=()
    [ "$mode" = no-reuse ] && extra=(--no-reuse)
    [ "$mode" = grade ] && extra=(--grade)
    start=$(date +%s.%N)
    "$arena" class "$dir" --depth 2 --concurrency "$conc" --max-plies 200 "${extra[@]}" > "$out/$mode.out" 2> "$out/$mode.err"
    end=$(date +%s.%N)
    games=$(grep -c '^Finished game' "$out/$mode.err")
    echo "$mode: $games games in $(echo "$end - $start" | bc) s: $(echo "scale=2; $games / ($end - $start)" | bc) games/s"
    if [ "$mode" = grade ]; then
        grep -E '^(Grading:|\(all\)|Graded in|[0-9]+ position)' "$out/$mode.out"
    fi
done
