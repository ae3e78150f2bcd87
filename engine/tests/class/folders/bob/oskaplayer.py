"""Bob's Oska player: the same file name as Alice's; the first move of his own generator."""
from OskaBoard import movegen


def oskaplayer(board, side, depth):
    moves = movegen(board, side)
    return moves[0] if moves else board
