"""The full games' cards where 002 (the full Modern game) and 004 (Wehrmacht '47) differ:
close assault and overrun (:class:`AssaultCard`) and fire support, that is artillery, smoke
and air strikes (:class:`SupportCard`). Each is a frozen record of the differences, read by
the procedures in ``game.rules.procedures``; nothing here imports them, so they may import
this module.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class AssaultCard:
    """Whose overrun and close-assault procedure a full game follows (002/004 8.6, 8.7).

    card : "002" or "004", as log lines cite it.
    armour_by_aspect : armour's defence halved (rounded up) on the flank and rear only (002);
    else halved whatever the aspect (004 notes).
    cavalry_doubled : cavalry's firepower doubled except against armour (004); else cavalry
    rolls at -3 against a defender that is not armoured (002).
    zero_range_band : every roll is at the range chart's 0" band of the roller's tech level
    (004 notes); else the assaulter rolls -1 for closing (002).
    loaded_ifv_bonus : an overrunning carrier with riders aboard adds +2 (002).
    defender_retreat : a disorganized defender that survives retreats 1" (004)."""

    card: str
    armour_by_aspect: bool
    cavalry_doubled: bool
    zero_range_band: bool
    loaded_ifv_bonus: bool
    defender_retreat: bool

    def cite(self, rule: str) -> str:
        """``rule`` (e.g. "8.7") prefixed with this card's number."""
        return f"{self.card} {rule}"


MODERN_ASSAULT = AssaultCard(
    card="002",
    armour_by_aspect=True,
    cavalry_doubled=False,
    zero_range_band=False,
    loaded_ifv_bonus=True,
    defender_retreat=False,
)
"""The full Modern game's close assault and overrun (002 8.6, 8.7)."""

WWII47_ASSAULT = AssaultCard(
    card="004",
    armour_by_aspect=False,
    cavalry_doubled=True,
    zero_range_band=True,
    loaded_ifv_bonus=False,
    defender_retreat=True,
)
"""Wehrmacht '47's close assault and overrun (004 notes)."""


@dataclass(frozen=True)
class SupportCard:
    """Whose artillery, smoke and air-strike procedures a full game follows.

    card : "002" or "004". deviation_die : the sides of the die an air strike's distance of
    deviation is rolled on, in inches (002: 1D10; 004: 1D8).
    flak_spoils_arrival : enemy AA in the firing posture within range of the point of attack
    adds to the arrival roll (004); else AA fires at the aircraft on its legs in and out (002).
    air_armour_divisor : an armoured target's defence against an air strike is divided by
    this, rounded up (002: 25%; 004: 50%). air_marker_personnel_divisor : the same for
    personnel carrying a movement marker (002: 25%; 004: no change, 1).
    indirect_marker_personnel_halved : personnel carrying a movement marker have their
    defence halved against indirect fire, as armour always is (002 indirect step 7; 004
    halves armour only)."""

    card: str
    deviation_die: int
    flak_spoils_arrival: bool
    air_armour_divisor: int
    air_marker_personnel_divisor: int
    indirect_marker_personnel_halved: bool

    def cite(self, modern: str, wwii: str) -> str:
        """The rule a log line cites: ``"002 <modern>"`` for the 002 card, else
        ``"004 <wwii>"``."""
        return f"002 {modern}" if self.card == "002" else f"004 {wwii}"

    def air_defense(self, defense: int, personnel: bool, movement_marker: bool) -> int:
        """A target's defence against an air strike from its base ``defense`` (002 air strike
        step 11; 004 air strikes): armour divided by :attr:`air_armour_divisor`, personnel
        carrying a movement marker by :attr:`air_marker_personnel_divisor`, rounded up."""
        if not personnel:
            return math.ceil(defense / self.air_armour_divisor)
        if movement_marker:
            return math.ceil(defense / self.air_marker_personnel_divisor)
        return defense


MODERN_SUPPORT = SupportCard(
    card="002",
    deviation_die=10,
    flak_spoils_arrival=False,
    air_armour_divisor=4,
    air_marker_personnel_divisor=4,
    indirect_marker_personnel_halved=True,
)
"""The full Modern game's artillery, smoke and air strikes (002)."""

WWII47_SUPPORT = SupportCard(
    card="004",
    deviation_die=8,
    flak_spoils_arrival=True,
    air_armour_divisor=2,
    air_marker_personnel_divisor=1,
    indirect_marker_personnel_halved=False,
)
"""Wehrmacht '47's artillery, smoke and optional air strikes (004)."""
