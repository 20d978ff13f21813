"""Eight-Minute Empire: invariants under any legal play, refusals that change nothing, and the AI."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ai import RandomPlayer, play_out
from games.core import IllegalAction
from games.eight_minute_empire import GAME, State
from games.eight_minute_empire.engine import ARMIES, CITIES, COIN_SUPPLY, TARGET_CARDS

OPTIONS = st.fixed_dictionaries(
    {
        "full_game": st.just(False),
        "explore": st.booleans(),
        "citadels": st.booleans(),
        "layout": st.sampled_from(["L", "row"]),
        "bid_tie": st.sampled_from(["die", "first-seat"]),
    }
)


def check_invariants(state: State) -> None:
    n = state.players
    assert state.supply >= 0 and all(c >= 0 for c in state.coins)
    assert state.supply + sum(state.coins) == COIN_SUPPLY
    for s in range(n):
        on_board = sum(row[s] for row in state.armies)
        assert 0 <= on_board <= ARMIES
        assert 0 <= sum(row[s] for row in state.cities) <= CITIES
        assert len(state.hands[s]) <= TARGET_CARDS[n]
    assert all(count >= 0 for row in state.armies for count in row)
    neutral = sum(row[n] for row in state.armies)
    assert neutral <= 10 and (n == 2 or neutral == 0)
    cards_seen = [c for c in state.row if c is not None] + state.deck + [c for h in state.hands for c in h]
    assert len(cards_seen) == len(set(cards_seen))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 10_000), options=OPTIONS, rnd=st.randoms())
def test_any_legal_play_keeps_the_invariants_and_ends_right(
    players: int, seed: int, options: dict[str, Any], rnd: random.Random
) -> None:
    state = GAME.new(players, seed, options)
    while prompts := GAME.prompts(state):
        for p in prompts:
            GAME.apply(state, p.seat, [rnd.choice(p.choices).id])
            check_invariants(state)
    assert [len(h) for h in state.hands] == [TARGET_CARDS[players]] * players
    result = GAME.outcome(state)
    assert result is not None and result["winners"]


@settings(max_examples=30, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 1000),
    moves=st.integers(0, 150),
    bad=st.one_of(st.text(max_size=6), st.sampled_from(["card5", "bid99", "Z9", "done", "back", "A1p9"])),
    wrong_seat=st.booleans(),
)
def test_illegal_input_changes_nothing(players: int, seed: int, moves: int, bad: str, wrong_seat: bool) -> None:
    state = GAME.new(players, seed)
    bots = [RandomPlayer(seed + s) for s in range(players)]
    for _ in range(moves):
        prompts = GAME.prompts(state)
        if not prompts:
            break
        p = prompts[0]
        GAME.apply(state, p.seat, bots[p.seat].choose(GAME, state, p))
    prompts = GAME.prompts(state)
    before = json.dumps(GAME.to_json(state), sort_keys=True)
    if prompts:
        p = prompts[0]
        seat = (p.seat + 1) % players if wrong_seat and len(prompts) == 1 else p.seat
        if bad in p.choice_ids() and seat == p.seat:
            return
        for answer in ([bad], [], [p.choices[0].id, p.choices[0].id], "card0"):
            try:
                GAME.apply(state, seat, answer)  # type: ignore[arg-type]
            except IllegalAction:
                pass
            else:
                assert seat == p.seat and answer == [p.choices[0].id]  # only a legal answer may pass
                return
    else:
        with contextlib.suppress(IllegalAction):
            GAME.apply(state, 0, [bad])
    assert json.dumps(GAME.to_json(state), sort_keys=True) == before


def test_json_round_trip_mid_game_keeps_playing_the_same() -> None:
    state = GAME.new(3, 12, {"explore": True, "full_game": True})
    bots = [RandomPlayer(s) for s in range(3)]
    for _ in range(200):
        for p in GAME.prompts(state):
            GAME.apply(state, p.seat, bots[p.seat].choose(GAME, state, p))
    copy = GAME.from_json(json.loads(json.dumps(GAME.to_json(state))))
    assert GAME.prompts(copy) == GAME.prompts(state)
    bots_a = [RandomPlayer(9 + s) for s in range(3)]
    bots_b = [RandomPlayer(9 + s) for s in range(3)]
    play_out(GAME, state, bots_a)  # type: ignore[arg-type]
    play_out(GAME, copy, bots_b)  # type: ignore[arg-type]
    assert GAME.to_json(state) == GAME.to_json(copy)


# --- the AI ------------------------------------------------------------------------------------------


class Sealed:
    """Wraps a state so that reading any of it raises: only the Spy game below may open it."""

    def __init__(self, state: State) -> None:
        object.__setattr__(self, "_sealed", state)

    def __getattribute__(self, name: str) -> Any:
        raise AssertionError(f"the heuristic read state.{name} directly")


class Spy:
    """A game that offers only `view`, and records which seat's view was asked for."""

    def __init__(self) -> None:
        self.seats: list[int | None] = []

    def view(self, sealed: Sealed, seat: int | None) -> dict[str, Any]:
        self.seats.append(seat)
        return GAME.view(object.__getattribute__(sealed, "_sealed"), seat)


def test_heuristic_reads_only_the_acting_seats_view() -> None:
    heuristic = GAME.ai("heuristic", 1)
    for players in (2, 3):
        state = GAME.new(players, 4, {"explore": True})
        spy = Spy()
        for _ in range(80):
            for p in GAME.prompts(state):
                choice = heuristic.choose(spy, Sealed(state), p)  # type: ignore[arg-type]
                assert spy.seats and set(spy.seats) == {p.seat}
                spy.seats.clear()
                GAME.apply(state, p.seat, choice)


def test_heuristic_beats_random_in_two_player_games() -> None:
    wins = 0.0
    games = 20
    for g in range(games):
        heuristic_seat = g % 2
        state = GAME.new(2, 500 + g)
        seats = [GAME.ai("random", g), GAME.ai("random", g + 1)]
        seats[heuristic_seat] = GAME.ai("heuristic", g)
        play_out(GAME, state, seats)
        result = GAME.outcome(state)
        assert result is not None
        if heuristic_seat in result["winners"]:
            wins += 1 / len(result["winners"])
    assert wins / games >= 0.7


def test_heuristic_plays_every_variant_and_player_count() -> None:
    for players in (2, 3, 4):
        state = GAME.new(players, players, {"explore": True, "citadels": True, "full_game": players == 3})
        play_out(GAME, state, [GAME.ai("heuristic", s) for s in range(players)])
        result = GAME.outcome(state)
        assert result is not None and len(result["scores"]) == players
        assert max(result["scores"]) > 0


def test_a_heuristic_rebuilt_for_every_decision_still_finishes() -> None:
    """The table may create a fresh AI for each AFK decision: no memory may be needed to stop moving."""
    for players in (2, 4):
        state = GAME.new(players, 77)
        decisions = 0
        while prompts := GAME.prompts(state):
            for p in prompts:
                GAME.apply(state, p.seat, GAME.ai("heuristic", decisions).choose(GAME, state, p))
                decisions += 1
            assert decisions < 2000, "the heuristic is going round in circles"
        assert GAME.outcome(state) is not None
