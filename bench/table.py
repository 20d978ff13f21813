"""REST calls per resolved turn and wall time of whole games played through the Discord harness.

`python -m bench table [--game KEY] [--variants "a=b c=d"] [--humans N] [--ais N] [--games N]` plays
games (Eggs and Empires unless --game says otherwise) by clicking the buttons the bot sent (the real
bot and discord.py, network replaced by harness) and prints what the bot sent to Discord per
resolved turn (a log line), split by kind, plus the interaction responses.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path


async def _one_game(
    directory: Path, key: str, variants: str, humans: int, ais: int, index: int
) -> tuple[object, float, int]:
    from harness import Harness
    from harness.play import play_to_end

    h = await Harness.start(directory / f"bench{index}.sqlite3", seed=index)
    try:
        users = [h.user(f"P{i}") for i in range(humans)]
        extra: dict[str, object] = {"variants": variants} if variants else {}
        await h.slash(users[0], "game new", game=key, timer=0, **extra)  # type: ignore[arg-type]
        for user in users[1:]:
            await h.click(user, h.find_button(h.channel, "Join"))
        for _ in range(ais):
            await h.click(users[0], h.find_button(h.channel, "Add AI"))
        start_mark = len(h.fake.calls)
        await h.click(users[0], h.find_button(h.channel, "Start"))
        start_calls = len(h.fake.calls) - start_mark
        began = time.perf_counter()
        cost = await play_to_end(h, 1, users, max_steps=5000, rng=random.Random(index))
        elapsed = time.perf_counter() - began
        assert h.bot is not None
        row = await h.bot.table.db.get_game(1)
        assert row is not None and row.status == "finished", "the game did not reach its end"
        return cost, elapsed, start_calls
    finally:
        await h.close()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench table", description=__doc__)
    parser.add_argument("--game", default="eggs-empires", help="game key (eight-minute-empire, reggverse-riddles...)")
    parser.add_argument("--variants", default="", help='as /game new takes them: "action_tiles=true objectives=true"')
    parser.add_argument("--humans", type=int, default=3)
    parser.add_argument("--ais", type=int, default=1)
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args(argv)
    root = Path(__file__).resolve().parents[1]
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    kinds: Counter[str] = Counter()
    turns = decisions = responses = start_calls = 0
    seconds = 0.0
    with tempfile.TemporaryDirectory() as directory:
        for index in range(args.games):
            cost, elapsed, started = asyncio.run(
                _one_game(Path(directory), args.game, args.variants, args.humans, args.ais, index)
            )
            kinds.update(cost.kinds)  # type: ignore[attr-defined]
            turns += cost.resolved_turns  # type: ignore[attr-defined]
            decisions += cost.decisions  # type: ignore[attr-defined]
            responses += cost.interaction_responses  # type: ignore[attr-defined]
            start_calls += started
            seconds += elapsed
    bot_calls = sum(kinds.values())
    import games

    title = games.get(args.game).title + (f" ({args.variants})" if args.variants else "")
    print(f"{title}, {args.humans} humans + {args.ais} AI, {args.games} games through the harness")
    print(f"  resolved turns (log lines): {turns}, human decisions: {decisions}")
    print(f"  REST calls sent by the bot per resolved turn: {bot_calls / max(1, turns):.2f}")
    for kind, count in sorted(kinds.items()):
        print(f"    {kind:28s} {count / max(1, turns):6.2f} per turn  ({count} total)")
    print(f"  interaction responses per decision: {responses / max(1, decisions):.2f}")
    print(f"  floor per resolved turn (1 table edit with its log line + 1 DM edit per human): {1 + args.humans}")
    print(f"  starting a game: {start_calls} REST calls (thread, table, one DM per human)")
    print(f"  wall time: {seconds:.2f} s for {decisions} decisions ({decisions / max(seconds, 1e-9):.0f} decisions/s)")
    from bench import results

    figures = {
        "game": title,
        "humans": args.humans,
        "ais": args.ais,
        "games": args.games,
        "resolved_turns": turns,
        "human_decisions": decisions,
        "rest_per_turn": round(bot_calls / max(1, turns), 2),
        "floor_per_turn": 1 + args.humans,
        "by_kind_per_turn": {k: round(v / max(1, turns), 2) for k, v in sorted(kinds.items())},
        "responses_per_decision": round(responses / max(1, decisions), 2),
        "start_calls": start_calls,
        "decisions_per_second": round(decisions / max(seconds, 1e-9)),
    }
    name = "table" if not argv else "table-" + args.game + ("-variants" if args.variants else "")
    results.save(
        name,
        results.command("table", argv),
        figures,
        title=f"REST per turn: {title}",
        targets={"rest_per_turn": f"<= {2 + args.humans}"},
    )
    return 0
