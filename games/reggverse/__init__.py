"""Reggverse Riddles (Pandaqi, Easter Eggventures): change where eggs hide just before you look.

The package puts the game together: the engine (engine.py, the rules) and the AI levels that play it,
weakest first. They are wired here, above both, because the engine must not know its AIs: the expert
(expert.py) plays the engine in its rollouts, so the engine importing it would be an import cycle.
"""

from games.reggverse.ai import HeuristicPlayer
from games.reggverse.engine import ReggverseRiddles
from games.reggverse.expert import expert_player

GAME = ReggverseRiddles(ai={"heuristic": HeuristicPlayer, "expert": expert_player}, languages=("en", "it", "fr"))

__all__ = ["GAME", "ReggverseRiddles"]
