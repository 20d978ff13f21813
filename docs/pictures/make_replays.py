"""Write an animated replay of one whole game of each game (four players: Ada, Bartholomew, Chloé, Dmitri,
heuristic AI seats, a fixed seed) into docs/pictures/replay-<game>.webp, exactly as the replay's "Animated
replay" button makes it (bot.messages.endings.animation_job), and their sizes into docs/pictures/replays.md:

    python docs/pictures/make_replays.py
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import games  # noqa: E402
from bot.messages import endings  # noqa: E402
from storage import GameRow, SeatRow  # noqa: E402

OUT = ROOT / "docs" / "pictures"
NAMES = ["Ada", "Bartholomew", "Chloé", "Dmitri"]
SEED = 21


def play(key: str) -> tuple[GameRow, list[SeatRow], list[tuple[int, list[str]]]]:
    engine = games.get(key)
    players = len(NAMES)
    state = engine.new(players, SEED, {})
    level = "heuristic" if "heuristic" in engine.ai_levels else "random"
    ais = [engine.ai(level, SEED + seat) for seat in range(players)]
    moves: list[tuple[int, list[str]]] = []
    while engine.outcome(state) is None:
        prompt = engine.prompts(state)[0]
        action = ais[prompt.seat].choose(engine, state, prompt)
        engine.apply(state, prompt.seat, list(action))
        moves.append((prompt.seat, list(action)))
    game = GameRow(
        id=1,
        guild_id=1,
        channel_id=1,
        game_key=key,
        options={},
        status="finished",
        host_id=1,
        seed=SEED,
        created_at=datetime.now(UTC),
    )
    seats = [SeatRow(game_id=1, seat=i, user_id=i + 1, name=name) for i, name in enumerate(NAMES)]
    return game, seats, moves


def main() -> None:
    lines = ["# Animated replays", "", "One whole game of each, four players, as the replay's button makes it:", ""]
    for key in games.keys():
        game, seats, moves = play(key)
        pages = endings.replay_pages(game, seats, moves, "en")
        drawn = endings.animation_job(game, seats, pages, "en").run()
        assert drawn is not None
        path = OUT / f"replay-{key}.webp"
        path.write_bytes(drawn)
        lines.append(f"- [{games.get(key).title}](replay-{key}.webp): {len(pages)} turns, {len(drawn) / 1e6:.2f} MB")
        print(path, len(pages), len(drawn))
    (OUT / "replays.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
