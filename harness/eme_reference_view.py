"""The Eight-Minute Empire view as it was first written: one audience at a time, every part recomputed
from the state. Kept as the oracle for the engine's faster `views()`, which builds the public part once
per moment and shares the map's fixed parts (tests/test_eight_minute_empire_views.py)."""

from __future__ import annotations

from typing import Any

from games.eight_minute_empire import scoring
from games.eight_minute_empire.board import WATER
from games.eight_minute_empire.cards import ROW_COSTS, all_cards
from games.eight_minute_empire.engine import CITADEL, GAMES_IN_FULL, TARGET_CARDS, EightMinuteEmpire, State


def _controller(strengths: list[int]) -> int:
    best, who, tied = 0, -1, False
    for party, strength in enumerate(strengths):
        if strength > best:
            best, who, tied = strength, party, False
        elif strength == best and strength > 0:
            tied = True
    return -1 if tied else who


def _region_controllers(armies: list[list[int]], cities: list[list[int]]) -> list[int]:
    out = []
    for army_row, city_row in zip(armies, cities, strict=True):
        strengths = list(army_row)
        for seat, n in enumerate(city_row):
            strengths[seat] += n
        out.append(_controller(strengths))
    return out


def _continent_controller(members: tuple[int, ...], controls: list[int], seats: int) -> int | None:
    held = [sum(1 for r in members if controls[r] == s) for s in range(seats)]
    most = max(held)
    return held.index(most) if most > 0 and held.count(most) == 1 else None


def reference_view(game: EightMinuteEmpire, state: State, seat: int | None) -> dict[str, Any]:

    board, n, cards = state.board, state.players, all_cards()
    controls = _region_controllers(state.armies, state.cities)
    regions = []
    for r, label in enumerate(board.labels):
        owner = controls[r]
        regions.append(
            {
                "id": label,
                "continent": board.continent_names[board.continent_of[r]],
                "x": board.xy[r][0],
                "y": board.xy[r][1],
                "armies": state.armies[r][:n],
                "neutral": state.armies[r][n] if n == 2 else 0,
                "cities": list(state.cities[r]),
                "token": state.tokens.get(r),
                "start": r == state.start,
                "control": None if owner < 0 else ("neutral" if owner == n else owner),
            }
        )
    seats = []
    for s in range(n):
        hand = [cards[c] for c in state.hands[s]]
        seats.append(
            {
                "seat": s,
                "coins": state.coins[s],
                "cards": [c.name for c in hand],
                "abilities": [c.ability_text for c in hand],
                "move_bonus": sum(c.count("move") for c in hand) + state.explore[s].count("Stable"),
                "army_bonus": sum(c.count("army") for c in hand) + state.explore[s].count("Cottage"),
                "flying": sum(c.count("flying") for c in hand),
                "water_cost": game.water_cost(state, s),
                "immune": any(c.has("immune") for c in hand),
                "elixirs": sum(c.count("elixir") for c in hand) + 2 * state.explore[s].count("Magic Spring"),
                "explore": list(state.explore[s]),
                "armies_supply": game.supply_armies(state, s),
                "cities_supply": game.supply_cities(state, s),
                "bid_in": state.bids[s] is not None,
            }
        )
    step = None
    if state.phase == "turn" and state.step is not None:
        st = state.step
        step = {
            "card": cards[st["card"]].name,
            "kind": st.get("kind"),
            "left": st.get("left", 0),
            "from": None if st.get("src") is None else board.labels[st["src"]],
            "branch": [[k, v] for k, v in st["branch"]] if st.get("branch") else None,
            "next": [[k, v] for k, v in st.get("parts", [])],
        }
    view: dict[str, Any] = {
        "game": "eight-minute-empire",
        "players": n,
        "phase": state.phase,
        "game_no": state.game_no,
        "games": GAMES_IN_FULL if state.options["full_game"] else 1,
        "finished_scores": [[row["total"] for row in game_rows] for game_rows in state.finished],
        "options": dict(state.options),
        "layout": state.layout,
        "boards": [{"letter": letter, "x": x, "y": y} for letter, x, y in board.boards],
        "regions": regions,
        "links": [{"a": board.labels[a], "b": board.labels[b], "water": kind == WATER} for a, b, kind in board.links],
        "continents": [
            {"name": board.continent_names[i], "regions": [board.labels[r] for r in members]}
            for i, members in enumerate(board.continents)
        ],
        "continent_control": [_continent_controller(members, controls, n) for members in board.continents],
        "start": board.labels[state.start],
        "citadels": [board.labels[r] for r in state.citadels],
        "row": [
            None if cid is None else {"slot": i, "cost": ROW_COSTS[i], **cards[cid].to_view()}
            for i, cid in enumerate(state.row)
        ],
        "deck": len(state.deck),
        "target_cards": TARGET_CARDS[n],
        "neutral_left": state.neutral_left,
        "seat": state.seat if state.phase in ("neutral", "turn") else None,
        "first": state.first if state.first >= 0 else None,
        "bids": list(state.revealed) if state.revealed is not None else None,
        "seats": seats,
        "step": step,
        "scores": [
            row["total"]
            for row in scoring.score(
                state.board, n, state.armies, state.cities, state.hands, state.coins, state.explore, state.citadels
            )
        ],
        "citadel_token": CITADEL,
    }
    if seat is not None:
        view["me"] = seat
        view["my_bid"] = state.bids[seat]
    return view
