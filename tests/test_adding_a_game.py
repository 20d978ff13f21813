"""A fourth game, added the way docs/adding-a-game.md says and nothing else: it plays at the Discord table.

The game ("Tiny Bid", a simultaneous secret bid) is written below against games/core.py only, saved
as a package in a temporary folder, and registered the way every game is: a subpackage of `games`
exposing `GAME` (the folder is put on `games.__path__`, as games/ itself is). No line of bot/, table/,
storage/ or bench/ knows it. In a fresh process (the slash commands' choices are made when the bot's
modules are imported), the real bot, through the Discord harness:
- offers it in `/game new` (in the commands it syncs);
- opens its lobby, seats an AI (the game declares only a random AI: seats and stand-ins get that);
- plays it to its end through DM buttons, one turn decided by the AI standing in for a player whose
  turn timer ran out;
- shows it with the generic renderer (text only: the game has no renderer of its own) and records
  its result.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
KEY = "tiny-bid"

# The whole game: what docs/adding-a-game.md shows, as a new author would write it.
TINY_BID = '''
"""Tiny Bid: each round everybody secretly bids one card; the highest bid nobody else made scores."""

from __future__ import annotations

from typing import Any

from games.core import Choice, Game, Prompt, check_choice

ROUNDS = 3
CARDS = (1, 2, 3, 4, 5)


class TinyBid(Game[dict[str, Any]]):
    key = "tiny-bid"
    title = "Tiny Bid"
    min_players = 2
    max_players = 4
    ai_levels = ("random",)

    def new(self, players: int, seed: int, options: dict[str, Any] | None = None) -> dict[str, Any]:
        self.check_players(players)
        self.resolve_options(options)
        return {"round": 1, "hands": [list(CARDS) for _ in range(players)], "bids": [None] * players,
                "scores": [0] * players}

    def players(self, state: dict[str, Any]) -> int:
        return len(state["hands"])

    def prompts(self, state: dict[str, Any]) -> list[Prompt]:
        if state["round"] > ROUNDS:
            return []
        return [
            Prompt(seat, "bid", [Choice(f"c{card}", f"Card {card}", {"card": card}) for card in hand],
                   secret=True, text="Which card do you bid?", info={"round": state["round"]})
            for seat, hand in enumerate(state["hands"]) if state["bids"][seat] is None
        ]

    def apply(self, state: dict[str, Any], seat: int, choice: list[str]) -> list[dict[str, Any]]:
        check_choice(self.prompts(state), seat, choice)
        card = int(choice[0][1:])
        state["hands"][seat].remove(card)
        state["bids"][seat] = card
        events: list[dict[str, Any]] = [{"type": "decided", "seat": seat}]
        if all(bid is not None for bid in state["bids"]):
            bids = state["bids"]
            unique = [b for b in bids if bids.count(b) == 1]
            winner = bids.index(max(unique)) if unique else None
            if winner is not None:
                state["scores"][winner] += 1
            events.append({"type": "revealed", "round": state["round"], "bids": list(bids), "winner": winner})
            state["bids"] = [None] * len(bids)
            state["round"] += 1
        return events

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        shown = {"round": min(state["round"], ROUNDS), "scores": list(state["scores"]),
                 "decided": [bid is not None for bid in state["bids"]]}
        if seat is not None:
            shown["hand"] = list(state["hands"][seat])
        return shown

    def outcome(self, state: dict[str, Any]) -> dict[str, Any] | None:
        if state["round"] <= ROUNDS:
            return None
        scores = state["scores"]
        return {"scores": list(scores), "ranking": [1 + sum(o > s for o in scores) for s in scores]}

    def to_json(self, state: dict[str, Any]) -> dict[str, Any]:
        return {**state, "hands": [list(h) for h in state["hands"]]}

    def from_json(self, data: dict[str, Any]) -> dict[str, Any]:
        return {**data, "hands": [list(h) for h in data["hands"]], "bids": list(data["bids"]),
                "scores": list(data["scores"])}


GAME = TinyBid()
'''


def write_game(folder: Path) -> Path:
    """The game as a package `tinybid` in `folder` (a folder to put on `games.__path__`)."""
    package = folder / "tinybid"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(TINY_BID)
    return folder


async def play(folder: str) -> dict[str, Any]:
    """In this (fresh) process: register the game and play it through the harness; what was seen."""
    import games

    games.__path__.append(folder)
    games.forget()
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


def test_a_game_written_against_the_contract_alone_plays_at_the_discord_table(tmp_path: Path) -> None:
    folder = write_game(tmp_path)
    run = subprocess.run(
        [sys.executable, "-m", "tests.test_adding_a_game", str(folder)],
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


if __name__ == "__main__":
    print(json.dumps(asyncio.run(play(sys.argv[1]))))
