"""Oska by the seed's interface, with a bug: its second move raises an exception."""

calls = []


def oskaplayer(board, side, depth):
    calls.append(board)
    if len(calls) >= 2:
        return board[len(board)]  # IndexError: list index out of range
    from first import oskaplayer as first
    return first(board, side, depth)
