#!/usr/bin/env bash
# Refits the Hexapawn evaluator's pattern weights (engine/data/patterns/hexapawn-{5,6}.bin):
# makes the training sets with the exact solver (fixed seeds, so the same sets every run; about
# 10 and 15 minutes on 2 cores), then fits each size, leaving out the positions of the committed
# sets that `engine blunders` measures on, and the positions one move after them.
# Usage: scripts/fit-patterns.sh [WORKDIR]   (default target/patterns; the sets are 20 MB each)
set -euo pipefail
cd "$(dirname "$0")/.."
work="${1:-target/patterns}"
mkdir -p "$work"
cargo build --release -q -p engine
engine=target/release/engine
[ -s "$work/hexapawn-5-train.txt" ] ||
    "$engine" positions hexapawn 5 --count 300000 --seed 102 --budget 500000 --out "$work/hexapawn-5-train.txt"
[ -s "$work/hexapawn-6-train.txt" ] ||
    "$engine" positions hexapawn 6 --count 100000 --seed 103 --budget 3000000 --hash 1024 --out "$work/hexapawn-6-train.txt"
for n in 5 6; do
    "$engine" tune-patterns "$n" "$work/hexapawn-$n-train.txt" \
        --exclude "engine/data/positions/hexapawn-$n.txt" --seed 1 \
        --write "engine/data/patterns/hexapawn-$n.bin"
done
echo "rebuild (cargo build --release) for the engine to use the new weights"
