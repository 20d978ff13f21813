"""Eggs and Empires (Matthew Riddle, Benjamin Pinchback): simultaneous secret Adventurer play.

The package puts the game together: the engine (engine.py, the rules alone) and the AI levels that play
it, weakest first. They are wired here, above both, because the engine must not know its AIs: the expert
(expert.py) plays the engine in its rollouts, so the engine importing it would be an import cycle.
"""

from games.eggs_empires.ai import HeuristicPlayer
from games.eggs_empires.engine import EggsAndEmpires, EggsState
from games.eggs_empires.expert import expert_player

GAME = EggsAndEmpires(ai={"heuristic": HeuristicPlayer, "expert": expert_player}, languages=("en", "it", "fr"))

__all__ = ["GAME", "EggsAndEmpires", "EggsState"]
