"""Eight-Minute Empire views: the shared-work `views()` says exactly what the plain one-audience view
said (harness/eme_reference_view.py), never aliases the state, and survives being rendered."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.render.eight_minute_empire import RENDERER
from bot.render.kit.generic import TableContext
from games.eight_minute_empire import GAME, State
from games.eight_minute_empire.views import _map
from harness.eme_reference_view import reference_view

OPTIONS = st.fixed_dictionaries(
    {
        "full_game": st.booleans(),
        "explore": st.booleans(),
        "citadels": st.booleans(),
        "layout": st.sampled_from(["L", "row"]),
        "bid_tie": st.sampled_from(["die", "first-seat"]),
    }
)


def audiences(state: State) -> list[int | None]:
    return [None, *range(state.players)]


def snapshot(views: dict[int | None, dict[str, Any]]) -> str:
    return json.dumps({str(k): v for k, v in views.items()}, sort_keys=True)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 10_000), options=OPTIONS, play=st.integers(0, 2**32))
def test_views_equal_the_reference_throughout_any_game(
    players: int, seed: int, options: dict[str, Any], play: int
) -> None:
    """At moments of any legal game (all variants, full games too), each audience's view from
    `views()` and from `view()` equals the reference, and the views built at one moment are not changed
    by the decisions that follow (the table service shows them after the state has moved on)."""
    state = GAME.new(players, seed, options)
    rnd = random.Random(play)  # hypothesis's own randoms() records every draw: too slow for whole games
    earlier: list[tuple[dict[int | None, dict[str, Any]], str]] = []
    while True:
        prompts = GAME.prompts(state)
        if not prompts or rnd.random() < 0.25:  # a quarter of the moments, and the end: whole games are long
            together = GAME.views(state, audiences(state))
            for seat in audiences(state):
                assert together[seat] == reference_view(GAME, state, seat)
            seat = rnd.choice(audiences(state))
            assert GAME.view(state, seat) == together[seat]
            earlier.append((together, snapshot(together)))
        if not prompts:
            break
        for p in prompts:
            GAME.apply(state, p.seat, [rnd.choice(p.choices).id])
    for views, taken in earlier:
        assert snapshot(views) == taken, "a view changed after it was built"


def test_a_seat_view_adds_only_its_own_bid_to_the_public_view() -> None:
    state = GAME.new(3, 5)
    GAME.apply(state, 1, ["bid4"])
    views = GAME.views(state, audiences(state))
    public = views[None]
    assert "me" not in public and "my_bid" not in public
    for seat in range(3):
        mine = views[seat]
        assert {k: v for k, v in mine.items() if k not in ("me", "my_bid")} == public
        assert mine["me"] == seat
        assert mine["my_bid"] == (4 if seat == 1 else None)


def test_rendering_leaves_views_and_the_shared_map_parts_unchanged() -> None:
    """Views share nested parts (with each other and, for the map's fixed parts, with every later view):
    the renderers only read them."""
    state = GAME.new(4, 9, {"explore": True, "citadels": True})
    players = [random.Random(s) for s in range(4)]
    fixed_before = copy.deepcopy(_map(state.layout))
    for _ in range(60):
        for p in GAME.prompts(state):
            GAME.apply(state, p.seat, [players[p.seat].choice(p.choices).id])
    views = GAME.views(state, audiences(state))
    taken = snapshot(views)
    ctx = TableContext("Eight-Minute Empire", 1, ["A", "B", "C", "D"], [state.seat])
    prompt = next(iter(GAME.prompts(state)), None)
    RENDERER.table(views[None], ctx)
    assert RENDERER.image(views[None]) is not None
    for seat in range(4):
        RENDERER.seat(views[seat], prompt, ctx, seat)
        RENDERER.seat_image(views[seat], prompt)
    assert snapshot(views) == taken
    assert _map(state.layout) == fixed_before
