"""Run the benchmarks: `python -m bench` (all) or `python -m bench NAME [args]` (one module of bench/).

Each module in bench/ exposes `main(argv) -> int` and prints its own figures. Those in ON_REQUEST run only
when named (`python -m bench mutation` takes an hour or more and needs mutmut: `make mutation`).
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import bench

ON_REQUEST = {"mutation"}


def main(argv: list[str]) -> int:
    names = sorted(m.name for m in pkgutil.iter_modules(bench.__path__) if not m.name.startswith("_"))
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__)
        print("benchmarks:", ", ".join(names))
        return 0
    if argv:
        if argv[0] not in names:
            print(f"unknown benchmark {argv[0]!r}; known: {', '.join(names)}", file=sys.stderr)
            return 2
        return int(importlib.import_module(f"bench.{argv[0]}").main(argv[1:]))
    status = 0
    for name in [n for n in names if n != "report" and n not in ON_REQUEST] + [
        "report"
    ]:  # the report gathers the others' figures
        print(f"== bench.{name}")
        status |= int(importlib.import_module(f"bench.{name}").main([]))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
