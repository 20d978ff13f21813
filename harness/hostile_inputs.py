"""Hypothesis strategies for hostile interactions against an `Arena` (harness/hostile.py).

Clicks start from real messages the bot sent (current and old copies) and real custom_ids, then
forge them: other games' and seats' ids, unknown, negative, huge and non-ASCII numbers, stale
versions, truncated or overlong ids, wrong prefixes, choices never offered; the clicking user is a
player of another game, a stranger, or somebody from another guild. Selects get unknown,
duplicated and miscounted values. Slash commands get unknown game keys, huge and unicode variant
strings, bad option values and missing options. Payloads are also damaged (missing or mistyped
fields), as a hostile or buggy client could send them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

import games
from bot.messages.components import MAX_ID, PREFIXES
from fakediscord.driver import components_of
from harness.hostile import Arena

Draw = Callable[[st.SearchStrategy[Any]], Any]

NUMBERS = st.one_of(
    st.sampled_from(
        [
            "",
            "0",
            "1",
            "2",
            "-1",
            "007",
            " 1",
            "1 ",
            "+1",
            "1.0",
            "1e3",
            "0x1",
            "nan",
            "9" * 19,
            str(MAX_ID),
            str(MAX_ID + 1),
            "9" * 40,
            "\u0661",
            "\uff11",
            "\u00b2",
            "\u2167",
        ]
    ),
    st.integers(-(10**25), 10**25).map(str),
)
JUNK = st.one_of(
    st.text(max_size=30),
    st.text(min_size=90, max_size=300),
    st.sampled_from(
        [
            "\n",
            "\x00",
            ":",
            "::::",
            "%s",
            "{0}",
            "{x}",
            "'",
            '"',
            "<@1>",
            "@everyone",
            "🥚" * 40,
            "é" * 120,
            "\u202e",
            "a" * 101,
        ]
    ),
)
PREFIX_SWAPS = [*PREFIXES, "lbd:", "G:", "g", "gg:", "g::", ":", "", "zzz:", "hand", "rules:", "lo:", "gs:"]


def _mutate(draw: Draw, custom_id: str, others: list[str]) -> str:
    parts = custom_id.split(":")
    how = draw(
        st.sampled_from(
            [
                "keep",
                "part",
                "part_from_other",
                "truncate",
                "drop",
                "duplicate",
                "prefix",
                "append",
                "random",
                "random_prefixed",
            ]
        )
    )
    if how == "part" and len(parts) > 1:
        i = draw(st.integers(1, len(parts) - 1))
        parts[i] = draw(st.one_of(NUMBERS, JUNK))
    elif how == "part_from_other" and len(parts) > 1 and others:
        other = draw(st.sampled_from(others)).split(":")
        i = draw(st.integers(1, len(parts) - 1))
        parts[i] = other[min(i, len(other) - 1)]
    elif how == "truncate":
        return custom_id[: draw(st.integers(0, max(0, len(custom_id) - 1)))]
    elif how == "drop" and len(parts) > 1:
        del parts[draw(st.integers(1, len(parts) - 1))]
    elif how == "duplicate":
        i = draw(st.integers(0, len(parts) - 1))
        parts.insert(i, parts[i])
    elif how == "prefix":
        return draw(st.sampled_from(PREFIX_SWAPS)) + ":".join(parts[1:])
    elif how == "append":
        return custom_id + draw(st.sampled_from([":", ""])) + draw(JUNK)
    elif how == "random":
        return str(draw(st.text(max_size=120)))
    elif how == "random_prefixed":
        return draw(st.sampled_from(PREFIXES)) + draw(st.one_of(JUNK, st.lists(NUMBERS, max_size=5).map(":".join)))
    return ":".join(parts)


def _values(draw: Draw, component: dict[str, Any], arena: Arena) -> list[str]:
    options = [str(o["value"]) for o in component.get("options") or []] or ["-"]
    count = int(component.get("min_values") or 1)
    how = draw(st.sampled_from(["valid", "duplicated", "count", "unknown", "huge", "other_select"]))
    if how == "valid":
        return list(draw(st.permutations(options)))[:count]
    if how == "duplicated":
        return [draw(st.sampled_from(options))] * max(2, count)
    if how == "count":
        return list(draw(st.lists(st.sampled_from(options), max_size=len(options) + 2)))
    if how == "unknown":
        return list(draw(st.lists(st.one_of(NUMBERS, JUNK), min_size=count, max_size=count)))
    if how == "huge":
        return ["x" * draw(st.integers(101, 5000))] * count
    others = [str(o["value"]) for m in arena.pool for c in components_of(m) for o in c.get("options") or []]
    return list(draw(st.lists(st.sampled_from(others or options), min_size=1, max_size=count + 1)))


# --- damaged payloads (what a buggy or hostile client could send) -----------------------------------
def _no_message(payload: dict[str, Any]) -> None:
    payload.pop("message", None)


def _data(payload: dict[str, Any]) -> dict[str, Any]:
    return payload["data"] if isinstance(payload.get("data"), dict) else {}  # another damage may have taken it


def _custom_id_not_a_string(payload: dict[str, Any]) -> None:
    _data(payload)["custom_id"] = 12345


def _no_component_type(payload: dict[str, Any]) -> None:
    _data(payload).pop("component_type", None)


def _unknown_component_type(payload: dict[str, Any]) -> None:
    _data(payload)["component_type"] = 99


def _values_not_a_list(payload: dict[str, Any]) -> None:
    _data(payload)["values"] = "abc"


def _values_not_strings(payload: dict[str, Any]) -> None:
    _data(payload)["values"] = [1, None, 2.5]


def _no_data(payload: dict[str, Any]) -> None:
    payload.pop("data", None)


def _unknown_locale(payload: dict[str, Any]) -> None:
    payload["locale"] = "xx-YY"


def _unknown_channel(payload: dict[str, Any]) -> None:
    payload["channel_id"] = "123"
    payload.pop("channel", None)


def _other_guild(payload: dict[str, Any]) -> None:
    if "guild_id" in payload:
        payload["guild_id"] = str(int(payload["guild_id"]) + (77 << 22))


def _extra_fields(payload: dict[str, Any]) -> None:
    _data(payload)["unexpected"] = {"nested": ["x"]}
    payload["surprise"] = True


def _no_options(payload: dict[str, Any]) -> None:
    _data(payload).pop("options", None)


COMPONENT_DAMAGE = [
    _no_message,
    _custom_id_not_a_string,
    _no_component_type,
    _unknown_component_type,
    _values_not_a_list,
    _values_not_strings,
    _no_data,
    _unknown_locale,
    _unknown_channel,
    _other_guild,
    _extra_fields,
]
# (An application command without data is not something Discord sends: discord.py's tree itself fails on it.)
COMMAND_DAMAGE = [_no_options, _unknown_locale, _unknown_channel, _other_guild, _extra_fields]


@st.composite
def component_interaction(draw: Draw, arena: Arena) -> dict[str, Any]:
    # Messages with something to click (a DM whose only button is the link to the table has none).
    clickable = [m for m in arena.pool if any(c.get("custom_id") for c in components_of(m))]
    base = draw(st.sampled_from(clickable))
    components = [c for c in components_of(base) if c.get("custom_id")]
    component = draw(st.sampled_from(components))
    custom_id = _mutate(draw, str(component["custom_id"]), arena.custom_ids())
    message = copy.deepcopy(base)
    for row in message["components"]:
        for item in row.get("components", []):
            if item.get("custom_id") == component["custom_id"]:
                item["custom_id"] = custom_id
    routing = draw(st.sampled_from(["carried"] * 8 + ["gone", "other_type"]))
    if routing == "gone":
        message["components"] = []
    is_select = component["type"] == 3
    if routing == "other_type":
        is_select = not is_select
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 3 if is_select else 2}
    if is_select:
        data["values"] = _values(draw, component, arena)
    user = draw(st.sampled_from(arena.fuzzers))
    channel = int(base["channel_id"])
    if draw(st.integers(0, 9)) == 0:  # the same message shown somewhere else (another guild, a DM)
        channel = draw(st.sampled_from([*arena.channels, arena.dm_of(user)]))
    example: dict[str, Any] = {
        "kind": "select" if is_select else "click",
        "user": user,
        "channel": channel,
        "message": message,
        "data": data,
        "locale": draw(st.sampled_from(["en-US", "en-US", "it", "fr", "de"])),
    }
    if draw(st.integers(0, 7)) == 0:
        example["damage"] = draw(st.lists(st.sampled_from(COMPONENT_DAMAGE), min_size=1, max_size=2, unique=True))
    return example


COMMANDS = [
    "game new",
    "game join",
    "game leave",
    "game start",
    "game kick",
    "game hand",
    "game status",
    "game rules",
    "game abandon",
    "game settings",
    "leaderboard",
]
STRING_VALUES = st.one_of(
    st.sampled_from(
        [
            *games.keys(),
            "",
            " ",
            "eggs-empires ",
            "EGGS-EMPIRES",
            "chess",
            "scoring=conpub",
            "scoring=bogus",
            "scoring=",
            "=x",
            "a=b=c",
            "shape=ring,tokens=99",
            "objectives=true",
            "tokens=-1",
            "egg_types=99999999999999999999",
            "layout=" + "L" * 3000,
            "it",
            "fr",
            "xx",
            "global",
            "server",
            "nope",
        ]
    ),
    JUNK,
)
# Values of the option's own type (Discord checks that much); the type itself may be out of date, below.
INT_VALUES = st.one_of(
    st.sampled_from([0, -1, 1, 8, 9, 60, 600, 86_400, 86_401, 2**31, 2**53, 2**63, 10**20]), st.integers()
)


@st.composite
def command_interaction(draw: Draw, arena: Arena) -> dict[str, Any]:
    command = draw(st.sampled_from([*COMMANDS, "game nonsense"]))
    group, _, sub = command.partition(" ")
    assert arena.h.bot is not None
    try:
        declared = arena.h._option_types(group, sub)
    except AssertionError:
        declared = {}
    options = []
    for name, kind in declared.items():
        if kind == 6 or draw(st.integers(0, 4)) == 0:  # user options need resolved data; others sometimes missing
            continue
        # Sometimes the option has another type, as an out-of-date registration would declare it (not
        # NUMBER: discord.py's own Namespace fails on a NUMBER that is not a number, before the bot runs).
        option_type = kind if draw(st.integers(0, 9)) else draw(st.sampled_from([3, 4, 5]))
        value = draw(INT_VALUES if option_type == 4 else STRING_VALUES if option_type == 3 else st.booleans())
        options.append({"name": name, "type": option_type, "value": value})
    if draw(st.integers(0, 9)) == 0:
        options.append({"name": draw(st.sampled_from(["bogus", "game", "x" * 200])), "type": 3, "value": "x"})
    inner: dict[str, Any] = {"id": str(arena.h.fake.snowflake()), "name": group, "type": 1}
    inner["options"] = [{"type": 1, "name": sub, "options": options}] if sub else options
    user = draw(st.sampled_from(arena.fuzzers))
    # Commands run where games are; "/game new" never in a free channel (that would rightly open a lobby).
    places = arena.command_channels() + ([] if sub == "new" else [arena.dm_of(user)])
    example: dict[str, Any] = {
        "kind": "slash",
        "user": user,
        "channel": draw(st.sampled_from(places)),
        "data": inner,
        "command": command,
        "locale": draw(st.sampled_from(["en-US", "it", "fr", "de"])),
    }
    if draw(st.integers(0, 7)) == 0:
        example["damage"] = draw(st.lists(st.sampled_from(COMMAND_DAMAGE), min_size=1, max_size=2, unique=True))
    return example


def hostile(arena: Arena) -> st.SearchStrategy[dict[str, Any]]:
    return st.one_of(component_interaction(arena), component_interaction(arena), command_interaction(arena))
