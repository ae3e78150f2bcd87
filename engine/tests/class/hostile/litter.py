"""Hostile: writes files outside its scratch folder (its own folder, /tmp, /var/tmp, /root, the
home folder, /etc, /usr, the driver's folder). Raises with what happened: BLOCKED when every
write failed."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
NAME = "litter-@TAG@.txt"


def oskaplayer(board, side, depth):
    said = []
    for folder in [HERE, "/tmp", "/var/tmp", "/root", "@HOME@", "/etc", "/usr", "/sandbox/driver"]:
        path = os.path.join(folder, NAME)
        try:
            with open(path, "w") as f:
                f.write("litter\n")
            said.append("ESCAPED: wrote " + path)
        except OSError as e:
            said.append("BLOCKED: %s (%s)" % (path, e.strerror))
    raise RuntimeError("; ".join(said))
