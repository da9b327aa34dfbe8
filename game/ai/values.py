"""What things are worth to the scripted AI, in "stands": an option it weighs, an enemy
stand, the markers an attack may leave, an attack by the engine's exact odds.

Eliminating an enemy stand is worth about 1 (more for a GHQ or a hard hitter), a D about 0.45
of that, an S 0.15.
"""

from __future__ import annotations

from dataclasses import dataclass

from game import Action, Battle, FireSetup, combat


@dataclass(frozen=True)
class Option:
    """One thing the AI could do, its score (stands) and a label a player can read."""

    label: str
    score: float
    action: Action


def stand_value(st) -> float:
    """What an enemy stand is worth: 1, more for a hard hitter, an ATGM or the GHQ."""
    v = 1.0 + 0.3 * min(st.unit.firepower, 30) / 25
    if st.unit.atgm is not None and not st.depleted:
        v += 0.15
    if st.ghq:
        v += 0.4
    return v


def first_shot(battle: Battle, enemy, stand) -> float:
    """How much more an enemy's gun weighs when it fires before ours can answer: 1.5 when the
    engine says the enemy fires in the 1st fire phase and our stand does not (000 05.00)."""
    first = battle.rules.fires_in_first_phase
    return 1.5 if first(enemy) and not first(stand) else 1.0


def fired(chosen: list[FireSetup]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The attackers and their weapons of the chosen shots, as an attack action names them."""
    return tuple(fs.attacker for fs in chosen), tuple(fs.weapon for fs in chosen)


def worth(S: bool, D: bool, E: bool, value: float) -> float:
    """The damage done to a stand of ``value`` by its markers."""
    if E:
        return value
    return value * (0.15 * S + 0.45 * D + (0.05 if S and D else 0.0))


def attack_value(battle: Battle, setups: list[FireSetup], target) -> float:
    """Expected damage (stands) of an attack, from the engine's exact odds."""
    if not setups:
        return 0.0
    odds = combat.attack_odds(battle.crt, setups, target.S, target.D)
    v = stand_value(target)
    base = worth(target.S, target.D, False, v)
    f = odds["final"]
    return (
        f["unchanged"] * base
        + f["S"] * worth(True, False, False, v)
        + f["D"] * worth(False, True, False, v)
        + f["SD"] * worth(True, True, False, v)
        + f["eliminated"] * v
    ) - base
