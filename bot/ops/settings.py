"""Settings from the environment and `.env` (see `.env.example` for every one)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Self

from pydantic import BeforeValidator, Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


def _blank_is_none(value: Any) -> Any:
    return None if isinstance(value, str) and not value.strip() else value


def parse_shard_ids(value: Any) -> Any:
    """ "0-3" or "0,2,5-7" (ranges inclusive) -> sorted shard ids; a list passes through; blank -> None."""
    value = _blank_is_none(value)
    if not isinstance(value, str):
        return value
    ids: list[int] = []
    for part in value.split(","):
        low, dash, high = part.strip().partition("-")
        try:
            first, last = int(low), int(high if dash else low)
        except ValueError:
            raise ValueError(f"{part.strip()!r} is not a shard id or a range like 0-3") from None
        if first > last:
            raise ValueError(f"the range {part.strip()!r} runs backwards")
        ids.extend(range(first, last + 1))
    if len(set(ids)) != len(ids):
        raise ValueError(f"{value!r} names a shard twice")
    return sorted(ids)


def _lower(value: Any) -> Any:
    return value.strip().lower() if isinstance(value, str) else value


Port = Annotated[int, Field(ge=0, le=65535)]  # 0: any free port (tests)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: Annotated[SecretStr | None, BeforeValidator(_blank_is_none)] = None
    database_url: str = "sqlite+aiosqlite:///data/bot.sqlite3"
    # PostgreSQL only: seconds a statement may run before the server cancels it (the player is told to
    # try again in a moment; storage.engine says why); 0: no limit.
    database_statement_timeout: Annotated[float, Field(ge=0)] = 5.0
    dev_guild_id: Annotated[int | None, BeforeValidator(_blank_is_none)] = None
    log_level: str = "INFO"
    # "text" (human-readable) or "json" (one JSON object per line); either way one line per event.
    log_format: Annotated[Literal["text", "json"], BeforeValidator(_lower)] = "text"
    # Serve GET /metrics (Prometheus) and GET /healthz on this port; unset: no HTTP endpoint.
    metrics_port: Annotated[Port | None, BeforeValidator(_blank_is_none)] = None
    metrics_host: str = "127.0.0.1"
    # Seconds between timer ticks (reminders, AFK deadlines); 0 disables the task (tests tick by hand).
    timer_interval: float = 5.0
    # The watchdog (table.watchdog), run at every timer tick. Seconds a game may stay past its deadline
    # with the timer making no progress before it is re-armed (an error is logged); a few ticks at least.
    watchdog_grace_seconds: Annotated[float, Field(gt=0)] = 60.0
    # Hours a game without a turn timer may go unchanged before the watchdog re-arms it and reminds its
    # awaited players (again every as many hours); from IDLE_END_HOURS after its last decision, the
    # reminder offers the host a button that ends the game.
    idle_reminder_hours: Annotated[float, Field(gt=0)] = 24.0
    idle_end_hours: Annotated[float, Field(gt=0)] = 72.0
    # Seconds after a game ends before its thread is archived and locked (its result stays readable); 0: never.
    thread_archive_seconds: Annotated[float, Field(ge=0)] = 300.0
    # Push the slash commands to Discord at start-up (to DEV_GUILD_ID when set, else globally).
    sync_commands: bool = True
    # Discord sharding (see docs/deployment.md). Both unset: one process runs every shard, as many as
    # Discord recommends. SHARD_COUNT alone: one process runs shards 0..SHARD_COUNT-1. SHARD_IDS (needs
    # SHARD_COUNT): this process runs only those shards, and only their guilds' timers.
    shard_ids: Annotated[list[int] | None, NoDecode, BeforeValidator(parse_shard_ids)] = None
    shard_count: Annotated[int | None, BeforeValidator(_blank_is_none)] = None
    # This process's share of Discord's global limit (50 requests per second per bot token, every
    # process together; interactions exempt), in requests per second. Unset: the fraction of the shards
    # it runs (SHARD_IDS of SHARD_COUNT), all 50 for a process that runs them all. The bot paces its
    # requests below it (bot/transport/pacing.py); 0 turns the pacing off (tests only: Discord answers 429s).
    global_rate_limit: Annotated[float | None, Field(ge=0, le=50), BeforeValidator(_blank_is_none)] = None
    # The least time in seconds between two edits of a game's table message (bot.delivery.notify): what comes
    # meanwhile waits and only the newest state is shown; a table that only says who has decided waits
    # for the turn's result up to twice as long; the end of a game goes at once. 0: every update
    # goes as soon as the channel's rate limit lets it (tests).
    table_edit_interval: Annotated[float, Field(ge=0, le=60)] = 2.0
    # Processes that draw the pictures (maps, boards) away from the bot's event loop; 0 draws them in
    # a thread of the bot's own process (tests, or a machine with one core).
    render_workers: Annotated[int, Field(ge=0, le=16)] = 1
    # Memory in MB each of those workers keeps for pieces of pictures it has drawn (a player's line, a
    # card, a rule row), pasted into the next pictures that show them unchanged. A table being played
    # needs up to ~1 MB (Reggverse Riddles; Eggs and Empires less): past what fits, pieces are drawn
    # again, and a picture costs up to half as much CPU again (docs/deployment.md).
    render_worker_memory_mb: Annotated[int, Field(ge=16, le=4096)] = 128
    # Processes where the AI levels that search (expert) decide, away from the bot's event loop; 0 decides
    # in the bot's own process (tests, or a machine with one core). The other levels always decide there.
    ai_workers: Annotated[int, Field(ge=0, le=16)] = 1
    # The event loop: "auto" runs uvloop where it is installed (Linux, macOS; less CPU per decision) and
    # asyncio's own loop elsewhere (Windows); "asyncio" or "uvloop" choose one ("uvloop" fails if missing).
    event_loop: Annotated[Literal["auto", "asyncio", "uvloop"], BeforeValidator(_lower)] = "auto"

    @model_validator(mode="after")
    def _shards_fit(self) -> Self:
        if self.shard_count is not None and self.shard_count < 1:
            raise ValueError(f"SHARD_COUNT must be at least 1, not {self.shard_count}")
        if self.shard_ids is None:
            return self
        if self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT too (the total number of shards across all processes)")
        if not self.shard_ids:
            raise ValueError("SHARD_IDS names no shard")
        outside = [i for i in self.shard_ids if not 0 <= i < self.shard_count]
        if outside:
            last = self.shard_count - 1
            raise ValueError(f"shard ids {outside} are outside 0-{last} (SHARD_COUNT={self.shard_count})")
        return self


TOKEN_HELP = """\
DISCORD_TOKEN is not set, so the bot cannot log in to Discord.

To get a token: open https://discord.com/developers/applications, create an application (or pick
yours), open "Bot", press "Reset Token" and copy it. Invite the bot with the "bot" and
"applications.commands" scopes (OAuth2 -> URL Generator).

To set it: copy .env.example to .env and put the token after DISCORD_TOKEN=, or export it:
    export DISCORD_TOKEN=your-token-here
then run `make run` again. Never commit .env or share the token."""
