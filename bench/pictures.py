"""What one picture costs: CPU milliseconds per picture, per renderer, drawing and encoding apart.

    python -m bench pictures [--positions 12] [--repeats 3] [--no-save]

For each game with a picture (Eight-Minute Empire's map and a deciding seat's own map; Reggverse Riddles'
table view and a seat's view), views are taken from several moments of several random games; each is
drawn `--repeats` times with the renderer's own function (not through the renderer's per-view cache,
which a new view never hits). Figures are this process's CPU time (the machine is shared, wall clock
is noise): the median per picture, and the same split into drawing (the Pillow image) and encoding
(palette and PNG).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import games
from games.ai import RandomPlayer

Picture = Callable[[dict[str, Any]], bytes]


def _positions(key: str, count: int, seat: int | None, options: dict[str, Any]) -> list[dict[str, Any]]:
    """Views of `count` moments spread over several random 4-player games."""
    engine = games.get(key)
    views = []
    for number in range(count):
        state = engine.new(4, number, options)
        players = [RandomPlayer(number * 31 + s) for s in range(4)]
        for _ in range(10 + 12 * (number % 6)):
            if engine.outcome(state) is not None:
                break
            for prompt in engine.prompts(state):
                engine.apply(state, prompt.seat, players[prompt.seat].choose(engine, state, prompt))
        views.append(engine.view(state, seat))
    return views


def _eme_seat_parts(count: int, options: dict[str, Any]) -> list[dict[str, Any]]:
    """What the deciding seat's own Eight-Minute Empire map shows at `count` moments (its prompt's regions
    ringed), over several random 4-player games."""
    from bot.render.eight_minute_empire import seat_part

    engine = games.get("eight-minute-empire")
    parts = []
    for number in range(count):
        state = engine.new(4, number, options)
        players = [RandomPlayer(number * 31 + s) for s in range(4)]
        for _ in range(10 + 12 * (number % 6)):
            for prompt in engine.prompts(state):
                engine.apply(state, prompt.seat, players[prompt.seat].choose(engine, state, prompt))
        prompt = engine.prompts(state)[0]
        parts.append(seat_part(engine.view(state, prompt.seat), prompt))
    return parts


def measure(
    views: list[dict[str, Any]],
    picture: Picture,
    draw: Callable[[dict[str, Any]], Any],
    encode: Callable[[Any], bytes],
    repeats: int,
) -> dict[str, float]:
    picture(views[0])  # fonts and kept layers loaded, as in a running bot
    total, drawing, encoding, sizes = [], [], [], []
    for _ in range(repeats):
        for view in views:
            started = time.process_time()
            picture(view)
            drawn = time.process_time()
            image = draw(view)
            encoded = time.process_time()
            sizes.append(len(encode(image)))
            done = time.process_time()
            total.append((drawn - started) * 1000)
            drawing.append((encoded - drawn) * 1000)
            encoding.append((done - encoded) * 1000)
    return {
        "cpu_ms": round(statistics.median(total), 2),
        "draw_cpu_ms": round(statistics.median(drawing), 2),
        "encode_cpu_ms": round(statistics.median(encoding), 2),
        "kb": round(statistics.median(sizes) / 1024, 1),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench pictures")
    parser.add_argument("--positions", type=int, default=12, help="game moments per picture kind")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-save", action="store_true")
    args = parser.parse_args(argv)

    from bot.render import eight_minute_empire as eme
    from bot.render import eight_minute_empire_map as eme_map
    from bot.render import reggverse

    expansions = {"action_tiles": True, "objectives": True}
    eme_options = {"explore": True, "citadels": True}
    kinds: dict[str, tuple[list[dict[str, Any]], Picture, Callable[[dict[str, Any]], Any], Callable[[Any], bytes]]] = {
        "eight_minute_empire_map": (
            [eme.map_part(v) for v in _positions("eight-minute-empire", args.positions, None, eme_options)],
            eme.render_map,
            eme_map.draw_map,
            eme_map.encode,
        ),
        "eight_minute_empire_seat": (
            _eme_seat_parts(args.positions, eme_options),
            eme.render_map,
            eme_map.draw_map,
            eme_map.encode,
        ),
        "reggverse_table": (
            _positions("reggverse-riddles", args.positions, None, expansions),
            reggverse.render_board,
            reggverse.draw_view,
            reggverse.encode,
        ),
        "reggverse_seat": (
            _positions("reggverse-riddles", args.positions, 2, expansions),
            reggverse.render_board,
            reggverse.draw_view,
            reggverse.encode,
        ),
    }
    figures: dict[str, Any] = {}
    for name, (views, picture, draw, encode) in kinds.items():
        figures[name] = measure(views, picture, draw, encode, args.repeats)
        f = figures[name]
        print(
            f"{name}: median {f['cpu_ms']} ms CPU per picture (draw {f['draw_cpu_ms']} ms, "
            f"encode {f['encode_cpu_ms']} ms), {f['kb']} KB; {len(views)} positions x {args.repeats}"
        )
    if not args.no_save:
        from bench import results

        results.save(
            "pictures",
            results.command("pictures", argv),
            figures,
            title="Pictures: CPU per picture",
            targets={f"{name}.cpu_ms": "< 20 ms" for name in kinds},
        )
    return 0
