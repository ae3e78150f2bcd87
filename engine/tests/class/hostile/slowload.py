"""Hostile: sleeps 600 s at load, before it defines its function: the load limit ends it as a
[load] fault, charged to it, every game."""
import time

time.sleep(600)


def oskaplayer(board, side, depth):
    return board
