"""The first hour of a new player (issue #43) on the battle screen's movement and fire panels:
each stop driven on the real screen (dummy video driver) the way a player meets it."""

from __future__ import annotations

import pygame
import pytest
from pygame_gui.core.text import HyperlinkTextChunk

from game.ui.battle import FireMode
from game.ui.battle.layout import PAL
from tests.helpers import flush, press, small_battle, to_a_shot
from tests.helpers import ui_STANDS as STANDS

pytestmark = pytest.mark.usefixtures("data_dir")


def link_at(screen, href: str) -> tuple[int, int]:
    """The window pixel of the panel's link to ``href``, found as pygame_gui lays it out."""
    flush(screen)
    panel = screen.panel
    chunks = [
        c
        for row in panel.text_box_layout.layout_rows
        for c in row.items
        if isinstance(c, HyperlinkTextChunk) and c.href == href
    ]
    assert chunks, f"no link to {href!r} in the panel"
    r = panel.rect
    for y in range(r.top + 2, r.bottom - 2, 2):
        for x in range(r.left + 2, r.right - 2, 4):
            tx, ty = panel._calculate_text_space_pos((x, y))
            if chunks[0].collidepoint(tx, ty):
                return x, y
    raise AssertionError(f"the link to {href!r} is not in view")


def click_panel(screen, pos) -> None:
    """A left click on the panel at ``pos``; the events pygame_gui posts go to the screen."""
    pygame.event.clear()
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        screen.handle(pygame.event.Event(kind, pos=pos, button=1))
    for ev in pygame.event.get():
        screen.handle(ev)


def outline_colour(screen, sid: str) -> tuple:
    """The colour drawn on the left edge of a stand's footprint (its outline)."""
    s = screen.battle.stand(sid)
    x, y = (int(round(v)) for v in screen.tv.to_px(s.x - 0.5, s.y))
    return tuple(screen.app.surface.get_at((x, y)))[:3]


# ------------------------------------------------------------------ 1. the fire panel


def test_the_fire_panel_names_the_shots_outlines_them_and_a_line_aims_them(app):
    """(#43) "2 of your stands can fire at 1 enemy stand" named nobody: each line now names
    the enemy stand and yours that can fire at it, both are outlined on the table, and a
    click on the line makes the attack (target and attackers, the odds shown)."""
    s = small_battle(app, STANDS, [6, 6, 1, 1, 3, 3, 3, 3])
    to_a_shot(s)
    flush(s)
    assert "T-72\u2002B1: by T-72\u2002A1, A2" in s._panel_text
    assert outline_colour(s, "A1") == tuple(PAL.clear)[:3]
    assert outline_colour(s, "B1") == tuple(PAL.blocked)[:3]
    click_panel(s, link_at(s, "B1"))
    assert isinstance(s.mode, FireMode) and s.mode.target == "B1"
    assert s.mode.attackers == ["A1", "A2"]
    assert "Chance to eliminate" in s._panel_text


# ------------------------------------------------------------------ 6. entering, no orders


ENTERING = [("A1", "A", "T-72", 0, 12, 0, {"on_table": False}), ("B1", "B", "T-72", 40, 12, 180)]


def test_with_no_orders_left_the_movement_panel_has_a_button_and_says_why(app):
    """(#43) With 0 orders and a group waiting to enter, the panel showed no button until a
    stand was clicked (Pass is refused then): each group that must come on has its button,
    and the panel says why there are no orders (the roll, 1+1+1 = 3, gave none)."""
    from tests.helpers import _to_movement

    s = small_battle(app, ENTERING, [6, 6, 1, 1, 1, 1, 3, 3, 5])
    _to_movement(s)
    assert s.battle.state.orders["A"] == 0
    assert "Orders left: 0 (this phase's orders roll, 3, gave none)" in s._panel_text
    assert [b.text for b, _ in s._buttons] == ["Group 1: independent, +3"]
    press(s, "Group 1")
    assert s.battle.decision().kind == "plot_move"


def to_plot_entering(app):
    """A1 waits to enter on Blue's left edge; its group's attempt passed; A1 is picked."""
    from tests.helpers import _to_movement, click_at, key

    s = small_battle(app, ENTERING, [6, 6, 1, 1, 3, 3, 3, 3, 5])
    _to_movement(s)
    click_at(s, 0, 12)
    key(s, pygame.K_RETURN)
    click_at(s, 0, 12)
    return s


def test_the_first_click_for_an_entering_stand_plots_its_move(app):
    """(#43) The first click for an entering stand only set where it came on; it now plots
    the move there, coming on at the nearest point of the edge (a click on the edge itself
    still sets only where it comes on)."""
    from tests.helpers import click_at

    s = to_plot_entering(app)
    assert s.mode.stand == "A1" and s.mode.points == []
    click_at(s, 6, 13)
    assert s.mode.points == [(0.0, 13.0), (6.0, 13.0)]
    assert s.mode.walk is not None and s.mode.walk.points[-1] == (6.0, 13.0)


def test_esc_clears_the_refusal_of_the_move_it_cancels(app):
    """(#43) "must drive onto the table" stayed on the panel after Esc cancelled the move;
    the refusal now also ends with its rule."""
    from tests.helpers import click_at, key

    s = to_plot_entering(app)
    click_at(s, 0.2, 12)  # on the edge: only where it comes on
    assert s.mode.points == [(0.0, 12.0)]
    key(s, pygame.K_RETURN)
    assert "must drive onto the table" in s._panel_text
    assert s.message.endswith("(RD Entering the table)")
    key(s, pygame.K_ESCAPE)
    assert s.message == "" and "must drive onto" not in s._panel_text


# ------------------------------------------------------------------ 2. refusals with reasons


def test_a_move_into_contact_says_why_it_could_not_close_assault(app):
    """(#43) Plotting an M113 into contact with a T-80U said "could not close-assault it"
    and no more: the panel now gives the engine's reason and rule at the end."""
    from tests.helpers import _to_movement, click_at, key

    stands = [("A1", "A", "M113A3", 10, 12, 0), ("B1", "B", "T-80U / AT-11", 13.3, 12.2, 90)]
    s = small_battle(app, stands, [6, 6, 1, 1, 3, 3, 3, 3, 5] + [10] * 20, ruleset="modern-full")
    _to_movement(s)
    click_at(s, 10, 12)
    key(s, pygame.K_RETURN)
    click_at(s, 10, 12)
    click_at(s, 13.3, 12.2)  # on the enemy stand: the move ends in base contact with it
    assert "but could not close-assault it: A1's combat differential against B1 would be -5 " in (
        s._panel_text
    )
    assert "below -3 (002 8.7)." in s._panel_text


# ------------------------------------------------------------------ 3. unloading


def test_each_free_spot_beside_a_carrier_is_outlined_and_a_click_sets_the_rider_down(app):
    """(#43) Unloading offered one spot, the first free one (behind); the README promises
    behind, left, right and in front: each free spot is outlined on the table and a click on
    it sets the rider down there; a spot refused says why (the engine's reason)."""
    from tests.helpers import _to_movement, click_at, key

    stands = [
        ("A1", "A", "M1 Abrams", 10, 15, 0),  # on the carrier's right-hand spot
        ("A2", "A", "M113A3", 10, 16, 0),
        ("A3", "A", "US Mech Infantry", 10, 16, 0, {"carried_by": "A2"}),
        ("B1", "B", "T-80U / AT-11", 40, 16, 180),
    ]
    s = small_battle(app, stands, [6, 6, 1, 1, 3, 3, 3, 3, 5] + [10] * 20, ruleset="modern-full")
    _to_movement(s)
    click_at(s, 10, 16)
    key(s, pygame.K_RETURN)
    flush(s)
    assert "click an outlined spot (behind, left, in front) to set it down there" in s._panel_text
    assert (
        "; not right: another stand is in the way there (hulldown's transport ruling)."
        in s._panel_text
    )
    from game.ui.battle.unload import UNLOAD

    x, y = (int(round(v)) for v in s.tv.to_px(11.5, 16.2))  # the front spot's far side
    assert tuple(s.app.surface.get_at((x, y)))[:3] == UNLOAD
    click_at(s, 11.2, 16.1)  # inside the front spot
    [ev] = [e for e in s.battle.log.events if e["event"] == "unload"]
    assert ev["stand"] == "A3" and ev["pos"][:2] == [11.0, 16.0]


# ------------------------------------------------------------------ 4, 5. opportunity fire


def into_sight(app, dice):
    """Blue's group 1 (A1, A2) may move; A1 drives into B1's sight, and the screen goes to
    Orange's opportunity fire (the curtain lifted)."""
    from tests.helpers import _to_movement, click_at, key

    stands = [
        ("A1", "A", "T-72", 10, 12, 0),
        ("A2", "A", "T-72", 10, 6, 0),
        ("B1", "B", "T-72", 26, 15, 180),
    ]
    s = small_battle(app, stands, [6, 6, 1, 1, 3, 3, 3, 3, 5, *dice])
    _to_movement(s)
    click_at(s, 10, 12)
    key(s, pygame.K_RETURN)
    click_at(s, 10, 12)
    click_at(s, 20, 12)
    key(s, pygame.K_RETURN)
    click_at(s, 5, 5)  # the curtain lifts
    return s


def test_after_an_opportunity_shot_the_next_plot_stays_in_view(app):
    """(#43) After an opportunity-fire shot the "Last attack" lines sat above the next
    move's plot and pushed it below the panel's fold: they now come after it."""
    from tests.helpers import click_at, key

    s = into_sight(app, [5, 6, 6, 9])
    click_at(s, 15, 12)
    key(s, pygame.K_RETURN)
    assert s.news.last_result
    click_at(s, 5, 5)  # Blue's curtain
    click_at(s, 10, 6)  # A2: plot its move
    click_at(s, 14, 6)
    flush(s)
    text = s._panel_text
    assert text.startswith("<b>Moving T-72\u2002A2</b>")
    assert text.index("Enter commits") < text.index("Last attack")
    panel = s.panel
    rows = [
        row
        for row in panel.text_box_layout.layout_rows
        if any("commits" in getattr(c, "text", "") for c in row.items)
    ]
    assert rows and rows[0].bottom <= panel.rect.height - 8  # above the fold


def test_opportunity_points_are_12_px_targets_at_any_zoom(app):
    """(#43) The points of a short enemy path were dots of 3 px at full-table zoom, and a
    click had to land within 0.75": each is now drawn and hit at least 12 px across."""
    s = into_sight(app, [])
    s.tv.zoom_at(0.3, s.tv.to_px(15, 12))  # zoomed out: 0.75" is a few pixels
    pm = s.battle.state.pending
    k = min(pm.offer)
    cx, cy = (int(round(v)) for v in s.tv.to_px(*pm.points[k]))
    s.draw(s.app.surface)
    column = [tuple(s.app.surface.get_at((cx, cy + d)))[:3] for d in range(-6, 7)]
    assert tuple(PAL.sees)[:3] in column[:4]  # the disc reaches 4 px or more above it
    assert column[0] == (40, 40, 40)  # its dark rim, 6 px above the centre
    pos = (cx, cy - 5)
    s.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    s.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    s.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    assert s.mode.step is not None and abs(s.mode.step - k) <= 1


def test_a_close_assault_refused_says_why(app):
    """(#43) In the close-assault panel a click on an enemy stand that may not be assaulted
    did nothing; it now shows the engine's reason and rule (here: the TOW team touching the
    BTR-80 has no close-assault firepower against armoured stands)."""
    from game.rules.actions import EndMoves
    from tests.helpers import _to_movement, click_at, key

    stands = [
        ("A1", "A", "US Engineers", 10, 12, 0),
        ("A2", "A", "US TOW Team", 10, 14, 0),
        ("B1", "B", "BTR-80", 13.3, 12.2, 90),
        ("B2", "B", "BTR-80", 13.3, 14.2, 90),
    ]
    s = small_battle(app, stands, [6, 6, 1, 1, 3, 3, 3, 3, 5] + [10] * 20, ruleset="modern-full")
    _to_movement(s)
    click_at(s, 10, 12)
    key(s, pygame.K_RETURN)
    for mover, enemy in (((10, 12), (13.3, 12.2)), ((10, 14), (13.3, 14.2))):
        if s.battle.decision().kind != "plot_move":
            break
        click_at(s, *mover)
        click_at(s, *enemy)
        key(s, pygame.K_RETURN)
        for _ in range(5):
            if s.battle.decision().kind == "opportunity_fire":
                s.act(next(a for a in s.battle.legal_actions() if a.kind == "let_pass"))
        s.set_mode(s.mode_for_state())  # no hand-over curtain: one player clicks on
    if s.battle.decision().kind == "plot_move":
        s.act(EndMoves("A"))
    assert s.battle.decision().kind == "close_assault"
    s.set_mode(s.mode_for_state())
    click_at(s, 13.3, 14.2)  # B2: only the TOW team touches it
    assert s.message == "A2 has no close-assault firepower against armoured stands (002 8.7)"
    assert "no close-assault firepower" in s._panel_text
