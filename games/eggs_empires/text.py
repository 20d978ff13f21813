"""Terminal rendering of an Eggs and Empires view (for `python -m games play`)."""

from __future__ import annotations

from typing import Any

from games.eggs_empires.rules import card_name


def _egg(entry: dict[str, Any]) -> str:
    if entry["value"] is None:
        return f"[face-down, scouted by seat {entry['scout'] + 1}]"
    if entry["face_down"]:
        return f"[face-down {entry['value']:+d}, you scouted it]"
    return f"[{entry['value']:+d}]"


def describe(view: dict[str, Any]) -> str:
    rounds = view["rounds"] or "?"
    lines = [
        f"Round {view['round']}/{rounds}, turn {view['turn']}/{view['turns']} ({view['phase']}). "
        f"Tie-Breaker: seat {view['tiebreaker'] + 1}. Eggs left in deck: {view['egg_deck_size']}."
    ]
    lines.append("Eggs on offer: " + (" ".join(_egg(e) for e in view["offer"]) or "none"))
    for s in view["seats"]:
        you = " (you)" if s["seat"] == view["seat"] else ""
        eggs = " ".join(f"{v:+d}" for v in s["eggs"]) or "-"
        extra = ""
        if s["merchants"]:
            extra += f" Merchant x{s['merchants']} (+6 each)"
        if s["blacksmiths"]:
            extra += f" Blacksmith x{s['blacksmiths']} (-4 each)"
        tokens = f", tokens {s['tokens']}" if view.get("tokens_to_win") else ""
        lines.append(
            f"  seat {s['seat'] + 1}{you}: eggs {eggs}{extra}; rounds {s['round_scores']} "
            f"total {s['total']}{tokens}; played so far {s['discards']}"
        )
    if "hand" in view:
        lines.append("Your hand: " + ", ".join(card_name(c) for c in view["hand"]))
    return "\n".join(lines)
