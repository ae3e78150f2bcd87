"""Drive any protocol engine (protocol.md) by position, in the shape of python-chess's
``chess.engine``: an asyncio protocol class underneath (:class:`EngineProtocol`, over
``asyncio.create_subprocess_exec``) and :class:`SimpleEngine`, a blocking wrapper that runs the
event loop in a background thread.

::

    from boardgames import Position
    from boardgames.engine import SimpleEngine, Limit

    with SimpleEngine.popen("engine") as engine:
        result = engine.play(Position.start("oska", 4), Limit(depth=4))
        print(result.move, result.info["score"].relative)

``newgame`` is sent only when the game or the size changes; every ``setoption``, ``newgame``
and ``position`` is checked with ``isready``, so a refusal is an :class:`EngineError` carrying
the engine's error code. One timeout per engine (``timeout``, 10 s by default) bounds every
answer, beyond a search's own time. An engine that exits gives :class:`EngineTerminatedError`;
one that does not answer in time gives :class:`TimeoutError` (also a builtin ``TimeoutError``)
and is killed. A call cancelled while the engine works (``asyncio.wait_for`` timing out, a task
cancelled) sends ``stop`` when a search runs, and the next call first reads what the engine still
owes (the ``bestmove``, a ``readyok``), so it works at once. The engine runs in a process group (a session) of its own, and whenever it ends
(``quit``, a crash, a timeout) the whole group is killed and the process reaped: nothing it
started is left running.
"""

from __future__ import annotations

import asyncio
import builtins
import collections
import concurrent.futures
import os
import signal
import threading
from dataclasses import dataclass, field
from typing import (
    TYPE_CHECKING,
    Any,
    AsyncIterator,
    Coroutine,
    Deque,
    Dict,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    TypedDict,
    TypeVar,
    Union,
    overload,
)

from . import _native
from .score import WHITE, Color, PovScore, Score


if TYPE_CHECKING:
    from ._native import Position

__all__ = [
    "EngineError",
    "EngineTerminatedError",
    "TimeoutError",
    "AnalysisComplete",
    "Limit",
    "Option",
    "PlayResult",
    "InfoDict",
    "Options",
    "EngineProtocol",
    "AnalysisResult",
    "SimpleEngine",
    "SimpleAnalysisResult",
    "popen",
    "DEFAULT_TIMEOUT",
]

DEFAULT_TIMEOUT = 10.0
"""Seconds an engine may take to answer anything, beyond a search's own time."""



class InfoDict(TypedDict, total=False):
    """One ``info`` line as a dict, read by the core's protocol parser (``parse_reply`` of the
    native module). From ``info depth``: ``depth``, ``score`` (:class:`PovScore`), ``nodes``,
    ``nps``, ``time`` (seconds), ``pv`` (list of moves), and ``multipv``, ``tbhits`` when given
    (``analyse`` with ``multipv`` gives every line its ``multipv``). From a progress line:
    ``nodes``, ``nps``, ``time``, and ``stage``, ``root`` (done, total), ``bound``
    (:class:`PovScore`) when given. ``info string TEXT``: ``string``; ``info trace TEXT``:
    ``trace``; an engine's own kind of info: ``other`` (its text)."""

    depth: int
    multipv: int
    score: PovScore
    nodes: int
    nps: int
    time: float
    tbhits: int
    pv: List[str]
    stage: str
    root: Tuple[int, int]
    bound: PovScore
    string: str
    trace: str
    other: str

Command = Union[str, Sequence[str]]

_T = TypeVar("_T")


class EngineError(RuntimeError):
    """The engine refused a command (``code`` is its error code, ``command`` the command), has
    no such option, or broke the protocol; or a call cannot be made as asked."""

    def __init__(self, message: str, *, code: Optional[str] = None, command: Optional[str] = None):
        super().__init__(message)
        self.code = code
        self.command = command


class EngineTerminatedError(EngineError):
    """The engine process has exited (crashed, or was ended by ``quit`` or a timeout)."""


class TimeoutError(EngineError, builtins.TimeoutError):  # noqa: A001 - as python-chess's
    """The engine did not answer within its timeout; it has been killed."""


class AnalysisComplete(Exception):
    """Raised by :meth:`AnalysisResult.get` when the search has ended and every info line has
    been read."""


def _ms(seconds: float, what: str) -> int:
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds < 0:
        raise ValueError(f"Limit: {what} is a number of seconds of at least 0, not {seconds!r}")
    return int(round(seconds * 1000))


@dataclass
class Limit:
    """How long a search may go: one of the protocol's ``go`` limits.

    Give exactly one of ``depth`` (plies), ``nodes`` or ``time`` (seconds, ``go movetime``), or a
    clock: ``white_clock`` and ``black_clock`` (seconds left; both), with ``white_inc``,
    ``black_inc`` (seconds a move) and ``remaining_moves`` (moves to the next time control)
    optional. The protocol takes one limit per ``go``, so combining them raises ValueError. An
    empty ``Limit()`` searches until stopped (``go infinite``: only for
    :meth:`EngineProtocol.analysis`).
    """

    depth: Optional[int] = None
    nodes: Optional[int] = None
    time: Optional[float] = None
    white_clock: Optional[float] = None
    black_clock: Optional[float] = None
    white_inc: Optional[float] = None
    black_inc: Optional[float] = None
    remaining_moves: Optional[int] = None

    def go(self) -> str:
        """The ``go`` command of this limit (ValueError when it is not one limit)."""
        clock = [self.white_clock, self.black_clock, self.white_inc, self.black_inc, self.remaining_moves]
        plain = {"depth": self.depth, "nodes": self.nodes, "time": self.time}
        given = [name for name, value in plain.items() if value is not None]
        has_clock = any(v is not None for v in clock)
        if len(given) + has_clock > 1:
            parts = given + (["a clock"] if has_clock else [])
            raise ValueError(
                f"Limit: the protocol takes one limit per go, not {' and '.join(parts)}"
            )
        for name in ("depth", "nodes", "remaining_moves"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ValueError(f"Limit: {name} is a whole number of at least 1, not {value!r}")
        if self.depth is not None:
            return f"go depth {self.depth}"
        if self.nodes is not None:
            return f"go nodes {self.nodes}"
        if self.time is not None:
            return f"go movetime {max(1, _ms(self.time, 'time'))}"
        if has_clock:
            if self.white_clock is None or self.black_clock is None:
                raise ValueError("Limit: a clock needs both white_clock and black_clock")
            words = [
                f"go wtime {_ms(self.white_clock, 'white_clock')}",
                f"btime {_ms(self.black_clock, 'black_clock')}",
            ]
            if self.white_inc is not None:
                words.append(f"winc {_ms(self.white_inc, 'white_inc')}")
            if self.black_inc is not None:
                words.append(f"binc {_ms(self.black_inc, 'black_inc')}")
            if self.remaining_moves is not None:
                words.append(f"movestogo {self.remaining_moves}")
            return " ".join(words)
        return "go infinite"

    @property
    def is_infinite(self) -> bool:
        """Whether this limit never ends a search by itself."""
        return self.go() == "go infinite"

    def own_time(self) -> float:
        """Seconds the search itself may take: the move time or the larger clock."""
        if self.time is not None:
            return float(self.time)
        if self.white_clock is not None or self.black_clock is not None:
            return float(max(self.white_clock or 0, self.black_clock or 0))
        return 0.0


@dataclass(frozen=True)
class Option:
    """An option an engine declares after ``uci``: its ``name``, ``type`` (spin, check, combo,
    string), ``default``, ``min`` and ``max`` (spin), and ``var`` (a combo's values)."""

    name: str
    type: str
    default: Optional[str]
    min: Optional[int] = None
    max: Optional[int] = None
    var: Tuple[str, ...] = ()


@dataclass
class PlayResult:
    """What :meth:`EngineProtocol.play` found: ``move`` (None for ``bestmove none``, the game
    being over), ``ponder`` (the reply the engine expects), ``info`` (the last ``info depth``
    line), and ``result`` (the ``result`` line of a finished game, e.g. ``white far-row``)."""

    move: Optional[str]
    ponder: Optional[str] = None
    info: InfoDict = field(default_factory=lambda: InfoDict())
    result: Optional[str] = None


def parse_info(words: List[str], turn: Color = WHITE) -> InfoDict:
    """The dict of one ``info`` line's words after ``info`` (see :data:`InfoDict`), read by the
    core's protocol parser; scores are seen from ``turn``, the side to move of the searched
    position. An ``info`` line that does not fit the protocol raises EngineError."""
    if not words:
        return {}
    line = "info " + " ".join(words)
    try:
        kind, fields = _native.parse_reply(line)
    except ValueError as e:
        raise EngineError(f"a malformed info line: {line!r} ({e})") from None
    info: InfoDict = {}
    for key, value in fields.items():
        if key in ("score", "bound"):
            info[key] = PovScore(Score.parse(value), turn)  # type: ignore[literal-required]
        elif key == "time":
            info["time"] = value / 1000.0
        elif key == "root":
            info["root"] = (value[0], value[1])
        else:
            info[key] = value  # type: ignore[literal-required]
    return info


def _seconds(value: float) -> str:
    """Seconds as a person reads them: ``1.0 s``, ``0.25 s`` (not ``0.999999 s``)."""
    return f"{round(value, 3)} s"


def _argv(command: Command) -> List[str]:
    if isinstance(command, str):
        return [command]
    argv = [os.fspath(a) for a in command]
    if not argv:
        raise ValueError("the engine command is empty")
    return argv


def _position_of(position: "Position") -> Tuple[str, int, str]:
    try:
        return position.game, int(position.size), position.command()
    except AttributeError:
        raise TypeError(
            f"expected a boardgames.Position, not {type(position).__name__}"
        ) from None


def _turn(position: "Position") -> Color:
    return bool(getattr(position, "turn", WHITE))


class Options(Mapping[str, Option]):
    """The options an engine declares, by name in any case (``options["Hash"]``,
    ``options["hash"]``); iterating gives the names as the engine declared them."""

    def __init__(self) -> None:
        self._by_lower: Dict[str, Option] = {}

    def _add(self, option: Option) -> None:
        self._by_lower[option.name.lower()] = option

    def __getitem__(self, name: str) -> Option:
        return self._by_lower[name.lower()]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self._by_lower

    def __iter__(self) -> Iterator[str]:
        return iter([o.name for o in self._by_lower.values()])

    def __len__(self) -> int:
        return len(self._by_lower)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    def __repr__(self) -> str:
        return f"Options({dict(self.items())!r})"


class EngineProtocol:
    """One engine process spoken to by the protocol, with asyncio.

    Made by :meth:`popen` (or the module's :func:`popen`), which does the ``uci`` handshake.
    Calls are serialised: one command at a time. :attr:`id`, :attr:`games` and :attr:`options`
    hold what the engine declared.
    """

    def __init__(self, process: asyncio.subprocess.Process, argv: List[str], timeout: float):
        self.process = process
        self.argv = argv
        self.timeout = timeout
        self.id: Dict[str, str] = {}
        self.games: Dict[str, Tuple[int, int]] = {}
        self.options = Options()
        self._lines: "asyncio.Queue[Optional[str]]" = asyncio.Queue()
        self._stderr: Deque[str] = collections.deque(maxlen=20)
        self._lock = asyncio.Lock()
        self._game: Optional[Tuple[str, int]] = None
        self._multipv = 1
        self._analysis: Optional[AnalysisResult] = None
        self._terminated: Optional[str] = None
        # Replies a cancelled call left owed ("readyok", "bestmove"), read by the next call.
        self._owed: List[str] = []
        # The MultiPV a cancelled analyse left to restore.
        self._multipv_after: Optional[int] = None
        self._readers = [
            asyncio.ensure_future(self._read_stdout()),
            asyncio.ensure_future(self._read_stderr()),
        ]

    @classmethod
    async def popen(
        cls,
        command: Command,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        cwd: Optional[str] = None,
        env: Optional[Mapping[str, str]] = None,
    ) -> "EngineProtocol":
        """Starts ``command`` (a program path, or a list: program and arguments; no shell) in a
        session of its own and does the handshake. ``timeout`` (seconds) bounds the handshake
        and every later answer. A program that does not exist raises FileNotFoundError; one that
        cannot be started otherwise, EngineTerminatedError.
        """
        argv = _argv(command)
        try:
            process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                cwd=cwd,
                env=dict(env) if env is not None else None,
                start_new_session=True,
            )
        except FileNotFoundError as e:
            raise FileNotFoundError(
                e.errno, f"cannot start {argv[0]!r}: no such program", argv[0]
            ) from None
        except OSError as e:
            raise EngineTerminatedError(f"cannot start {argv[0]!r}: {e}") from None
        engine = cls(process, argv, timeout)
        try:
            await engine._handshake()
        except BaseException:
            await engine._kill()
            raise
        return engine

    # -- the process -------------------------------------------------------------------------

    async def _read_stdout(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        try:
            while True:
                try:
                    raw = await stdout.readline()
                except ValueError:  # a line over the stream's limit
                    raw = b"info string (a line too long for the client was dropped)\n"
                if not raw:
                    break
                self._lines.put_nowait(raw.decode("utf-8", "replace").rstrip("\r\n"))
        finally:
            self._lines.put_nowait(None)

    async def _read_stderr(self) -> None:
        stderr = self.process.stderr
        assert stderr is not None
        while True:
            try:
                raw = await stderr.readline()
            except ValueError:
                continue
            if not raw:
                return
            text = raw.decode("utf-8", "replace").strip()
            if text:
                self._stderr.append(text)

    @property
    def transport(self) -> asyncio.SubprocessTransport:
        """The asyncio transport of the engine's process."""
        transport: asyncio.SubprocessTransport = getattr(self.process, "_transport")
        return transport

    @property
    def pid(self) -> int:
        """The engine's process id, which is also its process group's."""
        return self.process.pid

    @property
    def returncode(self) -> Optional[int]:
        """The exit status once the engine has exited (negative: killed by that signal)."""
        return self.process.returncode

    def stderr_tail(self) -> List[str]:
        """The last lines the engine wrote on standard error."""
        return list(self._stderr)

    def _kill_group(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    async def _kill(self) -> None:
        """Kills the engine's process group and reaps the engine."""
        self._kill_group()
        try:
            await asyncio.wait_for(self.process.wait(), 5)
        except asyncio.TimeoutError:
            pass
        for reader in self._readers:
            reader.cancel()
        # Close the pipes now, not when the loop is gone (asyncio keeps no public close()).
        transport = getattr(self.process, "_transport", None)
        if transport is not None:
            transport.close()
        if self._terminated is None:
            self._terminated = "the engine was killed"

    def _exit_text(self) -> str:
        code = self.process.returncode
        if code is None:
            what = "its output ended"
        elif code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            what = f"it was killed by {name}"
        else:
            what = f"exit status {code}"
        tail = " | ".join(self._stderr)
        if tail:
            what += f"; its standard error ends: {tail[-400:]!r}"
        return what

    async def _ended(self, doing: str) -> EngineTerminatedError:
        try:
            await asyncio.wait_for(self.process.wait(), 1)
        except asyncio.TimeoutError:
            pass
        # Let the stderr reader take what is left.
        await asyncio.sleep(0)
        what = self._exit_text()
        await self._kill()
        self._terminated = f"the engine exited ({what})"
        return EngineTerminatedError(f"the engine exited while {doing} ({what})")

    def _check_alive(self) -> None:
        if self._terminated is not None:
            raise EngineTerminatedError(self._terminated)

    def _send(self, line: str) -> None:
        self._check_alive()
        stdin = self.process.stdin
        assert stdin is not None
        if stdin.is_closing():
            # The engine has gone: the read that follows every command reports how it ended
            # (its exit status and standard error), which says more than a closed pipe.
            return
        stdin.write((line + "\n").encode())

    async def _send_flush(self, line: str, doing: str) -> None:
        self._send(line)
        await self._drain(doing)

    async def _recv(self, within: Optional[float], doing: str, shown: Optional[float] = None) -> str:
        """The next line; ``within`` seconds at most (None: no limit). The engine's exit ends
        the wait even when a process it started still holds its output open."""
        self._check_alive()
        loop = asyncio.get_running_loop()
        deadline = None if within is None else loop.time() + within
        line: Optional[str]
        while True:
            if not self._lines.empty():
                line = self._lines.get_nowait()
                break
            if self.process.returncode is not None:
                # It has exited: what it wrote last may still be on its way.
                try:
                    line = await asyncio.wait_for(self._lines.get(), 0.2)
                except asyncio.TimeoutError:
                    line = None
                break
            step = 0.1
            if deadline is not None:
                step = min(step, deadline - loop.time())
                if step <= 0:
                    await self._kill()
                    limit = _seconds(shown if shown is not None else (within or 0.0))
                    self._terminated = f"the engine was killed after not answering within {limit}"
                    raise TimeoutError(
                        f"the engine did not answer within {limit} while {doing}; it was killed"
                    )
            try:
                line = await asyncio.wait_for(self._lines.get(), step)
                break
            except asyncio.TimeoutError:
                continue
        if line is None:
            raise await self._ended(doing)
        return line

    # -- protocol steps ----------------------------------------------------------------------

    async def _handshake(self) -> None:
        await self._send_flush("uci", "starting (uci)")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        while True:
            line = await self._recv(
                max(0.0, deadline - loop.time()), "starting (waiting for uciok)", self.timeout
            )
            if not line.split():
                continue
            try:
                kind, fields = _native.parse_reply(line)
            except ValueError:
                # What does not fit the protocol before uciok is passed over, as a GUI does.
                continue
            if kind == "uciok":
                break
            if kind == "id":
                self.id[fields["key"]] = fields["value"]
            elif kind == "game":
                self.games[fields["game"]] = (fields["min"], fields["max"])
            elif kind == "option":
                self.options._add(_option_of(fields))
        if not self.games:
            raise EngineError("the engine declared no game ('game NAME MIN MAX' after 'uci')")
        multipv = self.options.get("multipv")
        if multipv is not None and multipv.default and multipv.default.isdigit():
            self._multipv = int(multipv.default)

    async def _checked(self, command: str) -> None:
        """Sends ``command`` (which has no reply on success), then ``isready``; an ``error``
        before ``readyok`` is an EngineError with its code."""
        self._send(command)
        self._send("isready")
        refused: Optional[EngineError] = None
        try:
            await self._drain(f"sending {command!r}")
            while True:
                line = await self._recv(self.timeout, f"waiting for readyok after {command!r}")
                words = line.split()
                if not words or words[0] == "info":
                    continue
                if words[0] == "readyok":
                    break
                if words[0] == "error" and refused is None:
                    code = words[1] if len(words) > 1 else ""
                    refused = EngineError(
                        f"the engine refused {command!r}: {' '.join(words[1:])}",
                        code=code,
                        command=command,
                    )
                elif refused is None:
                    refused = EngineError(
                        f"the engine answered {line!r} to {command!r}, which has no reply",
                        command=command,
                    )
        except asyncio.CancelledError:
            # The readyok is still to come: the next call reads it first.
            self._owed.append("readyok")
            raise
        if refused is not None:
            raise refused

    async def _drain(self, doing: str) -> None:
        """Waits until what was sent has gone to the engine."""
        stdin = self.process.stdin
        assert stdin is not None
        try:
            await stdin.drain()
        except (ConnectionError, BrokenPipeError):
            raise await self._ended(doing) from None

    async def _settle(self) -> None:
        """Reads the replies a cancelled call left owed (a search it started was sent
        ``stop``), and ends an analysis left running."""
        while self._owed:
            awaited = self._owed[0]
            while True:
                line = await self._recv(self.timeout, f"reading the {awaited!r} a cancelled call left owed")
                words = line.split()
                if words and words[0] == awaited:
                    break
            self._owed.pop(0)
        if self._multipv_after is not None:
            restore, self._multipv_after = self._multipv_after, None
            await self._configure({"MultiPV": restore})
        analysis = self._analysis
        if analysis is not None and not analysis._done:
            analysis.stop()
            await analysis._finish()
        self._analysis = None

    async def ping(self) -> None:
        """Sends ``isready`` and waits for ``readyok``."""
        async with self._lock:
            await self._settle()
            await self._checked("isready")

    async def configure(self, options: Mapping[str, Any]) -> None:
        """Sets options, in order: ``{"Hash": 64, "Evaluator": "material"}``. True and False
        become ``true`` and ``false``, None and ``""`` the empty value ``<empty>``. An option
        the engine does not declare, or a value it refuses, raises EngineError (the options
        before it are set)."""
        async with self._lock:
            await self._settle()
            await self._configure(options)

    async def _configure(self, options: Mapping[str, Any]) -> None:
        for name, value in options.items():
            declared = self.options.get(str(name).lower())
            if declared is None:
                known = ", ".join(o.name for o in self.options.values()) or "none"
                raise EngineError(f"the engine has no option {name!r} (its options: {known})")
            if value is True or value is False:
                text = "true" if value else "false"
            elif value is None or value == "":
                text = "<empty>"
            else:
                text = str(value)
            if not text or any(c.isspace() for c in text):
                raise ValueError(f"an option value is one word, not {text!r}")
            await self._checked(f"setoption name {declared.name} value {text}")
            if declared.name.lower() == "multipv" and text.isdigit():
                self._multipv = int(text)

    async def _set_position(self, position: "Position") -> None:
        game, size, command = _position_of(position)
        if game not in self.games:
            raise EngineError(f"the engine does not play {game} (it plays {', '.join(self.games)})")
        if self._game != (game, size):
            self._game = None
            await self._checked(f"newgame {game} {size}")
            self._game = (game, size)
        await self._checked(command)

    async def _search(self, limit: Limit, turn: Color) -> Tuple[str, List[InfoDict], Optional[str]]:
        """Runs ``go`` and reads up to ``bestmove``: (the move word, the info dicts, the result
        line). Cancelled meanwhile, it sends ``stop`` and leaves the ``bestmove`` owed."""
        go = limit.go()
        self._send(go)
        within = self.timeout + limit.own_time()
        infos: List[InfoDict] = []
        result = None
        try:
            await self._drain(f"sending {go!r}")
            while True:
                line = await self._recv(within, f"searching ({go!r})")
                words = line.split()
                if not words:
                    continue
                if words[0] == "bestmove" and len(words) >= 2:
                    return words[1], infos, result
                if words[0] == "info":
                    infos.append(parse_info(words[1:], turn))
                elif words[0] == "result" and len(words) >= 2:
                    result = " ".join(words[1:]) if words[1] != "none" else None
                elif words[0] == "error":
                    raise EngineError(
                        f"the engine refused {go!r}: {' '.join(words[1:])}",
                        code=words[1] if len(words) > 1 else "",
                        command=go,
                    )
        except asyncio.CancelledError:
            try:
                self._send("stop")
                self._owed.append("bestmove")
            except EngineError:
                pass
            raise

    async def play(self, position: "Position", limit: Limit) -> PlayResult:
        """Searches ``position`` (a :class:`boardgames.Position`) within ``limit`` and returns
        the move: :class:`PlayResult`."""
        if limit.is_infinite:
            raise EngineError("play needs a limit that ends; use analysis for an infinite search")
        async with self._lock:
            await self._settle()
            await self._set_position(position)
            best, infos, result = await self._search(limit, _turn(position))
        return _play_result(best, infos, result)

    @overload
    async def analyse(self, position: "Position", limit: Limit) -> InfoDict: ...
    @overload
    async def analyse(self, position: "Position", limit: Limit, *, multipv: int) -> List[InfoDict]: ...

    async def analyse(
        self, position: "Position", limit: Limit, *, multipv: Optional[int] = None
    ) -> Union[InfoDict, List[InfoDict]]:
        """Searches ``position`` within ``limit`` and returns the last ``info depth`` line: one
        :data:`InfoDict` (``score``, ``pv``, ``depth``, ``nodes``, ``nps``, ``time``), or with
        ``multipv`` a list of one per line, best first, each with its ``multipv`` (as
        python-chess's). ``MultiPV`` is set for the search and restored after."""
        lines = multipv if multipv is not None else 1
        if isinstance(lines, bool) or not isinstance(lines, int) or lines < 1:
            raise ValueError(f"multipv is a whole number of at least 1, not {multipv!r}")
        if limit.is_infinite:
            raise EngineError("analyse needs a limit that ends; use analysis for an infinite search")
        async with self._lock:
            await self._settle()
            before = self._multipv
            if lines != before:
                await self._configure({"MultiPV": lines})
            try:
                await self._set_position(position)
                _, infos, _ = await self._search(limit, _turn(position))
            finally:
                if lines != before and self._terminated is None:
                    if self._owed:
                        # Cancelled: the next call restores it, after the owed replies.
                        self._multipv_after = before
                    else:
                        await self._configure({"MultiPV": before})
        found: Dict[int, InfoDict] = {}
        for info in infos:
            if "depth" in info and "score" in info:
                found[info.get("multipv", 1)] = info
        if multipv is None:
            return found.get(1, {})
        for k, info in found.items():
            info["multipv"] = k
        return [found[k] for k in sorted(found)]

    async def analysis(self, position: "Position", limit: Optional[Limit] = None) -> "AnalysisResult":
        """Starts a search of ``position`` (until stopped when ``limit`` is None) and returns it
        as an :class:`AnalysisResult`: its info dicts one by one, and ``stop()``; a context
        manager (``with await engine.analysis(...)`` or ``async with``) that stops it at the
        end. A search left running is stopped by the next call on this engine."""
        limit = limit or Limit()
        async with self._lock:
            await self._settle()
            await self._set_position(position)
            go = limit.go()
            await self._send_flush(go, f"sending {go!r}")
            self._analysis = AnalysisResult(self, limit, go, _turn(position))
            return self._analysis

    async def quit(self) -> Optional[int]:
        """Sends ``quit`` and waits (up to the timeout) for the engine to exit, then kills its
        process group; returns the exit status. Calling it again does nothing."""
        if self._terminated is not None and self.process.returncode is not None:
            self._kill_group()
            return self.process.returncode
        async with self._lock:
            try:
                self._send("quit")
                stdin = self.process.stdin
                if stdin is not None:
                    stdin.close()
            except (EngineTerminatedError, ConnectionError, BrokenPipeError):
                pass
            try:
                await asyncio.wait_for(self.process.wait(), self.timeout)
            except asyncio.TimeoutError:
                pass
            await self._kill()
            self._terminated = "the engine has quit"
            return self.process.returncode


def _option_of(fields: Dict[str, Any]) -> Option:
    """An :class:`Option` from the fields of an ``option`` line the core read."""
    return Option(
        name=fields["name"],
        type=fields["type"],
        default=fields["default"],
        min=fields["min"],
        max=fields["max"],
        var=tuple(fields["var"]),
    )


def _play_result(best: str, infos: List[InfoDict], result: Optional[str]) -> PlayResult:
    lines = [i for i in infos if "depth" in i and i.get("multipv", 1) == 1]
    move = None if best == "none" else best
    ponder = None
    for info in reversed(lines):
        pv = info.get("pv", [])
        if pv and pv[0] == move:
            ponder = pv[1] if len(pv) > 1 else None
            break
    return PlayResult(move=move, ponder=ponder, info=lines[-1] if lines else {}, result=result)


class AnalysisResult:
    """A running search of :meth:`EngineProtocol.analysis`: iterate (``async for``) or
    :meth:`get` its info dicts; :meth:`stop` ends it; :meth:`wait` gives its
    :class:`PlayResult`. :attr:`info` is the last ``info depth`` line of line 1, and
    :attr:`multipv` the last of each line."""

    def __init__(self, protocol: EngineProtocol, limit: Limit, go: str, turn: Color = WHITE):
        self._protocol = protocol
        self._turn = turn
        self._limit = limit
        self._go = go
        self._pending: Deque[InfoDict] = collections.deque()
        self._infos: List[InfoDict] = []
        self._lines: Dict[int, InfoDict] = {}
        self._done = False
        self._stopped = False
        self._best: Optional[PlayResult] = None
        self._result: Optional[str] = None
        self._error: Optional[BaseException] = None

    @property
    def info(self) -> InfoDict:
        """The last ``info depth`` line of the best line (empty before the first)."""
        return self._lines.get(1, {})

    @property
    def multipv(self) -> List[InfoDict]:
        """The last ``info depth`` line of each line, best first."""
        return [self._lines[k] for k in sorted(self._lines)]

    def stop(self) -> None:
        """Asks the engine to stop (``stop``); the info lines already sent can still be read,
        then iteration ends. Must be called in the event loop's thread."""
        if not self._done and not self._stopped:
            self._stopped = True
            try:
                self._protocol._send("stop")
            except EngineError:
                pass

    async def _step(self) -> bool:
        """Reads one line into the pending infos; False once the search has ended."""
        if self._done:
            return False
        within: Optional[float] = None
        if self._stopped:
            within = self._protocol.timeout
        elif not self._limit.is_infinite:
            within = self._protocol.timeout + self._limit.own_time()
        try:
            line = await self._protocol._recv(within, f"analysing ({self._go!r})")
        except BaseException as e:
            self._done = True
            self._error = e
            raise
        words = line.split()
        if not words:
            return True
        if words[0] == "bestmove":
            self._done = True
            self._best = _play_result(words[1] if len(words) > 1 else "none", self._infos, self._result)
            return False
        if words[0] == "info":
            info = parse_info(words[1:], self._turn)
            self._infos.append(info)
            if "depth" in info and "score" in info:
                self._lines[info.get("multipv", 1)] = info
            self._pending.append(info)
        elif words[0] == "result" and len(words) > 1 and words[1] != "none":
            self._result = " ".join(words[1:])
        elif words[0] == "error":
            self._done = True
            self._error = EngineError(f"the engine refused {self._go!r}: {' '.join(words[1:])}", code=words[1] if len(words) > 1 else "", command=self._go)
            raise self._error
        return True

    async def get(self) -> InfoDict:
        """The next info dict; AnalysisComplete once the search has ended and all are read."""
        while not self._pending:
            if not await self._step():
                raise AnalysisComplete()
        return self._pending.popleft()

    async def _finish(self) -> None:
        while await self._step():
            pass

    async def wait(self) -> PlayResult:
        """Waits for the search to end (it must end by itself or be stopped) and returns its
        result."""
        await self._finish()
        if self._best is None:
            if self._error is not None:
                raise self._error
            raise EngineError("the analysis ended without a bestmove")
        return self._best

    def would_block(self) -> bool:
        """Whether :meth:`get` would have to wait for the engine."""
        return not self._pending and not self._done

    def __aiter__(self) -> AsyncIterator[InfoDict]:
        return self

    def __enter__(self) -> "AnalysisResult":
        return self

    def __exit__(self, *exc: object) -> None:
        """Stops the search (the next call on the engine reads what is left)."""
        self.stop()

    async def __aenter__(self) -> "AnalysisResult":
        return self

    async def __aexit__(self, *exc: object) -> None:
        """Stops the search and reads it to its ``bestmove``."""
        self.stop()
        if not self._done:
            try:
                await self._finish()
            except EngineError:
                pass

    async def __anext__(self) -> InfoDict:
        try:
            return await self.get()
        except AnalysisComplete:
            raise StopAsyncIteration from None


async def popen(
    command: Command, *, timeout: float = DEFAULT_TIMEOUT, **kwargs: Any
) -> Tuple[asyncio.SubprocessTransport, EngineProtocol]:
    """Starts an engine for the asyncio API, as python-chess's ``popen_uci``:
    ``transport, engine = await popen("engine")``. The transport is the engine's process's;
    end the engine with ``await engine.quit()``."""
    engine = await EngineProtocol.popen(command, timeout=timeout, **kwargs)
    return engine.transport, engine


class SimpleEngine:
    """A blocking wrapper of :class:`EngineProtocol`: runs an event loop in a background thread
    and waits for each call. Use :meth:`popen`, and end it with :meth:`quit` or a ``with``
    block."""

    def __init__(self, protocol: EngineProtocol, loop: asyncio.AbstractEventLoop, thread: threading.Thread):
        self.protocol = protocol
        self._loop = loop
        self._thread = thread
        self._closed = False

    @classmethod
    def popen(cls, command: Command, *, timeout: float = DEFAULT_TIMEOUT, **kwargs: Any) -> "SimpleEngine":
        """Starts ``command`` (a program, or a list: program and arguments) and does the
        handshake; ``timeout`` seconds bound every answer (see the module's doc)."""
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name="boardgames-engine", daemon=True)
        thread.start()
        try:
            future = asyncio.run_coroutine_threadsafe(EngineProtocol.popen(command, timeout=timeout, **kwargs), loop)
            protocol = future.result()
        except BaseException:
            _stop_loop(loop, thread)
            raise
        return cls(protocol, loop, thread)

    def _run(self, coro: "Coroutine[Any, Any, _T]") -> _T:
        if self._closed:
            coro.close()
            raise EngineTerminatedError("the engine has quit")
        future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        try:
            return future.result()
        except concurrent.futures.CancelledError:
            raise EngineTerminatedError("the call was cancelled") from None

    @property
    def id(self) -> Dict[str, str]:
        """``id name`` and ``id author``: ``{"name": ..., "author": ...}``."""
        return self.protocol.id

    @property
    def games(self) -> Dict[str, Tuple[int, int]]:
        """The games the engine plays, with their size ranges: ``{"ctf": (3, 11)}``."""
        return self.protocol.games

    @property
    def options(self) -> Options:
        """The options the engine declares, by name in any case."""
        return self.protocol.options

    @property
    def pid(self) -> int:
        """The engine's process id (and process group)."""
        return self.protocol.pid

    @property
    def timeout(self) -> float:
        """Seconds any answer may take beyond a search's own time."""
        return self.protocol.timeout

    @timeout.setter
    def timeout(self, value: float) -> None:
        self.protocol.timeout = value

    def ping(self) -> None:
        """``isready``, waiting for ``readyok``."""
        self._run(self.protocol.ping())

    def configure(self, options: Mapping[str, Any]) -> None:
        """See :meth:`EngineProtocol.configure`."""
        self._run(self.protocol.configure(options))

    def play(self, position: "Position", limit: Limit) -> PlayResult:
        """See :meth:`EngineProtocol.play`."""
        return self._run(self.protocol.play(position, limit))

    @overload
    def analyse(self, position: "Position", limit: Limit) -> InfoDict: ...
    @overload
    def analyse(self, position: "Position", limit: Limit, *, multipv: int) -> List[InfoDict]: ...

    def analyse(
        self, position: "Position", limit: Limit, *, multipv: Optional[int] = None
    ) -> Union[InfoDict, List[InfoDict]]:
        """See :meth:`EngineProtocol.analyse`: one :data:`InfoDict`, or a list with
        ``multipv``."""
        if multipv is None:
            return self._run(self.protocol.analyse(position, limit))
        return self._run(self.protocol.analyse(position, limit, multipv=multipv))

    def analysis(self, position: "Position", limit: Optional[Limit] = None) -> "SimpleAnalysisResult":
        """See :meth:`EngineProtocol.analysis`: an iterator of info dicts with ``stop()``."""
        return SimpleAnalysisResult(self, self._run(self.protocol.analysis(position, limit)))

    def quit(self) -> Optional[int]:
        """Ends the engine (see :meth:`EngineProtocol.quit`) and the background thread."""
        if self._closed:
            return self.protocol.returncode
        try:
            return self._run(self.protocol.quit())
        finally:
            self._closed = True
            _stop_loop(self._loop, self._thread)

    close = quit

    def __enter__(self) -> "SimpleEngine":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.quit()

    def __repr__(self) -> str:
        return f"<SimpleEngine {self.id.get('name', self.protocol.argv[0])!r} pid={self.pid}>"


def _stop_loop(loop: asyncio.AbstractEventLoop, thread: threading.Thread) -> None:
    loop.call_soon_threadsafe(loop.stop)
    thread.join()
    loop.close()


class SimpleAnalysisResult:
    """The blocking form of :class:`AnalysisResult`: iterate it for info dicts, ``stop()`` it,
    ``wait()`` for the result; a ``with`` block stops it at the end."""

    def __init__(self, engine: SimpleEngine, inner: AnalysisResult):
        self._engine = engine
        self._inner = inner

    @property
    def info(self) -> InfoDict:
        """The last ``info depth`` line of the best line."""
        return self._inner.info

    @property
    def multipv(self) -> List[InfoDict]:
        """The last ``info depth`` line of each line, best first."""
        return self._inner.multipv

    def stop(self) -> None:
        """Asks the engine to stop."""

        async def stop() -> None:
            self._inner.stop()

        self._engine._run(stop())

    def get(self) -> InfoDict:
        """The next info dict (AnalysisComplete at the end)."""
        return self._engine._run(self._inner.get())

    def wait(self) -> PlayResult:
        """Waits for the end of the search and returns its result."""
        return self._engine._run(self._inner.wait())

    def __iter__(self) -> Iterator[InfoDict]:
        return self

    def __next__(self) -> InfoDict:
        try:
            return self.get()
        except AnalysisComplete:
            raise StopIteration from None

    def __enter__(self) -> "SimpleAnalysisResult":
        return self

    def __exit__(self, *exc: Any) -> None:
        if not self._inner._done and self._engine._closed is False:
            self.stop()
            try:
                self.wait()
            except EngineError:
                pass
