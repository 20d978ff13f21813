"""The shapes of what the Eight-Minute Empire engine hands out: choice data per prompt kind, prompt info,
views and events.

Renderers and the bot read these fields and phrase them in the reader's language; the English labels
of choices and the prompts' texts are for the terminal and the logs only. Regions are named by their
label ("A1"), islands (continents) by their name ("Aldmoor"), cards by their name in `cards.json`,
players by seat number (0-based; `None` is the neutral party of a 2-player game). Action parts are
`(kind, amount)` pairs, kind one of `ActionKind` ("city" has amount 1).

Every choice's `data` has a `what` saying what it is; `CHOICE_DATA` lists the shapes each prompt kind
may offer and `PROMPT_INFO` the shape of each prompt kind's `info` (tests/test_eight_minute_empire_shapes.py
checks both over whole games).
"""

from __future__ import annotations

from typing import Literal, TypedDict

ActionKind = Literal["place", "move", "city", "destroy"]
Way = Literal["land", "water"]
Join = Literal["one", "and", "or"]
Part = tuple[str, int]  # (ActionKind, amount); a list of two in JSON


# --- choice data, by what the choice is ------------------------------------------------------------
class RegionChoice(TypedDict):
    """A region to act on (neutral, place, destroy_region)."""

    what: Literal["region"]
    region: str
    continent: str


class RegionWithArmiesChoice(TypedDict):
    """A region where the seat has armies (move_from, city): `armies` of its own stand there."""

    what: Literal["region"]
    region: str
    continent: str
    armies: int


class MoveChoice(TypedDict):
    """A destination for the army picked up (move_to): the way it goes and the movement it costs."""

    what: Literal["move"]
    region: str
    continent: str
    way: Way
    cost: int


class CardChoice(TypedDict):
    """A card of the row (card): its slot (0 leftmost), its cost in coins and what it does."""

    what: Literal["card"]
    slot: int
    cost: int
    card: str
    join: Join
    parts: tuple[Part, ...]


class ActionChoice(TypedDict):
    """One branch of an OR card (branch)."""

    what: Literal["action"]
    action: ActionKind
    amount: int


class BidChoice(TypedDict):
    """A secret bid in coins (bid)."""

    what: Literal["bid"]
    amount: int


class ArmyChoice(TypedDict):
    """An army to destroy (destroy): where it stands and whose it is (None: a neutral army)."""

    what: Literal["army"]
    region: str
    continent: str
    owner: int | None


class EndChoice(TypedDict):
    """Ends the current part: "done" (place, move_from), "skip" (branch, city, destroy_region, destroy)
    or "back" (move_to: put the army down and pick another)."""

    what: Literal["done", "skip", "back"]


ChoiceData = (
    RegionChoice | RegionWithArmiesChoice | MoveChoice | CardChoice | ActionChoice | BidChoice | ArmyChoice | EndChoice
)

CHOICE_DATA: dict[str, tuple[type, ...]] = {
    "neutral": (RegionChoice,),
    "bid": (BidChoice,),
    "card": (CardChoice,),
    "branch": (ActionChoice, EndChoice),
    "place": (RegionChoice, EndChoice),
    "move_from": (RegionWithArmiesChoice, EndChoice),
    "move_to": (MoveChoice, EndChoice),
    "city": (RegionWithArmiesChoice, EndChoice),
    "destroy_region": (RegionChoice, EndChoice),
    "destroy": (ArmyChoice, EndChoice),
}


# --- prompt info, by prompt kind --------------------------------------------------------------------
class NeutralInfo(TypedDict):
    neutral_left: int  # neutral armies still to place, this one included


class CoinsInfo(TypedDict):
    """bid and card: the coins the seat has."""

    coins: int


class BranchInfo(TypedDict):
    card: str  # the OR card just taken


class ActionInfo(TypedDict):
    """place, move_from, city, destroy_region, destroy: the card, the part and what is left of it
    (armies to place, movement, destroys; 1 for a city)."""

    card: str
    kind: ActionKind
    left: int


# "from" is a Python keyword: the functional form
MoveToInfo = TypedDict("MoveToInfo", {"card": str, "kind": ActionKind, "left": int, "from": str})

PROMPT_INFO: dict[str, type] = {
    "neutral": NeutralInfo,
    "bid": CoinsInfo,
    "card": CoinsInfo,
    "branch": BranchInfo,
    "place": ActionInfo,
    "move_from": ActionInfo,
    "move_to": MoveToInfo,
    "city": ActionInfo,
    "destroy_region": ActionInfo,
    "destroy": ActionInfo,
}


# --- views ---------------------------------------------------------------------------------------------
class BoardSlot(TypedDict):
    letter: str  # which of the four boards
    x: int  # its place in the layout, in boards
    y: int


class Link(TypedDict):
    a: str  # region labels
    b: str
    water: bool  # a dotted sea crossing (costs the water cost), else a land border (1)


class Continent(TypedDict):
    name: str
    regions: list[str]


class Region(TypedDict):
    id: str  # the label, "A1"
    continent: str
    x: float  # position in board units over the whole layout
    y: float
    armies: list[int]  # per seat
    neutral: int  # neutral armies (2 players; 0 otherwise)
    cities: list[int]  # per seat
    token: str | None  # an explore token's name, or "Citadel"
    start: bool
    control: int | Literal["neutral"] | None  # a seat, the neutral armies, or nobody


class Ability(TypedDict):
    kind: str  # "move", "army", "flying", "immune", "elixir", "coins", "vp_family", "vp_flying", "vp_set", "vp_coins"
    family: str | None
    n: int


class RowCard(TypedDict):
    slot: int
    cost: int
    id: int
    name: str
    family: str | None
    ability: str  # English, for the terminal
    abilities: list[Ability]
    action: str  # English, for the terminal
    join: Join
    parts: list[list[str | int]]  # [kind, amount] pairs


class SeatSummary(TypedDict):
    seat: int
    coins: int
    cards: list[str]  # card names, in the order taken
    abilities: list[str]  # English, for the terminal (the cards' records have them as data)
    move_bonus: int
    army_bonus: int
    flying: int
    water_cost: int
    immune: bool
    elixirs: int
    explore: list[str]  # explore tokens gained
    armies_supply: int
    cities_supply: int
    bid_in: bool


# The action in progress after a card was taken ("from" is a Python keyword: the functional form).
Step = TypedDict(
    "Step",
    {
        "card": str,
        "kind": ActionKind | None,  # the part being played (None while an OR is being chosen)
        "left": int,
        "from": str | None,  # the region of the army picked up, if any
        "branch": list[list[str | int]] | None,  # an OR card's parts, while the seat chooses
        "next": list[list[str | int]],  # the parts still to come, in order
    },
)


class PublicView(TypedDict):
    game: Literal["eight-minute-empire"]
    players: int
    phase: Literal["neutral", "bid", "turn", "over"]
    game_no: int
    games: int
    finished_scores: list[list[int]]
    options: dict[str, object]
    layout: str
    boards: list[BoardSlot]
    regions: list[Region]
    links: list[Link]
    continents: list[Continent]
    continent_control: list[int | None]  # per continent, in `continents` order: a seat or nobody
    start: str
    citadels: list[str]
    row: list[RowCard | None]
    deck: int
    target_cards: int
    neutral_left: int
    seat: int | None  # who acts (neutral placement and turns)
    first: int | None
    bids: list[int] | None  # every bid once all are in
    seats: list[SeatSummary]
    step: Step | None
    scores: list[int]  # VP if the game ended now
    citadel_token: str


class SeatView(PublicView):
    me: int
    my_bid: int | None


# --- events ----------------------------------------------------------------------------------------------
class NeutralEvent(TypedDict):
    type: Literal["neutral"]
    seat: int
    region: str


class BiddingEvent(TypedDict):
    type: Literal["bidding"]


class BidInEvent(TypedDict):
    type: Literal["bid_in"]
    seat: int


class BidEvent(TypedDict):
    type: Literal["bid"]
    to: int
    amount: int  # private


class BidsEvent(TypedDict):
    type: Literal["bids"]
    bids: list[int]
    winner: int
    paid: int
    tie: Literal["highest", "die", "first-seat"]  # how the winner was found


class TurnEvent(TypedDict):
    type: Literal["turn"]
    seat: int


class TakeEvent(TypedDict):
    type: Literal["take"]
    seat: int
    card: str
    slot: int
    cost: int


class CoinsEvent(TypedDict):
    type: Literal["coins"]
    seat: int
    gain: int
    source: str  # the card's or the explore token's name
    from_token: bool


class BranchEvent(TypedDict):
    type: Literal["branch"]
    seat: int
    action: str  # English, for the terminal
    kind: ActionKind
    amount: int


class SkipEvent(TypedDict):
    type: Literal["skip"]
    seat: int


class PlaceEvent(TypedDict):
    type: Literal["place"]
    seat: int
    region: str


class MoveEvent(TypedDict):
    type: Literal["move"]
    seat: int
    origin: str
    dest: str
    cost: int


class CityEvent(TypedDict):
    type: Literal["city"]
    seat: int
    region: str


class ExploreEvent(TypedDict):
    type: Literal["explore"]
    seat: int
    region: str
    token: str


class DestroyEvent(TypedDict):
    type: Literal["destroy"]
    seat: int
    region: str
    victim: int | None  # None: a neutral army


class GameEndEvent(TypedDict):
    type: Literal["game_end"]
    game: int
    scores: list[int]


class NewGameEvent(TypedDict):
    type: Literal["new_game"]
    game: int
    start: str


EVENTS: dict[str, type] = {
    "neutral": NeutralEvent,
    "bidding": BiddingEvent,
    "bid_in": BidInEvent,
    "bid": BidEvent,
    "bids": BidsEvent,
    "turn": TurnEvent,
    "take": TakeEvent,
    "coins": CoinsEvent,
    "branch": BranchEvent,
    "skip": SkipEvent,
    "place": PlaceEvent,
    "move": MoveEvent,
    "city": CityEvent,
    "explore": ExploreEvent,
    "destroy": DestroyEvent,
    "game_end": GameEndEvent,
    "new_game": NewGameEvent,
}
