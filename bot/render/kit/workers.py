"""Worker processes driven by the event loop itself: one pipe each, no thread in the bot.

concurrent.futures' ProcessPoolExecutor hands every job through two threads of the bot's process: its
queue manager, woken through a pipe at each submit, and its call queue's feeder. Under load each handoff
waits for the GIL behind the busy event loop, so a picture's round trip took tens of milliseconds and
capped what a worker could be given: py-spy of the bot under `python -m bench load --games 200 --think 2`
found ~13% of its main process in those handoffs while the one picture worker stood idle 70% of the time
with pictures waiting for it (issue 37). Here the event loop writes a job (pickled) to its worker's
socket and reads the answer when the socket becomes readable (`add_reader`; non-blocking on the bot's
side, as uvloop makes the fds it watches, so a long message goes and comes in pieces): no thread, no
wake-up, one pickling. Each message is its length (8 bytes) and its pickle.

A worker answers its jobs in the order it got them. It starts with `initializer(*initargs)` and `warm()`
and says when it is ready; until then, and once one has died (`WorkerDied` for what it still owed), the
owner draws elsewhere and replaces the pool (bot.render.kit.pool).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import pickle
import socket
import struct
from collections import deque
from collections.abc import Callable
from typing import Any

READY = "ready"
LENGTH = struct.Struct("!Q")  # a message's length, before its pickle
READ_SIZE = 1 << 18


class WorkerDied(Exception):
    """A worker process ended (killed, crashed, or could not warm up) with jobs or its start pending."""


def _answer(ok: bool, value: Any) -> bytes:
    """An answer as it travels back; an error that does not pickle travels as its description."""
    try:
        return pickle.dumps((ok, value), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:
        return pickle.dumps((False, RuntimeError(repr(value))), protocol=pickle.HIGHEST_PROTOCOL)


def _framed(message: bytes) -> bytes:
    return LENGTH.pack(len(message)) + message


def _receive(sock: socket.socket, size: int) -> bytes:
    """Exactly `size` bytes from a blocking socket (EOFError if the other end closed first)."""
    parts = bytearray()
    while len(parts) < size:
        part = sock.recv(min(size - len(parts), READ_SIZE))
        if not part:
            raise EOFError
        parts += part
    return bytes(parts)


def _serve(
    sock: socket.socket, initializer: Callable[..., None], initargs: tuple[Any, ...], warm: Callable[[], Any]
) -> None:
    """A worker's life: start, warm up, say so, then answer each job `(function, args)` in turn, until the
    bot closes its end or is gone (a bot killed mid-job: the answer has nowhere to go, which is no error)."""
    with contextlib.suppress(EOFError, OSError):
        _answer_jobs(sock, initializer, initargs, warm)


def _answer_jobs(
    sock: socket.socket, initializer: Callable[..., None], initargs: tuple[Any, ...], warm: Callable[[], Any]
) -> None:
    try:
        initializer(*initargs)
        warm()
    except Exception as error:
        sock.sendall(_framed(_answer(False, error)))
        return
    sock.sendall(_framed(_answer(True, READY)))
    while True:
        (size,) = LENGTH.unpack(_receive(sock, LENGTH.size))
        job = _receive(sock, size)
        try:
            function, args = pickle.loads(job)
            reply = _answer(True, function(*args))
        except Exception as error:
            reply = _answer(False, error)
        sock.sendall(_framed(reply))


class _Worker:
    """One worker process, the bot's end of its socket (non-blocking), what is still to be written to it,
    what has come back but not whole yet, and the jobs it owes, oldest first."""

    def __init__(self, process: Any, sock: socket.socket) -> None:
        self.process = process
        self.sock = sock
        sock.setblocking(False)
        self.fd = sock.fileno()
        self.ready = False
        self.dead: BaseException | None = None
        self.owed: deque[asyncio.Future[Any]] = deque()
        self._out = bytearray()
        self._in = bytearray()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._writing = False

    def poll_ready(self) -> bool:
        """Whether it has warmed up (read without waiting, until a loop reads for it); a failed start marks
        it dead."""
        if not self.ready and self.dead is None and self._loop is None:
            self._read()
        return self.ready

    def submit(self, job: bytes) -> asyncio.Future[Any]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        if self.dead is not None:
            future.set_exception(WorkerDied(repr(self.dead)))
            return future
        if self._loop is not loop:  # (tests run several loops in one process: the reader follows)
            self._unwatch()
            loop.add_reader(self.fd, self._read)
            self._loop = loop
        self.owed.append(future)
        self._out += _framed(job)
        self._write()
        return future

    def _write(self) -> None:
        """Write what the socket takes now; the rest when it becomes writable again."""
        try:
            sent = self.sock.send(self._out)
        except BlockingIOError:
            sent = 0
        except OSError as error:
            self._died(error)
            return
        del self._out[:sent]
        if self._out and not self._writing and self._loop is not None:
            self._loop.add_writer(self.fd, self._write)
            self._writing = True
        elif not self._out and self._writing and self._loop is not None:
            self._loop.remove_writer(self.fd)
            self._writing = False

    def _read(self) -> None:
        """Read what has arrived (without waiting) and hand out every whole answer; the end of the stream
        means the worker is gone."""
        ended: BaseException | None = None
        while self.dead is None and ended is None:
            try:
                part = self.sock.recv(READ_SIZE)
            except BlockingIOError:
                break
            except OSError as error:
                ended = error
                break
            if not part:
                ended = EOFError("ended")  # (reasons for operators, in the logs: one word)
            self._in += part
        while len(self._in) >= LENGTH.size:
            (size,) = LENGTH.unpack_from(self._in)
            if len(self._in) < LENGTH.size + size:
                break
            ok, value = pickle.loads(self._in[LENGTH.size : LENGTH.size + size])
            del self._in[: LENGTH.size + size]
            self._answered(ok, value)
        if ended is not None:  # (after what it said last: why it could not start, say)
            self._died(ended)

    def _answered(self, ok: bool, value: Any) -> None:
        if not self.ready:  # its first message: warmed up, or why it could not
            if ok:
                self.ready = True
            else:
                self._died(value)
            return
        if self.owed:
            future = self.owed.popleft()
            if future.done():
                return
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)

    def _unwatch(self) -> None:
        loop, self._loop = self._loop, None
        if loop is not None and not loop.is_closed():
            loop.remove_reader(self.fd)
            if self._writing:
                loop.remove_writer(self.fd)
        self._writing = False

    def _died(self, error: BaseException) -> None:
        if self.dead is None:
            self.dead = error
        self._unwatch()
        while self.owed:
            future = self.owed.popleft()
            if not future.done():
                future.set_exception(WorkerDied(repr(error)))

    def close(self) -> None:
        self._died(WorkerDied("closed"))
        self.sock.close()
        if self.process.is_alive():
            self.process.terminate()


class WorkerPool:
    """`workers` processes started from a forkserver that has imported `preload` once; each runs
    `initializer(*initargs)` and `warm()` before it takes jobs."""

    def __init__(
        self,
        workers: int,
        *,
        initializer: Callable[..., None],
        initargs: tuple[Any, ...],
        warm: Callable[[], Any],
        preload: list[str],
    ) -> None:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(preload)
        self._workers: list[_Worker] = []
        for _ in range(workers):
            ours, theirs = socket.socketpair()
            process = context.Process(target=_serve, args=(theirs, initializer, initargs, warm), daemon=True)
            process.start()
            theirs.close()  # the worker's end lives in the worker only: its death reads as the end of the stream
            self._workers.append(_Worker(process, ours))

    @property
    def pids(self) -> list[int]:
        return [w.process.pid for w in self._workers]

    @property
    def dead(self) -> BaseException | None:
        """Why a worker is gone, if one is (the pool is then replaced whole)."""
        return next((w.dead for w in self._workers if w.dead is not None), None)

    def ready(self) -> bool:
        """Every worker has warmed up (and none died)."""
        return all([w.poll_ready() for w in self._workers]) and self.dead is None

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        """`function(*args)` in the worker that owes the fewest jobs; raises `WorkerDied` if it dies first."""
        job = pickle.dumps((function, args), protocol=pickle.HIGHEST_PROTOCOL)
        worker = min(self._workers, key=lambda w: len(w.owed))
        return await worker.submit(job)

    def close(self) -> None:
        """Stop every worker (what they owe fails with `WorkerDied`); `join` waits for them."""
        for worker in self._workers:
            worker.close()

    def join(self, timeout: float = 5.0) -> None:
        for worker in self._workers:
            worker.process.join(timeout)
