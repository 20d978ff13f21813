"""The Eight-Minute Empire map picture: golden images at 2, 3 and 4 players (public and a seat's own), and
the marks people rely on: counts that stay inside their regions, control, the start, a seat's targets."""

from __future__ import annotations

import copy
import hashlib
import io
import json
import math
import os
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.render.eight_minute_empire import RENDERER, map_part, render_map, seat_part
from bot.render.eight_minute_empire.canvas import Canvas, blank
from bot.render.eight_minute_empire.picture import (
    CITY,
    GOLD,
    INK,
    PLAYER_COLOURS,
    RADIUS,
    REGION_FILL,
    WIDTH,
    _palette,
    _region,
    faded,
    layout_of,
)
from games.core import Choice, Prompt
from games.eight_minute_empire import GAME

GOLDEN = Path(__file__).parent / "golden"
FADED_FILL = faded(REGION_FILL)
NAMES = ["Ann", "Bob", "Cy", "Di"]
# (players, options, decisions played by heuristic seats): a 2-player L, a 3-player row, 4 players' 2x2
GOLDEN_GAMES = {
    2: ({"explore": True, "citadels": True}, 60),
    3: ({"layout": "row", "explore": True}, 70),
    4: ({"explore": True, "citadels": True}, 90),
}


def played(players: int, options: dict[str, Any], decisions: int, seed: int = 7) -> Any:
    state = GAME.new(players, seed, options)
    seats = [GAME.ai("heuristic", seed * 10 + s) for s in range(players)]
    for _ in range(decisions):
        prompts = GAME.prompts(state)
        if not prompts:
            break
        for p in prompts:
            GAME.apply(state, p.seat, seats[p.seat].choose(GAME, state, p))
    return state


def moment(players: int) -> tuple[dict[str, Any], Prompt]:
    """A seat's view and its prompt at the golden moment of the `players` game, kept as JSON so that the
    pictures are checked against the renderer alone."""
    path = GOLDEN / f"eight_minute_empire_{players}p.json"
    if os.environ.get("EME_UPDATE_GOLDEN") == "moments":  # (=1 re-records the pictures of the stored moments)
        options, decisions = GOLDEN_GAMES[players]
        state = played(players, options, decisions)
        seats = [GAME.ai("heuristic", s) for s in range(players)]
        while not any("region" in c.data for p in GAME.prompts(state) for c in p.choices):  # a map decision
            p = GAME.prompts(state)[0]
            GAME.apply(state, p.seat, seats[p.seat].choose(GAME, state, p))
        prompt = next(p for p in GAME.prompts(state) if any("region" in c.data for c in p.choices))
        kept = {
            "view": GAME.view(state, prompt.seat),
            "prompt": {
                "seat": prompt.seat,
                "kind": prompt.kind,
                "info": dict(prompt.info),
                "choices": [[c.id, dict(c.data)] for c in prompt.choices],
            },
        }
        path.write_text(json.dumps(kept, indent=1))
    kept = json.loads(path.read_text())
    p = kept["prompt"]
    choices = [Choice(cid, "", data) for cid, data in p["choices"]]
    return kept["view"], Prompt(p["seat"], p["kind"], choices, info=p["info"])


def pixel_hash(png: bytes) -> str:
    image = Image.open(io.BytesIO(png))
    return hashlib.sha256(image.mode.encode() + repr(image.size).encode() + image.tobytes()).hexdigest()


@pytest.mark.parametrize("players", sorted(GOLDEN_GAMES))
@pytest.mark.parametrize("whose", ["public", "seat"])
def test_golden_pictures(players: int, whose: str) -> None:
    """The stored moments render to the same pixels. EME_UPDATE_GOLDEN=1 re-records the pictures after a
    deliberate change (EME_UPDATE_GOLDEN=moments also plays the moments again); the PNG beside each hash
    shows what the picture should look like."""
    view, prompt = moment(players)
    part = map_part(view) if whose == "public" else seat_part(view, prompt)
    png = render_map(part, NAMES[:players])
    name = f"eight_minute_empire_{players}p_{whose}"
    actual = pixel_hash(png)
    if os.environ.get("EME_UPDATE_GOLDEN"):
        (GOLDEN / f"{name}.sha256").write_text(actual + "\n")
        (GOLDEN / f"{name}.png").write_bytes(png)
    if actual != (GOLDEN / f"{name}.sha256").read_text().strip():
        Path(f"/tmp/{name}.actual.png").write_bytes(png)
        pytest.fail(f"{name} changed: see /tmp/{name}.actual.png")


@pytest.mark.parametrize(
    ("players", "layout", "size"),
    [(2, "L", (800, 800)), (3, "L", (800, 800)), (3, "row", (680, 1200)), (4, "L", (800, 970))],
)
def test_each_layout_is_compact(players: int, layout: str, size: tuple[int, int]) -> None:
    """Three boards as an L keep the panel in their free corner, a row is drawn as a column with the
    panel beside it, four boards are a square with the panel below: no strip, no empty quarter."""
    image = Image.open(io.BytesIO(render_map(GAME.view(GAME.new(players, 3, {"layout": layout}), None))))
    assert image.format == "PNG" and image.size == size
    assert image.width <= WIDTH and image.height <= 1.8 * image.width


@pytest.mark.parametrize("layout", ["2x2", "L", "row"])
def test_regions_leave_room_for_their_pieces_and_island_names(layout: str) -> None:
    """Regions stand far enough apart (and from the board's edges) for two circles and their rings, and
    each island's name lies inside its board and over no region."""
    from games.eight_minute_empire.board import build

    board = build(layout)
    for i in range(board.size):
        x, y = board.xy[i]
        assert min(x % 1, 1 - x % 1, y % 1, 1 - y % 1) >= 0.16 - 1e-9, board.labels[i]
        for j in range(i + 1, board.size):
            assert math.dist(board.xy[i], board.xy[j]) >= 0.28, (board.labels[i], board.labels[j])
    view = GAME.view(GAME.new(4, 1) if layout == "2x2" else GAME.new(3, 1, {"layout": layout}), None)
    drawn = layout_of(view)
    for _name, _members, (x0, y0, x1, y1) in drawn.islands:
        assert any(b[0] <= x0 and x1 <= b[2] and b[1] <= y0 and y1 <= b[3] for _, b in drawn.boards)
        for cx, cy in drawn.centre.values():
            nearest = math.hypot(max(x0 - cx, 0, cx - x1), max(y0 - cy, 0, cy - y1))
            assert nearest >= RADIUS - 2, (_name, nearest)


def test_start_ring_region_and_island_control_are_drawn() -> None:
    state = played(4, {}, 90)
    view = GAME.view(state, None)
    image = Image.open(io.BytesIO(render_map(view))).convert("RGB")
    layout = layout_of(view)
    start = next(r for r in view["regions"] if r["start"])
    x, y = layout.centre[start["id"]]
    assert image.getpixel((int(x - RADIUS - 7), int(y))) == GOLD
    owned = [r for r in view["regions"] if isinstance(r["control"], int)]
    assert owned
    for r in owned:
        x, y = layout.centre[r["id"]]
        assert image.getpixel((int(x - RADIUS + 2), int(y))) == PLAYER_COLOURS[r["control"]], r["id"]
    held = [(i, owner) for i, owner in enumerate(view["continent_control"]) if owner is not None]
    assert held, "some island is controlled in this game"
    for i, owner in held:
        _name, _members, box = layout.islands[i]
        assert image.getpixel((int(box[2] - 6), int((box[1] + box[3]) / 2))) == PLAYER_COLOURS[owner]


def region_alone(region: dict[str, Any]) -> tuple[Image.Image, tuple[float, float]]:
    canvas = Canvas(blank((300, 300), _palette(), (0, 0, 0)), _palette())
    _region(canvas, region, 150, 150)
    return canvas.image.convert("RGB"), (150, 150)


@pytest.mark.parametrize("stack", [1, 2, 3, 9, 18])
def test_any_stack_stays_inside_its_region(stack: int) -> None:
    """Every party's armies (four seats at once, any number each) are drawn inside the circle; the name
    tab sits on the top of the rim and cities on the bottom of it."""
    region = {
        "id": "A1",
        "armies": [stack, stack, max(1, stack - 1), stack],
        "neutral": 0,
        "cities": [0, 0, 0, 0],
        "token": None,
        "start": False,
        "control": None,
    }
    image, (cx, cy) = region_alone(region)
    outside = [
        (x, y)
        for x in range(300)
        for y in range(300)
        if image.getpixel((x, y)) != (0, 0, 0) and y > cy - RADIUS + 14 and math.dist((x, y), (cx, cy)) > RADIUS + 2
    ]
    assert not outside, outside[:5]
    # ... and the same check finds pieces put outside: the cities on the rim reach past it.
    region["cities"] = [3, 3, 3, 3]
    image, _ = region_alone(region)
    reach = max(
        math.dist((x, y), (cx, cy))
        for x in range(300)
        for y in range(int(cy), 300)
        if image.getpixel((x, y)) != (0, 0, 0)
    )
    assert RADIUS + 2 < reach < RADIUS + 2.5 * CITY


def test_a_seat_picture_marks_its_colour_and_the_prompts_targets() -> None:
    view, prompt = moment(4)
    targets = {c.data["region"] for c in prompt.choices if "region" in c.data}
    image = Image.open(io.BytesIO(render_map(seat_part(view, prompt), NAMES))).convert("RGB")
    assert image.getpixel((2, image.height // 2)) == PLAYER_COLOURS[prompt.seat], "framed in the seat's colour"
    layout = layout_of(view)
    plain = [r["id"] for r in view["regions"] if r["control"] is None and not any(r["armies"]) and not r["token"]]
    assert plain and targets
    for rid, (x, y) in layout.centre.items():
        around = [(x + (RADIUS + 16) * math.cos(a / 6), y + (RADIUS + 16) * math.sin(a / 6)) for a in range(38)]
        inked = sum(1 for px, py in around if 0 <= px < image.width and image.getpixel((int(px), int(py))) == INK)
        assert (inked > 25) == (rid in targets), (rid, inked)  # a ring of ink around each target only
        if rid in plain and rid != view["start"]:  # an empty region: plain if offered, faded if not
            inside = image.getpixel((int(x) + 25, int(y) + 5))
            assert inside == (REGION_FILL if rid in targets else FADED_FILL), (rid, inside)
    public = Image.open(io.BytesIO(render_map(map_part(view), NAMES))).convert("RGB")
    assert public.getpixel((2, public.height // 2)) != PLAYER_COLOURS[prompt.seat]


def test_the_renderer_draws_each_seat_its_own_picture_and_the_table_the_public_one() -> None:
    view, prompt = moment(3)
    public = RENDERER.image(view, "en", NAMES[:3])
    mine = RENDERER.seat_image(view, prompt, "en", NAMES[:3])
    assert public is not None and mine is not None and public != mine
    assert public == render_map(map_part(view), NAMES[:3])
    assert mine == render_map(seat_part(view, prompt), NAMES[:3])
    assert RENDERER.seat_image(view, None, "en", NAMES[:3]) is None, "no picture between the seat's decisions"


def test_a_move_rings_where_the_army_comes_from() -> None:
    view, _ = moment(4)
    start = view["start"]
    data = {"what": "move", "region": "B1", "continent": "Dunmere", "way": "land", "cost": 1}
    prompt = Prompt(view["me"], "move_to", [Choice("B1", "", data)], info={"from": start, "left": 2})
    part = seat_part(view, prompt)
    assert part["origin"] == start and part["targets"] == ["B1"]


def test_a_map_is_drawn_from_what_it_shows_and_kept_by_it() -> None:
    """Views that differ only in what the map does not show (coins, the card row, a seat's own bid) have
    the same picture, drawn once; a moved army is a new picture."""
    view = GAME.view(played(4, {}, 30), None)
    other = {**view, "coins_changed": True, "row": [], "seats": [], "me": 0, "my_bid": 5}
    assert map_part(other) == map_part(view)
    RENDERER._recent.clear()
    first = RENDERER.image(view)
    assert RENDERER.image(other) is first, "found among the recent pictures, not drawn again"
    moved = copy.deepcopy(view)
    moved["regions"][0]["armies"] = [a + 1 for a in moved["regions"][0]["armies"]]
    assert RENDERER.image(moved) != first


def test_pictures_do_not_depend_on_the_process() -> None:
    """The same moment gives the same bytes in any process (a picture worker's, the bot's): nothing is
    drawn in the order of a set, whose order follows the process's string hashing."""
    import subprocess
    import sys

    script = (
        "from tests.test_eight_minute_empire_render import moment, NAMES;"
        "from bot.render.eight_minute_empire import render_map, seat_part;"
        "import hashlib; view, prompt = moment(4);"
        "print(hashlib.sha256(render_map(seat_part(view, prompt), NAMES)).hexdigest())"
    )
    root = Path(__file__).resolve().parents[1]
    digests = {
        subprocess.run(
            [sys.executable, "-c", script],
            cwd=root,
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2", "3", "4")
    }
    assert len(digests) == 1, digests
