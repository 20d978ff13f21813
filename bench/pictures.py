"""What one picture costs: CPU milliseconds per picture, per renderer, drawing and encoding apart.

    python -m bench pictures [--positions 12] [--repeats 3] [--tables 60] [--rounds 20] [--no-save] [--notes TEXT]
    python -m bench pictures --gallery docs/pictures/eggs-empires

For each game with a picture (Eggs and Empires' table and a deciding seat's hand; Eight-Minute Empire's
map and a deciding seat's own map; Reggverse Riddles' table view and a deciding seat's own view), views are taken from
several moments of several random games; each is drawn `--repeats` times with the renderer's own function
(not through the renderer's per-view cache, which a new view never hits), the parts Eggs and Empires and
Reggverse Riddles keep from one picture for the next forgotten before each (drawing a view again would
paste them all). Their `*_games` figures are what a running bot draws: two whole games' pictures in order
(each decision's table, then the deciding seat's), the kept parts pasted where they are the same. Figures
are this process's CPU time (the machine is shared, wall clock is noise): the median per picture, and the
same split into drawing (the Pillow image) and encoding (palette and PNG). The `*_tables` figures are what
one picture worker draws for `--tables` games played at once (`--rounds` decisions of each, a decision
of each game in turn), with the pieces a worker keeps (RENDER_WORKER_MEMORY_MB's default) and, as
`*_tables_budget`, with only what the bot's own process keeps: the mean counts the pieces drawn again.

With --gallery DIR nothing is measured: one whole Eggs and Empires game's pictures are written there,
shrunk to a phone's 400 px, for people to judge them (docs/pictures/eggs-empires).
"""

from __future__ import annotations

import argparse
import os
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


def _deciding_seat_views(
    key: str, count: int, options: dict[str, Any], shape: Callable[[dict[str, Any], Any], dict[str, Any]]
) -> list[dict[str, Any]]:
    """Like `_positions`, what the deciding seat's own picture shows at each moment: `shape` gets its view
    and its prompt (the seat pictures outline or ring what the prompt offers)."""
    engine = games.get(key)
    views = []
    for number in range(count):
        state = engine.new(4, number, options)
        players = [RandomPlayer(number * 31 + s) for s in range(4)]
        for _ in range(10 + 12 * (number % 6)):
            for prompt in engine.prompts(state):
                engine.apply(state, prompt.seat, players[prompt.seat].choose(engine, state, prompt))
        prompt = engine.prompts(state)[0]
        views.append(shape(engine.view(state, prompt.seat), prompt))
    return views


GALLERY_NAMES = ("Ada", "Bartholomew", "Cy", "Dee")


def eggs_empires_gallery(directory: str, seed: int = 2026) -> list[str]:
    """Write one whole 4-player game (heuristic players) as it looks on a phone, shrunk to 400 px wide, into
    `directory`: the table at the start of every turn (showing the turn before) and at the end, and Ada's own
    picture at the first prompt of each kind she gets (with what it offers outlined), with a README.md
    listing them. Returns the index's lines."""
    from io import BytesIO
    from pathlib import Path

    from PIL import Image

    from bot.render.eggs_empires.parts import UNIT, picture_palette
    from bot.render.eggs_empires.picture import picture, seat_view_with_prompt

    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    engine = games.get("eggs-empires")
    state = engine.new(len(GALLERY_NAMES), seed)
    players = [engine.ai("heuristic", seed + seat) for seat in range(len(GALLERY_NAMES))]
    index: list[str] = []
    shown: set[Any] = set()  # (round, turn) of the tables saved, and the prompt kinds of Ada's pictures

    def save(name: str, view: dict[str, Any], caption: str) -> None:
        drawn = picture(view, GALLERY_NAMES).convert("RGB")  # drawn on its palette: resized in RGB
        small = drawn.resize((UNIT, round(drawn.height * UNIT / drawn.width)), Image.Resampling.LANCZOS)
        out = BytesIO()
        small.quantize(palette=picture_palette(), dither=Image.Dither.NONE).save(out, "PNG", optimize=True)
        (folder / name).write_bytes(out.getvalue())
        index.append(f"- [{name}]({name}): {caption}")

    while prompts := engine.prompts(state):
        view = engine.view(state, None)
        moment = (view["round"], view["turn"])
        if view["phase"] == "play" and moment not in shown:
            shown.add(moment)
            save(f"r{view['round']}t{view['turn']}-table.png", view, f"the table, round {moment[0]}, turn {moment[1]}")
        for prompt in prompts:
            if prompt.seat == 0 and prompt.kind not in shown:
                shown.add(prompt.kind)
                seat_view = seat_view_with_prompt(engine.view(state, 0), prompt)
                name = f"r{view['round']}t{view['turn']}-ada-{prompt.kind}.png"
                save(name, seat_view, f"Ada's private message, deciding ({prompt.kind})")
        prompt = prompts[0]
        engine.apply(state, prompt.seat, players[prompt.seat].choose(engine, state, prompt))
    save("end-table.png", engine.view(state, None), "the table at the end of the game")
    readme = [
        "# Eggs and Empires: one whole game, as it looks on a phone",
        "",
        f"A 4-player game (seed {seed}, heuristic players), drawn by `bot/render/eggs_empires/picture.py` and",
        "shrunk to 400 px wide, the width of a phone's chat column. Regenerate with",
        "`python -m bench pictures --gallery docs/pictures/eggs-empires`.",
        "",
        *sorted(index, key=lambda line: (line.startswith("- [end"), line)),
    ]
    (folder / "README.md").write_text("\n".join(readme) + "\n", encoding="utf-8")
    return index


def measure(
    views: list[dict[str, Any]],
    picture: Picture,
    draw: Callable[[dict[str, Any]], Any],
    encode: Callable[[Any], bytes],
    repeats: int,
    forget: Callable[[], None] | None = None,
) -> dict[str, float]:
    """Medians per picture of `views`, each drawn `repeats` times. `forget`, for a renderer that keeps
    drawn parts from one picture for the next ones: called before each picture, so that none is pasted
    from the same view drawn before (a running bot draws a view once)."""
    picture(views[0])  # fonts and kept layers loaded, as in a running bot
    total: list[float] = []
    drawing: list[float] = []
    encoding: list[float] = []
    sizes: list[int] = []
    for _ in range(repeats):
        for view in views:
            if forget is not None:
                forget()
            started = time.process_time()
            picture(view)
            pictured = time.process_time()
            if forget is not None:
                forget()
            total.append((pictured - started) * 1000)
            _draw_then_encode(view, draw, encode, drawing, encoding, sizes)
    return _medians(total, drawing, encoding, sizes)


def measure_games(
    views: list[dict[str, Any]],
    draw: Callable[[dict[str, Any]], Any],
    encode: Callable[[Any], bytes],
    repeats: int,
    forget: Callable[[], None],
    warm: int = 0,
) -> dict[str, float]:
    """Medians per picture of whole games' pictures in their order (`views`: each decision's table, then
    the deciding seat's), each drawn once per repeat after what is kept was forgotten at the start: the
    parts a picture shares with the ones before it are pasted, as in a running bot. The first `warm`
    pictures of each repeat are drawn but not counted (a running worker's pieces are never all new)."""
    draw(views[0])
    total: list[float] = []
    drawing: list[float] = []
    encoding: list[float] = []
    sizes: list[int] = []
    for _ in range(repeats):
        forget()
        for number, view in enumerate(views):
            counted = number >= warm
            figures = (total, drawing, encoding, sizes) if counted else ([], [], [], [])
            figures[0].append(_draw_then_encode(view, draw, encode, *figures[1:]))
    return _medians(total, drawing, encoding, sizes)


def _draw_then_encode(
    view: dict[str, Any],
    draw: Callable[[dict[str, Any]], Any],
    encode: Callable[[Any], bytes],
    drawing: list[float],
    encoding: list[float],
    sizes: list[int],
) -> float:
    """Draw `view`, then encode it, each timed (CPU ms appended to `drawing` and `encoding`, the size to
    `sizes`); returns both together in ms."""
    started = time.process_time()
    image = draw(view)
    encoded = time.process_time()
    sizes.append(len(encode(image)))
    done = time.process_time()
    drawing.append((encoded - started) * 1000)
    encoding.append((done - encoded) * 1000)
    return (done - started) * 1000


def _medians(total: list[float], drawing: list[float], encoding: list[float], sizes: list[int]) -> dict[str, float]:
    return {
        "cpu_ms": round(statistics.median(total), 2),
        "mean_cpu_ms": round(statistics.mean(total), 2),
        "draw_cpu_ms": round(statistics.median(drawing), 2),
        "encode_cpu_ms": round(statistics.median(encoding), 2),
        "kb": round(statistics.median(sizes) / 1024, 1),
    }


Shape = Callable[[dict[str, Any], Any], dict[str, Any]]


def _game(key: str, number: int, options: dict[str, Any], shape: Shape, decisions: int = 60) -> list[dict[str, Any]]:
    """The pictures' views of random 4-player game `number`, in order: at each decision (up to
    `decisions`) the table's and the deciding seat's (`shape` adds its prompt)."""
    engine = games.get(key)
    views = []
    state = engine.new(4, 100 + number, options)
    players = [RandomPlayer(number * 31 + s) for s in range(4)]
    for _ in range(decisions):
        prompts = engine.prompts(state)
        if not prompts:
            break
        prompt = prompts[0]
        views.append(engine.view(state, None))
        views.append(shape(engine.view(state, prompt.seat), prompt))
        engine.apply(state, prompt.seat, players[prompt.seat].choose(engine, state, prompt))
    return views


def _games(key: str, games_count: int, options: dict[str, Any], shape: Shape) -> list[dict[str, Any]]:
    """The pictures' views of `games_count` games, one after the other."""
    return [view for number in range(games_count) for view in _game(key, number, options, shape)]


def _tables(key: str, tables: int, decisions: int, options: dict[str, Any], shape: Shape) -> list[dict[str, Any]]:
    """The pictures' views of `tables` games played at once, as a picture worker gets them: a decision of
    each game in turn (its table's picture and its deciding seat's), round after round."""
    each = [_game(key, number, options, shape, decisions) for number in range(tables)]
    return [view for step in range(0, 2 * decisions, 2) for views in each for view in views[step : step + 2]]


def _many_tables(
    tables: int, rounds: int, expansions: dict[str, Any], eggs_image: Callable[[dict[str, Any]], Any]
) -> dict[str, Any]:
    """The `*_tables` figures: the pictures of `tables` games at once, a decision of each in turn, as one
    picture worker draws every table's pictures. A worker keeps RENDER_WORKER_MEMORY_MB of drawn pieces
    (its default; `*_tables_budget`: only the renderers' own budgets, as the bot's process keeps); the first
    third of the pictures fill them and are not counted."""
    from bot.render.eggs_empires import parts as eggs_empires_parts
    from bot.render.eggs_empires import picture as eggs_empires_picture
    from bot.render.kit import paletted
    from bot.render.kit.pool import DEFAULT_WORKER_MEMORY_MB
    from bot.render.reggverse import parts as reggverse_parts
    from bot.render.reggverse import picture as reggverse

    kinds = {
        "eggs_empires": (
            _tables("eggs-empires", tables, rounds, {}, eggs_empires_picture.seat_view_with_prompt),
            eggs_image,
            eggs_empires_parts.encode,
            eggs_empires_parts.KEPT.clear,
        ),
        "reggverse": (
            _tables("reggverse-riddles", tables, rounds, expansions, reggverse.with_prompt),
            reggverse.draw_view,
            reggverse.encode,
            reggverse_parts.KEPT.clear,
        ),
    }
    figures: dict[str, Any] = {}
    for game, (views, draw, encode, forget) in kinds.items():
        for suffix, memory in (("_budget", None), ("", DEFAULT_WORKER_MEMORY_MB << 20)):
            paletted.KeptPieces.memory = memory
            name = f"{game}_tables{suffix}"
            figures[name] = f = measure_games(views, draw, encode, 1, forget, warm=len(views) // 3)
            kept = f"{memory >> 20} MB" if memory else "the renderers' budgets"
            print(
                f"{name}: mean {f['mean_cpu_ms']} ms CPU per picture, median {f['cpu_ms']} ms (draw "
                f"{f['draw_cpu_ms']} ms, encode {f['encode_cpu_ms']} ms); {len(views)} pictures of {tables} "
                f"games at once, pieces kept: {kept}"
            )
            forget()
    paletted.KeptPieces.memory = None
    return figures


def _without_notes(argv: list[str]) -> list[str]:
    """The command's arguments but the notes (kept in the results' notes, not repeated in its command)."""
    shown: list[str] = []
    skip = False
    for arg in argv:
        if not skip and not arg.startswith("--notes"):
            shown.append(arg)
        skip = arg == "--notes"
    return shown


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench pictures")
    parser.add_argument("--positions", type=int, default=12, help="game moments per picture kind")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--tables", type=int, default=60, help="games played at once for the *_tables figures")
    parser.add_argument("--rounds", type=int, default=20, help="decisions of each of those games")
    parser.add_argument("--no-save", action="store_true")
    parser.add_argument("--notes", default="", help="what the figures need beside them (old/new figures, why)")
    parser.add_argument("--gallery", metavar="DIR", help="write one whole Eggs and Empires game's pictures, and stop")
    args = parser.parse_args(argv)
    if args.gallery:
        for line in eggs_empires_gallery(args.gallery):
            print(line)
        return 0

    from bot.render import eight_minute_empire as eme
    from bot.render.eggs_empires import parts as eggs_empires_parts
    from bot.render.eggs_empires import picture as eggs_empires_picture
    from bot.render.eight_minute_empire import picture as eme_map
    from bot.render.reggverse import picture as reggverse

    names = ("Ada", "Bartholomew", "Cy", "Dee")

    def eggs_png(view: dict[str, Any]) -> bytes:
        return eggs_empires_picture.png(view, names)

    def eggs_image(view: dict[str, Any]) -> Any:
        return eggs_empires_picture.picture(view, names)

    expansions = {"action_tiles": True, "objectives": True}
    eme_options = {"explore": True, "citadels": True}
    kinds: dict[str, tuple[list[dict[str, Any]], Picture, Callable[[dict[str, Any]], Any], Callable[[Any], bytes]]] = {
        "eggs_empires_table": (
            _positions("eggs-empires", args.positions, None, {}),
            eggs_png,
            eggs_image,
            eggs_empires_parts.encode,
        ),
        "eggs_empires_seat": (
            _deciding_seat_views("eggs-empires", args.positions, {}, eggs_empires_picture.seat_view_with_prompt),
            eggs_png,
            eggs_image,
            eggs_empires_parts.encode,
        ),
        "eight_minute_empire_map": (
            [eme.map_part(v) for v in _positions("eight-minute-empire", args.positions, None, eme_options)],
            eme.render_map,
            eme_map.draw_map,
            eme_map.encode,
        ),
        "eight_minute_empire_seat": (
            _deciding_seat_views("eight-minute-empire", args.positions, eme_options, eme.seat_part),
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
            _deciding_seat_views("reggverse-riddles", args.positions, expansions, reggverse.with_prompt),
            reggverse.render_board,
            reggverse.draw_view,
            reggverse.encode,
        ),
    }
    from bot.render.reggverse import parts as reggverse_parts

    kept = {  # what the renderers keep from one picture for the next: forgotten before each measured one
        "eggs_empires_table": eggs_empires_parts.KEPT.clear,
        "eggs_empires_seat": eggs_empires_parts.KEPT.clear,
        "reggverse_table": reggverse_parts.KEPT.clear,
        "reggverse_seat": reggverse_parts.KEPT.clear,
    }
    whole_games = {  # and whole games' pictures in order, what is kept pasted where it is the same
        "eggs_empires_games": (
            _games("eggs-empires", 2, {}, eggs_empires_picture.seat_view_with_prompt),
            eggs_image,
            eggs_empires_parts.encode,
            eggs_empires_parts.KEPT.clear,
        ),
        "reggverse_games": (
            _games("reggverse-riddles", 2, expansions, reggverse.with_prompt),
            reggverse.draw_view,
            reggverse.encode,
            reggverse_parts.KEPT.clear,
        ),
    }
    figures: dict[str, Any] = {}
    load_before = os.getloadavg()[0]
    for name, (views, picture, draw, encode) in kinds.items():
        figures[name] = measure(views, picture, draw, encode, args.repeats, kept.get(name))
        f = figures[name]
        print(
            f"{name}: median {f['cpu_ms']} ms CPU per picture (draw {f['draw_cpu_ms']} ms, "
            f"encode {f['encode_cpu_ms']} ms), {f['kb']} KB; {len(views)} positions x {args.repeats}"
        )
    for name, (views, draw, encode, forget) in whole_games.items():
        figures[name] = measure_games(views, draw, encode, args.repeats, forget)
        f = figures[name]
        print(
            f"{name}: median {f['cpu_ms']} ms CPU per picture (draw {f['draw_cpu_ms']} ms, "
            f"encode {f['encode_cpu_ms']} ms), {f['kb']} KB; {len(views)} pictures of 2 games x {args.repeats}"
        )
    figures.update(_many_tables(args.tables, args.rounds, expansions, eggs_image))
    load = f"Load (1-minute average, 2 cores) {load_before:.1f} before, {os.getloadavg()[0]:.1f} after."
    print(load)
    if not args.no_save:
        from bench import results

        results.save(
            "pictures",
            results.command("pictures", _without_notes(argv)),
            figures,
            title="Pictures: CPU per picture",
            targets={f"{name}.cpu_ms": "< 20 ms" for name in [*kinds, *whole_games, *figures]},
            notes=" ".join(part for part in (load, args.notes) if part),
        )
    return 0
