"""The WWII introductory tank rules (seed 001) as the engine plays them.

Each turn every stand on the table takes a posture (001 5.0 step 2): stands declared into a
movement group are in the movement posture and may move but not fire; every other stand is
in the firing posture and may fire once in the turn, in the fire phase or as opportunity
fire, but not move (7.1.5, 7.4.1, 8.1.2)."""

from __future__ import annotations

from dataclasses import dataclass

from game.rules.phases import fire, initiative, markers, movement, posture
from game.rules.rulesets.base import FirePolicy, MovementPolicy, Ruleset
from game.rules.state import StandState


@dataclass(frozen=True)
class PostureFire(FirePolicy):
    """Fire by posture (001): one fire phase, one shot a turn, and only in the firing
    posture; once fired, a stand is in clear terrain (001 6.1.2)."""

    clear_after_firing: bool = True

    def may_fire_in(self, stand: StandState, phase: str) -> bool:
        """Whether a stand may fire in the fire phase (001 7.1.5, 5.0): it is in the firing
        posture and has not fired this turn."""
        return stand.posture == "firing" and stand.fire_attempts == 0

    def fires_in_first_phase(self, stand: StandState) -> bool:
        """WWII has one fire phase: every stand that fires, fires in it (001 5.0 step 3)."""
        return True

    def shots_per_turn(self, stand: StandState) -> int:
        """No stand fires more than once a turn (001 7.1.5)."""
        return 1

    def may_opportunity_fire(self, stand: StandState) -> bool:
        """Opportunity fire and covering fire (001 7.4.1, 7.5, 7.1.5): a stand in the firing
        posture that has not fired this turn."""
        return stand.posture == "firing" and stand.fire_attempts == 0

    def fire_refusal(self, stand: StandState) -> str | None:
        """WWII has no tech-level limit on firing after moving (postures decide)."""
        return None

    def attack_refused(self, target: StandState, kind: str, phase: str) -> str | None:
        """Why ``target`` may not be attacked now, or None: a stand is the object of one attack
        a turn, standard, opportunity or covering fire alike (001 7.1.2)."""
        if target.attacked_in:
            return f"{target.id} has already been attacked this turn (001 7.1.2)"
        return None


@dataclass(frozen=True)
class PostureMovement(MovementPolicy):
    """Movement by posture (001 8.3.1): a stand's full speed; after opportunity fire the mover
    rolls to go on only when the attack did something (001 7.4.4)."""

    def movement_points(self, stand: StandState) -> float:
        """Movement points this phase: the stand's speed (001 8.3.1)."""
        return self._loading(stand, float(stand.unit.speed))

    def roll_to_go_on(self, result: str) -> bool:
        """After opportunity fire the mover rolls cohesion to go on only when the attack did
        something: "no effect" lets it carry on (001 7.4.4)."""
        return result != "none"


TURN = (
    initiative.PHASE,  # 001 5.0 step 1: 1D6 + cohesion; ties rolled again (RD)
    posture.PHASE,  # step 2
    fire.phase("fire", "fire phase"),  # step 3, 7.1.1
    movement.PHASE,  # step 4, 8.2.4
    markers.PHASE,  # step 5
)

RULESET = Ruleset(
    id="wwii",
    title="WWII, introductory",
    card="001",
    turn=TURN,
    initiative_dice=1,
    fire=PostureFire(),
    movement=PostureMovement(),
    features=frozenset({"postures", "covering_fire", "pass_through"}),  # 001 7.5, 8.3.6
)
