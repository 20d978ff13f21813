"""The bot process's C allocator: two malloc arenas instead of glibc's default of up to eight per core.

glibc gives a thread that finds the allocator busy an arena of its own (up to 8 per core), and what is freed
in an arena is kept there for that arena's next allocations only. The bot's helper threads (aiosqlite's,
one per connection, the SQLite writer's, asyncio.to_thread's) each grew one while games were opened and
kept its high-water mark: under `bench load` the bot's resident memory grew 105 KB per game over 200
games opened; with two arenas, 77 KB, for the same CPU (issue 37: memory per active game). The event loop
allocates in the main arena, the helper threads share the other; Python's own small objects come from
its allocator (pymalloc) in either case.

MALLOC_ARENA_MAX in the environment, if set, is the operator's choice (glibc applies it itself): left alone.
Elsewhere than glibc (musl, macOS, Windows) nothing is done.
"""

from __future__ import annotations

import ctypes
import os
import sys

MALLOC_ARENAS = 2
M_ARENA_MAX = -8  # glibc's malloc.h


def limit_malloc_arenas(arenas: int = MALLOC_ARENAS) -> bool:
    """At most `arenas` malloc arenas in this process from now on (call it before threads start); whether
    it was applied."""
    if not sys.platform.startswith("linux") or os.environ.get("MALLOC_ARENA_MAX"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # no mallopt: not glibc
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_ARENA_MAX, arenas))
