"""`python -m bot`: load settings, then run the bot. Exits 2 with a clear message when misconfigured."""

from __future__ import annotations

import sys

from pydantic import ValidationError

from bot.settings import TOKEN_HELP, Settings


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
    print("The Discord table is not built yet (see the open issues).", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
