"""What the battle waits for: one typed answer, from which the screens pick their input mode
and the AI its chooser, each in one place.

Kinds of decision:

==================  ===========================================================================
``setup``           before turn 1: change battle groups, then Ready (000 08.01.01)
``choose_first``    the side with the initiative says who acts first in this phase
``posture``         WWII: declare a movement group, or pass (001 5.0 step 2)
``fire``            attack one target, or pass (000 07.04; 001 7.1)
``move_attempt``    try to move a battle group (an order, or independently), or pass (000 08.02)
``plot_move``       move the stands of the group whose attempt succeeded, or end (000 08.03)
``opportunity_fire`` fire at a point of the enemy's committed move, or let it pass (000 07.06.05)
``covering_fire``   WWII: answer the enemy's opportunity fire, or decline (001 7.5)
``close_assault``   full games: close-assault an enemy stand in base contact, or end (002 8.7)
``assault_reply``   full games: the close-assaulted stand picks the assaulter it attacks
``artillery``       full games: fire direct artillery, or pass (002/004 direct artillery)
``plot``            full games: plot an indirect fire mission or an air strike, or pass
                    (002 7.11, 7.13)
``reveal``          network battles: reveal a hidden plot as it lands; no options
                    listed (only its owner's machine holds it)
``end``             the battle is over; nobody acts
==================  ===========================================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from game.rules.actions import Action, ChooseFirst

if TYPE_CHECKING:
    from game.rules.context import BattleContext

KINDS = (
    "setup",
    "choose_first",
    "posture",
    "fire",
    "move_attempt",
    "plot_move",
    "opportunity_fire",
    "covering_fire",
    "close_assault",
    "assault_reply",
    "artillery",
    "plot",
    "reveal",
    "end",
)


@dataclass(frozen=True)
class Decision:
    """What the battle waits for: ``side`` to act (None at the end), the ``phase`` by its
    battle-log name, the ``kind`` of choice (one of :data:`KINDS`). ``options`` are the
    legal actions, worked out when first asked for (a fire decision's need a sight matrix)."""

    side: str | None
    phase: str
    kind: str
    _ctx: BattleContext = field(repr=False, compare=False)

    @cached_property
    def options(self) -> list[Action]:
        """The side's legal actions (see ``Battle.legal_actions`` for how fire, opportunity
        fire and moves are listed)."""
        return options(self._ctx, self)


def decide(ctx: BattleContext) -> Decision:
    """The decision the battle of context ``ctx`` waits for now."""
    st = ctx.state
    if st.finished:
        return Decision(None, st.phase, "end", ctx)
    if st.phase == "setup":
        return Decision(st.to_act, "setup", "setup", ctx)
    phase = ctx.phase
    if phase.choose_first and not st.first_chosen:
        return Decision(st.to_act, phase.name, "choose_first", ctx)
    return Decision(st.to_act, phase.name, phase.decide(ctx), ctx)


def options(ctx: BattleContext, decision: Decision) -> list[Action]:
    """The legal actions of a decision: who goes first, or what its phase offers."""
    if decision.kind == "end" or decision.side is None:  # nobody acts once the battle ends
        return []
    if decision.kind == "choose_first":
        return [ChooseFirst(decision.side, first) for first in ctx.sides]
    phase = ctx.rules.setup if decision.kind == "setup" else ctx.phase
    return phase.options(ctx, decision.side, decision.kind)
