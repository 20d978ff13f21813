"""What Discord refuses, as Discord refuses it: its API description, and the limits it documents beside it.

`refusal(method, path, query, body)` is the fake's judge of every request. It asks Discord's own
description first (`fakediscord.openapi`: route, path and query parameters, the JSON body against its
schema), then the documented limits that the description does not encode (../shared/discord-api/README.md):
- message content 2,000 characters (the description allows 4,000, which only some users get);
- 6,000 characters across a message's embeds (title, description, fields, footer, author);
- at most 5 action rows in a message without the layout flag; with it (IS_COMPONENTS_V2), 40
  components in all and 4,000 characters of text display;
- a custom_id unique within its message; a select alone in its action row; a link button with a
  url and no custom_id, any other button with a custom_id and no url;
- a select's min_values and max_values within its options;
- a slash command's and its options' names, in every language: 1-32 letters, digits, `-`, `_` or `'`,
  lowercase where the letter has a lowercase form (Discord's CHAT_INPUT name pattern).
Both answer with Discord's 400 "Invalid Form Body" (code 50035) and one nested `errors` tree.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import Any

from fakediscord.openapi import Located, Refusal, description, error_tree, flatten, invalid_form_body

CONTENT = 2000
EMBED_TOTAL = 6000
ROWS = 5
LAYOUT_FLAG = 1 << 15  # IS_COMPONENTS_V2
LAYOUT_COMPONENTS, LAYOUT_TEXT = 40, 4000
ACTION_ROW, BUTTON, TEXT_DISPLAY, LINK = 1, 2, 10, 5
SELECTS = {3, 5, 6, 7, 8}
LIMIT = "BASE_TYPE_MAX_LENGTH"


def refusal(method: str, path: str, query: dict[str, Any] | None = None, body: Any = None) -> Refusal | None:
    """None when Discord would take the request; otherwise its answer (404, 405, or 400 with code 50035)."""
    refused = description().check(method, path, query, body)
    if refused is not None and refused.status != 400:
        return refused
    located = list(_limits(message_body(method, path, body), ["data"] if path.startswith("/interactions/") else []))
    located += _commands(method, path, body)
    if not located:
        return refused
    if refused is not None:  # one tree: the description's errors, and the limits at the places it left alone
        described: list[Located] = [
            (list(where.split(".")) if where else [], e["code"], e["message"])
            for where, e in flatten(refused.body["errors"])
        ]
        places = {tuple(where) for where, _, _ in described}
        located = described + [found for found in located if tuple(map(str, found[0])) not in places]
    return invalid_form_body(error_tree(located))


def problems(body: dict[str, Any]) -> list[str]:
    """Where a message body (a post, an edit, an interaction's message) breaks Discord's documented limits."""
    return [f"{'.'.join(map(str, where))}: {message}" for where, _, message in _limits(body, [])]


def _commands(method: str, path: str, body: Any) -> list[Located]:
    parts = path.strip("/").split("/")
    if parts[0] != "applications" or parts[-1] != "commands" or method not in ("PUT", "POST"):
        return []
    commands = body if isinstance(body, list) else [body]
    found: list[Located] = []
    for i, item in enumerate(commands):
        if isinstance(item, dict) and item.get("type", 1) in (1, None):  # user and message commands are free
            found += _names(item, [i] if isinstance(body, list) else [])
    return found


def _names(item: dict[str, Any], at: list[str | int]) -> list[Located]:
    """Where a slash command's (or option's) names, its own and its options', break Discord's pattern."""
    found: list[Located] = []
    if not command_name_ok(item.get("name")):
        found.append(([*at, "name"], "APPLICATION_COMMAND_INVALID_NAME", NAME_RULE))
    for language, name in (item.get("name_localizations") or {}).items():
        if not command_name_ok(name):
            found.append(([*at, "name_localizations", language], "APPLICATION_COMMAND_INVALID_NAME", NAME_RULE))
    for o, option in enumerate(item.get("options") or []):
        if isinstance(option, dict):
            found += _names(option, [*at, "options", o])
    return found


NAME_RULE = "Command names are lowercase letters, digits, - and _ (1-32)."


def command_name_ok(name: Any) -> bool:
    """Discord's CHAT_INPUT name pattern, ^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$, lowercase
    wherever a letter has a lowercase form."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32 or name != name.lower():
        return False
    return all(c in "-_'" or unicodedata.category(c)[0] in "LN" or _indic(c) for c in name)


def _indic(c: str) -> bool:
    """Devanagari and Thai marks (their scripts are allowed whole, vowel signs included)."""
    return "\u0900" <= c <= "\u097f" or "\u0e00" <= c <= "\u0e7f"


def message_body(method: str, path: str, body: Any) -> dict[str, Any] | None:
    """The message a request writes, if it writes one: a post or edit of a channel message, a webhook's
    follow-up or edit, or an interaction callback that answers with a message (types 4 and 7)."""
    parts = path.strip("/").split("/")
    if not isinstance(body, dict) or method not in ("POST", "PATCH"):
        return None
    if parts[0] == "webhooks" or (parts[0] == "channels" and len(parts) in (3, 4) and parts[2] == "messages"):
        return body
    if parts[0] == "interactions" and body.get("type") in (4, 7) and isinstance(body.get("data"), dict):
        return body["data"]
    return None


def _limits(body: dict[str, Any] | None, at: list[str | int]) -> Iterator[Located]:
    if body is None:
        return
    content = body.get("content")
    if isinstance(content, str) and len(content) > CONTENT:
        yield [*at, "content"], LIMIT, f"Must be {CONTENT} or fewer in length."
    total = sum(_embed_text(embed) for embed in body.get("embeds") or [] if isinstance(embed, dict))
    if total > EMBED_TOTAL:
        yield [*at, "embeds"], LIMIT, f"Embed size exceeds maximum size of {EMBED_TOTAL}"
    rows = [row for row in body.get("components") or [] if isinstance(row, dict)]
    if int(body.get("flags") or 0) & LAYOUT_FLAG:
        yield from _layout(rows, at)
    elif len(rows) > ROWS:
        yield [*at, "components"], LIMIT, f"Must be {ROWS} or fewer in length."
    seen: set[str] = set()
    for r, row in enumerate(rows):
        yield from _row(row, seen, [*at, "components", r])


def _embed_text(embed: dict[str, Any]) -> int:
    fields = embed.get("fields") or []
    parts = [embed.get("title"), embed.get("description"), (embed.get("footer") or {}).get("text")]
    parts += [(embed.get("author") or {}).get("name")]
    parts += [f.get(key) for f in fields if isinstance(f, dict) for key in ("name", "value")]
    return sum(len(p) for p in parts if isinstance(p, str))


def _layout(rows: list[dict[str, Any]], at: list[str | int]) -> Iterator[Located]:
    def walk(items: list[Any]) -> Iterator[dict[str, Any]]:
        for item in items:
            if isinstance(item, dict):
                yield item
                yield from walk(item.get("components") or [])
                if isinstance(item.get("accessory"), dict):
                    yield item["accessory"]

    every = list(walk(rows))
    if len(every) > LAYOUT_COMPONENTS:
        yield [*at, "components"], LIMIT, f"Must be {LAYOUT_COMPONENTS} or fewer components in all."
    text = sum(len(c.get("content") or "") for c in every if c.get("type") == TEXT_DISPLAY)
    if text > LAYOUT_TEXT:
        yield [*at, "components"], LIMIT, f"Must be {LAYOUT_TEXT} or fewer characters of text in all."


def _row(row: dict[str, Any], seen: set[str], at: list[str | int]) -> Iterator[Located]:
    if row.get("type") != ACTION_ROW:
        return  # a layout component (Container, Section...): the layout flag's own rules apply
    items = [c for c in row.get("components") or [] if isinstance(c, dict)]
    if any(c.get("type") in SELECTS for c in items) and len(items) > 1:
        yield [*at, "components"], "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "A select takes a whole action row."
    for c, item in enumerate(items):
        where = [*at, "components", c]
        custom_id = item.get("custom_id")
        if custom_id is not None:
            if custom_id in seen:
                yield (
                    [*where, "custom_id"],
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            seen.add(custom_id)
        if item.get("type") == BUTTON:
            link = item.get("style") == LINK
            if link and (not item.get("url") or custom_id is not None):
                yield where, "BUTTON_COMPONENT_URL_REQUIRED", "A link button has a url and no custom_id."
            if not link and (custom_id is None or item.get("url")):
                yield where, "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED", "A button has a custom_id and no url."
        elif item.get("type") == 3:
            options = item.get("options") or []
            low, high = item.get("min_values", 1), item.get("max_values", 1)
            if isinstance(low, int) and isinstance(high, int) and not 0 <= low <= high <= len(options):
                yield (
                    where,
                    "SELECT_COMPONENT_VALUES_INVALID",
                    f"min_values {low}, max_values {high}: not within {len(options)} options.",
                )
