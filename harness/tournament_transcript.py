"""A whole small tournament as its players see it, for docs/tournaments.md.

    python -m harness.tournament_transcript [--lang it|fr] [FILE]
    (English: into docs/tournaments.md between its markers; Italian or French: printed, for review)

Five people in an English server play a two-round Swiss of Reggverse Riddles at tables of two through the
Discord harness: the host opens it, everyone joins from the sign-up message, the host starts it; one player
a round gets a bye. In round 1 the last player seated never moves (their turn timer runs out twice and the
AI plays their seat: a no-show, a loss); once round 1 is over the first one seated (not the host)
withdraws. The transcript shows the sign-up message as it changes, every post in the tournament's thread
(round openings, results with the standings, the podium), the host's first direct message, and the answers
only one person sees (their commands). Each game's own turns are left out (docs/transcripts has whole
games). Seeded: each run plays the same games.
"""

from __future__ import annotations

import asyncio
import random
import re
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from harness import Harness
from harness.languages import LOCALES, PEOPLE, LocaleHarness, _message_text
from harness.play import decide_from_message

BEGIN, END = "<!-- transcript: begin -->", "<!-- transcript: end -->"
NAMES = {
    lang: (*people, *more)
    for (lang, people), more in zip(PEOPLE.items(), (("Luca", "Sara"), ("Noé", "Inès"), ("Dan", "Eve")), strict=True)
}
TIMER = 60


class Transcript:
    def __init__(self, h: Harness, names: dict[int, str]) -> None:
        self.h, self.names = h, names
        self.lines: list[str] = []
        self.seen: dict[str, list[str]] = {}

    def block(self, heading: str, body: dict[str, Any], *, key: str | None = None) -> None:
        """One message as read (an edit of a message shown before: only its changed lines)."""
        lines = [_readable(self.h, self.names, line) for line in _message_text(body)]
        pictures = [a.get("filename") for a in body.get("attachments") or [] if a.get("filename")]
        before = self.seen.get(key) if key else None
        if key:
            self.seen[key] = lines
        if before == lines:
            return
        note = f" (picture: {', '.join(pictures)})" if pictures else ""
        if before is not None:
            changed = [line for line in lines if line not in before] or ["(lines removed)"]
            self.lines += [f"**{heading}, edited**{note}", "", *_quoted(changed), ""]
        else:
            self.lines += [f"**{heading}**{note}", "", *_quoted(lines), ""]

    def said(self, user: int, what: str) -> None:
        self.lines += [f"_{self.names[user]}: {what}_", ""]

    def answer(self, user: int) -> None:
        self.block(f"Only {self.names[user]} sees", self.h.ephemerals(user)[-1])

    def signup(self) -> None:
        message = signup_message(self.h)
        self.block("#tournaments, the sign-up message", message, key=str(message["id"]))

    def first_dm(self, user: int) -> None:
        self.block(f"{self.names[user]}'s direct messages: their round-1 game", self.h.dms(user)[0])

    def thread_posts(self, home: int) -> None:
        for message in self.h.messages_in(home):
            self.block("Tournament thread", message, key=str(message["id"]))


def _quoted(lines: list[str]) -> list[str]:
    return [f"> {line}" if line else ">" for line in "\n".join(lines).split("\n")]


def _readable(h: Harness, names: dict[int, str], text: str) -> str:
    """Mentions as Discord shows them: <@id> as @Name, <#id> as #the channel's or thread's name."""
    text = re.sub(r"<@!?(\d+)>", lambda m: "@" + names.get(int(m[1]), m[1]), text)
    return re.sub(r"<#(\d+)>", lambda m: "#" + str(h.fake.channels.get(int(m[1]), {}).get("name", m[1])), text)


def signup_message(h: Harness) -> dict[str, Any]:
    """The tournament's sign-up message: the channel's first message with an embed after the command."""
    return next(m for m in h.messages_in(h.channel) if m.get("embeds"))


def button(h: Harness, action: str) -> str:
    """The custom_id of the sign-up message's button for `action` (join, start...), whatever its label."""
    return next(c["custom_id"] for c in h.components(signup_message(h)) if c["custom_id"].endswith(f":{action}"))


async def play_round(h: Harness, number: int, players: list[int], absent: set[int], rng: random.Random) -> None:
    """Everyone at a table of round `number` decides from their newest DM until the round is over; when only
    the absent are awaited, the clock moves past their turn timer (the table's timer lets the AI play)."""
    assert h.bot is not None
    now = datetime.now(UTC)
    for _ in range(5000):
        status = await h.bot.tournaments.status(1)
        if status.rounds[number - 1].status == "finished":
            return
        progressed = False
        for user in players:
            dms = h.dms(user)
            if user not in absent and dms and await decide_from_message(h, user, dms[-1], index=rng.randrange(1000)):
                progressed = True
        if not progressed:
            now += timedelta(seconds=TIMER + 1)
            await h.tick(now)
            await h.settle()
    raise AssertionError(f"round {number} never ended")


async def record(folder: Path, lang: str = "en") -> str:
    h = await LocaleHarness.start(folder / "bot.sqlite3")
    try:
        users = [h.user_in(n, LOCALES[lang], admin=i == 0) for i, n in enumerate(NAMES[lang])]
        names = dict(zip(users, NAMES[lang], strict=True))
        host, second, third = users[:3]
        t = Transcript(h, names)
        rng = random.Random(3)
        h.fake.channels[h.channel]["name"] = "tournaments"
        if lang != "en":
            await h.slash(host, "game settings", language=lang)

        t.said(host, "/tournament new game:Reggverse Riddles format:Swiss players:2 rounds:2 timer:1 min")
        await h.slash(
            host, "tournament new", game="reggverse-riddles", format="swiss", players=2, rounds=2, timer=TIMER
        )
        t.signup()
        t.said(host, f"and then {', '.join(NAMES[lang][1:])} press Join")
        for user in users:
            await h.click(user, button(h, "join"), message=signup_message(h))
        t.signup()
        t.said(host, "presses Start")
        await h.click(host, button(h, "start"), message=signup_message(h))
        await h.settle()
        t.signup()
        home = int(signup_message(h)["id"])  # the thread started from the sign-up message takes its id
        assert home in h.threads()
        t.thread_posts(home)
        t.first_dm(host)
        assert h.bot is not None
        status = await h.bot.tournaments.status(1)
        seated = [e for table in status.rounds[0].tables for e in table.entrants if e != host]
        no_show, quitter = seated[-1], seated[0]
        t.said(no_show, "never moves in round 1 (their turn timer runs out twice: the AI plays their seat)")
        await play_round(h, 1, users, {no_show}, rng)
        t.thread_posts(home)
        t.said(quitter, "/tournament withdraw")
        await h.slash(quitter, "tournament withdraw", channel=home)
        t.answer(quitter)
        await h.settle()
        t.thread_posts(home)
        t.said(second, "/tournament status")
        await h.slash(second, "tournament status", channel=home)
        t.answer(second)
        await play_round(h, 2, users, {quitter}, rng)
        t.thread_posts(home)
        t.said(third, "/tournament standings")
        await h.slash(third, "tournament standings", channel=home)
        t.answer(third)
        t.signup()
        assert h.errors == [], h.errors
        return "\n".join(t.lines).rstrip() + "\n"
    finally:
        await h.close()


def write_into(path: Path, text: str) -> None:
    """Put `text` between the transcript markers of `path`."""
    document = path.read_text(encoding="utf-8")
    head, rest = document.split(BEGIN, 1)
    _old, tail = rest.split(END, 1)
    path.write_text(f"{head}{BEGIN}\n\n{text}\n{END}{tail}", encoding="utf-8")


def main(argv: list[str]) -> int:
    """`[--lang it|fr] [FILE]`: English goes into docs/tournaments.md (or FILE); another language to FILE or
    standard output, for a native reader's review."""
    lang = "en"
    if argv[:1] == ["--lang"]:
        lang, argv = argv[1], argv[2:]
    with tempfile.TemporaryDirectory() as scratch:
        text = asyncio.run(record(Path(scratch), lang))
    if lang != "en" and not argv:
        print(text)
        return 0
    target = Path(argv[0]) if argv else Path(__file__).resolve().parents[1] / "docs" / "tournaments.md"
    write_into(target, text)
    print(f"{target}: {len(text.splitlines())} lines of transcript")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
