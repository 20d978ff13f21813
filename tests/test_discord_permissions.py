"""Permissions as Discord enforces them (issue 33): the host is told, in their language, which permissions the
bot lacks in the lobby's channel and what will not work; a whole game then plays without an ERROR, whatever
is missing; `python -m bot invite` asks for exactly what the table needs."""

from __future__ import annotations

import asyncio
import base64

import discord
import pytest

from bot.__main__ import main as bot_main
from bot.transport import permissions
from harness import EPHEMERAL, Harness
from harness.play import play_to_end
from tests.test_discord_table import GAME_ID

ALL_NEEDED = [name for name, _ in permissions.NEEDED]
QUICK_ARCHIVE = {"thread_archive_seconds": 0.01}  # the thread's end within the test
# Without Send Messages the game still plays whole in its thread (where Send Messages in Threads counts):
# nothing is refused, and the host is told all the same (the channel is where a game without thread plays).
UNUSED_WITH_A_THREAD = {"send_messages"}


def _told(h: Harness, user: int) -> list[str]:
    return [m["content"] for m in h.ephemerals(user) if "missing permissions" in (m.get("content") or "")]


async def _whole_game(h: Harness) -> list[int]:
    users = [h.user("Alice"), h.user("Bob")]
    await h.slash(users[0], "game new", game="reggverse-riddles", timer=0)
    await h.click(users[1], h.find_button(h.channel, "Join"))
    await h.click(users[0], h.find_button(h.channel, "Start"))
    await play_to_end(h, GAME_ID, users)
    row = await h.bot.table.db.get_game(GAME_ID) if h.bot is not None else None
    assert row is not None and row.status == "finished"
    return users


async def test_with_every_permission_the_host_is_told_nothing(harness: Harness) -> None:
    alice = harness.user("Alice")
    await harness.slash(alice, "game new", game="eggs-empires")
    assert _told(harness, alice) == []


@pytest.mark.parametrize("harness", [QUICK_ARCHIVE], indirect=True)
@pytest.mark.parametrize("denied", ALL_NEEDED)
async def test_a_missing_permission_is_named_to_the_host_and_the_game_still_plays_through(
    harness: Harness, denied: str
) -> None:
    h = harness
    h.fake.deny(h.channel, denied)
    users = await _whole_game(h)
    await asyncio.sleep(0.05)
    await h.settle()
    [told] = _told(h, users[0])
    label = permissions.LABELS[denied]
    assert f"**{label}**" in told and dict(permissions.NEEDED)[denied] in told
    assert [name for name in permissions.LABELS.values() if f"**{name}**" in told] == [label], "only what is missing"
    assert _told(h, users[1]) == [], "only the host is told"
    assert h.errors == []
    refused = [c for c in h.fake.calls if c.status in (403,)]
    assert bool(refused) is (denied not in UNUSED_WITH_A_THREAD), f"what Discord refused without {denied}"
    assert {c.refused["code"] for c in refused if c.refused} <= {50001, 50013}


async def test_the_host_is_told_in_their_own_language(harness: Harness) -> None:
    h = harness
    h.fake.deny(h.channel, "attach_files", "manage_threads")
    host = h.user("Chiara")
    payload, token = h.slash_payload(host, "game new", game="eggs-empires")
    payload["locale"] = "it"
    await h._feed(payload, token)
    [told] = [m["content"] for m in h.ephemerals(host) if m.get("flags", 0) & EPHEMERAL and "**" in m["content"]]
    assert "**Allegare file**" in told and "**Gestire i thread**" in told and "missing" not in told


@pytest.mark.parametrize("harness", [QUICK_ARCHIVE], indirect=True)
async def test_without_thread_permissions_the_table_still_shows_and_the_thread_ends_archived(harness: Harness) -> None:
    """Manage Threads and Pin Messages missing: the thread is archived without its lock, nothing pinned."""
    h = harness
    h.fake.deny(h.channel, "manage_threads", "pin_messages")
    await _whole_game(h)
    await asyncio.sleep(0.05)
    await h.settle()
    [thread] = h.threads()
    assert not any(m["pinned"] for m in h.messages_in(thread))
    assert h.fake.channels[thread]["thread_metadata"]["archived"] is True
    assert h.fake.channels[thread]["thread_metadata"]["locked"] is False


async def test_without_attach_files_the_table_goes_without_its_picture(harness: Harness) -> None:
    h = harness
    h.fake.deny(h.channel, "attach_files")
    await _whole_game(h)
    [thread] = h.threads()
    table = h.messages_in(thread)[0]
    assert table["pinned"] and table["embeds"] and table["attachments"] == [], "the table, words and buttons"
    assert "image" not in table["embeds"][0]
    assert len([c for c in h.fake.calls if c.status == 403]) == 1, "refused once, then sent without picture"


def test_the_invite_link_asks_for_both_scopes_and_every_needed_permission(capsys: pytest.CaptureFixture[str]) -> None:
    assert bot_main(["invite", "--application-id", "123456789012345678"]) == 0
    url = capsys.readouterr().out.strip()
    asked = discord.Permissions(int(url.split("permissions=")[1].split("&")[0]))
    assert "client_id=123456789012345678" in url and "scope=bot+applications.commands" in url
    assert all(getattr(asked, name) for name in ALL_NEEDED)
    assert asked.value == permissions.required().value, "nothing more than the table uses"
    assert not asked.administrator and not asked.manage_messages


def test_the_invite_reads_the_application_id_from_the_token(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    token = base64.b64encode(b"900000000000000001").decode().rstrip("=") + ".GhIjKl.secret-part"
    monkeypatch.setenv("DISCORD_TOKEN", token)
    assert bot_main(["invite"]) == 0
    out = capsys.readouterr()
    assert "client_id=900000000000000001" in out.out and "secret" not in out.out + out.err
    monkeypatch.setenv("DISCORD_TOKEN", "")
    assert bot_main(["invite"]) == 2
