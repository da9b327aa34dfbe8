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
    first = battle.rules.fire.fires_in_first_phase
    return 1.5 if first(enemy) and not first(stand) else 1.0


def fired(chosen: list[FireSetup]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The attackers and their weapons of the chosen shots, as an attack action names them."""
    return tuple(fs.attacker for fs in chosen), tuple(fs.weapon for fs in chosen)


def worth(S: bool, D: bool, E: bool, value: float) -> float:
    """The damage done to a stand of ``value`` by its markers."""
    if E:
        return value
    return value * (0.15 * S + 0.45 * D + (0.05 if S and D else 0.0))


def harm(chances: dict, value: float) -> float:
    """What an attack's results do to a stand of ``value``, in stands: ``chances`` of "S",
    "D" and "E" (the engine's odds of how the stand ends), weighed 0.15, 0.45 and 1."""
    return (chances["E"] + 0.45 * chances["D"] + 0.15 * chances["S"]) * value


# id(crt) -> (crt, {odds key: the engine's "final" odds}); holding the table keeps its id
# unique. The odds are a pure function of the CRT, the target's markers and, per legal shot in
# order, its cohesion and combat numbers (``combat.attack_odds``), so an entry never goes stale.
_ODDS: dict[int, tuple[object, dict[tuple, dict[str, float]]]] = {}
_ODDS_MAX = 200_000  # entries kept before starting afresh (memory stays bounded)


def final_odds(battle: Battle, setups: list[FireSetup], S: bool, D: bool) -> dict[str, float]:
    """The target's state after an attack (``combat.attack_odds(...)["final"]``: chances of
    "unchanged", "S", "D", "SD", "eliminated", 0..1) for a target with markers ``S``, ``D``.
    The engine's answer, kept per CRT and per what the odds depend on (each legal shot's
    cohesion modifiers, cohesion level, combat differential and combat modifiers, in order),
    so that the same attack is worked out once. Raises what ``combat.attack_odds`` raises
    (KeyError for a differential the CRT has no column for)."""
    key = (S, D) + tuple(
        (fs.cohesion_total_mod, fs.level, fs.differential, fs.combat_total_mod)
        for fs in setups
        if fs.legal
    )
    crt = battle.crt
    known = _ODDS.get(id(crt))
    if known is None or known[0] is not crt:
        known = _ODDS[id(crt)] = (crt, {})
    cache = known[1]
    final = cache.get(key)
    if final is None:
        if len(cache) >= _ODDS_MAX:
            cache.clear()
        final = cache[key] = combat.attack_odds(crt, setups, S, D)["final"]
    return final


def attack_value(battle: Battle, setups: list[FireSetup], target) -> float:
    """Expected damage (stands) of an attack, from the engine's exact odds
    (:func:`final_odds`). Raises what ``combat.attack_odds`` raises."""
    if not setups:
        return 0.0
    v = stand_value(target)
    base = worth(target.S, target.D, False, v)
    f = final_odds(battle, setups, target.S, target.D)
    return (
        f["unchanged"] * base
        + f["S"] * worth(True, False, False, v)
        + f["D"] * worth(False, True, False, v)
        + f["SD"] * worth(True, True, False, v)
        + f["eliminated"] * v
    ) - base
