"""`UNCHANGED`: the value of an optional column argument that leaves the column as it is (None sets NULL)."""

from __future__ import annotations

from enum import Enum
from typing import Final


class Unchanged(Enum):
    """The type of `UNCHANGED` (an enum of one member, so type checkers narrow `x is UNCHANGED`)."""

    UNCHANGED = "unchanged"


UNCHANGED: Final = Unchanged.UNCHANGED
