"""`python -m bench load --capacity` (bench/load/capacity.py): the search's steps and its stop, the games kept
running, the figures and the curve in the report, and a tiny search through the real bot process.

No timing is asserted: whether a level passes depends on the machine; what is checked is what the search
does with the levels it measured.
"""

from __future__ import annotations

import asyncio
import io
import math
import random
import statistics
from pathlib import Path
from typing import Any, cast

import pytest
from PIL import Image

from bench import report
from bench.load import capacity, measure, runner
from bench.load.curve import HEIGHT, WIDTH, capacity_curve
from bench.load.plan import LOGNORMAL_SIGMA, MIX, Table, ThinkTime
from bench.load.report import capacity_report

pytestmark = pytest.mark.xdist_group("load")


def test_the_levels_step_up_until_one_fails_or_the_most_allowed_is_held() -> None:
    ramp = capacity.Ramp(start=200, step=200, maximum=700)
    assert capacity.next_level([], ramp) == 200
    assert capacity.next_level([(200, True)], ramp) == 400
    assert capacity.next_level([(200, True), (400, True), (600, True)], ramp) == 700, "the last step stops at the most"
    assert capacity.next_level([(200, True), (400, True), (600, True), (700, True)], ramp) is None
    assert capacity.next_level([(200, True), (400, False)], ramp) is None, "the first level that fails ends the search"
    assert capacity.next_level([], capacity.Ramp(start=50, step=50, maximum=20)) == 20


def test_the_capacity_is_the_last_level_passed_before_the_first_that_failed() -> None:
    assert capacity.capacity_of([(200, True), (400, True), (600, False)]) == 400
    assert capacity.capacity_of([(200, False)]) == 0
    assert capacity.capacity_of([(200, True), (400, True)]) == 400
    assert capacity.capacity_of([(200, True), (400, False), (600, True)]) == 200, "nothing after a failure counts"


def level(**figures: Any) -> dict[str, Any]:
    return {"games": 100, "clicks": 500, "answer_p99_ms": 120.0, "dm_prompt_p99_ms": 300.0, "rate_limited": 0} | figures


def test_a_level_fails_on_a_slow_prompt_a_429_or_no_click() -> None:
    assert capacity.failures(level()) == []
    assert capacity.failures(level(answer_p99_ms=499.9)) == []
    assert capacity.failures(level(answer_p99_ms=500.0)) == ["a click's answer p99 500 ms >= 500"]
    assert capacity.failures(level(dm_prompt_p99_ms=812.5)) == ["a DM prompt's words p99 812.5 ms >= 500"]
    assert capacity.failures(level(rate_limited=2)) == ["2 429s in the window"]
    assert capacity.failures(level(clicks=0)) == ["no click in the window"]
    # No DM prompt in the window (one player per game, say): nothing to hold against the level.
    assert capacity.failures(level(dm_prompt_p99_ms=None)) == []
    assert len(capacity.failures(level(answer_p99_ms=900.0, dm_prompt_p99_ms=700.0, rate_limited=1))) == 3


def test_a_p99_is_estimated_within_its_histograms_bucket() -> None:
    before = {0.1: 10.0, 0.4: 10.0, 0.5: 10.0, math.inf: 10.0, -1.0: 0.5}
    # 100 more observations: 90 under 0.1 s, 8 in (0.1, 0.4], 2 in (0.4, 0.5].
    after = {0.1: 100.0, 0.4: 108.0, 0.5: 110.0, math.inf: 110.0, -1.0: 9.0}
    assert measure.histogram_quantile(before, after, 0.5) == pytest.approx(0.1 * 50 / 90)
    assert measure.histogram_quantile(before, after, 0.99) == pytest.approx(0.4 + 0.1 * (99 - 98) / 2)
    assert measure.histogram_quantile(before, before, 0.99) is None, "nothing observed between the scrapes"
    beyond = {0.1: 10.0, 0.4: 10.0, 0.5: 10.0, math.inf: 20.0}
    assert measure.histogram_quantile(before, beyond, 0.99) == 0.5, "above the largest bound: that bound"


def test_think_times_at_a_human_pace_are_log_normal_around_their_median() -> None:
    rng = random.Random(3)
    times = [capacity.THINK.draw(rng) for _ in range(4001)]
    assert ThinkTime(10.0, "lognormal") == capacity.THINK
    assert 9.0 < statistics.median(times) < 11.0
    assert statistics.fmean(times) > statistics.median(times), "a long tail of slow answers"
    assert min(times) > 0
    uniform = [ThinkTime(2.0).draw(rng) for _ in range(1000)]
    assert min(uniform) >= 0 and max(uniform) <= 4.0
    assert ThinkTime(2.0).describe() == "uniform 0-4"
    assert capacity.THINK.describe() == f"log-normal, median 10, sigma {LOGNORMAL_SIGMA:g}"


class OpensAtOnce:
    """A run whose lobbies open at once, with no bot: what the keeper asks of a LoadRun."""

    def __init__(self) -> None:
        self.playing: list[Table] = []

    async def open_game(self, index: int, key: str, variants: str, humans: int, ais: int, channel: int) -> Table:
        await asyncio.sleep(0)
        return Table(key, variants, [index * 10 + i for i in range(humans)], ais, channel)

    def start_players(self, table: Table) -> None:
        self.playing.append(table)


async def test_a_game_that_ends_is_replaced_by_one_of_its_kind_in_its_channel() -> None:
    run = OpensAtOnce()
    keeper = capacity.Keeper(cast(Any, run), [10, 11, 12], random.Random(1), concurrency=2, max_seats=3)
    await keeper.reach(2, lambda: None)
    assert [t.channel for t in keeper.running] == [10, 11] and keeper.active() == 2
    assert [t.key for t in keeper.running] == [MIX[0][0], MIX[1][0]], "the mix in turn"
    assert run.playing == keeper.running, "each game's players start once it is open"
    ended = keeper.running[0]
    ended.finished = True
    assert keeper.active() == 1
    keeper.tick()
    for _ in range(10):
        await asyncio.sleep(0)
    assert keeper.replaced == 1 and keeper.opened == 3 and keeper.active() == 2
    new = keeper.running[-1]
    assert (new.key, new.variants, len(new.humans), new.ais, new.channel) == (
        ended.key,
        ended.variants,
        len(ended.humans),
        ended.ais,
        10,
    )
    assert not set(new.humans) & set(ended.humans), "new people"
    await keeper.reach(3, lambda: None)
    assert keeper.active() == 3 and keeper.running[-1].channel == 12 and keeper.running[-1].key == MIX[2][0]
    await keeper.close()


def figures_of(levels: list[dict[str, Any]]) -> dict[str, Any]:
    """A search's figures around these levels (as capacity.search gives them)."""
    held = capacity.capacity_of([(x["games"], not capacity.failures(x)) for x in levels])
    for x in levels:
        x["failures"] = capacity.failures(x)
        x["passed"] = not x["failures"]
    return {
        "mode": "loopback",
        "database": "sqlite",
        "rate_limits": "5 messages per 5 s per channel, global 50 per 1 s",
        "ai_level": "heuristic",
        "think_seconds": capacity.THINK.describe(),
        "ramp": {
            "start": 100,
            "step": 100,
            "maximum": 400,
            "window_seconds": 60,
            "settle_seconds": 20,
            "open_concurrency": 16,
        },
        "capacity_games": held,
        "at_capacity": {"rss_per_game_kb": 80.0},
        "capacity_is_lower_bound": levels[-1]["passed"],
        "stopped_at": None if levels[-1]["passed"] else {"games": 300, "failures": levels[-1]["failures"]},
        "games_opened": 350,
        "games_replaced": 50,
        "errors": 0,
        "search_seconds": 600.0,
        "levels": levels,
    }


def test_the_curve_and_the_levels_are_in_the_reports_section(tmp_path: Path) -> None:
    figures = figures_of(
        [
            level(games=100, answer_p99_ms=90.0, dm_prompt_p99_ms=150.0),
            level(games=200, answer_p99_ms=180.0, dm_prompt_p99_ms=None),
            level(games=300, answer_p99_ms=30000.0, dm_prompt_p99_ms=650.0, rate_limited=3),
        ]
    )
    picture = Image.open(
        io.BytesIO(capacity_curve(figures["levels"], title="Capacity on SQLite", capacity=figures["capacity_games"]))
    )
    assert picture.size == (WIDTH, HEIGHT) and picture.format == "PNG"
    text = capacity_report(figures)
    assert "holds 200 games (the first level failing: 300 games: a click's answer p99 30000 ms >= 500" in text
    assert "FAILED" in text.splitlines()[-1] and "passed" in text.splitlines()[-2]
    capacity.save(figures, "python -m bench load --capacity", directory=tmp_path, pictures=tmp_path)
    assert Image.open(tmp_path / "capacity-sqlite.png").size == (WIDTH, HEIGHT)
    output = tmp_path / "REPORT.md"
    assert report.main(["--results", str(tmp_path), "--output", str(output)]) == 0
    shown = output.read_text(encoding="utf-8")
    title = "Capacity: concurrent games at a human pace (SQLite, bot in its own process, within Discord's limits)"
    assert f"![{title}](capacity-sqlite.png)" in shown
    assert "| capacity_games | 200 | >= 1000 | **missed** |" in shown
    assert "| at_capacity.rss_per_game_kb | 80 | <= 100 | met |" in shown
    # The levels are a table of their own (one column per level), not JSON in one cell.
    assert "| levels | 3 (below) |" in shown
    assert "| games | 100 | 200 | 300 |" in shown and "| answer_p99_ms | 90 | 180 | 30,000 |" in shown


async def test_a_tiny_search_takes_the_bot_process_up_level_by_level(tmp_path: Path) -> None:
    figures = await capacity.search(
        capacity.Ramp(start=1, step=1, maximum=2, window=3.0, settle=0.5),
        url=f"sqlite+aiosqlite:///{tmp_path / 'load.sqlite3'}",
        directory=tmp_path,
        seed=7,
        limits=runner.rate_limits(per_channel=True, global_limit=True),
        think=ThinkTime(0.05),
        only="eggs-empires",
        max_seats=3,
        warm_up=False,
        progress=False,
    )
    levels = figures["levels"]
    assert figures["errors"] == 0, [x["first_error"] for x in levels]
    assert levels[0]["games"] == 1 and [x["games"] for x in levels] in ([1], [1, 2])
    assert len(levels) == 2 or not levels[0]["passed"], "only a level that failed stops the search before the most"
    assert figures["capacity_games"] == capacity.capacity_of([(x["games"], x["passed"]) for x in levels])
    for x in levels:
        assert x["clicks"] > 0 and x["decisions_per_second"] > 0 and x["bot_cpu_ms_per_decision"] > 0, x
        assert x["active_min"] >= 1 and x["rate_limited"] == x["rate_limited_opening"] == 0 and x["bot_rss_mb"] > 0, x
        assert x["passed"] == (not x["failures"]) and x["failures"] == capacity.failures(x)
    assert figures["games_opened"] >= levels[-1]["games"]
    assert capacity_report(figures).startswith("Capacity on sqlite")
