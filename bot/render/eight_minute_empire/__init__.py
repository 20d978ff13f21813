"""Eight-Minute Empire: Legends for the bot: the texts of the table and of each seat's messages, and
the map picture (drawn by bot.render.eight_minute_empire.picture).

Everything is phrased from data: the views, the prompts' kind and info, the choices' data and the events
(their shapes: games/eight_minute_empire/shapes.py), through the message catalogs. Players are named by
their display names, with the mark of their colour.

Over 500 lines: the game's catalog entries (its 34 card names, families, tokens, abilities) and its
rules pages are kept here, beside the texts that use them, where `make locales` collects them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from bot.render.eight_minute_empire.picture import DISTINCT_COLOURS, draw_map, encode
from bot.render.kit.generic import EMBED_DESCRIPTION_LIMIT, GuidePage, Renderer, TableContext, clip
from bot.texts import i18n
from bot.texts.i18n import N_, NN_, NP_
from games.core import Choice, Prompt
from games.eight_minute_empire.cards import CITY, DESTROY, MOVE, PLACE, Card, all_cards

__all__ = ["DISTINCT_COLOURS", "RENDERER", "map_part", "render_map", "seat_part"]

# What the map shows of a view. A picture is drawn from these keys alone, so two views with the same map
# part have the same picture: between most decisions that do not move a piece (a card taken, a bid, an
# army picked up) it is the picture drawn last time, found among the recent ones.
MAP_KEYS = (
    "players",
    "game_no",
    "games",
    "layout",
    "start",
    "citadel_token",
    "boards",
    "regions",
    "links",
    "continents",
    "continent_control",
    "scores",
)
TARGETED = ("region", "move", "army")  # choice data that names a region the seat may pick


def map_part(view: dict[str, Any]) -> dict[str, Any]:
    return {key: view[key] for key in MAP_KEYS if key in view}


def seat_part(view: dict[str, Any], prompt: Prompt | None) -> dict[str, Any]:
    """What a seat's own map shows: the map part, whose picture it is, the regions its prompt offers
    (from the choices' data) and the region an army is leaving."""
    targets = sorted({c.data["region"] for c in prompt.choices if c.data.get("what") in TARGETED}) if prompt else []
    origin = prompt.info.get("from") if prompt is not None and prompt.kind == "move_to" else None
    return {**map_part(view), "me": view["me"], "targets": targets, "origin": origin}


def render_map(view: dict[str, Any], names: Sequence[str] = ()) -> bytes:
    """The map of a view as PNG bytes, the players named by `names` (seat -> display name). A view with
    "me" (a seat part, see `seat_part`) gives that seat's picture."""
    return encode(draw_map(view, names))


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
    return i18n.in_turn(lang, (ability_text(lang, a) for a in abilities))


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
    return i18n.in_turn(
        lang, (ability_text(lang, {"kind": k, "family": f, "n": n}) for k, f, n in _cards_by_name()[name].abilities)
    )


# --- the embeds (public table and a seat's DM) -------------------------------------------------------
SEAT_MARKS = ("🟧", "🟦", "🟩", "🟨")  # the same colours as on the map
PIECES = (  # each seat's pieces on the map, as whole phrases (colour and shape agree in every language)
    N_("orange squares"),
    N_("blue circles"),
    N_("green triangles"),
    N_("yellow diamonds"),
)
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
        line += ". " + ctx.t(N_("Then: {actions}."), actions=_parts(ctx, step["next"], ", "))
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
        line = i18n.labelled(ctx.lang, _who(s["seat"], ctx), _figures(ctx, s, view["scores"][s["seat"]]))
        if s["explore"]:
            tokens = ", ".join(token_name(ctx.lang, x) for x in s["explore"])
            line += " · " + ctx.t(N_("tokens: {tokens}"), tokens=tokens)
        lines.append(line)
        if s["cards"]:
            names = ", ".join(card_name(ctx.lang, c) for c in s["cards"])
            abilities = i18n.in_turn(ctx.lang, (a for a in (card_abilities(ctx.lang, c) for c in s["cards"]) if a))
            lines.append(
                "  " + ctx.t(N_("cards: {cards} · abilities: {abilities}"), cards=names, abilities=abilities or "-")
            )
    if view["step"] is not None and view["seat"] is not None:
        lines.append("\n" + _step_line(view, ctx))
    if view["finished_scores"]:
        games = i18n.in_turn(
            ctx.lang,
            (
                ctx.t(
                    N_("game {number}: {scores}"),
                    number=i + 1,
                    scores=", ".join(f"{_who(s, ctx)} {v}" for s, v in enumerate(scores)),
                )
                for i, scores in enumerate(view["finished_scores"])
            ),
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

    def play_name(self, name: str, lang: str) -> str:
        return card_name(lang, name)  # the engine records the card's English title

    def scores(self, view: dict[str, Any]) -> Sequence[float] | None:
        found = view.get("scores")
        return list(found) if isinstance(found, list) else None

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
        mine += " " + ctx.t(N_("Your pieces on the map: {pieces}."), pieces=ctx.t(PIECES[seat]))
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
        """The seat's own map while it decides: framed in its colour, itself marked among the players,
        the regions its prompt offers ringed and the others faded (`seat_part`)."""
        if not self.seat_pictured(prompt):
            return None
        return super().image(seat_part(view, prompt), lang, names)


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
    "explore": N_("six explore tokens on the map: whoever first builds a city in a token's region gains that token"),
    "citadels": N_("three citadel regions worth 1 extra VP to control"),
    "layout": N_("2-3 players: three boards as an L or in a row; 4 players: a 2x2 square"),
    "bid_tie": N_("who wins tied bids: a die roll, as the rules' alternate tie breaker says, or the earliest seat"),
}
# The variants' friendly names in the lobby and the guide (bot.messages.guide), by option name and value.
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
# The result message (bot.messages.endings): the scoring categories of the outcome's breakdown, and the tie-break.
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
