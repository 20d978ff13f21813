"""Every sentence the table shows, as English msgids marked for the catalogs (see bot.i18n).

Use them through `bot.i18n.t(lang, text.X, **params)` (plural pairs through `tn`). Renderers keep
their game's own sentences next to their code, marked the same way.
"""

from __future__ import annotations

from bot.i18n import N_, NN_

# --- refusals (ephemeral) --------------------------------------------------------------------
UNKNOWN_GAME = N_("There is no game called {key!r}. Games: {known}.")
CHANNEL_BUSY = N_("This channel already has a lobby or a running game. Finish it first or use another channel.")
NO_SUCH_GAME = N_("That game does not exist (any more).")
NO_GAME_HERE = N_("There is no lobby or game in this channel.")
NOT_A_LOBBY = N_("That lobby is closed: the game has started or was cancelled.")
ALREADY_SEATED = N_("You already have a seat at this table.")
LOBBY_FULL = NN_("The lobby is full ({count} seat).", "The lobby is full ({count} seats).")
JOIN_FIRST = N_("Join the lobby first.")
UNKNOWN_AI = N_("Unknown AI level. Levels: {levels}.")
NOT_SEATED = N_("You are not in this lobby.")
HOST_ONLY = N_("Only the host can do that.")
HOST_OR_ADMIN = N_("Only the host or someone with Manage Server can abandon the game.")
BAD_SEAT = N_("There is no such seat to kick.")
PLAYER_COUNT = N_("{title} needs {low} to {high} players; the lobby has {n}.")
GAME_OVER = N_("That game is over.")
NOT_STARTED = N_("That game has not started yet.")
NOT_YOUR_SEAT = N_("That is not your seat: these buttons belong to another player.")
ALREADY_DECIDED = N_("That was already decided.")
STALE = N_("That choice is no longer available: use the newest message.")
NOTHING_TO_DECIDE = N_("You have nothing to decide right now.")
MALFORMED = N_("That button is not valid.")
BAD_TIMER = N_("The turn timer must be a number of seconds from 0 (off) to {high}.")
NOT_IN_GAME = N_("You are not playing in a game here.")
SOMETHING_WRONG = N_("Something went wrong; nothing was changed. Please try again.")
COMMAND_OUT_OF_DATE = N_("That command is out of date or its options are not valid; nothing was changed.")
TRY_AGAIN_SOON = N_("The game's records cannot be reached right now; nothing was changed. Try again in a moment.")
RECORDED_CATCHING_UP = N_("Done, it is recorded. The table will catch up as soon as its records can be reached again.")
BAD_VARIANT_SYNTAX = N_("Write variants as name=value, not {part!r}.")
REFUSED_BY_RULES = N_("The rules do not allow that: {reason}")
MANAGE_SERVER_ONLY = N_("Only someone with Manage Server can change the server's settings.")
SERVER_ONLY = N_("This setting belongs to a server; use it in a server channel.")
LANGUAGE_SET = N_("Channel and thread messages on this server are now in {language}.")

# --- lobby -----------------------------------------------------------------------------------
LOBBY_TITLE = N_("{title}: lobby")
LOBBY_SEATS = N_("Seats ({n}/{high})")
LOBBY_OPTIONS = N_("Variants")
LOBBY_TIMER = N_("Turn timer")
TIMER_OFF = N_("off")
TIMER_SECONDS = N_("{minutes} min {seconds} s per decision")
LOBBY_HOST = N_("Host: {name}. Players: {low}-{high}.")
LOBBY_CLOSED = N_("This lobby was closed.")
AI_NAME = N_("AI {n} ({level})")
BUTTON_JOIN = N_("Join")
BUTTON_LEAVE = N_("Leave")
BUTTON_ADD_AI = N_("Add AI")
BUTTON_START = N_("Start")
BUTTON_CANCEL = N_("Cancel")
OPTION_PLACEHOLDER = N_("Variant: {name} (host only)")
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
DECIDE_BY = N_("Decide by {when}")
DM_CLOSED = N_("{mention}, I cannot send you direct messages. Use the button to see your hand and decide.")
BUTTON_SHOW_HAND = N_("Show my hand")
BUTTON_BACK = N_("I'm back")
YOU_CHOSE = N_("You chose: {labels}.")
REMINDER = N_("{mentions}: please decide, the AI will decide for you {when}.")
AFK_LOG = N_("{names} did not decide in time; the AI decided for them.")
AI_CONTROLLED = N_('Your seat is played by the AI because you missed two turns. Click "I\'m back" to play again.')
WELCOME_BACK = N_("Welcome back: your seat is yours again.")
ABANDONED_AFK = N_("Every player is away: the game was abandoned.")
GAME_FINISHED = N_("Game over.")
RESULT_LINE = N_("{rank}. {name}: {score}")
NO_DECISION = N_("Nothing to decide right now: waiting for the other players.")
YOUR_VIEW = N_("Your view ({name}, seat {seat})")
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
