"""Hostile: reads the other submissions' sources from its folder. Raises with what it found:
BLOCKED when it saw no other file."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def oskaplayer(board, side, depth):
    seen = sorted(n for n in os.listdir(HERE) if n != os.path.basename(__file__))
    try:
        with open(os.path.join(HERE, "greedy.py")) as f:
            text = f.read()
        read = "ESCAPED: read greedy.py (%d bytes)" % len(text)
    except OSError as e:
        read = "BLOCKED: greedy.py (%s)" % e.strerror
    if seen:
        raise RuntimeError("ESCAPED: saw %s; %s" % (seen, read))
    raise RuntimeError("BLOCKED: saw no other file; " + read)
