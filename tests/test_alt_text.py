"""Pictures a screen reader can read (issue 36.1): every picture the bot uploads carries a description in its
reader's language, within Discord's 1,024 characters, saying what is awaited first, then every seat's score."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest

from bot.messages import alt_text
from bot.texts import i18n, text
from harness.languages import LocaleHarness, play_in_language
from tests.declared import with_pictures


def _uploads(h: LocaleHarness) -> list[tuple[Any, dict[str, Any], dict[str, Any]]]:
    """(call, the message body, the attachment entry) of every uploaded picture."""
    found = []
    for call in h.fake.calls:
        if not call.uploads or not isinstance(call.json, dict):
            continue
        body = call.json.get("data") if call.path.endswith("/callback") else call.json
        for entry in (body or {}).get("attachments") or []:
            if str(entry.get("id")).isdigit() and int(entry["id"]) < len(call.uploads):
                found.append((call, body, entry))
    return found


def _waiting_line(body: dict[str, Any]) -> str | None:
    for embed in body.get("embeds") or []:
        for field in embed.get("fields") or []:
            if field.get("name") == alt_text.ZERO_WIDTH and field.get("value"):
                return alt_text._plain(field["value"].split("\n")[0])
    return None


@pytest.mark.slow
@pytest.mark.parametrize(("key", "lang"), with_pictures(["en", "it", "fr"]))  # games with pictures, in their languages
async def test_every_picture_of_a_whole_game_says_what_is_awaited_and_every_score(
    tmp_path: Path, key: str, lang: str
) -> None:
    h = await LocaleHarness.start(tmp_path / "bot.sqlite3")
    try:
        users = await play_in_language(h, key, lang)
        uploads = _uploads(h)
        assert len(uploads) > 10, "the game's pictures were uploaded"
        names = [h.name(u) for u in users]
        scores_word = i18n.t(lang, text.ALT_SCORES, scores="").split("{")[0].strip(" .:\u00a0")
        for call, body, entry in uploads:
            description = entry.get("description")
            assert description, f"{call.method} {call.path}: a picture without a description"
            assert len(description) <= 1024
            waiting = _waiting_line(body)
            if waiting:
                assert description.startswith(waiting), (waiting, description[:200])
            assert scores_word in description, description[:300]
            scores = description.split(scores_word, 1)[1]
            for name in names:
                assert name in scores, (name, scores[:200])
        assert not h.errors
    finally:
        await h.close()


def test_the_description_keeps_to_discords_limit_and_drops_what_a_reader_would_spell() -> None:
    embed = discord.Embed(title="**Game 1**", description="Hand: `Bard (1)` " + "x" * 3000)
    embed.add_field(name="\u200b", value="Waiting for: <@123> **Ann** ⏳", inline=False)
    said = alt_text.describe([embed], lead=["Scores: Ann 3, Ben 1."])
    assert said.startswith("Waiting for: Ann. Scores: Ann 3, Ben 1. Game 1. Hand: Bard (1)")
    assert len(said) <= alt_text.LIMIT and said.endswith("…")
    assert "**" not in said and "<@" not in said and "`" not in said and "⏳" not in said
