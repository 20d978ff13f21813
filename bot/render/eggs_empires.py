"""Eggs and Empires: the table, a seat's hand and the turn log, from the engine's views and events."""

from __future__ import annotations

from typing import Any

import discord

from bot.render.generic import COLOUR, Renderer, TableContext, clip
from games.core import Prompt

CARDS = {1: "Bard", 2: "Scout", 3: "Shepherd", 4: "Courier", 5: "Merchant", 6: "Priest", 7: "Mage",
         8: "Blacksmith", 9: "Dark Priestess", 10: "Hero"}
PHASES = {"mulligan": "keep or redraw hands", "play": "choosing Adventurers", "collect": "collecting eggs",
          "turn_end": "end of turn", "round_end": "end of round", "over": "game over"}


def card(value: int) -> str:
    return f"{CARDS.get(value, '?')} ({value})"


def egg(value: int | None) -> str:
    return "?" if value is None else f"{value:+d}"


def _name(ctx: TableContext, seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(ctx.names):
        return "?"
    return ctx.names[seat]


class EggsRenderer(Renderer):
    key = "eggs-empires"

    def _header(self, view: dict[str, Any], ctx: TableContext) -> str:
        rounds = view.get("rounds") or "?"
        line = (f"Round {view.get('round')}/{rounds} · Turn {view.get('turn')}/{view.get('turns')} · "
                f"{PHASES.get(str(view.get('phase')), view.get('phase'))}")
        return f"{line}\nTie-Breaker: **{_name(ctx, view.get('tiebreaker'))}**"

    def _offer(self, view: dict[str, Any], ctx: TableContext) -> str:
        shown = []
        for slot in view.get("offer", []):
            if slot.get("face_down"):
                shown.append(f"face-down {egg(slot.get('value'))} (scouted by {_name(ctx, slot.get('scout'))})"
                             if slot.get("value") is not None else
                             f"face-down (scouted by {_name(ctx, slot.get('scout'))})")
            else:
                shown.append(egg(slot.get("value")))
        return ", ".join(shown) or "-"

    def _seat_lines(self, view: dict[str, Any], ctx: TableContext) -> str:
        lines = []
        for s in view.get("seats", []):
            seat = s["seat"]
            status = " ✅" if s.get("decided") else (" ⏳" if seat in ctx.waiting else "")
            parts = [f"**{_name(ctx, seat)}**{status}: total {s.get('total', 0)}"]
            if s.get("tokens"):
                parts.append(f"tokens {s['tokens']}")
            parts.append(f"eggs [{' '.join(egg(v) for v in s.get('eggs', []))}]")
            if s.get("played"):
                parts.append("played " + ", ".join(card(c) for c in s["played"]))
            bonus = []
            if s.get("merchants"):
                bonus.append(f"Merchant ×{s['merchants']}")
            if s.get("blacksmiths"):
                bonus.append(f"Blacksmith ×{s['blacksmiths']}")
            if bonus:
                parts.append(" ".join(bonus))
            parts.append(f"hand {s.get('hand_size', 0)}, deck {s.get('deck_size', 0)}")
            lines.append(" · ".join(parts))
        return "\n".join(lines)

    def table(self, view: dict[str, Any], ctx: TableContext) -> list[discord.Embed]:
        embed = discord.Embed(title=f"{ctx.title} (game #{ctx.game_id})", colour=COLOUR,
                              description=self._header(view, ctx))
        embed.add_field(name="On offer", value=clip(self._offer(view, ctx), 1024), inline=False)
        embed.add_field(name="Players", value=clip(self._seat_lines(view, ctx), 1024), inline=False)
        self.add_waiting(embed, ctx)
        return [embed]

    def seat(self, view: dict[str, Any], prompt: Prompt | None, ctx: TableContext, seat: int) -> discord.Embed:
        embed = discord.Embed(title=f"{ctx.title} #{ctx.game_id}: {ctx.names[seat]}", colour=COLOUR,
                              description=self._header(view, ctx))
        hand = ", ".join(card(c) for c in view.get("hand", [])) or "-"
        embed.add_field(name="Your hand", value=clip(hand, 1024), inline=False)
        if view.get("my_play"):
            embed.add_field(name="Your secret play", value=", ".join(card(c) for c in view["my_play"]),
                            inline=False)
        embed.add_field(name="On offer", value=clip(self._offer(view, ctx), 1024), inline=False)
        mine = next((s for s in view.get("seats", []) if s["seat"] == seat), None)
        if mine is not None:
            embed.add_field(name="Your eggs", value=f"[{' '.join(egg(v) for v in mine.get('eggs', []))}] · "
                            f"total {mine.get('total', 0)}", inline=False)
        embed.add_field(name="\u200b", value=clip(self.prompt_line(prompt, ctx), 1024), inline=False)
        return embed

    def event_line(self, event: dict[str, Any], ctx: TableContext) -> str:
        kind = event.get("type")
        if kind == "reveal":
            plays = "; ".join(f"{_name(ctx, s)}: {', '.join(card(c) for c in cards)}"
                              for s, cards in enumerate(event.get("plays", [])))
            return f"Revealed: {plays}" + (" (tie)" if event.get("tie") else "")
        if kind == "collect":
            hidden = " face-down" if event.get("face_down") else ""
            return (f"{_name(ctx, event.get('seat'))}'s {card(event['card'])} takes the{hidden} "
                    f"{egg(event['value'])} egg")
        if kind == "declined":
            return f"{_name(ctx, event.get('seat'))}'s {card(event['card'])} takes no egg"
        if kind == "courier":
            return (f"{_name(ctx, event.get('seat'))} gives a {egg(event['value'])} egg to "
                    f"{_name(ctx, event.get('to_seat'))}")
        if kind == "priest":
            return f"{_name(ctx, event.get('seat'))} discards a {egg(event['value'])} egg"
        if kind == "bonus":
            return f"{_name(ctx, event.get('seat'))} keeps the {card(event['card'])} for scoring"
        if kind == "scout":
            return f"{_name(ctx, event.get('seat'))} scouts a face-down egg"
        if kind == "unclaimed":
            return f"Unclaimed eggs are discarded: {', '.join(egg(v) for v in event.get('eggs', [])) or '-'}"
        if kind == "mulligan":
            redrew = [_name(ctx, s) for s in event.get("redrew", [])]
            return "Hands kept." if not redrew else f"New hands for: {', '.join(redrew)}"
        if kind == "offer":
            eggs = ", ".join(egg(v) for v in event.get("eggs", []))
            return f"Round {event.get('round')}, turn {event.get('turn')}: eggs {eggs}"
        if kind == "round_end":
            scores = ", ".join(f"{_name(ctx, s)} {v}" for s, v in enumerate(event.get("scores", [])))
            return f"**Round {event.get('round')} scores:** {scores}"
        if kind == "game_over":
            return "**Winner:** " + ", ".join(_name(ctx, s) for s in event.get("winners", []))
        if kind == "tiebreaker":
            return f"Tie-Breaker Marker to {_name(ctx, event.get('seat'))}"
        if kind == "round_start":
            return f"Round {event.get('round')} begins"
        return super().event_line(event, ctx)


RENDERER = EggsRenderer()
