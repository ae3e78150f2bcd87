"""Hostile: opens network connections (to a listener of the test on the host's loopback, and to
a public address). Raises with what happened: BLOCKED when every connection failed."""
import socket


def oskaplayer(board, side, depth):
    said = []
    for host, port in [("127.0.0.1", @PORT@), ("1.1.1.1", 53)]:
        try:
            socket.create_connection((host, port), timeout=2).close()
            said.append("ESCAPED: connected to %s:%d" % (host, port))
        except OSError as e:
            said.append("BLOCKED: %s:%d (%s)" % (host, port, e.strerror or e))
    raise RuntimeError("; ".join(said))
