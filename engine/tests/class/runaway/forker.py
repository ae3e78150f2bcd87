"""Oska by the seed's interface, with a runaway: it starts processes without end, each of which
sleeps (the process limit stops it; RLIMIT_NPROC too where the kernel applies it)."""
import os
import time


def oskaplayer(board, side, depth):
    while True:
        try:
            if os.fork() == 0:
                time.sleep(1000)
                os._exit(0)
        except OSError:
            time.sleep(0.01)
