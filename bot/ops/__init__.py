"""Operations: how the bot is run. Its settings (environment and `.env`, `settings`), its logs (plain or
JSON lines, `logs`), and the worker processes that leave with it (`processes`). The lowest room of bot/:
everything may read the settings, nothing here knows a game, a message or Discord's API."""
