"""Tournament pairing: Swiss rounds (two-player and larger tables), knockout brackets and round robins.

Worked examples by hand, then properties under random entrant counts and random result histories.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations, pairwise
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from table.tournaments import (
    TWO_PLAYER,
    Bracket,
    Pairing,
    PairingError,
    PlayedRound,
    Standing,
    TableResult,
    TableSizes,
    champion,
    knockout,
    next_round,
    pair_swiss,
    round_robin,
    round_robin_length,
    round_robin_tables,
    split_tables,
    standings,
    swiss_rounds,
    winners,
)
from table.tournaments.formats import bracket_order, default_advance
from table.tournaments.pairing import BLOCK, _blocks, can_seat
from tests.test_layers import imported

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ROOT = Path(__file__).resolve().parents[1]


def lower_id_wins(pairing: Pairing) -> tuple[TableResult, ...]:
    return tuple(TableResult({e: place for place, e in enumerate(sorted(t), 1)}) for t in pairing.tables)


def random_results(pairing: Pairing, rng: random.Random) -> tuple[TableResult, ...]:
    """Random ranks, ties included (each player draws a rank from 1 to the table's size)."""
    return tuple(TableResult({e: rng.randint(1, len(t)) for e in t}) for t in pairing.tables)


def as_sets(pairing: Pairing) -> list[frozenset[int]]:
    return [frozenset(t) for t in pairing.tables]


def met_before(lines: Sequence[Standing]) -> dict[int, Counter[int]]:
    return {s.entrant: Counter(s.opponents) for s in lines}


PURE = ("__init__.py", "formats.py", "pairing.py", "standings.py")  # the service and its records sit above them


def test_the_pairing_core_stays_pure() -> None:
    walls = {"bot", "bench", "tests", "discord", "PIL", "storage", "sqlalchemy", "sqlmodel", "asyncio"}
    for name in PURE:
        path = ROOT / "table" / "tournaments" / name
        assert not imported(path) & walls, path


# --- table sizes and round counts -----------------------------------------------------------------------------


def test_swiss_rounds_is_the_ceiling_of_log2() -> None:
    assert [swiss_rounds(n) for n in (0, 1, 2, 3, 4, 5, 8, 9, 16, 17, 1024, 1025)] == [
        1,
        1,
        1,
        2,
        2,
        3,
        3,
        4,
        4,
        5,
        10,
        11,
    ]


def test_split_tables_keeps_close_to_the_preferred_size() -> None:
    four = TableSizes(2, 6, 4)
    assert [split_tables(n, four) for n in (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13)] == [
        (2,),
        (3,),
        (4,),
        (5,),
        (3, 3),
        (4, 3),
        (4, 4),
        (5, 4),
        (5, 5),  # as far from 4 as 4 3 3: the fewer tables
        (4, 4, 3),
        (5, 4, 4),
    ]
    assert split_tables(7, TableSizes(3, 4, 4)) == (4, 3)
    assert split_tables(12, TableSizes(2, 8, 6)) == (6, 6)


def test_a_field_that_cannot_be_split_is_refused_with_a_reason() -> None:
    with pytest.raises(PairingError, match="1 players cannot sit at tables of 2 to 6"):
        split_tables(1, TableSizes(2, 6, 4))
    with pytest.raises(PairingError, match="5 players cannot sit at tables of 3 to 4"):
        split_tables(5, TableSizes(3, 4, 4))
    with pytest.raises(PairingError, match="at least two active players"):
        pair_swiss(standings([1], []), 0)
    with pytest.raises(PairingError, match="2 players cannot make a table of 3"):
        pair_swiss(standings([1, 2], []), 0, TableSizes(3, 5, 4))
    with pytest.raises(PairingError):
        TableSizes(1, 4, 2)
    with pytest.raises(PairingError):
        TableSizes(2, 4, 5)


@given(st.integers(1, 300), st.integers(2, 6), st.integers(0, 4), st.integers(0, 4))
@SETTINGS
def test_split_tables_is_legal_or_refused(players: int, minimum: int, extra: int, above: int) -> None:
    sizes = TableSizes(minimum, minimum + extra + above, minimum + extra)
    if not can_seat(players, sizes):
        # refused only when no count of tables fits: k tables seat k * minimum to k * maximum players
        assert all(not k * sizes.minimum <= players <= k * sizes.maximum for k in range(1, players + 1))
        return
    split = split_tables(players, sizes)
    assert sum(split) == players
    assert all(sizes.minimum <= size <= sizes.maximum for size in split)
    assert max(split) - min(split) <= 1


def test_table_sizes_come_from_the_game() -> None:
    assert TableSizes.for_game("eggs-empires", 4) == TableSizes(2, 6, 4)
    assert TableSizes.for_game("eight-minute-empire", 3) == TableSizes(2, 4, 3)


# --- two-player Swiss: worked examples ------------------------------------------------------------------------


def test_eight_players_three_rounds_by_hand() -> None:
    """Round 1 folds the seeds (1 v 5, 2 v 6, ...); then score groups fold; the lower id always wins."""
    entrants = [1, 2, 3, 4, 5, 6, 7, 8]
    history: list[PlayedRound] = []
    rounds = []
    for number in range(3):
        pairing = pair_swiss(standings(entrants, history), seed=7 + number)
        rounds.append(as_sets(pairing))
        history.append(PlayedRound(pairing, lower_id_wins(pairing)))
    f = frozenset
    assert rounds == [
        [f({1, 5}), f({2, 6}), f({3, 7}), f({4, 8})],
        # winners 1, 2, 3, 4 fold among themselves, losers 5, 6, 7, 8 too
        [f({1, 3}), f({2, 4}), f({5, 7}), f({6, 8})],
        # groups: 1 and 2 (4 points), 3, 4, 5, 6 (2: 3 and 5 ahead on Buchholz), 7 and 8 (0)
        [f({1, 2}), f({3, 5}), f({4, 6}), f({7, 8})],
    ]
    final = standings(entrants, history)
    assert [(s.rank, s.entrant, s.points, s.buchholz) for s in final] == [
        (1, 1, 6, 10),
        (2, 2, 4, 12),
        (3, 3, 4, 10),
        (4, 4, 4, 6),
        (5, 5, 2, 12),
        (6, 6, 2, 8),
        (7, 7, 2, 6),
        (8, 8, 0, 8),
    ]


def test_the_bye_goes_to_the_lowest_ranked_without_one_and_is_a_win() -> None:
    entrants = [11, 12, 13, 14, 15]
    first = pair_swiss(standings(entrants, []), seed=3)
    assert first.byes == (15,)
    assert as_sets(first) == [frozenset({11, 13}), frozenset({12, 14})]
    history = [PlayedRound(first, lower_id_wins(first))]
    lines = standings(entrants, history)
    assert {s.entrant: s.points for s in lines}[15] == 2  # a bye is a two-player win
    second = pair_swiss(lines, seed=4)
    # 14 is last now, and has not had a bye; 15 (2 points) plays
    assert second.byes == (14,)
    assert 15 in second.entrants()


def test_rematches_are_avoided_until_everyone_has_met() -> None:
    entrants = [1, 2, 3, 4]
    history: list[PlayedRound] = []
    for number in range(3):
        pairing = pair_swiss(standings(entrants, history), seed=number)
        history.append(PlayedRound(pairing, lower_id_wins(pairing)))
    met = [frozenset(t) for r in history for t in r.pairing.tables]
    assert len(met) == len(set(met)) == 6  # three rounds, every pair once
    fourth = pair_swiss(standings(entrants, history), seed=9)  # now a rematch cannot be avoided
    assert sorted(fourth.entrants()) == entrants and len(fourth.tables) == 2


def test_seats_alternate_who_sits_first() -> None:
    entrants = list(range(1, 9))
    history: list[PlayedRound] = []
    for number in range(4):
        pairing = pair_swiss(standings(entrants, history), seed=number)
        firsts = {s.entrant: s.first_seats for s in standings(entrants, history)}
        for a, b in pairing.tables:
            assert firsts[a] <= firsts[b]  # the one who sat first less often sits first
        history.append(PlayedRound(pairing, lower_id_wins(pairing)))
    counts = Counter(t[0] for r in history for t in r.pairing.tables)
    assert sorted(counts.values()) != [4] * 4  # not the same four players first every round
    assert all(1 <= counts[e] <= 3 for e in entrants)


# --- two-player Swiss: properties -----------------------------------------------------------------------------


@given(st.integers(2, 1100), st.integers(1, 12), st.integers(0, 2**31))
@SETTINGS
def test_matching_blocks_cover_the_field_in_even_runs_of_sensible_size(players: int, groups: int, seed: int) -> None:
    rng = random.Random(seed)
    points = sorted((Fraction(rng.randrange(groups), rng.choice((1, 2))) for _ in range(players)), reverse=True)
    blocks = _blocks(points, BLOCK)
    assert blocks[0][0] == 0 and blocks[-1][1] == players
    assert all(a[1] == b[0] for a, b in pairwise(blocks))
    sizes = [end - start for start, end in blocks]
    assert all(size % 2 == 0 for size in sizes[:-1])  # only the last is odd, with an odd field (it has the bye)
    if players > BLOCK + BLOCK // 2:
        assert all(BLOCK // 2 - 1 <= size <= BLOCK + BLOCK // 2 + 1 for size in sizes)


def rematch_free_exists(players: Sequence[int], met: dict[int, Counter[int]]) -> bool:
    """Whether the players can all be paired with nobody meeting again (networkx on the unplayed pairs)."""
    graph = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from((a, b) for a, b in combinations(players, 2) if not met[a][b])
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(players)


def check_two_player_round(lines: Sequence[Standing], pairing: Pairing) -> None:
    active = [s.entrant for s in lines if not s.withdrawn]
    byes_had = {s.entrant: s.byes for s in lines}
    met = met_before(lines)
    # every active player exactly once (Pairing refuses a player placed twice), nobody else
    assert sorted(pairing.entrants()) == sorted(active)
    assert all(len(t) == 2 for t in pairing.tables)
    assert len(pairing.byes) == len(active) % 2
    if pairing.byes:
        fewest = min(byes_had[e] for e in active)
        assert byes_had[pairing.byes[0]] == fewest  # a second bye only when everyone has had one
    rematches = [t for t in pairing.tables if met[t[0]][t[1]]]
    if rematches:
        # no rematch-free pairing exists, whoever of the fewest byes takes the bye
        fewest = min(byes_had[e] for e in active)
        takers = [e for e in active if byes_had[e] == fewest] if len(active) % 2 else [None]
        assert not any(rematch_free_exists([e for e in active if e != t], met) for t in takers)


# entrants, rounds (all 8 for small fields, where rematches bite; 4 above 24), seed, chance someone withdraws
swiss_setups = st.tuples(st.integers(2, 200), st.integers(1, 8), st.integers(0, 2**31), st.floats(0, 1))


@given(swiss_setups)
@SETTINGS
def test_two_player_swiss_rounds_are_legal_and_avoid_what_they_can(setup: tuple[int, int, int, float]) -> None:
    entrants, rounds, seed, leaving = setup
    rng = random.Random(seed)
    ids = rng.sample(range(10**17, 10**17 + 10**6), entrants)
    gone: set[int] = set()
    history: list[PlayedRound] = []
    for number in range(rounds if entrants <= 24 else min(rounds, 4)):
        lines = standings(ids, history, gone)
        pairing = pair_swiss(lines, seed + number)
        check_two_player_round(lines, pairing)
        assert pair_swiss(lines, seed + number) == pairing  # deterministic
        history.append(PlayedRound(pairing, random_results(pairing, rng)))
        stay = [e for e in ids if e not in gone]
        if len(stay) > 2 and rng.random() < leaving:
            gone.add(rng.choice(stay))


@given(st.integers(6, 40), st.integers(0, 2**31))
@SETTINGS
def test_blocks_that_cannot_avoid_a_rematch_are_merged_until_the_field_can(entrants: int, seed: int) -> None:
    # Blocks of 4 run out of fresh opponents after a round or two: their merges are what avoids rematches.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("table.tournaments.pairing.BLOCK", 4)
        rng = random.Random(seed)
        ids = list(range(entrants))
        history: list[PlayedRound] = []
        for number in range(min(entrants - 1, 8)):
            lines = standings(ids, history)
            pairing = pair_swiss(lines, seed + number)
            check_two_player_round(lines, pairing)
            history.append(PlayedRound(pairing, random_results(pairing, rng)))


def random_results_decisive(pairing: Pairing, rng: random.Random) -> tuple[TableResult, ...]:
    """A winner drawn at each two-player table: no draws."""
    outcomes = []
    for a, b in pairing.tables:
        winner = rng.choice((a, b))
        outcomes.append(TableResult({winner: 1, (b if winner == a else a): 2}))
    return tuple(outcomes)


@given(st.integers(4, 200).filter(lambda n: n % 2 == 0), st.integers(0, 2**31))
@SETTINGS
def test_after_a_decisive_round_equal_scores_meet(entrants: int, seed: int) -> None:
    ids = list(range(entrants))
    first = pair_swiss(standings(ids, []), seed)
    history = [PlayedRound(first, random_results_decisive(first, random.Random(seed)))]
    lines = standings(ids, history)
    points = {s.entrant: s.points for s in lines}
    second = pair_swiss(lines, seed + 1)
    mixed = [t for t in second.tables if points[t[0]] != points[t[1]]]
    assert len(mixed) == (entrants // 2) % 2  # only when the winners are odd in number does one float down


# --- larger tables --------------------------------------------------------------------------------------------


def test_a_repeat_at_the_top_table_is_swapped_away() -> None:
    # After one round of draws (1-2, 3-4, 5-6, 7-8) everyone has 1 point: filled down the standings the
    # tables of four would be 1 2 3 4 and 5 6 7 8, two repeats each. Swapping fixes all four.
    entrants = list(range(1, 9))
    draws = Pairing(((1, 2), (3, 4), (5, 6), (7, 8)))
    history = [PlayedRound(draws, tuple(TableResult({a: 1, b: 1}) for a, b in draws.tables))]
    pairing = pair_swiss(standings(entrants, history), seed=1, sizes=TableSizes(2, 6, 4))
    assert as_sets(pairing) == [frozenset({2, 4, 5, 7}), frozenset({1, 3, 6, 8})]


def test_a_field_that_cannot_be_split_gives_byes_to_the_lowest_ranked() -> None:
    entrants = [1, 2, 3, 4, 5]
    sizes = TableSizes(3, 4, 4)  # five players: one table of four and a bye
    first = pair_swiss(standings(entrants, []), seed=0, sizes=sizes)
    assert first.byes == (5,) and as_sets(first) == [frozenset({1, 2, 3, 4})]
    history = [PlayedRound(first, lower_id_wins(first))]
    lines = standings(entrants, history)
    assert {s.entrant: s.points for s in lines}[5] == 4  # a win at the round's table of four
    assert pair_swiss(lines, seed=1, sizes=sizes).byes == (4,)  # 4 is last without a bye


def repeats(tables: Sequence[Sequence[int]], met: dict[int, Counter[int]]) -> int:
    return sum(met[a][b] for t in tables for a, b in combinations(t, 2))


table_setups = st.tuples(
    st.integers(2, 200),
    st.integers(1, 5),
    st.integers(0, 2**31),
    st.sampled_from(
        [
            TableSizes(2, 6, 4),
            TableSizes(3, 5, 4),
            TableSizes(2, 4, 3),
            TableSizes(3, 4, 4),
            TableSizes(2, 8, 6),
            TableSizes(4, 6, 5),
        ]
    ),
)


@given(table_setups)
@SETTINGS
def test_swiss_rounds_at_larger_tables_are_legal(setup: tuple[int, int, int, TableSizes]) -> None:
    entrants, rounds, seed, sizes = setup
    if entrants < sizes.minimum:
        with pytest.raises(PairingError):
            pair_swiss(standings(list(range(entrants)), []), seed, sizes)
        return
    rng = random.Random(seed)
    ids = list(range(1000, 1000 + entrants))
    history: list[PlayedRound] = []
    for number in range(rounds):
        lines = standings(ids, history)
        pairing = pair_swiss(lines, seed + number, sizes)
        assert sorted(pairing.entrants()) == sorted(ids)
        assert all(sizes.minimum <= len(t) <= sizes.maximum for t in pairing.tables)
        seated = entrants - len(pairing.byes)
        assert sorted((len(t) for t in pairing.tables), reverse=True) == list(split_tables(seated, sizes))
        # byes: only as many as it takes to seat the rest, to those with the fewest byes
        assert all(not can_seat(entrants - k, sizes) for k in range(len(pairing.byes)))
        had = {s.entrant: s.byes for s in lines}
        if pairing.byes:
            assert max(had[e] for e in pairing.byes) <= min(had[e] for t in pairing.tables for e in t)
        # the swaps never leave more repeats than filling down the standings would
        met = met_before(lines)
        order = [s.entrant for s in lines if s.entrant not in pairing.byes]
        filled, at = [], 0
        for size in split_tables(seated, sizes):
            filled.append(order[at : at + size])
            at += size
        assert repeats(pairing.tables, met) <= repeats(filled, met)
        history.append(PlayedRound(pairing, random_results(pairing, rng)))


# --- knockout -------------------------------------------------------------------------------------------------


def test_the_standard_bracket_of_sixteen() -> None:
    bracket = knockout({e: 2000 - e for e in range(1, 17)})
    assert bracket.pairing().tables == (
        (1, 16),
        (8, 9),
        (4, 13),
        (5, 12),
        (2, 15),
        (7, 10),
        (3, 14),
        (6, 11),
    )
    assert bracket.rounds == 4 and bracket.pairing().byes == ()
    assert bracket_order(4, 2) == [0, 3, 1, 2]


def test_twelve_players_the_top_four_seeds_have_byes_and_the_bracket_runs_to_a_champion() -> None:
    ratings = {e: 2000 - e for e in range(1, 13)}
    bracket = knockout(ratings)
    assert bracket.groups == ((1,), (8, 9), (4,), (5, 12), (2,), (7, 10), (3,), (6, 11))
    assert bracket.pairing().byes == (1, 4, 2, 3)
    # upsets everywhere: the higher id wins
    upsets = [TableResult({e: (1 if e == max(t) else 2) for e in t}) for t in bracket.pairing().tables]
    second = next_round(bracket, upsets)
    assert second.groups == ((1, 9), (4, 12), (2, 10), (3, 11))
    drawn = [TableResult(dict.fromkeys(t, 1)) for t in bracket.pairing().tables]
    assert next_round(bracket, drawn).groups == ((1, 8), (4, 5), (2, 7), (3, 6))  # a draw: the better seed
    third = next_round(second, [TableResult({e: (1 if e == max(t) else 2) for e in t}) for t in second.groups])
    assert third.groups == ((9, 12), (10, 11))
    final = next_round(third, [TableResult({e: (1 if e == max(t) else 2) for e in t}) for t in third.groups])
    assert final.final and final.groups == ((11, 12),)
    assert champion(final, TableResult({11: 1, 12: 1})) == 11  # a tied final: the better seed
    with pytest.raises(PairingError):
        next_round(final, [TableResult({11: 1, 12: 2})])


def test_ratings_seed_the_bracket_and_equal_ratings_go_by_id() -> None:
    bracket = knockout({40: 1500.0, 10: 1500.0, 30: 1700.0, 20: 1400.0})
    assert bracket.seeds == (30, 10, 40, 20)
    assert bracket.pairing().tables == ((30, 20), (10, 40))


def test_a_knockout_at_tables_of_four_sends_two_on_and_fills_whole_tables() -> None:
    bracket = knockout({e: -e for e in range(1, 21)}, table_size=4)
    # 20 players: a bracket of 32 seats (8, 4, 2, 1 tables). Eight round-1 tables of at least 3 would need
    # 24 players: seeds 1-8 go through (in pairs, snaking: 1 with 8, 2 with 7...), seeds 9-20 play four
    # tables of three, snaking too (9 with 16 and 17...). Round 2 has four whole tables.
    assert bracket.advance == 2 and bracket.rounds == 4
    assert bracket.groups == ((1, 8), (12, 13, 20), (4, 5), (9, 16, 17), (2, 7), (11, 14, 19), (3, 6), (10, 15, 18))
    assert bracket.pairing().byes == (1, 8, 4, 5, 2, 7, 3, 6)
    second = next_round(bracket, lower_id_wins(bracket.pairing()))
    assert second.groups == ((1, 8, 12, 13), (4, 5, 9, 16), (2, 7, 11, 14), (3, 6, 10, 15))
    third = next_round(second, lower_id_wins(second.pairing()))
    assert third.groups == ((1, 4, 5, 8), (2, 3, 6, 7))  # seeds 1 and 2 can meet in the final only
    final = next_round(third, lower_id_wins(third.pairing()))
    assert final.final and final.groups == ((1, 2, 3, 4),)
    assert champion(final, lower_id_wins(final.pairing())[0]) == 1


def test_default_advance_divides_the_table() -> None:
    assert [default_advance(s) for s in range(2, 9)] == [1, 1, 2, 1, 3, 1, 4]
    with pytest.raises(PairingError, match="must divide"):
        knockout({1: 1, 2: 2, 3: 3}, table_size=5, advance=2)
    with pytest.raises(PairingError, match="at least"):
        knockout({1: 1})
    with pytest.raises(PairingError, match="cannot be played at tables of 2"):
        knockout({1: 1, 2: 2}, minimum=3)


def test_a_knockout_respects_the_games_least_players() -> None:
    # Seven players at a game for 3 (tables of 3, the winner goes on): seed 1 waits, two tables of three.
    bracket = knockout({e: -e for e in range(1, 8)}, table_size=3, minimum=3)
    assert bracket.pairing().byes == (1,)
    assert sorted(bracket.pairing().tables) == [(2, 5, 6), (3, 4, 7)]
    # Eight cannot fill a bracket of three tables of exactly three, and no bye makes them fit.
    with pytest.raises(PairingError, match="8 players cannot fill a bracket of tables of 3 to 3"):
        knockout({e: -e for e in range(1, 9)}, table_size=3, minimum=3)


def play_bracket(bracket: Bracket, rng: random.Random) -> tuple[list[Bracket], int]:
    rounds = [bracket]
    while True:
        results = random_results(bracket.pairing(), rng)
        if bracket.final:
            return rounds, champion(bracket, results[0])
        going = winners(bracket, results)
        bracket = next_round(bracket, results)
        assert sorted(e for g in bracket.groups for e in g) == sorted(going)
        rounds.append(bracket)


knockout_setups = st.tuples(
    st.integers(2, 200), st.sampled_from([(2, 1), (3, 1), (4, 2), (4, 1), (5, 1), (6, 3), (6, 2)])
)


@given(knockout_setups, st.integers(0, 2**31))
@SETTINGS
def test_knockout_brackets_are_consistent(setup: tuple[int, tuple[int, int]], seed: int) -> None:
    entrants, (size, advance) = setup
    rng = random.Random(seed)
    ratings = {e: rng.choice([1200.0, 1500.0, rng.uniform(800, 2200)]) for e in rng.sample(range(1, 10**6), entrants)}
    rounds, winner = play_bracket(knockout(ratings, size, advance), rng)
    first = rounds[0]
    seeds = first.seeds
    branching = size // advance
    # as many rounds as it takes a table of `size` to hold the field after multiplying by the branching
    assert len(rounds) == first.rounds == next(r for r in range(1, 99) if size * branching ** (r - 1) >= entrants)
    if size == 2:
        assert first.rounds == math.ceil(math.log2(entrants))
    # round 1: everyone once; the byes are the top seeds; the tables' sizes are legal
    assert sorted(first.pairing().entrants()) == sorted(ratings)
    byes = first.pairing().byes
    if not first.final:
        assert set(byes) == set(seeds[: len(byes)])
        assert all(advance < len(t) <= size for t in first.pairing().tables)
    # later rounds: whole tables, no byes, only players who went on; one table in the final
    out: set[int] = set()
    for before, after in pairwise(rounds):
        playing = set(after.pairing().entrants())
        assert playing <= set(before.pairing().entrants())
        assert not playing & out
        out |= set(before.pairing().entrants()) - playing
        assert after.pairing().byes == () and all(len(g) == size for g in after.groups)
    assert len(rounds[-1].groups) == 1 and winner in rounds[-1].groups[0] and winner not in out


# --- round robin ----------------------------------------------------------------------------------------------


@given(st.integers(2, 41), st.integers(0, 2**31))
@SETTINGS
def test_two_player_round_robin_pairs_everyone_once(entrants: int, seed: int) -> None:
    ids = list(range(500, 500 + entrants))
    schedule = round_robin(ids, seed)
    assert (
        len(schedule) == (entrants - 1 if entrants % 2 == 0 else entrants) == round_robin_length(entrants, TWO_PLAYER)
    )
    pairs = Counter(frozenset(t) for r in schedule for t in r.tables)
    assert set(pairs) == {frozenset(p) for p in combinations(ids, 2)} and set(pairs.values()) == {1}
    for r in schedule:
        assert sorted(r.entrants()) == ids and len(r.byes) == entrants % 2
    assert Counter(e for r in schedule for e in r.byes) == Counter(ids if entrants % 2 else [])
    # everyone sits first in half their games, rounded
    games = Counter(e for r in schedule for t in r.tables for e in t)
    firsts = Counter(t[0] for r in schedule for t in r.tables)
    assert all(abs(2 * firsts[e] - games[e]) <= 1 for e in ids)
    assert round_robin(ids, seed) == schedule


def test_round_robin_length_is_the_fewest_rounds_to_meet_everyone() -> None:
    assert round_robin_length(16, TableSizes(2, 6, 4)) == 5  # 15 opponents, 3 a round
    assert round_robin_length(9, TableSizes(2, 6, 3)) == 4  # 8 opponents, 2 a round
    assert round_robin_length(10, TableSizes(2, 6, 4)) == 3  # tables of 5 and 5: 4 opponents a round
    assert round_robin_length(5, TableSizes(3, 4, 4)) == 2  # one table of four, one bye: 2.4 a round


rr_setups = st.tuples(
    st.integers(2, 36),
    st.sampled_from(
        [TableSizes(2, 6, 4), TableSizes(2, 6, 3), TableSizes(3, 5, 5), TableSizes(2, 8, 6), TableSizes(3, 4, 4)]
    ),
    st.integers(0, 2**31),
)


@given(rr_setups)
@SETTINGS
def test_round_robin_at_larger_tables_keeps_meetings_even(setup: tuple[int, TableSizes, int]) -> None:
    entrants, sizes, seed = setup
    ids = list(range(entrants))
    if entrants < sizes.minimum:
        with pytest.raises(PairingError):
            round_robin_tables(ids, sizes, seed)
        return
    schedule = round_robin_tables(ids, sizes, seed)
    assert len(schedule) == round_robin_length(entrants, sizes)
    byes: Counter[int] = Counter()
    for r in schedule:
        assert sorted(r.entrants()) == ids
        assert all(sizes.minimum <= len(t) <= sizes.maximum for t in r.tables)
        assert all(not can_seat(entrants - k, sizes) for k in range(len(r.byes)))  # only the byes it takes
        byes.update(r.byes)
    assert not byes or max(byes.values()) - min(byes[e] for e in ids) <= 1  # byes rotate
    meetings = Counter(frozenset(p) for r in schedule for t in r.tables for p in combinations(t, 2))
    mean = sum(meetings.values()) / math.comb(entrants, 2)
    assert max(meetings.values()) <= math.ceil(mean) + 1  # the promise (formats.py, docs/tournaments.md)
    assert round_robin_tables(ids, sizes, seed) == schedule


# --- the benchmark runs ---------------------------------------------------------------------------------------


def test_the_benchmark_measures_both_table_sizes() -> None:
    from bench.tournament import pair_swiss_round_figures

    figures = pair_swiss_round_figures(entrants=40, rounds=2, repeats=1, seed=3)
    assert set(figures) == {"swiss_two_player_40_cpu_s", "swiss_four_player_40_cpu_s"}
    assert all(value >= 0 for value in figures.values())
