"""The engine contract, checked for every registered game."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import games
from games.ai import RandomPlayer, play_out
from games.core import MAX_CHOICE_ID, Choice, IllegalAction, Option, Rng, check_choice

KEYS = games.keys()


def test_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="known games"):
        games.get("no-such-game")


def test_choice_ids_are_short() -> None:
    with pytest.raises(ValueError, match="characters"):
        Choice("x" * (MAX_CHOICE_ID + 1), "too long")


def test_option_parses_text_forms_and_refuses_others() -> None:
    option = Option("speed", (1, 2, 3), 2, "how fast")
    assert option.parse("3") == 3
    assert option.parse(1) == 1
    with pytest.raises(ValueError, match="choose one of: 1, 2, 3"):
        option.parse("7")
    flag = Option("on", (False, True), False, "a switch")
    assert flag.parse("TRUE") is True


def test_rng_is_reproducible_and_round_trips() -> None:
    a = Rng(42)
    items = list(range(20))
    a.shuffle(items)
    again = list(range(20))
    Rng(42).shuffle(again)
    assert items == again != list(range(20))
    restored = Rng.from_json(a.to_json())
    assert restored.to_json() == a.to_json() and a.words > 0
    # a restored generator continues exactly where the original is
    assert [restored.randrange(1000) for _ in range(50)] == [a.randrange(1000) for _ in range(50)]
    assert restored.to_json() == a.to_json()
    big = Rng(7)
    for _ in range(5):  # draws wider than one 32-bit word skip ahead exactly too
        copy = Rng.from_json(big.to_json())
        assert copy.randrange(2**40) == big.randrange(2**40)


@pytest.mark.parametrize("size", [0, 1, 2, 10, 26, 61])
def test_rng_shuffle_is_fisher_yates_over_one_bulk_draw(size: int) -> None:
    # Stored games replay from their seed: the shuffle must keep drawing exactly these words in this order
    # (swap i with word % (i + 1), the words of one bulk draw of 32 bits per swap), whatever its code does.
    seed = 1000 + size
    bulk = random.Random(seed).getrandbits(32 * size) if size > 1 else 0
    expected = list(range(size))
    for k, i in enumerate(range(size - 1, 0, -1)):
        j = (bulk >> (32 * k) & 0xFFFFFFFF) % (i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    rng = Rng(seed)
    items = list(range(size))
    rng.shuffle(items)
    assert items == expected
    assert rng.words == max(0, size - 1)


def test_rng_draws_are_uniform_enough() -> None:
    rng = Rng(1)
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.randrange(6)] += 1
    assert all(850 < c < 1150 for c in counts)
    with pytest.raises(ValueError):
        rng.randrange(0)
    permutations: Counter[tuple[int, ...]] = Counter()
    for _ in range(6000):
        items = [0, 1, 2]
        rng.shuffle(items)
        permutations[tuple(items)] += 1
    assert len(permutations) == 6 and all(850 < c < 1150 for c in permutations.values())


def test_check_choice_rejects_every_kind_of_bad_answer() -> None:
    from games.core import Prompt

    prompt = Prompt(seat=1, kind="pick", choices=[Choice("a", "A"), Choice("b", "B")], pick=1)
    assert check_choice([prompt], 1, ["a"]) is prompt
    for seat, choice, reason in [
        (0, ["a"], "not your turn"),
        (1, ["c"], "not one of the choices"),
        (1, ["a", "b"], "exactly 1"),
        (1, "a", "list of choice ids"),
    ]:
        with pytest.raises(IllegalAction, match=reason):
            check_choice([prompt], seat, choice)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="over"):
        check_choice([], 0, ["a"])


@pytest.mark.parametrize("key", KEYS)
def test_metadata_and_bad_setup_are_refused(key: str) -> None:
    game = games.get(key)
    assert game.title and game.min_players >= 1 and game.max_players >= game.min_players
    for option in game.options:
        assert option.default in option.values and option.description
    with pytest.raises(ValueError, match="players"):
        game.new(game.max_players + 1, 1)
    with pytest.raises(ValueError, match="players"):
        game.new(game.min_players - 1, 1)
    with pytest.raises(ValueError, match="unknown option"):
        game.new(game.min_players, 1, {"no_such_option": 1})
    for option in game.options:
        with pytest.raises(ValueError, match=option.name):
            game.new(game.min_players, 1, {option.name: "not-a-value"})


@pytest.mark.parametrize("key", KEYS)
def test_random_game_plays_to_the_end_and_is_reproducible(key: str) -> None:
    game = games.get(key)
    n = game.min_players + 1 if game.max_players > game.min_players else game.min_players
    finals = []
    for _ in range(2):
        state = game.new(n, 7)
        assert game.outcome(state) is None
        log: list[tuple[int, list[str]]] = []
        players = [RandomPlayer(100 + s) for s in range(n)]
        while prompts := game.prompts(state):
            for p in prompts:
                assert p.choices and 1 <= p.pick <= len(p.choices)
                assert all(len(c.id) <= MAX_CHOICE_ID for c in p.choices)
                choice = players[p.seat].choose(game, state, p)
                log.append((p.seat, choice))
                for event in game.apply(state, p.seat, choice):
                    assert "type" in event
                    json.dumps(event)
            # the state always survives a JSON round trip exactly
            data = game.to_json(state)
            assert game.to_json(game.from_json(json.loads(json.dumps(data)))) == data
        result = game.outcome(state)
        assert result is not None
        # the contract's outcome (games/core.py, docs/adding-a-game.md): a score and a rank per seat, rank 1
        # best, ties sharing; "winners" is an extra some games give, checked when given
        assert len(result["scores"]) == n and len(result["ranking"]) == n
        assert 1 in result["ranking"] and all(1 <= r <= n for r in result["ranking"])
        assert all(0 <= w < n and result["ranking"][w] == 1 for w in result.get("winners", []))
        finals.append((log, game.to_json(state)))
    assert finals[0] == finals[1]
    # replaying the same decisions on a new game with the same seed gives the same state
    state = game.new(n, 7)
    for seat, choice in finals[0][0]:
        game.apply(state, seat, choice)
    assert game.to_json(state) == finals[0][1]


@pytest.mark.parametrize("key", KEYS)
def test_play_out_and_views_are_json(key: str) -> None:
    game = games.get(key)
    state = game.new(game.min_players, 3)
    json.dumps(game.view(state, None))
    for seat in range(game.min_players):
        json.dumps(game.view(state, seat))
    play_out(game, state, [RandomPlayer(s) for s in range(game.min_players)])
    assert game.prompts(state) == []
    with pytest.raises(IllegalAction):
        game.apply(state, 0, ["anything"])


@pytest.mark.parametrize("key", KEYS)
def test_views_equal_one_view_per_seat_at_every_moment(key: str) -> None:
    """`views()` (which a game may override to share work between audiences) says exactly what `view()`
    says for each audience, throughout a game with the most seats."""
    game = games.get(key)
    n = game.max_players
    state = game.new(n, 11)
    players = [RandomPlayer(100 + s) for s in range(n)]
    audiences: list[int | None] = [None, *range(n)]
    while True:
        together = game.views(state, audiences)
        assert list(together) == audiences
        for seat in audiences:
            assert together[seat] == game.view(state, seat)
        assert game.views(state, [n - 1]) == {n - 1: game.view(state, n - 1)}
        prompts = game.prompts(state)
        if not prompts:
            break
        for p in prompts:
            game.apply(state, p.seat, players[p.seat].choose(game, state, p))


@pytest.mark.parametrize(("key", "level"), [(k, level) for k in KEYS for level in games.get(k).ai_levels])
def test_every_declared_ai_level_plays_whole_games(key: str, level: str) -> None:
    # One seat of the level against random seats: it must answer every prompt legally to the end, the
    # same way for the same seed (AI seats replay from the action log).
    game = games.get(key)
    finals = []
    for _ in range(2):
        state = game.new(game.min_players, 11)
        players = [game.ai(level, 5), *(RandomPlayer(6 + s) for s in range(1, game.min_players))]
        play_out(game, state, players)
        assert game.outcome(state) is not None
        finals.append(json.dumps(game.to_json(state), sort_keys=True))
    assert finals[0] == finals[1]


def test_every_game_offers_at_least_a_random_ai() -> None:
    for key in KEYS:
        assert "random" in games.get(key).ai_levels, key


def test_a_game_missing_a_required_method_cannot_be_made() -> None:
    class Unfinished(games.Game[dict[str, int]]):
        key = "unfinished"

        def new(self, players: int, seed: int, options: dict[str, object] | None = None) -> dict[str, int]:
            return {}

    with pytest.raises(TypeError, match="abstract"):
        Unfinished()  # type: ignore[abstract]
