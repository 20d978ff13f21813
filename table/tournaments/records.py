"""What the tournament service keeps and hands out: its options (checked against the game), the JSON of
pairings and results as storage keeps them, the read models the transport shows (`TournamentStatus`, built
from a stored tournament by `status_of`), the `TournamentNotifier` the transport implements, and the pure
steps the service builds on (a knockout's first bracket, a round robin's schedule, its champion).

Pure: no database, no asyncio. The service (table.tournaments.service) reads rows from storage and builds
these; the Discord side reads them.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from games.core import Game
from storage import EntrantRow, TournamentRow, TournamentSnapshot
from table import messages as table_messages
from table.core import DEFAULT_TURN_SECONDS, MAX_TURN_SECONDS
from table.errors import TableError, echo
from table.tournaments import messages
from table.tournaments.formats import Bracket, champion, knockout, round_robin, round_robin_tables
from table.tournaments.pairing import TableSizes
from table.tournaments.standings import EntrantId, Pairing, PlayedRound, Standing, TableResult, standings

FORMATS = ("swiss", "knockout", "round-robin")
# What becomes of an entrant who does not play their seat (their moves all made by the AI standing in):
# "ai": the stand-in plays on and the seat scores the rank it gets, nothing more; "drop": the same for that
# round, and after `drop_after` such rounds (counted over the tournament) the entrant is dropped.
NO_SHOW_RULES = ("ai", "drop")
# What happens at a round's deadline to its tables still being played: "finish-with-ai": every seat is
# handed to the AI, which plays the game to its end (an ordinary finish, rated); "rank-by-score": the game
# is abandoned and its players ranked by their scores as they stand.
DEADLINE_RULES = ("finish-with-ai", "rank-by-score")
MAX_ROUNDS = 64
MAX_ENTRANTS = 4096
MAX_DROP_AFTER = 64
MAX_ROUND_SECONDS = 30 * 24 * 3600  # a month


def derived_seed(*parts: int) -> int:
    """A 48-bit seed from the tournament's seed and the round (and table): the same in every process and
    every run (not Python's salted hash), so a pairing or a table's game is the same whoever computes it."""
    digest = hashlib.blake2b(":".join(str(p) for p in parts).encode(), digest_size=6).digest()
    return int.from_bytes(digest, "big")


@dataclass(frozen=True)
class TournamentOptions:
    """How a tournament is played. `variants`: the game's options, resolved (every table plays them);
    `turn_seconds`: each table's turn timer (None: none); `table_size`: players per table (the preferred
    size; Swiss and round robins split a field that does not divide near it); `rounds`: Swiss rounds (None:
    `swiss_rounds(entrants)`, fixed at the start); `advance`: how many of a knockout table go on (None:
    `default_advance`, fixed at the start); `no_show` / `drop_after`: NO_SHOW_RULES; `round_seconds`: a
    round's deadline from its opening (None: none); `deadline_rule`: DEADLINE_RULES."""

    variants: Mapping[str, Any] = field(default_factory=dict)
    turn_seconds: int | None = DEFAULT_TURN_SECONDS
    table_size: int = 2
    rounds: int | None = None
    advance: int | None = None
    no_show: str = "ai"
    drop_after: int = 2
    round_seconds: int | None = None
    deadline_rule: str = "finish-with-ai"

    def to_json(self) -> dict[str, Any]:
        return {
            "variants": dict(self.variants),
            "turn_seconds": self.turn_seconds,
            "table_size": self.table_size,
            "rounds": self.rounds,
            "advance": self.advance,
            "no_show": self.no_show,
            "drop_after": self.drop_after,
            "round_seconds": self.round_seconds,
            "deadline_rule": self.deadline_rule,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TournamentOptions:
        default = cls()

        def number(key: str, fallback: int | None) -> int | None:
            value = data.get(key, fallback)
            return None if value is None else int(value)

        return cls(
            variants=dict(data.get("variants") or {}),
            turn_seconds=number("turn_seconds", default.turn_seconds),
            table_size=int(data.get("table_size", default.table_size)),
            rounds=number("rounds", None),
            advance=number("advance", None),
            no_show=str(data.get("no_show", default.no_show)),
            drop_after=int(data.get("drop_after", default.drop_after)),
            round_seconds=number("round_seconds", None),
            deadline_rule=str(data.get("deadline_rule", default.deadline_rule)),
        )


# --- pairings and results as storage keeps them (JSON; object keys are strings) ------------------------------


def pairing_json(pairing: Pairing, bracket: Bracket | None = None) -> dict[str, Any]:
    """A round's pairing for `tournament_rounds.pairing` (a knockout's bracket with it: the next round needs it)."""
    data: dict[str, Any] = {
        "tables": [list(table) for table in pairing.tables],
        "byes": list(pairing.byes),
        "table_size": pairing.table_size,
    }
    if bracket is not None:
        data["bracket"] = {
            "round": bracket.round,
            "rounds": bracket.rounds,
            "groups": [list(group) for group in bracket.groups],
            "table_size": bracket.table_size,
            "advance": bracket.advance,
            "seeds": list(bracket.seeds),
        }
    return data


def pairing_from(data: Mapping[str, Any]) -> Pairing:
    return Pairing(
        tuple(tuple(int(e) for e in table) for table in data.get("tables") or ()),
        tuple(int(e) for e in data.get("byes") or ()),
        int(data.get("table_size", 2)),
    )


def bracket_from(data: Mapping[str, Any]) -> Bracket | None:
    found = data.get("bracket")
    if not found:
        return None
    return Bracket(
        round=int(found["round"]),
        rounds=int(found["rounds"]),
        groups=tuple(tuple(int(e) for e in group) for group in found["groups"]),
        table_size=int(found["table_size"]),
        advance=int(found["advance"]),
        seeds=tuple(int(e) for e in found["seeds"]),
    )


def result_json(result: TableResult) -> dict[str, Any]:
    return {
        "ranks": {str(e): int(rank) for e, rank in result.ranks.items()},
        "scores": None if result.scores is None else {str(e): float(s) for e, s in result.scores.items()},
        **({"forfeited": sorted(str(e) for e in result.forfeited)} if result.forfeited else {}),
    }


def result_from(data: Mapping[str, Any] | None) -> TableResult | None:
    if data is None:
        return None
    scores = data.get("scores")
    return TableResult(
        {int(e): int(rank) for e, rank in (data.get("ranks") or {}).items()},
        None if scores is None else {int(e): float(s) for e, s in scores.items()},
        frozenset(int(e) for e in data.get("forfeited") or ()),
    )


def no_shows_last(result: TableResult, no_shows: Collection[EntrantId]) -> TableResult:
    """A table's result with its no-shows as losses: the players who came keep their order among
    themselves (ranked again from 1), every no-show shares the last place and is `forfeited`."""
    if not any(e in no_shows for e in result.ranks):
        return result  # (the game's ranks as they are)
    came = {e: r for e, r in result.ranks.items() if e not in no_shows}
    ranks = {e: 1 + sum(1 for other in came.values() if other < r) for e, r in came.items()}
    ranks |= {e: len(result.ranks) for e in result.ranks if e in no_shows}
    return TableResult(ranks, result.scores, frozenset(e for e in result.ranks if e in no_shows))


def ranked(scores: Mapping[EntrantId, float]) -> dict[EntrantId, int]:
    """Competition ranks from scores, highest first (ties share: 1, 1, 3)."""
    return {e: 1 + sum(1 for other in scores.values() if other > score) for e, score in scores.items()}


def current_scores(game: Game[Any], state: Any) -> list[float] | None:
    """Each seat's score as the game stands, read from its public view by the convention the games follow:
    a list `scores` by seat, or seats (`seats`, a list of objects by seat) carrying a `total`, `score` or
    `points`. None when the view carries neither (every player is then ranked equal)."""
    players = game.players(state)
    view = game.view(state, None)

    def numbers(values: Sequence[Any]) -> list[float] | None:
        if len(values) == players and all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            return [float(v) for v in values]
        return None

    scores = view.get("scores")
    if isinstance(scores, list) and (found := numbers(scores)) is not None:
        return found
    seats = view.get("seats")
    if isinstance(seats, list) and all(isinstance(s, dict) for s in seats):
        for key in ("total", "score", "points"):
            if (found := numbers([s.get(key) for s in seats])) is not None:
                return found
    return None


# --- what the transport reads ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableStatus:
    """One table of a round: its entrants (the pairing's seat order), who sits at each seat of its game
    (`seats`: entrants, None for an AI stand-in; None before it opened), its game and that game's status,
    its result and how it came about (storage.tournaments.TABLE_OUTCOMES) once resolved."""

    round: int
    index: int
    entrants: tuple[EntrantId, ...]
    seats: tuple[EntrantId | None, ...] | None
    game_id: int | None
    game_status: str | None
    result: TableResult | None
    outcome: str | None


@dataclass(frozen=True)
class RoundStatus:
    """One round: pairing, opened, finished (`status`), its deadline, its pairing and its tables."""

    number: int
    status: str
    deadline: datetime | None
    pairing: Pairing
    tables: tuple[TableStatus, ...]


@dataclass(frozen=True)
class TournamentStatus:
    """A tournament as the transport shows it: the row, its options, the entry list (seed order), the rounds
    stored so far (a round robin's are all stored at the start), the standings, and once it is finished the
    champion (a knockout: the final's winner; otherwise the top of the standings) and the podium."""

    tournament: TournamentRow
    options: TournamentOptions
    entrants: tuple[EntrantRow, ...]
    rounds: tuple[RoundStatus, ...]
    standings: tuple[Standing, ...]
    champion: EntrantId | None = None
    podium: tuple[EntrantId, ...] = ()

    @property
    def current(self) -> RoundStatus | None:
        number = self.tournament.current_round
        return next((r for r in self.rounds if r.number == number), None)

    def name(self, entrant: EntrantId) -> str:
        return next((e.name for e in self.entrants if e.user_id == entrant), str(entrant))


class TournamentNotifier(Protocol):
    """Implemented by the transport (the Discord side); the tournament service calls it after the change it
    reports is stored. A change is reported before the step after it is stored, so after a crash in between
    it is reported again: at least once, possibly twice."""

    async def round_opened(self, status: TournamentStatus, number: int) -> None:
        """Every table of round `number` has its game started (or was resolved without one)."""

    async def round_finished(self, status: TournamentStatus, number: int) -> None:
        """Every table of round `number` has its result; `status.standings` include it."""

    async def finished(self, status: TournamentStatus) -> None:
        """The tournament is over: `status.champion`, `status.podium`, `status.standings`."""

    async def cancelled(self, status: TournamentStatus) -> None:
        """The host or an admin cancelled it, or its start time came with too few entrants."""


class NullTournamentNotifier:
    async def round_opened(self, status: TournamentStatus, number: int) -> None:
        return None

    async def round_finished(self, status: TournamentStatus, number: int) -> None:
        return None

    async def finished(self, status: TournamentStatus) -> None:
        return None

    async def cancelled(self, status: TournamentStatus) -> None:
        return None


# --- the pure steps the service builds on -------------------------------------------------------------------------


def played(snapshot: TournamentSnapshot) -> tuple[list[EntrantId], list[PlayedRound], list[EntrantId]]:
    """`standings`' arguments from a stored tournament: the entry list in seed order, the rounds up to the
    current one (tables still being played: None), and who left (withdrawn or dropped)."""
    entrants = [e.user_id for e in snapshot.entrants]
    gone = [e.user_id for e in snapshot.entrants if e.status != "active"]
    rounds = [
        PlayedRound(
            pairing_from(r.pairing),
            tuple(result_from(t.result) for t in snapshot.round_tables(r.number)),
        )
        for r in snapshot.rounds
        if r.number <= snapshot.tournament.current_round
    ]
    return entrants, rounds, gone


def status_of(snapshot: TournamentSnapshot, *, over: bool = False) -> TournamentStatus:
    """The read model of a stored tournament (`over`: with its champion and podium, as it is being finished)."""
    row = snapshot.tournament
    rounds = []
    for stored in snapshot.rounds:
        pairing = pairing_from(stored.pairing)
        tables = tuple(
            TableStatus(
                t.round,
                t.table_index,
                pairing.tables[t.table_index],
                None if t.seats is None else tuple(t.seats),
                t.game_id,
                None if t.game_id is None else snapshot.games.get(t.game_id),
                result_from(t.result),
                t.outcome,
            )
            for t in snapshot.round_tables(stored.number)
        )
        rounds.append(RoundStatus(stored.number, stored.status, stored.deadline, pairing, tables))
    table = standings(*played(snapshot))
    winner: EntrantId | None = None
    podium: tuple[EntrantId, ...] = ()
    if over or row.status == "finished":
        order = [s.entrant for s in table]
        winner = order[0] if order else None
        if row.format == "knockout":
            winner = knockout_champion(snapshot) or winner
            if winner is not None:
                order = [winner, *(e for e in order if e != winner)]
        podium = tuple(order[:3])
    options = TournamentOptions.from_json(row.options)
    return TournamentStatus(row, options, tuple(snapshot.entrants), tuple(rounds), table, winner, podium)


def as_stored(status: TournamentStatus, number: int, state: str, deadline: datetime | None) -> TournamentStatus:
    """`status` with round `number` as it is about to be stored (the notifier is told just before)."""
    rounds = tuple(
        dataclasses.replace(r, status=state, deadline=deadline) if r.number == number else r for r in status.rounds
    )
    return dataclasses.replace(status, rounds=rounds)


def with_changes(options: TournamentOptions, **changes: Any) -> TournamentOptions:
    return TournamentOptions.from_json({**options.to_json(), **changes})


def checked_options(
    game: Game[Any], format: str, options: TournamentOptions | Mapping[str, Any] | None
) -> TournamentOptions:
    """The options made whole and checked against the game: TableError (table.tournaments.messages, or the
    rules' own words for a variant) for what cannot be played."""
    if isinstance(options, TournamentOptions):
        given = options
    else:
        try:
            given = TournamentOptions.from_json(options or {})
        except (TypeError, ValueError, AttributeError):
            raise TableError(messages.BAD_OPTIONS) from None
    try:
        variants = game.resolve_options(given.variants)
    except ValueError as exc:
        raise TableError(str(exc), from_rules=True) from None
    if given.turn_seconds is not None and given.turn_seconds > MAX_TURN_SECONDS:
        raise TableError(table_messages.BAD_TIMER, high=MAX_TURN_SECONDS)
    if not game.min_players <= given.table_size <= game.max_players or given.table_size < 2:
        raise TableError(
            messages.BAD_TABLE_SIZE, title=game.title, low=game.min_players, high=game.max_players, n=given.table_size
        )
    if given.rounds is not None and not 1 <= given.rounds <= MAX_ROUNDS:
        raise TableError(messages.BAD_ROUNDS, high=MAX_ROUNDS)
    if given.advance is not None and (not 1 <= given.advance < given.table_size or given.table_size % given.advance):
        raise TableError(messages.BAD_ADVANCE, size=given.table_size, n=given.advance)
    if given.no_show not in NO_SHOW_RULES:
        raise TableError(messages.UNKNOWN_NO_SHOW, rule=echo(given.no_show), known=", ".join(NO_SHOW_RULES))
    if not 1 <= given.drop_after <= MAX_DROP_AFTER:
        raise TableError(messages.BAD_DROP_AFTER, high=MAX_DROP_AFTER)
    if given.deadline_rule not in DEADLINE_RULES:
        raise TableError(
            messages.UNKNOWN_DEADLINE_RULE, rule=echo(given.deadline_rule), known=", ".join(DEADLINE_RULES)
        )
    if given.round_seconds is not None and given.round_seconds > MAX_ROUND_SECONDS:
        raise TableError(messages.BAD_ROUND_TIMER, high=MAX_ROUND_SECONDS)
    return TournamentOptions(
        variants=variants,
        turn_seconds=given.turn_seconds if given.turn_seconds and given.turn_seconds > 0 else None,
        table_size=given.table_size,
        rounds=given.rounds if format == "swiss" else None,
        advance=given.advance if format == "knockout" else None,
        no_show=given.no_show,
        drop_after=given.drop_after,
        round_seconds=given.round_seconds if given.round_seconds and given.round_seconds > 0 else None,
        deadline_rule=given.deadline_rule,
    )


def first_bracket(entrants: Sequence[EntrantId], options: TournamentOptions, game: Game[Any]) -> Bracket:
    """Round 1 of a knockout of `entrants` in seed order (knockout() seeds by rating: the order is the rating)."""
    ratings = {e: float(len(entrants) - place) for place, e in enumerate(entrants)}
    return knockout(ratings, options.table_size, options.advance, game.min_players)


def with_bracket(bracket: Bracket) -> tuple[Pairing, Bracket]:
    return bracket.pairing(), bracket


def round_robin_schedule(
    entrants: Sequence[EntrantId], options: TournamentOptions, sizes: TableSizes, seed: int
) -> tuple[Pairing, ...]:
    """A round robin's whole schedule, stored at the start."""
    if options.table_size == 2:
        return round_robin(entrants, derived_seed(seed, 0))
    return round_robin_tables(entrants, sizes, derived_seed(seed, 0))


def knockout_champion(snapshot: TournamentSnapshot) -> EntrantId | None:
    """The winner of a knockout's final, once its table has a result."""
    for stored in reversed(snapshot.rounds):
        bracket = bracket_from(stored.pairing)
        if bracket is None or not bracket.final:
            continue
        tables = snapshot.round_tables(stored.number)
        result = result_from(tables[0].result) if tables else None
        return None if result is None else champion(bracket, result)
    return None
