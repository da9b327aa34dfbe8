"""The fire procedure (000 07.04; 001 fire procedure chart): who may fire at whom, every
modifier, the combat differential, the CRT and its result, and the exact odds before rolling.

:func:`fire_setup` is the one place that works out an attacker's shot; the engine's fire check,
its odds, the window's fire panel and the AI all read it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import product

from game.rules.data import Crt

Mod = tuple[str, int]  # (why, value): a modifier as the battle log writes it

SUPPRESSED_MOD = 4  # 000 07.06.01
DISORGANIZED_MOD = 3  # 000 07.06.03
COMBAT_MOD_CAP = 7  # 000 CRT: combined combat-result modifiers never exceed +7
ATGM_COHESION = {3: 2, 4: 1}  # 000 07.03.01: TL3 missile +2, TL4 +1
HILLTOP_MOD = 2  # 002 chart: hilltop +2 when fired on from below
WRECK_MOD = 1  # 002 chart: wreck +1


def marker_mods(S: bool, D: bool) -> list[Mod]:
    """Cohesion modifiers from a stand's own combat results: S +4, D +3, together never more
    than +7 (000 07.06.01, 07.06.03, CRT notes)."""
    mods: list[Mod] = []
    if S:
        mods.append(("suppressed", SUPPRESSED_MOD))
    if D:
        mods.append(("disorganized", DISORGANIZED_MOD))
    over = sum(v for _, v in mods) - COMBAT_MOD_CAP
    if over > 0:  # cannot happen with the intro's +4/+3, kept for later rulesets
        mods[-1] = (mods[-1][0], mods[-1][1] - over)
    return mods


def cohesion_passes(roll: int, total: int, level: int) -> bool:
    """A cohesion roll succeeds when the modified D20 is at most the cohesion level; a natural
    1 always succeeds and a natural 20 always fails (000 04.00; 002/004 cards)."""
    if roll == 1:
        return True
    if roll == 20:
        return False
    return total <= level


def p_cohesion(mods_total: int, level: int) -> float:
    """Probability that a cohesion roll with these modifiers succeeds."""
    return sum(cohesion_passes(r, r + mods_total, level) for r in range(1, 21)) / 20


def halved_up(value: int) -> int:
    """Half a defence value, rounded up (000 07.08.01: 50% retained, rounded up)."""
    return math.ceil(value / 2)


@dataclass(frozen=True)
class FireSetup:
    """Everything about one stand's shot before the dice.

    ``legal`` False gives ``reason``. Ranges in inches; modifiers as (why, value) pairs;
    ``level`` is the firing side's cohesion level.
    """

    attacker: str
    target: str
    weapon: str
    legal: bool
    reason: str | None
    range_in: float = 0.0
    range_band_in: int = 0
    aspect: str = "front"
    cohesion_mods: tuple[Mod, ...] = ()
    level: int = 0
    firepower: int = 0
    defense_base: int = 0
    defense: int = 0
    differential: int = 0
    combat_mods: tuple[Mod, ...] = ()

    @property
    def cohesion_total_mod(self) -> int:
        """Sum of the cohesion modifiers."""
        return sum(v for _, v in self.cohesion_mods)

    @property
    def combat_total_mod(self) -> int:
        """Sum of the combat-roll modifiers."""
        return sum(v for _, v in self.combat_mods)


def illegal(attacker: str, target: str, weapon: str, reason: str) -> FireSetup:
    """A shot that may not be taken, and why."""
    return FireSetup(attacker, target, weapon, False, reason)


def crt_result(cell: str, S: bool, D: bool) -> tuple[str, bool, bool, bool]:
    """Apply a CRT cell to a stand with markers S and D (000 07.05-07.06).

    Returns (result, S, D, eliminated): result is "none", "S", "D" or "E" - what the cell did
    to this stand. S adds S; (S) becomes D on a stand already suppressed, else S; D on a
    disorganized stand eliminates it; E eliminates.
    """
    if cell == "-":
        return "none", S, D, False
    if cell == "(S)":
        cell = "D" if S else "S"
    if cell == "S":
        return "S", True, D, False
    if cell == "D":
        if D:
            return "E", S, D, True
        return "D", S, True, False
    return "E", S, D, True


# id(crt) -> (crt, {(differential, mod): cells}); holding the table keeps its id unique
_CELLS: dict[int, tuple[Crt, dict[tuple[int, int], dict[str, float]]]] = {}


def cell_probabilities(crt: Crt, differential: int, combat_mod: int) -> dict[str, float]:
    """Probability of each CRT cell for a 2D6 roll with ``combat_mod`` added, the total clamped
    to 0..19 (000 07.04 steps E-G). Kept once worked out."""
    cache = _CELLS.setdefault(id(crt), (crt, {}))[1]
    out = cache.get((differential, combat_mod))
    if out is None:
        out = {}
        for a, b in product(range(1, 7), repeat=2):
            cell = crt.lookup(differential, a + b + combat_mod)
            out[cell] = out.get(cell, 0.0) + 1 / 36
        cache[(differential, combat_mod)] = out
    return out


def attack_odds(crt: Crt, setups: list[FireSetup], S: bool, D: bool) -> dict:
    """Exact odds of an attack before rolling: each legal shot in order, then the target.

    Returns {"shots": [{"attacker", "weapon", "p_fire", "none", "S", "D", "E"}], "final":
    {"unchanged", "S", "D", "SD", "eliminated"}, "p_eliminated"}. Per shot, "none/S/D/E" are
    the chances of what that shot does to the target in the state the earlier shots left it in
    (a shot whose cohesion fails does nothing); "final" is the target's state after the whole
    attack. Shots after the target is eliminated are not taken.
    """
    dist = {(S, D, False): 1.0}
    shots = []
    for fs in setups:
        if not fs.legal:
            continue
        p_fire = p_cohesion(fs.cohesion_total_mod, fs.level)
        cells = cell_probabilities(crt, fs.differential, fs.combat_total_mod)
        shot = {
            "attacker": fs.attacker,
            "weapon": fs.weapon,
            "p_fire": p_fire,
            "none": 0.0,
            "S": 0.0,
            "D": 0.0,
            "E": 0.0,
        }
        new: dict[tuple[bool, bool, bool], float] = {}
        for (s, d, e), p in dist.items():
            if e:
                new[(s, d, e)] = new.get((s, d, e), 0.0) + p
                continue
            miss = p * (1 - p_fire)
            new[(s, d, e)] = new.get((s, d, e), 0.0) + miss
            shot["none"] += miss
            for cell, pc in cells.items():
                result, s2, d2, e2 = crt_result(cell, s, d)
                q = p * p_fire * pc
                shot[result] += q
                new[(s2, d2, e2)] = new.get((s2, d2, e2), 0.0) + q
        dist = new
        shots.append(shot)
    final = {"unchanged": 0.0, "S": 0.0, "D": 0.0, "SD": 0.0, "eliminated": 0.0}
    for (s, d, e), p in dist.items():
        if e:
            final["eliminated"] += p
        elif (s, d) == (S, D):
            final["unchanged"] += p
        else:
            final["SD" if s and d else "S" if s else "D"] += p
    return {"shots": shots, "final": final, "p_eliminated": final["eliminated"]}
