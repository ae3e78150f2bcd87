"""Our engine with one fault of protocol.md's, for the conformance tests: every line goes to the
engine named by the first argument and every reply comes back, except as the second argument
says:

- `ignore-history`: a `position board ... history B1 B2 ...` reaches the engine without its
  history, so a history that is no game is accepted;
- `show-without-moves`: a `board ...` reply loses its `from ... moves ...` part;
- `forget-moves`: a `position startpos moves ...` reaches the engine as the board it leads to
  alone (`position board BOARD SIDE`, asked of the engine with `show`), so the engine forgets the
  boards before it and offers a move that brings one back;
- `start-elsewhere`: the engine is sent `newgame oska 5` before anything else, so it starts
  away from Oska 4's start position;
- `slow-clock`: a `go wtime ...` reaches the engine a second late, so its `bestmove` comes after
  the time left."""

import subprocess
import sys
import threading
import time

ENGINE, MODE = sys.argv[1], sys.argv[2]

engine = subprocess.Popen([ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)


# While set, the wrapper waits for the board of a `show` it sent itself (forget-moves).
asked = threading.Event()
answered = threading.Event()


def replies():
    swallow = 0
    for raw in engine.stdout:
        if asked.is_set() and raw.startswith(b"board "):
            words = raw.split()
            engine.stdin.write(b"position board " + words[3] + b" " + words[4] + b"\n")
            asked.clear()
            answered.set()
            swallow = 1
            continue
        if swallow and raw.startswith(b"result"):
            swallow = 0
            continue
        if MODE == "show-without-moves" and raw.startswith(b"board ") and b" from " in raw:
            raw = raw.split(b" from ")[0] + b"\n"
        sys.stdout.buffer.write(raw)
        sys.stdout.buffer.flush()


def rewrite(raw):
    words = raw.split()
    if MODE == "ignore-history" and words[:2] == [b"position", b"board"] and b"history" in words:
        start = words.index(b"history")
        end = words.index(b"moves") if b"moves" in words else len(words)
        return b" ".join(words[:start] + words[end:]) + b"\n"
    if MODE == "slow-clock" and words[:2] == [b"go", b"wtime"]:
        time.sleep(1.0)
    if MODE == "forget-moves" and words[:3] == [b"position", b"startpos", b"moves"]:
        answered.clear()
        asked.set()
        engine.stdin.write(raw + b"show\n")
        answered.wait()
        return b""
    return raw


if MODE == "start-elsewhere":
    engine.stdin.write(b"newgame oska 5\n")
reader = threading.Thread(target=replies)
reader.start()
for line in sys.stdin.buffer:
    try:
        engine.stdin.write(rewrite(line))
    except BrokenPipeError:
        break
try:
    engine.stdin.close()
except BrokenPipeError:
    pass
reader.join()
sys.exit(engine.wait())
