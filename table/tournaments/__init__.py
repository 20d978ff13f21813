"""The pure core of tournaments: who sits at which table each round, and the standings the results make.

No Discord, no database, no asyncio, no wall clock: every function is a deterministic function of its
inputs and, where it draws, an integer seed (a local `random.Random(seed)`). Entrants are Discord user ids.
`standings` turns the entry list and the rounds played (`PlayedRound`: a `Pairing` and its `TableResult`s)
into ranked `Standing`s: points by rank (`place_points`, `table_points`, `bye_points`: the rule in
standings.py and docs/tournaments.md), then Buchholz, game score and seed. `pair_swiss` pairs the next
Swiss round from them (two-player tables by weighted matching; larger tables, within a `TableSizes` range,
by fill and swap; `split_tables` / `can_seat` say how a field splits, `swiss_rounds` how many rounds to
play). `knockout` / `next_round` / `winners` / `champion` run a seeded bracket (`Bracket`; `knockout_seeds`,
`default_advance`); `round_robin` (two players, the circle method) and `round_robin_tables` (larger tables,
`round_robin_length` rounds) give whole schedules. Refusals raise `PairingError`.
"""

from table.tournaments.formats import (
    Bracket,
    champion,
    default_advance,
    knockout,
    knockout_seeds,
    next_round,
    round_robin,
    round_robin_length,
    round_robin_tables,
    winners,
)
from table.tournaments.pairing import TWO_PLAYER, TableSizes, can_seat, pair_swiss, split_tables, swiss_rounds
from table.tournaments.standings import (
    EntrantId,
    Pairing,
    PairingError,
    PlayedRound,
    Standing,
    TableResult,
    bye_points,
    place_points,
    standings,
    table_points,
)

__all__ = [
    "TWO_PLAYER",
    "Bracket",
    "EntrantId",
    "Pairing",
    "PairingError",
    "PlayedRound",
    "Standing",
    "TableResult",
    "TableSizes",
    "bye_points",
    "can_seat",
    "champion",
    "default_advance",
    "knockout",
    "knockout_seeds",
    "next_round",
    "pair_swiss",
    "place_points",
    "round_robin",
    "round_robin_length",
    "round_robin_tables",
    "split_tables",
    "standings",
    "swiss_rounds",
    "table_points",
    "winners",
]
