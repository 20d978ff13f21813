"""Eight-Minute Empire: Legends, the rules engine.

Phases: "neutral" (2 players: the seats alternately place 10 neutral armies), "bid" (secret and
simultaneous), "turn" (take a card, then its action one small step at a time) and "over". The Full Game
variant plays three games in a row on the same layout; the state keeps the game number and the sums.

Over 500 lines: one state machine (bids, a card's action one small step at a time, the Full Game's
three games in a row); the map in board.py, the cards in cards.py, scoring in scoring.py and the
views in views.py already stand apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from games.core import Choice, Game, Option, Prompt, Rng, check_choice
from games.eight_minute_empire import scoring, views
from games.eight_minute_empire.board import LAND, Board, build, layout_for
from games.eight_minute_empire.cards import (
    CITY,
    MOVE,
    PLACE,
    ROW_COSTS,
    Card,
    all_cards,
    deck_for,
    hand_totals,
    part_text,
)
from games.eight_minute_empire.components import (
    ARMIES,
    CITADEL,
    CITIES,
    COIN_SUPPLY,
    EXPLORE_TOKENS,
    GAMES_IN_FULL,
    NEUTRAL_ARMIES,
    START_COINS,
    TARGET_CARDS,
)
from games.eight_minute_empire.shapes import (
    ActionChoice,
    ArmyChoice,
    BidChoice,
    CardChoice,
    EndChoice,
    MoveChoice,
    RegionWithArmiesChoice,
    Way,
)

Event = dict[str, Any]

MAX_SELECT = 25  # Discord selects hold 25 options


@dataclass(eq=False)
class State:
    players: int
    options: dict[str, Any]
    rng: Rng
    layout: str
    game_no: int = 1
    finished: list[list[dict[str, Any]]] = field(default_factory=list)  # breakdowns of ended games
    phase: str = "neutral"
    deck: list[int] = field(default_factory=list)
    row: list[int | None] = field(default_factory=list)
    hands: list[list[int]] = field(default_factory=list)
    coins: list[int] = field(default_factory=list)
    supply: int = COIN_SUPPLY
    armies: list[list[int]] = field(default_factory=list)  # [region][party]; party = seat, or neutral
    cities: list[list[int]] = field(default_factory=list)  # [region][seat]
    start: int = 0
    tokens: dict[int, str] = field(default_factory=dict)  # region -> explore token name or CITADEL
    citadels: list[int] = field(default_factory=list)
    explore: list[list[str]] = field(default_factory=list)  # explore tokens each seat has gained
    neutral_left: int = 0
    seat: int = 0  # who acts now (neutral placement and turns)
    bids: list[int | None] = field(default_factory=list)
    revealed: list[int] | None = None
    first: int = -1
    step: dict[str, Any] | None = None  # the action in progress, see _start_action
    version: int = 0
    cache: tuple[int, list[Prompt]] | None = field(default=None, repr=False)

    board: Board = field(init=False, repr=False)  # derived from the layout, never serialised

    def __post_init__(self) -> None:
        self.board = build(self.layout)


def _card(cid: int) -> Card:
    return all_cards()[cid]


def _totals(state: State, seat: int) -> dict[str, int]:
    return hand_totals(tuple(state.hands[seat]))


# Choices are made once and handed out again (read-only, with their data: see shapes.py for the shapes).
@cache
def _card_choice(slot: int, cid: int) -> Choice:
    card = _card(cid)
    data: CardChoice = {
        "what": "card",
        "slot": slot,
        "cost": ROW_COSTS[slot],
        "card": card.name,
        "join": card.join,  # type: ignore[typeddict-item]  # cards.json holds only "one", "and", "or"
        "parts": card.parts,
    }
    return Choice(f"card{slot}", f"{card.name} ({ROW_COSTS[slot]}c): {card.action_text}", data)


@cache
def _with_armies(layout: str, region: int, armies: int) -> Choice:
    """A region option that says how many of your armies stand there (for move and city selects)."""
    board = build(layout)
    label = board.labels[region]
    data: RegionWithArmiesChoice = {
        "what": "region",
        "region": label,
        "continent": board.continent_names[board.continent_of[region]],
        "armies": armies,
    }
    return Choice(label, f"{board.choices[region].label} · {armies} of yours", data)


@cache
def _move_choice(layout: str, region: int, cost: int, way: int) -> Choice:
    """A destination of a move, with the way there (land or water) and its cost in movement."""
    board = build(layout)
    label, continent = board.labels[region], board.continent_names[board.continent_of[region]]
    words: Way = "land" if way == LAND else "water"
    data: MoveChoice = {"what": "move", "region": label, "continent": continent, "way": words, "cost": cost}
    return Choice(label, f"{label} {continent} ({words}, {cost})", data)


@cache
def _target_choice(layout: str, region: int, party: int, players: int) -> Choice:
    """An army to destroy: a seat's (id "A1p2" for the second seat) or a neutral one ("A1n")."""
    board = build(layout)
    label = board.labels[region]
    neutral = party == players
    data: ArmyChoice = {
        "what": "army",
        "region": label,
        "continent": board.continent_names[board.continent_of[region]],
        "owner": None if neutral else party,
    }
    who = "a neutral army" if neutral else f"an army of player {party + 1}"
    return Choice(f"{label}{'n' if neutral else f'p{party + 1}'}", f"{who} in {label}", data)


@cache
def _bid_choices(coins: int) -> tuple[Choice, ...]:
    return tuple(Choice(f"bid{v}", f"Bid {v}", BidChoice(what="bid", amount=v)) for v in range(coins + 1))


@cache
def _branch_choice(index: int, kind: str, amount: int) -> Choice:
    data: ActionChoice = {"what": "action", "action": kind, "amount": amount}  # type: ignore[typeddict-item]
    return Choice(f"or{index}", part_text(kind, amount), data)


DONE_PLACING = Choice("done", "Done placing", EndChoice(what="done"))
DONE_MOVING = Choice("done", "Done moving", EndChoice(what="done"))
PICK_ANOTHER = Choice("back", "Pick another army", EndChoice(what="back"))
SKIP_ACTION = Choice("skip", "Skip the action", EndChoice(what="skip"))
SKIP_CITY = Choice("skip", "Skip the city", EndChoice(what="skip"))
SKIP_DESTROY = Choice("skip", "Skip destroying", EndChoice(what="skip"))


class EightMinuteEmpire(Game[State]):
    key = "eight-minute-empire"
    title = "Eight-Minute Empire: Legends"
    min_players = 2
    max_players = 4
    # ai_levels: handed in by the package (games/eight_minute_empire/__init__.py), which wires the AIs to the engine
    play_kinds = frozenset({"card"})  # the cards taken from the row
    sample_options = ({}, {"explore": True, "citadels": True})

    def play_names(self, prompt: Prompt, chosen: Sequence[Choice]) -> list[str]:
        """The card, not its slot cost and action: "Dragon Rider (2c): Place 3 armies" -> "Dragon Rider"."""
        return [c.label.split(" (", 1)[0] for c in chosen]

    def score_variant(self, options: dict[str, Any]) -> str | None:
        """The Full Game sums three games' victory points."""
        return "full" if options.get("full_game") else None

    options = (
        Option("full_game", (False, True), False, "play three games and sum the victory points"),
        Option(
            "explore",
            (False, True),
            False,
            "six explore tokens on the map: whoever first builds a city in a token's region gains that token",
        ),
        Option("citadels", (False, True), False, "three citadel regions worth 1 extra VP to control"),
        Option("layout", ("L", "row"), "L", "2-3 players: three boards as an L or in a row; 4 players: a 2x2 square"),
        Option(
            "bid_tie",
            ("die", "first-seat"),
            "die",
            "who wins tied bids: a die roll, as the rules' alternate tie breaker says, or the earliest seat",
        ),
    )

    # --- setup -------------------------------------------------------------------------------
    def new(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        self.check_players(players)
        resolved = self.resolve_options(options)
        state = State(players=players, options=resolved, rng=Rng(seed), layout=layout_for(players, resolved["layout"]))
        self._setup_game(state)
        return state

    def _setup_game(self, state: State) -> None:
        """Deal one game: deck and row, coins, supplies, start region, tokens, then neutral or bid."""
        n, board, rng = state.players, state.board, state.rng
        state.deck = deck_for(n)
        rng.shuffle(state.deck)
        state.row = [state.deck.pop() for _ in ROW_COSTS]
        state.hands = [[] for _ in range(n)]
        state.supply = COIN_SUPPLY - START_COINS[n] * n
        state.coins = [START_COINS[n]] * n
        state.armies = [[0] * (n + 1) for _ in range(board.size)]
        state.cities = [[0] * n for _ in range(board.size)]
        state.start = rng.choice(board.start_candidates())
        for s in range(n):
            state.armies[state.start][s] = 4
        state.tokens, state.citadels = {}, []
        state.explore = [[] for _ in range(n)]
        # Tokens go on regions without a token; the starting region token counts as one.
        free = [r for r in range(board.size) if r != state.start]
        rng.shuffle(free)
        if state.options["explore"]:
            for name in EXPLORE_TOKENS:
                state.tokens[free.pop()] = name
        if state.options["citadels"]:
            for _ in range(3):
                region = free.pop()
                state.tokens[region] = CITADEL
                state.citadels.append(region)
            state.citadels.sort()
        state.bids = [None] * n
        state.revealed = None
        state.first = -1
        state.step = None
        if n == 2:
            state.phase, state.neutral_left, state.seat = "neutral", NEUTRAL_ARMIES, rng.randrange(2)
        else:
            state.phase, state.neutral_left, state.seat = "bid", 0, 0

    # --- small helpers -----------------------------------------------------------------------
    def players(self, state: State) -> int:
        return state.players

    @staticmethod
    def _bonus(state: State, seat: int, kind: str, token: str) -> int:
        return _totals(state, seat).get(kind, 0) + state.explore[seat].count(token)

    @staticmethod
    def water_cost(state: State, seat: int) -> int:
        flying = _totals(state, seat).get("flying", 0)
        return max(1, 3 - flying)

    @staticmethod
    def _immune(state: State, seat: int) -> bool:
        return "immune" in _totals(state, seat)

    @staticmethod
    def supply_armies(state: State, seat: int) -> int:
        return ARMIES - sum(row[seat] for row in state.armies)

    @staticmethod
    def supply_cities(state: State, seat: int) -> int:
        return CITIES - sum(row[seat] for row in state.cities)

    def _place_regions(self, state: State, seat: int) -> list[int]:
        regions = [state.start]
        regions += [r for r, row in enumerate(state.cities) if row[seat] and r != state.start]
        return regions

    def _destroy_targets(self, state: State, seat: int) -> list[tuple[int, int]]:
        """(region, party) pairs: armies of others (or neutral) where `seat` has an army."""
        immune = [self._immune(state, s) for s in range(state.players)] + [False]
        return [
            (r, p)
            for r, row in enumerate(state.armies)
            if row[seat]
            for p, count in enumerate(row)
            if count and p != seat and not immune[p]
        ]

    def _move_options(self, state: State, seat: int, src: int, left: int) -> list[tuple[int, int, int]]:
        """(destination, cost, LAND|WATER) for one army leaving `src` with `left` movement."""
        water = self.water_cost(state, seat)
        out = []
        for other, kind in state.board.neighbours[src]:
            cost = 1 if kind == LAND else water
            if cost <= left:
                out.append((other, cost, kind))
        return out

    def _has_legal(self, state: State, seat: int, kind: str, left: int) -> bool:
        if left <= 0:
            return False
        if kind == PLACE:
            return self.supply_armies(state, seat) > 0
        if kind == MOVE:
            return any(row[seat] for row in state.armies)  # every region has a land neighbour
        if kind == CITY:
            return self.supply_cities(state, seat) > 0 and any(row[seat] for row in state.armies)
        return bool(self._destroy_targets(state, seat))

    def _part_amount(self, state: State, seat: int, kind: str, n: int) -> int:
        if kind == PLACE:
            return n + self._bonus(state, seat, "army", "Cottage")
        if kind == MOVE:
            return n + self._bonus(state, seat, "move", "Stable")
        return n

    # --- prompts -----------------------------------------------------------------------------
    def prompts(self, state: State) -> list[Prompt]:
        # apply() asks for the prompts again to validate; caching them per state version halves the work
        if state.cache is not None and state.cache[0] == state.version:
            return list(state.cache[1])
        prompts = self._build_prompts(state)
        state.cache = (state.version, prompts)
        return list(prompts)

    def _build_prompts(self, state: State) -> list[Prompt]:
        board = state.board
        if state.phase == "neutral":
            return [
                Prompt(
                    state.seat,
                    "neutral",
                    list(board.choices),
                    text=f"Place a neutral army ({state.neutral_left} left): which region?",
                    info={"neutral_left": state.neutral_left},
                )
            ]
        if state.phase == "bid":
            return [
                Prompt(
                    s,
                    "bid",
                    list(_bid_choices(state.coins[s])),
                    secret=True,
                    text=f"Your secret bid for first player (you have {state.coins[s]} coins)?",
                    info={"coins": state.coins[s]},
                )
                for s in range(state.players)
                if state.bids[s] is None
            ]
        if state.phase != "turn":
            return []
        seat, step = state.seat, state.step
        if step is None:
            choices = [
                _card_choice(i, cid)
                for i, cid in enumerate(state.row)
                if cid is not None and ROW_COSTS[i] <= state.coins[seat]
            ]
            return [Prompt(seat, "card", choices, text="Take which card?", info={"coins": state.coins[seat]})]
        card_name = _card(step["card"]).name
        if step.get("branch"):
            choices = [_branch_choice(i, k, n) for i, (k, n) in enumerate(step["branch"])]
            choices.append(SKIP_ACTION)
            return [Prompt(seat, "branch", choices, text=f"{card_name}: which action?", info={"card": card_name})]
        kind, left = step["kind"], step["left"]
        info = {"card": card_name, "kind": kind, "left": left}
        if kind == PLACE:
            choices = [board.choices[r] for r in self._place_regions(state, seat)]
            choices.append(DONE_PLACING)
            return [Prompt(seat, "place", choices, text=f"Place an army ({left} left): where?", info=info)]
        if kind == MOVE:
            src = step.get("src")
            if src is None:
                choices = [_with_armies(state.layout, r, row[seat]) for r, row in enumerate(state.armies) if row[seat]]
                choices.append(DONE_MOVING)
                return [
                    Prompt(
                        seat,
                        "move_from",
                        choices,
                        text=f"Move an army ({left} moves left): from where?",
                        info=info,
                    )
                ]
            choices = [
                _move_choice(state.layout, r, cost, way) for r, cost, way in self._move_options(state, seat, src, left)
            ]
            choices.append(PICK_ANOTHER)
            return [
                Prompt(
                    seat,
                    "move_to",
                    choices,
                    text=f"Move the army from {board.labels[src]} to?",
                    info={**info, "from": board.labels[src]},
                )
            ]
        if kind == CITY:
            choices = [_with_armies(state.layout, r, row[seat]) for r, row in enumerate(state.armies) if row[seat]]
            choices.append(SKIP_CITY)
            return [Prompt(seat, "city", choices, text="Build a city: where?", info=info)]
        targets = self._destroy_targets(state, seat)
        region = step.get("region")
        if region is None and len(targets) > MAX_SELECT - 1:
            regions = sorted({r for r, _ in targets})
            choices = [board.choices[r] for r in regions] + [SKIP_DESTROY]
            return [Prompt(seat, "destroy_region", choices, text="Destroy an army: in which region?", info=info)]
        choices = [
            _target_choice(state.layout, r, p, state.players) for r, p in targets if region is None or r == region
        ]
        choices.append(SKIP_DESTROY)
        return [Prompt(seat, "destroy", choices, text="Destroy whose army, where?", info=info)]

    # --- apply -------------------------------------------------------------------------------
    def apply(self, state: State, seat: int, choice: list[str]) -> list[Event]:
        prompt = check_choice(self.prompts(state), seat, choice)
        picked = choice[0]
        handler = getattr(self, f"_on_{prompt.kind}")
        events: list[Event] = handler(state, seat, picked)
        state.version += 1
        return events

    def _region(self, state: State, label: str) -> int:
        return state.board.index[label]

    def _on_neutral(self, state: State, seat: int, picked: str) -> list[Event]:
        region = self._region(state, picked)
        state.armies[region][state.players] += 1
        state.neutral_left -= 1
        events: list[Event] = [{"type": "neutral", "seat": seat, "region": picked}]
        if state.neutral_left:
            state.seat = 1 - seat
        else:
            state.phase = "bid"
            events.append({"type": "bidding"})
        return events

    def _on_bid(self, state: State, seat: int, picked: str) -> list[Event]:
        amount = int(picked[3:])
        state.bids[seat] = amount
        events: list[Event] = [
            {"type": "bid_in", "seat": seat},
            {"type": "bid", "to": seat, "amount": amount},
        ]
        if any(b is None for b in state.bids):
            return events
        bids = [int(b or 0) for b in state.bids]
        top = max(bids)
        tied = [s for s, b in enumerate(bids) if b == top]
        if len(tied) == 1:
            winner, how = tied[0], "highest"
        elif state.options["bid_tie"] == "die":
            winner, how = tied[state.rng.randrange(len(tied))], "die"
        else:
            winner, how = tied[0], "first-seat"
        state.coins[winner] -= top
        state.supply += top
        state.revealed = bids
        state.first = state.seat = winner
        state.phase = "turn"
        events.append({"type": "bids", "bids": bids, "winner": winner, "paid": top, "tie": how})
        events.append({"type": "turn", "seat": winner})
        return events

    def _on_card(self, state: State, seat: int, picked: str) -> list[Event]:
        slot = int(picked[4:])
        cid = state.row[slot]
        assert cid is not None
        cost = ROW_COSTS[slot]
        card = _card(cid)
        state.coins[seat] -= cost
        state.supply += cost
        state.row[slot] = None
        state.hands[seat].append(cid)
        events: list[Event] = [{"type": "take", "seat": seat, "card": card.name, "slot": slot, "cost": cost}]
        gain = min(card.count("coins"), state.supply)
        if gain:
            self._gain(state, seat, gain)
            events.append({"type": "coins", "seat": seat, "gain": gain, "source": card.name, "from_token": False})
        step: dict[str, Any] = {"card": cid, "parts": [], "kind": None, "left": 0}
        if card.join == "or":
            step["branch"] = [list(p) for p in card.parts]
        else:
            step["parts"] = [list(p) for p in card.parts]
        state.step = step
        return events + self._advance(state)

    def _gain(self, state: State, seat: int, amount: int) -> None:
        state.coins[seat] += amount
        state.supply -= amount

    def _on_branch(self, state: State, seat: int, picked: str) -> list[Event]:
        step = state.step
        assert step is not None
        branch = step.pop("branch")
        if picked == "skip":
            return [{"type": "skip", "seat": seat}, *self._advance(state)]
        part = branch[int(picked[2:])]
        step["parts"] = [part]
        kind, amount = part
        return [
            {"type": "branch", "seat": seat, "action": part_text(kind, amount), "kind": kind, "amount": amount},
            *self._advance(state),
        ]

    def _advance(self, state: State) -> list[Event]:
        """Start the next action part that can be used; end the turn when none is left."""
        step = state.step
        assert step is not None
        if step.get("branch"):
            return []
        seat = state.seat
        while True:
            if step["kind"] is not None and self._has_legal(state, seat, step["kind"], step["left"]):
                return []
            if not step["parts"]:
                return self._end_turn(state)
            kind, n = step["parts"].pop(0)
            step["kind"], step["left"], step["src"], step["region"] = (
                kind,
                self._part_amount(state, seat, kind, n),
                None,
                None,
            )

    def _finish_part(self, state: State) -> list[Event]:
        step = state.step
        assert step is not None
        step["kind"], step["left"] = None, 0
        return self._advance(state)

    def _on_place(self, state: State, seat: int, picked: str) -> list[Event]:
        if picked == "done":
            return self._finish_part(state)
        step = state.step
        assert step is not None
        region = self._region(state, picked)
        state.armies[region][seat] += 1
        step["left"] -= 1
        return [{"type": "place", "seat": seat, "region": picked}, *self._advance(state)]

    def _on_move_from(self, state: State, seat: int, picked: str) -> list[Event]:
        if picked == "done":
            return self._finish_part(state)
        step = state.step
        assert step is not None
        step["src"] = self._region(state, picked)
        return []

    def _on_move_to(self, state: State, seat: int, picked: str) -> list[Event]:
        step = state.step
        assert step is not None
        src = step["src"]
        step["src"] = None
        if picked == "back":
            return []
        dst = self._region(state, picked)
        cost = next(c for r, c, _ in self._move_options(state, seat, src, step["left"]) if r == dst)
        state.armies[src][seat] -= 1
        state.armies[dst][seat] += 1
        step["left"] -= cost
        board = state.board
        return [
            {"type": "move", "seat": seat, "origin": board.labels[src], "dest": picked, "cost": cost},
            *self._advance(state),
        ]

    def _on_city(self, state: State, seat: int, picked: str) -> list[Event]:
        if picked == "skip":
            return self._finish_part(state)
        region = self._region(state, picked)
        state.cities[region][seat] += 1
        events: list[Event] = [{"type": "city", "seat": seat, "region": picked}]
        token = state.tokens.get(region)
        if token is not None and token != CITADEL:
            del state.tokens[region]
            state.explore[seat].append(token)
            events.append({"type": "explore", "seat": seat, "region": picked, "token": token})
            if token == "Hidden Treasure" and state.supply:
                self._gain(state, seat, 1)
                events.append({"type": "coins", "seat": seat, "gain": 1, "source": token, "from_token": True})
        return events + self._finish_part(state)

    def _on_destroy_region(self, state: State, seat: int, picked: str) -> list[Event]:
        if picked == "skip":
            return self._finish_part(state)
        step = state.step
        assert step is not None
        step["region"] = self._region(state, picked)
        return []

    def _on_destroy(self, state: State, seat: int, picked: str) -> list[Event]:
        if picked == "skip":
            return self._finish_part(state)
        step = state.step
        assert step is not None
        board = state.board
        target = next(
            (r, p)
            for r, p in self._destroy_targets(state, seat)
            if _target_choice(state.layout, r, p, state.players).id == picked
        )
        region, party = target
        state.armies[region][party] -= 1  # the army goes back to its owner's supply
        step["left"] -= 1
        step["region"] = None
        victim = None if party == state.players else party
        return [
            {"type": "destroy", "seat": seat, "region": board.labels[region], "victim": victim},
            *self._advance(state),
        ]

    def _end_turn(self, state: State) -> list[Event]:
        state.step = None
        state.row = [c for c in state.row if c is not None]
        if state.deck:
            state.row.append(state.deck.pop())
        target = TARGET_CARDS[state.players]
        if all(len(h) == target for h in state.hands):
            return self._end_game(state)
        state.seat = (state.seat + 1) % state.players
        return [{"type": "turn", "seat": state.seat}]

    def _end_game(self, state: State) -> list[Event]:
        breakdown = self.breakdown(state)
        state.finished.append(breakdown)
        events: list[Event] = [
            {"type": "game_end", "game": state.game_no, "scores": [row["total"] for row in breakdown]}
        ]
        if state.options["full_game"] and state.game_no < GAMES_IN_FULL:
            state.game_no += 1
            self._setup_game(state)
            events.append({"type": "new_game", "game": state.game_no, "start": state.board.labels[state.start]})
        else:
            state.phase = "over"
        return events

    def breakdown(self, state: State) -> list[dict[str, Any]]:
        """The score breakdown of the game on the board now (what it would score if it ended)."""
        return scoring.score(
            state.board,
            state.players,
            state.armies,
            state.cities,
            state.hands,
            state.coins,
            state.explore,
            state.citadels,
        )

    # --- outcome -----------------------------------------------------------------------------
    def outcome(self, state: State) -> dict[str, Any] | None:
        if state.phase != "over":
            return None
        n = state.players
        keys = ("total", "magic_book", "coins", "armies_on_board", "controlled_regions")
        summed = [{k: sum(game[s][k] for game in state.finished) for k in keys} for s in range(n)]
        ranks = [scoring.tie_key(row) for row in summed]
        best = max(ranks)
        winners = [s for s in range(n) if ranks[s] == best]
        ranking = [1 + sum(1 for other in ranks if other > ranks[s]) for s in range(n)]
        last = state.finished[-1]
        breakdown = []
        for s in range(n):
            row = dict(last[s])
            if len(state.finished) > 1:
                row["games"] = [game[s]["total"] for game in state.finished]
                row["sum"] = summed[s]
            breakdown.append(row)
        return {
            "scores": [row["total"] for row in summed],
            "winners": winners,
            "ranking": ranking,
            "breakdown": breakdown,
        }

    # --- views -------------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.build_view(self, state, seat)

    def views(self, state: State, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
        return views.build_views(self, state, seats)

    def describe(self, view: dict[str, Any]) -> str:
        return views.describe(view)

    # --- JSON --------------------------------------------------------------------------------
    def to_json(self, state: State) -> dict[str, Any]:
        return {
            "players": state.players,
            "options": dict(state.options),
            "rng": state.rng.to_json(),
            "layout": state.layout,
            "game_no": state.game_no,
            "finished": state.finished,
            "phase": state.phase,
            "deck": list(state.deck),
            "row": list(state.row),
            "hands": [list(h) for h in state.hands],
            "coins": list(state.coins),
            "supply": state.supply,
            "armies": [list(r) for r in state.armies],
            "cities": [list(r) for r in state.cities],
            "start": state.start,
            "tokens": [[r, t] for r, t in sorted(state.tokens.items())],
            "citadels": list(state.citadels),
            "explore": [list(e) for e in state.explore],
            "neutral_left": state.neutral_left,
            "seat": state.seat,
            "bids": list(state.bids),
            "revealed": state.revealed,
            "first": state.first,
            "step": _copy(state.step),
            "version": state.version,
        }

    def from_json(self, data: dict[str, Any]) -> State:
        return State(
            players=data["players"],
            options=dict(data["options"]),
            rng=Rng.from_json(data["rng"]),
            layout=data["layout"],
            game_no=data["game_no"],
            finished=_copy(data["finished"]),
            phase=data["phase"],
            deck=list(data["deck"]),
            row=list(data["row"]),
            hands=[list(h) for h in data["hands"]],
            coins=list(data["coins"]),
            supply=data["supply"],
            armies=[list(r) for r in data["armies"]],
            cities=[list(r) for r in data["cities"]],
            start=data["start"],
            tokens={int(r): str(t) for r, t in data["tokens"]},
            citadels=list(data["citadels"]),
            explore=[list(e) for e in data["explore"]],
            neutral_left=data["neutral_left"],
            seat=data["seat"],
            bids=list(data["bids"]),
            revealed=None if data["revealed"] is None else list(data["revealed"]),
            first=data["first"],
            step=_copy(data["step"]),
            version=data["version"],
        )


def _copy(value: Any) -> Any:
    """A deep copy of plain JSON data (dicts, lists, scalars), faster than copy.deepcopy."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value
