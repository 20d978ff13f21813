"""Recent pictures: a picture asked for again is not drawn again, and what is kept stays within its budget."""

from __future__ import annotations

from typing import Any

from bot.render.kit import generic
from bot.render.kit.generic import Renderer


class Counting:
    def __init__(self, size: int) -> None:
        self.size = size
        self.drawn: list[dict[str, Any]] = []

    def __call__(self, view: dict[str, Any]) -> bytes:
        self.drawn.append(view)
        return bytes([len(self.drawn) % 256]) * self.size


def test_the_same_view_and_language_are_drawn_once() -> None:
    draw = Counting(10)
    renderer = Renderer("test-game", image=draw)
    first = renderer.image({"a": 1, "b": [1, 2]})
    assert renderer.image({"b": [1, 2], "a": 1}) == first  # the same view, whatever the key order
    assert len(draw.drawn) == 1
    renderer.image({"a": 1, "b": [1, 2]}, "it")
    renderer.image({"a": 2, "b": [1, 2]})
    assert len(draw.drawn) == 3, "another language or another view is drawn"


def test_views_orjson_refuses_or_keys_by_number_are_kept_too() -> None:
    """What a picture is kept by is canonical JSON however the view is made: an integer over 64 bits
    (which orjson refuses: the standard library's then), keys that are numbers, tuples as lists."""
    draw = Counting(10)
    renderer = Renderer("test-game", image=draw)
    for view in ({"big": 2**70}, {1: "a", 2: (1, 2)}):
        first = renderer.image(view)
        assert renderer.image(dict(reversed(list(view.items())))) == first
    assert renderer.image({1: "a", 2: [1, 2]}) is not None
    assert len(draw.drawn) == 2, "each view drawn once (a tuple and a list read the same)"
    renderer.image({"big": 2**70 + 1})
    assert len(draw.drawn) == 3


def test_recent_pictures_stay_within_their_byte_budget_oldest_out_first(monkeypatch: Any) -> None:
    monkeypatch.setattr(generic, "RECENT_PICTURE_BYTES", 1000)
    draw = Counting(300)
    renderer = Renderer("test-game", image=draw)
    for n in range(5):
        renderer.image({"n": n})
    assert renderer._recent_bytes == sum(len(p) for p in renderer._recent.values()) <= 1000
    assert len(renderer._recent) == 3
    renderer.image({"n": 4})
    assert len(draw.drawn) == 5, "the newest is still kept"
    renderer.image({"n": 0})
    assert len(draw.drawn) == 6, "the oldest was let go"
