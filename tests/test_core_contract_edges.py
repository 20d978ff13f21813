"""games/core.py at its edges: what the contract tests left unchecked, found by mutation testing (issue 24).

Each test names the mistake it catches; `make mutation` measures what is still left (bench/REPORT.md).
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import games
from games.ai import RandomPlayer
from games.core import MAX_CHOICE_ID, NO_INFO, Choice, Game, IllegalAction, Option, Prompt, Rng, check_choice


# --- Rng: the words each draw consumes, which a restored game relies on to stay in step ---------------
@pytest.mark.parametrize(
    ("n", "words"),
    [
        (1, 1),
        (2, 1),
        (2**31, 1),
        (2**32 - 1, 1),  # 32 bits: one word
        (2**32, 2),  # 33 bits: two
        (2**33 - 1, 2),
        (2**64 - 1, 2),
        (2**64, 3),
        (2**96 - 1, 3),
        (2**96, 4),
    ],
)
def test_a_draw_of_n_counts_one_32_bit_word_per_32_bits_per_attempt(n: int, words: int) -> None:
    reference = random.Random(2024)
    reference.getrandbits(32 * 3)
    attempts = 1
    while reference.getrandbits(n.bit_length()) >= n:  # rejected: drawn again
        attempts += 1
    rng = Rng(2024, 3)
    rng.randrange(n)
    assert rng.words == 3 + words * attempts


@pytest.mark.parametrize("n", [2**32 - 1, 2**32, 2**32 + 1, 2**33, 2**64 - 1, 2**64, 2**64 + 1, 3 * 2**40])
def test_a_generator_restored_after_wide_draws_continues_in_step(n: int) -> None:
    rng = Rng(99)
    for _ in range(7):  # several, so rejected attempts (about half of them for 2**32 + 1) are counted too
        rng.randrange(n)
    restored = Rng.from_json(rng.to_json())
    assert [restored.randrange(1000) for _ in range(20)] == [rng.randrange(1000) for _ in range(20)]
    assert restored.to_json() == rng.to_json()


def test_a_draw_gives_the_mersenne_twister_bits_in_order() -> None:
    """Stored games replay from their seed: a draw is `getrandbits(bit_length)`, retried while >= n."""
    rng, reference = Rng(5), random.Random(5)
    for n in (6, 1000, 2**32 + 3, 7):
        r = reference.getrandbits(n.bit_length())
        while r >= n:
            r = reference.getrandbits(n.bit_length())
        assert rng.randrange(n) == r


def test_a_one_item_range_and_a_one_item_choice_need_no_luck() -> None:
    rng = Rng(3)
    assert rng.randrange(1) == 0
    assert rng.choice(["only"]) == "only"
    for bad in (0, -1):
        with pytest.raises(ValueError, match=r"^randrange needs n >= 1$"):
            rng.randrange(bad)


def test_a_choice_picks_by_randrange() -> None:
    items = list("abcdefgh")
    a, b = Rng(17), Rng(17)
    assert [a.choice(items) for _ in range(30)] == [items[b.randrange(len(items))] for _ in range(30)]


def test_shuffling_one_item_or_none_draws_nothing() -> None:
    rng = Rng(8, 5)
    for items in ([], ["x"]):
        rng.shuffle(items)
    assert rng.words == 5
    pair = ["a", "b"]
    rng.shuffle(pair)
    assert rng.words == 6 and sorted(pair) == ["a", "b"]


def test_restoring_skips_exactly_the_words_drawn() -> None:
    assert Rng(7, 0)._random.getrandbits(32) == random.Random(7).getrandbits(32)
    skipped = random.Random(7)
    skipped.getrandbits(32 * 4)
    assert Rng(7, 4)._random.getrandbits(32) == skipped.getrandbits(32)
    assert Rng.from_json(["12", "3"]).to_json() == [12, 3]  # type: ignore[list-item]


# --- choices and options ------------------------------------------------------------------------------
def test_a_choice_id_of_the_largest_allowed_length_is_accepted() -> None:
    longest = "x" * MAX_CHOICE_ID
    assert MAX_CHOICE_ID == 20
    assert Choice(longest, "twenty characters").id == longest
    for bad in ("", "y" * (MAX_CHOICE_ID + 1)):
        with pytest.raises(ValueError, match=re.escape(f"choice id {bad!r} must have 1..20 characters")):
            Choice(bad, "bad")


def test_a_choice_keeps_its_label_and_data_which_take_no_part_in_equality() -> None:
    plain = Choice("a", "A")
    assert plain.label == "A" and plain.data is NO_INFO and dict(plain.data) == {}
    rich = Choice("a", "other words", {"card": 3})
    assert rich.data == {"card": 3}
    assert rich == Choice("a", "other words") and hash(rich) == hash(Choice("a", "other words", {"card": 4}))
    assert rich != plain  # the label counts


def test_a_prompt_lists_its_choice_ids_and_defaults_to_one_pick_in_the_open() -> None:
    prompt = Prompt(seat=0, kind="pick", choices=[Choice("a", "A"), Choice("b", "B")])
    assert prompt.choice_ids() == ["a", "b"]
    assert (prompt.pick, prompt.secret, prompt.text, dict(prompt.info)) == (1, False, "", {})


def test_a_boolean_option_refuses_numbers_and_a_numeric_option_refuses_booleans() -> None:
    flag = Option("on", (False, True), False, "a switch")
    assert flag.parse(True) is True and flag.parse(False) is False
    assert flag.parse(" false ") is False
    for number in (1, 0):  # equal to True and False, but not booleans
        with pytest.raises(ValueError, match=f"^option 'on' cannot be {number}; choose one of: False, True$"):
            flag.parse(number)
    speed = Option("speed", (1, 2, 3), 2, "how fast")
    with pytest.raises(ValueError, match="choose one of: 1, 2, 3"):
        speed.parse(True)
    assert speed.parse(3) == 3 and type(speed.parse("2")) is int


def test_an_option_gives_the_allowed_value_equal_to_the_one_asked_before_any_text_form() -> None:
    mode = Option("mode", ("Classic", "classic"), "classic", "two values that read alike")
    assert mode.parse("classic") == "classic" and mode.parse("Classic") == "Classic"
    assert mode.parse(" CLASSIC ") == "Classic"  # by text: the first that reads so


# --- check_choice -------------------------------------------------------------------------------------
def _prompts() -> list[Prompt]:
    return [
        Prompt(seat=1, kind="pick", choices=[Choice("a", "A"), Choice("b", "B"), Choice("c", "C")], pick=2),
        Prompt(seat=2, kind="pick", choices=[Choice("z", "Z")]),
    ]


def test_check_choice_refuses_a_seat_given_as_a_boolean_or_text() -> None:
    prompts = _prompts()
    for seat in (True, "1", 1.0, None):
        with pytest.raises(IllegalAction, match=r"^A seat is given by its number\.$"):
            check_choice(prompts, seat, ["a", "b"])  # type: ignore[arg-type]


def test_check_choice_finds_the_seats_own_prompt_among_several() -> None:
    prompts = _prompts()
    assert check_choice(prompts, 2, ["z"]) is prompts[1]
    assert check_choice(prompts, 1, ("b", "c")) is prompts[0]
    with pytest.raises(IllegalAction, match=r"^It is not your turn to decide\.$"):
        check_choice(prompts, 0, ["a"])
    with pytest.raises(IllegalAction, match=r"^The game is over\.$"):
        check_choice([], 0, ["a"])
    with pytest.raises(IllegalAction, match=r"^'z' is not one of the choices offered now\.$"):
        check_choice(prompts, 1, ["a", "z"])


def test_check_choice_wants_exactly_pick_different_choices() -> None:
    prompts = _prompts()
    with pytest.raises(IllegalAction, match=r"^Choose exactly 2 options\.$"):
        check_choice(prompts, 1, ["a"])
    with pytest.raises(IllegalAction, match=r"Choose exactly 1 option\.$"):
        check_choice(prompts, 2, [])
    with pytest.raises(IllegalAction, match=r"^Choose different options, not the same one twice\.$"):
        check_choice(prompts, 1, ["a", "a"])
    for not_a_list in ("ab", {"a": 1, "b": 2}, 7):
        with pytest.raises(IllegalAction, match=r"^A decision is a list of choice ids\.$"):
            check_choice(prompts, 1, not_a_list)  # type: ignore[arg-type]


# --- Game: the base class's shared behaviour -----------------------------------------------------------
class _Bare(Game[None]):
    """The least a game writes: the contract's methods, each calling the base class's (which refuses)."""

    key = "bare"
    title = "Bare"
    min_players = 2
    max_players = 4
    options: tuple[Option, ...] = (
        Option("speed", (1, 2, 3), 2, "how fast"),
        Option("on", (False, True), False, "a switch"),
    )

    def new(self, players: int, seed: int, options: dict[str, Any] | None = None) -> None:
        return super().new(players, seed, options)  # type: ignore[safe-super]

    def prompts(self, state: None) -> list[Prompt]:
        return super().prompts(state)  # type: ignore[safe-super]

    def apply(self, state: None, seat: int, choice: list[str]) -> list[dict[str, Any]]:
        return super().apply(state, seat, choice)  # type: ignore[safe-super]

    def view(self, state: None, seat: int | None) -> dict[str, Any]:
        return super().view(state, seat)  # type: ignore[safe-super]

    def outcome(self, state: None) -> dict[str, Any] | None:
        return super().outcome(state)  # type: ignore[safe-super]

    def to_json(self, state: None) -> dict[str, Any]:
        return super().to_json(state)  # type: ignore[safe-super]

    def from_json(self, data: dict[str, Any]) -> None:
        return super().from_json(data)  # type: ignore[safe-super]

    def players(self, state: None) -> int:
        return super().players(state)  # type: ignore[safe-super]


def test_a_game_that_misses_part_of_the_contract_cannot_be_made() -> None:
    class Half(Game[None]):
        def new(self, players: int, seed: int, options: dict[str, Any] | None = None) -> None:
            return None

    with pytest.raises(TypeError, match="abstract"):
        Half()  # type: ignore[abstract]


def test_options_resolve_to_defaults_overlaid_with_parsed_values() -> None:
    bare = _Bare()
    assert bare.resolve_options(None) == {"speed": 2, "on": False}
    assert bare.resolve_options({"on": "true"}) == {"speed": 2, "on": True}
    with pytest.raises(ValueError, match="unknown option 'fast' for Bare; known options: speed, on"):
        bare.resolve_options({"fast": 1})


def test_a_game_without_options_says_it_has_none() -> None:
    class Plain(_Bare):
        options = ()

    with pytest.raises(ValueError, match="known options: none"):
        Plain().resolve_options({"speed": 1})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_player_counts_inside_the_range_are_accepted(players: int) -> None:
    _Bare().check_players(players)


@pytest.mark.parametrize("players", [1, 5, True, 2.0, "3"])
def test_player_counts_outside_the_range_or_not_counts_are_refused(players: object) -> None:
    with pytest.raises(ValueError, match="Bare is played by 2 to 4 players"):
        _Bare().check_players(players)  # type: ignore[arg-type]


def test_the_base_game_refuses_the_contract_and_offers_a_random_ai_and_no_scoring_variant() -> None:
    bare = _Bare()
    for call in (
        lambda: bare.new(2, 1),
        lambda: bare.prompts(None),
        lambda: bare.apply(None, 0, []),
        lambda: bare.view(None, None),
        lambda: bare.outcome(None),
        lambda: bare.to_json(None),
        lambda: bare.from_json({}),
        lambda: bare.players(None),
    ):
        with pytest.raises(NotImplementedError):
            call()
    assert bare.ai_levels == ("random",)
    player, same_seed = bare.ai("random", 12), RandomPlayer(12)
    assert type(player) is RandomPlayer
    engine = games.get("eggs-empires")
    state = engine.new(3, 4)
    for prompt in engine.prompts(state) * 20:  # the same seed: the same picks
        assert player.choose(engine, state, prompt) == same_seed.choose(engine, state, prompt)
    with pytest.raises(ValueError, match=r"^unknown AI level 'genius'; known: random$"):
        bare.ai("genius", 1)
    assert bare.score_variant({"speed": 3}) is None and bare.play_kinds == frozenset()
    assert bare.play_names(Prompt(0, "pick", [Choice("a", "A")]), [Choice("a", "A"), Choice("b", "Bee")]) == [
        "A",
        "Bee",
    ]
    assert list(bare.sample_options) == [{}]

    class Leveled(_Bare):
        ai_levels = ("random", "greedy")

    with pytest.raises(ValueError, match=r"^unknown AI level 'genius'; known: random, greedy$"):
        Leveled().ai("genius", 1)


def test_views_asks_view_for_each_seat() -> None:
    class Viewed(_Bare):
        def view(self, state: None, seat: int | None) -> dict[str, object]:
            return {"seat": seat}

    assert Viewed().views(None, [None, 0, 3]) == {None: {"seat": None}, 0: {"seat": 0}, 3: {"seat": 3}}


def test_describe_is_the_plain_text_of_a_view() -> None:
    from games.text import format_view

    view = {"round": 2, "players": [{"score": 3}]}
    assert _Bare().describe(view) == format_view(view)


def test_the_registry_finds_games_by_key() -> None:
    assert games.keys() == sorted(games.keys()) and "eggs-empires" in games.keys()
    assert games.get("eggs-empires").key == "eggs-empires"
