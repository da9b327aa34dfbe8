"""Each ruleset is its data plus the list of its phases (``turn``), and the rule functions
that differ between rulesets beside them: a new ruleset plugs in as its own class rather than
as flags through the engine. WWII has postures because its turn holds the posture phase.

Two rulesets are built: the Modern introductory rules (000) and the WWII introductory rules
(001), whose turn adds posture determination and whose movement adds covering fire.
"""

from __future__ import annotations

import math

from game.rules.phases import (
    Phase,
    artillery,
    fire,
    initiative,
    markers,
    movement,
    plot,
    posture,
    setup,
    tl1_posture,
)
from game.rules.state import StandState


class Ruleset:
    """What every ruleset has: a name, its turn (the phases in order), and the phase of a
    given name."""

    name = ""
    turn: tuple[Phase, ...] = ()
    setup = setup.PHASE
    full_game = False
    """The full games' rules (personnel, carriers, overrun, close assault, movement markers,
    the -S- CRT) are on: rules-decisions "The full games"."""

    @staticmethod
    def dash_s(unit) -> str:
        """What a ``-S-`` CRT cell does for a firer of this unit: only the full games' table
        has such cells (002 CRT notes)."""
        return "S"

    @classmethod
    def phase_named(cls, name: str | None) -> Phase | None:
        """The phase of the turn called ``name`` (None for set-up, the end, or no such)."""
        return next((p for p in cls.turn if p.name == name), None)

    @classmethod
    def phases(cls) -> tuple[Phase, ...]:
        """Every phase the ruleset plays, set-up first."""
        return (cls.setup, *cls.turn)

    class _Postures:
        def __get__(self, obj, owner) -> bool:
            return any(p is posture.PHASE for p in owner.turn)

    assault_card = "002"
    """Whose overrun and close-assault procedure the full game follows: "002" (Modern: the
    IFV's +2, armour by aspect, cavalry -3, closing -1) or "004" (Wehrmacht '47: tracked
    only, armour at 50%, cavalry doubled, the 0" range band, the disorganized defender's
    1" retreat). Read only when ``full_game``."""

    postures = _Postures()
    """Whether every stand takes a posture each turn: true when the turn holds WWII's posture
    phase (001 5.0 step 2). The full Modern game's TL1 postures (``tl1_posture``) are not
    this: there only TL1 stands take one."""


class ModernRules(Ruleset):
    """The Modern introductory tank rules (seed 000) as the engine plays them."""

    name = "modern"
    initiative_dice = 2  # 000 05.00: 2D6 + cohesion; ties re-rolled on plain 2D6
    covering_fire = False
    pass_through = False  # RD "Movement": no passing through enemy stands in Modern
    clear_after_firing = False  # a stand that fired keeps its cover for sight (000 07.01.03)
    turn = (
        initiative.PHASE,  # 000 05.00 step 1
        fire.phase("fire1", "1st fire phase"),  # TL4 only (000 05.00 step 2)
        fire.phase("fire2", "2nd fire phase"),  # all qualified (step 3)
        movement.PHASE,  # joint movement (step 4)
        markers.PHASE,  # step 5
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
        turn, any other stand that has not tried at all; never a TL2 stand that has spent more
        than half its movement points this turn (000 05.00 step 4)."""
        tl = stand.tech_level or 0
        if ModernRules.fire_refusal(stand):
            return False
        return stand.fire_attempts <= 1 if tl >= 4 else stand.fire_attempts == 0

    @staticmethod
    def fire_refusal(stand: StandState) -> str | None:
        """Why a stand may not fire at all this turn, or None: a TL2 stand either moves its
        whole allowance or fires once and moves at most half, so one that has spent more than
        half its movement points may not fire, opportunity fire included (000 05.00 step 4)."""
        if (stand.tech_level or 0) <= 2 and stand.mp_spent > stand.unit.speed / 2 + 1e-9:
            return (
                f"{stand.id} is tech level 2 and has spent {stand.mp_spent:.1f} of its "
                f"{stand.unit.speed:g} movement points this turn: more than half, so it may not "
                "fire this turn (000 05.00 step 4)"
            )
        return None

    @staticmethod
    def attack_refused(target: StandState, kind: str, phase: str) -> str | None:
        """Why ``target`` may not be attacked now, or None: once in each fire phase and once
        by opportunity fire in a movement phase (000 07.02.03)."""
        if kind == "standard" and phase in target.attacked_in:
            return f"{target.id} has already been attacked in this phase"
        if kind == "opportunity" and "movement" in target.attacked_in:
            return f"{target.id} has already been attacked by opportunity fire this phase"
        return None

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


class WwiiRules(Ruleset):
    """The WWII introductory tank rules (seed 001) as the engine plays them.

    Each turn every stand on the table takes a posture (001 5.0 step 2): stands declared into a
    movement group are in the movement posture and may move but not fire; every other stand is
    in the firing posture and may fire once in the turn, in the fire phase or as opportunity
    fire, but not move (7.1.5, 7.4.1, 8.1.2)."""

    name = "wwii"
    initiative_dice = 1  # 001 5.0 step 1: 1D6 + cohesion; ties rolled again (RD)
    covering_fire = True  # 001 7.5
    pass_through = True  # 001 8.3.6: a nerve roll at +3 to pass through an enemy tank stand
    clear_after_firing = True  # 001 6.1.2: once fired, in clear terrain for sight and cohesion
    turn = (
        initiative.PHASE,  # 001 5.0 step 1
        posture.PHASE,  # step 2
        fire.phase("fire", "fire phase"),  # step 3, 7.1.1
        movement.PHASE,  # step 4, 8.2.4
        markers.PHASE,  # step 5
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
    def fire_refusal(stand: StandState) -> str | None:
        """WWII has no tech-level limit on firing after moving (postures decide)."""
        return None

    @staticmethod
    def attack_refused(target: StandState, kind: str, phase: str) -> str | None:
        """Why ``target`` may not be attacked now, or None: a stand is the object of one attack
        a turn, standard, opportunity or covering fire alike (001 7.1.2)."""
        if target.attacked_in:
            return f"{target.id} has already been attacked this turn (001 7.1.2)"
        return None

    @staticmethod
    def movement_points(stand: StandState) -> float:
        """Movement points this phase: the stand's speed (001 8.3.1)."""
        return float(stand.unit.speed)

    @staticmethod
    def roll_to_go_on(result: str) -> bool:
        """After opportunity fire the mover rolls cohesion to go on only when the attack did
        something: "no effect" lets it carry on (001 7.4.4)."""
        return result != "none"


class ModernFullRules(ModernRules):
    """The full Modern game (the 002 card) as the engine plays it: infantry and carriers,
    overrun and close assault, the 3rd fire phase of TL5, the TL1 posture, movement markers,
    wire and minefields, the -S- combat results table, artillery, smoke and air strikes with
    AA fire (rules-decisions "The full games")."""

    name = "modern-full"
    full_game = True
    turn = (
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

    @staticmethod
    def may_fire_in(stand: StandState, phase: str) -> bool:
        """Whether a stand may fire in a standard fire phase (002 turn sequence check list):
        the 1st phase TL4 and TL5, the 3rd TL5 only; a TL5 stand fires up to three times a
        turn, a TL4 twice, any other once; a TL1 stand in the movement posture never
        (note 3); never twice in one phase."""
        if phase in stand.fired_in or stand.posture == "movement":
            return False
        tl = stand.tech_level or 0
        if phase == "fire1":
            return tl >= 4
        if phase == "fire3":
            return tl >= 5
        return stand.fire_attempts < ModernFullRules.shots_per_turn(stand)

    @staticmethod
    def shots_per_turn(stand: StandState) -> int:
        """Fire phases a stand may fire in (002 check list): TL5 three, TL4 two, else one."""
        tl = stand.tech_level or 0
        return 3 if tl >= 5 else 2 if tl == 4 else 1

    @staticmethod
    def may_opportunity_fire(stand: StandState) -> bool:
        """Opportunity fire (000 07.06.05 as the full game keeps it): a stand with a shot of
        the turn left, never a TL1 stand in the movement posture, never a TL2 stand past half
        its movement points (000 05.00 step 4)."""
        if stand.posture == "movement" or ModernRules.fire_refusal(stand):
            return False
        return stand.fire_attempts < ModernFullRules.shots_per_turn(stand)

    @staticmethod
    def movement_points(stand: StandState) -> float:
        """The intro allowance (TL2 halved after firing), halved for a carrier that loads or
        unloads this phase (rules-decisions "Transport")."""
        mp = ModernRules.movement_points(stand)
        if stand.loaded:
            mp = min(mp, float(stand.unit.speed) / 2)
        return mp

    @staticmethod
    def dash_s(unit) -> str:
        """A ``-S-`` cell is S, but no effect for a TL1 or TL2 attacker; support stands,
        artillery and infantry close-support vehicles always read it as S (002 CRT notes)."""
        if unit.flags & {"support", "artillery", "close_support"}:
            return "S"
        return "-" if (unit.tech_level or 0) <= 2 else "S"


class Wwii47Rules(WwiiRules):
    """Wehrmacht '47 (the 004 card) as the engine plays it, so far the ground war: the WWII
    rules with tech levels (TL2 may fire and then move at half its allowance), the TL1 and
    TL2 range charts, one standard attack on a target per fire phase, personnel and
    carriers, overrun and close assault with the 004 notes, movement markers, and the
    card's combat results table, artillery and smoke, and the optional air strikes whose
    arrival enemy AA can spoil (rules-decisions "The full games")."""

    name = "wwii-47"
    full_game = True
    assault_card = "004"
    turn = (
        initiative.PHASE,  # 004 step 1: 1D6 + cohesion
        posture.PHASE,  # step 2: every stand; only TL2 may both move and fire
        artillery.PHASE,  # step 3: missions and air strikes land, then direct artillery
        fire.phase("fire", "joint standard fire phase"),  # step 4
        plot.PHASE,  # step 5: missions and air strikes for later turns
        movement.FULL_PHASE,  # step 6: orders, OF, CF, overruns, close assaults
        markers.PHASE,  # step 7: movement markers off, then S/D rolls
    )

    @staticmethod
    def may_fire_in(stand: StandState, phase: str) -> bool:
        """Whether a stand may fire in the joint standard fire phase (004 steps 2 and 4):
        once a turn, in the firing posture, or in the movement posture if it is TL2 (the
        only tech level that may both fire and move)."""
        if stand.fire_attempts or stand.aa_fired:  # 004 AA: no ground target after aircraft
            return False
        return stand.posture == "firing" or (
            stand.posture == "movement" and (stand.tech_level or 1) >= 2
        )

    @staticmethod
    def may_opportunity_fire(stand: StandState) -> bool:
        """Opportunity and covering fire as in 001 (7.4.1, 7.5), never by an AA stand that
        fired at aircraft this turn (004 AA procedure note 3)."""
        return not stand.aa_fired and WwiiRules.may_opportunity_fire(stand)

    @staticmethod
    def attack_refused(target: StandState, kind: str, phase: str) -> str | None:
        """Why ``target`` may not be attacked now, or None: one standard attack on a stand
        per fire phase (004 step 4; 001's once a turn does not hold), and one attack of
        opportunity or covering fire in a movement phase (001 7.4, 7.5)."""
        if kind == "standard" and phase in target.attacked_in:
            return f"{target.id} has already been attacked in this fire phase (004 step 4)"
        if kind in ("opportunity", "covering") and "movement" in target.attacked_in:
            return f"{target.id} has already been attacked in this movement phase"
        return None

    @staticmethod
    def movement_points(stand: StandState) -> float:
        """Movement points this phase: the stand's speed; a TL2 stand that fired this turn
        half of it rounded up to the 0.5" step (004 step 6); a carrier that loads or unloads
        at most half (rules-decisions "Transport")."""
        speed = float(stand.unit.speed)
        mp = math.ceil(speed) / 2 if stand.fire_attempts else speed
        if stand.loaded:
            mp = min(mp, speed / 2)
        return mp

    @staticmethod
    def dash_s(unit) -> str:
        """A "-" cell of 004's table is no effect, but S when the attacker is artillery or a
        support stand (004 CRT notes)."""
        return "S" if unit.flags & {"support", "artillery"} else "-"


RULESETS = {
    "modern": ModernRules,
    "wwii": WwiiRules,
    "modern-full": ModernFullRules,
    "wwii-47": Wwii47Rules,
}


def phase_titles() -> dict[str, str]:
    """Every phase's battle-log name -> its name in words, over every ruleset (and the end)."""
    titles = {p.name: p.title or p.name for r in RULESETS.values() for p in r.phases()}
    return {**titles, "end": "end"}
