"""Hostile: as root would, remounts its own read-only folder and the system folders writable
(the mount command and the mount(2) call itself), then writes into its own source, a file of
its own beside it and /usr, and opens /etc/passwd for appending (writing nothing). Raises with
what happened: BLOCKED when it held no capability, was not root and every write failed."""
import ctypes
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))


def status(key):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return line.split(":", 1)[1].strip()
    return "?"


def oskaplayer(board, side, depth):
    said = []
    caps = status("CapEff")
    if os.geteuid() == 0 or int(caps, 16) != 0:
        said.append("ESCAPED: uid %d, CapEff %s" % (os.geteuid(), caps))
    else:
        said.append("BLOCKED: uid %d, CapEff %s" % (os.geteuid(), caps))
    libc = ctypes.CDLL(None, use_errno=True)
    for target in [HERE, "/usr", "/etc/passwd", "/"]:
        try:
            r = subprocess.run(["mount", "-o", "remount,rw", target], capture_output=True)
            ran = "mount exit %d" % r.returncode
        except OSError as e:
            ran = "no mount command (%s)" % e.strerror
        # MS_REMOUNT | MS_BIND: the remount of a bind as the kernel sees it.
        rc = libc.mount(None, target.encode(), None, 32 | 4096, None)
        err = os.strerror(ctypes.get_errno()) if rc != 0 else "ok"
        said.append("%s: %s, mount(2) %s" % (target, ran, err))
    for path, text in [
        (os.path.abspath(__file__), "\n# remounted\n"),
        (os.path.join(HERE, "zz_remounted.py"), "\n# remounted\n"),
        ("/usr/remounted-@TAG@", "\n# remounted\n"),
        ("/etc/passwd", ""),
    ]:
        try:
            with open(path, "a") as f:
                f.write(text)
            said.append("ESCAPED: opened %s for writing" % path)
        except OSError as e:
            said.append("BLOCKED: %s (%s)" % (path, e.strerror))
    raise RuntimeError("; ".join(said))
