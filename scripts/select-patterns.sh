#!/usr/bin/env bash
# Chooses the pattern weights of one game and size by matches, as engines choose among trained
# networks: fits the weights with each seed FIRST..LAST (the data and command of
# scripts/fit-patterns.sh; the seed decides the held-out fifth and the order of the examples),
# rebuilds, and plays each candidate against every classic evaluator at depths 3 and 4 with
# examples/duel on openings the gauntlets of docs/research/ do not use (300 openings of 4 random plies,
# seed 7, and 300 of 3 plies, seed 9; each opening played with both colours). Prints each seed's
# twelve scores and their mean, then refits the seed with the highest mean into
# engine/core/data/patterns/GAME-SIZE.bin.
# Usage: scripts/select-patterns.sh GAME SIZE FIRST LAST [WORKDIR]   (WORKDIR as fit-patterns.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 4 ]; then
    echo "usage: scripts/select-patterns.sh GAME SIZE FIRST LAST [WORKDIR]" >&2
    exit 2
fi
game="$1" size="$2" first="$3" last="$4" work="${5:-target/patterns}"
. scripts/pattern-sets.sh
sets_of "$game" "$size" "$work" || {
    echo "select-patterns.sh: no pattern fit for $game $size (hexapawn 5, 6, oska 4, 5, 6)" >&2
    exit 2
}
for data in "${sets[@]}"; do
    [ -s "$data" ] || { echo "select-patterns.sh: $data is missing: run scripts/fit-patterns.sh $work first" >&2; exit 2; }
done
weights="engine/core/data/patterns/$game-$size.bin"
fit() { # SEED: writes the weights of that seed
    target/release/engine-tune tune-patterns "$game" "$size" "${sets[@]}" "${exclude[@]}" \
        --seed "$1" --write "$weights" >/dev/null
    cargo build --release -q -p engine --bins --examples
}
cargo build --release -q -p engine --bins --examples
best="" best_mean=-1
for seed in $(seq "$first" "$last"); do
    fit "$seed"
    scores=()
    for openings in "300 7 4" "300 9 3"; do
        for depth in 3 4; do
            for b in material classic-advance classic-race; do
                # shellcheck disable=SC2086 # the openings are three words on purpose
                scores+=("$(target/release/examples/duel "$game" "$size" "$depth" tuned "$b" $openings |
                    sed -nE 's/.*score ([0-9.]+)%.*/\1/p')")
            done
        done
    done
    mean=$(printf '%s\n' "${scores[@]}" | awk '{ s += $1 } END { printf "%.2f", s / NR }')
    echo "seed $seed: ${scores[*]} mean $mean"
    if awk -v m="$mean" -v b="$best_mean" 'BEGIN { exit !(m > b) }'; then
        best="$seed" best_mean="$mean"
    fi
done
fit "$best"
echo "chose seed $best (mean $best_mean %); wrote $weights"
