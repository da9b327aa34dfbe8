"""What a player met deep in a full battle, on the battle screen: the unload spots of two
carriers side by side no longer tangle, and the fire phase's outlines agree with the words
under which they are drawn."""

from __future__ import annotations

import pygame

from game.ui.battle.unload import UNLOAD
from tests.helpers import _to_movement, click_at, flush, key, small_battle

# two M113s side by side, each with a rider: A2's left spot (10, 17) is A4's right spot
CARRIERS = [
    ("A2", "A", "M113A3", 10, 16, 0),
    ("A3", "A", "US Mech Infantry", 10, 16, 0, {"carried_by": "A2"}),
    ("A4", "A", "M113A3", 10, 18, 0),
    ("A5", "A", "US Mech Infantry", 10, 18, 0, {"carried_by": "A4"}),
    ("B1", "B", "T-80U / AT-11", 40, 16, 180),
]


def _colour(s, x, y):
    return tuple(s.app.surface.get_at(tuple(int(round(v)) for v in s.tv.to_px(x, y))))[:3]


def _point_at(s, x, y):
    px, py = (int(round(v)) for v in s.tv.to_px(x, y))
    s.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(px, py), rel=(0, 0), buttons=(0, 0, 0)))


def _carriers_may_move(app):
    s = small_battle(app, CARRIERS, [6, 6, 1, 1, 3, 3, 3, 3, 5] + [10] * 20, ruleset="modern-full")
    _to_movement(s)
    click_at(s, 10, 16)
    key(s, pygame.K_RETURN)
    _point_at(s, 25, 5)  # the mouse off both carriers
    flush(s)
    return s


def test_only_one_carriers_spots_are_shown_at_a_time(app):
    s = _carriers_may_move(app)
    assert s.mode.focus == "A2"
    assert _colour(s, 10, 15) == UNLOAD  # A2's right spot: its dot
    assert _colour(s, 10, 19) != UNLOAD  # A4's left spot: not drawn
    assert "point at another carrier ringed in blue for its own" in s._panel_text
    _point_at(s, 10, 18)  # the mouse on A4: its spots instead
    flush(s)
    assert s.mode.focus == "A4"
    assert _colour(s, 10, 19) == UNLOAD and _colour(s, 10, 15) != UNLOAD


def test_a_spot_both_carriers_share_sets_down_the_shown_carriers_rider(app):
    s = _carriers_may_move(app)
    _point_at(s, 10, 18)  # A4's spots
    click_at(s, 10, 17)  # A4's right spot, A2's left
    [ev] = [e for e in s.battle.log.events if e["event"] == "unload"]
    assert ev["stand"] == "A5" and ev["pos"][:2] == [10.0, 17.0]


# ------------------------------------------------------------------ the fire phase's outlines


def test_an_attacker_in_the_way_of_another_line_is_outlined_as_yours_and_crossed(app):
    """A2 fires and stands in A1's line of sight to B1: it was outlined red, the colour the
    legend gives the enemy's stands; it is outlined green (yours) and crossed in red (in
    the way), and the legends name the palette's colours."""
    from game.ui.battle.fire import FireMode
    from game.ui.battle.layout import PAL
    from tests.helpers import to_a_shot

    stands = [("A1", "A", "T-72", 10, 12, 0), ("A2", "A", "T-72", 13, 12, 0)]
    stands.append(("B1", "B", "T-72", 20, 12, 180))
    s = small_battle(app, stands, [6, 6, 1, 1, 3, 3, 3, 3] + [10] * 20)
    to_a_shot(s)
    assert isinstance(s.mode, FireMode)
    flush(s)
    assert "(outlined: yours green, theirs red)" in s._panel_text
    click_at(s, 20, 12)  # B1 the target
    click_at(s, 13, 12)  # A2 fires at it
    assert s.mode.attackers == ["A2"]
    assert ("stand", "A2") in s.mode.sights["A1"].blocked_by
    flush(s)
    assert _colour(s, 13, 12.5) == PAL.clear  # its outline: yours
    assert _colour(s, 12.75, 12.25) == PAL.blocked  # the cross: in the way
    assert _colour(s, 20, 12.5) == PAL.blocked  # the target: theirs
    assert "Outlined: your attackers green, the target red" in s._panel_text


def test_the_legends_name_the_colours_of_the_palette_in_use():
    from game.settings import PALETTES
    from game.ui.colours import PAL

    try:
        PAL.use(PALETTES["colour-blind safe"])
        assert [PAL.word(k) for k in ("clear", "sees", "blocked")] == ["blue", "yellow", "orange"]
    finally:
        PAL.use(PALETTES["standard"])
    assert [PAL.word(k) for k in ("clear", "sees", "blocked")] == ["green", "amber", "red"]
