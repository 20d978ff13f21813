"""Every sentence the table service itself says (its refusals), as English msgids for the catalogs.

The table service knows no language: it raises `TableError`s carrying one of these msgids and its
parameters, and the transport says them in the reader's language (bot.texts.i18n). The markers below only
return their argument; `make locales` collects every string marked with them (`N_`, and `NN_` for a
singular/plural pair counted by the parameter `count`) from bot/ and table/ into the catalogs.
"""

from __future__ import annotations


def N_(message: str) -> str:
    return message


def NN_(singular: str, plural: str) -> tuple[str, str]:
    return singular, plural


UNKNOWN_GAME = N_("There is no game called {key!r}. Games: {known}.")
CAP_USER_LOBBIES = NN_(
    "You already have {count} open lobby, the most this server allows: start it or cancel it first.",
    "You already have {count} open lobbies, the most this server allows: start or cancel one of them first.",
)
CAP_USER_GAMES = NN_(
    "You are already playing {count} game, the most this server allows: finish it or abandon it first.",
    "You are already playing {count} games, the most this server allows: finish or abandon one of them first.",
)
CAP_SERVER_LOBBIES = NN_(
    "This server already has {count} open lobby, the most its admins allow: join it, or wait until it starts.",
    "This server already has {count} open lobbies, the most its admins allow: join one, or wait until one starts.",
)
CAP_SERVER_GAMES = NN_(
    "This server already has {count} running game, the most its admins allow: wait until it ends.",
    "This server already has {count} running games, the most its admins allow: wait until one of them ends.",
)
NO_SUCH_GAME = N_("That game does not exist (any more).")
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
NOT_FINISHED = N_("That game is not finished yet.")
REMATCH_NOT_PLAYER = N_("Only the players of this game can ask for a rematch.")
NOT_STARTED = N_("That game has not started yet.")
NOT_YOUR_SEAT = N_("That is not your seat: these buttons belong to another player.")
NOT_PLAYING = N_("You are not playing in this game, so you have no hand to show.")
ALREADY_DECIDED = N_("That was already decided.")
STALE = N_("That choice is no longer available: use the newest message.")
NOTHING_TO_DECIDE = N_("You have nothing to decide right now.")
BAD_TIMER = N_("The turn timer must be a number of seconds from 0 (off) to {high}.")
TRY_AGAIN_SOON = N_("The game's records cannot be reached right now; nothing was changed. Try again in a moment.")
RECORDED_CATCHING_UP = N_("Done, it is recorded. The table will catch up as soon as its records can be reached again.")
REFUSED_BY_RULES = N_("The rules do not allow that: {reason}")
AI_NAME = N_("AI {n} ({level})")
LEFT_TOURNAMENT = N_("You left this tournament: the AI plays your seat to the end of this game.")
