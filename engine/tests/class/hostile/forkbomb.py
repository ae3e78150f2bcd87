"""Hostile: a bounded fork bomb: up to 200 children that sleep, started as fast as it can. When
a fork is refused it says how many children it had on its standard error and waits."""
import os
import sys
import time


def oskaplayer(board, side, depth):
    children = 0
    while children < 200:
        try:
            pid = os.fork()
        except OSError as e:
            sys.stderr.write("fork refused after %d children (%s)\n" % (children, e.strerror))
            sys.stderr.flush()
            break
        if pid == 0:
            time.sleep(1000)
            os._exit(0)
        children += 1
    time.sleep(1000)
