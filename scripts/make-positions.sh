#!/usr/bin/env bash
# Regenerates the labelled position sets in engine/data/positions (used by `engine-tune blunders`
# and `engine-tune tune`). Each is reproducible from its seed by the same engine; the whole run
# takes about an hour and a half on one core. Usage: scripts/make-positions.sh [ENGINE_TUNE_BINARY]
#
# The committed sets were made while the evaluators were being written, by engines whose
# shallow-search player used the evaluators of the day, so this script makes sets of the same
# kind and size but not the same positions. Exact sets now use the frozen legacy evaluator for
# that player and stay the same from one engine version to the next; result sets made with
# --results all include the tuned evaluator and so follow its weights.
set -euo pipefail
cd "$(dirname "$0")/.."
E=${1:-target/release/engine-tune}
D=engine/data/positions
mkdir -p "$D"
"$E" positions oska 4 --count 3000 --seed 1 --budget 500000 --out "$D/oska-4.txt"
"$E" positions oska 5 --count 2000 --seed 2 --budget 500000 --out "$D/oska-5.txt"
"$E" positions hexapawn 4 --count 2000 --seed 3 --budget 500000 --out "$D/hexapawn-4.txt"
"$E" positions hexapawn 5 --count 3000 --seed 4 --budget 500000 --out "$D/hexapawn-5.txt"
"$E" positions hexapawn 6 --count 2000 --seed 5 --budget 500000 --out "$D/hexapawn-6.txt"
"$E" positions ctf 4 --count 1500 --seed 6 --budget 300000 --history 4 --out "$D/ctf-4.txt"
"$E" positions ctf 5 --count 1500 --seed 7 --budget 300000 --history 4 --out "$D/ctf-5.txt"
# The same game and seed with ten times the budget, so that positions further from the end are
# solved too (about 50 minutes).
"$E" positions ctf 5 --count 1500 --seed 7 --budget 3000000 --history 4 --hash 1024 \
    --out "$D/ctf-5-deeper.txt"
# Other games (seed 8), for the fit only: none of their boards is in the two sets above
# (about 10 minutes).
"$E" positions ctf 5 --count 3000 --seed 8 --budget 300000 --history 4 --out "$D/ctf-5-train.txt"
# Result sets (game results of engine play, for the fit only): the larger sizes.
"$E" positions oska 5 --count 6000 --seed 21 --results all --out "$D/oska-5-results.txt"
"$E" positions oska 6 --count 6000 --seed 22 --results all --out "$D/oska-6-results.txt"
"$E" positions hexapawn 5 --count 6000 --seed 23 --results all --out "$D/hexapawn-5-results.txt"
"$E" positions hexapawn 6 --count 6000 --seed 24 --results all --out "$D/hexapawn-6-results.txt"
"$E" positions ctf 5 --count 12000 --seed 25 --results all --out "$D/ctf-5-results.txt"
"$E" positions ctf 7 --count 12000 --seed 26 --results all --out "$D/ctf-7-results.txt"
