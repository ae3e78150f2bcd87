"""Hostile: fills its scratch folder (HOME, TMPDIR, the working directory) with files of 8 MiB
until a write fails, then /dev/shm and /dev. Raises with what happened: BLOCKED when the
scratch was full after at most 64 MiB and /dev/shm and /dev took nothing."""
import os

MIB = 1 << 20


def fill(folder, limit):
    written = 0
    block = b"x" * MIB
    try:
        for i in range(limit // 8):
            with open(os.path.join(folder, "fill-%d" % i), "wb") as f:
                for _ in range(8):
                    f.write(block)
                    written += MIB
        return written, "no error"
    except OSError as e:
        return written, e.strerror


def oskaplayer(board, side, depth):
    said = []
    written, why = fill(os.environ.get("TMPDIR", "/tmp"), 1024)
    if written > 64 * MIB:
        said.append("ESCAPED: wrote %d MiB to its scratch (%s)" % (written // MIB, why))
    else:
        said.append("BLOCKED: scratch full after %d MiB (%s)" % (written // MIB, why))
    for folder in ["/dev/shm", "/dev"]:
        written, why = fill(folder, 16)
        if written > 0:
            said.append("ESCAPED: wrote %d MiB to %s" % (written // MIB, folder))
        else:
            said.append("BLOCKED: %s (%s)" % (folder, why))
    raise RuntimeError("; ".join(said))
