"""Hostile: looks for the teacher's environment (a canary variable, TEACHER_TOKEN) and host
paths in its own environment and every process it can see in /proc (bwrap's own included), and
counts the processes it sees. Raises with what it found: BLOCKED when it found no canary, no
path of the teacher's temporary or cache folder, and no process outside the sandbox."""
import os

CANARY = "canary-@TAG@"
HOST_PATHS = ["@TMP@", "@CACHE@"]


def oskaplayer(board, side, depth):
    said = []
    if CANARY in "".join(os.environ.values()):
        said.append("ESCAPED: the canary is in its environment")
    pids = [p for p in os.listdir("/proc") if p.isdigit()]
    for pid in pids:
        for what in ["environ", "cmdline"]:
            try:
                with open("/proc/%s/%s" % (pid, what), "rb") as f:
                    text = f.read().decode("utf-8", "replace")
            except OSError:
                continue
            if CANARY in text:
                said.append("ESCAPED: the canary in /proc/%s/%s" % (pid, what))
            for path in HOST_PATHS:
                if path in text:
                    said.append("ESCAPED: %s in /proc/%s/%s" % (path, pid, what))
    # The sandbox's init (bwrap), the driver and what it starts: a handful.
    if len(pids) > 8:
        said.append("ESCAPED: sees %d processes" % len(pids))
    if not said:
        said.append("BLOCKED: no canary, no host path, %d processes seen" % len(pids))
    raise RuntimeError("; ".join(said))
