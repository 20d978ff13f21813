"""Every sentence the tournament service itself says (its refusals), as English msgids for the catalogs.

Marked like table.messages (`N_`, and `NN_` for a singular/plural pair counted by `count`), so that
`python -m bot.texts.locales` collects them into the bot's catalogs; the transport says them in the reader's
language. The tournament service also raises some of table.messages' own (UNKNOWN_GAME, BAD_TIMER) and the
rules' refusals of a variant (`from_rules`).
"""

from __future__ import annotations

from table.messages import N_, NN_

NO_SUCH_TOURNAMENT = N_("That tournament does not exist (any more).")
UNKNOWN_FORMAT = N_("There is no tournament format called {format!r}. Formats: {known}.")
UNKNOWN_NO_SHOW = N_("There is no no-show rule called {rule!r}. Rules: {known}.")
UNKNOWN_DEADLINE_RULE = N_("There is no round-deadline rule called {rule!r}. Rules: {known}.")
BAD_OPTIONS = N_("Those tournament options cannot be read: numbers must be whole numbers.")
BAD_TABLE_SIZE = N_("{title} is played at tables of {low} to {high} players, not {n}.")
BAD_ADVANCE = N_(
    "At tables of {size}, the number of players who go on must divide the table and be smaller than it, not {n}."
)
BAD_ROUNDS = N_("The number of rounds must be a whole number from 1 to {high}.")
BAD_CAP = N_("The cap on entrants must be a whole number from {low} to {high}.")
BAD_DROP_AFTER = N_("A no-show is dropped after a number of missed rounds from 1 to {high}.")
BAD_ROUND_TIMER = N_("The round deadline must be a number of seconds from 0 (none) to {high}.")
NOT_IN_SIGNUP = N_("Sign-up for this tournament is closed.")
TOURNAMENT_FULL = NN_(
    "The tournament is full ({count} entrant).",
    "The tournament is full ({count} entrants).",
)
ALREADY_ENTERED = N_("You have already entered this tournament.")
NOT_ENTERED = N_("You have not entered this tournament.")
ENTRANT_NOT_ENTERED = N_("That player has not entered this tournament.")
NO_LONGER_PLAYING = N_("{name} is no longer playing in this tournament.")
NOT_RUNNING = N_("That tournament is not running.")
ALREADY_STARTED = N_("That tournament has already started.")
TOURNAMENT_OVER = N_("That tournament is over.")
HOST_OR_ADMIN = N_("Only the tournament's host or someone with Manage Server can do that.")
TOO_FEW_ENTRANTS = NN_(
    "A {format} tournament of {title} needs at least {count} entrant; it has {n}.",
    "A {format} tournament of {title} needs at least {count} entrants; it has {n}.",
)
TOO_MANY_TABLES = NN_(
    "The first round needs {n} tables, but this server allows {count} running game and has {running}: "
    "wait until some end.",
    "The first round needs {n} tables, but this server allows {count} running games and has {running}: "
    "wait until some end.",
)
CHANGED_MEANWHILE = N_("The tournament changed meanwhile: look at it again, then try again.")
