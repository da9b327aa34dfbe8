"""The AI's moves on screen: a group's stands glide together, no move glides longer than
GLIDE_MOST_S, and Space skips the showing of the rest of the AI's moves that phase."""

from __future__ import annotations

import pygame
import pytest

from game import ChooseFirst, Move, MoveAttempt, Pass
from game.ai.scripted import ScriptedAI
from game.ui.battle import BattleScreen
from game.ui.battle.drawing import GLIDE_MOST_S
from tests.conftest import battle

pytestmark = pytest.mark.usefixtures("data_dir")


def _ai_moving(app):
    """The AI's Orange (B1, B2 of group 1) in the movement phase, its group's order rolled
    (D20 5: both move), Blue far off; the screen as the AI's actions reach it."""
    b = battle(
        [
            ("A1", "A", "T-72", 3, 3, 0),
            ("B1", "B", "T-72", 40, 20, 180),
            ("B2", "B", "T-72", 40, 16, 180),
        ],
        [3, 3, 3, 3, 5],
    )
    for _ in range(2):
        b.apply(ChooseFirst("A", "A"))
        b.apply(Pass("A"))
        b.apply(Pass("B"))
    b.apply(ChooseFirst("A", "B"))
    s = BattleScreen(app, b, ai={"B": ScriptedAI(1, "recruit")}, ai_speed=12.0)
    app.show(s)
    s.act(MoveAttempt("B", "1", True), animate=True)
    return b, s


def test_a_groups_stands_glide_together(app):
    b, s = _ai_moving(app)
    s.act(Move("B", "B1", ((40, 20), (34, 20)), 180.0), animate=True)  # 6": 0.5 s
    assert [a[0] for a in s.animation.moves] == ["B1"]
    assert s.animation.ai_may_think()  # its next move is chosen while this one glides
    s.animation.advance(0.2)
    s.act(Move("B", "B2", ((40, 16), (34, 16)), 180.0), animate=True)
    assert [a[0] for a in s.animation.moves] == ["B1", "B2"]  # both glide at once
    s.animation.advance(0.2)
    assert [round(a[2], 2) for a in s.animation.moves] == [0.1, 0.3]
    s.draw(app.surface)  # both drawn where they are on their paths
    assert b.state.moving is None and s.animation.ai_may_think()  # its next group may be chosen now
    s.animation.advance(0.31)
    assert s.animation.moves == []


def test_a_long_move_glides_at_most_the_longest(app):
    b, s = _ai_moving(app)
    s.ai_speed = 6.0
    s.act(Move("B", "B1", ((40, 20), (30, 20)), 180.0), animate=True)  # 10" at 6"/s: 1.7 s
    assert s.animation.moves[0][2] == pytest.approx(GLIDE_MOST_S) and GLIDE_MOST_S < 10 / 6


def test_space_skips_the_rest_of_the_ais_moves_this_phase(app):
    b, s = _ai_moving(app)
    s.act(Move("B", "B1", ((40, 20), (34, 20)), 180.0), animate=True)
    s.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" "))
    assert s.animation.moves == []
    s.act(Move("B", "B2", ((40, 16), (34, 16)), 180.0), animate=True)
    assert s.animation.moves == []  # not shown gliding for the rest of the phase
    assert (b.stand("B2").x, b.stand("B2").y) == (34, 16)
