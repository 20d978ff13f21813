"""The pictures' font keeps rendered text: the pixels must be exactly those of Pillow's own font."""

from __future__ import annotations

import hashlib

from PIL import Image, ImageDraw, ImageFont

from bot.render.kit import fonts


def _drawn(font: fonts.FontType, repeat: int) -> str:
    image = Image.new("RGB", (400, 200), (250, 240, 220))
    draw = ImageDraw.Draw(image)
    for _ in range(repeat):  # the second round is served from the kept bitmaps
        for i, (text, anchor, x) in enumerate(
            [
                ("Tile 12", None, 10.0),
                ("Tile 12", None, 10.5),
                ("3", "mm", 200.37),
                ("Nord-Est", "ra", 390.0),
                ("Tile 12", "mm", 120.25),
            ]
        ):
            draw.text((x, 20 + 30 * i + 0.5 * i), text, fill=(20 + 40 * i, 30, 90), font=font, anchor=anchor)
    return hashlib.sha256(image.tobytes()).hexdigest()


def test_kept_text_draws_the_same_pixels_as_pillows_font() -> None:
    kept = fonts.font(17)
    assert isinstance(kept, fonts.KeptMasksFont)
    plain = ImageFont.load_default(size=17)
    assert _drawn(kept, 2) == _drawn(plain, 2)


def test_a_repeated_text_is_rendered_once_and_the_kept_bitmaps_are_bounded() -> None:
    kept = fonts.font(23)
    assert isinstance(kept, fonts.KeptMasksFont)
    first = kept.getmask2("Seat 1", "L", start=(0.25, 0.0))
    assert kept.getmask2("Seat 1", "L", start=(0.25, 0.0)) is first
    assert kept.getmask2("Seat 1", "L", start=(0.5, 0.0)) is not first  # another sub-pixel start
    for n in range(fonts.KEPT_MASKS + 10):
        kept.getmask2(str(n), "L")
    assert len(kept._masks) == fonts.KEPT_MASKS


def _catalog_letters() -> set[str]:
    from babel.messages.pofile import read_po

    from bot.texts.i18n import po_path

    letters: set[str] = set()
    for lang in ("it", "fr"):
        with po_path(lang).open("rb") as handle:
            for message in read_po(handle):
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                letters.update(c for s in strings for c in s if c.isprintable() and not c.isspace())
    return letters


def test_the_latin_font_has_every_letter_of_the_catalogs_where_pillows_font_has_none() -> None:
    """Pillow's own font (Aileron) draws accented letters as empty boxes; the vendored DejaVu subset draws
    every letter the Italian and French catalogs use (a missing glyph draws what an unknown one does)."""
    latin, default = fonts.latin_font(20), ImageFont.load_default(size=20)

    def missing(font: fonts.FontType, letter: str) -> bool:
        return bytes(font.getmask(letter)) == bytes(font.getmask("\ue000"))  # a private-use character: no glyph

    letters = _catalog_letters()
    assert {"é", "à", "œ", "è"} <= letters
    assert not [c for c in sorted(letters) if missing(latin, c)]
    assert missing(default, "é") and missing(default, "œ")


def test_a_repeated_width_is_measured_once_and_is_pillows_own() -> None:
    from unittest import mock

    kept = fonts.latin_font(19, bold=True)
    assert isinstance(kept, fonts.KeptMasksFont)
    plain = ImageFont.truetype(fonts.resources.files(fonts.__package__).joinpath(fonts.LATIN_FONT_FILES[True]), 19)
    texts = ["Nord-Est", "Ada", "Bartholomew", "12", "Città", "Nord-Est"]
    assert [kept.getlength(t) for t in texts] == [plain.getlength(t) for t in texts]
    assert kept.getlength("Ada", "L") == plain.getlength("Ada", "L")
    assert kept.getlength("Ada", "L", None, ["-kern"]) == plain.getlength("Ada", "L", None, ["-kern"])
    expected = plain.getlength("Bartholomew")
    with mock.patch.object(ImageFont.FreeTypeFont, "getlength", side_effect=AssertionError("measured again")):
        assert kept.getlength("Bartholomew") == expected


def test_no_game_draws_words_in_pillows_own_font() -> None:
    """Every game's pictures write names and words in the Latin font (DejaVu): Pillow's own has no "é", so
    Eight-Minute Empire's map drew "Chloé" as "Chlo" and a box, and its French key's "armées" likewise."""
    import ast
    from pathlib import Path

    render = Path(fonts.__file__).resolve().parents[1]
    using = []
    for path in sorted(render.glob("*/*.py")):
        if path.parent.name == "kit":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "bot.render.kit.fonts":
                using += [f"{path.parent.name}/{path.name}" for alias in node.names if alias.name == "font"]
    assert using == []


def test_the_eight_minute_empire_map_writes_accented_names() -> None:
    from bot.render.eight_minute_empire import picture

    face = picture.latin_font(14)
    for letter in "éœà":
        assert bytes(face.getmask(letter)) != bytes(face.getmask("\ue000")), letter
