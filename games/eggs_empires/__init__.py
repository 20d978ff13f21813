"""Eggs and Empires (Matthew Riddle, Benjamin Pinchback): simultaneous secret Adventurer play."""

from games.eggs_empires.engine import EggsAndEmpires, EggsState

GAME = EggsAndEmpires()

__all__ = ["GAME", "EggsAndEmpires", "EggsState"]
