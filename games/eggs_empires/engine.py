"""Eggs and Empires: the state, the turn structure and the contract methods.

Phases of a round: "mulligan" (every seat at once: keep or redraw the starting hand), then nine
turns of "play" (every seat at once, secretly), "collect" (in collection order; a seat is asked only
when its choice matters) and "turn_end" (Courier and Priest decisions in player order from the
Tie-Breaker holder). Then round scoring, and "over" after the last round.

Over 500 lines: one state machine over one state class (`EggsState`), whose phases hand over to each
other within a turn; mypyc compiles it as one unit (a call between compiled modules costs more). What
stands apart already does: the card and scoring rules in rules.py, the texts in text.py, the AI in ai.py.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Final

from games.core import NO_INFO, Choice, Game, IllegalAction, Option, Prompt, Rng, check_choice
from games.eggs_empires import rules
from games.eggs_empires.rules import (
    BLACKSMITH,
    COURIER,
    EGG_VALUES,
    MAGE,
    MERCHANT,
    PRIEST,
    SCOUT,
    card_name,
)

Event = dict[str, Any]
# Module constants are Final: compiled (python -m games.build) they are C constants, not dict lookups.
FACE_UP: Final = -1  # scout value of an offer entry that lies face up
NOBODY: Final = -1  # results of _auto_slot besides a slot number
ASK: Final = -2
MAX_SEATS: Final = 6

# Choice data (shapes: games/eggs_empires/shapes.py) is built once per distinct choice and shared, read-only:
# choices are made on the simulation hot path.
CARD_CHOICES: Final = {
    card: Choice(str(card), card_name(card), MappingProxyType({"kind": "adventurer", "card": card}))
    for card in rules.ADVENTURERS
}
CARD_IDS: Final = {str(card): card for card in rules.ADVENTURERS}
MULLIGAN_IDS: Final = frozenset(("keep", "redraw"))
KEEP_ID: Final = "keep"  # the Courier keeps the egg, the Priest discards nothing
PRIEST_KEEP: Final = Choice(KEEP_ID, "Keep it", MappingProxyType({"kind": "no_discard"}))
NO_EGG: Final = Choice("none", "Take no egg", MappingProxyType({"kind": "no_egg"}))
PLAY_TEXT: Final = {1: "Choose an Adventurer to play", 2: "Choose two different Adventurers to play"}
EGG_TEXT: Final = {card: f"Your {card_name(card)} collects: which egg?" for card in rules.ADVENTURERS}
EGG_INFO: Final = {card: MappingProxyType({"card": card}) for card in rules.ADVENTURERS}  # shared, read-only
PRIEST_TEXT: Final = "Priest: discard one of your collected eggs?"
# Turn-end choice ids read back (see _courier_choices and _priest_choices)
SLOT_IDS: Final = {f"s{slot}": slot for slot in range(16)}  # egg choice ids read back
COURIER_TARGETS: Final = {f"give{seat}": seat for seat in range(MAX_SEATS)}
DISCARD_VALUES: Final = {f"discard{value}": value for value in set(EGG_VALUES)}
DISCARD_CHOICES: Final = {
    value: Choice(f"discard{value}", f"Discard a {value:+d} egg", MappingProxyType({"kind": "discard", "value": value}))
    for value in set(EGG_VALUES)
}


# FACE_UP_CHOICES[slot][value]: the choice of a face-up egg
FACE_UP_CHOICES: Final = [
    {
        value: Choice(
            f"s{slot}",
            f"Egg {value:+d}",
            MappingProxyType({"kind": "egg", "slot": slot, "value": value, "face_down": False, "scout": None}),
        )
        for value in set(EGG_VALUES)
    }
    for slot in range(len(SLOT_IDS))
]


@lru_cache(maxsize=1024)
def _face_down_choice(slot: int, scout: int, known: int | None) -> Choice:
    """A face-down egg: its value is known (label and data) only to the seat that scouted it."""
    data = MappingProxyType({"kind": "egg", "slot": slot, "value": known, "face_down": True, "scout": scout})
    if known is not None:
        return Choice(f"s{slot}", f"Face-down egg (you scouted it: {known:+d})", data)
    return Choice(f"s{slot}", f"Face-down egg (scouted by {_seat_label(scout)})", data)


@lru_cache(maxsize=8)
def _mulligan_choices(round_number: int) -> tuple[Choice, Choice]:
    return (
        Choice("keep", "Keep this hand", MappingProxyType({"kind": "keep_hand", "round": round_number})),
        Choice(
            "redraw", "Discard it and draw a new hand", MappingProxyType({"kind": "redraw_hand", "round": round_number})
        ),
    )


# Prompts that depend on little are built once and shared by every game (Prompt's contract: read-only;
# their choices are tuples, so a caller cannot corrupt the cache by accident).
@lru_cache(maxsize=256)
def _courier_prompt(players: int, seat: int, value: int) -> Prompt:
    choices = (
        Choice(KEEP_ID, "Keep it", MappingProxyType({"kind": "keep_egg", "value": value})),
        *[
            Choice(
                f"give{other}",
                f"Give it to {_seat_label(other)}",
                MappingProxyType({"kind": "give", "seat": other, "value": value}),
            )
            for other in range(players)
            if other != seat
        ],
    )
    return Prompt(
        seat,
        "courier",
        choices,
        1,
        False,
        f"Courier: give the {value:+d} egg to another player?",
        MappingProxyType({"egg": value}),
    )


@lru_cache(maxsize=4096)
def _priest_prompt(seat: int, values: tuple[int, ...]) -> Prompt:
    return Prompt(seat, "priest", (PRIEST_KEEP, *[DISCARD_CHOICES[v] for v in values]), 1, False, PRIEST_TEXT, NO_INFO)


@lru_cache(maxsize=256)
def _mulligan_prompt(round_number: int, seat: int) -> Prompt:
    return Prompt(
        seat,
        "mulligan",
        _mulligan_choices(round_number),
        1,
        True,
        f"Round {round_number}: keep your starting hand or draw a new one (once per round)?",
        NO_INFO,
    )


# _PLAY_PROMPTS[pick][seat][hand]: the play prompt of a seat holding that (sorted) hand. Hands repeat a
# lot, and one dict lookup is far cheaper than building a Prompt. The cache stays small without a bound:
# a hand is a multiset of at most four Adventurers.
_PLAY_PROMPTS: Final[list[list[dict[tuple[int, ...], Prompt]]]] = [[{} for _ in range(MAX_SEATS)] for _ in range(3)]


def _new_play_prompt(pick: int, seat: int, hand: tuple[int, ...]) -> Prompt:
    choices = tuple(CARD_CHOICES[card] for card in sorted(set(hand)))  # one per distinct Adventurer
    prompt = _PLAY_PROMPTS[pick][seat][hand] = Prompt(seat, "play", choices, pick, True, PLAY_TEXT[pick], NO_INFO)
    return prompt


@dataclass(slots=True)
class EggsState:
    players: int
    rng: Rng
    options: dict[str, Any]
    tiebreaker: int
    round: int = 1
    turn: int = 1
    phase: str = "mulligan"
    decks: list[list[int]] = field(default_factory=list)  # draw from the end
    hands: list[list[int]] = field(default_factory=list)  # kept sorted
    discards: list[list[int]] = field(default_factory=list)  # played this round, face up
    egg_deck: list[int] = field(default_factory=list)  # egg ids, draw from the end
    egg_discard: list[int] = field(default_factory=list)
    offer: list[list[int]] = field(default_factory=list)  # [egg id, scout seat or FACE_UP]
    piles: list[list[int]] = field(default_factory=list)  # egg ids collected this round
    bonus: list[list[int]] = field(default_factory=list)  # Merchants/Blacksmiths in the scoring pile
    mulligan: list[str | None] = field(default_factory=list)  # secret, until everybody decided
    submitted: list[list[int] | None] = field(default_factory=list)  # secret plays
    plays: list[Sequence[int]] = field(default_factory=list)  # revealed this turn (() before the reveal)
    queue: list[list[int]] = field(default_factory=list)  # [seat, card] still to collect
    # [seat, card, egg id, scout seat or FACE_UP] collected since the last reveal (kept after the turn ends,
    # with `revealed`, `order` and `revealed_at`, so that views show the last turn's reveal)
    collected: list[list[int]] = field(default_factory=list)
    revealed: list[list[int]] = field(default_factory=list)  # the last reveal's plays, per seat
    order: list[list[int]] = field(default_factory=list)  # the last reveal's collection order, [seat, card]
    revealed_at: int = 0  # round * 16 + turn of the last reveal (0 before any): one int, no list per turn
    end_queue: list[list[int]] = field(default_factory=list)  # [seat, card] Courier/Priest to ask
    tie: bool = False
    round_scores: list[list[int]] = field(default_factory=list)  # per finished round, per seat
    round_details: list[list[dict[str, int]]] = field(default_factory=list)
    tokens: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)


OPTIONS: Final = (
    Option(
        "tiebreaker",
        ("tie", "round"),
        "tie",
        "Tie-Breaker Marker passes left after any turn with a tie (tie) or clockwise after every round",
    ),
    Option(
        "scoring",
        ("standard", "conpub"),
        "standard",
        "standard: most VP after 3 rounds; conpub: round winners take Egg Tokens, 3 tokens win, 2 with 5-6 players",
    ),
)


def _seat_label(seat: int) -> str:
    return f"Seat {seat + 1}"


class EggsAndEmpires(Game[EggsState]):
    key = "eggs-empires"
    title = "Eggs and Empires"
    min_players = 2
    max_players = MAX_SEATS
    options: tuple[Option, ...] = OPTIONS
    # ai_levels: handed in by the package (games/eggs_empires/__init__.py), which wires the AIs to the engine
    play_kinds = frozenset({"play"})  # the Adventurers played ("Bard (1)")
    sample_options = ({}, {"scoring": "conpub"}, {"tiebreaker": "round"})

    def score_variant(self, options: dict[str, Any]) -> str | None:
        """Con/Pub scores Egg Tokens, not victory points."""
        return "conpub" if options.get("scoring") == "conpub" else None

    # --- setup -------------------------------------------------------------------------------
    def new(self, players: int, seed: int, options: dict[str, Any] | None = None) -> EggsState:
        self.check_players(players)
        resolved = self.resolve_options(options)
        rng = Rng(seed)
        state = EggsState(players=players, rng=rng, options=resolved, tiebreaker=rng.randrange(players))
        state.round_scores = []
        state.tokens = [0] * players
        self._start_round(state, [])
        return state

    def players(self, state: EggsState) -> int:
        return state.players

    def _start_round(self, state: EggsState, events: list[Event]) -> None:
        n = state.players
        shuffle = state.rng.shuffle
        size = rules.hand_size(n)
        state.turn = 1
        state.phase = "mulligan"
        state.decks = decks = []
        state.hands = hands = []
        for _ in range(n):
            deck = rules.empire_deck(n)
            shuffle(deck)
            hands.append(sorted(deck[-size:]))
            del deck[-size:]
            decks.append(deck)
        state.discards = [[] for _ in range(n)]
        state.piles = [[] for _ in range(n)]
        state.bonus = [[] for _ in range(n)]
        state.mulligan = [None] * n
        state.submitted = [None] * n
        state.plays = [()] * n
        state.queue, state.end_queue = [], []
        state.egg_deck = rules.egg_deck(n)
        shuffle(state.egg_deck)
        state.egg_discard = []
        state.offer = []
        self._reveal_eggs(state)
        events.append({"type": "round_start", "round": state.round, "tiebreaker": state.tiebreaker})
        self._offer_event(state, events)

    @staticmethod
    def _reveal_eggs(state: EggsState) -> None:
        egg_deck, offer = state.egg_deck, state.offer
        for _ in range(rules.eggs_per_turn(state.players)):
            if not egg_deck:  # the deck ran out mid-round: reveal what is left
                break
            offer.append([egg_deck.pop(), FACE_UP])

    @staticmethod
    def _offer_event(state: EggsState, events: list[Event]) -> None:
        eggs: list[int] = []
        face_down: list[int] = []
        for egg, scout in state.offer:
            if scout == FACE_UP:
                eggs.append(EGG_VALUES[egg])
            else:
                face_down.append(scout)
        events.append(
            {
                "type": "offer",
                "round": state.round,
                "turn": state.turn,
                "eggs": eggs,
                "face_down": face_down,
                "tiebreaker": state.tiebreaker,
            }
        )

    # --- prompts -----------------------------------------------------------------------------
    def prompts(self, state: EggsState) -> list[Prompt]:
        phase = state.phase
        if phase == "play":
            pick = 2 if state.players == 2 else 1
            cached = _PLAY_PROMPTS[pick]
            hands = state.hands
            prompts = []  # a loop, not a comprehension: cheaper on Python 3.11 for a handful of seats
            for seat, submitted in enumerate(state.submitted):
                if submitted is None:
                    hand = tuple(hands[seat])
                    prompts.append(cached[seat].get(hand) or _new_play_prompt(pick, seat, hand))
            return prompts
        if phase == "collect":
            return [self._egg_prompt(state)]
        if phase == "turn_end":
            return [self._turn_end_prompt(state)]
        if phase == "mulligan":
            return [_mulligan_prompt(state.round, seat) for seat, kept in enumerate(state.mulligan) if kept is None]
        return []

    def _prompt_for(self, state: EggsState, seat: Any) -> list[Prompt]:
        """The prompt of one seat (as a list for check_choice) without building everybody's."""
        phase = state.phase
        if type(seat) is not int or not 0 <= seat < state.players:
            return []
        if phase == "play":
            pick = rules.cards_per_seat(state.players)
            return [_new_play_prompt(pick, seat, tuple(state.hands[seat]))] if state.submitted[seat] is None else []
        if phase == "mulligan":
            return [_mulligan_prompt(state.round, seat)] if state.mulligan[seat] is None else []
        return self.prompts(state)

    def _egg_prompt(self, state: EggsState) -> Prompt:
        """The eggs the current collector may take (face-up eggs of equal value are one choice, a Mage
        never takes a face-up Exploding egg), and "none" for a Mage facing only face-down eggs."""
        seat, card = state.queue[0]
        choices: list[Choice] = []
        face_up_values: list[int] = []
        mage = card == MAGE
        for slot, (egg, scout) in enumerate(state.offer):
            value = EGG_VALUES[egg]
            if scout == FACE_UP:
                if value in face_up_values or (mage and value < 0):
                    continue
                face_up_values.append(value)
                choices.append(FACE_UP_CHOICES[slot][value])
            else:
                choices.append(_face_down_choice(slot, scout, value if scout == seat else None))
        if mage and choices and not face_up_values:
            choices.append(NO_EGG)
        return Prompt(seat, "egg", choices, 1, False, EGG_TEXT[card], EGG_INFO[card])

    def _turn_end_prompt(self, state: EggsState) -> Prompt:
        seat, card = state.end_queue[0]
        if card == COURIER:
            egg = next(entry[2] for entry in state.collected if entry[0] == seat and entry[1] == COURIER)
            return _courier_prompt(state.players, seat, EGG_VALUES[egg])
        return _priest_prompt(seat, tuple(sorted(set(map(EGG_VALUES.__getitem__, state.piles[seat])))))

    # --- apply -------------------------------------------------------------------------------
    def apply(self, state: EggsState, seat: Any, choice: Any) -> list[Event]:
        # seat and choice are typed Any: they come from outside unchecked, and a build compiled with mypyc
        # would otherwise raise TypeError on a wrong type instead of IllegalAction.
        # Fast paths: a decision in its usual shape (a list of str ids from the seat being asked) is
        # checked straight against the state, without building prompts. Anything else, legal or not,
        # takes the full check against the prompt, which also words the error message.
        phase = state.phase
        if phase == "play":
            submitted = state.submitted
            # The usual decision (two thirds of all): one Adventurer of a hand with 3 to 6 players, checked
            # inline; any surprise (seat out of range, not one id, an unknown or unhashable id) leaves cards
            # None. Two players, and anything unusual, go through _legal_play.
            cards = None
            try:
                if type(seat) is int and seat >= 0 and submitted[seat] is None and type(choice) is list:
                    (first,) = choice
                    card = CARD_IDS[first]
                    if card in state.hands[seat] and state.players > 2:
                        cards = [card]
            except (IndexError, ValueError, KeyError, TypeError):
                pass
            if cards is None:
                cards = self._legal_play(state, seat, choice)
            if cards is not None:
                submitted[seat] = cards
                played = [{"type": "decided", "seat": seat}, {"type": "played", "to": seat, "cards": cards}]
                if None not in submitted:
                    self._reveal_plays(state, played)
                return played
            kind = ""
        elif phase == "collect":
            slot = self._egg_slot(state, seat, choice)
            if slot != NOBODY:
                events: list[Event] = []
                queue = state.queue
                self._take(state, seat, queue[0][1], slot, events)
                del queue[0]
                self._collect(state, events)
                return events
            kind = ""
        elif phase == "turn_end":
            kind = self._valid_turn_end(state, seat, choice)
        elif phase == "mulligan":
            kind = "mulligan" if self._valid_mulligan(state, seat, choice) else ""
        else:
            kind = ""
        if not kind:
            prompts = self._prompt_for(state, seat)
            if not prompts and phase != "over":
                raise IllegalAction("It is not your turn to decide.")
            kind = check_choice(prompts, seat, choice).kind
        if kind == "play":  # legal, though not in the exact shape the fast path expects (e.g. a tuple)
            return self._submit_play(state, seat, sorted(CARD_IDS[c] for c in choice))
        events = []
        if kind == "mulligan":
            state.mulligan[seat] = choice[0]
            events.append({"type": "decided", "seat": seat})
            if None not in state.mulligan:
                self._resolve_mulligans(state, events)
        elif kind == "egg":
            card = state.queue[0][1]
            if choice[0] == NO_EGG.id:
                events.append({"type": "declined", "seat": seat, "card": card})
            else:
                self._take(state, seat, card, int(choice[0][1:]), events)
            state.queue.pop(0)
            self._collect(state, events)
        elif kind == "courier":
            if choice[0] != KEEP_ID:
                target = COURIER_TARGETS[choice[0]]
                egg = next(entry[2] for entry in state.collected if entry[0] == seat and entry[1] == COURIER)
                state.piles[seat].remove(egg)
                state.piles[target].append(egg)
                events.append({"type": "courier", "seat": seat, "to_seat": target, "value": EGG_VALUES[egg]})
            state.end_queue.pop(0)
            self._turn_end(state, events)
        elif kind == "priest":
            if choice[0] != KEEP_ID:
                value = DISCARD_VALUES[choice[0]]
                egg = next(e for e in state.piles[seat] if EGG_VALUES[e] == value)
                state.piles[seat].remove(egg)
                state.egg_discard.append(egg)
                events.append({"type": "priest", "seat": seat, "value": value})
            state.end_queue.pop(0)
            self._turn_end(state, events)
        return events

    def _submit_play(self, state: EggsState, seat: int, cards: list[int]) -> list[Event]:
        submitted = state.submitted
        submitted[seat] = cards
        events: list[Event] = [{"type": "decided", "seat": seat}, {"type": "played", "to": seat, "cards": cards}]
        if None not in submitted:
            self._reveal_plays(state, events)
        return events

    @staticmethod
    def _legal_play(state: EggsState, seat: Any, choice: Any) -> list[int] | None:
        """The (sorted) cards of `choice` when it is certainly a legal play for `seat`, else None."""
        submitted = state.submitted
        if (
            type(seat) is not int
            or type(choice) is not list
            or not 0 <= seat < len(submitted)
            or (submitted[seat] is not None)
        ):
            return None
        try:  # ids are str; anything unhashable takes the full check
            if len(choice) == 1:
                card = CARD_IDS.get(choice[0])
                return [card] if card in state.hands[seat] and len(submitted) != 2 else None
            if len(choice) != 2 or len(submitted) != 2:
                return None
            first, second = CARD_IDS.get(choice[0]), CARD_IDS.get(choice[1])
        except TypeError:
            return None
        hand = state.hands[seat]
        if first is None or second is None or first == second or first not in hand or second not in hand:
            return None
        return [first, second] if first < second else [second, first]

    @staticmethod
    def _valid_mulligan(state: EggsState, seat: Any, choice: Any) -> bool:
        if type(seat) is not int or type(choice) is not list or not 0 <= seat < state.players:
            return False
        return (
            state.mulligan[seat] is None and len(choice) == 1 and type(choice[0]) is str and choice[0] in MULLIGAN_IDS
        )

    @staticmethod
    def _egg_slot(state: EggsState, seat: Any, choice: Any) -> int:
        """The offer slot of `choice` when it is certainly one of the ids `_egg_prompt` offers the current
        collector (a slot it may take that is the first face-up egg of its value, or a face-down egg),
        else NOBODY (then the full check decides, and words the refusal)."""
        queue = state.queue
        if type(seat) is not int or type(choice) is not list or len(choice) != 1 or not queue or queue[0][0] != seat:
            return NOBODY
        try:
            slot = SLOT_IDS.get(choice[0], NOBODY)  # "none" (a Mage declining) is not a slot
        except TypeError:  # unhashable
            return NOBODY
        offer = state.offer
        if not 0 <= slot < len(offer):
            return NOBODY
        egg, scout = offer[slot]
        if scout != FACE_UP:
            return slot
        value = EGG_VALUES[egg]
        if value < 0 and queue[0][1] == MAGE:
            return NOBODY
        for earlier, earlier_scout in offer[:slot]:
            if earlier_scout == FACE_UP and EGG_VALUES[earlier] == value:
                return NOBODY  # equal face-up eggs are one choice: the first one's
        return slot

    @staticmethod
    def _valid_turn_end(state: EggsState, seat: Any, choice: Any) -> str:
        """ "courier" or "priest" when `choice` is certainly one of the ids `_turn_end_prompt` offers,
        else ""."""
        if type(seat) is not int or type(choice) is not list or len(choice) != 1 or type(choice[0]) is not str:
            return ""
        if not state.end_queue or state.end_queue[0][0] != seat:
            return ""
        picked = choice[0]
        if state.end_queue[0][1] == COURIER:
            target = COURIER_TARGETS.get(picked, seat) if picked != KEEP_ID else -1
            return "courier" if target != seat and target < state.players else ""
        if picked == KEEP_ID:
            return "priest"
        value = DISCARD_VALUES.get(picked)
        return "priest" if value is not None and any(EGG_VALUES[e] == value for e in state.piles[seat]) else ""

    def _resolve_mulligans(self, state: EggsState, events: list[Event]) -> None:
        redrew = [seat for seat, m in enumerate(state.mulligan) if m == "redraw"]
        size = rules.hand_size(state.players)
        for seat in redrew:
            old = state.hands[seat]
            deck = state.decks[seat]
            state.hands[seat] = sorted(deck[-size:])
            del deck[-size:]
            deck.extend(old)  # the discarded hand is shuffled back into the deck
            state.rng.shuffle(deck)
        events.append({"type": "mulligan", "redrew": redrew})
        state.phase = "play"
        state.submitted = [None] * state.players

    def _reveal_plays(self, state: EggsState, events: list[Event]) -> None:
        n = state.players
        # Everybody has submitted: the submitted lists themselves become the revealed plays.
        plays: list[list[int]] = state.submitted  # type: ignore[assignment]  # (cast() costs a call here)
        state.plays = plays  # type: ignore[assignment]
        state.submitted = [None] * n
        hands = state.hands
        for seat in range(n):
            hand = hands[seat]
            for card in plays[seat]:
                hand.remove(card)
        tiebreaker = state.tiebreaker
        queue, tie = rules.collection_queue(plays, tiebreaker)
        state.tie = tie
        state.queue = queue
        state.collected = []
        # The event and the state share one list (the queue is consumed below) of the same read-only pairs:
        # neither is ever changed in place.
        state.order = order = queue[:]
        state.revealed = plays
        state.revealed_at = state.round * 16 + state.turn
        events.append({"type": "reveal", "plays": plays, "order": order, "tie": tie, "tiebreaker": tiebreaker})
        state.phase = "collect"
        self._collect(state, events)

    @staticmethod
    def _take(state: EggsState, seat: int, card: int, slot: int, events: list[Event]) -> None:
        egg, scout = state.offer.pop(slot)
        state.piles[seat].append(egg)
        state.collected.append([seat, card, egg, scout])
        if card in (COURIER, PRIEST):  # decides at the end of the turn (sorted in _collect)
            state.end_queue.append([seat, card])
        # an egg's value becomes public once collected, face-down ones included
        events.append(
            {"type": "collect", "seat": seat, "card": card, "value": EGG_VALUES[egg], "face_down": scout != FACE_UP}
        )

    @staticmethod
    def _auto_slot(offer: list[list[int]], card: int) -> int:
        """The offer slot this collector must take, or NOBODY if it can take nothing, or ASK when it
        has a real choice (different eggs, a face-down egg among others, or a Mage that may decline a
        face-down egg). Equivalent to `_egg_prompt` but allocation-free: this runs for every collector."""
        if len(offer) == 1:  # the usual case after the first collector: take it, unless a Mage may not or may decline
            if card != MAGE:
                return 0
            egg, scout = offer[0]
            return ASK if scout != FACE_UP else NOBODY if EGG_VALUES[egg] < 0 else 0
        first = NOBODY
        first_value = 0
        face_down = False
        mage = card == MAGE
        for slot, (egg, scout) in enumerate(offer):
            if scout != FACE_UP:
                if first != NOBODY:
                    return ASK
                first, face_down = slot, True
                continue
            value = EGG_VALUES[egg]
            if mage and value < 0:
                continue
            if first == NOBODY:
                first, first_value = slot, value
            elif face_down or value != first_value:
                return ASK
        if mage and face_down:
            return ASK
        return first

    def _collect(self, state: EggsState, events: list[Event]) -> None:
        """Run the collection order until a collector's choice matters or it is over."""
        queue = state.queue
        offer = state.offer
        auto_slot, take = self._auto_slot, self._take
        while queue and offer:
            seat, card = queue[0]
            slot = auto_slot(offer, card)
            if slot == ASK:
                return  # this collector decides (prompt "egg")
            if slot != NOBODY:
                take(state, seat, card, slot, events)  # must take if able
            del queue[0]  # done, or cannot take anything: the next collector goes
        state.queue = []
        # Couriers and Priests that collected (_take queued them) decide next, in player order from the
        # Tie-Breaker holder.
        deciders = state.end_queue
        if len(deciders) > 1:
            n, tiebreaker = state.players, state.tiebreaker
            deciders.sort(key=lambda e: ((e[0] - tiebreaker) % n, e[1]))
        state.phase = "turn_end"
        self._turn_end(state, events)

    def _turn_end(self, state: EggsState, events: list[Event]) -> None:
        """Finish the turn once no Courier or Priest decision is pending."""
        if state.end_queue:
            return
        n = state.players
        plays = state.plays
        discards = state.discards
        for seat, cards in enumerate(plays):
            if MERCHANT in cards or BLACKSMITH in cards:
                self._discard_or_score(state, seat, cards, events)
            else:
                discards[seat] += cards
        offer = state.offer
        if offer:
            face_up = [EGG_VALUES[e] for e, s in offer if s == FACE_UP]
            events.append({"type": "unclaimed", "eggs": face_up, "face_down": len(offer) - len(face_up)})
            state.egg_discard += [e for e, _ in offer]
            offer = state.offer = []
        tiebreaker = state.tiebreaker
        last_turn = state.turn == rules.TURNS_PER_ROUND
        if not last_turn:
            egg_deck = state.egg_deck
            # Scouts, in player order from the Tie-Breaker holder, put the top egg face down for next turn.
            for seat in rules.ROTATIONS[n][tiebreaker]:
                if SCOUT in plays[seat] and egg_deck:
                    egg = egg_deck.pop()
                    offer.append([egg, seat])
                    events.append({"type": "scout", "seat": seat})
                    events.append({"type": "scouted", "to": seat, "value": EGG_VALUES[egg]})
            for _ in range(rules.eggs_per_turn(n)):
                if not egg_deck:  # the deck ran out mid-round: reveal what is left
                    break
                offer.append([egg_deck.pop(), FACE_UP])
            # Draw back up. A hand is kept sorted, so the order of the drawn cards does not matter.
            size = rules.hand_size(n)
            hands, decks = state.hands, state.decks
            for hand, deck in zip(hands, decks, strict=True):
                if not deck:
                    continue
                missing = size - len(hand)
                if missing == 1:
                    insort(hand, deck.pop())
                elif missing > 0:
                    hand += deck[-missing:]
                    del deck[-missing:]
                    hand.sort()
        state.plays = [()] * n  # immutable, so one empty tuple serves every seat
        if state.tie:
            if state.options["tiebreaker"] == "tie":
                state.tiebreaker = (tiebreaker + 1) % n
                events.append({"type": "tiebreaker", "seat": state.tiebreaker, "reason": "tie"})
            state.tie = False
        if last_turn:
            self._end_round(state, events)
        else:
            state.turn += 1
            state.phase = "play"
            self._offer_event(state, events)

    @staticmethod
    def _discard_or_score(state: EggsState, seat: int, cards: Sequence[int], events: list[Event]) -> None:
        """Discard a seat's played cards, except that a Merchant or Blacksmith that collected nothing goes
        to the scoring pile."""
        for card in cards:
            if card in (MERCHANT, BLACKSMITH) and [seat, card] not in [entry[:2] for entry in state.collected]:
                state.bonus[seat].append(card)
                events.append({"type": "bonus", "seat": seat, "card": card})
            else:
                state.discards[seat].append(card)

    def _end_round(self, state: EggsState, events: list[Event]) -> None:
        n = state.players
        details = []
        for seat in range(n):
            eggs = sum(EGG_VALUES[e] for e in state.piles[seat])
            merchant = rules.MERCHANT_BONUS * state.bonus[seat].count(MERCHANT)
            blacksmith = rules.BLACKSMITH_PENALTY * state.bonus[seat].count(BLACKSMITH)
            details.append(
                {"eggs": eggs, "merchant": merchant, "blacksmith": blacksmith, "total": eggs + merchant + blacksmith}
            )
        scores = [d["total"] for d in details]
        state.round_scores.append(scores)
        state.round_details.append(details)
        totals = self._totals(state)
        event: Event = {"type": "round_end", "round": state.round, "scores": scores, "totals": totals}
        conpub = state.options["scoring"] == "conpub"
        if conpub:
            best = max(scores)
            takers = [s for s in range(n) if scores[s] == best]
            for s in takers:
                state.tokens[s] += 1
            event["tokens_to"] = takers
            event["tokens"] = list(state.tokens)
        events.append(event)
        if conpub:
            goal = rules.tokens_to_win(n)
            over = max(state.tokens) >= goal
            if over:
                top = max(state.tokens)
                state.winners = [s for s in range(n) if state.tokens[s] == top]
        else:
            over = state.round == rules.ROUNDS
            if over:
                top = max(totals)
                state.winners = [s for s in range(n) if totals[s] == top]
        if over:
            state.phase = "over"
            events.append(
                {
                    "type": "game_over",
                    "winners": state.winners,
                    "totals": totals,
                    "tokens": list(state.tokens) if conpub else None,
                }
            )
            return
        # The Tie-Breaker Marker goes to the lowest total (first in player order from its holder on
        # a tie), or simply passes clockwise in the once-per-round variant.
        if state.options["tiebreaker"] == "round":
            state.tiebreaker = (state.tiebreaker + 1) % n
        else:
            low = min(totals)
            state.tiebreaker = next(
                s for s in sorted(range(n), key=lambda s: (s - state.tiebreaker) % n) if totals[s] == low
            )
        events.append({"type": "tiebreaker", "seat": state.tiebreaker, "reason": "round"})
        state.round += 1
        self._start_round(state, events)

    @staticmethod
    def _totals(state: EggsState) -> list[int]:
        return [sum(r[s] for r in state.round_scores) for s in range(state.players)]

    # --- views -------------------------------------------------------------------------------
    def view(self, state: EggsState, seat: int | None) -> dict[str, Any]:
        return self.views(state, [seat])[seat]

    def views(self, state: EggsState, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
        """Every audience's view of this moment. What all may see (every seat's pile and scores, the
        face-up offer, who is awaited) is built once and shared: each seat's view adds its hand, its own
        play or mulligan and the face-down eggs it scouted (views are read-only: games.core.Game.views)."""
        public = self._public_view(state)
        out: dict[int | None, dict[str, Any]] = {}
        for seat in seats:
            if seat is None:
                out[None] = public
                continue
            view = dict(public)
            view["seat"] = seat
            if any(scout == seat for _, scout in state.offer):
                view["offer"] = self._offer(state, seat)
            view["hand"] = list(state.hands[seat])
            mine = state.submitted[seat] if state.phase == "play" else None
            view["my_play"] = list(mine) if mine else []
            view["my_mulligan"] = state.mulligan[seat] if state.phase == "mulligan" else None
            view["scouted"] = [
                {"slot": i, "value": EGG_VALUES[e]} for i, (e, scout) in enumerate(state.offer) if scout == seat
            ]
            out[seat] = view
        return out

    @staticmethod
    def _offer(state: EggsState, seat: int | None) -> list[dict[str, Any]]:
        """The egg offer as `seat` sees it: face-up eggs, and the face-down ones it scouted itself."""
        offer = []
        for slot, (egg, scout) in enumerate(state.offer):
            shown = scout in (FACE_UP, seat)
            offer.append(
                {
                    "slot": slot,
                    "value": EGG_VALUES[egg] if shown else None,
                    "face_down": scout != FACE_UP,
                    "scout": None if scout == FACE_UP else scout,
                }
            )
        return offer

    def _public_view(self, state: EggsState) -> dict[str, Any]:
        n = state.players
        waiting = [p.seat for p in self.prompts(state)]
        totals = self._totals(state)
        seats = []
        for s in range(n):
            decided = (
                (state.submitted[s] is not None)
                if state.phase == "play"
                else (state.mulligan[s] is not None if state.phase == "mulligan" else False)
            )
            seats.append(
                {
                    "seat": s,
                    "hand_size": len(state.hands[s]),
                    "deck_size": len(state.decks[s]),
                    "decided": decided,
                    "played": list(state.plays[s]),
                    "discards": sorted(state.discards[s]),
                    "eggs": [EGG_VALUES[e] for e in state.piles[s]],
                    "merchants": state.bonus[s].count(MERCHANT),
                    "blacksmiths": state.bonus[s].count(BLACKSMITH),
                    "round_scores": [r[s] for r in state.round_scores],
                    "total": totals[s],
                    "tokens": state.tokens[s],
                }
            )
        view: dict[str, Any] = {
            "game": self.key,
            "players": n,
            "seat": None,
            "round": state.round,
            "rounds": rules.ROUNDS if state.options["scoring"] == "standard" else None,
            "turn": state.turn,
            "turns": rules.TURNS_PER_ROUND,
            "phase": state.phase,
            "options": dict(state.options),
            "tiebreaker": state.tiebreaker,
            "offer": self._offer(state, None),
            "egg_deck_size": len(state.egg_deck),
            "seats": seats,
            "waiting_for": waiting,
            "collecting": state.queue[0] if state.phase == "collect" and state.queue else None,
            "reveal": self._reveal_view(state),
            "winners": list(state.winners),
        }
        if state.options["scoring"] == "conpub":
            view["tokens_to_win"] = rules.tokens_to_win(n)
        return view

    @staticmethod
    def _reveal_view(state: EggsState) -> dict[str, Any] | None:
        """The last reveal (this turn's from the reveal on, else the previous turn's): every seat's play,
        the collection order with what each collector took, and the Dark Priestesses that cancelled."""
        if not state.revealed_at:
            return None
        taken = {(entry[0], entry[1]): entry for entry in state.collected}
        # while collecting, the head of the queue collects now and the rest wait
        done = len(state.order) - len(state.queue) if state.phase == "collect" else len(state.order)
        order = []
        for position, (seat, card) in enumerate(state.order):
            entry = taken.get((seat, card))
            status = "took" if entry else "nothing" if position < done else "now" if position == done else "waiting"
            order.append(
                {
                    "seat": seat,
                    "card": card,
                    "status": status,
                    "egg": EGG_VALUES[entry[2]] if entry else None,
                    "face_down": entry is not None and len(entry) > 3 and entry[3] != FACE_UP,
                }
            )
        ordered = {(seat, card) for seat, card in state.order}
        return {
            "round": state.revealed_at // 16,
            "turn": state.revealed_at % 16,
            "plays": [list(p) for p in state.revealed],
            "order": order,
            "cancelled": [
                seat for seat, cards in enumerate(state.revealed) for card in cards if (seat, card) not in ordered
            ],
        }

    def outcome(self, state: EggsState) -> dict[str, Any] | None:
        if state.phase != "over":
            return None
        n = state.players
        totals = self._totals(state)
        conpub = state.options["scoring"] == "conpub"
        scores = list(state.tokens) if conpub else totals
        ranking = [1 + sum(1 for o in scores if o > scores[s]) for s in range(n)]  # ties share a rank
        breakdown = [
            {
                "rounds": [state.round_details[r][s] for r in range(len(state.round_details))],
                "total": totals[s],
                "tokens": state.tokens[s],
            }
            for s in range(n)
        ]
        return {
            "scores": scores,
            "winners": list(state.winners),
            "ranking": ranking,
            "scoring": state.options["scoring"],
            "totals": totals,
            "breakdown": breakdown,
        }

    # --- serialisation -----------------------------------------------------------------------
    def to_json(self, state: EggsState) -> dict[str, Any]:
        return {
            "players": state.players,
            "rng": state.rng.to_json(),
            "options": dict(state.options),
            "tiebreaker": state.tiebreaker,
            "round": state.round,
            "turn": state.turn,
            "phase": state.phase,
            "decks": [list(d) for d in state.decks],
            "hands": [list(h) for h in state.hands],
            "discards": [list(d) for d in state.discards],
            "egg_deck": list(state.egg_deck),
            "egg_discard": list(state.egg_discard),
            "offer": [list(o) for o in state.offer],
            "piles": [list(p) for p in state.piles],
            "bonus": [list(b) for b in state.bonus],
            "mulligan": list(state.mulligan),
            "submitted": [None if s is None else list(s) for s in state.submitted],
            "plays": [list(p) for p in state.plays],
            "queue": [list(q) for q in state.queue],
            "collected": [list(c) for c in state.collected],
            "revealed": [list(p) for p in state.revealed],
            "order": [list(o) for o in state.order],
            "revealed_at": state.revealed_at,
            "end_queue": [list(e) for e in state.end_queue],
            "tie": state.tie,
            "round_scores": [list(r) for r in state.round_scores],
            "round_details": [[dict(d) for d in r] for r in state.round_details],
            "tokens": list(state.tokens),
            "winners": list(state.winners),
        }

    def from_json(self, data: dict[str, Any]) -> EggsState:
        try:
            state = EggsState(
                players=int(data["players"]),
                rng=Rng.from_json(data["rng"]),
                options=self.resolve_options(data["options"]),
                tiebreaker=int(data["tiebreaker"]),
            )
            state.round, state.turn, state.phase = int(data["round"]), int(data["turn"]), str(data["phase"])
            for name in (
                "decks",
                "hands",
                "discards",
                "offer",
                "piles",
                "bonus",
                "plays",
                "queue",
                "collected",
                "end_queue",
                "round_scores",
            ):
                setattr(state, name, [[int(x) for x in row] for row in data[name]])
            # absent from states saved before views showed the last reveal
            state.revealed = [[int(x) for x in row] for row in data.get("revealed", [])]
            state.order = [[int(x) for x in row] for row in data.get("order", [])]
            state.revealed_at = int(data.get("revealed_at", 0))
            state.egg_deck = [int(x) for x in data["egg_deck"]]
            state.egg_discard = [int(x) for x in data["egg_discard"]]
            state.mulligan = [None if m is None else str(m) for m in data["mulligan"]]
            state.submitted = [None if s is None else [int(x) for x in s] for s in data["submitted"]]
            state.tie = bool(data["tie"])
            state.round_details = [[{k: int(v) for k, v in d.items()} for d in r] for r in data["round_details"]]
            state.tokens = [int(x) for x in data["tokens"]]
            state.winners = [int(x) for x in data["winners"]]
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not an Eggs and Empires state: {exc!r}") from exc
        return state

    # --- text --------------------------------------------------------------------------------
    def describe(self, view: dict[str, Any]) -> str:
        from games.eggs_empires.text import describe

        return describe(view)


__all__ = ["EggsAndEmpires", "EggsState", "IllegalAction"]
