"""Alice's Oska player: the first legal move of her helper module's generator."""
from OskaBoard import movegen


def oskaplayer(board, side, depth):
    moves = movegen(board, side)
    return moves[0] if moves else board
