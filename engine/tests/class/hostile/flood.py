"""Hostile: floods its standard output (200 MB)."""
import sys


def oskaplayer(board, side, depth):
    line = "flood " * 1000 + "\n"
    for _ in range(200 * 1000 * 1000 // len(line)):
        sys.stdout.write(line)
    return board
