"""The stored JSON text (storage.types.dump_json): orjson writes exactly what the standard library wrote
before it, for every state the games reach, so rows written before and after the change read the same
and the same state always gives the same text; what orjson refuses still goes through `json`."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games.ai import RandomPlayer
from storage.types import _standard_json, dump_json


@settings(max_examples=12, deadline=None)
@given(key=st.sampled_from(games.keys()), seed=st.integers(0, 2**31), moves=st.integers(1, 120))
def test_every_state_a_game_reaches_is_written_as_the_standard_library_wrote_it(
    key: str, seed: int, moves: int
) -> None:
    game = games.get(key)
    players = game.min_players if hasattr(game, "min_players") else 2
    state = game.new(max(2, players), seed, game.resolve_options({}))
    ai = RandomPlayer(seed)
    for _ in range(moves):
        text = dump_json(game.to_json(state))
        assert text == _standard_json(game.to_json(state))
        assert json.loads(text) == game.to_json(state)
        prompts = game.prompts(state)
        if not prompts or game.outcome(state) is not None:
            break
        prompt = prompts[0]
        game.apply(state, prompt.seat, ai.choose(game, state, prompt))


def test_a_reggverse_state_to_keep_shares_nothing_with_the_live_one() -> None:
    """`to_json` copies (a caller may keep it while the game moves on); `to_json_to_write` need not."""
    game = games.get("reggverse-riddles")
    state = game.new(3, 5, game.resolve_options({}))
    ai = RandomPlayer(5)
    for _ in range(60):
        kept = game.to_json(state)
        before = _standard_json(kept)
        prompt = game.prompts(state)[0]
        game.apply(state, prompt.seat, ai.choose(game, state, prompt))
        assert _standard_json(kept) == before, "a move changed nothing in what to_json gave before it"
        assert _standard_json(game.to_json_to_write(state)) == _standard_json(game.to_json(state))


def test_what_orjson_refuses_is_written_by_the_standard_library() -> None:
    assert dump_json({2: "a", 1: "b"}) == '{"1":"b","2":"a"}'  # keys that are not strings
    assert dump_json({"big": 2**70}) == '{"big":1180591620717411303424}'  # beyond 64 bits
    assert dump_json({"b": "é", "a": [1, None, True]}) == '{"a":[1,null,true],"b":"é"}'
