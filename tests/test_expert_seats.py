"""Expert AI seats in Discord (issue 25 part 2): the host picks an AI's level in the lobby, each level is
its own identity on the ladders, and expert decisions are made in a worker process, never on the
bot's event loop."""

from __future__ import annotations

import asyncio
import os
import signal
from typing import Any

import pytest

import games
from bot.app.thinking import Thinkers
from bot.messages import present
from games.core import Game, Prompt
from harness import Harness
from storage.ratings import ai_level_of, identity
from table.thinking import InlineThinker, decide

GAME_ID = 1


class Spy(InlineThinker):
    """Decides on the spot, as the harness's bot would, and notes which levels it was asked for."""

    def __init__(self) -> None:
        self.levels: list[str] = []

    async def choose(self, game: Game[Any], level: str, seed: int, state: Any, prompt: Prompt) -> list[str]:
        self.levels.append(level)
        return await super().choose(game, level, seed, state, prompt)


async def test_the_host_picks_an_expert_ai_in_the_lobby_and_it_plays(harness: Harness) -> None:
    h = harness
    host = h.user("Host")
    assert h.bot is not None
    spy = Spy()
    h.bot.table.thinker = spy
    await h.slash(host, "game new", game="eight-minute-empire")
    lobby = h.messages_in(h.channel)[0]
    [picker] = [c for c in Harness.components(lobby) if c.get("custom_id", "").endswith(f":{present.ADD_AI}")]
    assert [o["value"] for o in picker["options"]] == ["heuristic", "expert"]
    assert [o["label"] for o in picker["options"]] == ["Easy", "Expert"]
    await h.select(host, picker["custom_id"], ["expert"], message=lobby)
    seats = await h.bot.db.seats(GAME_ID)
    assert [(s.ai_level, s.name) for s in seats[1:]] == [("expert", "AI 1 (expert)")]
    assert "AI 1 (expert)" in str(h.messages_in(h.channel)[0]["embeds"][0]), "the lobby shows the new seat"
    await h.click(host, h.find_button(h.channel, "Start"))
    await h.settle()
    # Two players place the neutral armies in turn: the expert seat has decided by now, through the thinker.
    actions = await h.bot.db.actions(GAME_ID)
    assert any(a.seat == 1 for a in actions) and spy.levels and set(spy.levels) == {"expert"}
    assert not h.errors


async def test_the_add_ai_button_still_seats_the_easy_level(harness: Harness) -> None:
    h = harness
    host = h.user("Host")
    assert h.bot is not None
    await h.slash(host, "game new", game="eggs-empires")
    await h.click(host, h.find_button(h.channel, "Add AI"))
    seats = await h.bot.db.seats(GAME_ID)
    assert [(s.ai_level, s.name) for s in seats[1:]] == [("heuristic", "AI 1 (easy)")]


def test_each_level_is_its_own_identity_on_the_ladders() -> None:
    ids = {level: identity(None, level) for level in ("heuristic", "random", "expert")}
    assert ids == {"heuristic": -1, "random": -2, "expert": -3}
    assert all(ai_level_of(i) == level for level, i in ids.items())


def expert_position(key: str = "eight-minute-empire") -> tuple[Game[Any], Any, Prompt]:
    """A position where the expert searches: the first card of a 2-player game."""
    game = games.get(key)
    state = game.new(2, 7)
    ais = [game.ai("heuristic", s) for s in range(2)]
    while (prompts := game.prompts(state))[0].kind != "card":
        for p in prompts:
            game.apply(state, p.seat, ais[p.seat].choose(game, state, p))
    return game, state, game.prompts(state)[0]


@pytest.mark.slow
async def test_expert_decisions_are_made_in_a_worker_the_same_as_in_the_bot_and_survive_its_death() -> None:
    # One test: starting a worker process (a fresh interpreter importing the games) is what takes time.
    game, state, prompt = expert_position()
    before = game.to_json(state)
    expected = decide(game, "expert", 99, state, prompt)
    thinkers = Thinkers()
    thinkers.start(1)
    try:
        ticks = 0
        decided = asyncio.create_task(thinkers.choose(game, "expert", 99, state, prompt))
        while not decided.done():  # the loop keeps running while the worker searches
            ticks += 1
            await asyncio.sleep(0)
        assert decided.result() == expected
        assert thinkers.in_workers == 1 and thinkers.in_process == 0 and ticks > 10
        # a cheap level is decided on the spot: sending it away would cost more than deciding
        assert await thinkers.choose(game, "heuristic", 5, state, prompt) == decide(game, "heuristic", 5, state, prompt)
        assert thinkers.in_workers == 1
        assert game.to_json(state) == before, "the state is left as it was"
        # A worker that dies loses no decision: it is made in the bot, and a new worker takes the next.
        pool = thinkers._pool
        assert pool is not None
        for pid in list(pool._processes):  # the test kills the worker it was given
            os.kill(pid, signal.SIGKILL)
        await asyncio.sleep(0.2)
        assert await thinkers.choose(game, "expert", 99, state, prompt) == expected
        assert thinkers.in_process == 1 and thinkers._pool is not pool
        assert await thinkers.choose(game, "expert", 99, state, prompt) == expected
        assert thinkers.in_workers == 2
    finally:
        await thinkers.stop()
