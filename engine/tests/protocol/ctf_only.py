"""A Capture-the-Flag-only engine for the conformance tests: it declares `game ctf 3 11` and no
Trace, Evaluator or TablebasePath option, refuses `newgame oska ...` and `newgame hexapawn ...`
with `error unsupported`, starts at Capture the Flag 5, and leaves the search and the rules to
the engine named by its first argument, to which it passes every other line.

With `--broken-multipv` it declares MultiPV but ignores its value (a broken capability)."""

import subprocess
import sys
import threading

ENGINE = sys.argv[1]
BROKEN = "--broken-multipv" in sys.argv[2:]
HIDDEN = {"trace", "evaluator", "tablebasepath"} | (set() if BROKEN else {"multipv"})

engine = subprocess.Popen([ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)


def replies():
    for raw in engine.stdout:
        words = raw.split()
        if words[:1] == [b"game"] and words[1:2] != [b"ctf"]:
            continue
        if words[:2] == [b"option", b"name"] and words[2].decode().lower() in HIDDEN:
            continue
        sys.stdout.buffer.write(raw)
        sys.stdout.buffer.flush()


def rewrite(raw):
    words = raw.split()
    if (len(words) == 3 and words[0] == b"newgame" and words[1] in (b"oska", b"hexapawn")
            and words[2].isdigit()):
        return b"newgame ctf 99\n"
    if len(words) == 5 and words[:2] == [b"setoption", b"name"] and words[3] == b"value":
        name = words[2].decode("ascii", "replace").lower()
        if name in HIDDEN:
            return b"setoption name NoSuchOption value " + words[4] + b"\n"
        if BROKEN and name == "multipv":
            return b"setoption name MultiPV value 1\n"
    return raw


reader = threading.Thread(target=replies)
reader.start()
engine.stdin.write(b"newgame ctf 5\n")
for line in sys.stdin.buffer:
    try:
        engine.stdin.write(rewrite(line))
    except BrokenPipeError:
        break
engine.stdin.close()
reader.join()
sys.exit(engine.wait())
