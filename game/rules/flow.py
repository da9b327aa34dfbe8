"""The sequence of play as data: each ruleset is a table of phases, and the rule functions that
differ between rulesets sit beside it, so a new ruleset plugs in as its own :class:`Ruleset`
rather than as flags through the engine.

Only the Modern introductory rules (000) are built so far; WWII (001) needs posture
determination and covering fire and comes as its own table.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.rules.state import StandState


@dataclass(frozen=True)
class Phase:
    """One phase of a turn.

    ``name`` is the battle log's phase name. ``auto``: the engine plays it through on entering
    (dice only, no decisions). ``choose_first``: the side with the initiative says who acts
    first (000 07.02.04, 08.02.04). ``kind``: "fire" (alternate attacks until both pass),
    "movement" (alternate movement actions until both pass), or None for automatic phases.
    """

    name: str
    auto: bool = False
    choose_first: bool = False
    kind: str | None = None


class ModernRules:
    """The Modern introductory tank rules (seed 000) as the engine plays them."""

    name = "modern"
    initiative_dice = 2  # 000 05.00: 2D6 + cohesion; ties re-rolled on plain 2D6
    turn = (
        Phase("initiative", auto=True),
        Phase("fire1", choose_first=True, kind="fire"),  # TL4 only (000 05.00 step 2)
        Phase("fire2", choose_first=True, kind="fire"),  # all qualified (step 3)
        Phase("movement", choose_first=True, kind="movement"),  # joint movement (step 4)
        Phase("marker_removal", auto=True),  # step 5
    )

    @staticmethod
    def may_fire_in(stand: StandState, phase: str) -> bool:
        """Whether a stand may fire in a fire phase (000 05.00): in the 1st fire phase only TL4
        stands; in the 2nd, TL4 stands that have not fired in this phase and every other stand
        that has not tried to fire this turn."""
        if phase in stand.fired_in:
            return False
        tl = stand.tech_level or 0
        if phase == "fire1":
            return ModernRules.fires_in_first_phase(stand)
        if tl >= 4:
            return stand.fire_attempts < 2
        return stand.fire_attempts == 0

    @staticmethod
    def fires_in_first_phase(stand: StandState) -> bool:
        """Whether the stand's tech level lets it fire in the 1st fire phase of a turn, before
        any lower tech level can fire (000 05.00 step 2: TL4 only), whatever it did this turn.
        Planning asks this of the next turn; ``may_fire_in`` answers for the phase at hand."""
        return (stand.tech_level or 0) >= 4

    @staticmethod
    def shots_per_turn(stand: StandState) -> int:
        """How many times a stand may fire in one turn's fire phases (000 05.00): a TL4 stand
        in the 1st and again in the 2nd, any other once."""
        return 2 if (stand.tech_level or 0) >= 4 else 1

    @staticmethod
    def may_opportunity_fire(stand: StandState) -> bool:
        """Opportunity fire (000 07.06.05): a TL4 stand that has tried to fire at most once this
        turn, any other stand that has not tried at all."""
        tl = stand.tech_level or 0
        return stand.fire_attempts <= 1 if tl >= 4 else stand.fire_attempts == 0

    @staticmethod
    def movement_points(stand: StandState) -> float:
        """Movement points this phase: the stand's speed, halved for a TL2 stand that tried to
        fire this turn (000 05.00 step 4)."""
        speed = float(stand.unit.speed)
        if (stand.tech_level or 0) <= 2 and stand.fire_attempts > 0:
            return speed / 2
        return speed

    @staticmethod
    def roll_to_go_on(result: str) -> bool:
        """After opportunity fire the mover rolls cohesion to go on, whatever the result
        (000 07.06.05 part 3)."""
        return True


RULESETS = {"modern": ModernRules}
