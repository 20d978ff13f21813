"""A game worth sharing (issue 36.2): a finished game's replay offers the whole game as one animated picture,
one frame per turn of the public table under its turn number, ending on the result; made on request, in a
process of its own, small enough for Discord."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.messages import endings
from bot.render.kit import pool
from harness import EPHEMERAL, Harness
from harness.play import play_to_end
from tests.test_discord_table import GAME_ID

MB = 1_000_000


async def _finished(h: Harness, game: str) -> list[int]:
    alice, bob = h.user("Alice"), h.user("Bob")
    await h.slash(alice, "game new", game=game, timer=0)
    await h.click(bob, h.find_button(h.channel, "Join"))
    await h.click(alice, h.find_button(h.channel, "Start"))
    await play_to_end(h, GAME_ID, [alice, bob])
    await h.settle()
    return [alice, bob]


@pytest.mark.parametrize("game", ["eggs-empires", "reggverse-riddles", "eight-minute-empire"])
async def test_the_replay_gives_the_whole_game_as_one_animated_picture(harness: Harness, game: str) -> None:
    h = harness
    await _finished(h, game)
    carol = h.user("Carol")  # anybody of the server may look back on its finished games
    await h.slash(carol, "game replay", game=GAME_ID)
    replay = h.ephemerals(carol)[-1]
    pages = int(replay["embeds"][0]["footer"]["text"].rsplit(" ", 1)[1])
    button = next(c for c in h.components(replay) if c.get("custom_id", "").startswith("anim:"))
    assert button["label"] == "Animated replay"
    mark = len(h.fake.calls)
    await h.click(carol, button["custom_id"], message=replay)
    [upload] = [u for c in h.calls_since(mark) for u in c.uploads]
    assert upload.filename == "replay.webp" and upload.size < 2 * MB
    answer = h.ephemerals(carol)[-1]
    assert int(answer["flags"]) & EPHEMERAL and "turn by turn" in answer["content"]
    [attachment] = answer["attachments"]
    sent = next(c for c in h.calls_since(mark) if c.uploads)
    body = sent.json.get("data", sent.json) if sent.path.endswith("/callback") else sent.json
    [entry] = body["attachments"]
    assert f"{pages} turns" in entry["description"] and "Alice" in entry["description"]
    assert attachment["filename"] == "replay.webp"
    assert h.errors == []

    # The picture itself: one frame per turn.
    assert h.bot is not None
    found = await h.bot.db.game_and_seats(GAME_ID)
    assert found is not None
    row, seats = found
    moves = [(a.seat, list(a.action)) for a in await h.bot.db.actions(GAME_ID)]
    replay_pages = endings.replay_pages(row, seats, moves, "en")
    drawn = endings.animation_job(row, seats, replay_pages, "en").run()
    assert drawn is not None and len(drawn) == upload.size
    picture = Image.open(io.BytesIO(drawn))
    assert picture.format == "WEBP" and picture.is_animated and picture.n_frames == pages == len(replay_pages)
    picture.seek(picture.n_frames - 1)
    assert picture.size[0] == 480, "a phone's width"


async def test_animations_wait_their_turn_and_too_many_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Long jobs go one at a time and at most ANIMATIONS_WAITING wait; more are refused at once (Busy)."""
    import asyncio
    import threading

    running = 0
    most = 0
    gate = threading.Event()

    class Slow:
        key = ""

        def job(self) -> bytes:
            nonlocal running, most
            running += 1
            most = max(most, running)
            gate.wait(5)
            running -= 1
            return b"x"

    pictures = pool.Pictures()  # no workers: threads of this process
    jobs = [asyncio.ensure_future(pictures.animate(pool.PictureJob(Slow(), "job", ()))) for _ in range(4)]
    await asyncio.sleep(0.05)
    with pytest.raises(pool.Busy):
        await pictures.animate(pool.PictureJob(Slow(), "job", ()))
    gate.set()
    assert await asyncio.gather(*jobs) == [b"x"] * 4
    assert most == 1
