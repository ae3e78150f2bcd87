"""A protocol engine that fails on purpose, for the client's failure tests.

    fake_engine.py MODE PIDFILE

It does the handshake (one game, ctf 3 to 11, and a MultiPV option), starts a child process in
its own process group (`sleep 300`, whose pid goes to PIDFILE with its own), answers `isready`,
and at the first `go`:

- `crash`: writes a line on standard error and dies by SIGSEGV;
- `exit`: exits with status 3;
- `hang`: stops answering anything (and ignores SIGTERM);
- `garbage`: answers with a malformed `info depth` line.
"""

import os
import signal
import subprocess
import sys
import time

mode, pidfile = sys.argv[1], sys.argv[2]
child = subprocess.Popen(["sleep", "300"])
with open(pidfile, "w") as f:
    f.write(f"{os.getpid()} {child.pid}\n")


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    cmd = words[0]
    if cmd == "uci":
        out("id name fake-" + mode)
        out("game ctf 3 11")
        out("option name MultiPV type spin default 1 min 1 max 384")
        out("uciok")
    elif cmd == "isready":
        out("readyok")
    elif cmd == "quit":
        break
    elif cmd == "go":
        if mode == "crash":
            sys.stderr.write("fake engine: about to crash\n")
            sys.stderr.flush()
            os.kill(os.getpid(), signal.SIGSEGV)
        elif mode == "exit":
            sys.exit(3)
        elif mode == "hang":
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            while True:
                time.sleep(1)
        else:
            out("info depth x score")
            out("bestmove a1a2")
