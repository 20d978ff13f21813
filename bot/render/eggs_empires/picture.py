"""Eggs and Empires pictures: the table, and a seat's hand with what it may choose now.

The table: the round and turn, who holds the Tie-Breaker Marker, the eggs on offer (face-down Scout eggs as
card backs), the last reveal in collection order with what each Adventurer took, and every player's eggs,
bonuses and scores. A seat's picture puts its hand of Adventurer cards (number, name, when its ability
acts and what it does) on top, with the current prompt's legal choices outlined: cards to play, eggs to
take, the egg a Courier may give, the eggs a Priest may discard. Only the view given is drawn, so a seat's
picture shows its own scouted egg and nobody else's.

Made for a phone: laid out for 400 px wide, tall rather than wide, from the kept parts of
bot.render.eggs_empires.parts (which says how colours are doubled by shapes and letters). Words come
from the catalogs in the language of the picture being drawn (`bot.texts.i18n.pt`); players are named by the
`names` given (their display names).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from bot.render.eggs_empires.parts import (
    BLACKSMITH_VP,
    CARD,
    CHIP_STEP,
    CHOOSE,
    GAP,
    INK,
    KEPT,
    MARGIN,
    MERCHANT_VP,
    MUTED,
    NAMES,
    PAPER,
    RULE,
    SCALE,
    UNIT,
    adventurer_card,
    bonus_chip,
    card_height,
    card_words,
    disc,
    egg_back,
    egg_card,
    egg_chip,
    encode,
    fit,
    font,
    marker,
    mini_card,
    picture_palette,
    signed,
    text,
    u,
    wrap,
)
from bot.render.kit import paletted
from bot.texts import i18n
from bot.texts.i18n import N_, NN_

ROUND_TURN = N_("Round {round}/{rounds} · Turn {turn}/{turns}")
ROUND_TURN_OPEN = N_("Round {round} · Turn {turn}/{turns}")  # Con/Pub scoring: the rounds are not counted
PHASES = {
    "mulligan": N_("Keep or redraw your starting hand"),
    "play": N_("Everyone chooses an Adventurer in secret"),
    "collect": N_("Collecting Eggs"),
    "turn_end": N_("End of turn"),
}
GAME_OVER = N_("Game over")
WINNERS = NN_("Winner: {names}", "Winners: {names}")
MARKER_HOLDER = N_("Tie-Breaker Marker: {name}")
EGG_DECK = N_("Egg deck: {count}")
ON_OFFER = N_("Eggs on offer")
NO_OFFER = N_("No Eggs on offer")
YOU_SAW = N_("you saw it")
REVEALED = N_("Turn {turn}: revealed, in collection order")
REVEALED_EARLIER = N_("Round {round}, turn {turn}: revealed, in collection order")
TOOK_NOTHING = N_("no Egg")
COLLECTS_NOW = N_("collects now")
WAITS = N_("waits")
FACE_DOWN_TAKEN = N_("was face down")
CANCELLED = N_("the Dark Priestesses cancel each other")
PLAYERS = N_("Players")
YOU = N_("(you)")
THIS_ROUND = N_("{score} VP this round")
FINAL = N_("{total} VP")
ROUND_SCORE = N_("Round {round}: {score}")
TOTAL = N_("Total: {total}")
TOKENS = N_("Egg Tokens: {count}/{goal}")
NO_EGGS = N_("no Eggs this round")
YOUR_HAND = N_("Your hand")
PLAYER = N_("Player {number}")  # a seat without a name (never in the bot: it always passes names)

PROMPT_KEY = "_prompt"  # what a seat's picture highlights, added to its view (see `seat_view_with_prompt`)


def player_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) and names[seat] else i18n.pt(PLAYER, number=seat + 1)


def initial(name: str) -> str:
    return next((c.upper() for c in name if c.isalnum()), "?")


# --- the picture ---------------------------------------------------------------------------------------
class Canvas:
    """A picture built top to bottom: parts are laid out in layout pixels, then drawn on one image."""

    def __init__(self, height: float, drawn: tuple[Image.Image, ImageDraw.ImageDraw] | None = None) -> None:
        """A new picture `height` layout pixels tall, or one being `drawn` already (a kept piece's)."""
        self.image, self.draw = drawn or paletted.canvas((u(UNIT), u(height)), picture_palette(), PAPER)

    def paste(self, part: Image.Image, x: float, y: float) -> None:
        paletted.paste(self.image, part, (u(x), u(y)), picture_palette())

    def text(self, xy: tuple[float, float], words: str, size: int, **kwargs: Any) -> None:
        text(self.draw, xy, words, size, **kwargs)

    def rule(self, y: float) -> None:
        self.draw.line((u(MARGIN), u(y), u(UNIT - MARGIN), u(y)), fill=RULE, width=u(1))

    def choose_mark(self, x: float, y: float, width: float, height: float) -> None:
        """A thick outline around something the reader may choose now."""
        self.draw.rounded_rectangle(
            (u(x - 3), u(y - 3), u(x + width + 3), u(y + height + 3)), u(8), outline=CHOOSE, width=u(2.5)
        )


Drawer = Callable[[Canvas, float], None]


class Layout:
    """The sections of one picture, top to bottom, each as (height, drawer) in layout pixels."""

    def __init__(self, view: Mapping[str, Any], names: Sequence[str]) -> None:
        self.view = view
        self.names = names
        self.me: int | None = view.get("seat")
        offered = view.get(PROMPT_KEY) or {}
        self.prompt_kind: str = offered.get("kind", "")
        self.prompt_info: Mapping[str, Any] = offered.get("info", {})
        self.choices: list[Mapping[str, Any]] = offered.get("choices", [])
        self.sections: list[tuple[float, Drawer]] = [self.header()]
        if self.me is not None and "hand" in view:
            self.sections.append(self.hand())
        if view.get("phase") != "over":
            self.sections.append(self.offer())
        if view.get("reveal"):
            self.sections.append(self.reveal())
        self.sections.append(self.players())
        self.height = sum(height for height, _ in self.sections) + MARGIN

    def draw(self, canvas: Canvas) -> None:
        y = 0.0
        for index, (height, drawer) in enumerate(self.sections):
            if index:
                canvas.rule(y)
            drawer(canvas, y)
            y += height

    def name(self, seat: int) -> str:
        return player_name(self.names, seat)

    def person(self, canvas: Canvas, seat: int, x: float, y: float, width: float, size: int = 12) -> None:
        """A player's disc and name, `width` layout pixels in all."""
        name = self.name(seat)
        canvas.paste(disc(seat, initial(name), 16), x, y)
        canvas.text((x + 20, y + 8), fit(name, size, width - 20, True), size, bold=True, anchor="lm")

    # --- sections --------------------------------------------------------------------------------------
    def header(self) -> tuple[float, Drawer]:
        view = self.view

        def draw(canvas: Canvas, y: float) -> None:
            if view.get("phase") == "over":
                winners = [self.name(s) for s in view.get("winners", [])]
                title = i18n.pt(GAME_OVER)
                line = i18n.tn(
                    i18n.picture_lang(), WINNERS, len(winners), names=i18n.listing(i18n.picture_lang(), winners)
                )
            else:
                counts = {"round": view["round"], "turn": view["turn"], "turns": view["turns"]}
                rounds = view.get("rounds")
                title = i18n.pt(ROUND_TURN, rounds=rounds, **counts) if rounds else i18n.pt(ROUND_TURN_OPEN, **counts)
                line = i18n.pt(PHASES[view["phase"]]) if view.get("phase") in PHASES else ""
            canvas.text((MARGIN, y + 8), fit(title, 17, UNIT - 2 * MARGIN, True), 17, bold=True)
            canvas.text((MARGIN, y + 31), fit(line, 12, UNIT - 2 * MARGIN), 12, fill=MUTED)
            canvas.paste(marker(16), MARGIN, y + 50)
            holder = i18n.pt(MARKER_HOLDER, name=self.name(view["tiebreaker"]))
            canvas.text((MARGIN + 21, y + 58), fit(holder, 12, UNIT - 2 * MARGIN - 21), 12, anchor="lm")

        return 76, draw

    def hand(self) -> tuple[float, Drawer]:
        hand: list[int] = list(self.view.get("hand", []))
        playable = {c["card"] for c in self.choices if c.get("kind") == "adventurer"}
        count = max(len(hand), 1)
        width = min(120, int((UNIT - 2 * MARGIN - (count - 1) * GAP) / count))
        words = [card_words(card) for card in hand]
        tallest = max((card_height(w, width) for w in words), default=0)
        cards = [
            adventurer_card(card, width, tallest, w, card in playable) for card, w in zip(hand, words, strict=True)
        ]

        def draw(canvas: Canvas, y: float) -> None:
            canvas.text((MARGIN, y + 8), i18n.pt(YOUR_HAND), 13, bold=True)
            for index, card in enumerate(cards):
                canvas.paste(card, MARGIN + index * (width + GAP), y + 28)

        return 28 + tallest + 10, draw

    def offer(self) -> tuple[float, Drawer]:
        offer: list[Mapping[str, Any]] = list(self.view.get("offer", []))
        takeable = {c["slot"] for c in self.choices if c.get("kind") == "egg"}
        per_row = 5
        rows = [offer[i : i + per_row] for i in range(0, len(offer), per_row)]
        heights = [76 + (18 if any(e.get("face_down") for e in row) else 0) + 10 for row in rows]

        def draw(canvas: Canvas, y: float) -> None:
            canvas.text((MARGIN, y + 8), i18n.pt(ON_OFFER if offer else NO_OFFER), 13, bold=True)
            deck = i18n.pt(EGG_DECK, count=self.view.get("egg_deck_size", 0))
            canvas.text((UNIT - MARGIN, y + 16), deck, 12, fill=MUTED, anchor="rm")
            top = y + 30
            for row, height in zip(rows, heights, strict=True):
                for index, egg in enumerate(row):
                    x = MARGIN + 4 + index * (60 + 14)
                    if egg.get("face_down"):
                        seen = egg.get("value")
                        canvas.paste(egg_back(seen, i18n.pt(YOU_SAW) if seen is not None else ""), x, top)
                        scout = egg.get("scout")
                        if scout is not None:
                            name = self.name(scout)
                            canvas.paste(disc(scout, initial(name), 14), x, top + 80)
                            canvas.text((x + 17, top + 87), fit(name, 10, 53), 10, anchor="lm")
                    else:
                        canvas.paste(egg_card(egg["value"]), x, top)
                    if egg.get("slot") in takeable:
                        canvas.choose_mark(x, top, 60, 76)
                top += height

        return 30 + sum(heights), draw

    def reveal(self) -> tuple[float, Drawer]:
        reveal: Mapping[str, Any] = self.view["reveal"]
        order: list[Mapping[str, Any]] = reveal.get("order", [])
        cancelled: list[int] = reveal.get("cancelled", [])
        row = 36

        height = 30 + row * len(order) + (36 if cancelled else 0) + 4

        def draw(canvas: Canvas, y: float) -> None:
            """The section, kept drawn (KEPT) from 2 layout pixels down (below the rule drawn over it): a table
            picture and the deciding seat's show the same reveal."""
            key = (
                "reveal",
                i18n.picture_lang(),
                tuple(self.names),
                repr(reveal),
                reveal["round"] == self.view.get("round"),
            )

            def drawing(image: Image.Image, image_draw: ImageDraw.ImageDraw) -> None:
                draw_reveal(Canvas(height - 2, (image, image_draw)), -2)

            piece = KEPT.piece(key, (u(UNIT), u(height - 2)), picture_palette(), PAPER, drawing)
            canvas.image.paste(piece, (0, u(y + 2)))

        def draw_reveal(canvas: Canvas, y: float) -> None:
            if reveal["round"] == self.view.get("round"):
                title = i18n.pt(REVEALED, turn=reveal["turn"])
            else:
                title = i18n.pt(REVEALED_EARLIER, round=reveal["round"], turn=reveal["turn"])
            canvas.text((MARGIN, y + 8), fit(title, 13, UNIT - 2 * MARGIN, True), 13, bold=True)
            top = y + 30
            for position, entry in enumerate(order, 1):
                status = entry.get("status")
                if status == "now":
                    canvas.draw.rounded_rectangle(
                        (u(MARGIN - 4), u(top - 3), u(UNIT - MARGIN + 4), u(top + row - 3)),
                        u(6),
                        fill=CARD,
                        outline=INK,
                    )
                faded = status == "waiting"
                canvas.text((MARGIN + 12, top + 15), str(position), 13, bold=True, fill=MUTED, anchor="rm")
                card = entry["card"]
                canvas.paste(mini_card(card), MARGIN + 18, top)
                name = i18n.ptp("adventurer", NAMES[card])
                canvas.text(
                    (MARGIN + 50, top + 15),
                    fit(name, 12, 118, True),
                    12,
                    bold=True,
                    anchor="lm",
                    fill=MUTED if faded else INK,
                )
                self.person(canvas, entry["seat"], MARGIN + 172, top + 7, 110)
                self.outcome(canvas, entry, UNIT - MARGIN - 86, top)
                top += row
            if cancelled:
                for index, seat in enumerate(cancelled):
                    canvas.paste(mini_card(9), MARGIN + 18 + index * 30, top)
                    canvas.paste(disc(seat, initial(self.name(seat)), 14), MARGIN + 34 + index * 30, top + 18)
                words = wrap(i18n.pt(CANCELLED), 11, UNIT - 2 * MARGIN - 30 * len(cancelled) - 26)
                for index, line in enumerate(words[:2]):
                    canvas.text((MARGIN + 24 + 30 * len(cancelled), top + 8 + 13 * index), line, 11, fill=MUTED)

        return height, draw

    @staticmethod
    def outcome(canvas: Canvas, entry: Mapping[str, Any], x: float, y: float) -> None:
        """What one collector took (an egg), or why not."""
        status = entry.get("status")
        if status == "took" and entry.get("egg") is not None:
            canvas.paste(egg_chip(entry["egg"], 27, 33, 11, plus=False), x, y)
            if entry.get("face_down"):
                for index, line in enumerate(wrap(i18n.pt(FACE_DOWN_TAKEN), 10, 58)[:2]):
                    canvas.text((x + 28, y + 4 + 12 * index), line, 10, fill=MUTED)
            return
        words = {"nothing": TOOK_NOTHING, "now": COLLECTS_NOW, "waiting": WAITS}.get(str(status))
        if words:
            bold = status == "now"
            canvas.text(
                (x, y + 15), fit(i18n.pt(words), 11, 86, bold), 11, bold=bold, anchor="lm", fill=INK if bold else MUTED
            )

    def players(self) -> tuple[float, Drawer]:
        seats: list[Mapping[str, Any]] = list(self.view.get("seats", []))
        discardable = {c["value"] for c in self.choices if c.get("kind") == "discard"}
        given = self.prompt_info.get("egg") if self.prompt_kind == "courier" else None
        per_row = int((UNIT - 2 * MARGIN - 24) // CHIP_STEP)
        blocks = []
        for summary in seats:
            chips = len(summary.get("eggs", [])) + 2 * (summary.get("merchants", 0) + summary.get("blacksmiths", 0))
            lines = max(1, -(-(chips + chips // per_row) // per_row))  # room for bonuses kept on one line
            scores = bool(summary.get("round_scores")) or "tokens_to_win" in self.view
            blocks.append(26 + (36 * lines if chips else 18) + (16 if scores else 0) + 8)

        def draw(canvas: Canvas, y: float) -> None:
            canvas.text((MARGIN, y + 8), i18n.pt(PLAYERS), 13, bold=True)
            top = y + 30
            for summary, height in zip(seats, blocks, strict=True):
                canvas.image.paste(self.kept_player(summary, height, per_row, discardable, given), (0, u(top - 3)))
                top += height

        return 30 + sum(blocks), draw

    def kept_player(
        self, summary: Mapping[str, Any], height: float, per_row: int, discardable: set[int], given: int | None
    ) -> Image.Image:
        """A player's block (from 3 layout pixels above its top: the reader's own is highlighted from there),
        drawn once for what it shows (KEPT) and pasted."""
        seat = summary["seat"]
        mine = seat == self.me
        view = self.view
        key = (
            "player",
            i18n.picture_lang(),
            self.name(seat),
            tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in summary.items())),
            mine,
            seat == view.get("tiebreaker"),
            view.get("phase") == "over",
            view.get("tokens_to_win"),
            tuple(sorted(discardable)) if mine else (),
            given if mine else None,
            per_row,
            height,
        )

        def drawing(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
            self.player(Canvas(height, (image, draw)), summary, 3, per_row, discardable, given)

        return KEPT.piece(key, (u(UNIT), u(height)), picture_palette(), PAPER, drawing)

    def player(
        self,
        canvas: Canvas,
        summary: Mapping[str, Any],
        top: float,
        per_row: int,
        discardable: set[int],
        given: int | None,
    ) -> None:
        seat = summary["seat"]
        mine = seat == self.me
        if mine:
            canvas.draw.rounded_rectangle(
                (u(MARGIN - 4), u(top - 3), u(UNIT - MARGIN + 4), u(top + 22)), u(6), fill=CARD
            )
        name = self.name(seat)
        canvas.paste(disc(seat, initial(name), 18), MARGIN, top)
        label = f"{name} {i18n.pt(YOU)}" if mine else name
        x = MARGIN + 24
        label = fit(label, 13, 250, True)
        canvas.text((x, top + 9), label, 13, bold=True, anchor="lm")
        if seat == self.view.get("tiebreaker"):
            canvas.paste(marker(16), x + canvas.draw.textlength(label, font=font(13, True)) / SCALE + 6, top + 1)
        eggs: list[int] = list(summary.get("eggs", []))
        merchants, blacksmiths = summary.get("merchants", 0), summary.get("blacksmiths", 0)
        running = sum(eggs) + MERCHANT_VP * merchants + BLACKSMITH_VP * blacksmiths
        if self.view.get("phase") == "over":
            final = i18n.pt(FINAL, total=i18n.number(i18n.picture_lang(), summary.get("total", 0)))
            canvas.text((UNIT - MARGIN, top + 9), final, 15, bold=True, anchor="rm")
        else:  # the round's score so far: what it would score ending now
            so_far = i18n.pt(THIS_ROUND, score=signed(running))
            canvas.text((UNIT - MARGIN, top + 9), so_far, 13, bold=True, anchor="rm")
        chips: list[tuple[str, int]] = [("egg", v) for v in eggs]
        chips += [("bonus", 5)] * merchants + [("bonus", 8)] * blacksmiths
        y = top + 26
        if not chips:
            canvas.text((MARGIN + 24, y), i18n.pt(NO_EGGS), 11, fill=MUTED)
            y -= 18
        last_given = len(eggs) - 1 - eggs[::-1].index(given) if mine and given in eggs else -1
        slot = 0
        for index, (kind, value) in enumerate(chips):
            if kind == "bonus" and slot % per_row == per_row - 1:
                slot += 1  # a bonus takes two places: keep them on one line
            x = MARGIN + 24 + (slot % per_row) * CHIP_STEP
            cy = y + (slot // per_row) * 36
            if kind == "egg":
                canvas.paste(egg_chip(value, 27, 33, 11, plus=False), x, cy)
                if mine and (value in discardable or index == last_given):
                    canvas.choose_mark(x + 1, cy + 1, 25, 31)
                slot += 1
            else:  # a Merchant or Blacksmith kept for scoring, with what it is worth
                canvas.paste(bonus_chip(value), x, cy)
                slot += 2
        y += 36 * max(1, -(-slot // per_row))
        parts = [
            i18n.pt(ROUND_SCORE, round=index, score=signed(score))
            for index, score in enumerate(summary.get("round_scores", []), 1)
        ]
        if parts:
            parts.append(i18n.pt(TOTAL, total=signed(summary.get("total", 0))))
        if "tokens_to_win" in self.view:
            parts.append(i18n.pt(TOKENS, count=summary.get("tokens", 0), goal=self.view["tokens_to_win"]))
        if parts:
            canvas.text((MARGIN + 24, y), fit(" · ".join(parts), 11, UNIT - 2 * MARGIN - 24), 11, fill=MUTED)


# What the pictures draw of a view (see `drawn`); "hand" and PROMPT_KEY only in a seat's.
DRAWN_KEYS: tuple[str, ...] = ("seat", "round", "rounds", "turn", "turns", "phase", "tiebreaker", "offer")
DRAWN_KEYS += ("egg_deck_size", "reveal", "winners", "tokens_to_win", "hand", PROMPT_KEY)
DRAWN_SEAT_KEYS = ("seat", "eggs", "merchants", "blacksmiths", "round_scores", "total", "tokens")


def drawn(view: Mapping[str, Any]) -> dict[str, Any]:
    """The part of `view` a picture shows. Who has decided, hand and deck sizes and the cards played earlier
    in the round are not drawn: two views that differ only there make the same picture, and keying the
    kept pictures on this part (`EggsRenderer.image`) draws it once (each decision of a turn changes who
    has decided, not the picture)."""
    shown = {key: view[key] for key in DRAWN_KEYS if key in view}
    shown["seats"] = [{key: seat[key] for key in DRAWN_SEAT_KEYS if key in seat} for seat in view.get("seats", [])]
    return shown


def seat_view_with_prompt(view: Mapping[str, Any], prompt: Any) -> dict[str, Any]:
    """A seat's view with what its prompt offers (kind, info and every choice's data) under PROMPT_KEY: the
    seat picture outlines those choices, and the picture cache keys on them with the view."""
    if prompt is None:
        return dict(view)
    offered = {"kind": prompt.kind, "info": dict(prompt.info), "choices": [dict(c.data) for c in prompt.choices]}
    return {**view, PROMPT_KEY: offered}


def picture(view: Mapping[str, Any], names: Sequence[str]) -> Image.Image:
    """The table picture (`view` public) or a seat's (`view` of that seat, maybe with PROMPT_KEY), drawn on
    the palette it is encoded with (mode "P": bot.render.kit.paletted)."""
    layout = Layout(view, names)
    canvas = Canvas(layout.height)
    layout.draw(canvas)
    return canvas.image


def png(view: Mapping[str, Any], names: Sequence[str] = ()) -> bytes:
    """`picture` encoded (in the language set by `i18n.picture_language`)."""
    return encode(picture(view, names))
