#!/usr/bin/env bash
# The equal-depth gauntlets of docs/research/2026-11-24-strength.md of one game and size: `tuned` against each classic
# evaluator (material, classic-advance, classic-race) at depths 3 and 4, 40 games a match (20
# openings of PLIES random plies, each played with both colours, seed 1, 10 000-ply cap: no game
# reaches it, so Capture the Flag, which has no draw, is played to its end), through
# `arena`. Prints one table row a depth: wins-draws-losses and the score of tuned.
# With TABLEBASE=DIR the first engine gets those tables (option TablebasePath): with the tables of
# every position of the size (`engine tablebase build GAME SIZE`) it plays perfectly, so the rows
# are the ceiling of any evaluator on the same openings and opponents.
# Usage: [TABLEBASE=DIR] scripts/gauntlets.sh GAME SIZE [PLIES]   (PLIES default 2)
set -euo pipefail
cd "$(dirname "$0")/.."
game="$1" size="$2" plies="${3:-2}"
cargo build --release -q -p engine
e=target/release/engine
tables=()
[ -z "${TABLEBASE:-}" ] || tables=(option.TablebasePath="$TABLEBASE")
case "$game" in
    oska) name=Oska ;;
    hexapawn) name=Hexapawn ;;
    ctf) name="Capture the Flag" ;;
    *) echo "gauntlets.sh: unknown game '$game' (oska, hexapawn or ctf)" >&2; exit 2 ;;
esac
for depth in 3 4; do
    row="| $name $size | $depth |"
    for b in material classic-advance classic-race; do
        line=$(target/release/arena match --game "$game" --size "$size" \
            --engine cmd=$e name=tuned depth=$depth "${tables[@]}" \
            --engine cmd=$e name="$b" depth=$depth option.Evaluator="$b" \
            --games 40 --random-plies "$plies" --seed 1 --max-plies 10000 --concurrency 2 2>/dev/null |
            grep '^Score of tuned' | tail -1)
        # "Score of tuned vs B: W - L - D [score] N"
        read -r w l d <<<"$(sed -E 's/.*: ([0-9]+) - ([0-9]+) - ([0-9]+) .*/\1 \2 \3/' <<<"$line")"
        row+=$(awk -v w="$w" -v d="$d" -v l="$l" \
            'BEGIN { printf " %d-%d-%d (%.1f %%) |", w, d, l, 100 * (w + d / 2) / (w + d + l) }')
    done
    echo "$row"
done
