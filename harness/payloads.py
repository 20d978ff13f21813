"""Reading what the bot sent: the dicts inside a payload, the channel a call went to, engine state."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from harness import EPHEMERAL, Call, Harness


def walk(value: Any) -> Iterator[dict[str, Any]]:
    """Every dict inside a JSON payload."""
    if isinstance(value, dict):
        yield value
        for inner in value.values():
            yield from walk(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from walk(inner)


def channel_of(h: Harness, call: Call) -> int | None:
    """The channel a REST call or interaction response posted to (None when it names none)."""
    parts = call.path.strip("/").split("/")
    if parts[0] == "channels":
        return int(parts[1])
    if parts[0] in ("interactions", "webhooks") and len(parts) > 2:  # the token is the third part
        return h.fake.interaction_sources.get(parts[2], {}).get("channel_id")
    return None


def is_ephemeral(call: Call) -> bool:
    return any(int(d.get("flags") or 0) & EPHEMERAL for d in walk(call.json))


def payload_text(call: Call) -> str:
    return json.dumps(call.json, ensure_ascii=False)


async def engine_state(h: Harness, engine: Any, game_id: int) -> tuple[Any, Any]:
    """The game's engine state as stored, and its row."""
    assert h.bot is not None
    row = await h.bot.table.db.get_game(game_id)
    assert row is not None and row.state is not None
    return engine.from_json(row.state), row
