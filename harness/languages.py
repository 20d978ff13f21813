"""A whole game in one language through the harness, and what every player saw of it (issue 22).

`LocaleHarness` gives each user a Discord client locale (the fake sends "en-US" otherwise);
`play_in_language` opens a table on a server set to that language, seats three people (one with closed
DMs, so the thread mentions and the ephemeral hand are part of it) and an AI where the game takes four,
and plays to the end by clicking what the bot sent, found by custom id so no English label is needed.
`shown_strings` and `everything_sent` collect every user-facing string the bot sent (every version of
every message); `transcript` lays them out in order, one block per message and edit, for a reader
(docs/transcripts/ is made from it by `python -m harness.languages`).
"""

from __future__ import annotations

import asyncio
import random
import re
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

import games
from bot.texts.i18n import po_path
from harness import Harness
from harness.play import choice_components, decide_from_message

GAME_ID = 1
PEOPLE = {"it": ("Giulia", "Marco", "Chiara"), "fr": ("Camille", "Hugo", "Léa"), "en": ("Ann", "Ben", "Cleo")}
LOCALES = {"it": "it", "fr": "fr", "en": "en-US"}


class LocaleHarness(Harness):
    """The harness, with a Discord client locale per user (the fake sends "en-US" otherwise)."""

    def user_in(self, name: str, locale: str, **kwargs: Any) -> int:
        user_id = self.user(name, **kwargs)
        self.fake.locales[user_id] = locale
        return user_id


def shown_strings(message: dict[str, Any]) -> Iterator[str]:
    """Every user-facing string of a message: content, embeds' texts, components' labels and options."""
    yield message.get("content") or ""
    for embed in message.get("embeds") or []:
        yield embed.get("title") or ""
        yield embed.get("description") or ""
        yield (embed.get("footer") or {}).get("text") or ""
        for f in embed.get("fields") or []:
            yield f.get("name") or ""
            yield f.get("value") or ""
    for row in message.get("components") or []:
        for c in row.get("components", []):
            yield c.get("label") or ""
            yield c.get("placeholder") or ""
            for option in c.get("options") or []:
                yield option.get("label") or ""
                yield option.get("description") or ""


def everything_sent(h: Harness) -> list[str]:
    """Every non-empty string of every version of every message the bot sent or edited."""
    found = []
    for messages in h.fake.messages.values():
        for message in messages.values():
            found += list(shown_strings(message))
    for message in h.fake.ephemeral_messages.values():
        found += list(shown_strings(message))
    for response in h.fake.responses:  # every version of every answer, not only the last
        found += list(shown_strings(response.get("data") or {}))
    for call in h.fake.calls:  # every version of every message the bot edited
        if isinstance(call.json, dict):
            found += list(shown_strings(call.json))
    return [s for s in found if s]


def _button(h: Harness, channel: int, action: str) -> str:
    """The lobby button of `action` ("join", "ai", "start") by its custom id, whatever its label."""
    wanted = f"lb:{GAME_ID}:{action}"
    for message in reversed(h.messages_in(channel)):
        if any(c.get("custom_id") == wanted for c in h.components(message)):
            return wanted
    raise AssertionError(f"no lobby button {action!r}")


async def play_in_language(h: LocaleHarness, key: str, lang: str, seed: int = 7) -> tuple[int, int, int]:
    """A whole game of `key` (with its richest sample variants) on a server set to `lang`, its players'
    clients in `lang`: three people (the third with closed DMs) and, where the game takes four, an AI.
    Returns the people's user ids."""
    rng = random.Random(seed)
    locale = LOCALES[lang]
    first, second, third = PEOPLE[lang]
    host = h.user_in(first, locale, admin=True)
    other = h.user_in(second, locale)
    closed = h.user_in(third, locale, dm_closed=True)
    await h.slash(host, "game settings", language=lang)
    # The game's richest sample variants (Reggverse's expansions, EME's explore tokens and citadels):
    # more of what a player may read.
    richest = max(games.get(key).sample_options, key=len)
    variants = " ".join(f"{name}={str(value).lower()}" for name, value in richest.items())
    options: dict[str, Any] = {"variants": variants} if variants else {}
    await h.slash(host, "game new", game=key, timer=0, **options)
    await h.click(other, _button(h, h.channel, "join"))
    await h.click(closed, _button(h, h.channel, "join"))
    if games.get(key).max_players >= 4:
        await h.click(host, _button(h, h.channel, "ai"))
    await h.click(host, _button(h, h.channel, "start"))
    [thread] = h.threads()
    assert h.bot is not None
    seats = {s.user_id: s.seat for s in await h.bot.table.db.seats(GAME_ID)}
    for _step in range(3000):
        row = await h.bot.table.db.get_game(GAME_ID)
        assert row is not None and row.state is not None
        if row.status != "active":
            break
        engine = games.get(row.game_key)
        awaited = {p.seat for p in engine.prompts(engine.from_json(row.state))}
        moved = False
        for user in (host, other):
            if seats[user] in awaited and h.dms(user) and choice_components(h.dms(user)[-1]):
                moved = await decide_from_message(h, user, h.dms(user)[-1], rng.randrange(10_000)) or moved
        if seats[closed] in awaited:
            if not h.ephemerals(closed) or not choice_components(h.ephemerals(closed)[-1]):
                await h.click(closed, f"hand:{GAME_ID}", channel=thread)
            moved = await decide_from_message(h, closed, h.ephemerals(closed)[-1], rng.randrange(10_000)) or moved
        assert moved, f"the game stalled; errors: {h.errors}"
    await h.settle()
    return host, other, closed


# --- the transcript -----------------------------------------------------------------------------------
def _message_text(body: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    if body.get("content"):
        lines.append(str(body["content"]))
    for embed in body.get("embeds") or []:
        if embed.get("title"):
            lines.append(f"## {embed['title']}")
        if embed.get("description"):
            lines.append(str(embed["description"]))
        for f in embed.get("fields") or []:
            lines += [f"**{f.get('name', '')}**", str(f.get("value", ""))]
        if (embed.get("footer") or {}).get("text"):
            lines.append(f"_{embed['footer']['text']}_")
    for row in body.get("components") or []:
        for c in row.get("components", []):
            if c.get("options"):
                options = " | ".join(str(o.get("label", "")) for o in c["options"])
                lines.append(f"[{c.get('placeholder') or ''} ▾ {options}]")
            elif c.get("label"):
                lines.append(f"[{c['label']}]")
    return lines


def _where(h: Harness, call: Any, names: dict[int, str], thread: int | None) -> tuple[str, str, bool] | None:
    """Who reads what this call sent (the channel, the game's thread, a DM, one person's answer), which
    message it is (to tell edits apart) and whether it edits one."""
    parts = call.path.strip("/").split("/")

    def channel_name(channel: int) -> str | None:
        if channel == h.channel:
            return "#general"
        if channel == thread:
            return "game thread"
        owner = next((u for u in names if h.dm_channel(u) == channel), None)
        return f"DM to {names[owner]}" if owner is not None else None

    if parts[0] == "channels" and len(parts) >= 3 and parts[2] == "messages":
        place = channel_name(int(parts[1]))
        edit = call.method == "PATCH"
        return (place, parts[3] if edit else f"new {len(h.fake.calls)}", edit) if place else None
    if parts[0] in ("interactions", "webhooks"):
        source = h.fake.interaction_sources.get(parts[2], {})  # parts[2]: the interaction's token
        user = names.get(int(source.get("user_id") or 0), "?")
        if parts[0] == "interactions" and (call.json or {}).get("type") == 7 and source.get("message_id"):
            ephemeral = int(source["message_id"]) in h.fake.ephemeral_messages
            place = None if ephemeral else channel_name(int(source.get("channel_id") or 0))
            return place or f"answer to {user}", str(source["message_id"]), True  # a click editing its message
        return f"answer to {user}", parts[2], call.method == "PATCH"
    return None


def transcript(h: Harness, names: dict[int, str], title: str) -> str:
    """Everything the bot sent or edited, in order, as Markdown: one block per post or edit, where it
    went and what it read (pictures by file name). An edit shows the lines it changed, an edit that
    changed no text is left out."""
    threads = h.threads()
    thread = threads[0] if threads else None
    out = [f"# {title}", ""]
    last: dict[str, list[str]] = {}
    for call in h.fake.calls:
        if call.method not in ("POST", "PATCH") or not isinstance(call.json, dict) or call.status >= 400:
            continue
        body = call.json.get("data") if call.path.endswith("/callback") else call.json
        if not isinstance(body, dict):
            continue
        lines = "\n".join(_message_text(body)).split("\n")
        where = _where(h, call, names, thread)
        if lines == [""] or where is None:
            continue
        place, message, edit = where
        before = last.get(message)
        last[message] = lines
        if before == lines:
            continue
        files = f" (picture: {', '.join(call.files)})" if call.files else ""
        if edit and before is not None:
            changed = [line for line in lines if line not in before]
            out += [f"### {place}: edited, what changed{files}", "", *(changed or ["(lines removed)"]), ""]
        else:
            out += [f"### {place}: {'edited' if edit else 'posted'}{files}", "", *lines, ""]
    return "\n".join(out).rstrip() + "\n"


# --- docs/transcripts ---------------------------------------------------------------------------------
async def write_transcript(key: str, lang: str, folder: Path) -> Path:
    with tempfile.TemporaryDirectory() as scratch:
        h = await LocaleHarness.start(Path(scratch) / "bot.sqlite3")
        try:
            users = await play_in_language(h, key, lang)
            names = {u: PEOPLE[lang][i] for i, u in enumerate(users)}
            title = f"{games.get(key).title}: {lang}"
            path = folder / f"{key}.{lang}.md"
            path.write_text(transcript(h, names, title), encoding="utf-8")
        finally:
            await h.close()
    return path


def main(argv: list[str]) -> int:
    """`python -m harness.languages [FOLDER]`: one whole game of each game in Italian and in French."""
    folder = Path(argv[0]) if argv else Path(__file__).resolve().parents[1] / "docs" / "transcripts"
    folder.mkdir(parents=True, exist_ok=True)
    for key in games.keys():
        for lang in ("it", "fr"):
            print(asyncio.run(write_transcript(key, lang, folder)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


def catalog(lang: str) -> Catalog:
    with po_path(lang).open("rb") as handle:
        return read_po(handle, locale=lang, domain="bot")


# --- English left in another language's messages ------------------------------------------------------
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_WORD = re.compile(r"[A-Za-z]{2,}")


def _english_patterns(lang: str) -> list[tuple[str, re.Pattern[str]]]:
    """A pattern per English msgid whose translation in `lang` differs: its literal words in order, any
    text where its placeholders are. Msgids of slash-command names (Discord shows them apart) and
    msgids without two words of letters outside their placeholders are left out: a lone word is checked
    only as a whole string (a button label), as English and the other language share many."""
    patterns = []
    for message in catalog(lang):
        if not message.id or message.context == "command":
            continue
        english = [message.id] if isinstance(message.id, str) else list(message.id)
        translated = [message.string] if isinstance(message.string, str) else list(message.string or ())
        for source in english:
            if source in translated:
                continue
            pieces = _PLACEHOLDER.split(source)
            if sum(len(_WORD.findall(p)) for p in pieces) >= 2:
                body = ".*?".join(re.escape(p) for p in pieces)
                patterns.append((source, re.compile(rf"(?<![A-Za-z]){body}(?![a-z])", re.DOTALL)))
            elif len(pieces) == 1 and _WORD.search(source):
                patterns.append((source, re.compile(rf"\A{re.escape(source)}\Z")))
    return patterns


def english_leftovers(strings: Iterable[str], lang: str) -> dict[str, str]:
    """English msgids (of messages `lang` translates differently) found in `strings`: msgid -> where."""
    texts = sorted(set(strings))
    found: dict[str, str] = {}
    for source, pattern in _english_patterns(lang):
        anchor = max((p for p in _PLACEHOLDER.split(source)), key=len).strip()
        for value in texts:
            if anchor in value and pattern.search(value):
                found[source] = value
                break
    return found
