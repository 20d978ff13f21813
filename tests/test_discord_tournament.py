"""Tournaments through the Discord harness (issue 35): /tournament new, the sign-up message's buttons, rounds
that open their tables by themselves as ordinary games with their own threads and DMs, the standings in
words and as a picture after each round, and the podium."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.texts import i18n, text
from harness import Harness
from harness.play import decide_from_message


async def play_running_games(h: Harness, users: list[int], rng: random.Random, max_steps: int = 3000) -> None:
    """Every human of every running game decides from their newest DM, until no game is running."""
    assert h.bot is not None
    for _ in range(max_steps):
        running = await h.bot.table.db.active_games()
        if not running:
            await h.settle()
            if not await h.bot.table.db.active_games():
                return
        progressed = False
        for user in users:
            dms = h.dms(user)
            if dms and await decide_from_message(h, user, dms[-1], index=rng.randrange(1000)):
                progressed = True
        if not progressed:
            await h.settle()
    raise AssertionError("the tournament's games never ended")


def signup_of(h: Harness) -> dict[str, Any]:
    [message] = [
        m
        for m in h.messages_in(h.channel)
        if any(str(c.get("custom_id", "")).startswith("tn:") for c in h.components(m))
    ] or [m for m in h.messages_in(h.channel) if "tournament #" in (m["embeds"] or [{}])[0].get("title", "")]
    return message


@pytest.mark.slow
async def test_a_small_swiss_tournament_plays_from_signup_to_podium(harness: Harness) -> None:
    h = harness
    names = ["Ann", "Ben", "Cleo", "Dan"]
    users = [h.user(n) for n in names]
    h.fake.locales[users[2]] = "it"  # Cleo's Discord is in Italian: so are her tournament games' DMs
    await h.slash(users[0], "tournament new", game="reggverse-riddles", format="swiss", players=2, rounds=2, timer=0)
    signup = signup_of(h)
    assert "Reggverse Riddles tournament #1" in signup["embeds"][0]["title"]
    join = next(c["custom_id"] for c in h.components(signup) if c["label"] == "Join")
    for user in users:
        await h.click(user, join, message=signup)
    signup = signup_of(h)
    entrants = signup["embeds"][0]["fields"][0]
    assert entrants["name"] == "Entrants (4)" and entrants["value"].splitlines() == names
    start = next(c["custom_id"] for c in h.components(signup) if c["label"] == "Start")
    await h.click(users[1], start, message=signup)
    assert "Only the tournament's host" in h.ephemerals(users[1])[-1]["content"]
    await h.click(users[0], start, message=signup)
    await h.settle()

    assert h.bot is not None
    games = await h.bot.table.db.active_games()
    assert len(games) == 2 and all(g.tournament_id == 1 and g.tournament_round == 1 for g in games)
    threads = h.threads()
    [home] = [t for t in threads if "tournament #1" in h.fake.channels[t]["name"]]
    opened = [m for m in h.messages_in(home) if "Round 1 of 2" in (m.get("content") or "")]
    assert opened and all(f"<@{u}>" in opened[0]["content"] for u in users)

    cleo_dm = h.dms(users[2])[0]["embeds"][0]["title"]
    assert cleo_dm == i18n.t("it", text.YOUR_VIEW, name="Cleo") != text.YOUR_VIEW.format(name="Cleo")
    assert h.dms(users[0])[0]["embeds"][0]["title"] == "Your view, Ann"

    await play_running_games(h, users, random.Random(5))
    status = await h.bot.tournaments.status(1)
    assert status.tournament.status == "finished" and status.champion in users
    posts = h.messages_in(home)
    results = [m for m in posts if "is over" in (m.get("content") or "")]
    assert len(results) == 2, "a summary of each round"
    assert all(m["attachments"] and m["embeds"][0]["title"].startswith("Standings after round") for m in results)
    podium = posts[-1]
    assert "🏆" in podium["content"] and f"<@{status.champion}>" in podium["content"]
    assert podium["embeds"][0]["title"] == "Final standings" and podium["attachments"]
    final = signup_of(h)
    assert h.components(final) == [] and "Champion" in final["embeds"][0]["fields"][-1]["value"]
    # Each table was an ordinary game: rated, with its tournament and round recorded.
    played = [await h.bot.table.db.get_game(g) for g in range(1, 5)]
    assert [(g.tournament_id, g.tournament_round, g.status) for g in played if g] == [
        (1, 1, "finished"),
        (1, 1, "finished"),
        (1, 2, "finished"),
        (1, 2, "finished"),
    ]
    assert h.errors == []


async def play_with_a_no_show(
    h: Harness, players: list[int], no_show: int, rng: random.Random, timer: int, max_steps: int = 6000
) -> None:
    """The players decide from their DMs; `no_show` never does: when nobody else can move, the clock goes past
    the turn timer and the table's AI stand-in plays their seat (table timers)."""
    assert h.bot is not None
    now = datetime.now(UTC)
    for _ in range(max_steps):
        status = await h.bot.tournaments.status(1)
        if status.tournament.status in ("finished", "cancelled"):
            return
        progressed = False
        for user in players:
            dms = h.dms(user)
            if user != no_show and dms and await decide_from_message(h, user, dms[-1], index=rng.randrange(1000)):
                progressed = True
        if not progressed:
            now += timedelta(seconds=timer + 1)
            await h.tick(now)
            await h.settle()
    raise AssertionError("the tournament never ended")


async def _signed_up(h: Harness, names: list[str], **options: Any) -> list[int]:
    users = [h.user(n) for n in names]
    await h.slash(users[0], "tournament new", **options)
    signup = signup_of(h)
    join = next(c["custom_id"] for c in h.components(signup) if c["label"] == "Join")
    for user in users:
        await h.click(user, join, message=signup)
    signup = signup_of(h)
    await h.click(users[0], next(c["custom_id"] for c in h.components(signup) if c["label"] == "Start"), message=signup)
    await h.settle()
    return users


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "entrants", "table", "rounds"),
    [("reggverse-riddles", 8, 2, None), ("eggs-empires", 12, 4, 2)],
)
async def test_a_swiss_tournament_with_a_no_show_and_a_withdrawal_reaches_its_podium(
    harness: Harness, game: str, entrants: int, table: int, rounds: int | None
) -> None:
    h = harness
    names = [f"P{i + 1}" for i in range(entrants)]
    options: dict[str, Any] = {"game": game, "format": "swiss", "players": table, "timer": 60}
    if rounds is not None:
        options["rounds"] = rounds
    users = await _signed_up(h, names, **options)
    no_show, quitter = users[-1], users[1]
    assert h.bot is not None
    first = await h.bot.table.db.active_games()
    assert len(first) == entrants // table
    for opened in first:
        assert len(await h.bot.table.db.seats(opened.id or 0)) == table

    # The quitter withdraws once the first round is under way: their game goes on with an AI in their seat.
    await h.slash(quitter, "tournament withdraw")
    assert "You withdrew" in h.ephemerals(quitter)[-1]["content"]
    # "I'm back" cannot take a withdrawn entrant's seat back from the AI.
    [their_game] = [t for t in first for s in await h.bot.table.db.seats(t.id or 0) if s.user_id == quitter]
    seat = next(s for s in await h.bot.table.db.seats(their_game.id or 0) if s.user_id == quitter)
    assert seat.ai_controlled
    row = await h.bot.table.db.get_game(their_game.id or 0)
    assert row is not None and row.thread_id is not None
    await h.slash(quitter, "game hand", channel=row.thread_id)
    hand = h.ephemerals(quitter)[-1]
    assert f"back:{their_game.id}" in [c.get("custom_id") for c in h.components(hand)]
    await h.click(quitter, f"back:{their_game.id}", message=hand)
    assert "You left this tournament: the AI plays your seat" in h.ephemerals(quitter)[-1]["content"]
    seat = next(s for s in await h.bot.table.db.seats(their_game.id or 0) if s.user_id == quitter)
    assert seat.ai_controlled
    others = [u for u in users if u != quitter]
    await play_with_a_no_show(h, others, no_show, random.Random(11), 60)

    status = await h.bot.tournaments.status(1)
    assert status.tournament.status == "finished"
    expected_rounds = rounds or 3
    assert len(status.rounds) == expected_rounds and all(r.status == "finished" for r in status.rounds)
    for later in status.rounds[1:]:
        assert all(quitter not in t.entrants for t in later.tables), "a withdrawn entrant is not paired again"
    [gone] = [s for s in status.standings if s.entrant == quitter]
    assert gone.withdrawn
    entrant = next(e for e in status.entrants if e.user_id == no_show)
    seated = sum(any(no_show in t.entrants for t in r.tables) for r in status.rounds)
    assert seated >= expected_rounds - 1  # (the lowest-ranked may get the round's bye: a no-show scores 0)
    assert entrant.missed_rounds == seated, "every game of the no-show was played by the AI"
    [lost] = [s for s in status.standings if s.entrant == no_show]
    assert lost.points == sum(r.pairing.table_size for r in status.rounds if no_show in r.pairing.byes)
    assert status.champion in users and status.champion != quitter
    [home] = [t for t in h.threads() if "tournament #1" in h.fake.channels[t]["name"]]
    posts = h.messages_in(home)
    assert sum("is over" in (m.get("content") or "") for m in posts) == expected_rounds
    no_show_name = names[users.index(no_show)]
    marked = [m for m in posts if f"{no_show_name} (did not show)" in (m.get("content") or "")]
    assert len(marked) == seated, "each round's result marks the no-show"
    assert "🏆" in posts[-1]["content"]
    assert h.errors == []
