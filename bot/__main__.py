"""`python -m bot [--shard-ids 0-3 --shard-count 8]`: load settings, migrate the database, sync
commands and connect to Discord. Command-line options override the environment and `.env`.

`python -m bot invite [--application-id ID]`: print the link that adds the bot to a server, with the
scopes and the permissions it needs (the application id is read from DISCORD_TOKEN when not given).

Exits 2 with a clear message when misconfigured (no token, a bad setting, a rejected token, a
database newer than this code), never with a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import signal
import sys
from collections.abc import Callable
from typing import Any

import discord
from pydantic import ValidationError

from bot.ops.logs import configure_logging
from bot.ops.memory import limit_malloc_arenas
from bot.ops.settings import TOKEN_HELP, Settings

log = logging.getLogger("bot")

NO_UVLOOP = (
    "EVENT_LOOP=uvloop, but uvloop is not installed (it exists for Linux and macOS only): "
    "install it, or set EVENT_LOOP=auto or asyncio."
)
# Python's cyclic garbage collector runs its young generation every 700 allocations by default, and a full
# collection after 100 young ones (when the long-lived objects grew by a quarter): under bench load
# (--games 100, 30 s) the bot's process spent 1.34 s of CPU in it, 0.77 s of which in 7 full collections of
# ~110 ms each (py-spy: ~10% of the main process). Young collections every 10,000 allocations give the
# objects of one decision time to die by their reference counts before any is looked at: 0.35-0.46 s.
GC_THRESHOLDS = (10_000, 10, 10)
BAD_TOKEN = "Discord rejected DISCORD_TOKEN. Reset it in the developer portal and update .env.\n\n" + TOKEN_HELP


async def run(settings: Settings) -> int:
    from bot import create_bot
    from storage import SchemaTooNew

    assert settings.discord_token is not None
    bot = create_bot(settings)
    collect_less_garbage()
    # SIGTERM (systemctl stop, docker stop, a platform's redeploy) closes the bot cleanly: the
    # writer commits what it was given and the gateway says goodbye. Exit code 0.
    loop = asyncio.get_running_loop()
    closing: set[asyncio.Task[None]] = set()
    with contextlib.suppress(NotImplementedError):  # no signal handlers on some platforms
        loop.add_signal_handler(signal.SIGTERM, lambda: closing.add(loop.create_task(bot.close())))
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
    finally:
        # SIGTERM's close may still be closing the database when connect() returns: let it finish, or
        # the loop's shutdown cancels it mid-close (SQLAlchemy then logs the cancelled connection).
        await asyncio.gather(*closing, return_exceptions=True)
    return 0


def collect_less_garbage() -> None:
    """Fewer cyclic garbage collections (GC_THRESHOLDS), and none of them going through what start-up made
    (the modules, classes and functions imported, which live as long as the process: frozen, never looked at
    again)."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def loop_factory(choice: str) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The event loop to run on (None: asyncio's own). uvloop, where installed, spends less CPU per
    interaction in its selector, transports and callbacks; "auto" falls back to asyncio without it.
    Raises ImportError when uvloop is asked for by name and missing."""
    if choice == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        if choice == "uvloop":
            raise
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--shard-ids",
        metavar="IDS",
        help="the shards this process runs: ranges like 0-3 or 0,2,5-7 (overrides SHARD_IDS)",
    )
    parser.add_argument(
        "--shard-count",
        metavar="N",
        type=int,
        help="the total number of shards across all processes (overrides SHARD_COUNT)",
    )
    return parser


def _problem(error: Any) -> str:
    where = ".".join(str(p) for p in error["loc"]).upper()
    message = str(error["msg"]).removeprefix("Value error, ")
    return f"{where}: {message}" if where else message


def invite(argv: list[str]) -> int:
    """Print the invite link (bot.transport.permissions): the scopes and the permissions integer the bot needs."""
    from bot.transport import permissions

    parser = argparse.ArgumentParser(prog="python -m bot invite", description="Print the link that adds the bot.")
    parser.add_argument("--application-id", type=int, help="the application's id (default: read from DISCORD_TOKEN)")
    args = parser.parse_args(argv)
    application_id = args.application_id
    if application_id is None:
        try:
            token = Settings().discord_token
        except ValidationError:
            token = None
        application_id = permissions.application_id_of(token.get_secret_value()) if token is not None else None
    if application_id is None:
        print("Give --application-id (the developer portal's Application ID) or set DISCORD_TOKEN.", file=sys.stderr)
        return 2
    print(permissions.invite_url(application_id))
    print(f"scopes: {' '.join(permissions.SCOPES)}; permissions: {permissions.required().value}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["invite"]:
        return invite(argv[1:])
    args = _parser().parse_args(argv)
    overrides = {name: value for name, value in vars(args).items() if value is not None}
    try:
        settings = Settings(**overrides)
    except ValidationError as exc:
        problems = "; ".join(_problem(e) for e in exc.errors())
        print(f"Bad setting: {problems}. See .env.example.", file=sys.stderr)
        return 2
    if settings.discord_token is None:
        print(TOKEN_HELP, file=sys.stderr)
        return 2
    try:
        factory = loop_factory(settings.event_loop)
    except ImportError:
        print(NO_UVLOOP, file=sys.stderr)
        return 2
    configure_logging(settings)
    log.info("event loop: %s", "uvloop" if factory is not None else "asyncio")
    limit_malloc_arenas()  # before the helper threads start (bot.ops.memory)
    try:
        with asyncio.Runner(loop_factory=factory) as runner:
            return runner.run(run(settings))
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
