"""Short plain-text forms of Reggverse Riddles views and events (terminal play, Discord embeds, log)."""

from __future__ import annotations

from typing import Any

from games.reggverse.board import a_or_an, geometry


def summary(view: dict[str, Any]) -> str:
    """A compact, line-per-thing text of a view: rule rows, piles, scores, and the seat's own hand."""
    board = view["board"]
    seat = view.get("seat")
    side = view["side"] if seat is not None else "south"
    geo = geometry(board["shape"])
    names = geo.names["south"]  # one name per square for everybody
    lines = [
        f"Turn {view['turn']}, seat {view['current'] + 1} to play"
        + (" (game over)" if view.get("finished") else "")
        + (f"; you are seat {seat + 1}, looking from the {side}" if seat is not None else "")
    ]
    for egg in view["eggs"]:
        row = board["rows"].get(egg)
        if row is None:
            lines.append(f"{egg}: pile out")
            continue
        rules = "; ".join(r["text"] for r in row) or "no rules (hidden nowhere)"
        lines.append(f"{egg} ({view['piles'][egg]} left): {rules}")
    where = []
    for s, cell in enumerate(board["pawns"]):
        eggs = ", ".join(f"{v} {k}" for k, v in board["eggs"][cell].items())
        where.append(f"seat {s + 1} on {names[cell]} {board['types'][cell]}" + (f" ({eggs})" if eggs else ""))
    lines.append("Pawns: " + "; ".join(where))
    lying = [f"{names[c]}: " + ", ".join(f"{v} {k}" for k, v in e.items()) for c, e in enumerate(board["eggs"]) if e]
    lines.append("Eggs on tiles: " + ("; ".join(lying) if lying else "none"))
    lines.append("Collected: " + ", ".join(f"seat {s + 1}: {n}" for s, n in enumerate(view["scores"])))
    for tile in view.get("hand") or []:
        if tile["kind"] == "action":
            lines.append(f"  tile {tile['id']}: ACTION {tile['text']}")
        else:
            moves = ", ".join(_direction(m) for m in tile["moves"])
            lines.append(f"  tile {tile['id']}: move {moves} | {tile['rule']['text']}")
    if view.get("objective"):
        lines.append(f"Secret objective: {view['objective']['text']}")
    return "\n".join(lines)


def _direction(move: list[int]) -> str:
    dx, dy = move
    vertical = {-1: "up", 0: "", 1: "down"}[dy]
    horizontal = {-1: "left", 0: "", 1: "right"}[dx]
    return "-".join(p for p in (vertical, horizontal) if p)


def event_text(event: dict[str, Any]) -> str | None:
    """One line for a public event, or None for events not worth a log line."""
    kind = event["type"]
    who = f"Seat {event['seat'] + 1}" if "seat" in event else ""
    if kind == "played":
        tile = event["tile"]
        what = f"action: {tile['text']}" if tile["kind"] == "action" else f"tile {tile['id']}"
        return f"{who} plays {what}"
    if kind == "moved":
        return f"{who} {'teleports' if event.get('teleport') else 'moves'}"
    if kind == "stayed":
        return f"{who} cannot move and stays"
    if kind == "dropped":
        source = {"pile": "its pile", "mine": "their own eggs"}.get(event["source"], "another tile")
        return f"{who} drops {a_or_an(event['egg'])} egg (from {source})"
    if kind == "rule_placed":
        how = "on top of a rule" if event["covered"] is not None else "next to its rules"
        return f'{who} adds "{event["text"]}" to {event["egg"]} ({how})'
    if kind == "rule_discarded":
        return f"{who}'s rule fits nowhere and is discarded"
    if kind == "collected":
        return f"{who} collects {', '.join(event['eggs'])}"
    if kind == "pile_out":
        return f"The {event['egg']} pile is empty: its rules are removed"
    if kind in ("move_locked", "rule_locked"):
        return f"{who} is locked by seat {event['by'] + 1}"
    if kind == "game_over":
        return "Game over: " + ", ".join(f"seat {s + 1}: {v}" for s, v in enumerate(event["scores"]))
    if kind in ("drew", "drew_tiles", "guessed", "reshuffled", "lock_ended"):
        return None
    rest = ", ".join(f"{k} {v}" for k, v in event.items() if k not in ("type", "seat"))
    return f"{who} {kind.replace('_', ' ')}" + (f": {rest}" if rest else "")
