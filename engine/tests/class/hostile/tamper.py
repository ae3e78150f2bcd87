"""Hostile: appends code to another submission's file (first.py, in the same folder) and adds a
file of its own to the folder. Raises with what happened: BLOCKED when every write failed."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def oskaplayer(board, side, depth):
    said = []
    for path, text in [
        (os.path.join(HERE, "first.py"), "\nraise SystemExit('tampered by tamper.py')\n"),
        (os.path.join(HERE, "zz_planted.py"), "def oskaplayer(b, s, d):\n    return b\n"),
    ]:
        try:
            with open(path, "a") as f:
                f.write(text)
            said.append("ESCAPED: wrote " + path)
        except OSError as e:
            said.append("BLOCKED: %s (%s)" % (path, e.strerror))
    raise RuntimeError("; ".join(said))
