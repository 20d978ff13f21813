"""Every game's pictures work on a phone (issue 18): text readable at 400 px wide, colours told apart by
colour-blind players.

For each registered game, at 2 seats and its maximum, at the start and a few decisions in, the table
picture and the picture in a deciding seat's private message are drawn through the renderer the bot
uses (`bot.render.renderer_for`), and:
- the smallest text, with the picture shown PHONE_WIDTH (400) px wide, must be at least
  PHONE_MIN_TEXT_PX (10) px (harness/picture_checks.py says how it is measured);
- the renderer module declares `DISTINCT_COLOURS`, a dict naming each group of colours that mean
  different things on the picture (player colours, egg types...) and so must be told apart, and in
  each group the two colours closest for a deuteranope or a protanope differ by at least
  MIN_CVD_DISTANCE (CIEDE2000). A group whose members also differ by letter or shape need not be
  declared; player colours always are.
A game with no picture at all fails both.

The games whose pictures are still being redone are listed in NOT_YET_PHONE_READY, and for each of them
the test asserts that it still fails: whoever makes a game pass removes it from the set in the same
change, so the set never says less than the truth.

The pictures are drawn in a fresh process: renderers keep drawn parts (a board's background, its squares)
between pictures, and text drawn into a kept part is drawn, and so seen, only the first time.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import games
from bot.render import renderer_for
from bot.render.kit.generic import Renderer
from games.ai import RandomPlayer
from harness.picture_checks import (
    MIN_CVD_DISTANCE,
    PHONE_MIN_TEXT_PX,
    RGB,
    closest_colours_for_colour_blind,
    drawn_text,
    on_phone,
)
from tests.declared import with_pictures

pytestmark = pytest.mark.xdist_group("pictures_phone")  # one fresh drawing process for the whole file

# Games whose pictures do not pass yet; remove a game when its pictures do (the test then checks it).
NOT_YET_PHONE_READY: set[str] = set()

SEED = 11
DECISIONS_IN = 24  # the second moment pictured: a board with pieces, eggs, armies on it
ROOT = Path(__file__).resolve().parent.parent
# Display names as players have them (renderers may draw them): long ones, and letters beyond ASCII.
NAMES = ("Ada", "Bartholomew", "Chloé", "Dmitri_the_Bold", "Eun-ji", "Farouk", "Giulia", "Hiroshi")


def renderer_module(renderer: Renderer) -> ModuleType:
    """The module that draws a game's pictures: the renderer class's, or its image function's for a game
    with the generic renderer and a picture."""
    module = sys.modules[type(renderer).__module__]
    image = getattr(renderer, "_image", None)
    if module.__name__ == "bot.render.kit.generic" and image is not None:
        module = sys.modules[image.__module__]
    return module


def _pictures(key: str) -> Iterator[tuple[str, Callable[[], bytes | None]]]:
    """(what, a function drawing it) for every picture the phone test looks at in game `key`."""
    engine = games.get(key)
    renderer = renderer_for(key)
    for players in sorted({max(2, engine.min_players), engine.max_players}):
        state = engine.new(players, SEED, {})
        seats = [RandomPlayer(SEED + seat) for seat in range(players)]
        for moment in (0, DECISIONS_IN):
            for _ in range(moment):
                prompts = engine.prompts(state)
                if not prompts:
                    break
                p = prompts[0]
                engine.apply(state, p.seat, seats[p.seat].choose(engine, state, p))
            where = f"{players} seats, {moment} decisions in"
            prompts = engine.prompts(state)
            public = engine.view(state, None)
            yield f"table picture, {where}", partial(renderer.image, public, "en", NAMES[:players])
            if prompts:
                seat, prompt = prompts[0].seat, prompts[0]
                private = engine.view(state, seat)
                yield (
                    f"seat {seat + 1}'s picture, {where}",
                    partial(renderer.seat_image, private, prompt, "en", NAMES[:players]),
                )


def smallest_text(key: str) -> dict[str, Any]:
    """The smallest text on game `key`'s pictures as read on a phone, and on which picture; run in a
    fresh process (`python -m tests.test_pictures_phone`) so that every kept part is drawn once while
    recorded. "smallest" is None when the game draws no picture."""
    renderer = renderer_for(key)
    smallest: dict[str, Any] = {"smallest": None, "picture": None, "pictures": 0}
    if not renderer.pictured():
        return smallest
    for what, draw in _pictures(key):
        renderer._recent.clear()  # a picture identical to one drawn before would be served, not drawn
        drawn = drawn_text(draw)
        if drawn is None:  # a picture the bot does not show (a seat's, between its decisions)
            continue
        width, sizes = drawn
        smallest["pictures"] += 1
        for size in sizes:
            if smallest["smallest"] is None or on_phone(size, width) < smallest["smallest"]:
                smallest.update(smallest=on_phone(size, width), picture=f"{what} ({width} px wide, {size:g} px text)")
    return smallest


@dataclass(frozen=True)
class PhoneCheck:
    key: str
    failures: tuple[str, ...]  # why the game's pictures are not phone-ready; empty when they are


def _colour_failures(module: ModuleType) -> list[str]:
    groups: dict[str, Sequence[RGB]] | None = getattr(module, "DISTINCT_COLOURS", None)
    if not groups:
        return [f"{module.__name__} declares no DISTINCT_COLOURS (its player colours at least)"]
    failures = []
    for name, colours in groups.items():
        closest = closest_colours_for_colour_blind(list(colours))
        if closest.distance < MIN_CVD_DISTANCE:
            failures.append(
                f"{name}: {closest.first} and {closest.second} differ by {closest.distance:.1f} (CIEDE2000) "
                f"for {closest.deficiency}, under {MIN_CVD_DISTANCE}"
            )
    return failures


@pytest.fixture(scope="module")
def texts() -> dict[str, dict[str, Any]]:
    """`smallest_text` of every game, from a fresh process."""
    run = subprocess.run(
        [sys.executable, "-m", "tests.test_pictures_phone"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    found: dict[str, dict[str, Any]] = json.loads(run.stdout)
    return found


@pytest.fixture(scope="module")
def checks(texts: dict[str, dict[str, Any]]) -> dict[str, PhoneCheck]:
    found = {}
    for key in games.keys():
        text = texts[key]
        failures = []
        if text["smallest"] is None:
            failures.append("no picture")
        elif text["smallest"] < PHONE_MIN_TEXT_PX:
            failures.append(f"text reads {text['smallest']:.1f} px on a phone: {text['picture']}")
        failures += _colour_failures(renderer_module(renderer_for(key)))
        found[key] = PhoneCheck(key, tuple(failures))
    return found


@pytest.mark.parametrize("key", with_pictures())  # a game shown as text only has nothing to read: skipped
def test_the_pictures_work_on_a_phone(key: str, checks: dict[str, PhoneCheck]) -> None:
    failures = checks[key].failures
    if key in NOT_YET_PHONE_READY:
        assert failures, f"{key}'s pictures now pass: remove it from NOT_YET_PHONE_READY"
    else:
        assert not failures, f"{key}: " + "; ".join(failures)


def test_not_yet_phone_ready_names_only_games_that_exist() -> None:
    assert set(games.keys()) >= NOT_YET_PHONE_READY


def test_pictured_games_are_measured_on_several_pictures(texts: dict[str, dict[str, Any]]) -> None:
    """The fresh process did draw: each game with a picture was read on at least its four table pictures."""
    pictured = [key for key in games.keys() if renderer_for(key).pictured()]
    assert pictured, "no game draws a picture: nothing was measured"
    for key in pictured:
        assert texts[key]["pictures"] >= 4, key


if __name__ == "__main__":
    print(json.dumps({key: smallest_text(key) for key in games.keys()}))
