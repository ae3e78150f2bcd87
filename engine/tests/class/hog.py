"""Oska by the seed's interface, with a runaway: it fills memory until the limit stops it."""


def oskaplayer(board, side, depth):
    table = []
    while True:
        table.append(bytearray(64 << 20))
