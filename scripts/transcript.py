#!/usr/bin/env python3
"""Replays the `> ` lines of protocol.md's example sessions against an engine and prints the
transcript with the engine's real replies (`< ` lines), so the examples stay true to the code.

Usage: scripts/transcript.py ENGINE < input.txt   (input: one command per line; a blank line is
kept as a separator). After a `go` that is not `go infinite` it waits for `bestmove`; otherwise
it waits until the engine has been quiet for a moment.
"""
import os
import select
import subprocess
import sys
import time


PENDING = b""


def read_until(proc, done, quiet=0.3, limit=30.0):
    """Lines from the engine until `done(line)` holds, or it is quiet for `quiet` seconds."""
    global PENDING
    lines, start, last = [], time.time(), time.time()
    fd = proc.stdout.fileno()
    while time.time() - start < limit:
        while b"\n" in PENDING:
            line, PENDING = PENDING.split(b"\n", 1)
            lines.append(line.decode())
            last = time.time()
            if done is not None and done(lines[-1]):
                return lines
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            PENDING += chunk
        elif done is None and time.time() - last > quiet:
            break
    return lines


def main():
    proc = subprocess.Popen([sys.argv[1]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    os.set_blocking(proc.stdout.fileno(), True)
    searching = False
    for raw in sys.stdin:
        cmd = raw.rstrip("\n")
        if not cmd:
            print()
            continue
        print("> " + cmd)
        proc.stdin.write(cmd + "\n")
        proc.stdin.flush()
        if cmd == "quit":
            break
        waits_for_bestmove = (cmd.startswith("go") and cmd != "go infinite") or (cmd == "stop" and searching)
        if cmd == "go infinite":
            searching = True
        if cmd == "stop":
            searching = False
        done = (lambda l: l.startswith("bestmove")) if waits_for_bestmove else None
        for line in read_until(proc, done):
            print("< " + line)
    proc.wait(timeout=10)


if __name__ == "__main__":
    main()
