"""Eight-Minute Empire: Legends (key `eight-minute-empire`): area control on our own four boards."""

from games.eight_minute_empire.engine import EightMinuteEmpire, State

GAME = EightMinuteEmpire()

__all__ = ["GAME", "EightMinuteEmpire", "State"]
