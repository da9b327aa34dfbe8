"""The combat results table's arithmetic (000 04.00, 07.04-07.06; 002 CRT notes): whether a
cohesion roll passes and how likely it is, what a cell does to a stand's markers, and the exact
odds of an attack before rolling. Pure functions of the tables and the numbers; the fire
procedure (:mod:`game.rules.procedures.combat`) and every odds query use them."""

from __future__ import annotations

from itertools import product

from game.rules.charts.data import Crt


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


def read_cell(cell: str, dash_s: str) -> str:
    """A CRT cell as it acts for one firer: ``-S-`` reads as ``dash_s`` ("S", or "-" for a
    TL1 or TL2 attacker: 002 CRT notes); every other cell as printed."""
    return dash_s if cell == "-S-" else cell


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


def attack_odds(crt: Crt, setups: list, S: bool, D: bool) -> dict:
    """Exact odds of an attack before rolling: each legal shot in order (``setups``: the
    :class:`~game.rules.procedures.combat.FireSetup` of each shot), then the target.

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
        if "-S-" in cells:  # the full game's cells, read for this firer (002 CRT notes)
            read: dict[str, float] = {}
            for cell, pc in cells.items():
                read[read_cell(cell, fs.dash_s)] = read.get(read_cell(cell, fs.dash_s), 0.0) + pc
            cells = read
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
