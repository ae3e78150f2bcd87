"""Exact values in bulk, measured side by side in one run (docs/performance.md): probes a second
through an opened tablebase against ``tablebase.probe`` (which reads the tables for each call),
and solves a second with the kept solver against a fresh table for each call (what ``solve`` did
before it kept one), on late positions of Oska 4 (and of Hexapawn 4).

    python python/bench/bulk.py [--engine target/debug/engine] [--positions 2000] [--seconds 2]

Needs the package installed and an ``engine`` binary to build the tables with.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import tempfile
import time
from typing import Callable, Dict, List

from boardgames import Position, solve, tablebase


def late_positions(game: str, size: int, count: int, seed: int) -> List[Position]:
    """Distinct positions met 12 plies or more into random games from the start, not finished
    (at most ``count``; fewer when random games do not find that many)."""
    rng = random.Random(seed)
    found: List[Position] = []
    seen = set()
    for _ in range(count * 20):
        if len(found) == count:
            break
        pos = Position.start(game, size)
        plies = rng.randrange(12, 40)
        for _ in range(plies):
            if pos.is_game_over():
                break
            pos.push(rng.choice(pos.legal_moves))
        if not pos.is_game_over() and len(pos.move_stack) >= 12 and pos not in seen:
            seen.add(pos)
            found.append(pos)
    return found


def rate(call: Callable[[Position], object], positions: List[Position], seconds: float, passes: int = 1) -> float:
    """Calls a second over ``passes`` passes through ``positions``, cut short after ``seconds``.
    Solves make one pass (each position met once, so that nothing is answered from a previous
    call's work on it); probes, which keep nothing, may make several."""
    done = 0
    started = time.perf_counter()
    for pos in positions * passes:
        call(pos)
        done += 1
        if done % 16 == 0 and time.perf_counter() - started > seconds:
            break
    return done / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="engine")
    parser.add_argument("--positions", type=int, default=20000)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tables:
        for game in ("oska", "hexapawn"):
            subprocess.run([args.engine, "tablebase", "build", game, "4", "--dir", tables], check=True, capture_output=True)
        print(f"| call | {'Oska 4':>10} | {'Hexapawn 4':>10} |")
        print("| --- | ---: | ---: |")
        rows: Dict[str, Dict[str, float]] = {}
        counts: Dict[str, int] = {}
        for game in ("oska", "hexapawn"):
            positions = late_positions(game, 4, args.positions, seed=48)
            counts[game] = len(positions)
            with tablebase.open_tablebase(tables) as tb:
                for pos in positions[:200]:
                    assert tb.probe(pos) == tablebase.probe(pos, tables) == solve(pos)
                measured = {
                    "probes/s, `tablebase.probe(position, dir)` (reads the tables each call)":
                        rate(lambda p: tablebase.probe(p, tables), positions, args.seconds, 50),
                    "probes/s, `open_tablebase(dir).probe_wdl(position)`":
                        rate(tb.probe_wdl, positions, args.seconds, 50),
                    "probes/s, `open_tablebase(dir).probe_dtm(position)`":
                        rate(tb.probe_dtm, positions, args.seconds, 50),
                }
            flip = [0]

            def fresh(p: Position, mib: int) -> object:
                # Two table sizes in turn: each call makes a new table, as every call did before.
                flip[0] ^= 1
                return solve(p, hash_mib=mib - flip[0])

            measured["solves/s, a new 64 MiB table each call (as before)"] = rate(lambda p: fresh(p, 64), positions, args.seconds)
            measured["solves/s, a new 2 MiB table each call"] = rate(lambda p: fresh(p, 2), positions, args.seconds)
            measured["solves/s, `solve(position)` (the kept table)"] = rate(solve, positions, args.seconds)
            for name, value in measured.items():
                rows.setdefault(name, {})[game] = value
        for name, values in rows.items():
            print(f"| {name} | {values['oska']:>10,.0f} | {values['hexapawn']:>10,.0f} |")
        print(f"\n{counts['oska']} distinct late positions of Oska 4, {counts['hexapawn']} of Hexapawn 4, each solve on a position not met before in its pass; probes go through the positions up to 50 times")


if __name__ == "__main__":
    main()
