"""Eggs and Empires: the table, a seat's hand and the turn log, from the engine's views and events.

Every word comes from the catalogs in the reader's language (ctx.lang): the Adventurers carry the
names of that language's rulebook (the Italian rulebook translates them, the French one keeps the
English names). Prompts and choices are phrased from their kind, info and data, views and events
from their fields (shapes: games/eggs_empires/shapes.py), never from the engine's English; players are
named by their display names (ctx.names).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.render.eggs_empires.parts import DISTINCT_COLOURS, NAMES
from bot.render.eggs_empires.picture import (
    PLAYERS,
    ROUND_TURN,
    ROUND_TURN_OPEN,
    YOUR_HAND,
    drawn,
    png,
    seat_view_with_prompt,
)
from bot.render.kit.generic import COLOUR, GuidePage, Renderer, TableContext, clip
from bot.texts import i18n
from bot.texts.i18n import N_, NP_
from games.core import Choice, Prompt

ADVENTURER = "adventurer"  # msgctxt of the card names
CARDS = NAMES  # the names of the rulebook of each language (Italian translates them, French keeps them)
# The same names with their definite article, for sentences that need one: the article agrees with the
# name in each language (Italian "l'Eroe", "la Sacerdotessa Oscura"; French "la Dark Priestess"), so it
# lives in the name's own catalog entry and no template splices an article onto a name.
THE_CARDS = {
    1: NP_("adventurer-the", "the Bard"),
    2: NP_("adventurer-the", "the Scout"),
    3: NP_("adventurer-the", "the Shepherd"),
    4: NP_("adventurer-the", "the Courier"),
    5: NP_("adventurer-the", "the Merchant"),
    6: NP_("adventurer-the", "the Priest"),
    7: NP_("adventurer-the", "the Mage"),
    8: NP_("adventurer-the", "the Blacksmith"),
    9: NP_("adventurer-the", "the Dark Priestess"),
    10: NP_("adventurer-the", "the Hero"),
}
PHASES = {
    "mulligan": N_("keep or redraw hands"),
    "play": N_("choosing Adventurers"),
    "collect": N_("collecting Eggs"),
    "turn_end": N_("end of turn"),
    "round_end": N_("end of round"),
    "over": N_("game over"),
}

TIEBREAKER = N_("Tie-Breaker Marker: **{name}**")
FACE_DOWN_KNOWN = N_("face-down {value} (scouted by {name})")
FACE_DOWN = N_("face-down (scouted by {name})")
SEAT_TOTAL = N_("total {total}")
SEAT_TOKENS = N_("Egg Tokens {tokens}")
SEAT_EGGS = N_("Eggs [{eggs}]")
SEAT_PLAYED = N_("played {cards}")
SEAT_HAND = N_("hand {hand}, deck {deck}")
ON_OFFER = N_("On offer")
SECRET_PLAY = N_("Your secret play")
YOUR_EGGS = N_("Your Eggs")
SEAT_TITLE = N_("{title} #{game_id}: {name}")
TABLE_TITLE = N_("{title} (game #{game_id})")

# Prompts, by kind.
PLAY = (N_("Choose an Adventurer to play"), N_("Choose two different Adventurers to play"))
MULLIGAN = N_("Round {round}: keep your starting hand or draw a new one (once per round)?")
EGG = N_("Which Egg do you collect with {the_card}?")
COURIER = N_("Courier: give the {value} Egg to another player?")
PRIEST = N_("Priest: discard one of your collected Eggs?")
KEEP_HAND = N_("Keep this hand")
REDRAW = N_("Discard it and draw a new hand")
KEEP_IT = N_("Keep it")
NO_EGG = N_("Take no Egg")
EGG_CHOICE = N_("Egg {value}")
FACE_DOWN_MINE = N_("Face-down Egg (you scouted it: {value})")
FACE_DOWN_OTHER = N_("Face-down Egg (scouted by {name})")
GIVE = N_("Give it to {name}")
DISCARD = N_("Discard a {value} Egg")

# Events.
REVEALED = N_("Revealed: {plays}")
REVEALED_TIE = N_("Revealed: {plays} (tie)")
COLLECTS = N_("{name}: {the_card} takes the {value} Egg")
COLLECTS_FACE_DOWN = N_("{name}: {the_card} takes the face-down {value} Egg")
DECLINED = N_("{name}: {the_card} takes no Egg")
GIVES = N_("{name} gives a {value} Egg to {other}")
DISCARDS = N_("{name} discards a {value} Egg")
KEEPS = N_("{name} keeps {the_card} for scoring")
SCOUTS = N_("{name} scouts a face-down Egg")
UNCLAIMED = N_("Unclaimed Eggs are discarded: {eggs}")
HANDS_KEPT = N_("Hands kept.")
NEW_HANDS = N_("New hands for: {names}")
OFFER = N_("Round {round}, turn {turn}: Eggs {eggs}")
ROUND_SCORES = N_("**Round {round} scores:** {scores}")
WINNER = N_("**Winner:** {names}")
MARKER_TO = N_("Tie-Breaker Marker to {name}")
ROUND_BEGINS = N_("Round {round} begins")

SIMPLE_CHOICES = {
    "keep_hand": KEEP_HAND,
    "redraw_hand": REDRAW,
    "keep_egg": KEEP_IT,
    "no_discard": KEEP_IT,
    "no_egg": NO_EGG,
}


def card_name(lang: str, value: int) -> str:
    name = CARDS.get(value)
    return i18n.tp(lang, ADVENTURER, name) if name else "?"


def card(lang: str, value: int) -> str:
    return f"{card_name(lang, value)} ({value})"


def the_card(lang: str, value: int) -> str:
    """ "the Hero (10)": the name with its article, for the middle of a sentence."""
    name = THE_CARDS.get(value)
    return f"{i18n.tp(lang, 'adventurer-the', name) if name else '?'} ({value})"


def egg(value: int | None) -> str:
    return "?" if value is None else f"{value:+d}"


def _name(ctx: TableContext, seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(ctx.names):
        return "?"
    return ctx.names[seat]


def choice_text(data: Mapping[str, Any], ctx: TableContext) -> str:
    """What a choice does, from its data (games.eggs_empires.shapes.ChoiceData), in ctx's language."""
    kind = data.get("kind")
    if kind == "adventurer":
        return card(ctx.lang, data["card"])
    if kind == "egg":
        if not data["face_down"]:
            return ctx.t(EGG_CHOICE, value=egg(data["value"]))
        if data["value"] is not None:
            return ctx.t(FACE_DOWN_MINE, value=egg(data["value"]))
        return ctx.t(FACE_DOWN_OTHER, name=_name(ctx, data["scout"]))
    if kind == "give":
        return ctx.t(GIVE, name=_name(ctx, data["seat"]))
    if kind == "discard":
        return ctx.t(DISCARD, value=egg(data["value"]))
    simple = SIMPLE_CHOICES.get(str(kind))
    return ctx.t(simple) if simple is not None else "?"


class EggsRenderer(Renderer):
    """Embeds and log lines from the catalogs; pictures from bot.render.eggs_empires.picture."""

    def play_name(self, name: str, lang: str) -> str:
        """ "Bard (1)", as the engine records an adventurer played, by its name in `lang`'s rulebook."""
        number = re.fullmatch(r".*\((\d+)\)", name)
        card = int(number[1]) if number else 0
        return f"{i18n.tp(lang, 'adventurer', CARDS[card])} ({card})" if card in CARDS else name

    def scores(self, view: dict[str, Any]) -> Sequence[float] | None:
        seats = view.get("seats")
        return [int(s.get("total", 0)) for s in seats] if isinstance(seats, list) else None

    key = "eggs-empires"

    # --- pictures ----------------------------------------------------------------------------
    def pictured(self) -> bool:
        return True

    def image(self, view: dict[str, Any], lang: str = i18n.DEFAULT, names: Sequence[str] = ()) -> bytes | None:
        """The picture of what `view` shows that is drawn (`drawn`): the kept pictures are found by that
        part alone, so a decision that changes only who has decided draws nothing new."""
        return super().image(drawn(view), lang, names)

    def draw(self, view: dict[str, Any], names: tuple[str, ...]) -> bytes | None:
        return png(view, names)

    def seat_image(
        self, view: dict[str, Any], prompt: Prompt | None, lang: str = i18n.DEFAULT, names: Sequence[str] = ()
    ) -> bytes | None:
        """The seat's hand on top of the table, with what `prompt` offers outlined (the picture cache keys
        on the prompt's offer with the view)."""
        if not self.seat_pictured(prompt):
            return None
        return self.image(seat_view_with_prompt(view, prompt), lang, names)

    def _header(self, view: dict[str, Any], ctx: TableContext) -> str:
        phase = str(view.get("phase"))
        counts = {"round": view.get("round"), "turn": view.get("turn"), "turns": view.get("turns")}
        rounds = view.get("rounds")  # None with Con/Pub scoring: the rounds are not counted, as in the picture
        title = ctx.t(ROUND_TURN, rounds=rounds, **counts) if rounds else ctx.t(ROUND_TURN_OPEN, **counts)
        line = f"{title} · {ctx.t(PHASES[phase]) if phase in PHASES else phase}"
        return f"{line}\n{ctx.t(TIEBREAKER, name=_name(ctx, view.get('tiebreaker')))}"

    def _offer(self, view: dict[str, Any], ctx: TableContext) -> str:
        shown = []
        for slot in view.get("offer", []):
            if slot.get("face_down"):
                scout = _name(ctx, slot.get("scout"))
                shown.append(
                    ctx.t(FACE_DOWN_KNOWN, value=egg(slot.get("value")), name=scout)
                    if slot.get("value") is not None
                    else ctx.t(FACE_DOWN, name=scout)
                )
            else:
                shown.append(egg(slot.get("value")))
        return ", ".join(shown) or "-"

    def _seat_lines(self, view: dict[str, Any], ctx: TableContext) -> str:
        lines = []
        for s in view.get("seats", []):
            seat = s["seat"]
            status = " ✅" if s.get("decided") else (" ⏳" if seat in ctx.waiting else "")
            parts = [
                i18n.labelled(ctx.lang, f"**{_name(ctx, seat)}**{status}", ctx.t(SEAT_TOTAL, total=s.get("total", 0)))
            ]
            if s.get("tokens"):
                parts.append(ctx.t(SEAT_TOKENS, tokens=s["tokens"]))
            parts.append(ctx.t(SEAT_EGGS, eggs=" ".join(egg(v) for v in s.get("eggs", []))))
            if s.get("played"):
                parts.append(ctx.t(SEAT_PLAYED, cards=", ".join(card(ctx.lang, c) for c in s["played"])))
            bonus = []
            if s.get("merchants"):
                bonus.append(f"{card_name(ctx.lang, 5)} ×{s['merchants']}")
            if s.get("blacksmiths"):
                bonus.append(f"{card_name(ctx.lang, 8)} ×{s['blacksmiths']}")
            if bonus:
                parts.append(" ".join(bonus))
            parts.append(ctx.t(SEAT_HAND, hand=s.get("hand_size", 0), deck=s.get("deck_size", 0)))
            lines.append(" · ".join(parts))
        return "\n".join(lines)

    def table(self, view: dict[str, Any], ctx: TableContext) -> list[discord.Embed]:
        embed = discord.Embed(
            title=ctx.t(TABLE_TITLE, title=ctx.title, game_id=ctx.game_id),
            colour=COLOUR,
            description=self._header(view, ctx),
        )
        embed.add_field(name=ctx.t(ON_OFFER), value=clip(self._offer(view, ctx), 1024), inline=False)
        embed.add_field(name=ctx.t(PLAYERS), value=clip(self._seat_lines(view, ctx), 1024), inline=False)
        self.add_waiting(embed, ctx)
        return [embed]

    def seat(self, view: dict[str, Any], prompt: Prompt | None, ctx: TableContext, seat: int) -> discord.Embed:
        embed = discord.Embed(
            title=ctx.t(SEAT_TITLE, title=ctx.title, game_id=ctx.game_id, name=ctx.names[seat]),
            colour=COLOUR,
            description=self._header(view, ctx),
        )
        hand = ", ".join(card(ctx.lang, c) for c in view.get("hand", [])) or "-"
        embed.add_field(name=ctx.t(YOUR_HAND), value=clip(hand, 1024), inline=False)
        if view.get("my_play"):
            embed.add_field(
                name=ctx.t(SECRET_PLAY), value=", ".join(card(ctx.lang, c) for c in view["my_play"]), inline=False
            )
        embed.add_field(name=ctx.t(ON_OFFER), value=clip(self._offer(view, ctx), 1024), inline=False)
        mine = next((s for s in view.get("seats", []) if s["seat"] == seat), None)
        if mine is not None:
            eggs = f"[{' '.join(egg(v) for v in mine.get('eggs', []))}]"
            embed.add_field(
                name=ctx.t(YOUR_EGGS), value=f"{eggs} · {ctx.t(SEAT_TOTAL, total=mine.get('total', 0))}", inline=False
            )
        embed.add_field(name="\u200b", value=clip(self.prompt_line(prompt, ctx), 1024), inline=False)
        return embed

    # --- prompts -----------------------------------------------------------------------------
    def prompt_text(self, prompt: Prompt, ctx: TableContext) -> str:
        """The question, from the prompt's kind, pick and info (shapes: games.eggs_empires.shapes)."""
        kind, info = prompt.kind, prompt.info
        if kind == "play":
            return ctx.t(PLAY[0] if prompt.pick == 1 else PLAY[1])
        if kind == "mulligan":
            rounds = {c.data.get("round") for c in prompt.choices}
            return ctx.t(MULLIGAN, round=rounds.pop() if len(rounds) == 1 else "?")
        if kind == "egg" and isinstance(info.get("card"), int):
            return ctx.t(EGG, the_card=the_card(ctx.lang, info["card"]))
        if kind == "courier" and isinstance(info.get("egg"), int):
            return ctx.t(COURIER, value=egg(info["egg"]))
        if kind == "priest":
            return ctx.t(PRIEST)
        return kind

    def choice_label(self, prompt: Prompt, choice: Choice, ctx: TableContext) -> str:
        """A choice in the reader's language, from its data alone (shapes: games.eggs_empires.shapes)."""
        return choice_text(choice.data, ctx)

    # --- the log -----------------------------------------------------------------------------
    def event_line(self, event: dict[str, Any], ctx: TableContext) -> str:
        kind = event.get("type")
        lang = ctx.lang
        who = _name(ctx, event.get("seat"))
        if kind == "reveal":
            plays = i18n.in_turn(
                lang,
                (
                    i18n.labelled(lang, _name(ctx, s), ", ".join(card(lang, c) for c in cards))
                    for s, cards in enumerate(event.get("plays", []))
                ),
            )
            return ctx.t(REVEALED_TIE if event.get("tie") else REVEALED, plays=plays)
        if kind == "collect":
            return ctx.t(
                COLLECTS_FACE_DOWN if event.get("face_down") else COLLECTS,
                name=who,
                the_card=the_card(lang, event["card"]),
                value=egg(event["value"]),
            )
        if kind == "declined":
            return ctx.t(DECLINED, name=who, the_card=the_card(lang, event["card"]))
        if kind == "courier":
            return ctx.t(GIVES, name=who, value=egg(event["value"]), other=_name(ctx, event.get("to_seat")))
        if kind == "priest":
            return ctx.t(DISCARDS, name=who, value=egg(event["value"]))
        if kind == "bonus":
            return ctx.t(KEEPS, name=who, the_card=the_card(lang, event["card"]))
        if kind == "scout":
            return ctx.t(SCOUTS, name=who)
        if kind == "unclaimed":
            return ctx.t(UNCLAIMED, eggs=", ".join(egg(v) for v in event.get("eggs", [])) or "-")
        if kind == "mulligan":
            redrew = [_name(ctx, s) for s in event.get("redrew", [])]
            return ctx.t(HANDS_KEPT) if not redrew else ctx.t(NEW_HANDS, names=ctx.listing(redrew))
        if kind == "offer":
            return ctx.t(
                OFFER,
                round=event.get("round"),
                turn=event.get("turn"),
                eggs=", ".join(egg(v) for v in event.get("eggs", [])),
            )
        if kind == "round_end":
            scores = ", ".join(f"{_name(ctx, s)} {i18n.number(lang, v)}" for s, v in enumerate(event.get("scores", [])))
            return ctx.t(ROUND_SCORES, round=event.get("round"), scores=scores)
        if kind == "game_over":
            return ctx.t(WINNER, names=ctx.listing([_name(ctx, s) for s in event.get("winners", [])]))
        if kind == "tiebreaker":
            return ctx.t(MARKER_TO, name=who)
        if kind == "round_start":
            return ctx.t(ROUND_BEGINS, round=event.get("round"))
        return super().event_line(event, ctx)


RENDERER = EggsRenderer()
__all__ = ["DISTINCT_COLOURS", "RENDERER", "EggsRenderer"]  # DISTINCT_COLOURS: tests/test_pictures_phone.py


# --- the game's guide (`/game rules`) and what its variants do, in the catalogs ----------------
RENDERER.guide = (
    GuidePage(
        N_("Overview"),
        N_(
            "Each player has an Empire deck of ten Adventurers numbered 1 to 10. Every turn everybody "
            "secretly plays one Adventurer from a hand of three; then, from the highest Adventurer down, "
            "each player takes one Egg from the middle. Eggs are worth victory points (VP); Exploding Eggs "
            "are worth negative VP. The game lasts three rounds of nine turns: the most VP wins."
        ),
    ),
    GuidePage(
        N_("A turn"),
        N_(
            "1. Everybody secretly chooses an Adventurer.\n"
            "2. All of them are revealed at once.\n"
            "3. Collect Eggs: the highest Adventurer chooses first, then the next highest. Everybody must "
            "take an Egg if able, and never more than one. Ties go in player order from the holder of the "
            "Tie-Breaker Marker.\n"
            "4. Unclaimed Eggs are discarded and new Eggs are revealed (2 with 2-4 players, 3 with 5, 4 with 6).\n"
            "5. Turn End abilities are resolved, then everybody draws back up to three cards.\n"
            "At the start of each round you may once discard your starting hand and draw a new one."
        ),
    ),
    GuidePage(
        N_("The Adventurers"),
        N_(
            "(1) Bard: no ability.\n"
            "(2) Scout (Turn End): looks at the top Egg and places it face down for the next turn.\n"
            "(3) Shepherd (Collect Eggs): always collects before the Blacksmith.\n"
            "(4) Courier (Turn End): may give the Egg it collected to another player.\n"
            "(5) Merchant (Turn End): if it collected no Egg, it is worth 6 VP at round end.\n"
            "(6) Priest (Turn End): if it collected an Egg, you may discard any one of your collected Eggs.\n"
            "(7) Mage (Collect Eggs): never takes a face-up Exploding Egg; may decline a face-down Egg.\n"
            "(8) Blacksmith (Turn End): if it collected no Egg, it is worth -4 VP at round end.\n"
            "(9) Dark Priestess (Collect Eggs): if more than one is played, none of them collects.\n"
            "(10) Hero: no ability."
        ),
    ),
    GuidePage(
        N_("Scoring and two players"),
        N_(
            "At the end of a round, add up your Eggs, +6 VP per Merchant and -4 VP per Blacksmith in your "
            "scoring pile. The Tie-Breaker Marker goes to the player with the lowest total. After three "
            "rounds the highest total wins; tied players share the victory.\n"
            "Two players: each has two decks and four cards in hand, plays two different Adventurers every "
            "turn and may collect two Eggs."
        ),
    ),
)
RENDERER.option_texts = {
    "tiebreaker": N_("the Tie-Breaker Marker passes left after any turn with a tie, or clockwise after every round"),
    "scoring": N_(
        "standard: most VP after 3 rounds; Con/Pub: round winners take Egg Tokens, 3 tokens win, 2 with 5-6 players"
    ),
}
# The variants' friendly names in the lobby and the guide (bot.messages.guide), by option name and value.
RENDERER.option_names = {"tiebreaker": N_("Tie-Breaker Marker"), "scoring": N_("Scoring")}
RENDERER.value_names = {
    "tiebreaker": {"tie": N_("passes after a tie"), "round": N_("passes every round")},
    "scoring": {"standard": N_("standard (victory points)"), "conpub": N_("Con/Pub (Egg Tokens)")},
}
# The result message (bot.messages.endings): the scoring categories of the outcome's breakdown; tied players share.
RENDERER.score_categories = {"rounds": N_("Rounds"), "tokens": N_("Egg Tokens")}
