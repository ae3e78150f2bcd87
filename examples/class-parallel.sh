#!/usr/bin/env bash
# A class in shards with GNU parallel, on this machine or over ssh, then one report.
#
#   examples/class-parallel.sh DIR OUT [SHARDS] [arena class options...]
#
# Plays `arena class DIR --shard K/SHARDS` for K = 1..SHARDS (default 8) as parallel jobs, each
# writing OUT/shard-K.rec and OUT/shard-K.log, then prints `arena report OUT/shard-*.rec`: the
# standings, Elo and per-submission report of the whole class. Options after SHARDS go to every
# `arena class` (--game, --size, --depth, --rounds, --random-plies, --seed, --move-timeout...;
# every shard must get the same ones so that the schedule is the same).
#
# Environment:
#   JOBS      jobs per machine (parallel's --jobs; default: one per CPU core)
#   SSHLOGIN  run on other machines: parallel's --sshlogin, e.g. "8/node1,8/node2,:" (":" is
#             this machine). DIR, OUT and arena must be at the same paths on every machine (a
#             shared file system); each shard's records are written there.
#   ARENA     the arena binary (default: arena on PATH, else the one built beside this script,
#             ../target/release/arena or ../target/debug/arena; arena finds engine beside it)
set -euo pipefail
if [ "$#" -lt 2 ]; then
    echo "usage: $0 DIR OUT [SHARDS] [arena class options...]" >&2
    exit 2
fi
dir=$(realpath "$1")
out=$(realpath -m "$2")
shift 2
shards=8
if [ "$#" -gt 0 ] && [[ "$1" =~ ^[0-9]+$ ]]; then
    shards=$1
    shift
fi
here=$(cd "$(dirname "$0")" && pwd)
arena=${ARENA:-$(command -v arena || true)}
for built in "$here/../target/release/arena" "$here/../target/debug/arena"; do
    if [ -z "$arena" ] && [ -x "$built" ]; then arena=$(realpath "$built"); fi
done
if [ -z "$arena" ]; then
    echo "$0: arena is neither on PATH nor built in $here/../target (cargo build --release): install it (README.md) or set ARENA=/path/to/arena" >&2
    exit 2
fi
command -v parallel >/dev/null || { echo "$0: GNU parallel is not installed (apt-get install parallel)" >&2; exit 2; }
mkdir -p "$out"
opts=$(printf '%q ' "$@")
remote=()
if [ -n "${SSHLOGIN:-}" ]; then
    remote=(--sshlogin "$SSHLOGIN")
fi
seq 1 "$shards" | parallel --will-cite --halt now,fail=1 ${JOBS:+--jobs "$JOBS"} "${remote[@]}" \
    "$(printf '%q' "$arena") class $(printf '%q' "$dir") --shard {}/$shards --records $(printf '%q' "$out")/shard-{}.rec $opts > $(printf '%q' "$out")/shard-{}.log 2>&1"
"$arena" report "$out"/shard-*.rec
