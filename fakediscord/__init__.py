"""A fake Discord for tests and benchmarks: Discord's REST API and gateway, recorded and answered.

- `fake_discord.FakeDiscord`: the world (users, guilds, channels, messages) and the REST answers, with
  every call recorded;
- `loopback.Loopback`: that fake served over real HTTP and a gateway websocket on 127.0.0.1, for bots
  in other processes (kill -9, restarts, several shard processes);
- `rate_limits`: Discord's rate limits as the loopback applies them;
- `driver.Driver`: what a test does as Discord's users (slash commands, clicks, reading channels).

It knows nothing of this bot beyond discord.py; `harness` (the in-process harness and the scripted
players) builds on it.
"""
