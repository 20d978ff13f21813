"""The short CI version of `python -m bench load` (both modes), and the generator of bench/REPORT.md.

A full game of Eight-Minute Empire or Reggverse Riddles through the harness costs 10-20 s of CPU (a
picture is drawn for most decisions), so here those play concurrently for a short window in process
while Eggs and Empires games (no pictures) play to their end with the bot in its own process;
`python -m bench load` plays every kind to the end.
"""

from __future__ import annotations

import copy
import json
import math
import os
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bench import load, report, results
from bot.texts import text
from harness import Harness

pytestmark = pytest.mark.xdist_group("load")


def check_figures(figures: dict[str, object], games: int) -> None:
    assert figures["games"] == games
    assert figures["errors"] == 0, figures["first_errors"]
    assert figures["unanswered"] == 0 and figures["undelivered"] == 0, "every click is answered"
    assert isinstance(figures["human_decisions"], int) and figures["human_decisions"] > 0
    assert isinstance(figures["decisions_per_second"], float) and figures["decisions_per_second"] > 0
    p50, p99, top = figures["latency_p50_ms"], figures["latency_p99_ms"], figures["latency_max_ms"]
    assert isinstance(p50, float) and isinstance(p99, float) and isinstance(top, float)
    assert 0 < p50 <= p99 <= top
    # The answer itself comes with the first callback or after it (a deferral, then its edit).
    assert isinstance(figures["answer_p50_ms"], float) and figures["answer_p50_ms"] >= p50
    assert isinstance(figures["answer_max_ms"], float) and figures["answer_max_ms"] >= top
    assert isinstance(figures["rest_per_turn"], float) and figures["rest_per_turn"] > 0
    # The floor: a table edit per turn (the log is folded into it), and a DM edit per player whose prompt
    # changed (the notifier was asked for them); without coalescing every update's table edit would go out.
    floor, uncoalesced = figures["floor_per_turn"], figures["uncoalesced_per_turn"]
    assert isinstance(floor, float) and isinstance(uncoalesced, float) and 1 <= floor <= uncoalesced
    asked, away, sent = figures["asked_per_turn"], figures["coalesced_away_per_turn"], figures["rest_by_kind_per_turn"]
    assert isinstance(asked, dict) and isinstance(away, dict) and isinstance(sent, dict)
    assert asked["table"] >= 1, "every resolved turn comes with an update, which asks for a table edit"
    assert abs(away["table"] - (asked["table"] - sent.get("PATCH table/thread edit", 0))) <= 0.011
    assert away["table"] >= 0, "no more table edits sent than asked for"
    assert isinstance(figures["interaction_answers_per_turn"], float) and figures["interaction_answers_per_turn"] > 0
    assert isinstance(figures["cpu_ms_per_decision"], float) and figures["cpu_ms_per_decision"] > 0
    # Every click is accepted (one committed human decision) or refused for a reason that is counted.
    refusals = figures["refusals_by_reason"]
    assert isinstance(refusals, dict) and sum(refusals.values()) == figures["refused_clicks"]
    accepted, refused = figures["accepted_clicks"], figures["refused_clicks"]
    assert isinstance(accepted, int) and isinstance(refused, int)
    assert figures["clicks"] == accepted + refused and accepted == figures["human_decisions"]
    steps = figures["lobby_steps"]
    assert isinstance(steps, dict) and steps["game new"]["count"] == steps["Start"]["count"] == games


async def test_bot_in_its_own_process_plays_eggs_and_empires_to_the_end(tmp_path: Path) -> None:
    figures = await load.run(
        3,
        database_url=None,
        think=0.01,
        seed=5,
        memory_games=0,
        directory=tmp_path,
        only="eggs-empires",
        max_seats=3,
        mode="loopback",
        warm_up=False,
        limits=load.rate_limits(per_channel=True, global_limit=True),
    )
    check_figures(figures, 3)
    # Discord's limits were on: discord.py paced the bot by the per-channel headers and the bot paced itself
    # under the global limit (no 429), and the notifier said how long the tables, prompts and log lines
    # took to reach Discord.
    assert figures["rate_limits"] == "5 messages per 5 s per channel, global 50 per 1 s"
    within = figures["within_limits"]
    assert isinstance(within, dict) and within["rate_limited"] == {}
    bucket = within["global_bucket"]
    assert sum(bucket["requests"].values()) > 0 and 0 <= bucket["busy_share"] <= 1, bucket
    # Pictures: none uploaded twice to one message. Every click answered through its own token; no DM with
    # the bot's token while playing (a game's other players are reached through their latest click).
    assert figures["reuploads"] == 0 and isinstance(figures["upload_bytes"], int)
    assert figures["exempt_per_turn"]["answer"] > 0 and not [k for k in figures["rest_by_kind_per_turn"] if " dm " in k]
    assert set(within["requests_held"]) == {"before", "after"} and within["held_seconds"] >= 0
    assert within["delays"]["table"]["answers"] > 0 and within["delays"]["log"]["answers"] > 0, within["delays"]
    assert "429s the bot received: 0" in load.report(figures)
    assert figures["mode"] == "loopback" and figures["memory_per_game_kb"] is None
    assert figures["finished"] == 3, "every game reached its end"
    assert figures["games_by_kind"] == {
        "eggs-empires": 1,
        "eggs-empires (scoring=conpub)": 1,
        "eggs-empires (tiebreaker=round)": 1,
    }
    # The bot's own CPU time, read from /proc: its process did the work, not this one.
    assert isinstance(figures["cpu_seconds"], float) and figures["cpu_seconds"] > 0
    assert isinstance(figures["rss_per_game_kb"], float) and figures["unknown_rest_calls"] == 0
    assert isinstance(figures["opening_bot_cpu_ms_per_game"], float) and figures["opening_bot_cpu_ms_per_game"] > 0
    # The bot's own clock (its metrics endpoint) timed the choice clicks, and only those (not the lobby's steps);
    # it may not have recorded the last one yet when scraped, on a loaded machine.
    inside = figures["bot_answer_timing"]
    assert isinstance(inside, dict) and 0 < inside["answers"] <= figures["clicks"] and inside["mean_ms"] > 0


async def test_every_kind_of_game_plays_at_once_in_process_for_a_window(tmp_path: Path) -> None:
    count = len(load.MIX)
    figures = await load.run(
        count,
        database_url=None,
        think=0.01,
        seed=6,
        memory_games=1,
        directory=tmp_path,
        max_seats=3,
        duration=3.0,
        mode="inprocess",
    )
    check_figures(figures, count)
    kinds = figures["games_by_kind"]
    assert isinstance(kinds, dict) and len(kinds) == count, "each game and variant of the mix is there"
    assert isinstance(figures["memory_per_game_kb"], float) and figures["memory_per_game_kb"] > 0


async def first_offer(h: Harness) -> tuple[load.InProcessRun, int, dict[str, Any], list[dict[str, Any]]]:
    """An in-process run with one two-player game open: its first human, their DM and its choices."""
    run = load.InProcessRun(h, 0.0, random.Random(1))
    _guild, channels = await h.add_guild(1)
    table = await run.open_game(0, "eggs-empires", "", 2, 0, channels[0])
    await h.settle()
    user = table.humans[0]
    message, choices, _version = run._offer(user)
    assert message is not None and choices
    return run, user, message, choices


async def test_a_stale_click_is_counted_with_its_reason(harness: Harness) -> None:
    h = harness
    run, user, message, choices = await first_offer(h)
    old = copy.deepcopy(message)
    await run._click(user, message, choices)
    await h.settle()
    assert run.outcomes == {"accepted": 1}
    # The same button again, from a copy of the message as it was: the decision was already taken.
    await run._click(user, old, load.choice_components(old))
    await h.settle()
    assert run.outcomes == {"accepted": 1, "refused": 1}
    [(reason, count)] = run.refusals.items()
    assert count == 1 and reason in ("STALE", "ALREADY_DECIDED", "NOTHING_TO_DECIDE"), reason


class _BusyDatabase(load.InProcessRun):
    """The bot answers "try again in a moment" to the first `busy` interactions, then accepts."""

    def __init__(self, h: Harness, busy: int) -> None:
        super().__init__(h, 0.0, random.Random(1))
        self.busy = busy
        self.tokens: list[str] = []

    async def interact(self, kind: str, payload: dict[str, object], token: str, within: float) -> str | None:
        self.tokens.append(token)
        self.busy -= 1
        return "TRY_AGAIN_SOON" if self.busy >= 0 else None


async def test_a_lobby_step_the_bot_asks_to_retry_is_sent_again_as_a_new_interaction(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bench.load.players.RETRY_AFTER", 0.0)
    run = _BusyDatabase(harness, busy=2)
    table = load.Table("eggs-empires", "", [harness.user("Host")], 0, harness.channel)
    await run._lobby_step(
        table, "game new", lambda: harness.slash_payload(table.humans[0], "game new", game="eggs-empires")
    )
    assert len(set(run.tokens)) == 3, "two refusals, then the third try is accepted; each try its own interaction"
    assert run.lobby_retries == {"game new: TRY_AGAIN_SOON": 2}
    run.busy = load.LOBBY_ATTEMPTS
    with pytest.raises(AssertionError, match="refused 5 times"):
        await run._lobby_step(
            table, "game new", lambda: harness.slash_payload(table.humans[0], "game new", game="eggs-empires")
        )


def test_refusals_are_named_by_their_sentence() -> None:
    assert load.refusal_reason(text.STALE) == "STALE"
    assert load.refusal_reason(text.ALREADY_DECIDED) == "ALREADY_DECIDED"
    assert load.refusal_reason(text.NOT_YOUR_SEAT) == "NOT_YOUR_SEAT"
    rules = text.REFUSED_BY_RULES.format(reason="you have no such card")
    assert load.refusal_reason(rules) == "REFUSED_BY_RULES: you have no such card"
    assert load.refusal_reason("Quelque chose") == "other: Quelque chose"


def test_cpu_and_memory_are_read_from_proc() -> None:
    before = load.cpu_seconds(os.getpid())
    deadline = time.process_time() + 0.3
    while time.process_time() < deadline:
        pass
    assert 0.2 <= load.cpu_seconds(os.getpid()) - before <= 1.0
    assert load.rss_kb(os.getpid()) == load.rss_kb() > 1000


def test_errors_are_read_from_the_bot_log_with_their_cause() -> None:
    log = (
        b"2026-11-26 03:12:09,115 ERROR bot.delivery.notify: a notification was refused\n"
        b'Traceback (most recent call last):\n  File "x.py", line 1, in f\n'
        b"RuntimeError: Session is closed\n2026-11-26 03:12:10,000 WARNING bot: slow\n"
    )
    assert load._errors(log) == [
        "2026-11-26 03:12:09,115 ERROR bot.delivery.notify: a notification was refused / "
        "RuntimeError: Session is closed"
    ]
    assert load._errors(b"2026 WARNING bot: slow\n") == []
    folded = b"03:17:59 ERROR bot.app.tree: command failed\\nTraceback (most recent call last):\\nOperationalError: x\n"
    assert load._errors(folded) == ["03:17:59 ERROR bot.app.tree: command failed / OperationalError: x"]


def test_cpu_of_a_process_tree_counts_its_children() -> None:
    """The bot's picture workers are its children: their CPU is the bot's too."""
    burn = "import time\nend = time.process_time() + 0.4\nwhile time.process_time() < end: pass\ntime.sleep(30)"
    with subprocess.Popen([sys.executable, "-c", burn]) as child:
        try:
            deadline = time.monotonic() + 20
            while load.cpu_seconds(child.pid) < 0.38 and time.monotonic() < deadline:  # clock ticks: keep a margin
                time.sleep(0.05)
            mine = load.cpu_seconds(os.getpid())
            assert load.cpu_seconds(os.getpid(), children=True) - mine >= 0.35
        finally:
            child.kill()


def test_plan_mixes_every_game_with_seats_in_range() -> None:
    planned = load.plan(70, random.Random(1))
    assert {(key, variants) for key, variants, _h, _a in planned} == {(k, v) for k, v, _lo, _hi in load.MIX}
    limits = {(k, v): (lo, hi) for k, v, lo, hi in load.MIX}
    for key, variants, humans, ais in planned:
        low, high = limits[(key, variants)]
        assert humans >= 1 and low <= humans + ais <= high


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert load.percentile(values, 0.5) == 50
    assert load.percentile(values, 0.99) == 99
    assert load.percentile([7.0], 0.99) == 7
    assert load.percentile([], 0.5) == 0


# --- the report ------------------------------------------------------------------------------
def test_targets_are_read_as_comparisons() -> None:
    assert report.meets(42.0, "< 100 ms") is True
    assert report.meets(100, "< 100 ms") is False
    assert report.meets(500, ">= 500") is True
    assert report.meets(499.9, ">= 500") is False
    assert report.meets(0, "0") is True
    assert report.meets(1, "0") is False
    assert report.meets("fast", "< 1") is None
    assert report.meets(1, "soon") is None


def test_report_shows_each_benchmark_against_its_targets(tmp_path: Path) -> None:
    results.save(
        "load-sqlite",
        "python -m bench load --games 1000",
        {"decisions_per_second": 620.5, "latency": {"p99_ms": 140.0}, "memory_per_game_kb": 80, "by_kind": ["a", "b"]},
        title="Load (SQLite)",
        directory=tmp_path,
        targets={
            "decisions_per_second": ">= 500",
            "latency.p99_ms": "< 100 ms",
            "memory_per_game_kb": "<= 100",
            "absent": "0",
        },
        notes="How it was measured.",
    )
    results.save(
        "storage", "python -m bench storage --url '<database url>'", {"actions_per_s": 9000}, directory=tmp_path
    )
    output = tmp_path / "REPORT.md"
    assert report.main(["--results", str(tmp_path), "--output", str(output)]) == 0
    text = output.read_text(encoding="utf-8")
    assert "| [Load (SQLite)](#load-sqlite) | 2 of 4 |" in text
    assert "| [storage](#storage) | (no targets) |" in text
    assert "- command: `python -m bench load --games 1000`" in text
    assert "| decisions_per_second | 620.5 | >= 500 | met |" in text
    assert "| latency.p99_ms | 140 | < 100 ms | **missed** |" in text
    assert "| memory_per_game_kb | 80 | <= 100 | met |" in text
    assert "| absent | (not measured) | 0 | **missed** |" in text
    assert '| by_kind | `["a", "b"]` |' in text
    assert "How it was measured." in text
    saved = json.loads((tmp_path / "load-sqlite.json").read_text(encoding="utf-8"))
    assert saved["machine"] in text and saved["commit"] in text and saved["measured_at"] in text


def test_commands_never_show_a_database_url() -> None:
    command = results.command("load", ["--database-url", "postgresql+asyncpg://user:secret@host/db"])
    assert "secret" not in command and command.startswith("python -m bench load --database-url ")


async def test_a_click_given_up_on_is_still_told_apart_when_its_answer_comes_late(harness: Harness) -> None:
    run, user, message, choices = await first_offer(harness)
    original = run.interact

    async def impatient(kind: str, payload: dict[str, object], token: str, within: float) -> str | None:
        return await original(kind, payload, token, 0.0)  # gives up before the bot can answer

    run.interact = impatient  # type: ignore[method-assign]
    await run._click(user, message, choices)
    await harness.settle()
    figures = run.figures()
    assert figures["unanswered"] == 1 and figures["accepted_clicks"] == 0
    assert figures["unanswered_then_answered"] == {"accepted": 1} and figures["unanswered_never_answered"] == 0


def test_the_bots_own_clock_is_read_off_its_histogram_between_two_scrapes() -> None:
    before = {0.1: 5.0, 1.0: 5.0, 10.0: 5.0, math.inf: 5.0, -1.0: 0.2}
    after = {0.1: 55.0, 1.0: 104.0, 10.0: 105.0, math.inf: 106.0, -1.0: 30.2}  # 101 more: 50 fast, 49, 1, 1 slow
    figures = load.BotClock.figures(before, after)
    assert figures == {
        "answers": 101,
        "mean_ms": 297.0,
        "p50_under_ms": 1000.0,
        "p99_under_ms": 10000.0,
        "largest_bucket_ms": 10000.0,
    }
    stuck = load.BotClock.figures({math.inf: 0.0, 10.0: 0.0, -1.0: 0.0}, {math.inf: 4.0, 10.0: 1.0, -1.0: 80.0})
    assert stuck["p50_under_ms"] is None and stuck["p99_under_ms"] is None, "above the largest bucket"
    assert load.BotClock.figures(after, after) == {"answers": 0}


def test_rest_figures_set_what_was_sent_against_what_the_notifier_was_asked() -> None:
    page = (
        "# TYPE tablebot_notifications_total counter\n"
        'tablebot_notifications_total{kind="open"} 3.0\ntablebot_notifications_total{kind="table"} 30.0\n'
        'tablebot_notifications_total{kind="dm"} 12.0\n'
    )
    earlier = page.replace("30.0", "10.0").replace("12.0", "4.0")
    asked = load.notifications_asked(page) - load.notifications_asked(earlier)
    assert asked == {"table": 20, "dm": 8}
    sent = Counter({"POST table/thread post": 10, "PATCH table/thread edit": 7, "PATCH dm edit": 6, "POST dm post": 1})
    exempt = Counter({"answer": 20, "followup": 5, "delete": 5, "edit": 2})
    figures = load.rest_figures(sent, exempt, 10, asked)
    assert figures["rest_per_turn"] == 2.4 and figures["interaction_answers_per_turn"] == 2.0
    assert figures["exempt_per_turn"] == {"answer": 2.0, "delete": 0.5, "edit": 0.2, "followup": 0.5}
    assert figures["floor_per_turn"] == 1.8  # a table edit (with its log line), 0.8 DM refreshes
    assert figures["uncoalesced_per_turn"] == 2.8  # 2 table edits, 0.8 DM refreshes
    assert figures["asked_per_turn"] == {"table": 2.0, "dm": 0.8}
    assert figures["coalesced_away_per_turn"] == {"table": 1.3}
    assert load.rest_figures(sent, exempt, 10, None)["floor_per_turn"] is None


async def test_a_run_with_expert_ai_seats_picks_the_level_in_the_lobby(harness: Harness) -> None:
    # `bench load --ai-level expert`: the lobby's AI select seats experts, and the game plays on with them.
    run = load.InProcessRun(harness, 0.0, random.Random(1))
    run.ai_level = "expert"
    _guild, channels = await harness.add_guild(1)
    table = await run.open_game(0, "eggs-empires", "", 1, 2, channels[0])
    await harness.settle()
    assert harness.bot is not None and table.game_id is not None
    seats = await harness.bot.db.seats(table.game_id)
    assert [s.ai_level for s in seats] == [None, "expert", "expert"]
    assert not harness.errors


def test_the_experts_searches_are_read_off_the_bots_metrics_apart() -> None:
    from bench.load.measure import counter_delta
    from bot.app.metrics import BotMetrics
    from bot.app.thinking import Thinkers

    thinkers = Thinkers()
    metrics = BotMetrics()
    metrics.watch_thinkers(thinkers)
    before = metrics.exposition().decode()
    thinkers.in_workers, thinkers.in_process = 3, 1
    thinkers.search_seconds.update(worker=0.12, in_process=0.05)
    after = metrics.exposition().decode()
    assert counter_delta(before, after, "tablebot_ai_searches", "where") == {"worker": 3.0, "in_process": 1.0}
    spent = counter_delta(before, after, "tablebot_ai_search_cpu_seconds", "where")
    assert spent == pytest.approx({"worker": 0.12, "in_process": 0.05})
