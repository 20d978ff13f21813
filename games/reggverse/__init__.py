"""Reggverse Riddles (Pandaqi, Easter Eggventures): change where eggs hide just before you look."""

from games.reggverse.engine import ReggverseRiddles

GAME = ReggverseRiddles()

__all__ = ["GAME", "ReggverseRiddles"]
