"""Scripted players for the harness: play a game to the end by clicking the buttons the bot sent."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from fakediscord.driver import Driver
from harness import Harness


def choice_components(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in Harness.components(message) if str(c.get("custom_id", "")).startswith(("g:", "gs:"))]


async def decide_from_message(h: Driver, user: int, message: dict[str, Any], index: int = 0) -> bool:
    """Pick an offered choice (`index`, wrapping) or the first `pick` options of a select; False if none."""
    components = choice_components(message)
    if not components:
        return False
    if components[0]["type"] == 3:
        select = components[0]
        options = select["options"]
        values = [options[(index + i) % len(options)]["value"] for i in range(select["min_values"])]
        responses = await h.select(user, select["custom_id"], values, message=message)
    else:
        responses = await h.click(user, components[index % len(components)]["custom_id"], message=message)
    assert responses, "every click is answered"
    return True


@dataclass
class TurnCost:
    """REST calls the bot made with its own token (`kinds`), by kind; apart, the interaction callbacks (one
    per click) and the other requests through interaction tokens (`through_tokens`, by method: the
    notifier reaching players through their latest click; Discord does not count them)."""

    resolved_turns: int = 0
    decisions: int = 0
    interaction_responses: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    through_tokens: Counter[str] = field(default_factory=Counter)

    @property
    def bot_calls(self) -> int:
        return sum(self.kinds.values())

    def per_turn(self) -> float:
        return self.bot_calls / max(1, self.resolved_turns)


def classify(h: Harness, method: str, path: str) -> str:
    parts = path.strip("/").split("/")
    if parts[0] == "channels" and len(parts) >= 3:
        channel = h.fake.channels.get(int(parts[1]), {})
        where = "dm" if channel.get("type") == 1 else "table/thread"
        return f"{method} {where} {({'PATCH': 'edit', 'DELETE': 'delete'}).get(method, 'post')}"
    return f"{method} /{parts[0]}"


async def play_to_end(
    h: Harness, game_id: int, users: list[int], *, max_steps: int = 2000, rng: random.Random | None = None
) -> TurnCost:
    """Every human decides from their DM as soon as offered, until the game is over.

    Choices rotate with the step, or are drawn from `rng`: a fixed rotation can cycle for ever in
    games that offer a way back (Eight-Minute Empire's "Pick another army")."""
    assert h.bot is not None
    mark = len(h.fake.calls)
    turns_before = resolved_turns(h)
    cost = TurnCost()
    for step in range(max_steps):
        row = await h.bot.table.db.get_game(game_id)
        assert row is not None
        if row.status != "active":
            break
        progressed = False
        for turn, user in enumerate(users):
            dms = h.dms(user)
            index = rng.randrange(10_000) if rng is not None else step + turn
            if dms and await decide_from_message(h, user, dms[-1], index=index):
                cost.decisions += 1
                progressed = True
        if not progressed:
            state, _version = await h.bot.table.db.load_state(game_id)
            from games import get

            engine = get(row.game_key)
            waiting = [(p.seat, p.kind, p.choice_ids()) for p in engine.prompts(engine.from_json(state))]
            latest = [
                [c.get("custom_id") for c in Harness.components(h.dms(u)[-1])] if h.dms(u) else None for u in users
            ]
            raise AssertionError(f"the game stalled: prompts {waiting}, DM buttons {latest}, errors {h.errors}")
    calls = h.calls_since(mark)
    for call in calls:
        if call.via == "http":
            cost.kinds[classify(h, call.method, call.path)] += 1
        elif call.path.endswith("/callback"):
            cost.interaction_responses += 1
        else:
            cost.through_tokens[call.method] += 1
    cost.resolved_turns = resolved_turns(h) - turns_before
    return cost


def resolved_turns(h: Harness) -> int:
    """Turns resolved so far: the log lines the table service handed to the notifier (the bot's metrics;
    the table message shows them: the log is folded into it)."""
    assert h.bot is not None
    lines = h.bot.metrics.registry.get_sample_value("tablebot_notifications_total", {"kind": "log"})
    return int(lines or 0)
