"""The expert AI level of every game (games.search and each game's expert module): registered, legal,
deterministic for a seed, and blind to what its seat cannot see."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import games
from games.core import Game, Prompt, Rng
from games.search import DEFAULT_BUDGET_MS, MIN_WORLDS, ExpertPlayer
from tests.declared import with_level
from tests.test_eggs_empires_properties import perturb_hidden as perturb_eggs

KEYS = with_level("expert")  # every game; those whose ai_levels have no expert skipped, saying so
BUDGET_MS = 1.0  # a few rollouts: enough to search, cheap enough for the suite


def expert(game: Game[Any], seed: int) -> ExpertPlayer:
    player = game.ai("expert", seed)
    assert isinstance(player, ExpertPlayer)
    return ExpertPlayer(player.expertise, seed, BUDGET_MS)


def copied(game: Game[Any], state: Any) -> Any:
    return game.from_json(json.loads(json.dumps(game.to_json(state))))


def searched_positions(
    key: str, players: int, seed: int, every: int, most: int, options: dict[str, Any] | None = None
) -> Iterator[tuple[Any, Prompt]]:
    """Every `every`-th prompt of seat 0 that the expert searches, in a game played by heuristics, up to
    `most` of them (the state is live: copy it before changing it)."""
    game = games.get(key)
    state = game.new(players, seed, options)
    ais = [game.ai("heuristic", seed + s) for s in range(players)]
    probe = expert(game, 0)
    seen = found = 0
    while found < most and (prompts := game.prompts(state)):
        for prompt in prompts:
            if prompt.seat == 0:
                view = game.view(state, 0)
                if len(probe.expertise.candidates(view, prompt, 0)) > 1:
                    seen += 1
                    if seen % every == 0:
                        found += 1
                        yield state, prompt
            game.apply(state, prompt.seat, ais[prompt.seat].choose(game, state, prompt))


@pytest.mark.parametrize("key", KEYS)
def test_every_game_offers_the_expert_level(key: str) -> None:
    game = games.get(key)
    assert "expert" in game.ai_levels
    assert isinstance(game.ai("expert", 1), ExpertPlayer)


@pytest.mark.parametrize("key", KEYS)
def test_expert_plays_whole_games_legally(key: str) -> None:
    # apply() refuses anything illegal, so finishing the game is the check; every answer is also one of
    # the prompt's own choice ids, and searches did happen
    game = games.get(key)
    for players, seed in ((2, 3), *([(4, 4)] if key == "eggs-empires" else [])):
        state = game.new(players, seed)
        seats = [expert(game, seed * 10 + s) if s % 2 == 0 else game.ai("heuristic", s) for s in range(players)]
        searches = 0
        while prompts := game.prompts(state):
            for prompt in prompts:
                answer = seats[prompt.seat].choose(game, state, prompt)
                assert len(answer) == prompt.pick and set(answer) <= set(prompt.choice_ids())
                player = seats[prompt.seat]
                searches += isinstance(player, ExpertPlayer) and player.last is not None
                game.apply(state, prompt.seat, answer)
        assert game.outcome(state) is not None
        assert searches > 5


@pytest.mark.parametrize("key", KEYS)
def test_expert_is_deterministic_for_a_seed(key: str) -> None:
    game = games.get(key)
    checked = 0
    for state, prompt in searched_positions(key, 2, 21, every=3, most=4):
        first = expert(game, 77)
        answer = first.choose(game, state, prompt)
        again = expert(game, 77)
        reloaded = copied(game, state)  # a stored game, loaded again: same decision
        prompt_there = next(p for p in game.prompts(reloaded) if p.seat == prompt.seat)
        assert again.choose(game, reloaded, prompt_there) == answer
        assert first.last is not None and again.last is not None
        assert again.last.means == first.last.means and again.last.worlds == first.last.worlds >= 2
        checked += 1
    assert checked == 4


def perturb_eme(state: Any, keep: int, rng: random.Random) -> Any:
    """Eight-Minute Empire hides the deck's order, the bids not yet revealed and the random draws to come."""
    game = games.get("eight-minute-empire")
    copy = copied(game, state)
    rng.shuffle(copy.deck)
    copy.bids = [b if s == keep or b is None else rng.randrange(b + 3) for s, b in enumerate(copy.bids)]
    copy.rng = Rng(rng.getrandbits(32))
    copy.cache = None
    return copy


def perturb_reggverse(state: Any, keep: int, rng: random.Random) -> Any:
    """Reggverse hides the other hands, the deck and the discard (which tiles, in which order), the
    tiles themselves that this seat never saw, other seats' objectives and the random draws to come."""
    game = games.get("reggverse-riddles")
    copy = copied(game, state)
    others = [s for s in range(copy.players) if s != keep]
    pool = copy.deck + copy.discard + [t for s in others for t in copy.hands[s]]
    rng.shuffle(pool)
    for s in others:
        size = len(copy.hands[s])
        copy.hands[s], pool = pool[:size], pool[size:]
    copy.deck, copy.discard = pool[: len(copy.deck)], pool[len(copy.deck) :]
    for tile_id in pool + [t for s in others for t in copy.hands[s]]:  # unseen tiles get other movements
        tile = copy.tiles[tile_id]
        if tile["kind"] == "regular":
            tile["moves"] = [[rng.choice((-1, 1)), rng.choice((-1, 0, 1))]]
    if copy.objective_tiles:
        mine = copy.secret[keep]
        free = [t["id"] for t in copy.objective_tiles if t["id"] != mine]
        copy.secret = [mine if s == keep else rng.choice(free) for s in range(copy.players)]
    copy.rng = Rng(rng.getrandbits(32))
    copy.touch()
    return copy


def perturb_eggs_more(state: Any, keep: int, rng: random.Random) -> Any:
    """The Eggs and Empires heuristic's perturbation, plus the discarded eggs (the view keeps no list
    of them) and the random draws to come."""
    copy = perturb_eggs(state, keep, rng)
    if copy.egg_discard and copy.egg_deck:
        i, j = rng.randrange(len(copy.egg_discard)), rng.randrange(len(copy.egg_deck))
        copy.egg_discard[i], copy.egg_deck[j] = copy.egg_deck[j], copy.egg_discard[i]
    copy.rng = Rng(rng.getrandbits(32))
    return copy


PERTURB: dict[str, Callable[[Any, int, random.Random], Any]] = {
    "eggs-empires": perturb_eggs_more,
    "eight-minute-empire": perturb_eme,
    "reggverse-riddles": perturb_reggverse,
}


@pytest.mark.parametrize("key", KEYS)
def test_expert_decides_only_on_what_its_seat_may_know(key: str) -> None:
    # The hidden parts change, the seat's view stays equal: the search must come out the very same (its
    # means too, not only its answer: any use of hidden information would move them).
    game = games.get(key)
    rng = random.Random(5)
    checked = 0
    # the default game with 2 players, and with 3 the variants that hide most (objectives, action tiles...)
    for players, options in ((2, {}), (3, games.get(key).sample_options[-1])):
        for state, prompt in searched_positions(key, players, 40 + players, every=2, most=4, options=options):
            other = PERTURB[key](state, 0, rng)
            assert game.view(other, 0) == game.view(state, 0)
            assert game.to_json(other) != game.to_json(state)  # something hidden did change
            mine, theirs = expert(game, 9), expert(game, 9)
            answer = mine.choose(game, state, prompt)
            prompt_there = next(p for p in game.prompts(other) if p.seat == 0)
            assert theirs.choose(game, other, prompt_there) == answer
            assert mine.last is not None and theirs.last is not None and mine.last.means == theirs.last.means
            checked += 1
    assert checked >= 6


# What a world may show otherwise than the real game: Eggs and Empires drops the other seats' secret
# plays of this turn (they choose again in the world), so who has decided differs.
REDECIDED = {
    "eggs-empires": lambda view: {**view, "waiting_for": None, "seats": [{**s, "decided": None} for s in view["seats"]]}
}


@pytest.mark.parametrize("key", KEYS)
def test_a_world_shows_the_seat_exactly_what_it_sees(key: str) -> None:
    # A sampled world agrees with everything the seat's view shows: seen from that seat, it is the same game.
    game = games.get(key)
    probe = expert(game, 0)
    same = REDECIDED.get(key, lambda view: view)
    checked = 0
    for players, options in ((2, {}), (3, game.sample_options[-1])):
        for state, prompt in searched_positions(key, players, 60 + players, every=2, most=5, options=options):
            view = game.view(state, prompt.seat)
            for draw in range(3):
                world = probe.expertise.world(view, prompt, random.Random(draw))
                assert same(game.view(world, prompt.seat)) == same(view)
                assert any(p.seat == prompt.seat and p.choice_ids() == prompt.choice_ids() for p in game.prompts(world))
            checked += 1
    assert checked == 10


def test_more_budget_means_more_worlds() -> None:
    game = games.get("eight-minute-empire")
    state, prompt = next(searched_positions("eight-minute-empire", 2, 8, every=2, most=1))
    small, default = expert(game, 3), game.ai("expert", 3)
    assert isinstance(default, ExpertPlayer)
    # Four times the default: the default itself may afford only the minimum of worlds where rollouts are
    # long (the heuristic that spreads its armies makes more moves a turn than the one that stacked them).
    large = ExpertPlayer(default.expertise, 3, 4 * DEFAULT_BUDGET_MS)
    for player in (small, default, large):
        player.choose(game, state, prompt)
    assert small.last is not None and default.last is not None and large.last is not None
    assert large.steps > default.steps > small.steps
    assert large.last.worlds > default.last.worlds >= small.last.worlds
    for player in (small, default, large):
        found = player.last
        assert found is not None and found.worlds >= MIN_WORLDS
        # within the budget unless the minimum of worlds is not; stopped only when one more world, at
        # the mean cost of those made, would not have fitted
        assert found.worlds == MIN_WORLDS or found.steps <= player.steps
        assert found.steps + found.steps / found.worlds > player.steps


def test_eme_expert_searches_the_heuristics_best_cards_and_values_what_is_still_to_come() -> None:
    from games.eight_minute_empire.expert import CANDIDATES, COIN_VP, EmeExpertise

    game = games.get("eight-minute-empire")
    expertise = EmeExpertise()
    checked = 0
    for state, prompt in searched_positions("eight-minute-empire", 2, 12, every=2, most=4):
        view = game.view(state, prompt.seat)
        found = expertise.candidates(view, prompt, 4)
        heuristic = game.ai("heuristic", 4).choose(game, state, prompt)
        assert found[0] == heuristic and len(found) == min(CANDIDATES, len(prompt.choices))
        assert len({c[0] for c in found}) == len(found) and {c[0] for c in found} <= set(prompt.choice_ids())
        # The leaf counts coins while turns are left: two more coins for us, 2 * COIN_VP more value
        # (early on, three or more turns to go), though the map's points stay the same.
        world = expertise.world(view, prompt, random.Random(1))
        before = expertise.value(world, view, prompt.seat)
        world.coins[prompt.seat] += 2
        if len(world.hands[prompt.seat]) <= view["target_cards"] - 3:
            assert expertise.value(world, view, prompt.seat) == pytest.approx(before + 2 * COIN_VP)
            checked += 1
    assert checked >= 2
