"""Leak checks: nothing a channel, a thread or another player's DM receives holds a seat's secrets.

`LeakWatch` wraps the game renderers (what `bot.messages.present` draws messages with) and the fake
Discord's file upload, then checks every message the bot sent or edited, for its audience (public
for a channel or thread; the recipient's seats for a DM or an ephemeral answer):

1. renderer inputs: a public picture or embed (table, image, log line) is drawn from exactly the
   engine's public view `view(state, None)` of the stored state, a seat's from exactly `view(state, seat)`
   and that seat's own prompt; a log line never gets a private event (one addressed "to" a seat);
2. where renders went: an embed or image drawn for a seat appears only in messages whose audience
   holds that seat, and buttons that decide for a seat only in that seat's messages;
3. text: no message holds the text of another seat's secrets, found by rendering each seat's
   private embed from its view twice, as it is and with its secret values (those its view has and
   the public view has not) taken out: the lines that differ are that seat's secrets as players
   read them (hands, scouted eggs, bids, objectives), derived from the engine, not hard-coded.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from typing import Any
from unittest import mock

import games
from bot.messages import present
from bot.render.kit.generic import TableContext
from fakediscord.driver import components_of
from fakediscord.fake_discord import FakeDiscord, Upload
from harness import Harness
from harness.play import decide_from_message

# Shorter secret lines ("3", "Shepherd (3), Mage (7)": one or two cards) also occur by chance in public
# text, e.g. a hand that holds what another player has just revealed (two-player games have two decks).
MIN_PROBE = 30


def _norm(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def _embed_key(embed: dict[str, Any]) -> str:
    """An embed as sent, without the picture reference added after rendering."""
    return _norm({k: v for k, v in embed.items() if k not in ("image", "type", "flags", "color")})


@dataclass
class LeakWatch:
    h: Harness
    problems: list[str] = field(default_factory=list)
    messages_checked: int = 0
    renders_checked: int = 0
    public_embeds: set[str] = field(default_factory=set)
    seat_embeds: dict[str, set[tuple[int, int]]] = field(default_factory=dict)  # embed -> (game, seat)s
    public_images: set[str] = field(default_factory=set)
    seat_images: dict[str, set[tuple[int, int]]] = field(default_factory=dict)
    _seen: dict[str, str] = field(default_factory=dict)  # message key -> digest of what was checked

    # --- the stored truth ---------------------------------------------------------------------
    def _read(self, query: str, *args: Any) -> list[tuple[Any, ...]]:
        with closing(sqlite3.connect(f"file:{self.h.database}?mode=ro", uri=True)) as conn:
            return conn.execute(query, args).fetchall()

    def state(self, game_id: int) -> tuple[games.core.Game[Any], Any] | None:
        rows = self._read("SELECT game_key, state FROM games WHERE id = ?", game_id)
        if not rows or rows[0][1] is None:
            return None
        engine = games.get(rows[0][0])
        return engine, engine.from_json(json.loads(rows[0][1]))

    def seats_of(self, user_id: int) -> set[tuple[int, int]]:
        return {(g, s) for g, s in self._read("SELECT game_id, seat FROM seats WHERE user_id = ?", user_id)}

    # --- 1. renderer inputs -------------------------------------------------------------------
    def _expect_view(self, method: str, game_id: int, view: dict[str, Any], seat: int | None) -> None:
        found = self.state(game_id)
        self.renders_checked += 1
        if found is None:
            self.problems.append(f"{method} for game {game_id} drawn while the game has no state")
            return
        engine, state = found
        if _norm(view) != _norm(engine.view(state, seat)):
            whose = "the public view" if seat is None else f"seat {seat}'s view"
            self.problems.append(f"{method} of game {game_id} was not given exactly {whose} of the stored state")

    @contextmanager
    def installed(self) -> Iterator[LeakWatch]:
        original = present.renderer_for
        watch = self

        class Recording:
            def __init__(self, inner: Any) -> None:
                self._inner = inner

            def __getattr__(self, name: str) -> Any:
                return getattr(self._inner, name)

            def table(self, view: dict[str, Any], ctx: TableContext) -> Any:
                watch._expect_view("table", ctx.game_id, view, None)
                embeds = self._inner.table(view, ctx)
                watch.public_embeds.update(_embed_key(e.to_dict()) for e in embeds)
                return embeds

            def seat(self, view: dict[str, Any], prompt: Any, ctx: TableContext, seat: int) -> Any:
                watch._expect_view("seat", ctx.game_id, view, seat)
                if prompt is not None and prompt.seat != seat:
                    watch.problems.append(f"seat {seat} of game {ctx.game_id} drawn with seat {prompt.seat}'s prompt")
                embed = self._inner.seat(view, prompt, ctx, seat)
                watch.seat_embeds.setdefault(_embed_key(embed.to_dict()), set()).add((ctx.game_id, seat))
                return embed

            def log_line(self, events: list[dict[str, Any]], ctx: TableContext) -> Any:
                private = [e for e in events if "to" in e]
                if private:
                    watch.problems.append(f"a log line of game {ctx.game_id} was given private events {private}")
                return self._inner.log_line(events, ctx)

            def image(self, view: dict[str, Any], lang: str, names: Any = ()) -> Any:
                image = self._inner.image(view, lang, names)
                if image is not None:
                    watch.public_images.add(hashlib.sha256(image).hexdigest()[:16])
                return image

            def seat_image(self, view: dict[str, Any], prompt: Any, lang: str, names: Any = ()) -> Any:
                image = self._inner.seat_image(view, prompt, lang, names)
                if image is not None:
                    # the seat the picture is drawn for: its prompt's (a view's "seat" may be who acts now)
                    seat = prompt.seat if prompt is not None else view.get("me", view.get("seat"))
                    watch.seat_images.setdefault(hashlib.sha256(image).hexdigest()[:16], set()).add(
                        (-1, seat if isinstance(seat, int) else -1)
                    )
                return image

        def recording_renderer_for(game_key: str) -> Any:
            return Recording(original(game_key))

        def decode_form(form: Any) -> tuple[Any, list[Upload]]:
            # File names carry a digest of their bytes, so a message's picture can be traced to its render.
            body, uploads = original_decode(form)
            digests = []
            for part in form:
                if "filename" in part:
                    value = part["value"]
                    data = value.getvalue() if isinstance(value, io.BytesIO) else bytes(value.read())
                    digests.append(f"{part['filename']}#{hashlib.sha256(data).hexdigest()[:16]}")
            return body, [dataclasses.replace(u, filename=name) for u, name in zip(uploads, digests, strict=True)]

        original_decode = FakeDiscord._decode_form
        with (
            mock.patch.object(present, "renderer_for", recording_renderer_for),
            mock.patch.object(FakeDiscord, "_decode_form", staticmethod(decode_form)),
        ):
            yield self

    # --- 2 and 3: every message, for its audience -----------------------------------------------
    def _messages(self) -> Iterator[tuple[str, dict[str, Any], int | None]]:
        """(key, message, recipient user or None for public) of everything Discord shows."""
        for channel_id, messages in self.h.fake.messages.items():
            channel = self.h.fake.channels.get(channel_id, {})
            recipient = int(channel["recipients"][0]["id"]) if channel.get("type") == 1 else None
            for message in messages.values():
                yield f"m{message['id']}", message, recipient
        for message in self.h.fake.ephemeral_messages.values():
            yield f"e{message['id']}", message, int(message["_user_id"])

    def check(self) -> None:
        """Check the messages sent or edited since the last check against the secrets of this moment."""
        probes = self.secret_lines()
        for key, message, recipient in self._messages():
            digest = _norm([message.get(k) for k in ("content", "embeds", "components", "attachments")])
            if self._seen.get(key) == digest:
                continue
            self._seen[key] = digest
            audience = self.seats_of(recipient) if recipient is not None else set()
            self.messages_checked += 1
            self._check_message(message, audience, probes, "public" if recipient is None else f"user {recipient}")

    def _check_message(
        self,
        message: dict[str, Any],
        audience: set[tuple[int, int]],
        probes: dict[tuple[int, int], set[str]],
        where: str,
    ) -> None:
        for embed in message.get("embeds") or []:
            owners = self.seat_embeds.get(_embed_key(embed))
            if owners and not owners & audience and _embed_key(embed) not in self.public_embeds:
                self.problems.append(f"{where} received the private embed of {sorted(owners)}: {embed.get('title')!r}")
        for attachment in message.get("attachments") or []:
            digest = str(attachment.get("filename", "")).partition("#")[2]
            owners = self.seat_images.get(digest)
            if owners and digest not in self.public_images and not self._image_allowed(owners, audience):
                self.problems.append(f"{where} received a seat's private picture {sorted(owners)}")
        for component in components_of(message):
            custom_id = str(component.get("custom_id") or "")
            prefix, _, rest = custom_id.partition(":")
            if prefix in ("g", "gs"):
                parts = rest.split(":")
                if (
                    len(parts) >= 2
                    and parts[0].isdigit()
                    and parts[1].isdigit()
                    and ((int(parts[0]), int(parts[1])) not in audience)
                ):
                    self.problems.append(f"{where} received the decision buttons of game {parts[0]} seat {parts[1]}")
        text = message_text(message)
        for (game_id, seat), lines in probes.items():
            if (game_id, seat) in audience:
                continue
            own = set().union(*(probes.get(s, set()) for s in audience)) if audience else set()
            for line in lines - own:
                if line in text:
                    self.problems.append(f"{where} can read a secret of game {game_id} seat {seat}: {line!r}")

    @staticmethod
    def _image_allowed(owners: set[tuple[int, int]], audience: set[tuple[int, int]]) -> bool:
        # Seat pictures are recorded by seat number (their views carry no game id): any game of the
        # audience with that seat number.
        return any(seat == mine for (_g, seat) in owners for (_game, mine) in audience)

    # --- the secrets, as players read them ----------------------------------------------------
    def secret_lines(self) -> dict[tuple[int, int], set[str]]:
        """Per (game, seat) of every running game: the lines of its private embed that come from its secrets."""
        found: dict[tuple[int, int], set[str]] = {}
        for game_id, key, names in self._running():
            state_found = self.state(game_id)
            if state_found is None:
                continue
            engine, state = state_found
            renderer = present.renderer_for(key)
            inner = getattr(renderer, "_inner", renderer)
            ctx = TableContext(engine.title, game_id, names, [], None, "en")
            public = engine.view(state, None)
            # What the public table says now is public (check 1 makes sure it is drawn from the public
            # view): a secret line that reads the same (this turn's hand = last turn's revealed play) is
            # no evidence of a leak.
            shown = "\n".join(set().union(*(_lines(e.to_dict()) for e in inner.table(public, ctx))))
            for seat in range(len(names)):
                view = engine.view(state, seat)
                real = _lines(inner.seat(view, None, ctx, seat).to_dict())
                blank = _lines(inner.seat(without_secrets(view, public), None, ctx, seat).to_dict())
                found[(game_id, seat)] = {
                    line
                    for line in real - blank
                    if line not in shown and len(line) >= MIN_PROBE and any(c.isalpha() for c in line)
                }
        return found

    def _running(self) -> list[tuple[int, str, list[str]]]:
        rows = self._read("SELECT id, game_key FROM games WHERE status = 'active'")
        result = []
        for game_id, key in rows:
            names = [n for (n,) in self._read("SELECT name FROM seats WHERE game_id = ? ORDER BY seat", game_id)]
            result.append((game_id, key, names))
        return result


def without_secrets(view: Any, public: Any) -> Any:
    """The seat's view with what only the seat knows taken out: keys and values the public view lacks."""
    if isinstance(view, dict) and isinstance(public, dict):
        return {k: without_secrets(v, public[k]) for k, v in view.items() if k in public}
    if isinstance(view, list) and isinstance(public, list) and len(view) == len(public):
        return [without_secrets(v, p) for v, p in zip(view, public, strict=True)]
    return public


def _lines(embed: Any) -> set[str]:  # an embed as a dict (discord.py types it as EmbedData)
    texts = [embed.get("title"), embed.get("description"), (embed.get("footer") or {}).get("text")]
    for item in embed.get("fields") or []:
        texts += [item.get("value")]
    return {line.strip() for t in texts if t for line in str(t).splitlines() if line.strip()}


def message_text(message: dict[str, Any]) -> str:
    """Everything a reader can see in a message: text, embeds, labels, options, file names."""
    parts: list[str] = [str(message.get("content") or "")]
    for embed in message.get("embeds") or []:
        parts += [str(embed.get(k) or "") for k in ("title", "description")]
        parts += [str((embed.get(k) or {}).get(n) or "") for k, n in (("footer", "text"), ("author", "name"))]
        for item in embed.get("fields") or []:
            parts += [str(item.get("name") or ""), str(item.get("value") or "")]
    for component in components_of(message):
        parts += [str(component.get(k) or "") for k in ("label", "placeholder")]
        for option in component.get("options") or []:
            parts += [str(option.get("label") or ""), str(option.get("description") or "")]
    parts += [str(a.get("filename") or "") for a in message.get("attachments") or []]
    return "\n".join(parts)


# --- random games, watched -------------------------------------------------------------------------
async def play_watched(
    h: Harness,
    watch: LeakWatch,
    channel: int,
    game_key: str,
    rng: Any,
    *,
    max_steps: int = 400,
    humans: int | None = None,
) -> int:
    """One game with random players, variants and choices, checked after every step; returns the game id.

    After `max_steps` rounds of decisions a game still running is abandoned by its host (which frees
    the channel), so a short run still covers the start, the turns and an ending."""
    engine = games.get(game_key)
    players = rng.randint(engine.min_players, min(engine.max_players, 4))
    humans = humans or rng.randint(1, min(players, 3))
    players = max(players, humans)
    users = [
        h.user(f"{game_key[:4]}{rng.randrange(10**6)}", dm_closed=(i == 1 and rng.random() < 0.5))
        for i in range(humans)
    ]
    variants = " ".join(f"{o.name}={rng.choice(o.values)}" for o in engine.options if rng.random() < 0.7)
    options: dict[str, Any] = {"game": game_key, "timer": 0}
    if variants:
        options["variants"] = variants
    await h.slash(users[0], "game new", channel=channel, **options)
    for user in users[1:]:
        await h.click(user, h.find_button(channel, "Join"))
    for _ in range(players - humans):
        await h.click(users[0], h.find_button(channel, "Add AI"))
    await h.click(users[0], h.find_button(channel, "Start"))
    assert h.bot is not None
    row = await h.bot.table.db.channel_game(channel)
    assert row is not None and row.id is not None, h.errors
    game_id = row.id
    watch.check()
    for _step in range(max_steps):
        row = await h.bot.table.db.get_game(game_id)
        assert row is not None
        if row.status != "active":
            break
        progressed = False
        for user in users:
            message = await _private_message(h, user, game_id, channel)
            if message is not None and await decide_from_message(h, user, message, index=rng.randrange(10_000)):
                progressed = True
            watch.check()
        assert progressed, f"game {game_id} stalled: {h.errors}"
    row = await h.bot.table.db.get_game(game_id)
    if row is not None and row.status == "active":
        await h.slash(users[0], "game abandon", channel=row.thread_id or channel)
    watch.check()
    return game_id


async def _private_message(h: Harness, user: int, game_id: int, channel: int) -> dict[str, Any] | None:
    """The user's latest private message of this game: their DM, or "Show my hand" when DMs are closed."""
    if user not in h.fake.dm_closed:
        dms = h.dms(user)
        return dms[-1] if dms else None
    table = next(
        (
            m
            for cid in [channel, *h.threads()]
            for m in reversed(h.messages_in(cid))
            if any(c.get("custom_id") == f"hand:{game_id}" for c in components_of(m))
        ),
        None,
    )
    if table is None:
        return None
    await h.click(user, f"hand:{game_id}", message=table)
    mine = h.ephemerals(user)
    return mine[-1] if mine else None
