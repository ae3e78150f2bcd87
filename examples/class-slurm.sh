#!/usr/bin/env bash
# A class in shards as a Slurm job array: one array task per shard, then one report.
#
#   sbatch --array=1-16 examples/class-slurm.sh DIR OUT [arena class options...]
#   # when every task has finished (or chain it: sbatch --dependency=afterok:JOBID ...):
#   arena report OUT/shard-*.rec
#
# Task K of N (N = the array's size, SLURM_ARRAY_TASK_COUNT) plays
# `arena class DIR --shard K/N` and writes OUT/shard-K.rec. Every task gets the same options, so
# the schedule (pairings, colours, openings from --seed) is the same and the shards together are
# exactly the whole class. DIR, OUT and arena must be on a file system the nodes share. A task
# that failed can be run again alone (sbatch --array=K ...): it overwrites its own file only.
#
#SBATCH --job-name=arena-class
#SBATCH --cpus-per-task=2
#SBATCH --mem=8G
#SBATCH --time=04:00:00
#SBATCH --output=arena-class-%A-%a.log
set -euo pipefail
if [ "$#" -lt 2 ]; then
    echo "usage: sbatch --array=1-N $0 DIR OUT [arena class options...]" >&2
    exit 2
fi
: "${SLURM_ARRAY_TASK_ID:?run this with sbatch --array=1-N}"
dir=$1
out=$2
shift 2
k=$SLURM_ARRAY_TASK_ID
n=${SLURM_ARRAY_TASK_COUNT:-$((SLURM_ARRAY_TASK_MAX - SLURM_ARRAY_TASK_MIN + 1))}
mkdir -p "$out"
# arena: $ARENA, else on PATH, else built in the repository's target/ (Slurm runs a copy of this
# script, so the repository is found from the folder sbatch was called in, or beside the script).
arena=${ARENA:-$(command -v arena || true)}
for built in "${SLURM_SUBMIT_DIR:-.}/target/release/arena" "${SLURM_SUBMIT_DIR:-.}/target/debug/arena" \
    "$(dirname "$0")/../target/release/arena" "$(dirname "$0")/../target/debug/arena"; do
    if [ -z "$arena" ] && [ -x "$built" ]; then arena=$built; fi
done
: "${arena:?arena is neither on PATH nor built in target/: install it (README.md) or set ARENA}"
# Two games at once on the task's two CPUs.
exec "$arena" class "$dir" --shard "$k/$n" --concurrency "${SLURM_CPUS_PER_TASK:-1}" \
    --records "$out/shard-$k.rec" "$@"
