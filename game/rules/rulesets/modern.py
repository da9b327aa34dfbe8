"""The Modern introductory tank rules (seed 000) as the engine plays them: tech levels decide
who fires in which of two fire phases, and movement is joint (000 05.00)."""

from __future__ import annotations

from game.rules.phases import fire, initiative, markers, movement
from game.rules.rulesets.base import FirePolicy, MovementPolicy, Ruleset

TURN = (
    initiative.PHASE,  # 000 05.00 step 1: 2D6 + cohesion; ties re-rolled on plain 2D6
    fire.phase("fire1", "1st fire phase"),  # step 2: TL4 only
    fire.phase("fire2", "2nd fire phase"),  # step 3: all qualified
    movement.PHASE,  # step 4: joint movement
    markers.PHASE,  # step 5
)

RULESET = Ruleset(
    id="modern",
    title="Modern, introductory",
    card="000",
    turn=TURN,
    initiative_dice=2,
    fire=FirePolicy(clear_after_firing=False),  # a stand that fired keeps its cover (07.01.03)
    movement=MovementPolicy(),
    features=frozenset(),  # RD "Movement": no passing through enemy stands in Modern
)
