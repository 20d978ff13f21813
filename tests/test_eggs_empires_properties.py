"""Eggs and Empires invariants under random legal play (hypothesis)."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from games import IllegalAction
from games.ai import RandomPlayer
from games.eggs_empires import rules
from games.eggs_empires.engine import FACE_UP, EggsState

GAME = games.get("eggs-empires")
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

game_setups = st.tuples(
    st.integers(2, 6),
    st.integers(0, 2**31),
    st.sampled_from(["tie", "round"]),
    st.sampled_from(["standard", "conpub"]),
)


def check_invariants(state: EggsState) -> None:
    n = state.players
    # every egg card of this player count is in exactly one place
    places = state.egg_deck + state.egg_discard + [e for e, _ in state.offer]
    for pile in state.piles:
        places += pile
    assert Counter(places) == Counter(rules.egg_deck(n))
    # every seat still owns exactly its Empire deck(s), and hands keep their size
    size = rules.hand_size(n)
    for seat in range(n):
        owned = [*state.hands[seat], *state.decks[seat], *state.discards[seat], *state.bonus[seat], *state.plays[seat]]
        assert Counter(owned) == Counter(rules.empire_deck(n))
        if state.phase in ("mulligan", "play"):
            assert len(state.hands[seat]) == min(size, len(state.hands[seat]) + len(state.decks[seat]))
            assert len(state.hands[seat]) >= rules.cards_per_seat(n)
    assert 0 <= state.tiebreaker < n
    assert 1 <= state.turn <= rules.TURNS_PER_ROUND


def perturb_hidden(state: EggsState, keep: int | None, rng: random.Random) -> EggsState:
    """A copy of the state that differs only in what `keep` (None: nobody) may not know: other seats'
    hands and decks, their secret choices, the egg deck order and face-down eggs scouted by others."""
    copy = GAME.from_json(json.loads(json.dumps(GAME.to_json(state))))
    for seat in range(copy.players):
        if seat == keep:
            continue
        cards = copy.hands[seat] + copy.decks[seat]
        rng.shuffle(cards)
        size = len(copy.hands[seat])
        copy.hands[seat], copy.decks[seat] = sorted(cards[:size]), cards[size:]
        if copy.submitted[seat] is not None:
            copy.submitted[seat] = sorted(rng.sample(sorted(set(copy.hands[seat])), len(copy.submitted[seat])))
        if copy.mulligan[seat] is not None:
            copy.mulligan[seat] = rng.choice(["keep", "redraw"])
    rng.shuffle(copy.egg_deck)
    for entry in copy.offer:
        if entry[1] not in (FACE_UP, keep) and copy.egg_deck:
            swap = rng.randrange(len(copy.egg_deck))
            entry[0], copy.egg_deck[swap] = copy.egg_deck[swap], entry[0]
    return copy


def play_random(players: int, seed: int, tiebreaker: str, scoring: str, on_step: Any) -> EggsState:
    state = GAME.new(players, seed, {"tiebreaker": tiebreaker, "scoring": scoring})
    ais = [RandomPlayer(seed + s) for s in range(players)]
    steps = 0
    while prompts := GAME.prompts(state):
        for prompt in prompts:
            GAME.apply(state, prompt.seat, ais[prompt.seat].choose(GAME, state, prompt))
            steps += 1
            on_step(state, steps)
    return state


@SETTINGS
@given(game_setups)
def test_random_play_finishes_and_keeps_every_card_in_place(setup: tuple[int, int, str, str]) -> None:
    players, seed, tiebreaker, scoring = setup
    state = play_random(players, seed, tiebreaker, scoring, lambda s, _: check_invariants(s))
    result = GAME.outcome(state)
    assert result is not None
    if scoring == "standard":
        assert len(state.round_scores) == rules.ROUNDS == state.round
    else:
        assert max(state.tokens) >= rules.tokens_to_win(players)
        assert sum(state.tokens) <= rules.CONPUB_TOKENS
    assert result["winners"] and all(result["scores"][w] == max(result["scores"]) for w in result["winners"])


@SETTINGS
@given(game_setups, st.integers(0, 2**31))
def test_views_never_reveal_hidden_information(setup: tuple[int, int, str, str], salt: int) -> None:
    players, seed, tiebreaker, scoring = setup
    rng = random.Random(salt)

    def check(state: EggsState, step: int) -> None:
        if step % 7:
            return
        public = GAME.view(state, None)
        assert "hand" not in public and "my_play" not in public
        assert all(o["value"] is None for o in public["offer"] if o["face_down"])
        assert GAME.view(perturb_hidden(state, None, rng), None) == public
        seat = step % players
        assert GAME.view(perturb_hidden(state, seat, rng), seat) == GAME.view(state, seat)

    play_random(players, seed, tiebreaker, scoring, check)


def bad_inputs(state: EggsState, rng: random.Random) -> list[tuple[Any, Any]]:
    prompts = GAME.prompts(state)
    prompted = {p.seat: p for p in prompts}
    waiting = [s for s in range(state.players) if s not in prompted]
    bad: list[tuple[Any, Any]] = [(-1, ["1"]), (state.players, ["1"]), ("0", ["1"]), (None, ["1"])]
    for seat in waiting[:2]:
        bad.append((seat, ["1"]))
    for seat, prompt in prompted.items():
        ids = [c.id for c in prompt.choices]
        bad += [
            (seat, ["no-such-choice"] * prompt.pick),
            (seat, ids[: prompt.pick + 1] if len(ids) > prompt.pick else [*ids, "x"]),
            (seat, [ids[0]] * 2 if prompt.pick == 2 else [ids[0], ids[0]]),
            (seat, []),
            (seat, ids[0]),
            (seat, None),
            (seat, [rng.randint(0, 10)] * prompt.pick),
        ]
    return bad


@SETTINGS
@given(game_setups, st.integers(0, 2**31))
def test_illegal_input_never_changes_state(setup: tuple[int, int, str, str], salt: int) -> None:
    players, seed, tiebreaker, scoring = setup
    rng = random.Random(salt)

    def check(state: EggsState, step: int) -> None:
        if step % 5:
            return
        before = json.dumps(GAME.to_json(state), sort_keys=True)
        for seat, choice in bad_inputs(state, rng):
            with pytest.raises(IllegalAction, match=r"\w"):
                GAME.apply(state, seat, choice)
            assert json.dumps(GAME.to_json(state), sort_keys=True) == before

    state = play_random(players, seed, tiebreaker, scoring, check)
    check(state, 0)  # and after the end


def reference_collection_order(plays: list[list[int]], tiebreaker: int) -> tuple[list[tuple[int, int]], bool]:
    """The collection order written as plainly as the rulebook says it, to check the fast one against."""
    n = len(plays)
    entries = [(card, seat) for seat in range(n) for card in plays[seat]]
    if [card for card, _ in entries].count(9) > 1:
        entries = [(card, seat) for card, seat in entries if card != 9]
    entries.sort(key=lambda e: (-e[0], (e[1] - tiebreaker) % n))
    tie = len({card for card, _ in entries}) < len(entries)
    order = [(seat, card) for card, seat in entries]
    if any(card == 8 for _, card in order):
        shepherds = [e for e in order if e[1] == 3]
        others = [e for e in order if e[1] != 3]
        at = next(i for i, e in enumerate(others) if e[1] == 8)
        order = others[:at] + shepherds + others[at:]
    return order, tie


@settings(max_examples=300, deadline=None)
@given(
    st.integers(2, 6).flatmap(
        lambda n: st.tuples(
            st.lists(
                st.lists(st.integers(1, 10), min_size=2 if n == 2 else 1, max_size=2 if n == 2 else 1, unique=True),
                min_size=n,
                max_size=n,
            ),
            st.integers(0, n - 1),
        )
    )
)
def test_collection_order_matches_the_plain_reading(case: tuple[list[list[int]], int]) -> None:
    plays, tiebreaker = case
    assert rules.collection_order(plays, tiebreaker) == reference_collection_order(plays, tiebreaker)
