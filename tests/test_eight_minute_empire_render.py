"""The Eight-Minute Empire map picture: a golden image, and the marks people rely on."""

from __future__ import annotations

import hashlib
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.render.eight_minute_empire import GOLD, PLAYER_COLOURS, WIDTH, Geometry, render_map
from games.ai import RandomPlayer
from games.eight_minute_empire import GAME

GOLDEN = Path(__file__).parent / "golden"
VIEW_FILE = GOLDEN / "eight_minute_empire_view.json"
HASH_FILE = GOLDEN / "eight_minute_empire_map.sha256"
PNG_FILE = GOLDEN / "eight_minute_empire_map.png"


def played_view(players: int = 4, seed: int = 7, rounds: int = 120) -> dict[str, Any]:
    """The public view of a fixed seed's game after `rounds` rounds of random decisions."""
    state = GAME.new(players, seed, {"explore": True, "citadels": True})
    seats = [RandomPlayer(s) for s in range(players)]
    for _ in range(rounds):
        for p in GAME.prompts(state):
            GAME.apply(state, p.seat, seats[p.seat].choose(GAME, state, p))
    return GAME.view(state, None)


def pixel_hash(png: bytes) -> str:
    image = Image.open(io.BytesIO(png))
    return hashlib.sha256(image.mode.encode() + repr(image.size).encode() + image.tobytes()).hexdigest()


def test_golden_image() -> None:
    """The stored view (from seed 7) renders to the same pixels. Set EME_UPDATE_GOLDEN=1 to accept a
    deliberate change; the PNG next to the hash shows what the picture should look like."""
    if os.environ.get("EME_UPDATE_GOLDEN"):
        VIEW_FILE.write_text(json.dumps(played_view(), indent=1))
    view = json.loads(VIEW_FILE.read_text())
    png = render_map(view)
    actual = pixel_hash(png)
    if os.environ.get("EME_UPDATE_GOLDEN"):
        HASH_FILE.write_text(actual + "\n")
        PNG_FILE.write_bytes(png)
    expected = HASH_FILE.read_text().strip()
    if actual != expected:
        Path("/tmp/eight_minute_empire_map.actual.png").write_bytes(png)
    assert actual == expected, "map picture changed: see /tmp/eight_minute_empire_map.actual.png"


@pytest.mark.parametrize(("players", "layout"), [(2, "L"), (3, "row"), (4, "L")])
def test_every_layout_renders_at_preview_width(players: int, layout: str) -> None:
    state = GAME.new(players, 3, {"layout": layout})
    image = Image.open(io.BytesIO(render_map(GAME.view(state, None))))
    assert image.format == "PNG" and image.width == WIDTH
    assert 300 < image.height < 1100


def test_start_ring_and_control_colours_are_drawn() -> None:
    view = played_view()
    image = Image.open(io.BytesIO(render_map(view))).convert("RGB")
    geometry = Geometry(view)
    start = next(r for r in view["regions"] if r["start"])
    x, y = geometry.centre[start["id"]]
    assert image.getpixel((int(x + geometry.radius + 5), int(y))) == GOLD
    owned = [r for r in view["regions"] if isinstance(r["control"], int) and not r["start"]]
    assert owned
    for r in owned:
        x, y = geometry.centre[r["id"]]
        colour = image.getpixel((int(x), int(y - geometry.radius + 1)))
        assert colour == PLAYER_COLOURS[r["control"]], r["id"]


def test_armies_change_the_picture() -> None:
    view = played_view()
    before = pixel_hash(render_map(view))
    empty = next(r for r in view["regions"] if not any(r["armies"]) and not r["start"])
    empty["armies"][1] = 3
    assert pixel_hash(render_map(view)) != before


# --- the embeds -----------------------------------------------------------------------------------------


def ctx() -> Any:
    from bot.render.generic import TableContext

    return TableContext("Eight-Minute Empire: Legends", 1, ["Ann", "Bob", "Cy"], [0])


def test_the_game_has_its_own_renderer_with_the_map() -> None:
    from bot.render import renderer_for

    renderer = renderer_for("eight-minute-empire")
    assert renderer.key == "eight-minute-empire"
    png = renderer.image(played_view())
    assert png is not None and png.startswith(b"\x89PNG")


def test_public_embed_shows_row_costs_and_every_players_figures_but_no_bids() -> None:
    from bot.render.eight_minute_empire import RENDERER

    state = GAME.new(3, 2)
    GAME.apply(state, 0, ["bid7"])
    public = RENDERER.describe_public(GAME.view(state, None), ctx())
    for i, cost in enumerate((0, 1, 1, 2, 2, 3)):
        card = GAME.view(state, None)["row"][i]
        assert f"`{cost}` **{card['name']}**" in public
    assert "Ann: 11 coins" in public and "Cy: 11 coins" in public
    assert "Bids in: 🟥 Ann" in public and "7" not in public.split("Bids in:")[1].split("\n")[0]
    assert "Your secret bid: **7**" in RENDERER.describe_private(GAME.view(state, 0), ctx(), 0)
    assert "secret bid:" not in RENDERER.describe_private(GAME.view(state, 1), ctx(), 1)
    GAME.apply(state, 1, ["bid2"])
    events = GAME.apply(state, 2, ["bid0"])
    line = RENDERER.log_line([e for e in events if "to" not in e], ctx())
    assert line is not None and "Ann 7" in line and "Ann pays 7 and goes first" in line


def test_log_lines_name_players_and_regions() -> None:
    from bot.render.eight_minute_empire import event_text

    assert event_text({"type": "destroy", "seat": 0, "region": "B2", "victim": 2}, ctx()) == (
        "🟥 Ann destroyed an army of 🟩 Cy in B2"
    )
    assert event_text({"type": "destroy", "seat": 1, "region": "B2", "victim": None}, ctx()) == (
        "🟦 Bob destroyed a neutral army in B2"
    )
    assert event_text({"type": "move", "seat": 2, "origin": "A1", "dest": "A4"}, ctx()) == "🟩 Cy moved an army A1 → A4"
    assert event_text({"type": "bid", "to": 0, "amount": 3}, ctx()) == ""  # private: never in the log


def test_a_map_is_drawn_from_what_it_shows_and_kept_by_it() -> None:
    """Views that differ only in what the map does not show (coins, the card row, a seat's own bid) have
    the same picture, drawn once; a moved army is a new picture."""
    from bot.render.eight_minute_empire import RENDERER, map_part

    view = played_view(rounds=30)
    other = {**view, "coins_changed": True, "row": [], "seats": [], "me": 0, "my_bid": 5}
    assert map_part(other) == map_part(view)
    assert render_map(other) == render_map(view)
    RENDERER._recent.clear()
    first = RENDERER.image(view)
    assert RENDERER.image(other) is first, "found among the recent pictures, not drawn again"
    regions = [dict(r) for r in view["regions"]]
    regions[0]["armies"] = [a + 1 for a in regions[0]["armies"]]
    assert RENDERER.image({**view, "regions": regions}) != first
