"""What Discord refuses in a message body, checked by the fake as Discord checks it (issue 21.3).

The limits are Discord's documented ones (see ../shared/discord-api/README.md): message content 2,000
characters; at most 10 embeds of 6,000 characters in all, a title of 256, a description of 4,096, 25
fields (name 256, value 1,024), a footer of 2,048, an author name of 256; at most 5 action rows, each
with up to 5 buttons or one select; a button label of 80 characters, a custom_id of 100, unique in the
message; a link button has a url and no custom_id, any other button a custom_id and no url; a select
has 1 to 25 options (label, value and description 100 characters each) and a placeholder of 150.
A body that breaks one is refused with Discord's 400 "Invalid Form Body" (code 50035), naming where.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

CONTENT = 2000
EMBEDS = 10
EMBED_TOTAL = 6000
LIMITS = {"title": 256, "description": 4096}
FIELDS = 25
FIELD_NAME, FIELD_VALUE, FOOTER, AUTHOR = 256, 1024, 2048, 256
ROWS, BUTTONS = 5, 5
LABEL, CUSTOM_ID, PLACEHOLDER, OPTIONS, OPTION_TEXT = 80, 100, 150, 25, 100
ACTION_ROW, BUTTON, LINK = 1, 2, 5
SELECTS = {3, 5, 6, 7, 8}


def problems(body: dict[str, Any]) -> list[str]:
    """Where a message body (a post, an edit, an interaction answer) breaks Discord's limits."""
    return list(_problems(body))


def _problems(body: dict[str, Any]) -> Iterator[str]:
    content = body.get("content")
    if isinstance(content, str) and len(content) > CONTENT:
        yield f"content: {len(content)} characters, more than {CONTENT}"
    embeds = body.get("embeds") or []
    if len(embeds) > EMBEDS:
        yield f"embeds: {len(embeds)}, more than {EMBEDS}"
    for i, embed in enumerate(embeds):
        yield from (f"embeds.{i}.{p}" for p in _embed(embed))
    rows = body.get("components") or []
    if len(rows) > ROWS:
        yield f"components: {len(rows)} rows, more than {ROWS}"
    seen: set[str] = set()
    for r, row in enumerate(rows):
        yield from (f"components.{r}.{p}" for p in _row(row, seen))


def _embed(embed: dict[str, Any]) -> Iterator[str]:
    total = 0
    for key, limit in LIMITS.items():
        value = embed.get(key) or ""
        total += len(value)
        if len(value) > limit:
            yield f"{key}: {len(value)} characters, more than {limit}"
    fields = embed.get("fields") or []
    if len(fields) > FIELDS:
        yield f"fields: {len(fields)}, more than {FIELDS}"
    for f, field in enumerate(fields):
        name, value = field.get("name") or "", field.get("value") or ""
        total += len(name) + len(value)
        if not name or not value:
            yield f"fields.{f}: a field needs a name and a value"
        if len(name) > FIELD_NAME:
            yield f"fields.{f}.name: more than {FIELD_NAME} characters"
        if len(value) > FIELD_VALUE:
            yield f"fields.{f}.value: {len(value)} characters, more than {FIELD_VALUE}"
    footer = (embed.get("footer") or {}).get("text") or ""
    author = (embed.get("author") or {}).get("name") or ""
    total += len(footer) + len(author)
    if len(footer) > FOOTER:
        yield f"footer.text: more than {FOOTER} characters"
    if len(author) > AUTHOR:
        yield f"author.name: more than {AUTHOR} characters"
    if total > EMBED_TOTAL:
        yield f"{total} characters in all, more than {EMBED_TOTAL}"


def _row(row: dict[str, Any], seen: set[str]) -> Iterator[str]:
    if row.get("type") != ACTION_ROW:
        return  # a layout component (Container, Section...): the layout flag's own rules apply
    items = row.get("components") or []
    selects = [c for c in items if c.get("type") in SELECTS]
    if not items:
        yield "an action row needs a component"
    if selects and len(items) > 1:
        yield "a select takes a whole action row"
    if len(items) > BUTTONS:
        yield f"{len(items)} buttons in a row, more than {BUTTONS}"
    for c, item in enumerate(items):
        where = f"components.{c}"
        custom_id = item.get("custom_id")
        if custom_id is not None:
            if len(custom_id) > CUSTOM_ID:
                yield f"{where}.custom_id: more than {CUSTOM_ID} characters"
            if custom_id in seen:
                yield f"{where}.custom_id: {custom_id!r} twice in one message"
            seen.add(custom_id)
        if item.get("type") == BUTTON:
            if len(item.get("label") or "") > LABEL:
                yield f"{where}.label: more than {LABEL} characters"
            if item.get("style") == LINK and (not item.get("url") or custom_id is not None):
                yield f"{where}: a link button has a url and no custom_id"
            if item.get("style") != LINK and (custom_id is None or item.get("url")):
                yield f"{where}: a button has a custom_id and no url"
        elif item.get("type") in SELECTS:
            if len(item.get("placeholder") or "") > PLACEHOLDER:
                yield f"{where}.placeholder: more than {PLACEHOLDER} characters"
            options = item.get("options")
            if item.get("type") == 3 and not 1 <= len(options or []) <= OPTIONS:
                yield f"{where}.options: {len(options or [])}, not 1 to {OPTIONS}"
            for o, option in enumerate(options or []):
                for key in ("label", "value", "description"):
                    if len(option.get(key) or "") > OPTION_TEXT:
                        yield f"{where}.options.{o}.{key}: more than {OPTION_TEXT} characters"
            low, high = item.get("min_values", 1), item.get("max_values", 1)
            if options is not None and not 0 <= low <= high <= len(options):
                yield f"{where}: min_values {low} and max_values {high} do not fit {len(options)} options"
