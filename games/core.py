"""The engine contract every game implements.

A game is one object (a subclass of `Game`) whose methods are pure functions over a state object that
the game defines. The table service, storage, the AI and the command-line tools only ever use the
names below, so a new game plugs in without changes elsewhere.

Contract notes shared by every game:
- all randomness comes from `Rng`, whose whole state (seed and number of draws) lives in the game
  state, so the same seed and the same decisions always give the same game;
- the prompts returned by one `prompts()` call are independent: answering one of them never changes
  what another seat may answer (several prompts at once only happen in simultaneous secret phases);
- the list `prompts()` returns is the caller's, but the prompts in it may be shared: a game may cache a
  prompt and hand the same object out again whenever the same decision comes up (in any game). They are
  read-only; cached ones keep their choices in a tuple, so an attempt to change those fails loudly;
- `apply()` validates completely before it mutates anything, so an `IllegalAction` leaves the state
  exactly as it was;
- events are JSON-serialisable dicts with a "type". An event with a "to" key is private to that seat;
  every other event is public.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Generic, Protocol, TypeVar

__all__ = [
    "MAX_CHOICE_ID",
    "Choice",
    "Game",
    "IllegalAction",
    "Option",
    "Player",
    "Prompt",
    "Rng",
    "check_choice",
]

NO_INFO: Mapping[str, Any] = MappingProxyType({})  # shared immutable default: no dict per prompt
MAX_CHOICE_ID = 20  # Discord custom_ids are at most 100 characters; ids leave room for game/seat/seq.

Event = dict[str, Any]
S = TypeVar("S")


class IllegalAction(Exception):
    """A decision the rules do not allow. The message is meant for the player who made it."""


# Not frozen: a frozen dataclass's __init__ costs twice as much, and games build hundreds of choices per
# game on the simulation hot path. Hashable and compared by value all the same; treat it as read-only.
@dataclass(slots=True, unsafe_hash=True, init=False)
class Choice:
    """One legal answer to a prompt: a short stable id, an English label, and what it is as data.

    `data` says what the choice is in machine-readable fields (a card and its number, a square, an egg
    type, an action and its parameters), with a shape each game documents per prompt kind in its own
    package. Renderers and the bot's texts read `data` (and the prompt's `kind` and `info`) and phrase
    it through the message catalogs; the English `label` is for the terminal and the logs only, so
    rewording it can never break a translation or a picture. `data` takes no part in equality or
    hashing: the id alone identifies a choice within its prompt."""

    id: str
    label: str
    data: Mapping[str, Any] = field(compare=False, hash=False)

    # Written out rather than generated: a dataclass default for `data` needs a factory call per choice
    # (a mapping is not a valid plain default), and choices are made on the simulation hot path.
    def __init__(self, id: str, label: str, data: Mapping[str, Any] = NO_INFO) -> None:
        if not id or len(id) > MAX_CHOICE_ID:
            raise ValueError(f"choice id {id!r} must have 1..{MAX_CHOICE_ID} characters")
        self.id = id
        self.label = label
        self.data = data


@dataclass(slots=True)
class Prompt:
    """A seat that must decide now.

    `pick` is how many distinct choices make one answer. `secret` marks a simultaneous hidden
    decision: others learn only that the seat has chosen until everybody has. `text` is a one-line
    question for people and `info` carries machine-readable context for renderers (never anything the
    seat may not know). A game may hand out the same Prompt object again (cached, see the module notes),
    so treat every prompt as read-only; it is not frozen only because that costs a lot on the simulation
    hot path.
    """

    seat: int
    kind: str
    choices: Sequence[Choice]
    pick: int = 1
    secret: bool = False
    text: str = ""
    info: Mapping[str, Any] = field(default_factory=lambda: NO_INFO)

    def choice_ids(self) -> list[str]:
        return [c.id for c in self.choices]


@dataclass(frozen=True, slots=True)
class Option:
    """A variant a lobby can switch: allowed values, the default, and one line saying what it does."""

    name: str
    values: tuple[Any, ...]
    default: Any
    description: str

    def parse(self, value: Any) -> Any:
        """The allowed value equal to `value`, accepting its text form ("true", "3")."""
        if value in self.values and type(value) is type(self.default):
            return value
        text = str(value).strip().lower()
        for allowed in self.values:
            if str(allowed).lower() == text:
                return allowed
        shown = ", ".join(str(v) for v in self.values)
        raise ValueError(f"option {self.name!r} cannot be {value!r}; choose one of: {shown}")


class Rng:
    """Deterministic randomness kept in the game state as two integers: the seed and the number of
    32-bit words drawn so far.

    It wraps one `random.Random(seed)` and draws only through `getrandbits`, counting the words, so
    restoring from JSON is `Random(seed)` plus one C-speed `getrandbits(32 * words)` that skips ahead
    exactly. No per-draw reseeding on the hot path, and no 625-word Mersenne Twister state in the JSON.
    """

    __slots__ = ("_random", "seed", "words")

    def __init__(self, seed: int, words: int = 0) -> None:
        self.seed = seed
        self.words = words
        self._random = random.Random(seed)
        if words:
            self._random.getrandbits(32 * words)

    def randrange(self, n: int) -> int:
        """A uniform integer in [0, n) by rejection sampling (no modulo bias)."""
        if n <= 0:
            raise ValueError("randrange needs n >= 1")
        bits = n.bit_length()
        per_draw = (bits - 1) // 32 + 1
        getrandbits = self._random.getrandbits
        r = getrandbits(bits)
        self.words += per_draw
        while r >= n:
            r = getrandbits(bits)
            self.words += per_draw
        return r

    def shuffle(self, items: list[Any]) -> None:
        """Fisher-Yates, in place, drawing one 32-bit word per swap.

        `j = word % (i + 1)` has a modulo bias below (i + 1) / 2**32, far under anything a game can
        notice. One `getrandbits(32)` call per swap gives the very words that one bulk draw of
        `32 * swaps` bits would (Mersenne Twister fills big draws 32 bits at a time, lowest first), and for
        decks of a few dozen cards it is about twice as fast as unpacking a bulk draw."""
        swaps = len(items) - 1
        if swaps <= 0:
            return
        getrandbits = self._random.getrandbits
        self.words += swaps
        for i in range(swaps, 0, -1):
            j = getrandbits(32) % (i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: Sequence[Any]) -> Any:
        return items[self.randrange(len(items))]

    def to_json(self) -> list[int]:
        return [self.seed, self.words]

    @classmethod
    def from_json(cls, data: Sequence[int]) -> Rng:
        return cls(int(data[0]), int(data[1]))


def check_choice(prompts: Sequence[Prompt], seat: int, choice: Sequence[str]) -> Prompt:
    """Validate a seat's answer against the current prompts; return the prompt it answers."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise IllegalAction("A seat is given by its number.")
    prompt = next((p for p in prompts if p.seat == seat), None)
    if prompt is None:
        if not prompts:
            raise IllegalAction("The game is over.")
        raise IllegalAction("It is not your turn to decide.")
    if isinstance(choice, str) or not isinstance(choice, Sequence):
        raise IllegalAction("A decision is a list of choice ids.")
    if len(choice) != prompt.pick:
        raise IllegalAction(f"Choose exactly {prompt.pick} option{'s' if prompt.pick > 1 else ''}.")
    if len(set(choice)) != len(choice):
        raise IllegalAction("Choose different options, not the same one twice.")
    allowed = prompt.choice_ids()
    for c in choice:
        if c not in allowed:
            raise IllegalAction(f"{c!r} is not one of the choices offered now.")
    return prompt


class Player(Protocol):
    """An AI seat: answers a prompt with a list of choice ids."""

    def choose(self, game: Game[Any], state: Any, prompt: Prompt) -> list[str]: ...


class Game(ABC, Generic[S]):
    """Base class of a game. Subclasses set the metadata and implement the abstract methods: a game that
    misses one cannot be instantiated, so it fails when its package registers it, not at its first click."""

    key: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 2
    options: tuple[Option, ...] = ()
    # The languages the game is told in at the table (codes of bot.texts.i18n.LANGUAGES), English first. A
    # game's words are its engine's English labels until a renderer of its own says them through the
    # message catalogs and they are translated there: only then does it list more. The bot tells players of
    # another language that the game speaks English only, and the per-game language tests follow this.
    languages: tuple[str, ...] = ("en",)

    def __init__(
        self,
        ai: Mapping[str, Callable[[int], Player]] | None = None,
        languages: Sequence[str] | None = None,
    ) -> None:
        """`ai`: the AI levels the game offers besides "random", weakest first, each with what makes its
        player from a seed. They become `ai_levels`, and `ai()` makes them (see the AI section below).
        `languages`: the languages its renderer is translated into (`languages` above), if not English only."""
        if ai:
            self._ai_makers = MappingProxyType(dict(ai))
            self.ai_levels = ("random", *self._ai_makers)
        if languages:
            self.languages = tuple(languages)

    # --- options -----------------------------------------------------------------------------
    def resolve_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults overlaid with the given options; unknown names or bad values raise ValueError."""
        known = {o.name: o for o in self.options}
        resolved = {o.name: o.default for o in self.options}
        for name, value in (options or {}).items():
            if name not in known:
                names = ", ".join(known) or "none"
                raise ValueError(f"unknown option {name!r} for {self.title}; known options: {names}")
            resolved[name] = known[name].parse(value)
        return resolved

    def check_players(self, players: int) -> None:
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"{self.title} is played by {self.min_players} to {self.max_players} players, not {players}"
            )

    # --- the contract ------------------------------------------------------------------------
    @abstractmethod
    def new(self, players: int, seed: int, options: dict[str, Any] | None = None) -> S:
        raise NotImplementedError

    @abstractmethod
    def prompts(self, state: S) -> list[Prompt]:
        raise NotImplementedError

    @abstractmethod
    def apply(self, state: S, seat: int, choice: list[str]) -> list[Event]:
        raise NotImplementedError

    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        raise NotImplementedError

    def views(self, state: S, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
        """`view(state, seat)` for each of `seats` (None: the public view), all of one moment.

        The table service asks for the public view and every human seat's view after each update; a
        game whose seat views share most of their content overrides this to build that part once. The
        views it returns may then share nested objects, with each other and with later calls: like
        prompts, views are read-only."""
        return {seat: self.view(state, seat) for seat in seats}

    @abstractmethod
    def outcome(self, state: S) -> dict[str, Any] | None:
        raise NotImplementedError

    @abstractmethod
    def to_json(self, state: S) -> dict[str, Any]:
        raise NotImplementedError

    def to_json_to_write(self, state: S) -> dict[str, Any]:
        """`to_json(state)` for a caller that writes it out at once and keeps nothing of it (the table's
        commit): it may share lists and dicts with the live state, so a game whose `to_json` copies a
        large state to be safe from later moves can skip the copy here."""
        return self.to_json(state)

    @abstractmethod
    def from_json(self, data: dict[str, Any]) -> S:
        raise NotImplementedError

    @abstractmethod
    def players(self, state: S) -> int:
        """Number of seats in this game."""
        raise NotImplementedError

    # --- AI ----------------------------------------------------------------------------------
    # The AI levels this game offers, from the weakest to the strongest. Every game has "random" (through
    # this base class). A game adds levels either by listing them here and returning them from `ai()`, or by
    # handing them to the constructor. The games under games/ do the latter, in their package's __init__:
    # their engines do not know the AIs that play them (an expert plays the engine in its rollouts, so the
    # engine importing it would be an import cycle); the package, above both, puts the game together.
    ai_levels: tuple[str, ...] = ("random",)
    _ai_makers: Mapping[str, Callable[[int], Player]] = MappingProxyType({})  # level -> seed -> player

    def ai(self, level: str, seed: int) -> Player:
        """An AI player of one of `ai_levels`, deterministic for `seed`."""
        if level == "random":
            # games.ai lies below this module (it imports the contract for type hints only). Imported here
            # rather than at the top because it may run compiled: `import games` loads no compiled module,
            # so that games.build.prefer_sources() can still run the .py files.
            from games.ai import RandomPlayer

            return RandomPlayer(seed)
        make = self._ai_makers.get(level)
        if make is not None:
            return make(seed)
        raise ValueError(f"unknown AI level {level!r}; known: {', '.join(self.ai_levels)}")

    # Option sets worth covering when the whole table is exercised (benchmarks, soak tests): the defaults
    # ({}) and a few variants that change how the game plays.
    sample_options: tuple[Mapping[str, Any], ...] = (MappingProxyType({}),)

    # --- what a finished game's results remember (for /stats) --------------------------------
    play_kinds: frozenset[str] = frozenset()
    """The prompt kinds whose decisions count as a seat's "plays" (its favourite plays in /stats)."""

    def play_names(self, prompt: Prompt, chosen: Sequence[Choice]) -> list[str]:
        """How a decision in one of `play_kinds` is named among a seat's plays; by default its labels."""
        return [c.label for c in chosen]

    def score_variant(self, options: dict[str, Any]) -> str | None:
        """The name of the scoring variant these options select when its scores cannot be compared with
        the standard game's (so /stats keeps their averages apart); None for the standard scoring."""
        return None

    # --- terminal ----------------------------------------------------------------------------
    def describe(self, view: dict[str, Any]) -> str:
        """A plain-text rendering of a view, for `python -m games play`. Games may override."""
        from games.text import format_view

        return format_view(view)
