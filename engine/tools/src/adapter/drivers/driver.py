# The board-call adapter's Python driver: loads a submission once, then calls its function for
# every request. Requests come on standard input, one a line: GAME, BOARD (a Python literal),
# SIDE, DEPTH and SIZE separated by tabs. Answers go to file descriptor 3, one a line:
# "ready" once the file is loaded, then "=" and the repr of the return value, or "!" and the
# exception. Whatever the function prints goes to standard output and error, apart from them.
import ast
import importlib.machinery
import importlib.util
import os
import sys
import traceback

answers = os.fdopen(3, "w")
requests = os.fdopen(os.dup(0), "r")
null = os.open(os.devnull, os.O_RDONLY)
os.dup2(null, 0)
sys.stdin = open(os.devnull)


def one_line(text):
    return " ".join(str(text).split())[:600]


def failure(e):
    frames = traceback.extract_tb(e.__traceback__)
    where = ""
    if frames:
        f = frames[-1]
        where = " (%s, line %s, in %s)" % (os.path.basename(f.filename), f.lineno, f.name)
    return one_line("%s: %s%s" % (type(e).__name__, e, where))


def answer(text):
    answers.write(text + "\n")
    answers.flush()


path, name = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.dirname(path))
try:
    # The loader named, so that a file of any name loads (a class manifest may name one).
    loader = importlib.machinery.SourceFileLoader("submission", path)
    spec = importlib.util.spec_from_file_location("submission", path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    function = getattr(module, name)
except BaseException as e:
    traceback.print_exc()
    answer("!" + failure(e))
    sys.exit(1)
answer("ready")
for request in requests:
    game, board, side, depth, size = request.rstrip("\n").split("\t")
    board, depth, size = ast.literal_eval(board), int(depth), int(size)
    if game == "hexapawn":
        args = (board, size, side, depth)
    else:
        args = (board, side, depth)
    try:
        result = function(*args)
        sys.stdout.flush()
        answer("=" + one_line(repr(result)))
    except BaseException as e:
        traceback.print_exc()
        sys.stderr.flush()
        answer("!" + failure(e))
