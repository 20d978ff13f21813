"""The shapes of what the Eggs and Empires engine hands out: choice data, prompt info, views and events.

Renderers and the bot's texts read these fields, never the engine's English (a choice's `label`, a
prompt's `text`), so rewording a label cannot break a translation or a picture. Seats are 0-based seat
numbers everywhere; the reader names them (display names), the engine never does. Egg values are signed
VP (negative: an Exploding Egg). Adventurers are their numbers 1-10 (`rules.ADVENTURERS` names them).

Choice data, per prompt kind (`games.core.Choice.data`; shared read-only mappings, built once):

- "mulligan" (secret, every seat at once): `HandChoice`, kind "keep_hand" or "redraw_hand".
- "play" (secret, every seat at once; `pick` 2 in the 2-player game): `AdventurerChoice`, one per
  distinct Adventurer in the hand.
- "egg" (the current collector; prompt info `EggPromptInfo`): `EggChoice` per egg it may take (face-up
  eggs of one value are one choice: the first of them), and `NoEggChoice` for a Mage that may decline
  the face-down eggs that are all it may take.
- "courier" (prompt info `CourierPromptInfo`): `KeepEggChoice`, then `GiveChoice` per other seat.
- "priest": `NoDiscardChoice`, then `DiscardChoice` per distinct value among the seat's collected eggs.

These are TypedDicts for the type checker only: at run time they are plain dicts (or read-only views of
them), so the compiled engine (games/build.py) pays nothing for them.
"""

from __future__ import annotations

from typing import Literal, TypedDict

__all__ = [
    "AdventurerChoice",
    "BonusEvent",
    "ChoiceData",
    "CollectEvent",
    "CourierEvent",
    "CourierPromptInfo",
    "DecidedEvent",
    "DeclinedEvent",
    "DiscardChoice",
    "EggChoice",
    "EggPromptInfo",
    "GameOverEvent",
    "GiveChoice",
    "HandChoice",
    "KeepEggChoice",
    "MulliganEvent",
    "NoDiscardChoice",
    "NoEggChoice",
    "OfferEntry",
    "OfferEvent",
    "PlayedEvent",
    "PriestEvent",
    "PublicView",
    "RevealEntry",
    "RevealEvent",
    "RevealSummary",
    "RoundEndEvent",
    "RoundStartEvent",
    "ScoutEvent",
    "ScoutedEgg",
    "ScoutedEvent",
    "SeatSummary",
    "SeatView",
    "TiebreakerEvent",
    "UnclaimedEvent",
]


# --- choice data --------------------------------------------------------------------------------
class HandChoice(TypedDict):
    """Mulligan: keep the starting hand of round `round`, or discard it and draw a new one."""

    kind: Literal["keep_hand", "redraw_hand"]
    round: int


class AdventurerChoice(TypedDict):
    """Play this Adventurer (its number, 1 Bard ... 10 Hero)."""

    kind: Literal["adventurer"]
    card: int


class EggChoice(TypedDict):
    """Take the egg in offer slot `slot` (the slot of `OfferEntry`). `value` is None for a face-down egg
    that somebody else scouted; `scout` is the seat that scouted a face-down egg, None for a face-up one."""

    kind: Literal["egg"]
    slot: int
    value: int | None
    face_down: bool
    scout: int | None


class NoEggChoice(TypedDict):
    """A Mage declines the face-down eggs (the only ones it may take)."""

    kind: Literal["no_egg"]


class KeepEggChoice(TypedDict):
    """Courier: keep the collected egg (of `value`)."""

    kind: Literal["keep_egg"]
    value: int


class GiveChoice(TypedDict):
    """Courier: give the collected egg (of `value`) to `seat`."""

    kind: Literal["give"]
    seat: int
    value: int


class NoDiscardChoice(TypedDict):
    """Priest: discard nothing."""

    kind: Literal["no_discard"]


class DiscardChoice(TypedDict):
    """Priest: discard one collected egg of `value`."""

    kind: Literal["discard"]
    value: int


ChoiceData = (
    HandChoice
    | AdventurerChoice
    | EggChoice
    | NoEggChoice
    | KeepEggChoice
    | GiveChoice
    | NoDiscardChoice
    | DiscardChoice
)


# --- prompt info ---------------------------------------------------------------------------------
class EggPromptInfo(TypedDict):
    """ "egg": the Adventurer that collects now."""

    card: int


class CourierPromptInfo(TypedDict):
    """ "courier": the value of the egg the Courier collected."""

    egg: int


# --- views ---------------------------------------------------------------------------------------
class OfferEntry(TypedDict):
    """One egg on offer, in slot order (face-up ones first as revealed, scouted ones as placed).
    `value` is None for a face-down egg the audience did not scout; `scout` as in `EggChoice`."""

    slot: int
    value: int | None
    face_down: bool
    scout: int | None


class SeatSummary(TypedDict):
    """What everybody knows of one seat (every scoring pile is public: eggs collected were seen)."""

    seat: int
    hand_size: int
    deck_size: int
    decided: bool  # has chosen in the current secret phase (play or mulligan)
    played: list[int]  # Adventurers revealed this turn, empty before the reveal
    discards: list[int]  # Adventurers played this round and discarded (sorted)
    eggs: list[int]  # values of the eggs collected this round, in the order collected
    merchants: int  # Merchants kept for scoring this round (+6 each)
    blacksmiths: int  # Blacksmiths kept for scoring this round (-4 each)
    round_scores: list[int]  # per finished round
    total: int
    tokens: int  # Egg Tokens (Con/Pub scoring)


class RevealEntry(TypedDict):
    """One collector of the last reveal, in collection order. `status`: "took" (`egg` is the value it
    took, `face_down` whether that egg lay face down), "nothing" (its turn came and it took no egg),
    "now" (it collects now) or "waiting" (still to collect)."""

    seat: int
    card: int
    status: Literal["took", "nothing", "now", "waiting"]
    egg: int | None
    face_down: bool


class RevealSummary(TypedDict):
    """The last reveal: this turn's from the reveal on, else the previous turn's (also across a round's
    end, until the next reveal). `plays[seat]` are the Adventurers each seat revealed; `order` holds those
    that collect, in collection order; `cancelled` the seats whose Dark Priestesses cancelled each other."""

    round: int
    turn: int
    plays: list[list[int]]
    order: list[RevealEntry]
    cancelled: list[int]


class _PublicFields(TypedDict):
    game: str
    players: int
    seat: int | None  # None: the public view
    round: int
    rounds: int | None  # None with Con/Pub scoring (the game ends on tokens)
    turn: int
    turns: int
    phase: Literal["mulligan", "play", "collect", "turn_end", "over"]
    options: dict[str, str]  # "tiebreaker": "tie" | "round"; "scoring": "standard" | "conpub"
    tiebreaker: int  # the seat holding the Tie-Breaker Marker
    offer: list[OfferEntry]
    egg_deck_size: int
    seats: list[SeatSummary]
    waiting_for: list[int]
    collecting: list[int] | None  # [seat, card] collecting now (phase "collect")
    reveal: RevealSummary | None  # None before the first reveal of the game
    winners: list[int]


class PublicView(_PublicFields, total=False):
    """`view(state, None)`."""

    tokens_to_win: int  # only with Con/Pub scoring


class ScoutedEgg(TypedDict):
    slot: int
    value: int


class SeatView(PublicView):
    """`view(state, seat)`: the public view, the offer as this seat sees it (its own scouted eggs face
    down but with their value), and its private material."""

    hand: list[int]  # sorted Adventurer numbers
    my_play: list[int]  # this turn's secret play until the reveal
    my_mulligan: str | None  # "keep" | "redraw" once decided in the mulligan phase
    scouted: list[ScoutedEgg]


# --- events --------------------------------------------------------------------------------------
# An event with "to" is private to that seat; every other one is public (games.core).
class RoundStartEvent(TypedDict):
    type: Literal["round_start"]
    round: int
    tiebreaker: int


class OfferEvent(TypedDict):
    """The eggs on offer at the start of a turn: face-up values, and who scouted each face-down egg."""

    type: Literal["offer"]
    round: int
    turn: int
    eggs: list[int]
    face_down: list[int]
    tiebreaker: int


class DecidedEvent(TypedDict):
    type: Literal["decided"]
    seat: int


class PlayedEvent(TypedDict):
    type: Literal["played"]
    to: int
    cards: list[int]


class MulliganEvent(TypedDict):
    type: Literal["mulligan"]
    redrew: list[int]


class RevealEvent(TypedDict):
    """Every seat's play (`plays[seat]`), the collection order as [seat, card] pairs, whether a tie
    occurred and who held the Tie-Breaker Marker."""

    type: Literal["reveal"]
    plays: list[list[int]]
    order: list[list[int]]
    tie: bool
    tiebreaker: int


class CollectEvent(TypedDict):
    type: Literal["collect"]
    seat: int
    card: int
    value: int
    face_down: bool


class DeclinedEvent(TypedDict):
    type: Literal["declined"]
    seat: int
    card: int


class CourierEvent(TypedDict):
    type: Literal["courier"]
    seat: int
    to_seat: int
    value: int


class PriestEvent(TypedDict):
    type: Literal["priest"]
    seat: int
    value: int


class BonusEvent(TypedDict):
    """A Merchant or Blacksmith that collected nothing goes to its seat's scoring pile."""

    type: Literal["bonus"]
    seat: int
    card: int


class UnclaimedEvent(TypedDict):
    type: Literal["unclaimed"]
    eggs: list[int]  # face-up values
    face_down: int  # how many face-down eggs


class ScoutEvent(TypedDict):
    type: Literal["scout"]
    seat: int


class ScoutedEvent(TypedDict):
    type: Literal["scouted"]
    to: int
    value: int


class TiebreakerEvent(TypedDict):
    type: Literal["tiebreaker"]
    seat: int
    reason: Literal["tie", "round"]


class _RoundEndFields(TypedDict):
    type: Literal["round_end"]
    round: int
    scores: list[int]
    totals: list[int]


class RoundEndEvent(_RoundEndFields, total=False):
    tokens_to: list[int]  # Con/Pub scoring: who took an Egg Token
    tokens: list[int]


class GameOverEvent(TypedDict):
    type: Literal["game_over"]
    winners: list[int]
    totals: list[int]
    tokens: list[int] | None
