"""Structured logs: one line per event (text or JSON), secrets redacted whatever is logged, and a whole
game logged at DEBUG shows no hand and no secret choice."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import SecretStr

import games
from bot.ops.logs import QUIET_LOGGERS, REDACTED, WITHHELD, Redactor, configure_logging
from bot.ops.settings import Settings
from harness import Harness
from harness.play import play_to_end

BOT_TOKEN = "MTAyMzQ1Njc4OTAxMjM0NTY3OA.GaBcDe.abcdefghijklmnopqrstuvwxyz0123"
DB_PASSWORD = "s3cret-Pa55word"
DATABASE_URL = f"postgresql+asyncpg://bot:{DB_PASSWORD}@db.internal:5432/games"
INTERACTION_TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OmFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6"
WEBHOOK_TOKEN = "Xy9_long-webhook-TOKEN-value-0123456789"
KEY = "eggs-empires"
GAME_ID = 1


@pytest.fixture
def restore_logging() -> Iterator[None]:
    """configure_logging changes the root logger: put back pytest's handlers and every level after."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    levels = {name: logging.getLogger(name).level for name in QUIET_LOGGERS}
    yield
    for handler in list(root.handlers):
        root.removeHandler(handler)
    for handler in handlers:
        root.addHandler(handler)
    root.setLevel(level)
    for name, old in levels.items():
        logging.getLogger(name).setLevel(old)


def configured(log_format: str, level: str = "INFO", **settings: Any) -> io.StringIO:
    stream = io.StringIO()
    configure_logging(
        Settings(
            _env_file=None,
            log_format=log_format,
            log_level=level,  # type: ignore[call-arg]
            **settings,
        ),
        stream,
    )
    return stream


def lines(stream: io.StringIO) -> list[str]:
    return stream.getvalue().splitlines()


def test_json_lines_parse_and_carry_the_event_fields(restore_logging: None) -> None:
    stream = configured("json")
    log = logging.getLogger("table.advance")
    log.info("game started", extra={"event": "game_started", "game_id": 7, "guild_id": 42, "game": KEY})
    log.debug("not at INFO")
    try:
        raise ValueError("first line\nsecond line")
    except ValueError:
        log.exception("timer failed for game %s", 7, extra={"game_id": 7})
    [started, failed] = [json.loads(line) for line in lines(stream)]
    assert started.pop("time").endswith("+00:00")
    assert started == {
        "level": "INFO",
        "logger": "table.advance",
        "message": "game started",
        "event": "game_started",
        "game_id": 7,
        "guild_id": 42,
        "game": KEY,
    }
    assert failed["message"] == "timer failed for game 7" and failed["level"] == "ERROR"
    assert failed["exc"].startswith("Traceback") and "ValueError: first line\nsecond line" in failed["exc"]


def test_text_lines_are_one_per_event_with_their_fields(restore_logging: None) -> None:
    stream = configured("text")
    log = logging.getLogger("table.advance")
    log.info("decision accepted", extra={"event": "decision", "game_id": 3, "seat": 1, "kind": "human"})
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        log.exception("two\nlines")
    [decision, error] = lines(stream)
    assert decision.endswith("INFO table.advance: decision accepted event=decision game_id=3 seat=1 kind=human")
    assert "ERROR table.advance: two\\nlines\\nTraceback" in error and error.endswith("RuntimeError: boom")


def test_secrets_logged_on_purpose_come_out_redacted(restore_logging: None) -> None:
    stream = configured("json", discord_token=SecretStr(BOT_TOKEN), database_url=DATABASE_URL)
    log = logging.getLogger("bot.anything")
    log.info("logging in with %s", BOT_TOKEN)
    log.info("opening %s", DATABASE_URL)
    log.info("another url redis://cache:other-password@cache:6379/0 and the token again: Bot %s", BOT_TOKEN)
    log.warning("POST https://discord.com/api/v10/interactions/123/%s/callback failed", INTERACTION_TOKEN)
    log.warning("interaction token %s on its own", INTERACTION_TOKEN)
    log.warning("followup https://discord.com/api/webhooks/456/%s/messages/@original", WEBHOOK_TOKEN)
    log.info("payload %s", {"type": 3, "token": "harness-style-token-1", "id": "9"})
    log.info("headers %s", {"Authorization": "Bot some.other.token-of-another-bot"})
    log.info("an event field", extra={"url": DATABASE_URL, "payload": {"token": INTERACTION_TOKEN}})
    try:
        raise ConnectionError(f"cannot reach {DATABASE_URL} (password {DB_PASSWORD})")
    except ConnectionError:
        log.exception("database unreachable")
    output = stream.getvalue()
    records = [json.loads(line) for line in lines(stream)]
    assert len(records) == 10, "one line per event"
    for secret in (
        BOT_TOKEN,
        DB_PASSWORD,
        "other-password",
        INTERACTION_TOKEN,
        WEBHOOK_TOKEN,
        "harness-style-token-1",
        "some.other.token-of-another-bot",
    ):
        assert secret not in output, secret
    assert records[1]["message"] == f"opening postgresql+asyncpg://bot:{REDACTED}@db.internal:5432/games"
    assert records[3]["message"] == f"POST https://discord.com/api/v10/interactions/123/{REDACTED}/callback failed"
    assert records[5]["message"] == f"followup https://discord.com/api/webhooks/456/{REDACTED}/messages/@original"
    assert records[8]["url"] == f"postgresql+asyncpg://bot:{REDACTED}@db.internal:5432/games"
    assert "ConnectionError: cannot reach" in records[9]["exc"]


def test_bad_arguments_never_raise_from_logging(restore_logging: None) -> None:
    stream = configured("text", discord_token=SecretStr(BOT_TOKEN))
    logging.getLogger("bot.x").info("two placeholders %s %s for %s", BOT_TOKEN)
    [line] = lines(stream)
    assert "unformattable arguments" in line and BOT_TOKEN not in line


TOKEN_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


@given(secret=st.text(min_size=4, max_size=40), before=st.text(max_size=30), after=st.text(max_size=30))
def test_a_configured_secret_never_survives_whatever_surrounds_it(secret: str, before: str, after: str) -> None:
    if secret in REDACTED or secret in WITHHELD:
        return  # text the redactor itself writes cannot be told apart from the secret
    redactor = Redactor([secret])
    assert secret not in redactor.redact(before + secret + after + secret)


@given(token=st.text(TOKEN_ALPHABET, min_size=8, max_size=60), before=st.text(max_size=20))
def test_interaction_and_webhook_tokens_never_survive_in_their_urls(token: str, before: str) -> None:
    redactor = Redactor()
    for url in (
        f"https://discord.com/api/v10/interactions/1234/{token}/callback",
        f"https://discord.com/api/webhooks/99/{token}",
        f"/webhooks/99/{token}/messages/@original",
    ):
        if token in url.replace(token, ""):
            continue  # the token is also a word of the address itself ("callback"): it cannot vanish
        assert token not in redactor.redact(before + " " + url).removeprefix(before)


def test_debug_never_opens_the_libraries_that_print_raw_payloads(restore_logging: None) -> None:
    configured("text", level="DEBUG")
    assert logging.getLogger("table.advance").isEnabledFor(logging.DEBUG)
    for name in ("discord.http", "discord.gateway", "discord.webhook.async_", "aiosqlite"):
        assert not logging.getLogger(name).isEnabledFor(logging.DEBUG), name
    assert not logging.getLogger("sqlalchemy.engine.Engine").isEnabledFor(logging.INFO)


def test_an_unknown_level_falls_back_to_info_and_says_so(restore_logging: None) -> None:
    stream = configured("text", level="LOUD")
    assert logging.getLogger().level == logging.INFO
    assert "LOG_LEVEL 'LOUD' is not a level" in stream.getvalue()


def private_parts(seat_view: dict[str, Any], public: dict[str, Any]) -> dict[str, Any]:
    """What a seat's view holds that the public view does not (its hand, its secret plays)."""
    return {k: v for k, v in seat_view.items() if k not in public and v not in (None, [], {}, "")}


async def test_a_whole_game_at_debug_logs_no_hand_no_secret_choice_and_no_token(
    tmp_path: Path, restore_logging: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = games.get(KEY)
    seen: list[dict[str, Any]] = []  # every private part of a seat view the bot read during the game
    view = engine.view

    def recording_view(state: Any, seat: int | None) -> Any:
        result = view(state, seat)
        if seat is not None:
            seen.append(private_parts(result, view(state, None)))
        return result

    monkeypatch.setattr(engine, "view", recording_view)
    stream = configured("json", level="DEBUG")
    h = await Harness.start(tmp_path / "bot.sqlite3")
    try:
        alice, bob = h.user("Alice"), h.user("Bob")
        await h.slash(alice, "game new", game=KEY, timer=0)
        await h.click(bob, h.find_button(h.channel, "Join"))
        await h.click(alice, h.find_button(h.channel, "Add AI"))
        await h.click(alice, h.find_button(h.channel, "Start"))
        await play_to_end(h, GAME_ID, [alice, bob])
        assert h.bot is not None
        actions = await h.bot.db.actions(GAME_ID)
        tokens = list(h.fake.interaction_sources)
        errors = h.errors
    finally:
        await h.close()
    assert not errors, errors

    output = stream.getvalue()
    records = [json.loads(line) for line in lines(stream)]
    assert any(r["level"] == "DEBUG" for r in records), "the game was logged at DEBUG"
    events = [r.get("event") for r in records]
    assert events.count("game_created") == 1 and events.count("game_started") == 1
    assert events.count("game_ended") == 1
    decisions = [r for r in records if r.get("event") == "decision"]
    assert len(decisions) == len(actions) > 30, "one line per committed decision"
    allowed = {"time", "level", "logger", "message", "event", "game_id", "guild_id", "game", "seat", "kind", "version"}
    assert all(set(r) <= allowed for r in decisions), "a decision line carries ids, seat and kind only"
    assert {r["kind"] for r in decisions} == {"human", "ai"}

    # Search the decoded lines: a JSON string inside a message is escaped in the raw output.
    text = "\n".join(str(v) for r in records for v in r.values())
    secrets = [p for p in seen if p]
    assert len(secrets) > 30 and any("hand" in p for p in secrets)
    for private in secrets:
        for value in private.values():
            assert not any(form in text for form in written_forms(value)), value
    for action in actions:
        assert not any(form in text for form in written_forms(action.action)), action.action
    for token in tokens:
        assert token not in output
    assert "fake-token" not in output


def written_forms(value: Any) -> set[str]:
    """How a value looks when some code prints it: JSON (spaced or compact) or Python's repr."""
    return {json.dumps(value), json.dumps(value, separators=(",", ":")), repr(value)}
