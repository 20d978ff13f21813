"""A fourth game, added the way docs/adding-a-game.md says and nothing else: it plays at the Discord table,
and it passes every per-game test.

The game ("Tiny Bid", a simultaneous secret bid; tests/minimal_game/tinybid/) is written against
games/core.py only, as a new contributor would: an engine, the random AI, no renderer, English only. It
is registered the way every game is: a subpackage of `games` exposing `GAME` (its folder is put on
`games.__path__`, as games/ itself is), and only when a run asks for it (TEST_MINIMAL_GAME=1). No line of
bot/, table/, storage/ or bench/ knows it.

- In a fresh process (the slash commands' choices are made when the bot's modules are imported), the
  real bot, through the Discord harness, offers it in `/game new` (in the commands it syncs), opens its
  lobby, seats an AI (the game declares only a random AI: seats and stand-ins get that), plays it to its
  end through DM buttons (one turn decided by the AI standing in for a player whose turn timer ran out),
  shows it with the generic renderer (text only) and records its result.
- The per-game tests (every test parametrized over the registered games) run in a pytest of their own
  with the game registered: they all pass for it, or are skipped saying which of its declarations
  (`ai_levels`, `languages`, pictures: tests/declared.py) turns them off.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from tests import minimal_game

ROOT = Path(__file__).resolve().parents[1]
KEY = minimal_game.KEY


async def play() -> dict[str, Any]:
    """In this (fresh) process: register the game and play it through the harness; what was seen."""
    import games

    minimal_game.register()
    assert KEY in games.keys()

    from bot.commands.cogs.game import GAME_CHOICES
    from harness import Harness
    from harness.play import choice_components, decide_from_message

    seen: dict[str, Any] = {"choices": [c.value for c in GAME_CHOICES]}
    with tempfile.TemporaryDirectory() as work:
        h = await Harness.start(Path(work) / "bot.sqlite3")
        try:
            h.set_clock(datetime(2026, 1, 1, tzinfo=UTC))
            game_option = next(
                o
                for c in h.fake.commands
                if c["name"] == "game"
                for s in c["options"]
                if s["name"] == "new"
                for o in s["options"]
                if o["name"] == "game"
            )
            seen["synced"] = [c["value"] for c in game_option["choices"]]
            alice, bob = h.user("Alice"), h.user("Bob")
            await h.slash(alice, "game new", game=KEY, timer=60)
            await h.click(bob, h.find_button(h.channel, "Join"))
            await h.click(alice, h.find_button(h.channel, "Add AI"))
            await h.click(alice, h.find_button(h.channel, "Start"))
            assert h.bot is not None
            row = await h.bot.table.db.channel_game(h.channel)
            assert row is not None and row.id is not None
            seen["seats"] = [(s.name, s.ai_level) for s in await h.bot.table.db.seats(row.id)]
            now = datetime(2026, 1, 1, tzinfo=UTC)
            for round_ in range(1, 4):
                await decide_from_message(h, alice, h.dms(alice)[-1], round_)
                if round_ == 2:  # Bob lets his timer run out: reminded at half time, then the AI bids for him
                    for _ in range(2):
                        now += timedelta(seconds=31)
                        await h.tick(now)
                else:
                    await decide_from_message(h, bob, h.dms(bob)[-1], round_)
            await h.settle()
            row = await h.bot.table.db.get_game(row.id)
            assert row is not None
            seen["status"] = row.status
            seen["afk_turns"] = sum(1 for a in await h.bot.table.db.actions(row.id) if a.afk)
            [thread] = h.threads()
            seen["table"] = h.messages_in(thread)[0]["embeds"][0]["description"]
            seen["log"] = [m["content"] for m in h.messages_in(thread)[1:]]
            seen["buttons_left"] = [len(choice_components(m)) for m in (h.dms(alice)[-1], h.dms(bob)[-1])]
            seen["results"] = [(r.rank, r.ai_level) for r in await h.bot.table.db.results(row.id)]
            seen["errors"] = h.errors
        finally:
            await h.close()
    return seen


def test_a_game_written_against_the_contract_alone_plays_at_the_discord_table() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "tests.test_adding_a_game"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-4000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert KEY in seen["choices"] and KEY in seen["synced"], "offered by /game new"
    assert [level for _name, level in seen["seats"]] == [None, None, "random"], "the AI seat gets the random level"
    assert seen["status"] == "finished"
    assert seen["afk_turns"] == 1, "the AI stood in once, for Bob's second round"
    assert "```" in seen["table"], "the generic renderer shows the view as text"
    assert seen["buttons_left"] == [0, 0], "nobody has anything left to decide"
    assert len(seen["results"]) == 3 and sorted(rank for rank, _level in seen["results"])[0] == 1
    assert seen["errors"] == []


# What a skipped per-game test may say: one of the game's declarations turned it off (tests/declared.py),
# or the machine lacks a server the test needs.
DECLARED = ("declares ai_levels", "declares languages", "has no renderer", "TEST_POSTGRES_URL")


def per_game_suite(report: Path) -> subprocess.CompletedProcess[str]:
    """Every test whose id names the minimal game, in a pytest of its own with the game registered."""
    junit = [f"--junitxml={report}"]
    return subprocess.run(
        [sys.executable, "-m", "pytest", "tests", "-q", "-p", "no:cacheprovider", "-n", "2", "-rs", "-k", KEY, *junit],
        cwd=ROOT,
        env={**os.environ, minimal_game.ENV: "1"},
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def test_the_per_game_suite_passes_for_a_game_with_the_required_layer_only(tmp_path: Path) -> None:
    run = per_game_suite(tmp_path / "report.xml")
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    cases = ElementTree.parse(tmp_path / "report.xml").getroot().iter("testcase")
    passed, skipped = [], []
    for case in cases:
        name = f"{case.get('classname')}::{case.get('name')}"
        skip = case.find("skipped")
        if skip is not None:
            skipped.append((name, skip.get("message") or ""))
        elif case.find("failure") is None and case.find("error") is None:
            passed.append(name)
    print(f"\nthe per-game suite for {KEY}: {len(passed)} passed, {len(skipped)} skipped")
    for name, reason in skipped:
        print(f"  skipped {name}: {reason}")
    assert len(passed) >= 15, passed
    assert [(name, reason) for name, reason in skipped if not any(d in reason for d in DECLARED)] == []
    # the layers it lacks are what turns tests off: an expert, Italian and French, pictures
    reasons = " ".join(reason for _name, reason in skipped)
    assert "no 'expert' level" in reasons and "not told in 'it'" in reasons and "text only" in reasons


if __name__ == "__main__":
    print(json.dumps(asyncio.run(play())))
