"""Oska by the seed's interface, with a runaway: it sleeps for ever (the move timeout stops it)."""
import time


def oskaplayer(board, side, depth):
    while True:
        time.sleep(1000)
