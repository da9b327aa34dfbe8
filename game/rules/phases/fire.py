"""The fire phases (000 05.00 steps 2 and 3, 07.04; 001 5.0 step 3, 7.1): the sides attack
in turn until both pass. In a battle with automatic passes a side with no legal shot
is passed for, nobody is asked who acts first unless both sides have a shot, and a phase in
which neither side has one is skipped (``game.rules.turns.open_phase``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.rules import turns
from game.rules.actions import Action, Fire, Pass
from game.rules.context import IllegalAction
from game.rules.phases import Phase
from game.rules.procedures import combat

if TYPE_CHECKING:
    from game.rules.context import BattleContext

NO_SHOT_EITHER = "no stand of either side has a legal shot"
"""Why a fire phase is skipped, as its two automatic ``pass`` lines say."""
NO_SHOT = "no legal shot"
"""Why a side is passed for in a fire phase, as its automatic ``pass`` line says."""


def fire_actions(ctx: BattleContext, side: str) -> list[Action]:
    """The attacks ``side`` may make now, one target each: all its eligible attackers (the
    cannon where both weapons may fire), and each alone when there are several (000 07.04)."""
    acts: list[Action] = []
    for target, setups in combat.fire_options(ctx, side).items():
        chosen: dict[str, str] = {}
        for fs in setups:
            chosen.setdefault(fs.attacker, fs.weapon)  # the cannon where both may fire
        pairs = list(chosen.items())
        acts.append(Fire(side, target, tuple(a for a, _ in pairs), tuple(w for _, w in pairs)))
        if len(pairs) > 1:
            acts += [Fire(side, target, (a,), (w,)) for a, w in pairs]
    return acts


def has_shot(ctx: BattleContext, side: str) -> bool:
    """Whether one of ``side``'s stands has a legal shot now, at any enemy stand (000 07.04,
    05.00; 001 7.1): what a fire phase offers a side besides passing."""
    return bool(combat.fire_options(ctx, side, first_only=True))


def do_fire(ctx: BattleContext, a: Fire) -> None:
    """An attack in a fire phase: checked, resolved stand by stand, then the other side acts
    (000 07.02, 07.04; 001 7.1), passed for when it has no legal shot left."""
    st = ctx.state
    phase = ctx.phase
    if phase is None or phase.kind != "fire" or not st.first_chosen:
        raise IllegalAction("attacks are made in the fire phases")
    setups = combat.check_attack(ctx, a.side, a.target, a.attackers, a.weapons, "standard")
    combat.resolve_attack(ctx, setups, "standard", st.phase)
    st.passes = 0
    st.to_act = ctx.other(a.side)
    turns.settle(ctx)


def options(ctx: BattleContext, side: str, kind: str) -> list[Action]:
    """Pass, or an attack on one target: by all its eligible attackers, or by each alone."""
    return [Pass(side)] + fire_actions(ctx, side)


def phase(name: str, title: str) -> Phase:
    """A fire phase called ``name`` (Modern: ``fire1``, ``fire2``; WWII: ``fire``), ``title``
    in words."""
    return Phase(
        name,
        title,
        kind="fire",
        choose_first=True,
        decide=lambda ctx: "fire",
        options=options,
        handlers={Fire: do_fire},
        able=has_shot,
        unable_why=(NO_SHOT_EITHER, NO_SHOT),
    )
