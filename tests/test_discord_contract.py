"""The fake Discord refuses what Discord refuses (fakediscord.contract): its API description, then its limits.

Every request of every test is judged (tests/conftest.py `every_request_valid`); here each kind of
request is shown refused when it is wrong, answered as Discord answers it, and what Discord tolerates
beyond its description (fakediscord.openapi.TOLERATED) is shown accepted.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fakediscord import openapi
from fakediscord.contract import command_name_ok, problems, refusal
from harness import Harness

CHANNEL = "/channels/1000000000000001/messages"
EDIT = f"{CHANNEL}/1000000000000002"
CALLBACK = "/interactions/1000000000000003/token-1/callback"
FOLLOWUP = "/webhooks/1000000000000004/token-1"
ORIGINAL = f"{FOLLOWUP}/messages/@original"
COMMANDS = "/applications/1000000000000004/commands"


def button(custom_id: str | None, label: str = "ok", **rest: object) -> dict[str, object]:
    found: dict[str, object] = {"type": 2, "style": 1, "label": label, **rest}
    if custom_id is not None:
        found["custom_id"] = custom_id
    return found


def row(*items: dict[str, object]) -> dict[str, object]:
    return {"type": 1, "components": list(items)}


def errors_of(method: str, path: str, body: Any = None, query: dict[str, Any] | None = None) -> list[str]:
    found = refusal(method, path, query, body)
    assert found is not None, f"{method} {path} {body} was accepted"
    assert found.status == 400 and found.code == 50035 and found.body["message"] == "Invalid Form Body"
    return found.problems()


def test_the_fakes_copy_of_discords_description_is_the_shared_one() -> None:
    shared = Path(__file__).parents[2] / "shared" / "discord-api" / "openapi.json"
    if not shared.exists():
        pytest.skip("../shared is not beside this checkout")
    assert json.loads(openapi.SPEC.read_text()) == json.loads(shared.read_text())


def test_a_message_within_discords_rules_passes_on_every_route_that_writes_one() -> None:
    message = {
        "content": "x" * 2000,
        "embeds": [{"title": "t" * 256, "description": "d" * 4096, "fields": [{"name": "n", "value": "v"}]}],
        "components": [row(*[button(f"b{i}") for i in range(5)])],
        "allowed_mentions": {"parse": []},
    }
    assert refusal("POST", CHANNEL, None, message) is None
    assert refusal("PATCH", EDIT, None, message) is None
    assert refusal("POST", FOLLOWUP, {"wait": 1, "with_components": 1}, message) is None
    assert refusal("PATCH", ORIGINAL, {"with_components": "1"}, message) is None
    assert refusal("PATCH", "/webhooks/1000000000000004/token-1/messages/%40original", None, message) is None
    for kind in (4, 7):
        assert refusal("POST", CALLBACK, {"with_response": "1"}, {"type": kind, "data": message}) is None
    assert refusal("POST", CALLBACK, None, {"type": 5, "data": {"flags": 64}}) is None


def test_each_limit_in_the_description_is_refused_with_discords_error_tree() -> None:
    found = refusal("POST", CHANNEL, None, {"embeds": [{"title": "t" * 257}]})
    assert found is not None
    assert found.body["errors"] == {
        "embeds": {
            "0": {
                "title": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 256 or fewer in length."}]}
            }
        }
    }
    # The innermost field is named, through the unions of components (as Discord names it).
    assert errors_of("POST", CHANNEL, {"components": [row(button("b", label="l" * 81))]}) == [
        "components.0.components.0.label: Must be 80 or fewer in length. (BASE_TYPE_MAX_LENGTH)"
    ]
    assert errors_of("PATCH", EDIT, {"embeds": [{"description": "d" * 4097}]})
    assert errors_of("PATCH", EDIT, {"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]})
    assert errors_of("PATCH", EDIT, {"embeds": [{"fields": [{"name": "n"}]}]}) == [
        "embeds.0.fields.0.value: This field is required (BASE_TYPE_REQUIRED)"
    ]
    assert errors_of("POST", CHANNEL, {"components": [row(*[button(f"b{i}") for i in range(6)])]})
    assert errors_of("POST", CHANNEL, {"components": [row(button("c" * 101))]})
    select = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}] * 26}
    assert errors_of("POST", CHANNEL, {"components": [row(select)]})
    assert errors_of("POST", CALLBACK, {"type": 4, "data": {"embeds": [{"title": 3}]}}) == [
        "data.embeds.0.title: Must be of type null or string. (BASE_TYPE_BAD_TYPE)"
    ]
    assert errors_of("POST", CALLBACK, {"type": 99})
    assert errors_of("POST", FOLLOWUP, {"content": "c" * 2001})


def test_the_documented_limits_the_description_leaves_out_are_refused_too() -> None:
    assert errors_of("POST", CHANNEL, {"content": "x" * 2001}) == [
        "content: Must be 2000 or fewer in length. (BASE_TYPE_MAX_LENGTH)"
    ]
    over = {"embeds": [{"description": "d" * 4000, "fields": [{"name": "n", "value": "v" * 1024}] * 2}]}
    assert errors_of("POST", CHANNEL, over) == [
        "embeds: Embed size exceeds maximum size of 6000 (BASE_TYPE_MAX_LENGTH)"
    ]
    assert errors_of("POST", CHANNEL, {"components": [row(button("b"))] * 6})
    assert errors_of("POST", CHANNEL, {"components": [row(button("same"), button("same"))]})
    assert errors_of("POST", CHANNEL, {"components": [row(button(None, style=5))]}), "a link needs a url"
    assert refusal("POST", CHANNEL, None, {"components": [row(button(None, style=5, url="https://x"))]}) is None
    select = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}
    assert errors_of("POST", CHANNEL, {"components": [row(select, button("b"))]}), "a select takes its row"
    assert errors_of("POST", CHANNEL, {"components": [row(dict(select, min_values=2, max_values=2))]})
    # A refusal of both kinds at once names both, in one tree.
    both = errors_of("POST", CALLBACK, {"type": 4, "data": {"content": "x" * 2001, "embeds": [{"title": "t" * 300}]}})
    assert len(both) == 2 and any(p.startswith("data.content") for p in both)
    assert problems({"content": "x" * 2001}) == ["content: Must be 2000 or fewer in length."]


def test_routes_parameters_and_queries_are_judged_as_discord_judges_them() -> None:
    missing = refusal("GET", "/no/such/route")
    assert missing is not None and (missing.status, missing.body["message"]) == (404, "404: Not Found")
    wrong_method = refusal("POST", "/guilds/1/bans")
    assert wrong_method is not None and wrong_method.status == 405
    assert errors_of("PATCH", "/channels/general/messages/1", {}) == [
        "channel_id: String value did not match validation regex. (STRING_TYPE_REGEX)"
    ]
    assert errors_of("POST", CALLBACK, {"type": 6}, {"with_response": "perhaps"})
    assert errors_of("POST", CALLBACK, {"type": 6}, {"silently": "1"})
    assert errors_of("POST", "/users/@me/channels") == ["(body): This route needs a body. (BASE_TYPE_REQUIRED)"]
    assert refusal("GET", "/users/@me") is None, "a literal segment (@me) wins over {user_id}"
    assert refusal("PUT", "/channels/1000000000000001/messages/pins/1000000000000002") is None


def test_what_discord_tolerates_beyond_its_description_is_accepted_and_nothing_else_unknown() -> None:
    # Snowflakes as integers (discord.py writes attachment ids and recipient_id so).
    assert refusal("POST", "/users/@me/channels", None, {"recipient_id": 1000000000000009}) is None
    assert refusal("PATCH", EDIT, None, {"attachments": [{"id": 1000000000000009}, {"id": "0"}]}) is None
    assert errors_of("PATCH", EDIT, {"attachments": [{"id": -1}]})
    # `tts` on edits, `flags` inside embeds, `nsfw` on commands: Discord ignores or documents them.
    assert refusal("PATCH", EDIT, None, {"content": "c", "tts": False, "embeds": [{"title": "t", "flags": 0}]}) is None
    assert refusal("PATCH", ORIGINAL, None, {"content": "c", "tts": False}) is None
    # Any other property Discord's description does not name is refused (its effect would be lost).
    assert errors_of("POST", CHANNEL, {"content": "c", "alowed_mentions": {"parse": []}}) == [
        "alowed_mentions: Discord ignores this property (the fake refuses it). (UNKNOWN_FIELD)"
    ]
    assert errors_of("PATCH", EDIT, {"embeds": [{"title": "t", "colour": 3}]})


def command(**changes: Any) -> dict[str, Any]:
    option = {"type": 4, "name": "game", "description": "Which game", "min_value": 1, "max_value": 2**53 - 1}
    found = {"name": "game", "description": "Play", "type": 1, "nsfw": False, "options": [option]}
    return {**found, **changes}


def test_a_command_tree_is_refused_for_what_discord_refuses_in_any_command() -> None:
    assert refusal("PUT", COMMANDS, None, [command()]) is None
    over = command(options=[{**command()["options"][0], "max_value": 2**53}])
    assert errors_of("PUT", COMMANDS, [command(name="other"), over]) == [
        "1.options.0.max_value: int value should be less than or equal to 9007199254740991. (NUMBER_TYPE_MAX)"
    ]
    assert errors_of("PUT", COMMANDS, [command(name="Game")]) == [
        "0.name: Command names are lowercase letters, digits, - and _ (1-32). (APPLICATION_COMMAND_INVALID_NAME)"
    ]
    assert errors_of("PUT", COMMANDS, [command(name_localizations={"it": "nuova partita"})])
    assert errors_of("PUT", COMMANDS, [command(description="d" * 101)])
    assert errors_of("PUT", COMMANDS, [command(description_localizations={"fr": ""})])
    many = command(options=[{**command()["options"][0], "name": f"o{i}"} for i in range(26)])
    assert errors_of("PUT", COMMANDS, [many])
    choices = [{"name": f"c{i}", "value": i} for i in range(26)]
    assert errors_of("PUT", COMMANDS, [command(options=[{**command()["options"][0], "choices": choices}])])
    assert refusal("PUT", COMMANDS, None, [command(name="tournoi-d'été")]) is None, "letters of any language"


def _named(items: list[dict[str, Any]], at: str) -> Any:
    """Every command, option and choice of a tree, with where it is."""
    for item in items:
        where = f"{at}/{item['name']}"
        yield where, item
        yield from _named(item.get("options") or [], where)
        yield from ((f"{where}={c['value']}", c) for c in item.get("choices") or [])


async def test_the_command_tree_the_bot_pushes_is_what_discord_takes_in_all_three_languages(harness: Harness) -> None:
    """The exact payload of the bulk overwrite at start-up: Discord answers 400 to a bad one and registers
    no command at all, so every name, description, bound and count is checked in en, it and fr."""
    synced = [c for c in harness.fake.calls if c.method == "PUT" and c.path.endswith("/commands")]
    assert [c.status for c in synced] == [200]
    tree = synced[0].json
    assert refusal("PUT", synced[0].path, None, tree) is None
    assert {c["name"] for c in tree} == {"game", "leaderboard", "stats", "history", "tournament"}
    assert len(tree) <= 100
    localized = {"it": 0, "fr": 0}
    for where, item in _named(tree, ""):
        is_choice = "=" in where
        names = [item["name"], *(item.get("name_localizations") or {}).values()]
        for language in localized:
            localized[language] += language in (item.get("name_localizations") or {})
        if is_choice:
            assert all(1 <= len(n) <= 100 for n in names), where
            continue
        assert all(command_name_ok(n) for n in names), (where, names)
        descriptions = [item["description"], *(item.get("description_localizations") or {}).values()]
        assert all(1 <= len(d) <= 100 for d in descriptions), (where, descriptions)
        assert set(item.get("description_localizations") or {}) == {"it", "fr"}, where
        assert len(item.get("options") or []) <= 25 and len(item.get("choices") or []) <= 25, where
        for bound in ("min_value", "max_value"):
            if bound in item:
                assert -(2**53 - 1) <= item[bound] <= 2**53 - 1, (where, bound, item[bound])
    assert localized["it"] > 20 and localized["fr"] > 20, localized
