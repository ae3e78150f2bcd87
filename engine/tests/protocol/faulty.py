"""Our engine with one fault of protocol.md's, for the conformance tests: every line goes to the
engine named by the first argument and every reply comes back, except as the second argument
says:

- `ignore-history`: a `position board ... history B1 B2 ...` reaches the engine without its
  history, so a history that is no game is accepted;
- `show-without-moves`: a `board ...` reply loses its `from ... moves ...` part."""

import subprocess
import sys
import threading

ENGINE, MODE = sys.argv[1], sys.argv[2]

engine = subprocess.Popen([ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)


def replies():
    for raw in engine.stdout:
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
    return raw


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
