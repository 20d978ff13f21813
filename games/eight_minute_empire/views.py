"""What each audience may see. Everything in Eight-Minute Empire is public except the bids, which stay
hidden until the last one is in (a seat sees its own). The views' shapes: shapes.PublicView and
shapes.SeatView."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from games.eight_minute_empire import scoring
from games.eight_minute_empire.board import WATER, build
from games.eight_minute_empire.cards import ROW_COSTS, all_cards, hand_totals
from games.eight_minute_empire.components import ARMIES, CITADEL, CITIES, GAMES_IN_FULL, TARGET_CARDS

if TYPE_CHECKING:
    from games.eight_minute_empire.engine import EightMinuteEmpire, State


@dataclass(frozen=True, slots=True)
class _Map:
    """What every view of a layout says the same way: worked out once per layout, shared by all views."""

    regions: tuple[tuple[str, str, float, float], ...]  # per region: id, continent name, x, y
    boards: list[dict[str, Any]]
    links: list[dict[str, Any]]
    continents: list[dict[str, Any]]


@cache
def _map(layout: str) -> _Map:
    board = build(layout)
    return _Map(
        regions=tuple(
            (label, board.continent_names[board.continent_of[r]], board.xy[r][0], board.xy[r][1])
            for r, label in enumerate(board.labels)
        ),
        boards=[{"letter": letter, "x": x, "y": y} for letter, x, y in board.boards],
        links=[{"a": board.labels[a], "b": board.labels[b], "water": kind == WATER} for a, b, kind in board.links],
        continents=[
            {"name": board.continent_names[i], "regions": [board.labels[r] for r in members]}
            for i, members in enumerate(board.continents)
        ],
    )


@cache
def _row_card(slot: int, cid: int) -> dict[str, Any]:
    """A card of the row as views show it (the same dict for every view: read-only)."""
    return {"slot": slot, "cost": ROW_COSTS[slot], **all_cards()[cid].to_view()}


@cache
def _hand_texts(hand: tuple[int, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The names and ability texts of a hand's cards (a handful of distinct hands per game)."""
    cards = all_cards()
    return tuple(cards[c].name for c in hand), tuple(cards[c].ability_text for c in hand)


def build_view(game: EightMinuteEmpire, state: State, seat: int | None) -> dict[str, Any]:
    return build_views(game, state, [seat])[seat]


def build_views(
    game: EightMinuteEmpire, state: State, audiences: Sequence[int | None]
) -> dict[int | None, dict[str, Any]]:
    """Each audience's view. Everything but a seat's own bid is public, so the public view is built
    once and each seat's view is a shallow copy of it with that seat's own keys added: the views share
    their nested lists and dicts (and the map's fixed parts are shared by all views of a layout), which
    is why views are read-only (games.core.Game.views)."""
    public = _public_view(game, state)
    out: dict[int | None, dict[str, Any]] = {}
    for seat in audiences:
        out[seat] = public if seat is None else {**public, "me": seat, "my_bid": state.bids[seat]}
    return out


def _public_view(game: EightMinuteEmpire, state: State) -> dict[str, Any]:
    board, n, fixed = state.board, state.players, _map(state.layout)
    armies, cities, tokens, start = state.armies, state.cities, state.tokens, state.start
    controls = scoring.region_controllers(armies, cities)
    # A controller number to what the view says: a seat, "neutral" (party n), or None (-1: nobody).
    control_names: list[int | str | None] = [*range(n), "neutral", None]
    two = n == 2
    regions = [
        {
            "id": label,
            "continent": continent,
            "x": x,
            "y": y,
            "armies": armies[r][:n],
            "neutral": armies[r][n] if two else 0,
            "cities": list(cities[r]),
            "token": tokens.get(r),
            "start": r == start,
            "control": control_names[controls[r]],
        }
        for r, (label, continent, x, y) in enumerate(fixed.regions)
    ]
    # Supplies from one pass over the board (what engine.supply_armies/supply_cities count seat by seat).
    armies_placed = [sum(column) for column in zip(*armies, strict=True)]
    cities_built = [sum(column) for column in zip(*cities, strict=True)]
    seats = []
    for s in range(n):
        hand = tuple(state.hands[s])
        names, abilities = _hand_texts(hand)
        totals = hand_totals(hand)  # cached per hand
        explore = state.explore[s]
        seats.append(
            {
                "seat": s,
                "coins": state.coins[s],
                "cards": list(names),
                "abilities": list(abilities),
                "move_bonus": totals.get("move", 0) + explore.count("Stable"),
                "army_bonus": totals.get("army", 0) + explore.count("Cottage"),
                "flying": totals.get("flying", 0),
                "water_cost": game.water_cost(state, s),
                "immune": "immune" in totals,
                "elixirs": totals.get("elixir", 0) + 2 * explore.count("Magic Spring"),
                "explore": list(explore),
                "armies_supply": ARMIES - armies_placed[s],
                "cities_supply": CITIES - cities_built[s],
                "bid_in": state.bids[s] is not None,
            }
        )
    step = None
    if state.phase == "turn" and state.step is not None:
        st = state.step
        step = {
            "card": all_cards()[st["card"]].name,
            "kind": st.get("kind"),
            "left": st.get("left", 0),
            "from": None if st.get("src") is None else board.labels[st["src"]],
            "branch": [[k, v] for k, v in st["branch"]] if st.get("branch") else None,
            "next": [[k, v] for k, v in st.get("parts", [])],
        }
    scores = scoring.score(
        board, n, armies, cities, state.hands, state.coins, state.explore, state.citadels, controls=controls
    )
    return {
        "game": "eight-minute-empire",
        "players": n,
        "phase": state.phase,
        "game_no": state.game_no,
        "games": GAMES_IN_FULL if state.options["full_game"] else 1,
        "finished_scores": [[row["total"] for row in game_rows] for game_rows in state.finished],
        "options": dict(state.options),
        "layout": state.layout,
        "boards": fixed.boards,
        "regions": regions,
        "links": fixed.links,
        "continents": fixed.continents,
        "continent_control": [
            None if owner < 0 else owner for owner in scoring.continent_controllers(board, controls, n)
        ],
        "start": board.labels[start],
        "citadels": [board.labels[r] for r in state.citadels],
        "row": [None if cid is None else _row_card(i, cid) for i, cid in enumerate(state.row)],
        "deck": len(state.deck),
        "target_cards": TARGET_CARDS[n],
        "neutral_left": state.neutral_left,
        "seat": state.seat if state.phase in ("neutral", "turn") else None,
        "first": state.first if state.first >= 0 else None,
        "bids": list(state.revealed) if state.revealed is not None else None,
        "seats": seats,
        "step": step,
        "scores": [row["total"] for row in scores],
        "citadel_token": CITADEL,
    }


def describe(view: dict[str, Any]) -> str:
    """A compact text form for the terminal player."""
    lines = [
        f"Game {view['game_no']}/{view['games']}, phase {view['phase']}; start {view['start']}; deck {view['deck']}"
    ]
    row = [f"[{c['cost']}] {c['name']}: {c['ability']} | {c['action']}" for c in view["row"] if c]
    lines += ["Card row:"] + ["  " + r for r in row]
    for s in view["seats"]:
        lines.append(
            f"P{s['seat'] + 1}: {s['coins']} coins, {len(s['cards'])} cards, elixirs {s['elixirs']}, "
            f"armies left {s['armies_supply']}, cities left {s['cities_supply']}, "
            f"score now {view['scores'][s['seat']]}"
        )
    for r in view["regions"]:
        parts = [f"P{i + 1}:{a}" for i, a in enumerate(r["armies"]) if a]
        parts += [f"P{i + 1}city:{c}" for i, c in enumerate(r["cities"]) if c]
        if r["neutral"]:
            parts.append(f"N:{r['neutral']}")
        if parts or r["start"] or r["token"]:
            extra = (" START" if r["start"] else "") + (f" <{r['token']}>" if r["token"] else "")
            lines.append(f"  {r['id']} {r['continent']}{extra}: {' '.join(parts)}")
    return "\n".join(lines)
