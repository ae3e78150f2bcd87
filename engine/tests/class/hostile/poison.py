"""Hostile: overwrites a compiled driver in the cache of compiled Haskell drivers, and its own
driver script. Raises with what happened: BLOCKED when every write failed."""
import glob
import os

CACHE = "@CACHE@"


def oskaplayer(board, side, depth):
    targets = glob.glob(os.path.join(CACHE, "*", "driver")) or [os.path.join(CACHE, "x", "driver")]
    targets += glob.glob("/sandbox/driver/*")
    said = []
    for path in targets:
        try:
            with open(path, "w") as f:
                f.write("#!/bin/sh\necho poisoned\n")
            said.append("ESCAPED: wrote " + path)
        except OSError as e:
            said.append("BLOCKED: %s (%s)" % (path, e.strerror))
    raise RuntimeError("; ".join(said))
