"""Stops of the first hour (#43) found in the new-player trial after the first round of
mends, on the real battle screen (dummy video driver): the movement panel once a group or
every group has moved, and unload buttons whose text fits."""

from __future__ import annotations

import pygame
import pytest

from tests.helpers import _to_movement, click_at, flush, key, small_battle, wwii_posture

pytestmark = pytest.mark.usefixtures("data_dir")

CARRIER = [
    ("A1", "A", "M1 Abrams", 30, 20, 0),
    ("A2", "A", "M113A3", 10, 16, 0),
    ("A3", "A", "US Mech Infantry", 10, 16, 0, {"carried_by": "A2"}),
    ("B1", "B", "T-80U / AT-11", 46, 2, 180),  # beyond sighting: no opportunity fire
]
DICE = [6, 6, 1, 1, 3, 3, 3, 3, 5] + [10] * 20


def test_unload_buttons_fit_their_text(app):
    """(#43, trial 24) "Set A12 down behind A11" was cut off in its half-width button: the
    button says "Unload A3 behind", and its text fits the button."""
    s = small_battle(app, CARRIER, DICE, ruleset="modern-full")
    _to_movement(s)
    click_at(s, 10, 16)
    key(s, pygame.K_RETURN)
    flush(s)
    labels = {b.text: b for b, _ in s._buttons}
    assert "Unload A3 behind" in labels
    # End moves keeps the first place: the second trial's click meant for it boarded a
    # rider when an Unload or Board button had taken its place
    assert s._buttons[0][0].text == "End moves"
    button = labels["Unload A3 behind"]
    assert button.font.size("Unload A12 behind")[0] <= button.rect.width - 16  # 2-digit ids


def test_a_group_whose_stands_have_all_moved_says_end_moves(app):
    """(#43, trial 12) "Stands: none left. Click one to plot its move" once the group had
    moved (its carrier's rider may still get out, so the group stays open): the panel says
    every stand has moved and that End moves hands on the turn."""
    stands = [s for s in CARRIER if s[0] != "A1"]
    s = small_battle(app, stands, DICE, ruleset="modern-full")
    _to_movement(s)
    click_at(s, 10, 16)
    key(s, pygame.K_RETURN)  # the ordered move
    click_at(s, 10, 16)
    click_at(s, 12, 16)
    key(s, pygame.K_RETURN)  # the carrier moves 2"
    flush(s)
    assert s.battle.state.moving is not None, s._panel_text
    assert "none left" not in s._panel_text
    assert "Every stand of the group has moved: End moves (Enter)" in s._panel_text


def test_orders_left_but_every_group_moved_says_what_pass_does(app):
    """(#43, trial 20) With orders left but every group moved, the panel showed "Orders
    left: 2" and a lone Pass: it says that every group has moved and Pass ends movement."""
    stands = [("A1", "A", "M1 Abrams", 10, 12, 0), ("B1", "B", "T-80U / AT-11", 46, 2, 180)]
    s = small_battle(app, stands, DICE, ruleset="modern-full")
    _to_movement(s)
    click_at(s, 10, 12)
    key(s, pygame.K_RETURN)
    click_at(s, 10, 12)
    click_at(s, 12, 12)
    key(s, pygame.K_RETURN)
    key(s, pygame.K_RETURN)  # End moves
    for _ in range(20):
        flush(s)
        if s.battle.to_act == "A" and type(s.mode).__name__ == "AttemptMode":
            break
        if s.battle.to_act == "B":
            key(s, pygame.K_p)
        else:
            click_at(s, 5, 5)  # a hand-over curtain
    assert s.battle.state.phase == "movement" and s.battle.to_act == "A"
    assert s.battle.state.orders["A"] > 0
    assert "Every group that can move has moved or tried this phase: Pass (P)" in s._panel_text


def test_a_left_click_on_the_table_puts_the_unit_card_away(app):
    """(#43, trial 10) The unit card (right-click) stayed up after a left-click on the table;
    only Esc closed it. A left-click puts it away and still does what it does."""
    from game import Battle, load_scenario
    from game.ui.battle import BattleScreen
    from tests.helpers import ROOT

    b = Battle(load_scenario(ROOT / "maps" / "modern-skirmish.json"), 3)
    s = BattleScreen(app, b)
    app.show(s)
    a1 = b.stand("A1")
    click_at(s, a1.x, a1.y, button=3)
    assert s.info.card == "A1"
    click_at(s, a1.x + 3, a1.y)
    assert s.info.card is None


def test_a_carrier_plotted_past_half_its_allowance_warns_its_riders_stay_aboard(app):
    """(#43, trial 6) Nothing said that a carrier spending more than half its movement
    points leaves its riders unable to get out this phase: the plot says so, in red, from
    the engine's reach for a carrier that unloads (rules-decisions "Transport")."""
    stands = [st for st in CARRIER if st[0] != "A1"]
    s = small_battle(app, stands, DICE, ruleset="modern-full")
    _to_movement(s)
    click_at(s, 10, 16)
    key(s, pygame.K_RETURN)
    click_at(s, 10, 16)
    click_at(s, 12, 16)  # 2": its riders may still get out
    assert "cannot get out" not in s._panel_text
    reach = s.battle.carry_reach("A2")
    click_at(s, 12 + reach, 16)  # past half its allowance
    from game.ui.battle.movement import mp_text

    assert f"A3 cannot get out after this move: it spends {mp_text(reach + 2)} MP" in s._panel_text


@pytest.mark.parametrize(
    "cohesion, words",
    [
        (
            {"roll": 6, "mods": [], "total": 6, "level": 15, "passed": True},
            "cohesion roll 6, needs 15 or less; 2D6",
        ),
        (
            {
                "roll": 14,
                "mods": [{"why": "terrain:woods", "value": 2}],
                "total": 16,
                "level": 15,
                "passed": False,
            },
            "cohesion roll 14 + 2 (woods) = 16, needs 15 or less: misses its chance.",
        ),
    ],
)
def test_a_cohesion_roll_reads_as_words_not_a_formula(cohesion, words):
    """(#43, trial 18) "cohesion 6 = 6 <= 15" read as code to a new player: the log panel
    says what was rolled and what it needed (000 07.04)."""
    from game.ui.logwords import describe

    ev = {
        "event": "fire",
        "kind": "standard",
        "weapon": "ap",
        "attacker": "A1",
        "target": "B1",
        "cohesion": cohesion,
        "combat": {"dice": [3, 4], "mods": [], "total": 7},
        "differential": 2,
        "aspect": "front",
        "crt": "-",
        "result": "none",
    }
    text = describe(ev, {}, {})
    assert words in text and "<=" not in text and " = 6 " not in text


def test_a_refusal_shows_under_the_panel_title_in_view(app):
    """(#43, trial 8) In the WWII posture phase Enter seemed to do nothing: the refusal (the
    group's stands must be in base contact, 001 8.1.2) was written below the panel's fold.
    A refusal now sits under the panel's title, in view."""

    s, b = wwii_posture(
        app,
        [
            ("A1", "A", 10, 12, 0),
            ("A2", "A", 11, 12, 0),
            ("A4", "A", 20, 6, 0),
            ("B1", "B", 30, 12, 180),
        ],
    )
    click_at(s, 10, 12)
    click_at(s, 20, 6)  # not in base contact with A1
    key(s, pygame.K_RETURN)
    assert s.message and "001 8.1.2" in s.message, s.message
    flush(s)
    title, rest = s._panel_text.split("<br>", 1)
    assert rest.startswith("<font color='#b03010'>")  # the refusal first, under the title
    said = s.message.split()[0]
    rows = [
        row
        for row in s.panel.text_box_layout.layout_rows
        if any(said in getattr(c, "text", "") for c in row.items)
    ]
    assert rows and rows[0].bottom <= s.panel.rect.height - 8  # above the fold


def test_asked_again_in_the_posture_phase_the_panel_says_why(app):
    """(#43, trial 7) After "Done: the rest fire (P)" the player was asked again and again
    while the other side declared its groups one by one, with no word why. The sides
    alternate until both pass in a row (001 5.0 step 2): the panel now says so when a side
    that passed is asked again."""
    from tests.helpers import lift_curtain, press

    s, b = wwii_posture(
        app, [("A1", "A", 10, 12, 0), ("B1", "B", 30, 12, 180), ("B2", "B", 31, 12, 180)]
    )
    flush(s)
    assert "after you passed" not in s._panel_text
    press(s, "Pass for now")  # Blue passes, but may declare again (Done would stand)
    click_at(s, 30, 12)
    click_at(s, 31, 12)
    key(s, pygame.K_RETURN)  # Orange declares B1, B2
    lift_curtain(s)
    flush(s)
    assert b.to_act == "A" and b.state.phase == "posture"
    assert "declared a group after you passed, so you may declare again" in s._panel_text


def test_done_in_the_posture_phase_stands_for_the_rest_of_the_phase(app):
    """(#43, second trial 7: eleven presses of Done in one posture phase) Done (P) means the
    side declares no more this phase: when the other side declares a group and the side that
    said Done is asked again, the screen passes for it. Pass for now keeps the old way."""
    from tests.helpers import lift_curtain

    s, b = wwii_posture(
        app,
        [
            ("A1", "A", 10, 12, 0),
            ("B1", "B", 30, 4, 180),
            ("B2", "B", 30, 12, 180),
            ("B3", "B", 30, 20, 180),
        ],
    )
    key(s, pygame.K_p)  # Blue: Done
    for y in (4, 12):  # Orange declares one stand at a time; Blue is passed for each time
        click_at(s, 30, y)
        key(s, pygame.K_RETURN)
        lift_curtain(s)
        flush(s)
        s.update(1 / 60)
        assert b.to_act == "B", s._panel_text
        lift_curtain(s)
    blue = [e for e in b.log.events if e["event"] == "pass" and e["side"] == "A"]
    assert len(blue) >= 3 and b.state.phase == "posture"
    key(s, pygame.K_p)  # Orange done too: both passed in a row, the phase ends
    assert b.state.phase != "posture"
