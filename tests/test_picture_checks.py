"""The phone checks themselves (harness/picture_checks.py): each must fail what it is meant to catch."""

from __future__ import annotations

import io
import threading

import pytest
from PIL import Image, ImageDraw

from bot.render.kit.fonts import font
from harness import picture_checks
from harness.picture_checks import (
    MIN_CVD_DISTANCE,
    ciede2000,
    closest_colours_for_colour_blind,
    simulated_lab,
    text_on_phone,
)

OKABE_ITO = [
    (0, 0, 0),
    (230, 159, 0),
    (86, 180, 233),
    (0, 158, 115),
    (240, 228, 66),
    (0, 114, 178),
    (213, 94, 0),
    (204, 121, 167),
]


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _picture(width: int, *sizes: int) -> bytes:
    image = Image.new("RGB", (width, 200), "white")
    draw = ImageDraw.Draw(image)
    for i, size in enumerate(sizes):
        draw.text((10, 10 + 40 * i), "Seat 3", fill="black", font=font(size))
    return _png(image)


def test_a_12_px_text_on_a_picture_800_wide_reads_as_6_px_on_a_phone() -> None:
    reading = text_on_phone(lambda: _picture(800, 30, 12, 18))
    assert reading.smallest_px == pytest.approx(6.0)
    assert reading.smallest_drawn_px == 12
    assert reading.picture_width == 800
    assert reading.sizes == (12, 18, 30)


def test_a_picture_narrower_than_a_phone_is_not_enlarged() -> None:
    assert text_on_phone(lambda: _picture(300, 12)).smallest_px == pytest.approx(12.0)
    assert text_on_phone(lambda: _picture(400, 11)).smallest_px == pytest.approx(11.0)


def test_text_drawn_large_and_scaled_down_counts_at_its_final_size() -> None:
    def drawn_twice_as_large() -> bytes:
        image = Image.new("RGB", (1600, 400), "white")
        ImageDraw.Draw(image).text((10, 10), "North", fill="black", font=font(24))
        return _png(image.resize((800, 200)))

    assert text_on_phone(drawn_twice_as_large).smallest_px == pytest.approx(6.0)


def test_text_without_a_font_of_ours_is_recorded_too() -> None:
    def default_fonts() -> bytes:
        image = Image.new("RGB", (400, 100), "white")
        draw = ImageDraw.Draw(image)
        draw.text((5, 5), "sized", fill="black", font_size=9)
        draw.text((5, 50), "", fill="black", font=font(4))  # nothing drawn: not counted
        return _png(image)

    assert text_on_phone(default_fonts).smallest_px == pytest.approx(9.0)


def test_a_drawing_with_no_picture_or_no_text_is_refused() -> None:
    with pytest.raises(AssertionError, match="no picture"):
        text_on_phone(lambda: None)
    with pytest.raises(AssertionError, match="no text"):
        text_on_phone(lambda: _png(Image.new("RGB", (400, 100), "white")))


def test_recording_ends_with_the_drawing_and_sees_only_its_own_thread() -> None:
    original = ImageDraw.ImageDraw.text
    other_thread_drew = threading.Event()

    def draw_elsewhere() -> None:
        _picture(400, 5)
        other_thread_drew.set()

    def with_another_thread_drawing() -> bytes:
        thread = threading.Thread(target=draw_elsewhere)
        thread.start()
        thread.join()
        return _picture(400, 20)

    assert text_on_phone(with_another_thread_drawing).sizes == (20,)
    assert other_thread_drew.is_set()
    assert ImageDraw.ImageDraw.text is original

    def failing() -> bytes:
        raise RuntimeError("the renderer broke")

    with pytest.raises(RuntimeError):
        text_on_phone(failing)
    assert ImageDraw.ImageDraw.text is original


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [  # Sharma, Wu & Dalal (2005), test data pairs 1, 7, 17-20
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((50.0, 2.5, 0.0), (61.0, -5.0, 29.0), 22.8977),
        ((50.0, 2.5, 0.0), (56.0, -27.0, -3.0), 31.9030),
        ((50.0, 2.5, 0.0), (58.0, 24.0, 15.0), 19.4535),
    ],
)
def test_ciede2000_matches_the_published_test_data(
    first: picture_checks.Lab, second: picture_checks.Lab, expected: float
) -> None:
    assert ciede2000(first, second) == pytest.approx(expected, abs=5e-5)
    assert ciede2000(second, first) == pytest.approx(expected, abs=5e-5)


@pytest.mark.parametrize(
    ("rgb", "deficiency", "expected"),
    # colorspacious 1.1.2: cspace_convert(rgb / 255, {"name": "sRGB1+CVD", "cvd_type": ..., "severity": 100}, "CIELab")
    [
        ((214, 40, 57), "deuteranopia", (52.18, -4.34, 41.31)),
        ((30, 150, 70), "deuteranopia", (53.00, -3.42, 29.08)),
        ((214, 40, 57), "protanopia", (37.39, -2.18, 19.79)),
        ((230, 159, 0), "protanopia", (66.64, -6.02, 79.57)),  # outside the sRGB gamut once simulated
        ((0, 114, 178), "deuteranopia", (43.79, 9.49, -44.08)),
    ],
)
def test_the_simulation_is_colorspacious_machado_model(
    rgb: picture_checks.RGB, deficiency: str, expected: picture_checks.Lab
) -> None:
    assert simulated_lab(rgb, deficiency) == pytest.approx(expected, abs=0.015)


def test_red_and_green_of_the_same_lightness_collide_for_deuteranopes() -> None:
    closest = closest_colours_for_colour_blind([(30, 100, 200), (214, 40, 57), (30, 150, 70)])
    assert closest.distance < MIN_CVD_DISTANCE
    assert {closest.first, closest.second} == {(214, 40, 57), (30, 150, 70)}
    assert closest.deficiency == "deuteranopia"
    # ...though anybody else tells them apart easily
    assert ciede2000(picture_checks.lab((214, 40, 57)), picture_checks.lab((30, 150, 70))) > 50


def test_blue_and_purple_collide_for_protanopes() -> None:
    closest = closest_colours_for_colour_blind([(30, 100, 200), (140, 70, 170)])
    assert closest.distance < MIN_CVD_DISTANCE
    assert closest.deficiency == "protanopia"


def test_the_okabe_ito_palette_made_for_colour_blind_readers_passes() -> None:
    closest = closest_colours_for_colour_blind(OKABE_ITO)
    assert closest.distance >= MIN_CVD_DISTANCE
    assert closest.distance == pytest.approx(11.6, abs=0.05)
    assert {closest.first, closest.second} == {(230, 159, 0), (240, 228, 66)}  # orange and yellow


def test_a_palette_needs_two_colours() -> None:
    with pytest.raises(AssertionError):
        closest_colours_for_colour_blind([(0, 0, 0)])
