"""End-of-game scoring, as pure functions over plain lists (so the rules' examples are easy tests).

`armies[r][p]` counts the armies of party p in region r, where parties are the seats followed by the
neutral armies of a 2-player game; `cities[r][s]` counts seat s's cities. Cities count as armies for
control. The neutral party can control a region (it blocks), but it scores nothing and is not a
contender for continents, which are decided among players only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.eight_minute_empire.board import Board
from games.eight_minute_empire.cards import Card, all_cards, set_sizes

NOBODY = -1


def controller(strengths: Sequence[int]) -> int:
    """The party with strictly the most strength in a region, or NOBODY (empty or tied)."""
    best = max(strengths, default=0)  # max, count and index loop in C: views and scores ask for every region
    if best <= 0 or strengths.count(best) > 1:
        return NOBODY
    return strengths.index(best)


def region_controllers(armies: Sequence[Sequence[int]], cities: Sequence[Sequence[int]]) -> list[int]:
    out = []
    for army_row, city_row in zip(armies, cities, strict=True):
        if any(city_row):  # cities count as armies; most regions have none
            strengths = list(army_row)
            for seat, n in enumerate(city_row):
                strengths[seat] += n
            out.append(controller(strengths))
        else:
            out.append(controller(army_row))
    return out


def continent_controllers(board: Board, controllers: Sequence[int], seats: int) -> list[int]:
    """Per continent: the seat controlling strictly the most of its regions, or NOBODY."""
    out = []
    for members in board.continents:
        counts = [0] * seats
        for r in members:
            owner = controllers[r]
            if 0 <= owner < seats:
                counts[owner] += 1
        out.append(controller(counts))
    return out


def ability_points(cards: Sequence[Card], coins: int) -> int:
    """VP from the card abilities that score: per family card, per Flying card, sets, per coins."""
    families: dict[str, int] = {}
    for card in cards:
        if card.family:
            families[card.family] = families.get(card.family, 0) + 1
    flying = sum(1 for card in cards if card.has("flying"))
    points = 0
    for card in cards:
        for kind, family, n in card.abilities:
            if kind == "vp_family" and family:
                points += families.get(family, 0)
            elif kind == "vp_flying":
                points += flying
            elif kind == "vp_set" and family and families.get(family, 0) >= set_sizes()[family]:
                points += n
            elif kind == "vp_coins":
                points += coins // n
    return points


def elixir_points(elixirs: Sequence[int]) -> list[int]:
    """Most elixirs: 2 VP; tied for most: 1 VP each. Nobody scores when nobody has any."""
    most = max(elixirs, default=0)
    if most == 0:
        return [0] * len(elixirs)
    leaders = [i for i, e in enumerate(elixirs) if e == most]
    value = 2 if len(leaders) == 1 else 1
    return [value if i in leaders else 0 for i in range(len(elixirs))]


def score(
    board: Board,
    seats: int,
    armies: Sequence[Sequence[int]],
    cities: Sequence[Sequence[int]],
    hands: Sequence[Sequence[int]],
    coins: Sequence[int],
    explore: Sequence[Sequence[str]],
    citadels: Sequence[int],
    *,
    controls: Sequence[int] | None = None,
) -> list[dict[str, Any]]:
    """The full breakdown per seat; "total" is the game's victory points. `controls`: the regions'
    controllers when the caller has them already (`region_controllers` of the same armies and cities)."""
    cards = all_cards()
    if controls is None:
        controls = region_controllers(armies, cities)
    continents = continent_controllers(board, controls, seats)
    elixirs = [
        sum(cards[c].count("elixir") for c in hands[s]) + 2 * explore[s].count("Magic Spring") for s in range(seats)
    ]
    elixir_vp = elixir_points(elixirs)
    on_board = [sum(column) for column in zip(*armies, strict=True)]  # per party, in one pass
    out = []
    for s in range(seats):
        regions = controls.count(s)
        continent_vp = sum(1 for owner in continents if owner == s)
        ability_vp = ability_points([cards[c] for c in hands[s]], coins[s])
        book_vp = explore[s].count("Magic Book")
        citadel_vp = sum(1 for r in citadels if controls[r] == s)
        total = regions + continent_vp + ability_vp + elixir_vp[s] + book_vp + citadel_vp
        out.append(
            {
                "regions": regions,
                "continents": continent_vp,
                "abilities": ability_vp,
                "elixirs": elixir_vp[s],
                "elixir_count": elixirs[s],
                "magic_book": book_vp,
                "citadels": citadel_vp,
                "total": total,
                "coins": coins[s],
                "armies_on_board": on_board[s],
                "controlled_regions": regions,
            }
        )
    return out


def tie_key(row: dict[str, Any]) -> tuple[int, int, int, int, int]:
    """Higher is better: points, then the Magic Book (wins ties regardless), coins, armies, regions."""
    return (row["total"], row["magic_book"], row["coins"], row["armies_on_board"], row["controlled_regions"])
