"""Settings from the environment and `.env` (see `.env.example` for every one)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


def _blank_is_none(value: Any) -> Any:
    return None if isinstance(value, str) and not value.strip() else value


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: Annotated[SecretStr | None, BeforeValidator(_blank_is_none)] = None
    database_url: str = "sqlite+aiosqlite:///data/bot.sqlite3"
    dev_guild_id: Annotated[int | None, BeforeValidator(_blank_is_none)] = None
    log_level: str = "INFO"
    # Seconds between timer ticks (reminders, AFK deadlines); 0 disables the task (tests tick by hand).
    timer_interval: float = 5.0
    # Push the slash commands to Discord at start-up (to DEV_GUILD_ID when set, else globally).
    sync_commands: bool = True


TOKEN_HELP = """\
DISCORD_TOKEN is not set, so the bot cannot log in to Discord.

To get a token: open https://discord.com/developers/applications, create an application (or pick
yours), open "Bot", press "Reset Token" and copy it. Invite the bot with the "bot" and
"applications.commands" scopes (OAuth2 -> URL Generator).

To set it: copy .env.example to .env and put the token after DISCORD_TOKEN=, or export it:
    export DISCORD_TOKEN=your-token-here
then run `make run` again. Never commit .env or share the token."""
