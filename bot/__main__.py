"""`python -m bot`: load settings, migrate the database, sync commands and connect to Discord.

Exits 2 with a clear message when misconfigured (no token, a bad setting, a rejected token, a
database newer than this code), never with a traceback.
"""

from __future__ import annotations

import asyncio
import logging
import sys

import discord
from pydantic import ValidationError

from bot.settings import TOKEN_HELP, Settings

BAD_TOKEN = "Discord rejected DISCORD_TOKEN. Reset it in the developer portal and update .env.\n\n" + TOKEN_HELP


async def run(settings: Settings) -> int:
    from bot import create_bot
    from storage import SchemaTooNew

    assert settings.discord_token is not None
    bot = create_bot(settings)
    try:
        async with bot:
            # login() runs setup_hook: migrations, table service, buttons, command sync.
            await bot.login(settings.discord_token.get_secret_value())
            await bot.connect(reconnect=True)
    except discord.LoginFailure:
        print(BAD_TOKEN, file=sys.stderr)
        return 2
    except SchemaTooNew as exc:
        print(f"The database is newer than this code: {exc}. Update the bot.", file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print("Discord refused the gateway intents; this bot needs none that are privileged.", file=sys.stderr)
        return 2
    return 0


def main() -> int:
    try:
        settings = Settings()
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']).upper()}: {e['msg']}" for e in exc.errors()
        )
        print(f"Bad setting: {problems}. See .env.example.", file=sys.stderr)
        return 2
    if settings.discord_token is None:
        print(TOKEN_HELP, file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        return asyncio.run(run(settings))
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
