"""Mutation testing of the engine's contract and each game's scoring rules: do the tests notice a mistake?

    python -m bench mutation [--module PATH ...] [--max-children 2] [--keep DIR]   (or `make mutation`; not in CI)

For each module (MODULES: games/core.py, the contract every game relies on, and each game's rules or
scoring module) mutmut 3 makes small mistakes in its code, one at a time (`<` for `<=`, `+ 1` for
`- 1`, a flipped condition, a dropped argument...), and runs the tests that reach the function changed;
a mistake no test notices "survives". Some survivors change nothing a caller can observe (a cache size,
an equal way to write the same value): those are listed in EQUIVALENT, each with why, and left out of
the score. The score per module is killed / (mutants - equivalent survivors); target >= 95%.

It runs on a copy of the project's files in a temporary folder (mutmut writes a `mutants/` tree beside
the sources): the engine interpreted (no compiled modules are copied), the working tree untouched.
Every surviving mutant's diff is printed, so a new survivor can be judged: a test to add, or an entry
in EQUIVALENT. The figures go to bench/results/mutation.json (`python -m bench report`).

With `--keep DIR` (one module) the copy is made in DIR and left there; `--keep DIR --resume` goes on in it
after a stop or after adding tests: the test files are copied in again, mutmut runs the stats of the new
tests and tests every mutant without a verdict (or one that only timed out, if the limits changed). To
retry chosen survivors by hand: `python -m mutmut run NAME ...` in DIR.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench import results

ROOT = Path(__file__).resolve().parent.parent
# module -> the test files whose tests may kill its mutants (mutmut runs, per mutant, those of them that
# reach the mutated function)
MODULES: dict[str, list[str]] = {
    "games/core.py": [
        "tests/test_contract.py",
        "tests/test_core_contract_edges.py",
        "tests/test_eggs_empires.py",
        "tests/test_reggverse_engine.py",
        "tests/test_eight_minute_empire.py",
    ],
    "games/eggs_empires/rules.py": [
        "tests/test_eggs_empires.py",
        "tests/test_eggs_empires_properties.py",
        "tests/test_eggs_empires_replay.py",
        "tests/test_eggs_empires_rules_edges.py",
    ],
    "games/eight_minute_empire/scoring.py": [
        "tests/test_eight_minute_empire.py",
        "tests/test_eight_minute_empire_properties.py",
        "tests/test_eight_minute_empire_scoring_edges.py",
    ],
    # Reggverse's rule matching (which tiles a rule sends an egg to): long to run (~800 lines), measured apart.
    "games/reggverse/board.py": [
        "tests/test_reggverse_rules.py",
        "tests/test_reggverse_engine.py",
        "tests/test_reggverse_published.py",
        "tests/test_reggverse_replay.py",
        "tests/test_reggverse_board_edges.py",
    ],
    "games/reggverse/objectives.py": [
        "tests/test_reggverse_rules.py",
        "tests/test_reggverse_engine.py",
        "tests/test_reggverse_objectives_edges.py",
    ],
}
TARGET = 95.0


def _same(module: str, function: str, why: str, *lines: str) -> dict[tuple[str, str, str], str]:
    return {(module, function, line): why for line in lines}


CORE, EGGS, EME, REGG, BOARD = (
    "games/core.py",
    "games/eggs_empires/rules.py",
    "games/eight_minute_empire/scoring.py",
    "games/reggverse/objectives.py",
    "games/reggverse/board.py",
)
SHEPHERDS = (
    "if first_shepherd < len(keys) and keys[first_shepherd] {} and bisect_left(keys, 48) > bisect_left(keys, 32):"
)
MOST_OF = "return 5 if mine.get(e, {}) > count(left, e) and mine.get(e, {}) > count(right, e) else 0"
FRESH_INDEX = "a new index of the same board instead of the one at hand: the same masks, worked out again"
OWN_ROW = (
    "the rows differ only in this egg's own row, which nothing reads but the row itself (template 11 reads the "
    "other rows)"
)
NO_EGG_NAMED = 'no egg is named "XXXX": with either default no row is left out as the egg\'s own'
# Survivors that behave exactly as the original: (module, mutated function, the mutated line as mutmut
# writes it, stripped) -> why. Keyed by text, not by mutmut's numbering, which shifts with any edit.
EQUIVALENT: dict[tuple[str, str, str], str] = {
    **_same(
        CORE,
        "Rng.shuffle",
        "with one item (0 swaps) the loop below runs no swap and adds 0 words: the same result, a little later",
        "if swaps < 0:",
    ),
    **_same(
        EME,
        "continent_controllers",
        "every seat's count raised or doubled alike: the same seat has strictly the most, the same seats tie",
        "counts = [1] * seats",
        "counts[owner] += 2",
    ),
    **_same(
        EME,
        "ability_points",
        "the default counts only when no card of the set is held, and 1 card completes no set (every set has 2+)",
        'elif kind == "vp_set" and family and families.get(family, 1) >= set_sizes()[family]:',
    ),
    **_same(
        EME,
        "elixir_points",
        "only an empty list reaches the default, and it gives an empty list either way",
        "most = max(elixirs, default=None)",
        "most = max(elixirs, default=1)",
    ),
    **_same(
        EGGS,
        "collection_queue",
        "ranks are 0..10: the first card never equals the starting value, whichever non-rank it is",
        "previous = None",
        "previous = -2",
    ),
    **_same(
        EGGS,
        "collection_queue",
        "key 128 is a Scout, not a Shepherd: moving no Shepherds ahead of the Blacksmith leaves the queue as it is",
        SHEPHERDS.format("<= 128"),
        SHEPHERDS.format("< 129"),
    ),
    **_same(
        REGG,
        "objective_points",
        "a missing egg counted as 1 is still under 2",
        "return 10 if all(mine.get(e, 1) >= 2 for e in named) else 0",
    ),
    **_same(
        REGG,
        "objective_points",
        "without that egg the second test (0 > the right one's count) fails anyway",
        MOST_OF.format(1, 0),
    ),
    **_same(
        REGG,
        "objective_points",
        "only reached when the seat holds that egg (the first test needs more than the left one's 0 or more)",
        MOST_OF.format(0, ""),
        MOST_OF.format(0, "None"),
        MOST_OF.format(0, 1),
    ),
    **_same(
        BOARD,
        "_memo_key",
        "the all-sides memo's name is only ever compared with itself",
        'return READS[t], side if t in SIDED else "XXXX"',
    ),
    **_same(
        BOARD,
        "BoardIndex.pointing_at",
        FRESH_INDEX,
        "m = rule_mask(r, self._board, side, egg, None, None)",
        "m = rule_mask(r, self._board, side, egg, None, )",
    ),
    **_same(
        BOARD,
        "BoardIndex.placements",
        FRESH_INDEX,
        "new = rule_mask(rule, board, side, egg, None, None)",
        "new = rule_mask(rule, board, side, egg, None, )",
        "masks.append(rule_mask(r, board, side, egg, None, None))",
        "masks.append(rule_mask(r, board, side, egg, None, ))",
    ),
    **_same(
        BOARD,
        "BoardIndex.placements",
        "only its sign is read until a repeated rule sets it to that rule's place",
        "repeated = -2",
    ),
    **_same(
        BOARD,
        "row_mask",
        FRESH_INDEX,
        "mask &= rule_mask(r, board, side, egg, rows, )",
        "mask &= rule_mask(r, board, side, egg, rows, None)",
    ),
    **_same(
        BOARD,
        "row_holds",
        FRESH_INDEX,
        "return bool(row_mask(row, board, side, egg, rows, None) >> cell & 1)",
        "return bool(row_mask(row, board, side, egg, rows, ) >> cell & 1)",
    ),
    **_same(BOARD, "rule_mask", NO_EGG_NAMED, 'egg: str = "XXXX",'),
    **_same(BOARD, "row_mask", NO_EGG_NAMED, 'egg: str = "XXXX",'),
    **_same(BOARD, "row_holds", NO_EGG_NAMED, 'egg: str = "XXXX",'),
    **_same(
        BOARD,
        "rule_holds",
        NO_EGG_NAMED,
        "rule: Rule, cell: int, board: Board, side: str, egg: str = "
        '"XXXX", rows: Mapping[str, Sequence[Rule]] | None = None',
    ),
    **_same(
        BOARD,
        "matching_tiles",
        OWN_ROW,
        "return cells_of(row_mask(rows.get(egg, []), board, side_of(seat), egg, None))",
        "return cells_of(row_mask(rows.get(egg, []), board, side_of(seat), egg, ))",
    ),
    **_same(
        BOARD,
        "matching_tiles",
        "an egg without a row, [] or None, points nowhere either way (row_mask: `if not row`)",
        "return cells_of(row_mask(rows.get(egg, None), board, side_of(seat), egg, rows))",
        "return cells_of(row_mask(rows.get(egg, ), board, side_of(seat), egg, rows))",
    ),
    **_same(
        BOARD,
        "row_is_balanced",
        OWN_ROW,
        "rows = None",
        "return balanced(row_mask(row, board, side_of(seat), egg, None), board)",
        "return balanced(row_mask(row, board, side_of(seat), egg, ), board)",
    ),
    **_same(
        BOARD,
        "BoardIndex.placements",
        "every rule then goes the template-11 way, rule_mask, which reads any other template's rule as self.mask",
        "plain = None",
    ),
    **_same(
        BOARD,
        "BoardIndex.placements",
        "for template 11 `new` is read per egg (rule_mask) before any use",
        "new = self.mask(rule, side) if plain else 1",
    ),
}


@dataclass
class ModuleScore:
    module: str
    statuses: dict[str, str] = field(default_factory=dict)  # mutant name -> mutmut's status
    equivalent: dict[str, str] = field(default_factory=dict)  # surviving mutant name -> why it is equivalent
    survivors: dict[str, str] = field(default_factory=dict)  # non-equivalent survivor -> its diff
    seconds: float = 0.0
    load: tuple[float, float] = (0.0, 0.0)  # the machine's 1-minute load average at the start and the end

    def count(self, status: str) -> int:
        return sum(s == status for s in self.statuses.values())

    @property
    def untested(self) -> int:
        """Mutants no test reached, or not tried yet (a run stopped or resumed)."""
        return sum(s in ("no tests", "skipped", "not checked") for s in self.statuses.values())

    @property
    def judged(self) -> int:
        """Mutants that count: all but the equivalent ones and those mutmut could not test."""
        return len(self.statuses) - len(self.equivalent) - self.untested

    @property
    def score(self) -> float:
        killed = self.count("killed") + self.count("timeout") + self.count("caught by type check")
        return round(100.0 * killed / self.judged, 1) if self.judged else 0.0


def _copy_project(into: Path) -> None:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    for name in listed:
        source = ROOT / name
        if source.is_file() and not name.endswith((".so", ".pyd")):
            target = into / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def _config(module: str, tests: list[str], copied: list[str]) -> str:
    def listing(values: list[str]) -> str:
        return "\n".join(f"    {v}" for v in values)

    return (
        "[mutmut]\n"
        "source_paths = games\n"
        f"only_mutate =\n{listing([module])}\n"
        f"pytest_add_cli_args_test_selection =\n{listing(tests)}\n"
        f"pytest_add_cli_args =\n{listing(['-p', 'no:cacheprovider', '-q'])}\n"
        f"also_copy =\n{listing(copied)}\n"
        # A mutant that loops forever (`n <= 0` -> `n < 0` makes randrange(0) spin) is stopped after this many
        # times its tests' CPU time: mutmut's default of 15 took a quarter of an hour for one mutant.
        "timeout_multiplier = 2.0\n"
        # ...and the wall-clock limit is (estimate + constant) x multiplier: mutmut's constant of 1 s is less than
        # a fork and a pytest start on a loaded machine, where tests of fast functions all "timed out" (counted killed).
        "timeout_constant = 10.0\n"
    )


_MUTANT_LINE = re.compile(r"^\s+(\S+): (.+)$")


def _mutated_function(name: str) -> str:
    """`games.core.xǁRngǁrandrange__mutmut_7` -> `Rng.randrange`; `games.core.x_check_choice__mutmut_3` ->
    `check_choice`."""
    base = name.rsplit(".", 1)[-1].split("__mutmut_")[0]
    if base.startswith("xǁ"):
        return ".".join(base[2:].split("ǁ"))
    return base.removeprefix("x_")


def _mutated_lines(diff: str) -> str:
    return " / ".join(
        line[1:].strip() for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++")
    )


def _refresh_tests(work: Path, tests: list[str]) -> None:
    """Copy the listed test files into a kept copy again (mutmut copies them on into `mutants/` when it starts,
    and runs the stats of the tests it has not seen). Only those: the copy's sources and the other tests (replay
    digests...) stay as they were when it was made."""
    missing = [t for t in tests if not (ROOT / t).exists()]
    if missing:
        raise SystemExit(f"listed tests missing: {missing}")
    for name in tests:
        shutil.copy2(ROOT / name, work / name)


_TRY_AGAIN = ("survived", "not checked", "timeout", "suspicious", "segfault")


def _statuses(mutmut: list[str], work: Path) -> dict[str, str]:
    """mutmut's verdict per mutant name in `work`."""
    listed = subprocess.run([*mutmut, "results", "--all", "true"], cwd=work, capture_output=True, text=True)
    return {
        found.group(1): found.group(2).strip()
        for line in listed.stdout.splitlines()
        if (found := _MUTANT_LINE.match(line))
    }


def run_module(
    module: str,
    tests: list[str],
    max_children: int,
    keep: Path | None = None,
    resume: bool = False,
    figures_only: bool = False,
) -> ModuleScore:
    score = ModuleScore(module)
    started, load_before = time.monotonic(), os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="mutation-") as folder:
        work = Path(folder) if keep is None else keep
        resumed = resume and keep is not None and (keep / "mutants").is_dir()
        if resumed:
            _refresh_tests(work, tests)
        else:
            if keep is not None:
                shutil.rmtree(keep, ignore_errors=True)
                keep.mkdir(parents=True)
            _copy_project(work)
        present = [t for t in tests if (work / t).exists()]
        # Everything beside the mutated package goes along (the tests import the bot, the table service...).
        copied = sorted(p.name for p in work.iterdir() if p.name not in ("games", ".git"))
        (work / "setup.cfg").write_text(_config(module, present, copied), encoding="utf-8")
        mutmut = [sys.executable, "-m", "mutmut"]
        # Resuming: every mutant not yet killed is tried again (those without a verdict, the survivors, which new
        # tests may kill, and the timeouts); a killed one stays killed, since tests were only added.
        again = [n for n, status in _statuses(mutmut, work).items() if status in _TRY_AGAIN] if resumed else []
        if not (resumed and figures_only):
            ran = subprocess.run([*mutmut, "run", "--max-children", str(max_children), *again], cwd=work, check=False)
            if ran.returncode != 0:  # the tests could not run: no figures rather than a score of 0
                raise SystemExit(f"mutmut failed on {module} (exit code {ran.returncode}): see its output above")
        score.statuses = _statuses(mutmut, work)
        for name, status in score.statuses.items():
            if status != "survived":
                continue
            diff = subprocess.run([*mutmut, "show", name], cwd=work, capture_output=True, text=True).stdout
            why = EQUIVALENT.get((module, _mutated_function(name), _mutated_lines(diff)))
            if why is not None:
                score.equivalent[name] = why
            else:
                score.survivors[name] = diff
    score.seconds = time.monotonic() - started
    score.load = (round(load_before, 1), round(os.getloadavg()[0], 1))
    if figures_only and keep is not None:
        # No run here: the time is what mutmut recorded per mutant tried (wall seconds each, max_children at once).
        meta = json.loads((keep / "mutants" / f"{module}.meta").read_text(encoding="utf-8"))
        tried = [k for k, code in meta["exit_code_by_key"].items() if code is not None and code != 33]
        score.seconds = sum(meta["durations_by_key"].get(k) or 0.0 for k in tried) / max_children
        score.load = (score.load[1], score.load[1])
    return score


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench mutation", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--module", action="append", choices=sorted(MODULES), help="only these (default: all)")
    parser.add_argument("--max-children", type=int, default=2, help="mutants tested at once")
    parser.add_argument("--keep", type=Path, help="make mutmut's copy in this folder (emptied first) and leave it")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="with --keep: go on in the kept copy (its verdicts kept, the tests/ files refreshed, timeouts retried "
        "if the limits changed) instead of starting again",
    )
    parser.add_argument(
        "--figures-only",
        action="store_true",
        help="with --keep DIR --resume: no mutmut run, the figures of the verdicts in DIR so far (mutants not yet "
        "tried count as untested and stay out of the score)",
    )
    args = parser.parse_args(argv)
    chosen = args.module or list(MODULES)
    if args.keep is not None and len(chosen) != 1:
        parser.error("--keep needs exactly one --module")
    scores = [
        run_module(module, MODULES[module], args.max_children, args.keep, args.resume, args.figures_only)
        for module in chosen
    ]
    figures: dict[str, dict[str, object]] = {}
    for s in scores:
        for name, diff in s.survivors.items():
            print(f"--- {s.module}: {name} survived\n{diff}")
        figures[s.module] = {
            "score %": s.score,
            "mutants": len(s.statuses),
            "killed": s.count("killed") + s.count("timeout"),
            "survived": s.count("survived"),
            "equivalent": len(s.equivalent),
            "untested": s.untested,
            "minutes": round(s.seconds / 60, 1),
            "mutants per s": round((len(s.statuses) - s.untested) / s.seconds, 2) if s.seconds else 0.0,
            "load average at start, end": list(s.load),
            "not yet killed": [f"{_mutated_function(n)}: {_mutated_lines(d)}" for n, d in s.survivors.items()],
            "equivalent survivors": [f"{_mutated_function(n)}: {why}" for n, why in s.equivalent.items()],
        }
        print(f"{s.module}: {s.score}% of {s.judged} non-equivalent mutants killed, {len(s.survivors)} survive")
    # A run of some modules keeps the other modules' latest figures.
    earlier = results.RESULTS / "mutation.json"
    if earlier.exists():
        kept = json.loads(earlier.read_text(encoding="utf-8")).get("figures", {})
        figures = {m: figures.get(m) or kept[m] for m in MODULES if m in figures or m in kept}
    results.save(
        "mutation",
        "make mutation (python -m bench mutation)",
        figures,
        title="Mutation testing (mutmut 3, interpreted engine)",
        targets={f"{m}.score %": f">= {TARGET:g}" for m in figures},
        notes=(
            "Score: mutants killed / (mutants - equivalent survivors - untested), per module. A survivor judged "
            "equivalent (it changes nothing a caller can observe) is listed with why (bench/mutation.py, "
            "EQUIVALENT); any other is a test to write."
        ),
    )
    return 0 if all(s.score >= TARGET for s in scores) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
