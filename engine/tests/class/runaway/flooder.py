"""Oska by the seed's interface, with a runaway: it prints for ever (the output limit stops it)."""


def oskaplayer(board, side, depth):
    while True:
        print("thinking very hard " * 50)
