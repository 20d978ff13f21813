"""The Eight-Minute Empire: Legends map as a PNG, drawn with Pillow from the public view only.

Regions are circles labelled as in the selects ("A1"), grouped on island shapes (continents) on the
sea of each board; land links are solid, water links dotted. Each region shows armies (squares) and
cities (discs) per player colour with counts, its token, a ring in the controlling player's colour,
and the starting region a gold ring. Sized for Discord's preview (960 px wide).

`RENDERER` also writes the embeds: the card row with costs and each player's coins, cards, abilities
and elixirs (public), plus the seat's own bid and figures in its DM.
"""

from __future__ import annotations

import json
import math
import threading
from collections import OrderedDict
from collections.abc import Sequence
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from bot import i18n
from bot.i18n import N_, NN_, NP_
from bot.render.fonts import FontType, font
from bot.render.generic import EMBED_DESCRIPTION_LIMIT, GuidePage, Renderer, TableContext, clip
from bot.render.palette import encode_png, fixed_palette
from games.core import Choice, Prompt
from games.eight_minute_empire.cards import CITY, DESTROY, MOVE, PLACE, Card, all_cards

WIDTH = 960
MARGIN = 16
LEGEND_H = 74
SEA = (120, 170, 210)
BOARD_SEA = (140, 188, 224)
BOARD_EDGE = (96, 140, 182)
LAND = (226, 214, 168)
LAND_EDGE = (150, 130, 84)
LAND_LINK = (120, 92, 52)
WATER_LINK = (250, 250, 255)
INK = (30, 30, 36)
GOLD = (236, 178, 20)
REGION_FILL = (248, 244, 230)
PLAYER_COLOURS = [(214, 40, 57), (30, 100, 200), (30, 150, 70), (140, 70, 170)]
NEUTRAL = (110, 110, 110)
CONTINENT_INK = (30, 50, 80)
CITADEL = (90, 60, 30)
TOKEN_FILL = (255, 240, 150)
LEGEND = (245, 242, 232)
WHITE = (255, 255, 255)
TOKEN_SHORT = {
    "Magic Spring": "MS",
    "Cottage": "Co",
    "Hidden Treasure": "HT",
    "Magic Book": "MB",
    "Stable": "St",
    "Citadel": "Ci",
}


def _text_colour(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    return INK if sum(rgb) > 450 else WHITE


def _tint(rgb: tuple[int, int, int], amount: float) -> tuple[int, int, int]:
    r, g, b = rgb
    return (int(r + (255 - r) * amount), int(g + (255 - g) * amount), int(b + (255 - b) * amount))


def _dotted(
    draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], gap: float, radius: float
) -> None:
    length = math.dist(a, b)
    steps = max(1, int(length // gap))
    for i in range(steps + 1):
        t = i / steps
        x, y = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=WATER_LINK)


# What the map shows of a view (the legend included). A picture is drawn from these keys alone, so two
# views with the same map part have the same picture: between most decisions that do not move a piece
# (a card taken, a bid, an army picked up) it is the picture drawn last time, found among the recent ones.
MAP_KEYS = ("players", "game_no", "games", "deck", "start", "citadel_token", "boards", "regions", "links", "continents")


def map_part(view: dict[str, Any]) -> dict[str, Any]:
    return {key: view[key] for key in MAP_KEYS if key in view}


def render_map(view: dict[str, Any], names: Sequence[str] = ()) -> bytes:
    """The map of a public view as PNG bytes, the players named by `names` (seat -> display name)."""
    return encode(render_image(map_part(view), names))


@cache
def _palette() -> Image.Image:
    tints = [_tint(c, 0.78) for c in PLAYER_COLOURS] + [_tint(NEUTRAL, 0.75)]
    named = [
        SEA,
        BOARD_SEA,
        BOARD_EDGE,
        LAND,
        LAND_EDGE,
        LAND_LINK,
        WATER_LINK,
        INK,
        GOLD,
        REGION_FILL,
        NEUTRAL,
        CONTINENT_INK,
        CITADEL,
        TOKEN_FILL,
        LEGEND,
        WHITE,
        *PLAYER_COLOURS,
        *tints,
    ]
    on = [
        (INK, REGION_FILL),
        *((INK, t) for t in tints),
        (BOARD_EDGE, BOARD_SEA),
        (CONTINENT_INK, BOARD_SEA),
        (INK, LEGEND),
        (INK, TOKEN_FILL),
        (WHITE, CITADEL),
        *((WHITE, c) for c in PLAYER_COLOURS),
        (INK, GOLD),
        (LAND_LINK, LAND),
        (WATER_LINK, BOARD_SEA),
        (INK, NEUTRAL),
    ]
    return fixed_palette(named, on)


def encode(image: Image.Image) -> bytes:
    """The map as a palette PNG (see `bot.render.palette`: ~7 ms instead of 38 for an RGB PNG)."""
    return encode_png(image, _palette())


class Geometry:
    """Where things go: board unit in pixels, picture height, region radius and centres."""

    def __init__(self, view: dict[str, Any]) -> None:
        boards = view["boards"]
        cols = max(b["x"] for b in boards) + 1
        rows = max(b["y"] for b in boards) + 1
        self.unit = (WIDTH - 2 * MARGIN) / cols
        # a row of three boards has smaller boards: its regions get a larger share to stay readable,
        # and room above for the names of the islands along the top edge
        self.radius = self.unit * (0.085 if cols <= 2 else 0.1)
        self.top = MARGIN if cols <= 2 else MARGIN + 22
        self.height = int(self.top + MARGIN + rows * self.unit + LEGEND_H)
        self.centre = {r["id"]: self.at(r["x"], r["y"]) for r in view["regions"]}

    def at(self, x: float, y: float) -> tuple[float, float]:
        return (MARGIN + x * self.unit, self.top + y * self.unit)


KEPT_BACKGROUNDS = 4  # ~3 MB each (RGB); the game has one map per board layout (two today)
_backgrounds: OrderedDict[str, Image.Image] = OrderedDict()
_backgrounds_lock = threading.Lock()


def _background(view: dict[str, Any], geometry: Geometry) -> Image.Image:
    """A new image holding the sea, boards, islands, links and island names. They are the same in
    every view of a map, so they are drawn once per map and copied (a copy costs a tenth of drawing)."""
    key = json.dumps(
        [view["boards"], [(r["id"], r["x"], r["y"]) for r in view["regions"]], view["links"], view["continents"]],
        sort_keys=True,
    )
    with _backgrounds_lock:
        found = _backgrounds.get(key)
        if found is not None:
            _backgrounds.move_to_end(key)
            return found.copy()
    drawn = _draw_background(view, geometry)
    with _backgrounds_lock:
        _backgrounds[key] = drawn
        while len(_backgrounds) > KEPT_BACKGROUNDS:
            _backgrounds.popitem(last=False)
    return drawn.copy()


def _draw_background(view: dict[str, Any], geometry: Geometry) -> Image.Image:
    boards = view["boards"]
    unit, height, radius, at = geometry.unit, geometry.height, geometry.radius, geometry.at
    image = Image.new("RGB", (WIDTH, height), SEA)
    draw = ImageDraw.Draw(image)

    for b in boards:
        x0, y0 = at(b["x"], b["y"])
        draw.rectangle((x0 + 3, y0 + 3, x0 + unit - 3, y0 + unit - 3), fill=BOARD_SEA, outline=BOARD_EDGE, width=2)
        draw.text((x0 + 10, y0 + 6), b["letter"], font=font(int(unit * 0.07)), fill=BOARD_EDGE)

    centre = geometry.centre
    land_links = [(link["a"], link["b"]) for link in view["links"] if not link["water"]]

    # islands: a blob made of fat circles and fat land links, outlined by drawing it twice
    blob = radius * 1.45
    for fill, grow in ((LAND_EDGE, 3), (LAND, 0)):
        for a, b in land_links:
            draw.line((centre[a], centre[b]), fill=fill, width=int(2 * (blob + grow)))
        for rid in centre:
            x, y = centre[rid]
            draw.ellipse((x - blob - grow, y - blob - grow, x + blob + grow, y + blob + grow), fill=fill)
    for link in view["links"]:
        a, b = centre[link["a"]], centre[link["b"]]
        if link["water"]:
            _dotted(draw, a, b, gap=radius * 0.35, radius=max(2.0, radius * 0.07))
        else:
            draw.line((a, b), fill=LAND_LINK, width=max(3, int(radius * 0.12)))

    for continent in view["continents"]:
        xs = [centre[r][0] for r in continent["regions"]]
        ys = [centre[r][1] for r in continent["regions"]]
        name_y = min(ys) - blob - 2
        draw.text(
            (sum(xs) / len(xs), name_y),
            continent["name"],
            font=font(int(unit * 0.036) + 4),
            fill=CONTINENT_INK,
            anchor="md",
            stroke_width=3,
            stroke_fill=BOARD_SEA,
        )
    return image


def render_image(view: dict[str, Any], names: Sequence[str] = ()) -> Image.Image:
    geometry = Geometry(view)
    radius, centre = geometry.radius, geometry.centre
    image = _background(view, geometry)
    draw = ImageDraw.Draw(image)
    regions = {r["id"]: r for r in view["regions"]}

    players = view["players"]
    label_font = font(int(radius * 0.62))
    count_font = font(int(radius * 0.42))
    for rid, r in regions.items():
        x, y = centre[rid]
        control = r["control"]
        if control is None:
            ring, fill = INK, REGION_FILL
        elif control == "neutral":
            ring, fill = NEUTRAL, _tint(NEUTRAL, 0.75)
        else:
            ring, fill = PLAYER_COLOURS[control], _tint(PLAYER_COLOURS[control], 0.78)
        if r["start"]:
            g = radius + 7
            draw.ellipse((x - g, y - g, x + g, y + g), outline=GOLD, width=6)
        draw.ellipse(
            (x - radius, y - radius, x + radius, y + radius),
            fill=fill,
            outline=ring,
            width=4 if control is not None else 2,
        )
        draw.text((x, y - radius * 0.42), rid, font=label_font, fill=INK, anchor="mm")
        _pieces(draw, r, players, x, y, radius, count_font)
        token = r["token"]
        if token:
            _token(
                draw,
                TOKEN_SHORT.get(token, token[:2]),
                token == view.get("citadel_token", "Citadel"),
                x + radius * 0.85,
                y - radius * 0.85,
                radius * 0.38,
                count_font,
            )

    _legend(draw, view, geometry.height, names)
    return image


def _pieces(
    draw: ImageDraw.ImageDraw,
    region: dict[str, Any],
    players: int,
    x: float,
    y: float,
    radius: float,
    count_font: FontType,
) -> None:
    """Armies as squares, cities as discs, each with its count, in rows under the label."""
    size = radius * 0.5
    armies = [(PLAYER_COLOURS[s], n) for s, n in enumerate(region["armies"]) if n]
    if region["neutral"]:
        armies.append((NEUTRAL, region["neutral"]))
    cities = [(PLAYER_COLOURS[s], n) for s, n in enumerate(region["cities"]) if n]
    rows = [(armies, False), (cities, True)]
    top = y + radius * 0.02
    for pieces, round_piece in rows:
        if not pieces:
            continue
        gap = size * 0.15
        total = len(pieces) * size + (len(pieces) - 1) * gap
        left = x - total / 2
        for colour, n in pieces:
            box = (left, top, left + size, top + size)
            if round_piece:
                draw.ellipse(box, fill=colour, outline=INK, width=1)
            else:
                draw.rectangle(box, fill=colour, outline=INK, width=1)
            draw.text(
                (left + size / 2, top + size / 2), str(n), font=count_font, fill=_text_colour(colour), anchor="mm"
            )
            left += size + gap
        top += size + gap


def _token(
    draw: ImageDraw.ImageDraw, text: str, citadel: bool, x: float, y: float, r: float, count_font: FontType
) -> None:
    if citadel:
        draw.regular_polygon((x, y, r * 1.15), 4, rotation=45, fill=CITADEL, outline=INK)
        draw.text((x, y), text, font=count_font, fill=WHITE, anchor="mm")
    else:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=TOKEN_FILL, outline=INK, width=1)
        draw.text((x, y), text, font=count_font, fill=INK, anchor="mm")


def _player_name(seat: int, names: Sequence[str]) -> str:
    return names[seat] if seat < len(names) else i18n.pt(N_("Player {number}"), number=seat + 1)


def _legend(draw: ImageDraw.ImageDraw, view: dict[str, Any], height: int, names: Sequence[str]) -> None:
    top = height - LEGEND_H + 6
    draw.rectangle((0, top - 6, WIDTH, height), fill=LEGEND)
    f = font(17)
    x = MARGIN
    entries = [(_player_name(s, names), PLAYER_COLOURS[s]) for s in range(view["players"])]
    if view["players"] == 2:
        entries.append((i18n.pt(N_("Neutral")), NEUTRAL))
    for name, colour in entries:
        draw.rectangle((x, top + 4, x + 18, top + 22), fill=colour, outline=INK)
        draw.text((x + 24, top + 13), name, font=f, fill=INK, anchor="lm")
        x += 24 + int(draw.textlength(name, font=f)) + 18
    key = i18n.pt(N_("square = armies   disc = cities   gold ring = start   ring = control   dots = water"))
    draw.text((x + 6, top + 13), key, font=font(15), fill=INK, anchor="lm")
    tokens = i18n.pt(N_("MS Magic Spring · Co Cottage · HT Hidden Treasure · MB Magic Book · St Stable · Ci Citadel"))
    water = i18n.pt(
        N_("Game {game}/{games} · deck {deck} · start {start}"),
        game=view["game_no"],
        games=view["games"],
        deck=view["deck"],
        start=view["start"],
    )
    draw.text((MARGIN, top + 40), water + "   " + tokens, font=font(15), fill=INK, anchor="lm")


# --- game terms from the engine's data, in the reader's language ----------------------------------
# Built from structured data (card records, action parts, token names), never from the engine's
# English sentences. Every card of cards.json, every family and every token has its catalog entry
# here (tests/test_i18n_games.py checks none is missing); region and continent names are proper
# names of our own map and stay as they are.
CARD_NAMES = (
    NP_("card", "Ancient Phoenix"),
    NP_("card", "Ancient Sage"),
    NP_("card", "Ancient Tree Spirit"),
    NP_("card", "Ancient Woods"),
    NP_("card", "Cursed Banshee"),
    NP_("card", "Cursed Gargoyles"),
    NP_("card", "Cursed King"),
    NP_("card", "Cursed Mausoleum"),
    NP_("card", "Cursed Tower"),
    NP_("card", "Dire Dragon"),
    NP_("card", "Dire Eye"),
    NP_("card", "Dire Giant"),
    NP_("card", "Dire Goblin"),
    NP_("card", "Dire Ogre"),
    NP_("card", "Forest Elf"),
    NP_("card", "Forest Gnome"),
    NP_("card", "Forest Pixie"),
    NP_("card", "Forest Tree Town"),
    NP_("card", "Graveyard"),
    NP_("card", "Lake"),
    NP_("card", "Night Hydra"),
    NP_("card", "Night Village"),
    NP_("card", "Night Wizard"),
    NP_("card", "Noble Hills"),
    NP_("card", "Noble Knight"),
    NP_("card", "Noble Unicorn"),
    NP_("card", "Stronghold"),
    NP_("card", "Arcane Manticore"),
    NP_("card", "Arcane Sphinx"),
    NP_("card", "Arcane Temple"),
    NP_("card", "Mountain Dwarf"),
    NP_("card", "Mountain Treasury"),
    NP_("card", "Castle"),
    NP_("card", "Castle 2"),
)
FAMILIES = (
    NP_("family", "Ancient"),
    NP_("family", "Arcane"),
    NP_("family", "Castle"),
    NP_("family", "Cursed"),
    NP_("family", "Dire"),
    NP_("family", "Forest"),
    NP_("family", "Mountain"),
    NP_("family", "Night"),
    NP_("family", "Noble"),
)
TOKENS = (
    NP_("token", "Magic Spring"),
    NP_("token", "Cottage"),
    NP_("token", "Hidden Treasure"),
    NP_("token", "Magic Book"),
    NP_("token", "Stable"),
    NP_("token", "Citadel"),
)
ABILITIES = {
    "move": N_("+1 Move"),
    "army": N_("+1 Army"),
    "flying": N_("Flying"),
    "immune": N_("Immune to attack"),
    "elixir": N_("{n} Elixir"),
    "coins": N_("Gain {n} coins"),
    "vp_family": N_("+1 VP per {family} card"),
    "vp_flying": N_("+1 VP per Flying card"),
    "vp_set": N_("{n} VP for all {family} cards"),
    "vp_coins": N_("+1 VP per {n} coins"),
}
PLURAL_PARTS = {
    PLACE: NN_("Place {count} army", "Place {count} armies"),
    DESTROY: NN_("Destroy {count} army", "Destroy {count} armies"),
}
PARTS = {MOVE: N_("Move {n}"), CITY: N_("Build a city")}
JOINS = {"or": N_("{first} OR {second}"), "and": N_("{first} AND {second}")}


def card_name(lang: str, name: str) -> str:
    return i18n.tp(lang, "card", name)


def family_name(lang: str, family: str | None) -> str:
    return i18n.tp(lang, "family", family) if family else ""


def token_name(lang: str, token: str) -> str:
    return i18n.tp(lang, "token", token)


def ability_text(lang: str, ability: dict[str, Any]) -> str:
    """One ability ({"kind", "family", "n"} as in the view's cards) in `lang`."""
    kind = str(ability["kind"])
    message = ABILITIES.get(kind)
    if message is None:
        return kind
    return i18n.t(
        lang, message, n=i18n.number(lang, int(ability.get("n") or 1)), family=family_name(lang, ability.get("family"))
    )


def abilities_text(lang: str, abilities: list[dict[str, Any]]) -> str:
    return "; ".join(ability_text(lang, a) for a in abilities)


def part_text(lang: str, kind: str, n: int) -> str:
    """One action part ("place", 3) in `lang`: "Place 3 armies"."""
    if kind in PLURAL_PARTS:
        return i18n.tn(lang, PLURAL_PARTS[kind], n)
    return i18n.t(lang, PARTS[kind], n=i18n.number(lang, n)) if kind in PARTS else kind


def action_text(lang: str, join: str, parts: list[tuple[str, int]] | list[list[Any]]) -> str:
    """A card's action (its parts joined by OR / AND, as printed) in `lang`."""
    words = [part_text(lang, str(k), int(n)) for k, n in parts]
    message = JOINS["or" if join == "or" else "and"]
    text = words[0] if words else ""
    for word in words[1:]:
        text = i18n.t(lang, message, first=text, second=word)
    return text


@cache
def _cards_by_name() -> dict[str, Card]:
    return {card.name: card for card in all_cards()}


def card_abilities(lang: str, name: str) -> str:
    """The abilities of the card called `name` (a name of the card list, as views and events give it)."""
    return "; ".join(
        ability_text(lang, {"kind": k, "family": f, "n": n}) for k, f, n in _cards_by_name()[name].abilities
    )


# --- the embeds (public table and a seat's DM) -------------------------------------------------------
SEAT_MARKS = ("🟥", "🟦", "🟩", "🟪")  # the same colours as on the map
# What the seat to play is doing, whole phrases per action (never a verb spliced into a sentence).
DOING = {
    "place": NN_(
        "{who} took **{card}**: placing armies ({count} left)", "{who} took **{card}**: placing armies ({count} left)"
    ),
    "move": NN_(
        "{who} took **{card}**: moving ({count} move left)", "{who} took **{card}**: moving ({count} moves left)"
    ),
    "destroy": NN_(
        "{who} took **{card}**: destroying ({count} army left)",
        "{who} took **{card}**: destroying ({count} armies left)",
    ),
}
PROMPTS = {
    "card": N_("Take which card?"),
    "city": N_("Build a city: where?"),
    "destroy_region": N_("Destroy an army: in which region?"),
    "destroy": N_("Destroy whose army, where?"),
    "branch": N_("{card}: which action?"),
    "move_to": N_("Move the army from {origin} to?"),
}
COUNTED_PROMPTS = {  # prompt kind -> (forms, the info key holding the count)
    "place": (NN_("Place an army ({count} left): where?", "Place an army ({count} left): where?"), "left"),
    "move_from": (
        NN_("Move an army ({count} move left): from where?", "Move an army ({count} moves left): from where?"),
        "left",
    ),
    "neutral": (
        NN_("Place a neutral army ({count} left): which region?", "Place a neutral army ({count} left): which region?"),
        "neutral_left",
    ),
    "bid": (
        NN_(
            "Your secret bid for first player (you have {count} coin)?",
            "Your secret bid for first player (you have {count} coins)?",
        ),
        "coins",
    ),
}
ENDING_CHOICES = {  # (choice data's "what", prompt kind) -> its label
    ("done", "place"): N_("Done placing"),
    ("done", "move_from"): N_("Done moving"),
    ("skip", "branch"): N_("Skip the action"),
    ("skip", "city"): N_("Skip the city"),
    ("skip", "destroy_region"): N_("Skip destroying"),
    ("skip", "destroy"): N_("Skip destroying"),
    ("back", "move_to"): N_("Pick another army"),
}
MOVE_CHOICES = {
    "land": NN_("{region} {continent} (land, {count} move)", "{region} {continent} (land, {count} moves)"),
    "water": NN_("{region} {continent} (sea, {count} move)", "{region} {continent} (sea, {count} moves)"),
}


def _who(seat: int | None, ctx: TableContext) -> str:
    """A player by colour mark and display name (the neutral armies of a 2-player game: None)."""
    if seat is None:
        return ctx.t(N_("the neutral armies"))
    name = ctx.names[seat] if seat < len(ctx.names) else ctx.t(N_("Player {number}"), number=seat + 1)
    return f"{SEAT_MARKS[seat]} {name}"


def _figures(ctx: TableContext, seat: dict[str, Any], vp: int) -> str:
    """A player's figures, each its own phrase (plural forms per count), joined by dots."""
    return " · ".join(
        [
            ctx.tn(NN_("{count} coin", "{count} coins"), seat["coins"]),
            ctx.tn(NN_("{count} card", "{count} cards"), len(seat["cards"])),
            ctx.tn(NN_("{count} elixir", "{count} elixirs"), seat["elixirs"]),
            ctx.tn(NN_("{count} army in supply", "{count} armies in supply"), seat["armies_supply"]),
            ctx.tn(NN_("{count} city in supply", "{count} cities in supply"), seat["cities_supply"]),
            ctx.tn(NN_("{count} VP on the board now", "{count} VP on the board now"), vp),
        ]
    )


def _parts(ctx: TableContext, parts: list[list[Any]], joiner: str) -> str:
    return joiner.join(part_text(ctx.lang, str(kind), int(n)) for kind, n in parts)


def _step_line(view: dict[str, Any], ctx: TableContext) -> str:
    """What the seat to play is doing with the card it took, and what comes after."""
    step, who = view["step"], _who(view["seat"], ctx)
    card = card_name(ctx.lang, step["card"])
    if step["branch"]:
        line = ctx.t(
            N_("{who} took **{card}**: choosing {options}"),
            who=who,
            card=card,
            options=_parts(ctx, step["branch"], " / "),
        )
    elif step["kind"] == "city":
        line = ctx.t(N_("{who} took **{card}**: building a city"), who=who, card=card)
    elif step["kind"] in DOING:
        line = ctx.tn(DOING[step["kind"]], step["left"], who=who, card=card)
    else:
        line = ctx.t(N_("{who} took **{card}**"), who=who, card=card)
    if step["next"]:
        line += " " + ctx.t(N_("Then: {actions}."), actions=_parts(ctx, step["next"], ", "))
    return line


def public_text(view: dict[str, Any], ctx: TableContext) -> str:
    """Card row with costs, then each player's coins, cards, abilities and elixirs, then the phase."""
    lines = [
        ctx.t(
            N_("**Game {game}/{games}** · start **{start}** · deck {deck} · {target} cards each ends the game"),
            game=view["game_no"],
            games=view["games"],
            start=view["start"],
            deck=view["deck"],
            target=view["target_cards"],
        )
    ]
    phase = view["phase"]
    if phase == "neutral":
        lines.append(
            ctx.tn(
                NN_(
                    "Placing neutral armies: {count} left, {who} places.",
                    "Placing neutral armies: {count} left, {who} places.",
                ),
                view["neutral_left"],
                who=_who(view["seat"], ctx),
            )
        )
    elif phase == "bid":
        done = [_who(s["seat"], ctx) for s in view["seats"] if s["bid_in"]]
        lines.append(
            ctx.t(
                N_("Secret bid for first player. Bids in: {names}"),
                names=ctx.listing(done) if done else ctx.t(N_("none yet")),
            )
        )
    elif view["bids"] is not None and view["first"] is not None:
        bids = ", ".join(f"{_who(s, ctx)} {b}" for s, b in enumerate(view["bids"]))
        lines.append(ctx.t(N_("Bids: {bids}; {who} went first."), bids=bids, who=_who(view["first"], ctx)))
    lines.append("\n" + ctx.t(N_("**Card row** (cost · card · ability · action)")))
    for card in view["row"]:
        if card is not None:
            lines.append(
                f"`{card['cost']}` **{card_name(ctx.lang, card['name'])}** · "
                f"{abilities_text(ctx.lang, card['abilities'])} · "
                f"{action_text(ctx.lang, card['join'], card['parts'])}"
            )
    lines.append("\n" + ctx.t(N_("**Players**")))
    for s in view["seats"]:
        line = f"{_who(s['seat'], ctx)}: {_figures(ctx, s, view['scores'][s['seat']])}"
        if s["explore"]:
            tokens = ", ".join(token_name(ctx.lang, x) for x in s["explore"])
            line += " · " + ctx.t(N_("tokens: {tokens}"), tokens=tokens)
        lines.append(line)
        if s["cards"]:
            names = ", ".join(card_name(ctx.lang, c) for c in s["cards"])
            abilities = "; ".join(a for a in (card_abilities(ctx.lang, c) for c in s["cards"]) if a)
            lines.append(
                "  " + ctx.t(N_("cards: {cards} · abilities: {abilities}"), cards=names, abilities=abilities or "-")
            )
    if view["step"] is not None and view["seat"] is not None:
        lines.append("\n" + _step_line(view, ctx))
    if view["finished_scores"]:
        games = "; ".join(
            ctx.t(
                N_("game {number}: {scores}"),
                number=i + 1,
                scores=", ".join(f"{_who(s, ctx)} {v}" for s, v in enumerate(scores)),
            )
            for i, scores in enumerate(view["finished_scores"])
        )
        lines.append("\n" + ctx.t(N_("Finished games: {games}"), games=games))
    return "\n".join(lines)


def _coins_line(event: dict[str, Any], ctx: TableContext, who: str) -> str:
    if event["from_token"]:
        forms = NN_(
            "{who} gained {count} coin from the {token} token", "{who} gained {count} coins from the {token} token"
        )
        return ctx.tn(forms, int(event["gain"]), who=who, token=token_name(ctx.lang, event["source"]))
    forms = NN_("{who} gained {count} coin from {card}", "{who} gained {count} coins from {card}")
    return ctx.tn(forms, int(event["gain"]), who=who, card=card_name(ctx.lang, event["source"]))


def event_text(event: dict[str, Any], ctx: TableContext) -> str:
    """One public event as a sentence in the reader's language ("" for progress events, private events
    and any event this renderer does not narrate)."""
    kind = event.get("type")
    who = _who(event["seat"], ctx) if isinstance(event.get("seat"), int) else ""
    if "to" in event or kind in ("turn", "bidding"):
        return ""
    t = ctx.t
    texts = {
        "neutral": lambda: t(N_("{who} placed a neutral army in {region}"), who=who, region=event["region"]),
        "bid_in": lambda: t(N_("{who} has bid"), who=who),
        "bids": lambda: t(
            N_("Bids revealed: {bids}; {winner} pays {paid} and goes first (tie settled by a die)")
            if event["tie"] == "die"
            else N_("Bids revealed: {bids}; {winner} pays {paid} and goes first"),
            bids=", ".join(f"{_who(s, ctx)} {b}" for s, b in enumerate(event["bids"])),
            winner=_who(event["winner"], ctx),
            paid=event["paid"],
        ),
        "take": lambda: t(
            N_("{who} took **{card}** for {cost}"), who=who, card=card_name(ctx.lang, event["card"]), cost=event["cost"]
        ),
        "coins": lambda: _coins_line(event, ctx, who),
        "branch": lambda: t(
            N_("{who} chose: {action}"), who=who, action=part_text(ctx.lang, event["kind"], int(event["amount"]))
        ),
        "skip": lambda: t(N_("{who} skipped the action"), who=who),
        "place": lambda: t(N_("{who} placed an army in {region}"), who=who, region=event["region"]),
        "move": lambda: t(
            N_("{who} moved an army {origin} → {dest}"), who=who, origin=event["origin"], dest=event["dest"]
        ),
        "city": lambda: t(N_("{who} built a city in {region}"), who=who, region=event["region"]),
        "explore": lambda: t(
            N_("{who} gained the {token} token in {region}"),
            who=who,
            token=token_name(ctx.lang, event["token"]),
            region=event["region"],
        ),
        "destroy": lambda: (
            t(N_("{who} destroyed a neutral army in {region}"), who=who, region=event["region"])
            if event["victim"] is None
            else t(
                N_("{who} destroyed an army of {victim} in {region}"),
                who=who,
                victim=_who(event["victim"], ctx),
                region=event["region"],
            )
        ),
        "game_end": lambda: t(
            N_("Game {game} over: {scores}"),
            game=event["game"],
            scores=", ".join(f"{_who(s, ctx)} {v}" for s, v in enumerate(event["scores"])),
        ),
        "new_game": lambda: t(
            N_("Game {game} begins; the start region is {start}"), game=event["game"], start=event["start"]
        ),
    }
    make = texts.get(str(kind))
    return make() if make else ""


def choice_text(prompt: Prompt, choice: Choice, ctx: TableContext) -> str:
    """A choice in the reader's language, from its data (games/eight_minute_empire/shapes.py) and the
    prompt's kind. Region and island names are proper names of our map and stay as they are."""
    data = choice.data
    what = data["what"]
    if what in ("done", "skip", "back"):
        return ctx.t(ENDING_CHOICES[(what, prompt.kind)])
    if what == "card":
        return ctx.t(
            N_("{card} ({cost}c): {action}"),
            card=card_name(ctx.lang, data["card"]),
            cost=data["cost"],
            action=action_text(ctx.lang, data["join"], list(data["parts"])),
        )
    if what == "bid":
        return ctx.t(N_("Bid {amount}"), amount=data["amount"])
    if what == "action":
        return part_text(ctx.lang, data["action"], int(data["amount"]))
    if what == "army":
        if data["owner"] is None:
            return ctx.t(N_("a neutral army in {region}"), region=data["region"])
        return ctx.t(N_("an army of {name} in {region}"), name=_who(data["owner"], ctx), region=data["region"])
    if what == "move":
        return ctx.tn(MOVE_CHOICES[data["way"]], int(data["cost"]), region=data["region"], continent=data["continent"])
    if "armies" in data:
        forms = NN_("{region} {continent} · {count} of yours", "{region} {continent} · {count} of yours")
        return ctx.tn(forms, int(data["armies"]), region=data["region"], continent=data["continent"])
    return ctx.t(N_("{region} {continent}"), region=data["region"], continent=data["continent"])


class EightMinuteEmpireRenderer(Renderer):
    """Texts from the views, the prompts' kinds and info, the choices' data and the events (never the
    engine's English labels or texts), and the map picture."""

    key = "eight-minute-empire"
    progress_events = Renderer.progress_events | {"turn", "bidding"}

    def __init__(self) -> None:
        super().__init__(image=render_map)

    def describe_public(self, view: dict[str, Any], ctx: TableContext) -> str:
        return clip(public_text(view, ctx), EMBED_DESCRIPTION_LIMIT)

    def describe_private(self, view: dict[str, Any], ctx: TableContext, seat: int) -> str:
        mine = ""
        if view.get("my_bid") is not None and view["bids"] is None:
            mine = ctx.t(N_("Your secret bid: **{bid}**"), bid=view["my_bid"]) + "\n"
        me = view["seats"][seat]
        mine += ctx.tn(
            NN_("You are {who}, with {count} coin.", "You are {who}, with {count} coins."),
            me["coins"],
            who=_who(seat, ctx),
        )
        mine += " " + ctx.tn(
            NN_("Crossing the sea costs you {count} move.", "Crossing the sea costs you {count} moves."),
            me["water_cost"],
        )
        return clip(mine + "\n" + public_text(view, ctx), EMBED_DESCRIPTION_LIMIT)

    def prompt_text(self, prompt: Prompt, ctx: TableContext) -> str:
        info = prompt.info
        counted = COUNTED_PROMPTS.get(prompt.kind)
        if counted is not None:
            forms, key = counted
            return ctx.tn(forms, int(info[key]))
        message = PROMPTS.get(prompt.kind)
        if message is None:
            return prompt.kind
        card = info.get("card")
        return ctx.t(message, card=card_name(ctx.lang, card) if card else "", origin=info.get("from", ""))

    def choice_label(self, prompt: Prompt, choice: Choice, ctx: TableContext) -> str:
        return choice_text(prompt, choice, ctx)

    def event_line(self, event: dict[str, Any], ctx: TableContext) -> str:
        return event_text(event, ctx)

    def draw(self, view: dict[str, Any], names: tuple[str, ...]) -> bytes | None:
        return render_map(view, names)

    def image(self, view: dict[str, Any], lang: str = i18n.DEFAULT, names: Sequence[str] = ()) -> bytes | None:
        """The map, kept among the recent pictures by what it shows (`map_part`), not by the whole view."""
        return super().image(map_part(view), lang, names)

    def seat_image(
        self, view: dict[str, Any], prompt: Prompt | None, lang: str = i18n.DEFAULT, names: Sequence[str] = ()
    ) -> bytes | None:
        """The map while the seat decides (its selects name the regions drawn on it). The map shows
        nothing private (`map_part` leaves a seat's own keys out): the same picture as the table's,
        drawn once for both."""
        return self.image(view, lang, names) if self.seat_pictured(prompt) else None


RENDERER = EightMinuteEmpireRenderer()


# --- the game's guide (`/game rules`) and what its variants do, in the catalogs ----------------
RENDERER.guide = (
    GuidePage(
        N_("Overview"),
        N_(
            "Build an empire on a map of regions and continents. On your turn take one card from the row "
            "of six, pay its cost in coins (0, 1, 1, 2, 2 and 3 from left to right) and carry out its action "
            "at once. The game ends when everybody owns a set number of cards: 13 with 2 players, 10 with 3, "
            "8 with 4."
        ),
    ),
    GuidePage(
        N_("Setup and bidding"),
        N_(
            "Everybody starts with 4 armies on the starting region and 14 coins (2 players), 11 (3) or 9 (4). "
            "With 2 players, ten neutral armies are placed first, one at a time. Then everybody secretly bids "
            "coins to play first; only the winner pays."
        ),
    ),
    GuidePage(
        N_("Actions"),
        N_(
            "Place armies: on the starting region or where you have a city.\n"
            "Move armies: each move takes one army to a neighbouring region; crossing water costs 3 moves "
            "(less with Flying).\n"
            "Build a city: where you have an army.\n"
            "Destroy an army: another player's army in a region where you have one.\n"
            '"Or": choose one action; "and": both, in order. You may always skip the action.'
        ),
    ),
    GuidePage(
        N_("Abilities and scoring"),
        N_(
            "A card's ability lasts all game: +1 Move, +1 Army, Flying, Elixir, Gain Coins and victory point "
            "bonuses.\n"
            "Scoring: 1 VP per region you control (most armies; cities count as armies), 1 VP per continent "
            "you control (most regions), the VP of your abilities, and 2 VP for the most elixirs (1 each when "
            "tied). Ties: most coins, then most armies, then most controlled regions."
        ),
    ),
)
RENDERER.option_texts = {
    "full_game": N_("play three games and sum the victory points"),
    "explore": N_("six explore tokens: the first city on one gains it"),
    "citadels": N_("three citadel regions worth 1 extra VP to control"),
    "layout": N_("2-3 players: three boards as an L or in a row (4 use 2x2)"),
    "bid_tie": N_("tied bids: a die roll (the rules' alternate tie breaker) or the earliest seat"),
}
# The variants' friendly names in the lobby and the guide (bot.guide), by option name and value.
RENDERER.option_names = {
    "full_game": N_("Full game"),
    "explore": N_("Explore tokens"),
    "citadels": N_("Citadels"),
    "layout": N_("Board layout"),
    "bid_tie": N_("Tied bids"),
}
RENDERER.value_names = {
    "layout": {"L": N_("L shape"), "row": N_("in a row")},
    "bid_tie": {"die": N_("a die roll decides"), "first-seat": N_("the earliest seat wins")},
}
# The result message (bot.endings): the scoring categories of the outcome's breakdown, and the tie-break.
RENDERER.score_categories = {
    "games": N_("Games"),
    "regions": N_("Regions"),
    "continents": N_("Continents"),
    "abilities": N_("Abilities"),
    "elixirs": N_("Elixirs"),
    "magic_book": N_("Magic Book"),
    "citadels": N_("Citadels"),
}
RENDERER.tie_break = N_("the Magic Book wins, then the most coins, the most armies on the board, the most regions")
