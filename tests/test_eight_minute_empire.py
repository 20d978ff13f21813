"""Eight-Minute Empire: Legends: data, map, setup, bid, every action and ability, scoring, variants."""

from __future__ import annotations

import json
from collections import deque
from importlib import resources
from typing import Any

import pytest

import games
from games.core import IllegalAction
from games.eight_minute_empire import GAME, State
from games.eight_minute_empire.board import LAND, LAYOUTS, WATER, build
from games.eight_minute_empire.cards import ROW_COSTS, all_cards, deck_for, set_sizes
from games.eight_minute_empire.engine import COIN_SUPPLY, EXPLORE_TOKENS

CARD = {c.name: c.id for c in all_cards()}


def card_id(name: str) -> int:
    return CARD[name]


def to_turns(players: int, seed: int = 1, options: dict[str, Any] | None = None) -> State:
    """A new game past the neutral armies and the bid (everybody bids 0), at the first turn."""
    state = GAME.new(players, seed, options)
    while state.phase == "neutral":
        GAME.apply(state, state.seat, ["A1"])
    for s in range(players):
        GAME.apply(state, s, ["bid0"])
    assert state.phase == "turn"
    return state


def take(state: State, name: str, slot: int = 0) -> list[dict[str, Any]]:
    """Put the named card in `slot` of the row and take it with the acting seat."""
    state.row[slot] = card_id(name)
    state.version += 1  # the test changed the state behind the engine's back: drop cached prompts
    return GAME.apply(state, state.seat, [f"card{slot}"])


def prompt_of(state: State) -> Any:
    (prompt,) = GAME.prompts(state)
    return prompt


def region(state: State, label: str) -> int:
    return state.board.index[label]


def put(state: State, label: str, party: int, armies: int = 1, cities: int = 0) -> None:
    r = region(state, label)
    state.armies[r][party] += armies
    if cities:
        state.cities[r][party] += cities
    state.version += 1


# --- data and map --------------------------------------------------------------------------------


def test_registered_under_its_key() -> None:
    assert games.get("eight-minute-empire") is GAME


def test_deck_sizes_by_player_count() -> None:
    assert len(all_cards()) == 34
    assert [len(deck_for(n)) for n in (2, 3, 4)] == [27, 32, 34]
    names = {all_cards()[c].name for c in deck_for(3)}
    assert "Arcane Sphinx" in names and "Castle" not in names


def test_set_sizes_match_the_data_file() -> None:
    raw = json.loads(resources.files("games.eight_minute_empire").joinpath("cards.json").read_text())
    for card in raw["cards"]:
        for ability in card["abilities"]:
            if ability["kind"] == "vp_set":
                assert set_sizes()[ability["family"]] == ability["size"]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_layout_is_connected_and_has_a_valid_start(layout: str) -> None:
    board = build(layout)
    seen, todo = {0}, deque([0])
    while todo:
        for other, _ in board.neighbours[todo.popleft()]:
            if other not in seen:
                seen.add(other)
                todo.append(other)
    assert len(seen) == board.size
    assert board.start_candidates()
    assert len(set(board.labels)) == board.size
    for a, b, kind in board.links:
        same_island = board.continent_of[a] == board.continent_of[b]
        assert same_island == (kind == LAND), (board.labels[a], board.labels[b])
    for members in board.continents:  # islands of 2-4 regions, joined by land
        assert 2 <= len(members) <= 4
        reach, todo = {members[0]}, deque([members[0]])
        while todo:
            for other, kind in board.neighbours[todo.popleft()]:
                if kind == LAND and other not in reach:
                    reach.add(other)
                    todo.append(other)
        assert reach == set(members)
    per_board: dict[str, int] = {}
    for name_members in board.continents:
        letter = board.labels[name_members[0]][0]
        per_board[letter] = per_board.get(letter, 0) + 1
    assert all(2 <= n <= 3 for n in per_board.values())


def test_layouts_use_the_right_boards_and_cross_board_water() -> None:
    assert [b[0] for b in build("2x2").boards] == ["A", "B", "C", "D"]
    assert len(build("L").labels) == len(build("row").labels) == 20
    assert GAME.new(4, 1).layout == "2x2"
    assert GAME.new(3, 1).layout == "L" and GAME.new(2, 1, {"layout": "row"}).layout == "row"
    row, ell = build("row"), build("L")
    # B's east edge meets C's west edge only in a row; A's south meets C's north only in the L
    assert (row.index["B4"], row.index["C3"], WATER) in row.links
    assert not any({row.labels[a][0], row.labels[b][0]} == {"A", "C"} for a, b, _ in row.links)
    a3, c1 = sorted((ell.index["A3"], ell.index["C1"]))
    assert (a3, c1, WATER) in ell.links


def test_start_region_meets_the_rules_criteria() -> None:
    board = build("2x2")
    for seed in range(30):
        state = GAME.new(4, seed)
        start = state.start
        own_water = board.water_links(start)
        assert own_water >= 1
        assert own_water >= 2 or any(kind == LAND and board.water_links(o) >= 1 for o, kind in board.neighbours[start])
    # and a region with no water link never qualifies
    inland = [r for r in range(board.size) if board.water_links(r) == 0]
    assert inland and not any(board.qualifies_as_start(r) for r in inland)


# --- setup -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "coins"), [(2, 14), (3, 11), (4, 9)])
def test_setup(players: int, coins: int) -> None:
    state = GAME.new(players, 3)
    assert state.coins == [coins] * players
    assert state.supply + sum(state.coins) == COIN_SUPPLY
    assert len(state.row) == 6 and len(state.deck) == len(deck_for(players)) - 6
    assert [state.armies[state.start][s] for s in range(players)] == [4] * players
    assert sum(map(sum, state.armies)) == 4 * players
    assert all(GAME.supply_armies(state, s) == 14 and GAME.supply_cities(state, s) == 3 for s in range(players))
    assert state.phase == ("neutral" if players == 2 else "bid")


def test_two_players_alternately_place_ten_neutral_armies_anywhere() -> None:
    state = GAME.new(2, 5)
    seats = []
    for i in range(10):
        prompt = prompt_of(state)
        assert prompt.kind == "neutral" and len(prompt.choices) == state.board.size <= 25
        seats.append(prompt.seat)
        GAME.apply(state, prompt.seat, [prompt.choices[i % 5].id])
    assert seats == [seats[0], 1 - seats[0]] * 5
    assert sum(row[2] for row in state.armies) == 10
    assert state.phase == "bid"


def test_neutral_armies_block_control() -> None:
    state = to_turns(2)
    a1 = region(state, "A1")
    assert state.armies[a1][2] == 10  # to_turns put all ten on A1
    put(state, "A1", 0, 10)
    assert GAME.breakdown(state)[0]["regions"] == 0  # 10 vs 10 neutral: tied, nobody controls
    put(state, "A1", 0, 1)
    assert GAME.breakdown(state)[0]["regions"] >= 1


# --- bid -------------------------------------------------------------------------------------------


def test_bid_is_secret_until_everybody_has_bid_and_the_winner_pays() -> None:
    state = GAME.new(3, 9)
    prompts = GAME.prompts(state)
    assert [p.seat for p in prompts] == [0, 1, 2] and all(p.secret for p in prompts)
    assert prompts[0].choice_ids() == [f"bid{v}" for v in range(12)]
    events = GAME.apply(state, 0, ["bid5"])
    assert {"type": "bid", "to": 0, "amount": 5} in events
    public = GAME.view(state, None)
    assert public["bids"] is None and public["seats"][0]["bid_in"] and "my_bid" not in public
    assert GAME.view(state, 0)["my_bid"] == 5 and GAME.view(state, 1)["my_bid"] is None
    assert [p.seat for p in GAME.prompts(state)] == [1, 2]
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, ["bid3"])  # one bid per game
    GAME.apply(state, 1, ["bid7"])
    events = GAME.apply(state, 2, ["bid2"])
    reveal = next(e for e in events if e["type"] == "bids")
    assert reveal["bids"] == [5, 7, 2] and reveal["winner"] == 1
    assert state.coins == [11, 4, 11] and state.supply + sum(state.coins) == COIN_SUPPLY
    assert state.seat == 1 and GAME.view(state, None)["bids"] == [5, 7, 2]


@pytest.mark.parametrize("seed", range(6))
def test_tied_bids_are_settled_by_a_die_and_the_winner_pays(seed: int) -> None:
    state = GAME.new(4, seed)
    for s, bid in enumerate([3, 1, 3, 0]):
        GAME.apply(state, s, [f"bid{bid}"])
    assert state.first in (0, 2)
    assert state.coins[state.first] == 6 and state.coins[2 - state.first] == 9


def test_die_roll_ties_reach_every_tied_seat_and_first_seat_option() -> None:
    winners = set()
    for seed in range(40):
        state = to_turns(3, seed)  # all-zero bids: a die roll among everybody
        winners.add(state.first)
    assert winners == {0, 1, 2}
    state = GAME.new(3, 1, {"bid_tie": "first-seat"})
    for s, bid in enumerate([0, 2, 2]):
        GAME.apply(state, s, [f"bid{bid}"])
    assert state.first == 1


# --- taking cards ----------------------------------------------------------------------------------


def test_card_costs_slide_and_refill() -> None:
    state = to_turns(4, 2)
    seat = state.seat
    row_before = list(state.row)
    deck_top = state.deck[-1]
    prompt = prompt_of(state)
    assert prompt.kind == "card" and prompt.choice_ids() == [f"card{i}" for i in range(6)]
    GAME.apply(state, seat, ["card3"])
    assert state.coins[seat] == 9 - ROW_COSTS[3] == 7
    assert state.hands[seat] == [row_before[3]]
    while state.step is not None:  # skip the action
        p = prompt_of(state)
        GAME.apply(state, seat, ["done" if "done" in p.choice_ids() else "skip"])
    assert state.row == [*row_before[:3], *row_before[4:], deck_top]
    assert state.seat == (seat + 1) % 4


def test_cards_you_cannot_afford_are_not_offered() -> None:
    state = to_turns(4, 2)
    state.coins[state.seat] = 1
    state.version += 1
    assert prompt_of(state).choice_ids() == ["card0", "card1", "card2"]
    before = GAME.to_json(state)
    with pytest.raises(IllegalAction, match="not one of the choices"):
        GAME.apply(state, state.seat, ["card5"])
    with pytest.raises(IllegalAction, match="not your turn"):
        GAME.apply(state, (state.seat + 1) % 4, ["card0"])
    assert GAME.to_json(state) == before


# --- actions and abilities -------------------------------------------------------------------------


def test_place_only_on_start_or_own_city_regions() -> None:
    state = to_turns(3, 4)
    seat = state.seat
    put(state, "B2", seat, 1, cities=1)
    put(state, "C4", (seat + 1) % 3, 1, cities=1)
    take(state, "Graveyard")  # Place 2
    prompt = prompt_of(state)
    start = state.board.labels[state.start]
    assert prompt.kind == "place" and set(prompt.choice_ids()) == {start, "B2", "done"}
    GAME.apply(state, seat, ["B2"])
    GAME.apply(state, seat, [start])
    assert state.armies[region(state, "B2")][seat] == 2 and state.armies[state.start][seat] == 5
    assert state.step is None  # two placed: the turn ended


def test_plus_one_army_applies_to_the_cards_own_action() -> None:
    state = to_turns(3, 4)
    seat = state.seat
    start = state.board.labels[state.start]
    take(state, "Ancient Woods")  # +1 Army; Build city AND Place 1
    assert prompt_of(state).kind == "city"
    GAME.apply(state, seat, ["skip"])
    prompt = prompt_of(state)
    assert prompt.kind == "place" and prompt.info["left"] == 2
    GAME.apply(state, seat, [start])
    GAME.apply(state, seat, [start])
    assert state.armies[state.start][seat] == 6 and state.step is None


def test_placing_stops_when_the_supply_is_empty() -> None:
    state = to_turns(3, 4)
    seat = state.seat
    put(state, "B1", seat, 13)  # 4 on start + 13 = 17 of 18
    take(state, "Dire Eye")  # Place 4
    GAME.apply(state, seat, [state.board.labels[state.start]])
    assert GAME.supply_armies(state, seat) == 0 and state.step is None


def movement_state(flying_cards: int = 0) -> tuple[State, int]:
    state = to_turns(4, 6)
    seat = state.seat
    for s in range(4):
        state.armies[state.start][s] = 0
    for i in range(flying_cards):
        state.hands[seat].append(card_id(["Ancient Phoenix", "Cursed Gargoyles", "Dire Eye"][i]))
    put(state, "A1", seat, 2)
    return state, seat


def test_movement_example_one_army_three_times_on_land() -> None:
    # "this action shows 3 armies, so you could move one army up to 3 times"
    state, seat = movement_state()
    take(state, "Ancient Sage")  # Move 3
    for src, dst in [("A1", "A2"), ("A2", "A3"), ("A3", "A1")]:
        assert prompt_of(state).kind == "move_from"
        GAME.apply(state, seat, [src])
        assert prompt_of(state).kind == "move_to"
        GAME.apply(state, seat, [dst])
    assert state.step is None and state.armies[region(state, "A1")][seat] == 2


def test_movement_example_three_armies_once_each() -> None:
    state, seat = movement_state()
    put(state, "A3", seat, 1)
    take(state, "Ancient Sage")  # Move 3
    labels = {c.id: c.label for c in prompt_of(state).choices}
    assert labels["A1"] == "A1 Aldmoor · 2 of yours" and labels["A3"] == "A3 Aldmoor · 1 of yours"
    for src, dst in [("A1", "A2"), ("A1", "A2"), ("A3", "A2")]:
        GAME.apply(state, seat, [src])
        GAME.apply(state, seat, [dst])
    assert state.armies[region(state, "A2")][seat] == 3 and state.step is None


def test_water_costs_three_and_flying_reduces_it_to_a_minimum_of_one() -> None:
    state, seat = movement_state()
    take(state, "Dire Ogre")  # Move 2: A2 -> A4 by water (3) is out of reach
    GAME.apply(state, seat, ["A1"])
    GAME.apply(state, seat, ["A2"])
    GAME.apply(state, seat, ["A2"])
    assert "A4" not in prompt_of(state).choice_ids()
    assert GAME.water_cost(state, seat) == 3
    state, seat = movement_state(flying_cards=1)
    assert GAME.water_cost(state, seat) == 2
    state, seat = movement_state(flying_cards=3)
    assert GAME.water_cost(state, seat) == 1
    state, seat = movement_state(flying_cards=2)
    assert GAME.water_cost(state, seat) == 1
    take(state, "Dire Ogre")  # Move 2, water now costs 1: A1 -> A2 (land) -> A4 (water)
    GAME.apply(state, seat, ["A1"])
    GAME.apply(state, seat, ["A2"])
    GAME.apply(state, seat, ["A2"])
    prompt = prompt_of(state)
    assert "A4" in prompt.choice_ids() and "water, 1" in next(c.label for c in prompt.choices if c.id == "A4")
    GAME.apply(state, seat, ["A4"])
    assert state.armies[region(state, "A4")][seat] == 1 and state.step is None


def test_flying_on_the_taken_card_applies_at_once_and_plus_one_move() -> None:
    state, seat = movement_state()
    take(state, "Ancient Phoenix")  # Flying, Move 5: water costs 2 already
    assert prompt_of(state).info["left"] == 5 and GAME.water_cost(state, seat) == 2
    state, seat = movement_state()
    take(state, "Noble Unicorn")  # +1 Move; Move 4 AND Place 1
    assert prompt_of(state).info["left"] == 5


def test_back_returns_to_the_source_choice_and_done_ends_the_move() -> None:
    state, seat = movement_state()
    take(state, "Ancient Sage")
    GAME.apply(state, seat, ["A1"])
    GAME.apply(state, seat, ["back"])
    assert prompt_of(state).kind == "move_from" and prompt_of(state).info["left"] == 3
    GAME.apply(state, seat, ["done"])
    assert state.step is None


def test_build_city_where_you_have_an_army_and_cities_count_for_control() -> None:
    state = to_turns(3, 8)
    seat = state.seat
    put(state, "C2", seat, 1)
    take(state, "Night Village")  # +1 Army; Build city
    prompt = prompt_of(state)
    assert set(prompt.choice_ids()) == {state.board.labels[state.start], "C2", "skip"}
    GAME.apply(state, seat, ["C2"])
    assert state.cities[region(state, "C2")][seat] == 1 and GAME.supply_cities(state, seat) == 2
    other = (seat + 1) % 3
    put(state, "C2", other, 2)  # 1 army + 1 city vs 2 armies: tied
    controls = GAME.view(state, None)["regions"][region(state, "C2")]["control"]
    assert controls is None


def test_destroy_needs_an_army_there_and_dire_giant_is_immune() -> None:
    state = to_turns(3, 8)
    seat = state.seat
    a, b = (seat + 1) % 3, (seat + 2) % 3
    state.hands[b].append(card_id("Dire Giant"))
    put(state, "C3", a, 2)  # nobody of ours there: not a target
    take(state, "Night Wizard")  # Place 3 AND Destroy 1: in that order
    start = state.board.labels[state.start]
    for _ in range(3):
        assert prompt_of(state).kind == "place"
        GAME.apply(state, seat, [start])
    prompt = prompt_of(state)
    assert prompt.kind == "destroy"
    assert set(prompt.choice_ids()) == {f"{start}p{a + 1}", "skip"}  # b owns the Dire Giant
    GAME.apply(state, seat, [f"{start}p{a + 1}"])
    assert state.armies[state.start][a] == 3 and GAME.supply_armies(state, a) == 18 - 3 - 2
    assert state.step is None


def test_and_parts_may_be_skipped_and_or_is_a_choice() -> None:
    state = to_turns(4, 1)
    seat = state.seat
    take(state, "Cursed King")  # Place 3 OR Move 4
    prompt = prompt_of(state)
    assert prompt.kind == "branch" and prompt.choice_ids() == ["or0", "or1", "skip"]
    GAME.apply(state, seat, ["or1"])
    assert prompt_of(state).kind == "move_from" and prompt_of(state).info["left"] == 4
    GAME.apply(state, seat, ["done"])
    seat = state.seat
    take(state, "Noble Knight")  # Place 4 AND Destroy 1
    GAME.apply(state, seat, ["done"])
    assert prompt_of(state).kind == "destroy"  # skipping the first part leads to the second
    GAME.apply(state, seat, ["skip"])
    assert state.seat != seat


def test_gain_coins_and_hidden_treasure_are_immediate() -> None:
    state = to_turns(3, 2, {"explore": True})
    seat = state.seat
    before = state.coins[seat]
    take(state, "Mountain Treasury", slot=2)
    assert state.coins[seat] == before - 1 + 2
    treasure = next(r for r, t in state.tokens.items() if t == "Hidden Treasure")
    state.armies[treasure][seat] += 1
    GAME.apply(state, seat, ["done"])
    seat2 = state.seat
    state.armies[treasure][seat2] += 1
    coins = state.coins[seat2]
    take(state, "Cursed Tower")
    GAME.apply(state, seat2, [state.board.labels[treasure]])
    assert state.explore[seat2] == ["Hidden Treasure"] and state.coins[seat2] == coins + 1
    assert treasure not in state.tokens
    assert state.supply + sum(state.coins) == COIN_SUPPLY


def test_explore_tokens_six_placed_and_cottage_stable_apply() -> None:
    state = to_turns(4, 11, {"explore": True, "citadels": True})
    names = sorted(t for t in state.tokens.values() if t != "Citadel")
    assert names == sorted(EXPLORE_TOKENS)
    assert len(state.citadels) == 3 and state.start not in state.tokens
    seat = state.seat
    state.explore[seat] += ["Cottage", "Stable"]
    take(state, "Graveyard")  # Place 2 (+1 Cottage)
    assert prompt_of(state).info["left"] == 3
    GAME.apply(state, seat, ["done"])
    seat = state.seat
    state.explore[seat] += ["Stable"]
    take(state, "Dire Ogre")  # Move 2 (+1 Stable)
    assert prompt_of(state).info["left"] == 3


# --- scoring ---------------------------------------------------------------------------------------


def hand(*names: str) -> list[int]:
    return [card_id(n) for n in names]


def test_ability_example_plus_one_vp_per_cursed_card() -> None:
    from games.eight_minute_empire.scoring import ability_points

    cards = all_cards()
    # the rules: "+1 VP per cursed card" with four Cursed cards scores 4
    four = [cards[c] for c in hand("Graveyard", "Cursed King", "Cursed Banshee", "Cursed Tower", "Cursed Mausoleum")]
    assert ability_points(four, 0) == 4
    assert ability_points([cards[c] for c in hand("Ancient Sage", "Ancient Woods")], 0) == 2
    assert ability_points([cards[c] for c in hand("Cursed Tower", "Dire Eye", "Ancient Phoenix")], 0) == 2
    assert ability_points([cards[c] for c in hand("Noble Hills", "Noble Knight")], 0) == 0
    assert ability_points([cards[c] for c in hand("Noble Hills", "Noble Knight", "Noble Unicorn")], 0) == 4
    assert ability_points([cards[c] for c in hand("Mountain Dwarf", "Mountain Treasury")], 0) == 3
    assert ability_points([cards[c] for c in hand("Dire Ogre")], 7) == 3
    assert ability_points([cards[c] for c in hand("Stronghold", "Dire Ogre", "Dire Eye")], 0) == 2


def test_elixirs_most_two_tied_one_none_zero() -> None:
    from games.eight_minute_empire.scoring import elixir_points

    assert elixir_points([3, 1, 0]) == [2, 0, 0]
    assert elixir_points([2, 2, 1]) == [1, 1, 0]
    assert elixir_points([0, 0]) == [0, 0]


def test_regions_and_continents() -> None:
    state = to_turns(3, 1)
    for s in range(3):
        state.armies[state.start][s] = 0
    put(state, "A1", 0, 2)
    put(state, "A2", 0, 1)
    put(state, "A3", 1, 1, cities=1)
    put(state, "A4", 1, 1)
    put(state, "A5", 2, 1)  # Brisk: P2 1 region, P3 1 region: tied, no continent
    put(state, "B1", 2, 1)
    put(state, "B1", 0, 1)  # tied region: nobody
    rows = GAME.breakdown(state)
    assert [r["regions"] for r in rows] == [2, 2, 1]
    assert [r["continents"] for r in rows] == [1, 0, 0]  # Aldmoor 2-1 to P1


def test_citadels_and_magic_book_score_and_the_book_wins_ties() -> None:
    from games.eight_minute_empire.scoring import tie_key

    state = to_turns(2, 1, {"citadels": True})
    for s in range(2):
        state.armies[state.start][s] = 0
    for r in range(state.board.size):
        state.armies[r][2] = 0
    cit = state.citadels[0]
    state.armies[cit][0] = 1
    state.explore[1].append("Magic Book")
    rows = GAME.breakdown(state)
    assert rows[0]["citadels"] == 1 and rows[0]["regions"] == 1
    assert rows[1]["magic_book"] == 1
    a = {**rows[0], "total": 5, "coins": 9}
    b = {**rows[1], "total": 5, "coins": 0}
    assert tie_key(b) > tie_key(a)


def play_random(state: State, seed: int) -> None:
    from games.ai import RandomPlayer, play_out

    play_out(GAME, state, [RandomPlayer(seed + s) for s in range(state.players)])


def test_tie_breaks_coins_then_armies_then_regions() -> None:
    state = GAME.new(2, 4)
    play_random(state, 4)
    rows = state.finished[-1]
    for r in rows:
        r.update(total=10, magic_book=0, coins=3, armies_on_board=5, controlled_regions=2)
    rows[1]["controlled_regions"] = 3
    assert GAME.outcome(state)["winners"] == [1]  # type: ignore[index]
    rows[0]["armies_on_board"] = 6
    assert GAME.outcome(state)["winners"] == [0]  # type: ignore[index]
    rows[1]["coins"] = 4
    result = GAME.outcome(state)
    assert result is not None and result["winners"] == [1] and result["ranking"] == [2, 1]
    rows[0].update(coins=4, armies_on_board=5, controlled_regions=3)
    assert GAME.outcome(state)["winners"] == [0, 1]  # type: ignore[index]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_game_ends_when_every_player_has_the_card_count(players: int) -> None:
    state = GAME.new(players, 21)
    play_random(state, 21)
    assert [len(h) for h in state.hands] == [{2: 13, 3: 10, 4: 8}[players]] * players
    result = GAME.outcome(state)
    assert result is not None and len(result["breakdown"]) == players
    row = result["breakdown"][0]
    assert row["total"] == sum(
        row[k] for k in ("regions", "continents", "abilities", "elixirs", "magic_book", "citadels")
    )
    assert result["scores"] == [r["total"] for r in result["breakdown"]]


def test_full_game_is_three_games_summed() -> None:
    state = GAME.new(3, 5, {"full_game": True, "explore": True})
    seen_games = set()
    from games.ai import RandomPlayer

    players = [RandomPlayer(s) for s in range(3)]
    while prompts := GAME.prompts(state):
        seen_games.add(state.game_no)
        for p in prompts:
            events = GAME.apply(state, p.seat, players[p.seat].choose(GAME, state, p))
            if any(e["type"] == "new_game" for e in events):
                assert state.phase == "bid" and state.coins == [11] * 3 and all(not h for h in state.hands)
    assert seen_games == {1, 2, 3} and len(state.finished) == 3
    result = GAME.outcome(state)
    assert result is not None
    assert result["scores"] == [sum(g[s]["total"] for g in state.finished) for s in range(3)]
    assert result["breakdown"][0]["games"] == [g[0]["total"] for g in state.finished]


def test_prompts_stay_within_a_discord_select() -> None:
    for seed in range(10):
        state = GAME.new(4, seed)
        from games.ai import RandomPlayer

        players = [RandomPlayer(seed * 7 + s) for s in range(4)]
        while prompts := GAME.prompts(state):
            for p in prompts:
                assert len(p.choices) <= 25, (p.kind, len(p.choices))
                assert p.text
                GAME.apply(state, p.seat, players[p.seat].choose(GAME, state, p))


def test_only_the_bid_event_is_private() -> None:
    """An event with a "to" key is private to that seat (the contract): only a seat's own bid is."""
    state = GAME.new(2, 30, {"explore": True})
    from games.ai import RandomPlayer

    bots = [RandomPlayer(1), RandomPlayer(2)]
    kinds = set()
    while prompts := GAME.prompts(state):
        for p in prompts:
            for event in GAME.apply(state, p.seat, bots[p.seat].choose(GAME, state, p)):
                kinds.add(event["type"])
                assert ("to" in event) == (event["type"] == "bid"), event
                if "to" in event:
                    assert event["to"] == p.seat
    assert {"move", "place", "take", "bids"} <= kinds


def test_many_destroy_targets_are_split_into_region_then_army() -> None:
    state = to_turns(4, 3)
    seat = state.seat
    others = [s for s in range(4) if s != seat]
    labels = [label for label in state.board.labels if label != state.board.labels[state.start]][:9]
    for label in labels:  # 9 regions x 3 opponents + the start's 3 = 30 targets: too many for one select
        put(state, label, seat, 1)
        for o in others:
            put(state, label, o, 1)
    take(state, "Night Hydra")  # Move 5 AND Destroy 1
    GAME.apply(state, seat, ["done"])
    prompt = prompt_of(state)
    assert prompt.kind == "destroy_region" and len(prompt.choices) <= 25
    GAME.apply(state, seat, [labels[0]])
    prompt = prompt_of(state)
    assert prompt.kind == "destroy" and prompt.choice_ids() == [f"{labels[0]}p{o + 1}" for o in others] + ["skip"]
    GAME.apply(state, seat, [f"{labels[0]}p{others[1] + 1}"])
    assert state.armies[region(state, labels[0])][others[1]] == 0 and state.step is None


def test_magic_spring_counts_two_elixirs_and_the_magic_book_wins_a_tied_game() -> None:
    state = GAME.new(2, 4, {"explore": True})
    play_random(state, 4)
    last = state.finished[-1]
    for row in last:
        row.update(total=9, coins=2, armies_on_board=5, controlled_regions=2, magic_book=0)
    last[0].update(coins=8, armies_on_board=9)  # seat 0 would win every other tie-break
    last[1]["magic_book"] = 1
    result = GAME.outcome(state)
    assert result is not None and result["winners"] == [1]
    # Magic Spring: 2 elixirs, which makes its holder the elixir leader
    fresh = to_turns(3, 2, {"explore": True})
    fresh.explore[1].append("Magic Spring")
    fresh.hands[0].append(card_id("Dire Goblin"))  # 1 elixir
    rows = GAME.breakdown(fresh)
    assert [r["elixir_count"] for r in rows] == [1, 2, 0] and [r["elixirs"] for r in rows] == [0, 2, 0]
