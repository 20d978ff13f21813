"""Every sentence the table shows, as English msgids marked for the catalogs (see bot.texts.i18n); the table
service's own refusals come from table.messages.

Use them through `bot.texts.i18n.t(lang, text.X, **params)` (plural pairs through `tn`). Renderers keep
their game's own sentences next to their code, marked the same way.
"""

from __future__ import annotations

from bot.texts.i18n import N_, NN_

# The table service's own refusals live beside it; they are part of what the bot says.
from table.messages import (  # noqa: F401
    AI_NAME,
    ALREADY_DECIDED,
    ALREADY_SEATED,
    BAD_SEAT,
    BAD_TIMER,
    CAP_SERVER_GAMES,
    CAP_SERVER_LOBBIES,
    CAP_USER_GAMES,
    CAP_USER_LOBBIES,
    GAME_OVER,
    HOST_ONLY,
    HOST_OR_ADMIN,
    JOIN_FIRST,
    LOBBY_FULL,
    NO_SUCH_GAME,
    NOT_A_LOBBY,
    NOT_FINISHED,
    NOT_PLAYING,
    NOT_SEATED,
    NOT_STARTED,
    NOT_YOUR_SEAT,
    NOTHING_TO_DECIDE,
    PLAYER_COUNT,
    RECORDED_CATCHING_UP,
    REFUSED_BY_RULES,
    REMATCH_NOT_PLAYER,
    STALE,
    TRY_AGAIN_SOON,
    UNKNOWN_AI,
    UNKNOWN_GAME,
)

# --- refusals (ephemeral) --------------------------------------------------------------------
NO_GAME_HERE = N_("There is no lobby or game in this channel.")
SEVERAL_GAMES_HERE = N_(
    "Several lobbies and games are open here: say which with the game option, or use the game's thread."
)
NEW_IN_THREAD = N_("Open new games in {channel}: each game gets a thread of its own there.")
MALFORMED = N_("That button is not valid.")
NOT_IN_GAME = N_("You are not playing in a game here.")
SOMETHING_WRONG = N_("Something went wrong; nothing was changed. Please try again.")
COMMAND_OUT_OF_DATE = N_("That command is out of date or its options are not valid; nothing was changed.")
BAD_VARIANT_SYNTAX = N_("Write variants as name=value, not {part!r}.")
MANAGE_SERVER_ONLY = N_("Only someone with Manage Server can change the server's settings.")
SERVER_ONLY = N_("This setting belongs to a server; use it in a server channel.")
LANGUAGE_SET = N_("Channel and thread messages on this server are now in {language}.")
LIMITS_NOW = N_(
    "Caps on this server: open lobbies per person {lobbies_per_user}, running games per person "
    "{games_per_user}, open lobbies {lobbies_per_server}, running games {games_per_server}."
)
LOBBY_EXPIRED = N_("This lobby closed: nobody started it within an hour.")
# /game settings notifications: the choices, and how the user is told it is their turn (bot.delivery.preferences)
NOTIFY_BY = {
    "dm": N_("A new direct message"),
    "mention": N_("A mention in the game's thread"),
    "off": N_("Nothing"),
}
NOTIFICATIONS = {
    "dm": N_("You are told it is your turn by a new direct message."),
    "mention": N_("You are told it is your turn by a mention in the game's thread."),
    "off": N_("You are not told it is your turn; your direct message still shows your prompt."),
}

# --- lobby -----------------------------------------------------------------------------------
LOBBY_TITLE = N_("{title}: lobby")
LOBBY_SEATS = N_("Seats ({n}/{high})")
LOBBY_OPTIONS = N_("Variants")
LOBBY_TIMER = N_("Turn timer")
TIMER_OFF = N_("off")
TIMER_SECONDS = N_("{seconds} s per decision")
TIMER_MINUTES = N_("{minutes} min per decision")
TIMER_HOURS = N_("{hours} h per decision")
LOBBY_HOST = N_("Host: {name}. Players: {low}-{high}.")
# Said in the lobby and /game rules to readers of a language the game does not declare (games.core.Game.languages).
ENGLISH_ONLY = N_("{title} is played in English only: its questions and choices are not translated yet.")
LOBBY_CLOSED = N_("This lobby was closed.")
BUTTON_JOIN = N_("Join")
BUTTON_LEAVE = N_("Leave")
BUTTON_ADD_AI = N_("Add AI")
ADD_AI_PLACEHOLDER = N_("Add an AI of the level you pick")
# What the AI levels are called (the engines' names are for code): "easy" is the heuristic.
AI_LEVEL_NAMES = {"random": N_("random"), "heuristic": N_("easy"), "expert": N_("expert")}
AI_LEVEL_HINTS = {
    "random": N_("plays any legal move"),
    "heuristic": N_("plays the best move of the moment"),
    "expert": N_("looks several turns ahead, a little slower"),
}
# The levels a lobby offers to add, weakest first (those the game has).
PICKABLE_AI_LEVELS = ("heuristic", "expert")


def told_in(lang: str, title: str, languages: tuple[str, ...]) -> str | None:
    """What a reader of `lang` is told about a game told only in `languages`: that it is English only
    (None when the game is told in `lang`)."""
    from bot.texts.i18n import t

    return None if lang in languages else t(lang, ENGLISH_ONLY, title=title)


def ai_level_name(lang: str, level: str) -> str:
    """An AI level as players read it ("easy", "expert"); a level without a name here, as it is."""
    from bot.texts.i18n import t

    message = AI_LEVEL_NAMES.get(level)
    return t(lang, message) if message else level


BUTTON_START = N_("Start")
BUTTON_CANCEL = N_("Cancel")
OPTION_PLACEHOLDER = N_("Variant: {name} (host only)")
VARIANT_CHOICE = N_("{name}: {value}")
BUTTON_VARIANTS = N_("Variants")
VARIANTS_TITLE = N_("{title}: variants (the host sets them)")
JOINED = N_("You joined the lobby.")
LEFT = N_("You left the lobby.")
AI_ADDED = N_("An AI joined the lobby.")
KICKED = N_("{name} was removed from the lobby.")
OPTION_SET = N_("{name} is now {value}.")
CANCELLED = N_("The lobby was cancelled.")
ABANDONED = N_("The game was abandoned.")
STARTED = N_("The game started: {where}.")
NEW_LOBBY = N_("Lobby opened.")

# --- table -----------------------------------------------------------------------------------
THREAD_NAME = N_("{title} #{game_id}")
WAITING_FOR = N_("Waiting for: {names}")
# The description of a picture (its alt text, bot.messages.alt_text), after what is awaited.
ALT_SCORES = N_("Scores: {scores}.")
# {when} is a Discord relative time ("in 2 minutes"): the sentence reads on with it, no preposition.
DECIDE_BY = N_("Decide {when}")
RECENTLY = N_("Recently")  # the table's last few log lines (the log is folded into the table)
DM_CLOSED = N_("{mention}, I cannot send you direct messages. Use the button to see your hand and decide.")
BUTTON_SHOW_HAND = N_("Show my hand")
YOUR_TURN = N_("{mention}, it is your turn.")
YOUR_TURN_LINK = N_("{mention}, it is your turn: {link}")
BUTTON_BACK = N_("I'm back")
BUTTON_TABLE = N_("Table")
YOU_CHOSE = N_("You chose: {labels}.")
REMINDER = N_("{mentions}: please decide, the AI will decide for you {when}.")
IDLE_REMINDER = N_("{mentions}: the game is waiting for you (last move {when}). Your choices are in your DMs.")
IDLE_HOST_MAY_END = N_("If nobody is coming back, the host can end the game.")
BUTTON_END_GAME = N_("End the game")
# {names} may be one name or several: the sentence needs no verb that agrees with them.
AFK_LOG = N_("Time ran out for {names}: the AI decided.")
AI_CONTROLLED = N_('Your seat is played by the AI because you missed two turns. Click "I\'m back" to play again.')
WELCOME_BACK = N_("Welcome back: your seat is yours again.")
ABANDONED_AFK = N_("Every player is away: the game was abandoned.")
GAME_FINISHED = N_("Game over.")
RESULT_TITLE = N_("{title} #{game_id}: results")
RESULT_CONTENT = NN_("Game over! {names} wins. {mentions}", "Game over! {names} win. {mentions}")
RESULT_PLACE = N_("**{rank}.** {who}: **{score}**")
RESULT_CATEGORY = N_("{name} {points}")
RESULT_RATING = N_("Rating {change}")
RESULT_TIES = N_("Ties")
RESULT_TIE_BROKEN = N_("{names} tied on {score}: {rule}")
RESULT_TIE_SHARED = N_("{names} tied on {score} and share the place.")
RESULT_SHORT = N_("{rank}. {name} {score}")
LOBBY_FINISHED = N_("{title}: the game is over. {ranking}. Results in {where}.")
DM_FINISHED = N_("Game over: place {rank} of {players}, score {score}. The results are in {where}.")
BUTTON_REMATCH = N_("Rematch")
BUTTON_REPLAY = N_("Replay")
REPLAY_TITLE = N_("{title} #{game_id}: replay")
REPLAY_PAGE = N_("Turn {page} of {pages}")
REPLAY_EMPTY = N_("Nothing happened in this game.")
BUTTON_ANIMATION = N_("Animated replay")
ANIMATION_READY = N_("{title} #{game_id}, turn by turn ({size}).")
ANIMATION_LAST = N_("The end")
SIZE_MB = N_("{size} MB")
ANIMATION_BUSY = N_("Several animations are being drawn right now: ask again in a minute.")
# TRANSLATORS: the description a screen reader announces for the animated replay.
ANIMATION_ALT = N_("Animated replay of {title} #{game_id}: the table after each of its {turns} turns. {result}")
REMATCH_OPEN = N_("A rematch lobby is open in {where}: everyone from this table can join it with one click.")
REMATCH_JOINED = N_("You joined the rematch in {where}.")
REPLAY_NOT_VISIBLE = N_("There is no finished game #{game_id} that you can see.")
RESULT_LINE = N_("{rank}. {name}: {score}")
NO_DECISION = N_("Nothing to decide right now: waiting for the other players.")
YOUR_VIEW = N_("Your view, {name}")
TABLE = N_("{title} (game #{game_id})")
CHOOSE_PLACEHOLDER = NN_("Choose {count}", "Choose {count}")
SEAT_DECIDED = N_("decided")
SEAT_THINKING = N_("deciding")
RULES_NOT_FOUND = N_("No rule text is available for {title}.")
STATUS_NONE = N_("You are not in any lobby or game.")
STATUS_LINE = N_("#{game_id} {title}: {status} in <#{channel}>")
STATUS_NAMES = {
    "lobby": N_("lobby"),
    "active": N_("playing"),
    "finished": N_("finished"),
    "abandoned": N_("abandoned"),
    "broken": N_("broken"),
}

# --- rules -----------------------------------------------------------------------------------
RULES_PAGE = N_("Page {page} of {pages}")
RULES_PLAYERS = N_("{low} to {high} players")
RULES_VARIANTS = N_("Variants the lobby can switch on")
RULES_NO_VARIANTS = N_("This game has no variants.")
RULES_VARIANT_LINE = N_("**{name}** ({values}; default {default}): {description}")
BUTTON_PREVIOUS = N_("Previous")
BUTTON_NEXT = N_("Next")
