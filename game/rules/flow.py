"""The sequence of play as data: each ruleset is a table of phases, and the rule functions that
differ between rulesets sit beside it, so a new ruleset plugs in as its own :class:`Ruleset`
rather than as flags through the engine.

Two rulesets are built: the Modern introductory rules (000) and the WWII introductory rules
(001), whose turn adds posture determination and covering fire.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.rules.state import StandState


@dataclass(frozen=True)
class Phase:
    """One phase of a turn.

    ``name`` is the battle log's phase name. ``auto``: the engine plays it through on entering
    (dice only, no decisions). ``choose_first``: the side with the initiative says who acts
    first (000 07.02.04, 08.02.04; 001 5.0 step 2, 7.1.1, 8.2.4). ``kind``: "posture"
    (alternate movement-group declarations until both pass, WWII), "fire" (alternate attacks
    until both pass), "movement" (alternate movement actions until both pass), or None for
    automatic phases.
    """

    name: str
    auto: bool = False
    choose_first: bool = False
    kind: str | None = None


class ModernRules:
    """The Modern introductory tank rules (seed 000) as the engine plays them."""

    name = "modern"
    initiative_dice = 2  # 000 05.00: 2D6 + cohesion; ties re-rolled on plain 2D6
    postures = False  # every stand may both fire and move; battle groups are fixed
    covering_fire = False
    pass_through = False  # RD "Movement": no passing through enemy stands in Modern
    clear_after_firing = False  # a stand that fired keeps its cover for sight (000 07.01.03)
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


class WwiiRules:
    """The WWII introductory tank rules (seed 001) as the engine plays them.

    Each turn every stand on the table takes a posture (001 5.0 step 2): stands declared into a
    movement group are in the movement posture and may move but not fire; every other stand is
    in the firing posture and may fire once in the turn, in the fire phase or as opportunity
    fire, but not move (7.1.5, 7.4.1, 8.1.2)."""

    name = "wwii"
    initiative_dice = 1  # 001 5.0 step 1: 1D6 + cohesion; ties rolled again (RD)
    postures = True
    covering_fire = True  # 001 7.5
    pass_through = True  # 001 8.3.6: a nerve roll at +3 to pass through an enemy tank stand
    clear_after_firing = True  # 001 6.1.2: once fired, in clear terrain for sight and cohesion
    turn = (
        Phase("initiative", auto=True),
        Phase("posture", choose_first=True, kind="posture"),  # 001 5.0 step 2
        Phase("fire", choose_first=True, kind="fire"),  # step 3, 7.1.1
        Phase("movement", choose_first=True, kind="movement"),  # step 4, 8.2.4
        Phase("marker_removal", auto=True),  # step 5
    )

    @staticmethod
    def may_fire_in(stand: StandState, phase: str) -> bool:
        """Whether a stand may fire in the fire phase (001 7.1.5, 5.0): it is in the firing
        posture and has not fired this turn."""
        return stand.posture == "firing" and stand.fire_attempts == 0

    @staticmethod
    def fires_in_first_phase(stand: StandState) -> bool:
        """WWII has one fire phase: every stand that fires, fires in it (001 5.0 step 3)."""
        return True

    @staticmethod
    def shots_per_turn(stand: StandState) -> int:
        """No stand fires more than once a turn (001 7.1.5)."""
        return 1

    @staticmethod
    def may_opportunity_fire(stand: StandState) -> bool:
        """Opportunity fire and covering fire (001 7.4.1, 7.5, 7.1.5): a stand in the firing
        posture that has not fired this turn."""
        return stand.posture == "firing" and stand.fire_attempts == 0

    @staticmethod
    def movement_points(stand: StandState) -> float:
        """Movement points this phase: the stand's speed (001 8.3.1)."""
        return float(stand.unit.speed)

    @staticmethod
    def roll_to_go_on(result: str) -> bool:
        """After opportunity fire the mover rolls cohesion to go on only when the attack did
        something: "no effect" lets it carry on (001 7.4.4)."""
        return result != "none"


RULESETS = {"modern": ModernRules, "wwii": WwiiRules}
