"""Eggs and Empires, rule by rule: the rulebook's worked examples, every ability, setup, variants."""

from __future__ import annotations

from collections import Counter

import pytest

import games
from games import IllegalAction
from games.ai import RandomPlayer, play_out
from games.eggs_empires import rules
from games.eggs_empires.engine import FACE_UP, EggsState
from games.eggs_empires.rules import (
    BARD,
    BLACKSMITH,
    COURIER,
    DARK_PRIESTESS,
    HERO,
    MAGE,
    MERCHANT,
    PRIEST,
    SCOUT,
    SHEPHERD,
    collection_order,
)

GAME = games.get("eggs-empires")


# --- scenario helpers ------------------------------------------------------------------------
def take_egg(state: EggsState, value: int) -> int:
    """Remove an egg of this value from the egg deck (keeping every egg in exactly one place)."""
    egg = next(e for e in state.egg_deck if rules.EGG_VALUES[e] == value)
    state.egg_deck.remove(egg)
    return egg


def scenario(
    players: int,
    hands: list[list[int]],
    offer: list[int],
    tiebreaker: int = 0,
    face_down: dict[int, int] | None = None,
    options: dict[str, str] | None = None,
    seed: int = 1,
) -> EggsState:
    """A game in its play phase with the given hands and eggs on offer.

    `face_down` maps an egg value to the seat that scouted it. Cards are moved between hand and deck
    so every seat still owns exactly its Empire deck."""
    state = GAME.new(players, seed, options)
    for seat in range(players):
        GAME.apply(state, seat, ["keep"])
    assert state.phase == "play"
    state.egg_deck.extend(e for e, _ in state.offer)
    state.offer = []
    for value in offer:
        state.offer.append([take_egg(state, value), FACE_UP])
    for value, scout in (face_down or {}).items():
        state.offer.append([take_egg(state, value), scout])
    for seat, hand in enumerate(hands):
        cards = state.hands[seat] + state.decks[seat]
        for card in hand:
            cards.remove(card)
        state.hands[seat] = sorted(hand)
        state.decks[seat] = cards
    state.tiebreaker = tiebreaker
    return state


def play(state: EggsState, plays: list[list[int]]) -> list[dict]:
    events: list[dict] = []
    for seat, cards in enumerate(plays):
        events += GAME.apply(state, seat, [str(c) for c in cards])
    return events


def pile(state: EggsState, seat: int) -> list[int]:
    return sorted(rules.EGG_VALUES[e] for e in state.piles[seat])


def egg_choice(state: EggsState, seat: int, value: int | None) -> str:
    """The choice id of a face-up egg of that value (or of the face-down egg when value is None)."""
    prompt = GAME.prompts(state)[0]
    assert prompt.seat == seat and prompt.kind == "egg"
    for c in prompt.choices:
        face_down = c.data.get("face_down")
        if (value is None and face_down) or (value is not None and not face_down and c.data.get("value") == value):
            return c.id
    raise AssertionError(f"no egg {value} in {prompt.choices}")


def collect(state: EggsState, seat: int, value: int | None) -> list[dict]:
    return GAME.apply(state, seat, [egg_choice(state, seat, value)])


def where_eggs_are(state: EggsState) -> Counter[int]:
    places = state.egg_deck + state.egg_discard + [e for e, _ in state.offer]
    for p in state.piles:
        places += p
    return Counter(places)


# --- the rulebook's worked examples ----------------------------------------------------------
def test_collection_order_of_the_six_player_example() -> None:
    # Two Heroes, two Dark Priestesses, a Mage and a Bard; the Tie-Breaker is with seat 2.
    plays = [[HERO], [DARK_PRIESTESS], [MAGE], [HERO], [DARK_PRIESTESS], [BARD]]
    order, tie = collection_order(plays, tiebreaker=2)
    assert order == [(3, HERO), (0, HERO), (2, MAGE), (5, BARD)]  # seat 3 is closest to the marker
    assert tie


def test_six_player_example() -> None:
    state = scenario(
        6,
        [[HERO, 1, 2], [DARK_PRIESTESS, 1, 2], [MAGE, 1, 2], [HERO, 1, 2], [DARK_PRIESTESS, 1, 2], [BARD, 2, 3]],
        offer=[13, 10, -6, -8],
        tiebreaker=2,
    )
    events = play(state, [[HERO], [DARK_PRIESTESS], [MAGE], [HERO], [DARK_PRIESTESS], [BARD]])
    reveal = next(e for e in events if e["type"] == "reveal")
    assert reveal["plays"] == [[HERO], [DARK_PRIESTESS], [MAGE], [HERO], [DARK_PRIESTESS], [BARD]]
    shown = GAME.view(state, None)["reveal"]
    assert [(e["seat"], e["card"], e["status"]) for e in shown["order"]] == [
        (3, HERO, "now"),
        (0, HERO, "waiting"),
        (2, MAGE, "waiting"),
        (5, BARD, "waiting"),
    ]
    assert shown["cancelled"] == [1, 4] and (shown["round"], shown["turn"]) == (1, 1)
    collect(state, 3, 13)  # the Hero closest to the Tie-Breaker Marker selects first
    collect(state, 0, 10)  # the next Hero
    # The Dark Priestesses cancel; the Mage does not collect face-up Exploding eggs; the Bard must.
    events = collect(state, 5, -6)
    assert pile(state, 3) == [13] and pile(state, 0) == [10] and pile(state, 5) == [-6]
    assert pile(state, 1) == pile(state, 2) == pile(state, 4) == []
    assert any(e["type"] == "unclaimed" and e["eggs"] == [-8] for e in events)  # the -8 is discarded
    assert state.tiebreaker == 3  # the Heroes tied, so the marker passes left
    assert state.phase == "play" and state.turn == 2
    # the next turn's views still show this reveal, with what each collector took
    shown = GAME.view(state, 2)["reveal"]
    assert [(e["seat"], e["status"], e["egg"]) for e in shown["order"]] == [
        (3, "took", 13),
        (0, "took", 10),
        (2, "nothing", None),
        (5, "took", -6),
    ]
    assert (shown["round"], shown["turn"]) == (1, 1)


def test_a_state_saved_before_views_showed_the_last_reveal_still_loads() -> None:
    state = scenario(3, [[HERO, 1, 2], [MAGE, 1, 2], [BARD, 2, 3]], offer=[5, -2])
    play(state, [[HERO], [MAGE], [BARD]])
    saved = GAME.to_json(state)
    for key in ("revealed", "order", "revealed_at"):
        del saved[key]
    old = GAME.from_json(saved)
    assert GAME.view(old, None)["reveal"] is None
    assert GAME.view(GAME.from_json(GAME.to_json(state)), None)["reveal"] == GAME.view(state, None)["reveal"]


def test_two_player_example() -> None:
    state = scenario(2, [[HERO, BLACKSMITH, 1, 2], [BLACKSMITH, SHEPHERD, 1, 2]], offer=[13, -6])
    deck_sizes = [len(d) for d in state.decks]
    play(state, [[HERO, BLACKSMITH], [BLACKSMITH, SHEPHERD]])
    collect(state, 0, 13)  # the Hero selects first
    # the Shepherd selects ahead of the Blacksmiths and must take the -6 (it is the only egg left)
    assert pile(state, 0) == [13] and pile(state, 1) == [-6]
    # neither Blacksmith captured an egg: both go to their owners' scoring piles
    assert state.bonus == [[BLACKSMITH], [BLACKSMITH]]
    assert [len(h) for h in state.hands] == [4, 4]  # both draw back up to four
    assert [len(d) for d in state.decks] == [s - 2 for s in deck_sizes]


# --- setup ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "deck", "per_turn"), [(2, 26, 2), (3, 26, 2), (4, 26, 2), (5, 34, 3), (6, 42, 4)])
def test_egg_deck_and_reveal_per_player_count(players: int, deck: int, per_turn: int) -> None:
    assert len(rules.egg_deck(players)) == deck
    state = GAME.new(players, 3)
    assert len(state.offer) == per_turn and len(state.egg_deck) == deck - per_turn
    assert all(scout == FACE_UP for _, scout in state.offer)
    size = 4 if players == 2 else 3
    assert all(len(h) == size for h in state.hands)
    assert all(len(h) + len(d) == (20 if players == 2 else 10) for h, d in zip(state.hands, state.decks, strict=True))
    assert 0 <= state.tiebreaker < players


def test_the_stand_in_egg_deck_matches_game_data() -> None:
    assert len(rules.EGG_VALUES) == 42
    assert sorted(rules.EGG_VALUES[e] for e in rules.egg_deck(4)) == sorted(
        [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 9, 10, 11, 12, 13, -2, -2, -4, -4, -6, -8]
    )
    five = Counter(rules.EGG_VALUES[e] for e in rules.egg_deck(5)) - Counter(
        rules.EGG_VALUES[e] for e in rules.egg_deck(4)
    )
    assert sorted(five.elements()) == [-7, -5, -3, 3, 5, 7, 9, 11]


def test_two_players_hold_two_decks_and_play_two_different_cards() -> None:
    state = scenario(2, [[5, 5, 7, 9], [1, 2, 3, 4]], offer=[3, 4])
    assert Counter(state.hands[0] + state.decks[0]) == Counter(list(range(1, 11)) * 2)
    prompt = next(p for p in GAME.prompts(state) if p.seat == 0)
    assert prompt.pick == 2 and [c.id for c in prompt.choices] == ["5", "7", "9"]
    before = GAME.to_json(state)
    with pytest.raises(IllegalAction, match="different"):
        GAME.apply(state, 0, ["5", "5"])  # may NOT play the same two Empire Cards
    with pytest.raises(IllegalAction, match="exactly 2"):
        GAME.apply(state, 0, ["5"])
    assert GAME.to_json(state) == before


# --- the mulligan -----------------------------------------------------------------------------
def test_mulligan_redraws_once_per_round_and_returns_the_old_hand_to_the_deck() -> None:
    state = GAME.new(4, 11)
    assert {p.kind for p in GAME.prompts(state)} == {"mulligan"}
    old_hand = list(state.hands[0])
    full = Counter(state.hands[0] + state.decks[0])
    events = GAME.apply(state, 0, ["redraw"])
    assert events == [{"type": "decided", "seat": 0}]  # nobody learns the decision before all decide
    assert state.hands[0] == old_hand  # resolved only when everybody has decided
    for seat in (1, 2, 3):
        events = GAME.apply(state, seat, ["keep"])
    assert {"type": "mulligan", "redrew": [0]} in events
    assert Counter(state.hands[0] + state.decks[0]) == full and len(state.hands[0]) == 3
    assert state.hands[0] == sorted(state.hands[0])
    assert state.phase == "play" and all(p.kind == "play" for p in GAME.prompts(state))
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, ["redraw"])  # once per round


def test_every_round_starts_with_a_mulligan() -> None:
    state = GAME.new(3, 5)
    rounds_with_mulligan = set()
    players = [RandomPlayer(s) for s in range(3)]
    while prompts := GAME.prompts(state):
        if prompts[0].kind == "mulligan":
            rounds_with_mulligan.add(state.round)
        for p in prompts:
            GAME.apply(state, p.seat, players[p.seat].choose(GAME, state, p))
    assert rounds_with_mulligan == {1, 2, 3}


# --- abilities --------------------------------------------------------------------------------
def test_bard_and_hero_have_no_ability_highest_collects_first() -> None:
    state = scenario(3, [[HERO, 1, 2], [BARD, 3, 4], [5, 6, 7]], offer=[8, 2])
    play(state, [[HERO], [BARD], [5]])
    collect(state, 0, 8)  # Hero chooses first between the 8 and the 2
    assert pile(state, 0) == [8] and pile(state, 2) == [2] and pile(state, 1) == []  # Bard: none left


def test_scout_sees_its_face_down_egg_alone_and_it_joins_the_next_turn() -> None:
    state = scenario(3, [[SCOUT, 1, 3], [SCOUT, 4, 5], [HERO, 6, 7]], offer=[5, 6], tiebreaker=1)
    top_two = [rules.EGG_VALUES[e] for e in state.egg_deck[-2:]]
    events = play(state, [[SCOUT], [SCOUT], [HERO]])
    events += collect(state, 2, 6)
    # scouts act in player order from the Tie-Breaker holder: seat 1 takes the top egg, then seat 0
    assert [e["seat"] for e in events if e["type"] == "scout"] == [1, 0]
    assert [(e["to"], e["value"]) for e in events if e["type"] == "scouted"] == [(1, top_two[1]), (0, top_two[0])]
    assert len(state.offer) == 2 + 2  # two face-down eggs plus two revealed as normal
    face_down = [(rules.EGG_VALUES[e], s) for e, s in state.offer if s != FACE_UP]
    assert face_down == [(top_two[1], 1), (top_two[0], 0)]
    public = GAME.view(state, None)
    assert [o["value"] for o in public["offer"] if o["face_down"]] == [None, None]
    mine = GAME.view(state, 0)
    assert [o["value"] for o in mine["offer"] if o["face_down"]] == [None, top_two[0]]
    assert mine["scouted"] == [{"slot": 1, "value": top_two[0]}]
    assert GAME.view(state, 2)["scouted"] == []


def test_scout_events_are_private_and_collected_face_down_eggs_are_revealed() -> None:
    state = scenario(3, [[SCOUT, 1, 3], [HERO, 5, 6], [7, 8, 9]], offer=[5, 6])
    events = play(state, [[SCOUT], [5], [9]])
    events += collect(state, 2, 6)
    scouted = [e for e in events if e["type"] == "scouted"]
    assert len(scouted) == 1 and scouted[0]["to"] == 0
    assert {"type": "scout", "seat": 0} in events
    # next turn the Hero collects first and picks the face-down egg: its value becomes public
    events = play(state, [[min(state.hands[0])], [HERO], [min(state.hands[2])]])
    events += collect(state, 1, None)
    taken = next(e for e in events if e["type"] == "collect" and e["seat"] == 1)
    assert taken["face_down"] and taken["value"] == scouted[0]["value"]
    assert "to" not in taken


def test_no_scouting_after_the_last_turn_of_a_round() -> None:
    state = scenario(3, [[SCOUT, 1, 3], [4, 5, 6], [7, 8, 9]], offer=[5, 6])
    state.turn = rules.TURNS_PER_ROUND
    events = play(state, [[SCOUT], [5], [9]])
    events += collect(state, 2, 6)
    assert not any(e["type"] in ("scout", "scouted") for e in events)
    assert state.round == 2 and state.phase == "mulligan"


def test_shepherd_collects_before_blacksmith() -> None:
    assert collection_order([[BLACKSMITH], [SHEPHERD], [MAGE]], 0) == (
        [(1, SHEPHERD), (0, BLACKSMITH), (2, MAGE)],
        False,
    )
    assert collection_order([[HERO], [BLACKSMITH], [SHEPHERD], [7]], 0)[0] == [
        (0, HERO),
        (2, SHEPHERD),
        (1, BLACKSMITH),
        (3, 7),
    ]
    assert collection_order([[SHEPHERD], [MAGE]], 0)[0] == [(1, MAGE), (0, SHEPHERD)]  # no Blacksmith


def test_courier_may_give_its_egg_to_another_player() -> None:
    state = scenario(3, [[COURIER, 1, 2], [3, 5, 6], [7, 8, 9]], offer=[-8, 4], tiebreaker=0)
    play(state, [[COURIER], [3], [MAGE]])
    # the Mage (7) takes the +4 (never the face-up -8); the Courier must take the -8
    assert pile(state, 2) == [4] and pile(state, 0) == [-8]
    prompt = GAME.prompts(state)[0]
    assert prompt.kind == "courier" and prompt.seat == 0
    assert [c.id for c in prompt.choices] == ["keep", "give1", "give2"]
    events = GAME.apply(state, 0, ["give2"])
    assert {"type": "courier", "seat": 0, "to_seat": 2, "value": -8} in events
    assert pile(state, 0) == [] and pile(state, 2) == [-8, 4]


def test_courier_without_an_egg_has_nothing_to_give() -> None:
    state = scenario(3, [[COURIER, 1, 2], [9, 5, 6], [10, 8, 3]], offer=[3, 4])
    play(state, [[COURIER], [9], [10]])
    collect(state, 2, 4)
    assert pile(state, 0) == [] and state.phase == "play" and state.turn == 2


def test_merchant_scores_six_only_when_it_collected_nothing() -> None:
    state = scenario(3, [[MERCHANT, 1, 2], [9, 3, 6], [10, 8, 4]], offer=[3, 4])
    play(state, [[MERCHANT], [9], [10]])
    collect(state, 2, 4)
    assert state.bonus[0] == [MERCHANT] and MERCHANT not in state.discards[0]
    state2 = scenario(3, [[MERCHANT, 1, 2], [9, 3, 6], [10, 8, 4]], offer=[3, 4])
    play(state2, [[MERCHANT], [3], [10]])
    collect(state2, 2, 4)
    assert state2.bonus[0] == [] and MERCHANT in state2.discards[0] and pile(state2, 0) == [3]


def test_priest_may_discard_any_of_its_collected_eggs() -> None:
    state = scenario(3, [[PRIEST, 1, 2], [9, 3, 5], [10, 8, 4]], offer=[-6, 4])
    state.piles[0].append(take_egg(state, -8))  # collected on an earlier turn
    play(state, [[PRIEST], [3], [10]])
    collect(state, 2, 4)
    assert pile(state, 0) == [-8, -6]
    prompt = GAME.prompts(state)[0]
    assert prompt.kind == "priest" and [c.id for c in prompt.choices] == ["keep", "discard-8", "discard-6"]
    GAME.apply(state, 0, ["discard-8"])  # even an egg from an earlier turn
    assert pile(state, 0) == [-6] and state.phase == "play"


def test_mage_never_takes_face_up_exploding_eggs() -> None:
    state = scenario(3, [[MAGE, 2, 4], [9, 3, 5], [10, 8, 1]], offer=[-2, -4])
    play(state, [[MAGE], [SHEPHERD], [BARD]])
    collect(state, 1, -2)  # the Mage was passed over: the Shepherd chooses first
    assert pile(state, 0) == [] and pile(state, 1) == [-2] and pile(state, 2) == [-4]


def test_mage_may_decline_a_face_down_egg_but_keeps_it_if_taken() -> None:
    for accept in (False, True):
        state = scenario(3, [[MAGE, 2, 4], [9, 3, 5], [10, 8, 1]], offer=[-2], face_down={-8: 1})
        play(state, [[MAGE], [SHEPHERD], [BARD]])
        prompt = GAME.prompts(state)[0]
        assert prompt.seat == 0 and [c.id for c in prompt.choices][-1] == "none"
        if accept:
            GAME.apply(state, 0, [egg_choice(state, 0, None)])
            assert pile(state, 0) == [-8]
        else:
            GAME.apply(state, 0, ["none"])
            collect(state, 1, None)  # the Shepherd takes the face-down egg, the Bard must take the -2
            assert pile(state, 0) == [] and pile(state, 1) == [-8] and pile(state, 2) == [-2]


def test_blacksmith_costs_four_when_it_collects_nothing() -> None:
    state = scenario(3, [[BLACKSMITH, 1, 2], [9, 3, 5], [10, 6, 4]], offer=[3, 4])
    play(state, [[BLACKSMITH], [9], [10]])
    collect(state, 2, 4)
    assert state.bonus[0] == [BLACKSMITH]


def test_dark_priestesses_cancel_and_that_is_no_tie() -> None:
    order, tie = collection_order([[DARK_PRIESTESS], [DARK_PRIESTESS], [5]], 0)
    assert order == [(2, 5)] and not tie
    state = scenario(3, [[9, 1, 2], [9, 3, 5], [5, 6, 4]], offer=[3, 4], tiebreaker=1)
    play(state, [[9], [9], [5]])
    collect(state, 2, 4)
    assert pile(state, 0) == pile(state, 1) == [] and state.tiebreaker == 1  # no tie: the marker stays
    # a single Dark Priestess collects as a 9
    assert collection_order([[DARK_PRIESTESS], [HERO]], 0)[0] == [(1, HERO), (0, DARK_PRIESTESS)]


def test_players_must_take_an_egg_if_able() -> None:
    state = scenario(3, [[HERO, 1, 2], [9, 3, 5], [8, 6, 4]], offer=[-6, -2])
    prompt_kinds = []
    play(state, [[HERO], [9], [8]])
    while state.phase == "collect":
        prompt = GAME.prompts(state)[0]
        prompt_kinds.append(prompt.kind)
        assert "none" not in [c.id for c in prompt.choices]  # only a Mage may decline
        GAME.apply(state, prompt.seat, [prompt.choices[0].id])
    assert len(pile(state, 0)) == 1 and len(pile(state, 1)) == 1 and pile(state, 2) == []


# --- the Tie-Breaker Marker -------------------------------------------------------------------
def test_tie_breaker_passes_left_only_after_a_tie() -> None:
    state = scenario(3, [[5, 1, 2], [5, 3, 4], [7, 6, 8]], offer=[3, 4], tiebreaker=2)
    play(state, [[5], [5], [7]])
    collect(state, 2, 4)
    assert state.tiebreaker == 0  # tie between the 5s: passes left (clockwise)
    state = scenario(3, [[5, 1, 2], [6, 3, 4], [7, 9, 8]], offer=[3, 4], tiebreaker=2)
    play(state, [[5], [6], [7]])
    collect(state, 2, 4)
    assert state.tiebreaker == 2


def test_round_variant_passes_clockwise_after_each_round_not_after_ties() -> None:
    state = scenario(3, [[5, 1, 2], [5, 3, 4], [7, 6, 8]], offer=[3, 4], tiebreaker=2, options={"tiebreaker": "round"})
    play(state, [[5], [5], [7]])
    collect(state, 2, 4)
    assert state.tiebreaker == 2
    finish_round(state)
    assert state.round == 2 and state.tiebreaker == 0


def finish_round(state: EggsState) -> list[dict]:
    players = [RandomPlayer(s) for s in range(state.players)]
    current = state.round
    events: list[dict] = []
    while state.round == current and state.phase != "over":
        for p in GAME.prompts(state):
            events += GAME.apply(state, p.seat, players[p.seat].choose(GAME, state, p))
    return events


def test_round_end_scores_and_gives_the_marker_to_the_lowest_total() -> None:
    state = GAME.new(4, 21)
    events = finish_round(state)
    end = next(e for e in events if e["type"] == "round_end")
    details = state.round_details[0]
    for seat in range(4):
        assert end["scores"][seat] == details[seat]["eggs"] + details[seat]["merchant"] + details[seat]["blacksmith"]
        assert details[seat]["merchant"] % 6 == 0 and details[seat]["blacksmith"] % 4 == 0
    lowest = min(end["totals"])
    assert end["totals"][state.tiebreaker] == lowest
    # the new round: fresh decks and eggs, mulligan first
    assert state.phase == "mulligan" and state.turn == 1
    assert all(len(h) == 3 and len(d) == 7 for h, d in zip(state.hands, state.decks, strict=True))
    assert sum(len(p) for p in state.piles) == 0 and len(state.egg_deck) == 26 - 2


def test_nine_turns_leave_one_unused_card() -> None:
    state = GAME.new(3, 8)
    players = [RandomPlayer(s) for s in range(3)]
    reached_the_last_turn = False
    while state.round == 1:
        if state.turn == rules.TURNS_PER_ROUND and state.phase == "play":
            reached_the_last_turn = True
            assert all(len(h) == 2 and not d for h, d in zip(state.hands, state.decks, strict=True))
            for p in GAME.prompts(state):
                GAME.apply(state, p.seat, players[p.seat].choose(GAME, state, p))
            if state.round == 1:  # a Courier/Priest decision may still be pending
                assert all(len(h) == 1 for h in state.hands)
            break
        for p in GAME.prompts(state):
            GAME.apply(state, p.seat, players[p.seat].choose(GAME, state, p))
    assert reached_the_last_turn, "the round ended before its last turn was looked at"


def test_game_ends_after_three_rounds_with_shared_victory() -> None:
    state = GAME.new(4, 2)
    play_out(GAME, state, [RandomPlayer(s) for s in range(4)])
    result = GAME.outcome(state)
    assert result is not None and state.round == 3 and len(state.round_scores) == 3
    totals = [sum(r[s] for r in state.round_scores) for s in range(4)]
    assert result["scores"] == totals
    assert result["winners"] == [s for s in range(4) if totals[s] == max(totals)]


def test_shared_victory_on_equal_totals() -> None:
    state = scenario(2, [[HERO, 1, 2, 3], [HERO, 4, 5, 6]], offer=[5, 5])
    state.round = rules.ROUNDS
    state.turn = rules.TURNS_PER_ROUND
    state.round_scores = [[10, 10], [7, 7]]
    state.round_details = [
        [{"eggs": 10, "merchant": 0, "blacksmith": 0, "total": 10}] * 2,
        [{"eggs": 7, "merchant": 0, "blacksmith": 0, "total": 7}] * 2,
    ]
    play(state, [[HERO, 1], [HERO, 4]])
    result = GAME.outcome(state)
    assert result is not None and result["winners"] == [0, 1] and result["ranking"] == [1, 1]
    assert result["scores"] == [22, 22]


def test_conpub_scoring_tokens_and_first_to_three() -> None:
    state = GAME.new(3, 4, {"scoring": "conpub"})
    rounds = 0
    while state.phase != "over":
        events = finish_round(state)
        rounds += 1
        end = next(e for e in events if e["type"] == "round_end")
        best = max(end["scores"])
        assert end["tokens_to"] == [s for s in range(3) if end["scores"][s] == best]
    assert max(state.tokens) == 3 and rounds >= 3
    result = GAME.outcome(state)
    assert result is not None and result["scores"] == state.tokens
    assert result["winners"] == [s for s in range(3) if state.tokens[s] == 3]
    assert sum(state.tokens) <= rules.CONPUB_TOKENS


def test_conpub_with_five_players_needs_two_tokens() -> None:
    state = GAME.new(5, 4, {"scoring": "conpub"})
    while state.phase != "over":
        finish_round(state)
    assert max(state.tokens) == 2 == rules.tokens_to_win(5)


def test_egg_deck_running_out_reveals_what_is_left() -> None:
    state = scenario(3, [[5, 1, 2], [6, 3, 4], [7, 9, 8]], offer=[3, 4])
    keep = state.egg_deck[-1:]
    state.egg_discard.extend(state.egg_deck[:-1])
    state.egg_deck = keep
    play(state, [[5], [3], [7]])
    collect(state, 2, 4)
    assert len(state.offer) == 1 and not state.egg_deck
    state.egg_discard.extend(e for e, _ in state.offer)
    state.offer = []
    play(state, [[c for c in state.hands[s]][:1] for s in range(3)])
    assert state.turn == 3  # nothing to collect: the turn simply ends


# --- events -----------------------------------------------------------------------------------
def test_public_events_narrate_the_turn() -> None:
    state = scenario(3, [[HERO, 1, 2], [6, 3, 4], [7, 9, 8]], offer=[3, 4], tiebreaker=1)
    events = play(state, [[HERO], [6], [7]])
    events += collect(state, 0, 4)
    public = [e for e in events if "to" not in e]
    types = [e["type"] for e in public]
    assert types.count("decided") == 3
    reveal = next(e for e in public if e["type"] == "reveal")
    assert reveal["plays"] == [[HERO], [6], [7]] and reveal["tiebreaker"] == 1
    assert reveal["order"] == [[0, HERO], [2, 7], [1, 6]]
    collects = [(e["seat"], e["card"], e["value"]) for e in public if e["type"] == "collect"]
    assert collects == [(0, HERO, 4), (2, 7, 3)]
    offer = [e for e in public if e["type"] == "offer"][-1]
    assert offer["turn"] == 2 and len(offer["eggs"]) == 2 and offer["tiebreaker"] == 1
    private = [e for e in events if "to" in e]
    assert all(e["type"] == "played" for e in private) and {e["to"] for e in private} == {0, 1, 2}
