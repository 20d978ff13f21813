"""The figures of `bench load` as text."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    pass

from bench.load.plan import ANSWER_WITHIN


def limit_report(f: dict[str, Any]) -> list[str]:
    """The report's lines on Discord's rate limits: what the fake applied, 429s, holds, notification delays."""
    within = f.get("within_limits")
    if within is None:
        return [f"  Discord's rate limits: {f.get('rate_limits', 'none')} (in process: the fake has no limiter)"]
    rejected = within["rate_limited"]
    lines = [
        f"  Discord's rate limits in the fake: {f['rate_limits']}; 429s the bot received: "
        f"{sum(rejected.values())}"
        + (f" ({', '.join(f'{n} {scope}' for scope, n in rejected.items())})" if rejected else ""),
        f"    requests held by discord.py's limiter: {within['requests_held']['before']} until their bucket had "
        f"room, {within['requests_held']['after']} after their answer until the reset (the request that used "
        f"the bucket up); {within['held_seconds']} s in all",
    ]

    def timing(figures: dict[str, Any]) -> str:
        if not figures.get("answers"):
            return "none"

        def bound(key: str) -> str:
            value = figures[key]
            return f"<= {value:g} ms" if value is not None else f"> {figures['largest_bucket_ms']:g} ms"

        return f"mean {figures['mean_ms']} ms, p50 {bound('p50_under_ms')}, p99 {bound('p99_under_ms')}"

    bucket = within.get("global_bucket")
    if bucket is not None:
        waits = ", ".join(f"{level} {ms} ms" for level, ms in bucket["mean_wait_ms"].items())
        lines.append(
            f"    the bot's own bucket for the global limit: {sum(bucket['requests'].values())} requests "
            f"({', '.join(f'{n} {level}' for level, n in bucket['requests'].items())}); mean wait {waits or '-'}; "
            f"the bottleneck {100 * bucket.get('busy_share', 0):.0f}% of the time ({bucket['busy_seconds']} s)"
        )
    pictures = within.get("pictures")
    if pictures:
        lines.append(
            f"    pictures asked for: {sum(pictures.values())} "
            f"({', '.join(f'{n} {outcome}' for outcome, n in pictures.items())}); "
            f"{within.get('pictures_hurried', 0)} hurried (others waiting behind them: ISA-L instead of zlib)"
        )
    names = {
        "table": "table (how stale it was when an update reached it)",
        "dm": "dm (a player's prompt: words and buttons)",
        "dm_picture": "dm with its picture (which may follow)",
        "dm_view": "dm without a prompt (what happened)",
        "log": "log line",
    }
    lines.append("    from an update handed to the notifier to Discord's answer showing it (metrics' buckets):")
    lines += [f"      {names[kind]:52s} {timing(figures)}" for kind, figures in within["delays"].items()]
    return lines


def report(figures: dict[str, Any]) -> str:
    f = figures
    inprocess = f["mode"] == "inprocess"
    whose = "the one process (bot, fake Discord and players)" if inprocess else "the bot (its process and children)"
    lines = [
        f"{f['games']} games at once on {f['database']}, bot {'in this process' if inprocess else 'in its own process'}"
        f" ({f['human_seats']} human seats, {f['ai_seats']} AI; think time {f['think_seconds']} s; "
        + (
            f"{f['finished']} finished"
            if f["window_seconds"] is None
            else f"played for a {f['window_seconds']:g} s window, {f['finished']} finished in it"
        )
        + ")",
        f"  opening the lobbies: {f['opening_seconds']} s"
        + (
            f" ({f['open_concurrency']} at a time; bot CPU {f['opening_bot_cpu_seconds']} s, "
            f"{f['opening_bot_cpu_ms_per_game']} ms per game; bench CPU {f['opening_bench_cpu_seconds']} s; "
            f"the bot then busy for {f['bot_busy_after_opening_seconds']} s more)"
            if not inprocess
            else ""
        ),
    ]
    lines += [
        f"    {kind:10s} x{s['count']:<6d} answered p50 {s['p50_ms']} ms, p99 {s['p99_ms']} ms, max {s['max_ms']} ms"
        for kind, s in f["lobby_steps"].items()
    ]
    lines += [f"    tried again {count} times: {why}" for why, count in f["lobby_retries"].items()]
    lines += [
        f"  decisions: {f['decisions']} ({f['human_decisions']} human, {f['ai_decisions']} AI) in "
        f"{f['wall_seconds']} s: {f['decisions_per_second']}/s ({f['human_decisions_per_second']}/s human)  "
        f"[target >= 500/s]",
        f"  CPU of {whose}: {f['cpu_seconds']} s, {f['cpu_ms_per_decision']} ms per decision, "
        f"{f['decisions_per_cpu_second']} decisions per CPU second"
        + ("" if inprocess else f" (main process alone: {f['bot_main_process_cpu_seconds']} s)"),
    ]
    search = f.get("ai_search")
    if search is not None:
        lines.append(
            f"    of which the expert's searches: {search['searches']} searches, {search['cpu_seconds']} s CPU "
            f"({search['cpu_ms_per_search']} ms each, budget {search['budget_ms']:g} ms); without them "
            f"{f['cpu_ms_per_decision_without_ai_search']} ms per decision"
        )
    if not inprocess:
        lines.append(
            f"  bench process (players + fake Discord): CPU {f['bench_cpu_seconds']} s, event-loop lag "
            f"p99 {f['bench_loop_lag_p99_ms']} ms, max {f['bench_loop_lag_max_ms']} ms"
        )
    lines += [
        f"  INTERACTION_CREATE -> first callback over {f['clicks']} clicks: p50 {f['latency_p50_ms']} ms, "
        f"p99 {f['latency_p99_ms']} ms, max {f['latency_max_ms']} ms  [target p99 < 100 ms]",
        f"  INTERACTION_CREATE -> the answer itself (after a deferral: its edit): p50 {f['answer_p50_ms']} ms, "
        f"p99 {f['answer_p99_ms']} ms, max {f['answer_max_ms']} ms",
    ]
    inside = f.get("bot_answer_timing") or {}
    if inside.get("answers"):

        def bound(key: str) -> str:
            value = inside[key]
            return f"<= {value:g} ms" if value is not None else f"> {inside['largest_bucket_ms']:g} ms"

        lines.append(
            f"  the bot's own clock (Interaction parsed -> first response sent) over {inside['answers']} "
            f"clicks: mean {inside['mean_ms']} ms, p50 {bound('p50_under_ms')}, "
            f"p99 {bound('p99_under_ms')} (its metrics' buckets)"
        )
    lines += [
        f"  clicks: {f['accepted_clicks']} accepted, {f['refused_clicks']} refused, {f['unanswered']} unanswered "
        f"within {ANSWER_WITHIN:g} s, {f['undelivered']} undelivered",
    ]
    lines += [f"    refused {count:6d}  {reason}" for reason, count in f["refusals_by_reason"].items()]
    if f["unanswered"]:
        lines.append(
            f"    of the unanswered: {f['unanswered_never_answered']} never answered while the bot ran; "
            "answered later: " + (", ".join(f"{n} {why}" for why, n in f["unanswered_then_answered"].items()) or "none")
        )
    lines.append(
        f"  bot-token requests per resolved turn (a log line; what Discord's global limit counts): "
        f"{f['rest_per_turn']} over {f['resolved_turns']} turns  [target <= 1.0]"
    )
    lines += [f"    {kind:28s} {per:6.2f} per turn" for kind, per in f["rest_by_kind_per_turn"].items()]
    exempt = f.get("exempt_per_turn") or {}
    lines.append(
        "  through interaction tokens (not counted by Discord), per turn: "
        + (", ".join(f"{kind} {per:.2f}" for kind, per in exempt.items()) or "none")
        + " (answer: a click's callback or its deferred answer; followup/edit/delete: players reached through "
        "their latest click)"
    )
    if f.get("asked_per_turn"):
        asked, away = f["asked_per_turn"], f["coalesced_away_per_turn"]
        lines.append(
            f"    asked per turn: {asked['table']:.2f} table edits ({away['table']:.2f} coalesced away: a newer update "
            f"replaced it while it waited), {asked['dm']:.2f} private windows refreshed; without coalescing "
            f"{f['uncoalesced_per_turn']}"
        )
    if "uploads" in f:
        lines.append(
            f"  pictures uploaded: {f['uploads']} ({f['upload_bytes'] / 1024:,.0f} KB, {f['upload_kb_per_game']} KB "
            f"per game over the run); re-uploads of the picture a message shows: {f['reuploads']}  [target 0]; "
            f"of a picture it showed earlier: {f['uploads_of_an_earlier_picture']}; the same bytes to another "
            f"message (a new one): {f['uploads_repeated_to_other_messages']}"
        )
    lines += limit_report(f)
    if "cpu_ratio_to_floor" in f:
        floor = f["floor"]
        lines.append(
            f"  CPU per decision / the floor's CPU per click (measured first, same sitting: "
            f"{floor['bot_cpu_ms_per_click']} ms): {f['cpu_ratio_to_floor']}  [target <= 3.0]"
        )
    memory = []
    if f.get("rss_per_game_kb") is not None:
        memory.append(f"bot process RSS growth {f['rss_per_game_kb']} KB per game over {f['games']} games (loopback)")
    if f.get("memory_per_game_kb") is not None:
        memory.append(f"{f['memory_per_game_kb']} KB traced per game over {f['memory_games']} games (in process)")
    lines.append("  memory per active game: " + ("; ".join(memory) or "not measured") + "  [target <= 100 KB]")
    if "machine_load" in f:
        load = f["machine_load"]
        lines.append(
            f"  machine load (1-minute average, {os.cpu_count()} cores): {load['before']} before, {load['after']} after"
        )
    lines.append(
        f"  errors logged: {f['errors']}"
        + (f" {f['first_errors']}" if f["errors"] else "")
        + (f"; {f['errors_at_shutdown']} more while the bot stopped" if f.get("errors_at_shutdown") else "")
    )
    return "\n".join(lines)


# The bench's event loop late by more than this (p99) makes the latencies it measures its own delay too.
BENCH_LATE_MS = 50.0

# The columns of a capacity search's levels as text: (figure, heading, width).
LEVEL_COLUMNS = (
    ("games", "games", 6),
    ("active_mean", "active", 7),
    ("decisions_per_second", "dec/s", 6),
    ("click_p99_ms", "click p99", 10),
    ("answer_p99_ms", "answer p99", 11),
    ("dm_prompt_p99_ms", "DM prompt p99", 14),
    ("rate_limited", "429s", 5),
    ("rate_limited_opening", "429s opening", 13),
    ("bot_cpu_ms_per_decision", "CPU ms/dec", 11),
    ("bot_cores", "bot cores", 10),
    ("bot_rss_mb", "RSS MB", 7),
    ("rss_per_game_kb", "KB/game", 8),
    ("load_average", "load", 5),
    ("bench_loop_lag_p99_ms", "bench lag p99", 14),
)


def capacity_report(figures: dict[str, Any]) -> str:
    """A capacity search (`bench load --capacity`) as text: what it found, then one line per level."""
    f, ramp = figures, figures["ramp"]
    found = f"holds {f['capacity_games']:,} games"
    if f["capacity_is_lower_bound"]:
        found += f" (every level passed, up to the most allowed, {ramp['maximum']:,}: at least that many)"
    elif f["stopped_at"] is not None:
        found += (
            f" (the first level failing: {f['stopped_at']['games']:,} games: {'; '.join(f['stopped_at']['failures'])})"
        )
    lines = [
        f"Capacity on {f['database']}, bot in its own process ({f['rate_limits']}; think time {f['think_seconds']} s; "
        f"{f['ai_level']} AI seats): {found}",
        f"  criteria per level, over its window: the answer to a click p99 < 500 ms (the bench's clock; unanswered: "
        f"{ANSWER_WITHIN:g} s), a DM prompt's words p99 < 500 ms (the bot's histogram, interpolated), 0 429s "
        "(those while its games opened told apart)",
        f"  levels: from {ramp['start']}, {ramp['step']} more each, up to {ramp['maximum']}; each opened "
        f"{ramp['open_concurrency']} lobbies at a time, settled {ramp['settle_seconds']:g} s, measured over "
        f"{ramp['window_seconds']:g} s; {f['games_opened']:,} games opened ({f['games_replaced']:,} replacing games "
        f"that ended) in {f['search_seconds'] / 60:.1f} min; {f['errors']} ERROR lines in the bot's log",
        "  " + " ".join(f"{heading:>{width}}" for _key, heading, width in LEVEL_COLUMNS) + "  verdict",
    ]
    for level in f["levels"]:
        if "stopped" in level:
            lines.append(f"  {level['games']:>6}  stopped: {level['stopped']}")
            continue
        cells = [
            f"{'-' if level.get(key) is None else format(level[key], ',.10g'):>{width}}"
            for key, _heading, width in LEVEL_COLUMNS
        ]
        verdict = "passed" if level["passed"] else "FAILED: " + "; ".join(level["failures"])
        lines.append("  " + " ".join(cells) + "  " + verdict)
    late = [x["games"] for x in f["levels"] if (x.get("bench_loop_lag_p99_ms") or 0) > BENCH_LATE_MS]
    if late:
        lines.append(
            f"  the bench's own loop was late (lag p99 > {BENCH_LATE_MS:g} ms) at {', '.join(map(str, late))} games: "
            "its delay is in the latencies it measured there"
        )
    return "\n".join(lines)
