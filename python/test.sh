#!/usr/bin/env bash
# The Python package's tests, as README.md's test command and .ci/run run them: a fresh virtual
# environment (target/python-venv), `pip install ./python pytest mypy` in it (the Rust part built by
# maturin under target/python, so a second run rebuilds little), then pytest on python/tests
# against the engine binary $BOARDGAMES_ENGINE (default: target/debug/engine, which `cargo test
# --workspace` leaves; built here when missing). Prints how long the install took.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
export BOARDGAMES_ENGINE="${BOARDGAMES_ENGINE:-$target/debug/engine}"
if [ ! -x "$BOARDGAMES_ENGINE" ]; then
  echo "== building the engine ($BOARDGAMES_ENGINE is missing)"
  cargo build -p engine --bin engine
fi
python="${PYTHON:-python3}"
venv="$target/python-venv"
rm -rf "$venv"
if ! "$python" -m venv "$venv"; then
  echo "python/test.sh: '$python -m venv' failed: install Python's venv module (Debian/Ubuntu: apt-get install python3-venv), or name another Python in \$PYTHON" >&2
  exit 1
fi
echo "== pip install ./python pytest mypy (fresh venv $venv)"
started=$(date +%s)
CARGO_TARGET_DIR="$target/python" "$venv/bin/pip" install --quiet --disable-pip-version-check ./python pytest mypy
echo "pip install took $(( $(date +%s) - started )) s"
echo "== pytest python/tests"
# From python/tests, so that `import boardgames` is the installed package, not the source folder.
cd python/tests
exec "$venv/bin/python" -m pytest -p no:cacheprovider "$@" .
