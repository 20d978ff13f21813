"""Three languages at one table, through the real bot: DMs and ephemeral answers in each player's
Discord locale, the thread in the server's language, and command names localized in the synced payload.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from harness import EPHEMERAL, Harness
from harness.fault_play import log_shown
from harness.languages import LocaleHarness
from harness.play import choice_components, decide_from_message

GAME_ID = 1


@pytest.fixture
def h(locale_harness: LocaleHarness) -> LocaleHarness:
    return locale_harness


def shown(message: dict[str, Any]) -> str:
    """Everything a person reads in a message: content, embeds, button and select labels."""
    labels = [str(c.get("label") or c.get("placeholder") or "") for c in Harness.components(message)]
    return "\n".join(
        [message.get("content") or "", json.dumps(message.get("embeds") or [], ensure_ascii=False), *labels]
    )


def thread_text(h: Harness) -> str:
    [thread] = h.threads()
    return "\n".join(shown(m) for m in h.messages_in(thread))


async def three_language_table(h: LocaleHarness) -> tuple[int, int, int]:
    alice = h.user_in("Alice", "en-US")
    bianca = h.user_in("Bianca", "it")
    camille = h.user_in("Camille", "fr")
    await h.slash(alice, "game new", game="eggs-empires", timer=0)
    await h.click(bianca, h.find_button(h.channel, "Join"))  # the lobby speaks the server's English
    await h.slash(camille, "game join")
    return alice, bianca, camille


async def test_each_player_reads_dms_and_ephemerals_in_their_language_while_the_thread_stays_english(
    h: LocaleHarness,
) -> None:
    alice, bianca, camille = await three_language_table(h)
    # A refusal only Camille sees: in French.
    refusal = (await h.click(camille, h.find_button(h.channel, "Start")))[-1]
    assert refusal["data"]["flags"] & EPHEMERAL
    assert refusal["data"]["content"] == "Seul l'hôte peut faire cela."
    await h.click(alice, h.find_button(h.channel, "Start"))

    # DMs sent by the bot at the start (no interaction of theirs): each in the player's language.
    [alice_dm], [bianca_dm], [camille_dm] = h.dms(alice), h.dms(bianca), h.dms(camille)
    assert "Your hand" in shown(alice_dm) and "Keep this hand" in shown(alice_dm)
    assert "La tua mano" in shown(bianca_dm) and "Tieni questa mano" in shown(bianca_dm)
    assert "Votre main" in shown(camille_dm) and "Garder cette main" in shown(camille_dm)
    table = thread_text(h)
    assert "On offer" in table and "Tie-Breaker Marker" in table
    for foreign in ("Uova", "œuf", "Giocatori", "Joueurs"):
        assert foreign not in table, foreign

    # Bianca decides: the DM itself answers, in Italian; Camille asks for her hand: French, ephemeral.
    answer = (await h.click(bianca, choice_components(bianca_dm)[0]["custom_id"], message=bianca_dm))[-1]
    assert answer["type"] == 7 and answer["data"]["content"].startswith("Hai scelto: Tieni questa mano")
    hand = (await h.click(camille, f"hand:{GAME_ID}"))[-1]
    assert hand["data"]["flags"] & EPHEMERAL and "Votre main" in json.dumps(hand["data"]["embeds"], ensure_ascii=False)

    # Play on: after the others' moves the bot edits each DM again, still in each player's language.
    users = [alice, bianca, camille]
    for step in range(12):
        for turn, user in enumerate(users):
            dms = h.dms(user)
            if dms and choice_components(dms[-1]):
                await decide_from_message(h, user, dms[-1], step + turn)
    bianca_now, camille_now = shown(h.dms(bianca)[-1]), shown(h.dms(camille)[-1])
    assert "Uova disponibili" in bianca_now and "Sacerdotessa Oscura" not in camille_now
    assert "Œufs disponibles" in camille_now
    # Italian Adventurer names from the Italian rulebook; the French rulebook keeps the English ones.
    italian = {
        "Bardo",
        "Esploratore",
        "Pastore",
        "Corriere",
        "Mercante",
        "Sacerdote",
        "Mago",
        "Fabbro",
        "Sacerdotessa Oscura",
        "Eroe",
    }
    assert any(name in bianca_now for name in italian), bianca_now
    table = thread_text(h)
    assert "Revealed:" in table and "Rivelate" not in table and "Révélées" not in table
    assert "Your hand" not in table  # nothing private leaked while translating


async def test_game_settings_language_switches_the_thread_and_needs_manage_server(h: LocaleHarness) -> None:
    admin = h.user_in("Admin", "en-US", admin=True)
    bianca = h.user_in("Bianca", "it")
    refused = (await h.slash(bianca, "game settings", language="fr"))[-1]
    assert refused["data"]["flags"] & EPHEMERAL
    assert "Gestisci server" in refused["data"]["content"]

    await h.slash(admin, "game new", game="eggs-empires", timer=0)
    await h.click(bianca, h.find_button(h.channel, "Join"))
    await h.click(admin, h.find_button(h.channel, "Start"))
    assert "On offer" in thread_text(h)

    done = (await h.slash(admin, "game settings", language="it"))[-1]
    assert done["data"]["flags"] & EPHEMERAL and "Italian" in done["data"]["content"]
    assert h.bot is not None and await h.bot.db.get_guild_language(int(h.fake.channels[h.channel]["guild_id"])) == "it"
    # The next table edit and log lines are Italian; Admin's own DM stays in Admin's English.
    for step in range(6):
        for turn, user in enumerate((admin, bianca)):
            dms = h.dms(user)
            if dms and choice_components(dms[-1]):
                await decide_from_message(h, user, dms[-1], step + turn)
    [thread] = h.threads()
    messages = h.messages_in(thread)
    assert "Uova disponibili" in shown(messages[0]) and "On offer" not in shown(messages[0])
    assert "Rivelate:" in log_shown(h, thread), "the log (folded into the table) speaks Italian"
    assert "Your hand" in shown(h.dms(admin)[-1])
    # The setting outlives a restart (it is stored per server).
    await h.restart()
    await h.slash(admin, "game new", game="eggs-empires", channel=h.other_channel)
    lobby = h.messages_in(h.other_channel)[-1]
    assert "Unisciti" in shown(lobby) and "Timer del turno" in shown(lobby) and "Join" not in shown(lobby)


async def test_synced_commands_carry_italian_and_french_names_and_descriptions(h: LocaleHarness) -> None:
    [synced] = [c.json for c in h.fake.calls if c.method == "PUT" and c.path.endswith("/commands")]
    group = next(cmd for cmd in synced if cmd["name"] == "game")
    assert group["name_localizations"]["it"] == "partita" and group["name_localizations"]["fr"] == "partie"
    assert group["description_localizations"]["fr"] == "Jouez à des jeux de société à cette table"
    subcommands = {o["name"]: o for o in group["options"]}
    new = subcommands["new"]
    assert (new["name_localizations"]["it"], new["name_localizations"]["fr"]) == ("nuova", "nouvelle")
    assert new["description_localizations"]["it"].startswith("Apri una lobby")
    timer = next(o for o in new["options"] if o["name"] == "timer")
    assert timer["name_localizations"]["fr"] == "minuteur"
    off = next(c for c in timer["choices"] if c["value"] == 0)
    assert off["name_localizations"]["it"] == "disattivato"
    three = next(c for c in timer["choices"] if c["value"] == 180)
    assert three["name_localizations"]["fr"] == "3\u00a0min par décision"
    assert subcommands["settings"]["name_localizations"]["fr"] == "paramètres"
    # Only Italian and French are translated: other locales fall back to English.
    assert set(group["name_localizations"]) == {"it", "fr"}
    for option in group["options"]:
        assert set(option.get("name_localizations", {})) <= {"it", "fr"}
        for name in option.get("name_localizations", {}).values():
            assert name == name.lower() and " " not in name and len(name) <= 32


async def test_rules_are_paged_in_the_readers_language_with_the_lobby_variants(h: LocaleHarness) -> None:
    bianca = h.user_in("Bianca", "it")
    answer = (await h.slash(bianca, "game rules", game="eggs-empires"))[-1]
    assert answer["data"]["flags"] & EPHEMERAL
    [embed] = answer["data"]["embeds"]
    assert embed["title"] == "Eggs and Empires: Panoramica" and "Pagina 1 di 5" in embed["footer"]["text"]
    pages = [embed]
    for _ in range(6):  # keep clicking "Next" (the last click is on a disabled button's page: stays)
        [message] = [m for m in h.ephemerals(bianca) if m["embeds"]]
        nxt = next(c for c in Harness.components(message) if c["label"] == "Successiva")
        if nxt.get("disabled"):
            break
        await h.click(bianca, nxt["custom_id"], message=message)
        [message] = [m for m in h.ephemerals(bianca) if m["embeds"]]
        pages.append(message["embeds"][0])
    titles = [p["title"] for p in pages]
    assert titles[-1] == "Eggs and Empires: Varianti che la lobby può attivare", titles
    variants = pages[-1]["description"]
    # Each variant by its friendly name in the reader's language, not the engine's identifier.
    assert "**Segnalino di Spareggio**" in variants and "**Punteggio**" in variants and "tiebreaker" not in variants
    assert "Sacerdotessa Oscura" in pages[2]["description"]

    camille = h.user_in("Camille", "fr")
    answer = (await h.slash(camille, "game rules", game="eight-minute-empire"))[-1]
    assert answer["data"]["embeds"][0]["title"] == "Eight-Minute Empire: Legends\u00a0: Aperçu du jeu"
