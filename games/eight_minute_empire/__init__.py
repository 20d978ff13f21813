"""Eight-Minute Empire: Legends (key `eight-minute-empire`): area control on our own four boards.

The package puts the game together: the engine (engine.py, the rules) and the AI levels that play it,
weakest first. They are wired here, above both, because the engine must not know its AIs: the expert
(expert.py) plays the engine in its rollouts, so the engine importing it would be an import cycle.
"""

from games.eight_minute_empire.ai import HeuristicPlayer
from games.eight_minute_empire.engine import EightMinuteEmpire, State
from games.eight_minute_empire.expert import expert_player

GAME = EightMinuteEmpire(ai={"heuristic": HeuristicPlayer, "expert": expert_player}, languages=("en", "it", "fr"))

__all__ = ["GAME", "EightMinuteEmpire", "State"]
