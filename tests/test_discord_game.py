"""End to end through the harness: a whole game of Eggs and Empires played by clicking the bot's buttons.

Alice plays from her DMs, Bob goes AFK for two turns (the AI takes over until he clicks "I'm back"),
Carol has closed DMs (pinged in the thread, plays through "Show my hand"), one seat is an AI, and the
bot is restarted in the middle of a round, after which buttons sent before the restart still work.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import games
from harness import EPHEMERAL, Harness
from harness.fault_play import table_windows
from harness.play import choice_components, decide_from_message, play_to_end

GAME_ID = 1


def public_text(h: Harness) -> str:
    """Everything posted to the channel and the game thread (contents and embeds)."""
    parts = []
    for channel in [h.channel, *h.threads()]:
        for message in h.messages_in(channel):
            parts.append(message["content"] or "")
            parts.append(json.dumps(message["embeds"]))
    return "\n".join(parts)


async def engine_state(h: Harness) -> Any:
    assert h.bot is not None
    row = await h.bot.table.db.get_game(GAME_ID)
    assert row is not None and row.state is not None
    return games.get("eggs-empires").from_json(row.state), row


async def assert_no_private_information_public(h: Harness) -> None:
    """No channel or thread message shows a seat's hand, hidden play, scouted egg or private event."""
    state, _row = await engine_state(h)
    shown = public_text(h)
    for marker in ("hand: [", "my_play", "scouted:", "Your hand", "Your secret play", "my_mulligan", "to: "):
        assert marker not in shown, marker
    # A face-down egg's value is shown only to its scout until it is collected.
    assert not re.search(r"face-down [+-]\d+ \(scouted", shown)
    for seat, hand in enumerate(state.hands):
        assert f"hand: {hand}".replace(",", ", ").replace(",  ", ", ") not in shown, seat


async def test_whole_game_with_closed_dms_afk_and_a_restart(harness: Harness) -> None:
    h = harness
    alice, bob, carol = h.user("Alice"), h.user("Bob"), h.user("Carol", dm_closed=True)
    await h.slash(alice, "game new", game="eggs-empires")
    await h.click(bob, h.find_button(h.channel, "Join"))
    await h.slash(carol, "game join")
    await h.click(alice, h.find_button(h.channel, "Add AI"))
    await h.click(alice, h.find_button(h.channel, "Start"))

    # The thread holds the table and the ping for Carol; Alice and Bob got one DM each.
    [thread] = h.threads()
    thread_messages = h.messages_in(thread)
    assert thread_messages[0]["embeds"], "the table message comes first"
    assert any(f"<@{carol}>" in m["content"] for m in thread_messages)
    assert len(h.dms(alice)) == 1 and len(h.dms(bob)) == 1 and h.dms(carol) == []
    lobby = h.messages_in(h.channel)[0]
    assert lobby["components"] == [] and "started" in lobby["content"]

    clock = datetime.now(UTC)
    restarted = afk_done = back_done = False
    old_alice_dm: dict[str, Any] | None = None
    for _step in range(600):
        state, row = await engine_state(h)
        if row.status != "active":
            break
        await assert_no_private_information_public(h)
        progressed = False
        # Alice: from her DM (one message, edited in place).
        [alice_dm] = h.dms(alice)
        if not restarted and state.round == 1 and state.turn == 3 and choice_components(alice_dm):
            old_alice_dm = json.loads(json.dumps(alice_dm))  # the buttons as sent before the restart
            await h.restart()
            restarted = True
            assert await decide_from_message(h, alice, old_alice_dm)
            assert "You chose" in (h.dms(alice)[0]["content"] or "")
            continue
        progressed |= await decide_from_message(h, alice, alice_dm)
        # Carol: "Show my hand" answers ephemerally with the same buttons.
        responses = await h.click(carol, f"hand:{GAME_ID}")
        assert responses[-1]["data"]["flags"] & EPHEMERAL
        progressed |= await decide_from_message(h, carol, h.ephemerals(carol)[-1])
        # Bob: goes AFK in round 2 until the AI has taken two turns for him, then comes back.
        [bob_dm] = h.dms(bob)
        if state.round == 2 and not afk_done and choice_components(bob_dm):
            for _ in range(2):  # reminder, then the deadline
                clock += timedelta(minutes=10)
                assert await h.tick(clock) == 1
            afk_done = (await h.bot.table.db.seats(GAME_ID))[1].ai_controlled  # type: ignore[union-attr]
            continue
        if afk_done and not back_done:
            [bob_dm] = h.dms(bob)
            back = [c for c in h.components(bob_dm) if str(c.get("custom_id")).startswith("back:")]
            if state.round == 3 and back:
                await h.click(bob, back[0]["custom_id"], message=bob_dm)
                back_done = True
                assert not (await h.bot.table.db.seats(GAME_ID))[1].ai_controlled  # type: ignore[union-attr]
            continue
        progressed |= await decide_from_message(h, bob, bob_dm)
        if not progressed:
            clock += timedelta(minutes=10)
            await h.tick(clock)
    state, row = await engine_state(h)
    assert row.status == "finished", "the game was played to its end"
    assert restarted and afk_done and back_done
    final = h.messages_in(thread)[0]
    assert any(str(e.get("title", "")).startswith("Game over") for e in final["embeds"]), (final["embeds"], h.errors)
    log = "\n".join(m["content"] for m in h.messages_in(thread)[1:])
    table_lines = [line for shown in table_windows(h.fake.calls, thread, int(final["id"])) for line in shown]
    assert any("Time ran out for" in line for line in table_lines), "the table said who the AI stood in for"
    assert f"<@{bob}>: please decide" in log, "the reminder at half time mentions the AFK player"


async def test_rest_calls_per_resolved_turn_stay_near_the_floor(harness: Harness) -> None:
    h = harness
    players = [h.user(name) for name in ("Alice", "Bob", "Carol")]
    await h.slash(players[0], "game new", game="eggs-empires", timer=0)
    for user in players[1:]:
        await h.click(user, h.find_button(h.channel, "Join"))
    await h.click(players[0], h.find_button(h.channel, "Add AI"))
    await h.click(players[0], h.find_button(h.channel, "Start"))
    cost = await play_to_end(h, GAME_ID, players)
    print(
        f"\nbot-token REST per resolved turn: {cost.per_turn():.2f} over {cost.resolved_turns} turns; "
        f"{dict(cost.kinds)}; through the players' tokens {dict(cost.through_tokens)}"
    )
    # With the bot's own token: a table edit per decision at most (the log is folded into the table), and at
    # the end the result's post and the closed lobby. The players keep clicking, so their prompts (a new DM telling
    # them it is their turn, the old one deleted, edits) all go through the token of their latest click,
    # which Discord does not count.
    assert cost.resolved_turns > 20
    assert not [kind for kind in cost.kinds if " dm " in kind], "no DM request with the bot's token"
    assert cost.per_turn() <= (cost.decisions + 2) / cost.resolved_turns
    assert cost.kinds["POST table/thread post"] <= 1, "no log post: the result's at most"
    assert cost.interaction_responses == cost.decisions, "one callback per click"
    assert cost.through_tokens["POST"] > cost.resolved_turns, "new prompts were sent through the players' tokens"
    assert cost.through_tokens["DELETE"] == cost.through_tokens["POST"], "each superseding a prompt deleted"


def recently(table_message: dict[str, Any]) -> list[str]:
    """The log lines a table message shows (the log is folded into it: bot.delivery.notify)."""
    return [
        line
        for embed in table_message.get("embeds") or []
        for f in embed.get("fields") or []
        if f.get("name") == "Recently"
        for line in f["value"].split("\n")
    ]


async def test_a_turn_committed_just_before_a_crash_gets_its_log_line_after_the_restart(harness: Harness) -> None:
    """The process stops after committing a turn's last decision but before showing the turn on the
    table: the restarted bot shows that line (replayed from the action log), once, and posts nothing."""
    h = harness
    alice, bob = h.user("Alice"), h.user("Bob")
    await h.slash(alice, "game new", game="eggs-empires", timer=0)
    await h.click(bob, h.find_button(h.channel, "Join"))
    await h.click(alice, h.find_button(h.channel, "Start"))
    [thread] = h.threads()

    async def turn() -> None:
        for user in (alice, bob):
            assert await decide_from_message(h, user, h.dms(user)[0])

    await turn()  # a first turn, shown as usual: the model for the one that will be lost
    posted = [m["content"] for m in h.messages_in(thread) if m["content"]]
    first = recently(h.messages_in(thread)[0])
    assert first, "the table shows the first turn"
    assert h.bot is not None
    notifier = h.bot.table.notifier

    async def killed(update: Any) -> None:  # the process died right after the commit
        return None

    notifier.publish = killed  # type: ignore[method-assign]
    await turn()
    assert recently(h.messages_in(thread)[0]) == first, "nothing shown: 'killed'"
    row = await h.bot.table.db.get_game(GAME_ID)
    assert row is not None and row.announced is not None and row.announced < row.version
    await h.restart()
    await h.settle()
    shown = recently(h.messages_in(thread)[0])
    assert len(shown) == 1 and shown != first, "the missing turn is shown once"
    assert shown[-1].startswith("Revealed: Alice: ") and "; Bob: " in shown[-1], shown  # the turn's reveal
    assert [m["content"] for m in h.messages_in(thread) if m["content"]] == posted, "no log post"
    row = await h.bot.table.db.get_game(GAME_ID)  # type: ignore[union-attr]
    assert row is not None and row.announced == row.version
    await h.restart()  # nothing is missing now: a second start-up shows nothing more
    await h.settle()
    # (The recent lines are kept in memory: a table edited after a start-up shows the turns since.)
    assert recently(h.messages_in(thread)[0]) in ([], shown)
    assert [m["content"] for m in h.messages_in(thread) if m["content"]] == posted
