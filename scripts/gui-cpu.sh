#!/usr/bin/env bash
# Measures the GUI's own CPU use while nothing changes on screen: starts `gui ARGS...` under
# Xvfb (software rendering), waits WARMUP seconds, then reads the process's user+system CPU time
# (/proc/PID/stat) over SECONDS seconds. The engines are processes of their own and not counted.
# Usage: scripts/gui-cpu.sh [ARGS...]   (default: --analyse oska 6, our engine searching)
# Environment: GUI (default target/debug/gui), WARMUP (10), SECONDS_MEASURED (20).
set -euo pipefail
cd "$(dirname "$0")/.."
gui="${GUI:-target/debug/gui}"
warmup="${WARMUP:-10}"
span="${SECONDS_MEASURED:-20}"
[ $# -gt 0 ] || set -- --analyse oska 6
[ -x "$gui" ] && [ -x target/debug/engine ] || cargo build -q -p gui -p engine --bins
xvfb_pid=""
if [ -z "${DISPLAY:-}" ]; then
    display=":$((190 + RANDOM % 100))"
    Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
    xvfb_pid=$!
    export DISPLAY="$display"
    sleep 1
fi
export LIBGL_ALWAYS_SOFTWARE=1
XDG_DATA_HOME="$(mktemp -d)" "$gui" "$@" >/dev/null 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; [ -z "$xvfb_pid" ] || kill $xvfb_pid 2>/dev/null || true' EXIT
ticks() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
sleep "$warmup"
t1=$(ticks)
sleep "$span"
t2=$(ticks)
hz=$(getconf CLK_TCK)
awk -v d=$((t2 - t1)) -v hz="$hz" -v s="$span" -v a="$*" \
    'BEGIN { printf "gui %s: %.2f CPU seconds in %d s = %.1f %% of a core\n", a, d / hz, s, 100 * d / hz / s }'
