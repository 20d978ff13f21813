"""Tournament standings: the points rule, shared places, Buchholz and the order of the standings."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table.tournaments import (
    TWO_PLAYER,
    Pairing,
    PairingError,
    PlayedRound,
    TableResult,
    TableSizes,
    pair_swiss,
    standings,
    table_points,
)
from table.tournaments.records import no_shows_last, result_from, result_json
from table.tournaments.standings import bye_points, place_points, table_total

SETTINGS = settings(max_examples=40, deadline=None)


def played(tables: list[tuple[int, ...]], ranks: list[list[int]], byes: tuple[int, ...] = ()) -> PlayedRound:
    """A round whose table k ranks its seats as ranks[k] says (seat order)."""
    results = tuple(TableResult(dict(zip(t, r, strict=True))) for t, r in zip(tables, ranks, strict=True))
    return PlayedRound(Pairing(tuple(tables), byes, len(tables[0]) if tables else 2), results)


# --- the points rule ------------------------------------------------------------------------------------------


def test_the_points_rule_at_every_table_size() -> None:
    assert [[place_points(n, r) for r in range(1, n + 1)] for n in range(2, 7)] == [
        [2, 0],
        [3, 1, 0],
        [4, 2, 1, 0],
        [5, 3, 2, 1, 0],
        [6, 4, 3, 2, 1, 0],
    ]
    assert [table_total(n) for n in range(2, 7)] == [2, 4, 7, 11, 16]
    assert bye_points(2) == 2 and bye_points(4) == 4


def test_tied_players_share_the_places_they_span() -> None:
    assert table_points({1: 1, 2: 1}) == {1: 1, 2: 1}  # a two-player draw
    assert table_points({1: 1, 2: 1, 3: 3, 4: 4}) == {1: 3, 2: 3, 3: 1, 4: 0}  # (4 + 2) / 2
    assert table_points({1: 1, 2: 2, 3: 2, 4: 4}) == {1: 4, 2: Fraction(3, 2), 3: Fraction(3, 2), 4: 0}
    assert table_points({1: 1, 2: 1, 3: 1, 4: 4}) == {1: Fraction(7, 3), 2: Fraction(7, 3), 3: Fraction(7, 3), 4: 0}
    assert table_points({1: 2, 2: 2, 3: 2}) == {1: Fraction(4, 3), 2: Fraction(4, 3), 3: Fraction(4, 3)}


def test_dense_and_competition_ranks_give_the_same_points() -> None:
    assert table_points({1: 1, 2: 1, 3: 2, 4: 3}) == table_points({1: 1, 2: 1, 3: 3, 4: 4})


@given(st.integers(2, 8).flatmap(lambda n: st.lists(st.integers(1, n), min_size=n, max_size=n)))
@SETTINGS
def test_a_table_hands_out_the_same_points_with_or_without_ties(ranks: list[int]) -> None:
    points = table_points(dict(enumerate(ranks)))
    assert sum(points.values()) == table_total(len(ranks))
    # a better rank never scores less, equal ranks score the same
    for a, ra in enumerate(ranks):
        for b, rb in enumerate(ranks):
            if ra < rb:
                assert points[a] > points[b]
            elif ra == rb:
                assert points[a] == points[b]


def test_ranks_start_at_one() -> None:
    with pytest.raises(PairingError):
        TableResult({1: 0, 2: 1})


def test_a_no_show_scores_nothing_and_the_players_who_came_share_the_places_from_the_first() -> None:
    # At a table of four, the no-show's stand-in won (rank 1): the three who came score 4, 2, 1 as if
    # they had been alone in the places 1 to 3, and the no-show none.
    assert table_points({1: 1, 2: 2, 3: 3, 4: 4}, forfeited={1}) == {1: 0, 2: 4, 3: 2, 4: 1}
    assert table_points({1: 2, 2: 1}, forfeited={1, 2}) == {1: 0, 2: 0}  # two no-shows: nobody scores
    shown = no_shows_last(TableResult({1: 1, 2: 2, 3: 2, 4: 4}, {1: 9.0, 2: 5.0, 3: 5.0, 4: 1.0}), {1})
    assert shown.ranks == {2: 1, 3: 1, 4: 3, 1: 4} and shown.forfeited == {1}
    assert shown.scores == {1: 9.0, 2: 5.0, 3: 5.0, 4: 1.0}  # the game's scores stay as they were
    assert result_from(result_json(shown)) == shown  # stored and read back
    table = {
        s.entrant: s
        for s in standings(
            [1, 2], [PlayedRound(Pairing(((1, 2),), (), 2), (no_shows_last(TableResult({1: 1, 2: 2}), {1}),))]
        )
    }
    assert (table[1].points, table[1].wins, table[2].points, table[2].wins) == (0, 0, 2, 1)
    assert table[1].opponents == (2,)  # the no-show met their opponent all the same
    with pytest.raises(PairingError):
        TableResult({1: 1, 2: 2}, forfeited=frozenset({3}))


# --- standings ------------------------------------------------------------------------------------------------


def test_buchholz_by_hand() -> None:
    # Round 1: 1 beats 2, 3 beats 4. Round 2: 1 beats 3, 4 beats 2.
    rounds = [played([(1, 2), (3, 4)], [[1, 2], [1, 2]]), played([(1, 3), (2, 4)], [[1, 2], [2, 1]])]
    table = {s.entrant: s for s in standings([1, 2, 3, 4], rounds)}
    assert {e: s.points for e, s in table.items()} == {1: 4, 2: 0, 3: 2, 4: 2}
    # 1 met 2 (0) and 3 (2); 2 met 1 (4) and 4 (2); 3 met 4 (2) and 1 (4); 4 met 3 (2) and 2 (0)
    assert {e: s.buchholz for e, s in table.items()} == {1: 2, 2: 6, 3: 6, 4: 2}
    assert [s.entrant for s in standings([1, 2, 3, 4], rounds)] == [1, 3, 4, 2]
    assert [s.rank for s in standings([1, 2, 3, 4], rounds)] == [1, 2, 3, 4]


def test_buchholz_at_a_four_player_table_sums_every_opponent() -> None:
    # Round 1: one table of four (1 > 2 > 3 > 4) and 5 has the bye (a table win: 4).
    # Round 2: 1, 5 and 4 at a table of three (5 > 1 > 4), 2 and 3 at a table of two (tied).
    first = played([(1, 2, 3, 4)], [[1, 2, 3, 4]], byes=(5,))
    second = PlayedRound(
        Pairing(((1, 5, 4), (2, 3)), (), 4),
        (TableResult({1: 2, 5: 1, 4: 3}), TableResult({2: 1, 3: 1})),
    )
    table = {s.entrant: s for s in standings([1, 2, 3, 4, 5], [first, second])}
    points = {e: s.points for e, s in table.items()}
    assert points == {1: 5, 2: 3, 3: 2, 4: 0, 5: 7}
    assert table[1].opponents == (2, 3, 4, 5, 4)  # 4 twice: met at both tables
    assert table[1].buchholz == points[2] + points[3] + points[4] + points[5] + points[4]
    assert table[5].buchholz == points[1] + points[4]  # the bye brings nothing
    assert (table[5].byes, table[5].played, table[5].wins) == (1, 1, 1)
    assert (table[2].wins, table[3].wins) == (1, 1)  # a shared first place is a win for both


def test_order_is_points_then_buchholz_then_score_then_seed_and_full_ties_share_a_rank() -> None:
    # Entered as 6, 5, 4, 3, 2, 1 (6 is seed 0). 1 beats 2 by 10 to 3, 3 beats 4 by 7 to 6: 1 and 3 are
    # level on points and Buchholz, 1's score is higher. 5 and 6 drew 4 to 4: level on everything, so
    # they share third place, listed by seed. 4 and 2 are level on points and Buchholz: 4 scored more.
    scores = [{1: 10, 2: 3}, {3: 7, 4: 6}, {5: 4, 6: 4}]
    ranks = [{1: 1, 2: 2}, {3: 1, 4: 2}, {5: 1, 6: 1}]
    results = tuple(TableResult(r, s) for r, s in zip(ranks, scores, strict=True))
    rounds = [PlayedRound(Pairing(((1, 2), (3, 4), (5, 6))), results)]
    lines = standings([6, 5, 4, 3, 2, 1], rounds)
    assert [(s.entrant, s.rank) for s in lines] == [(1, 1), (3, 2), (6, 3), (5, 3), (4, 5), (2, 6)]
    assert [s.score for s in lines] == [10, 7, 4, 4, 6, 3]
    assert [s.seed for s in lines] == [5, 3, 0, 1, 2, 4]


def test_withdrawn_entrants_keep_their_line_and_are_not_paired() -> None:
    rounds = [played([(1, 2), (3, 4)], [[1, 2], [2, 1]])]
    lines = standings([1, 2, 3, 4], rounds, withdrawn={4})
    assert [(s.entrant, s.points, s.withdrawn) for s in lines] == [
        (1, 2, False),
        (4, 2, True),
        (2, 0, False),
        (3, 0, False),
    ]
    pairing = pair_swiss(lines, seed=1)
    assert 4 not in pairing.entrants()
    assert set(pairing.entrants()) == {1, 2, 3} and len(pairing.byes) == 1


def test_a_table_still_playing_counts_nothing_yet() -> None:
    rounds = [PlayedRound(Pairing(((1, 2), (3, 4))), (TableResult({1: 1, 2: 2}), None))]
    table = {s.entrant: s for s in standings([1, 2, 3, 4], rounds)}
    assert (table[3].points, table[3].played, table[3].opponents) == (0, 0, ())
    assert (table[1].points, table[1].played, table[1].opponents) == (2, 1, (2,))
    assert table[3].first_seats == 1  # the seat is taken as soon as the table sits


def test_inconsistent_rounds_are_refused() -> None:
    with pytest.raises(PairingError, match="did not enter"):
        standings([1, 2], [played([(1, 3)], [[1, 2]])])
    with pytest.raises(PairingError, match="ranks"):
        standings([1, 2, 3], [PlayedRound(Pairing(((1, 2),)), (TableResult({1: 1, 3: 2}),))])
    with pytest.raises(PairingError, match="twice"):
        Pairing(((1, 2), (2, 3)))
    with pytest.raises(PairingError, match="twice"):
        Pairing(((1, 2),), (1,))
    with pytest.raises(PairingError, match="at least two"):
        Pairing(((1,),))
    with pytest.raises(PairingError, match="listed twice"):
        standings([1, 1], [])


# --- whole random tournaments ---------------------------------------------------------------------------------


def random_tournament(entrants: int, rounds: int, seed: int, sizes: TableSizes) -> tuple[list[int], list[PlayedRound]]:
    rng = random.Random(seed)
    ids = rng.sample(range(10**6, 10**7), entrants)
    history: list[PlayedRound] = []
    for number in range(rounds):
        pairing = pair_swiss(standings(ids, history), seed + number, sizes)
        results = tuple(
            TableResult({e: rng.randint(1, len(t)) for e in t}, {e: rng.randint(0, 30) for e in t})
            for t in pairing.tables
        )
        history.append(PlayedRound(pairing, results))
    return ids, history


tournaments = st.tuples(
    st.integers(2, 60),
    st.integers(1, 5),
    st.integers(0, 2**31),
    st.sampled_from([TWO_PLAYER, TableSizes(2, 6, 4), TableSizes(3, 5, 4), TableSizes(2, 4, 3)]),
)


@given(tournaments)
@SETTINGS
def test_points_are_conserved_and_buchholz_and_ranks_follow_from_the_rounds(setup: tuple) -> None:
    entrants, count, seed, sizes = setup
    if entrants < sizes.minimum:
        return
    ids, history = random_tournament(entrants, count, seed, sizes)
    lines = standings(ids, history)
    handed_out = sum(
        table_total(len(t)) for r in history for t, res in zip(r.pairing.tables, r.results, strict=True) if res
    ) + sum(bye_points(r.pairing.table_size) * len(r.pairing.byes) for r in history)
    assert sum(s.points for s in lines) == handed_out
    # Buchholz recomputed directly from the rounds
    points = {s.entrant: s.points for s in lines}
    for line in lines:
        met = [o for r in history for t in r.pairing.tables if line.entrant in t for o in t if o != line.entrant]
        assert Counter(line.opponents) == Counter(met)
        assert line.buchholz == sum((points[o] for o in met), Fraction(0))
    # sorted and ranked: ties share, the next rank skips
    keys = [(-s.points, -s.buchholz, -s.score) for s in lines]
    assert keys == sorted(keys)
    for k, line in enumerate(lines):
        assert line.rank == (lines[k - 1].rank if k and keys[k] == keys[k - 1] else k + 1)
    # the same inputs give the same standings
    assert standings(list(ids), list(history)) == lines
