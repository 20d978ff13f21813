"""The numbers the rules set: each seat's pieces, the coin supply and the starting coins, when a game
ends, the Full Game's length, the explore tokens and the Citadel.

Shared by the engine and the views (which the engine calls to build its views), so that neither has
to import the other for them.
"""

from __future__ import annotations

ARMIES, CITIES, COIN_SUPPLY = 18, 3, 44
START_COINS = {2: 14, 3: 11, 4: 9}
TARGET_CARDS = {2: 13, 3: 10, 4: 8}
NEUTRAL_ARMIES = 10
GAMES_IN_FULL = 3
# The rules list five explore tokens but there are six; the sixth is a second Hidden Treasure (ours).
EXPLORE_TOKENS = ("Magic Spring", "Cottage", "Hidden Treasure", "Magic Book", "Stable", "Hidden Treasure")
CITADEL = "Citadel"
