"""Wehrmacht '47 (the 004 card) as the engine plays it, so far the ground war: the WWII rules
with tech levels (TL2 may fire and then move at half its allowance), the TL1 and TL2 range
charts, one standard attack on a target per fire phase, personnel and carriers, overrun and
close assault with the 004 notes, movement markers, and the card's combat results table,
artillery and smoke, and the optional air strikes whose arrival enemy AA can spoil
(rules-decisions "The full games")."""

from __future__ import annotations

from dataclasses import dataclass

from game.rules.phases import artillery, fire, initiative, markers, movement, plot, posture
from game.rules.rulesets.base import FULL_GAME_FEATURES, Ruleset, half_up_to_step
from game.rules.rulesets.cards import WWII47_ASSAULT, WWII47_SUPPORT
from game.rules.rulesets.wwii import PostureFire, PostureMovement
from game.rules.state import StandState


@dataclass(frozen=True)
class Wwii47Fire(PostureFire):
    """Fire in Wehrmacht '47 (004 steps 2, 4; AA procedure): WWII's postures with TL2's fire
    then move, one standard attack on a target per fire phase, and AA that fired at aircraft
    firing at nothing else that turn."""

    def may_fire_in(self, stand: StandState, phase: str) -> bool:
        """Whether a stand may fire in the joint standard fire phase (004 steps 2 and 4):
        once a turn, in the firing posture, or in the movement posture if it is TL2 (the
        only tech level that may both fire and move)."""
        if stand.fire_attempts or stand.aa_fired:  # 004 AA: no ground target after aircraft
            return False
        return stand.posture == "firing" or (
            stand.posture == "movement" and (stand.tech_level or 1) >= 2
        )

    def may_opportunity_fire(self, stand: StandState) -> bool:
        """Opportunity and covering fire as in 001 (7.4.1, 7.5), never by an AA stand that
        fired at aircraft this turn (004 AA procedure note 3)."""
        return not stand.aa_fired and super().may_opportunity_fire(stand)

    def attack_refused(self, target: StandState, kind: str, phase: str) -> str | None:
        """Why ``target`` may not be attacked now, or None: one standard attack on a stand
        per fire phase (004 step 4; 001's once a turn does not hold), and one attack of
        opportunity or covering fire in a movement phase (001 7.4, 7.5)."""
        if kind == "standard" and phase in target.attacked_in:
            return f"{target.id} has already been attacked in this fire phase (004 step 4)"
        if kind in ("opportunity", "covering") and "movement" in target.attacked_in:
            return f"{target.id} has already been attacked in this movement phase"
        return None

    def dash_s(self, unit) -> str:
        """A "-" cell of 004's table is no effect, but S when the attacker is artillery or a
        support stand (004 CRT notes)."""
        return "S" if unit.flags & {"support", "artillery"} else "-"


@dataclass(frozen=True)
class Wwii47Movement(PostureMovement):
    """Movement in Wehrmacht '47 (004 step 6): a TL2 stand that fired moves half its speed,
    rounded up to the 0.5" step; a carrier that loads or unloads at most half."""

    def movement_points(self, stand: StandState) -> float:
        """Movement points this phase: the stand's speed; a TL2 stand that fired this turn
        half of it rounded up to the 0.5" step (004 step 6); a carrier that loads or unloads
        at most half (rules-decisions "Transport")."""
        speed = float(stand.unit.speed)
        mp = half_up_to_step(speed) if stand.fire_attempts else speed
        return self._loading(stand, mp)


TURN = (
    initiative.PHASE,  # 004 step 1: 1D6 + cohesion
    posture.PHASE,  # step 2: every stand; only TL2 may both move and fire
    artillery.PHASE,  # step 3: missions and air strikes land, then direct artillery
    fire.phase("fire", "joint standard fire phase"),  # step 4
    plot.PHASE,  # step 5: missions and air strikes for later turns
    movement.FULL_PHASE,  # step 6: orders, OF, CF, overruns, close assaults
    markers.PHASE,  # step 7: movement markers off, then S/D rolls
)

RULESET = Ruleset(
    id="wwii-47",
    title="Wehrmacht '47, full game",
    card="004",
    turn=TURN,
    initiative_dice=1,
    fire=Wwii47Fire(),
    movement=Wwii47Movement(transport=True),
    features=FULL_GAME_FEATURES
    | {"postures", "tl2_fire_and_move", "covering_fire", "pass_through"},
    assault=WWII47_ASSAULT,
    support=WWII47_SUPPORT,
)
