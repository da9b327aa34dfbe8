"""The battle screen's fire support (#32), driven by synthetic events on the dummy video
driver: plotting a mission and firing direct artillery by clicks, and what the screen draws
of a plotted mission for each side (the owner sees it; the other player, behind the hotseat
curtain, does not)."""

from __future__ import annotations

import pygame
import pytest

from game.rules.actions import Pass, PlotMission
from game.ui.battle import CurtainMode
from game.ui.battle.support import ArtilleryMode, PlotFireMode
from tests.helpers import click_at, key, screen_at

pytestmark = pytest.mark.usefixtures("data_dir")


def test_plot_a_mission_by_clicks(app):
    """The plot phase: click the Paladin, click the aim, Enter. The mission is plotted for
    next turn, listed in the panel for its owner, and the odds of its marker were shown."""
    s = screen_at(app, "plot")
    b = s.battle
    if b.to_act == "B":
        s.act(Pass("B"))
        s.set_mode(s.mode.confirm(s))  # through the hand-over curtain
    assert isinstance(s.mode, PlotFireMode) and b.to_act == "A"
    click_at(s, 12, 12)
    click_at(s, 30, 12)
    assert s.mode.firers == ["A1"] and s.mode.aim == pytest.approx((30, 12), abs=0.1)
    assert "Lands on the aim: 75%" in s._panel_text  # cohesion 15: 15 rolls in 20 pass
    assert "T-80U / AT-11\u2002B1 (enemy)" in s._panel_text
    key(s, pygame.K_RETURN)
    (plot,) = [e for e in b.log.events if e["event"] == "plot"]
    assert (plot["side"], plot["firers"], plot["lands_turn"]) == ("A", ["A1"], 2)
    # the other player gets the screen behind the curtain; the log panel keeps the aim hidden
    assert isinstance(s.mode, CurtainMode)
    assert any("plots a fire mission (m1) for turn 2" in line for line in s.log_lines)
    assert not any("30" in line for line in s.log_lines if "plots" in line)


def _drawn(s) -> pygame.Surface:
    surf = pygame.Surface(s.app.size)
    surf.fill((0, 0, 0))
    s.support.draw(surf)
    return surf


def test_the_other_side_does_not_see_a_plotted_mission(app):
    """Hotseat: A plots; B, handed the screen, is shown nothing of it (the pixels drawn are
    those of no mission at all); when A plots again, A sees its mission drawn."""
    s = screen_at(app, "plot")
    b = s.battle
    if b.to_act == "B":
        s.act(Pass("B"))
        s.set_mode(s.mode.confirm(s))
    s.act(PlotMission("A", ("A1",), ((30.0, 12.0),), "he", 2))
    s.set_mode(s.mode.confirm(s))  # B takes the screen
    assert b.to_act == "B" and s.support.plot_viewer() == "B" and s.support.visible_missions() == []
    with_mission = pygame.image.tobytes(_drawn(s), "RGB")
    hidden, b.state.missions = b.state.missions, []
    without = pygame.image.tobytes(_drawn(s), "RGB")
    b.state.missions = hidden
    assert with_mission == without
    s.act(Pass("B"))
    s.set_mode(s.mode.confirm(s))  # back to A, who may plot more
    assert b.to_act == "A" and [m.id for m in s.support.visible_missions()] == ["m1"]
    assert pygame.image.tobytes(_drawn(s), "RGB") != without
    # against the AI the player's own missions are shown all the time, the AI's never
    s.ai = {"B": object()}
    assert s.support.plot_viewer() == "A"


def test_direct_artillery_by_clicks(app):
    """The artillery phase: click the Paladin, click the enemy tank, Enter: the direct
    artillery line and the marker's attack are in the log."""
    s = screen_at(app, "artillery")
    b = s.battle
    if b.to_act == "B":
        s.act(Pass("B"))
    assert isinstance(s.mode, ArtilleryMode) and b.to_act == "A"
    click_at(s, 12, 12)
    click_at(s, 30, 12)
    assert "T-80U / AT-11\u2002B1 (enemy)" in s._panel_text
    key(s, pygame.K_RETURN)
    (line,) = [e for e in b.log.events if e["event"] == "artillery"]
    assert (line["kind"], line["firers"]) == ("direct", ["A1"])
    assert b.stand("A1").artillery_fired
