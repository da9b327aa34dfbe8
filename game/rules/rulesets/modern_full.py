"""The full Modern game (the 002 card) as the engine plays it: infantry and carriers, overrun
and close assault, the 3rd fire phase of TL5, the TL1 posture, movement markers, wire and
minefields, the -S- combat results table, artillery, smoke and air strikes with AA fire
(rules-decisions "The full games")."""

from __future__ import annotations

from dataclasses import dataclass

from game.rules.phases import artillery, fire, initiative, markers, movement, plot, tl1_posture
from game.rules.rulesets.base import (
    FULL_GAME_FEATURES,
    FirePolicy,
    MovementPolicy,
    Ruleset,
    tech_level,
)
from game.rules.rulesets.cards import MODERN_ASSAULT, MODERN_SUPPORT
from game.rules.state import StandState


@dataclass(frozen=True)
class FullModernFire(FirePolicy):
    """Fire in the full Modern game (002 turn sequence check list): up to three standard fire
    phases by tech level, the TL1 movement posture, and the 002 table's ``-S-`` cells."""

    def may_fire_in(self, stand: StandState, phase: str) -> bool:
        """Whether a stand may fire in a standard fire phase (002 turn sequence check list):
        the 1st phase TL4 and TL5, the 3rd TL5 only; a TL5 stand fires up to three times a
        turn, a TL4 twice, any other once; a TL1 stand in the movement posture never
        (note 3); never twice in one phase."""
        if phase in stand.fired_in or stand.posture == "movement":
            return False
        tl = tech_level(stand)
        if phase == "fire1":
            return tl >= 4
        if phase == "fire3":
            return tl >= 5
        return stand.fire_attempts < self.shots_per_turn(stand)

    def shots_per_turn(self, stand: StandState) -> int:
        """Fire phases a stand may fire in (002 check list): TL5 three, TL4 two, else one."""
        tl = tech_level(stand)
        return 3 if tl >= 5 else 2 if tl == 4 else 1

    def may_opportunity_fire(self, stand: StandState) -> bool:
        """Opportunity fire (000 07.06.05 as the full game keeps it): a stand with a shot of
        the turn left, never a TL1 stand in the movement posture, never a TL2 stand past half
        its movement points (000 05.00 step 4)."""
        if stand.posture == "movement" or self.fire_refusal(stand):
            return False
        return stand.fire_attempts < self.shots_per_turn(stand)

    def dash_s(self, unit) -> str:
        """A ``-S-`` cell is S, but no effect for a TL1 or TL2 attacker; support stands,
        artillery and infantry close-support vehicles always read it as S (002 CRT notes)."""
        if unit.flags & {"support", "artillery", "close_support"}:
            return "S"
        return "-" if (unit.tech_level or 0) <= 2 else "S"


TURN = (
    initiative.PHASE,  # 002 step 1: 2D6 + cohesion
    tl1_posture.PHASE,  # step 1: TL1 stands declare moving or firing
    artillery.PHASE,  # step 2: missions and air strikes land, then direct artillery
    fire.phase("fire1", "1st standard fire phase"),  # step 3: TL4 and TL5
    fire.phase("fire2", "2nd standard fire phase"),  # step 4: all qualified
    plot.PHASE,  # step 5: missions and air strikes for later turns
    movement.FULL_PHASE,  # step 6: moves, opportunity fire, overruns, close assaults
    fire.phase("fire3", "3rd standard fire phase"),  # step 7: TL5 only
    markers.PHASE,  # step 8: movement markers off, then S/D rolls
)

RULESET = Ruleset(
    id="modern-full",
    title="Modern, full game",
    card="002",
    turn=TURN,
    initiative_dice=2,
    fire=FullModernFire(clear_after_firing=False),
    movement=MovementPolicy(transport=True),  # TL2 halved after firing; loading halves
    features=FULL_GAME_FEATURES | {"tl1_postures"},
    assault=MODERN_ASSAULT,
    support=MODERN_SUPPORT,
)
