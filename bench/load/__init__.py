"""Many games at once through the real bot: decisions per second, response latency, REST cost, memory.

    python -m bench load [--games 1000] [--database-url URL] [--think 3.0] [--think-distribution uniform|lognormal]
                         [--seed 1] [--memory-games 100] [--duration S] [--mode loopback|inprocess]
                         [--open-concurrency 16] [--no-limits] [--no-global-limit] [--with-floor] [--record RUN_DIR]
    python -m bench load --capacity [--database-url URL] [--capacity-start 200] [--capacity-step 200]
                         [--capacity-max 2000] [--window 60] [--settle 20]

Two modes. `loopback` (the default): the real `python -m bot` runs in its own process
(harness/run_bot.py) against the loopback fake Discord (fakediscord/loopback.py: real HTTP
and a real gateway websocket on 127.0.0.1), and the players and the fake run in this process, so
the bot's own CPU time can be told apart. The fake applies Discord's limits as Discord does for every
bot (fakediscord/rate_limits.py): per channel, creating and editing messages (5 per 5 s, each thread
and DM its own; with the headers discord.py paces itself by), and the global 50 requests per second
of a bot token (the interaction routes exempt; the bot paces itself under it: bot/transport/pacing.py).
`--no-limits` turns the per-channel limit off, `--no-global-limit` the global one (and the bot's
pacing under it). `--with-floor` measures the floor (bench/floor.py) first, in the same sitting.
`--record RUN_DIR` keeps what the bot sent while playing (every click's time and payload, every request's
route, body and files' bytes; bench/load/record.py) for `python -m bench floor --same-work RUN_DIR`, a floor
that sends the same requests at the same times with no game behind them.
`--capacity` (bench/load/capacity.py) takes one bot process (loopback, limits on) up in levels of games at a
human pace (think times log-normal, median 10 s) and finds the most it holds with a prompt's words p99 < 500 ms
and no 429: each level's figures, and its curve as a picture (bench/capacity-<database>.png).
`inprocess`: the bot, discord.py, the fake and the players share one process (harness: only the
network replaced; no rate limits); use it to profile the bot with py-spy or cProfile, and for the traced-memory figure.

The games are spread over several guilds (at most 100 tables per guild), one channel per game, and
mix all three games with and without their variants, 2-6 seats (2-4 for Eight-Minute Empire), some
of them AI. The lobbies are opened `--open-concurrency` at a time (`/game new`, Join clicks, Add AI,
Start; a game counts open once its players have their DMs, which follow Start's answer). Then every
human seat is a task that watches its DM and, after a think time drawn uniformly from 0 to 2x
`--think` seconds (or log-normal around a median of `--think` seconds: plan.ThinkTime), clicks one of
the buttons (or fills the select) the DM shows *at that moment*, at random: all players of all games
click concurrently and interleaved.

Figures (play phase only; opening the lobbies is reported apart):
- decisions per second: decisions committed (human clicks and AI seats; read from the action log) /
  wall time; per CPU second of the bot process (loopback) or of the one process (inprocess);
- latency: from the INTERACTION_CREATE handed to the bot (the gateway frame sent, or
  `parse_interaction_create` in process) to the first interaction callback the fake receives, p50 /
  p99 / max over every click; and to the answer itself (after a deferral: its edit);
- every click's outcome: accepted, refused (by reason: the refusal's message id in bot/texts/text.py),
  unanswered within 30 s (and what those got in the end, if the answer came before the bot stopped);
- bot-token requests per resolved turn (a turn's log line, counted by the bot's
  `tablebot_notifications_total{kind="log"}`: lines pending at once share a post), by route: what
  Discord's global limit counts. Apart, the requests through interaction tokens, which it does not
  count: answers to clicks, and the notifier reaching players through their latest click (a new DM
  prompt as a follow-up, edits, deleting the superseded prompt). Against what the table service asked
  its notifier to show meanwhile (the bot's `tablebot_notifications_total`): one table edit per update
  (each accepted click, with the AI moves it set off: in Eggs and Empires every player's secret play
  is an update, several per turn) and one private window refreshed per human seat whose prompt
  changed, the clicking player's excepted (the answer to the click shows it). Fewer table edits go out
  than asked because the notifier coalesces: an update that comes while the previous one of its game
  is still waiting, drawn or sent replaces it, and only the newest is sent;
- pictures uploaded: bytes in all and per game; re-uploads of the same bytes to the same message (an
  unchanged picture keeps its attachment: 0), and the same bytes uploaded to another message (a new
  DM prompt needs its own copy);
- within Discord's rate limits (loopback): the 429s the fake answered, by scope; the bot's own bucket
  for the global limit (requests by priority, their mean wait, and the share of time some request
  waited for it: the bottleneck share); the bot's requests
  held by discord.py's limiter (`tablebot_discord_request_held_seconds`: before a request while its
  bucket has no room, and after the one that used it up, until the reset); and from an update handed to the
  notifier to Discord's answer to the request that showed it (`tablebot_notification_delay_seconds`):
  the table (how stale it was when the update reached it; every update counts, coalesced ones too),
  the DM (a player's prompt), the log line; mean, and the metric's buckets under which p50/p99 fall;
- memory per active game: loopback: the bot process's RSS after opening the games minus before, over
  their number; `--memory-games N` (either mode): Python memory traced (tracemalloc) in process with
  N games open, minus the same before they were opened, over N, with the fake Discord's own records
  set aside. SQLite's C-level page cache is not traced (bounded, not per game); on PostgreSQL the
  server's memory is in another process.
- the expert's searches (loopback): their number and CPU (the bot's `tablebot_ai_search_cpu_seconds_total`:
  in its AI workers, counted in the bot's CPU above), each within its budget; the CPU per decision without them;
- loopback also reports this process's CPU and its event-loop lag (p99): when the bench itself is
  saturated its latencies include its own delay.

The package: `plan` (the mix), `players` (lobbies and clicking players), `runner` (in process or on the
loopback), `measure` (CPU, memory, metrics, refusals, REST figures), `report` (the text), `record`
(`--record`), `capacity` (`--capacity`) and `curve` (its picture), `cli` (`main`).
"""

from __future__ import annotations

from bench._figures import percentile
from bench.load.cli import main
from bench.load.measure import (
    BotClock,
    _errors,
    choice_components,
    cpu_seconds,
    notifications_asked,
    refusal_reason,
    rest_figures,
    rss_kb,
)
from bench.load.plan import LOBBY_ATTEMPTS, MIX, TARGETS, Table, game_mix, plan
from bench.load.players import InProcessRun, LoadRun, LoopbackRun
from bench.load.report import report
from bench.load.runner import rate_limits, run

__all__ = [
    "LOBBY_ATTEMPTS",
    "MIX",
    "TARGETS",
    "BotClock",
    "InProcessRun",
    "LoadRun",
    "LoopbackRun",
    "Table",
    "_errors",
    "choice_components",
    "cpu_seconds",
    "game_mix",
    "main",
    "notifications_asked",
    "percentile",
    "plan",
    "rate_limits",
    "refusal_reason",
    "report",
    "rest_figures",
    "rss_kb",
    "run",
]
