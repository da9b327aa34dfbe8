"""Wehrmacht '47 (ruleset ``wwii-47``, the 004 card; rules-decisions "The full games" and
"Wehrmacht '47 tech levels"), through the engine with fixed dice. Each case names its rule
and was worked by hand: the dice, the modifiers, the CRT cell."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from game.rules.actions import (
    ChooseFirst,
    CloseAssault,
    DeclareGroup,
    Fire,
    LetPass,
    Move,
    MoveAttempt,
    Pass,
)
from game.rules.battle import Battle, IllegalAction
from game.rules.charts.data import load_rules_data
from game.rules.dice import FixedDice
from game.rules.files.log import check_log_line
from game.rules.files.scenario import parse_scenario
from game.rules.rulesets import ruleset
from tests.conftest import scenario_dict

Wwii47Rules = ruleset("wwii-47")

DATA = load_rules_data()
UNITS = DATA.units_for("wwii-47")
PERSHING, TIGER2, SHERMAN = 'M26 "Pershing"', "Pz VIB", 'M4 "Sherman"'


def events(b, name):
    return [e for e in b.log.events if e["event"] == name]


def battle47(stands, dice, movers=(), terrain=()):
    """A Wehrmacht '47 battle through set-up, the initiative (A 6 + 15 against B 1 + 15),
    and the posture phase: A declares each group of ``movers`` (a tuple of stand ids) in
    the movement posture, B none. Stops at the joint standard fire phase; ``dice`` follow."""
    d = scenario_dict(stands, terrain, generation=(None, None), sighting=20, ruleset="wwii-47")
    b = Battle(parse_scenario(d, "test.json"), 0, dice=FixedDice([6, 1, *dice]), auto_pass=False)
    b.apply(Pass("A"))
    b.apply(Pass("B"))
    assert b.state.phase == "posture" and b.state.initiative == "A"
    b.apply(ChooseFirst("A", "A"))
    for group in movers:
        b.apply(DeclareGroup("A", tuple(group)))
        b.apply(Pass("B"))
    b.apply(Pass("A"))
    if b.state.phase == "posture":
        b.apply(Pass("B"))
    assert b.state.phase == "fire", b.state.phase
    return b


def to_movement(b):
    """Both sides pass the fire phase; the movement phase begins with A acting first (the
    orders' dice are the next four)."""
    b.apply(ChooseFirst("A", "A"))
    b.apply(Pass("A"))
    b.apply(Pass("B"))
    assert b.state.phase == "movement"
    b.apply(ChooseFirst("A", "A"))


# ------------------------------------------------------------------ data and the sequence


def test_tech_levels_are_the_rulings_house_assignment():
    """RD "Wehrmacht '47 tech levels": the 1945-and-after designs TL2, the rest TL1; the
    001 rows keep their AP and HE values and ranges."""
    tl2 = {n for n, u in UNITS.items() if n in DATA.wwii_tanks and u.tech_level == 2}
    assert tl2 == {
        "Pz VIB",
        "Maus (128mm Gun)",
        "E-100",
        'JS-III "Pike"',
        PERSHING,
        "Comet",
        'M4A3E8 "Sherman Easy-Eight"',
    }
    p, row = UNITS[PERSHING], DATA.wwii_tanks[PERSHING]
    assert (p.ap_attack, p.he_attack, p.ap_range, p.he_range, p.defense, p.speed) == (
        row.ap_firepower,
        row.he_firepower,
        row.ap_range,
        row.he_range,
        row.defense,
        row.speed,
    )
    assert not p.house and UNITS["Pioniere"].house and UNITS["Pioniere"].personnel
    assert UNITS["Flak 36 (88 mm)"].flags >= {"aa", "aa_heavy"}
    assert UNITS["SdKfz 251 Halftrack"].carrier == 1


def test_the_turn_of_wehrmacht_47():
    """004 sequence of play: initiative, posture, joint artillery, joint standard fire,
    joint plot, movement, marker removal."""
    assert [p.name for p in Wwii47Rules.turn] == [
        "initiative",
        "posture",
        "artillery",
        "fire",
        "plot",
        "movement",
        "marker_removal",
    ]


def _stand(tl, posture, attempts=0, speed=10):
    unit = SimpleNamespace(speed=speed)
    return SimpleNamespace(
        tech_level=tl,
        posture=posture,
        fire_attempts=attempts,
        unit=unit,
        loaded=False,
        aa_fired=False,
    )


@pytest.mark.parametrize(
    ("tl", "posture", "attempts", "may"),
    [
        (1, "firing", 0, True),  # 004 step 2: TL1 fires or moves
        (1, "movement", 0, False),
        (2, "movement", 0, True),  # only TL2 may both move and fire
        (2, "firing", 0, True),
        (2, "movement", 1, False),  # once a turn
        (1, "firing", 1, False),
    ],
)
def test_who_fires_in_the_joint_standard_fire_phase(tl, posture, attempts, may):
    assert Wwii47Rules.fire.may_fire_in(_stand(tl, posture, attempts), "fire") is may


@pytest.mark.parametrize(
    ("speed", "fired", "mp"),
    [(10, 1, 5.0), (15, 1, 7.5), (8, 1, 4.0), (10, 0, 10.0)],  # Pershing, Comet, Tiger II
)
def test_a_tl2_stand_that_fired_moves_half_rounded_up_to_the_half_inch(speed, fired, mp):
    """004 step 6: TL2 stands that fired use up to 50% of their allowance (rounded up)."""
    assert Wwii47Rules.movement.movement_points(_stand(2, "movement", fired, speed)) == mp


@pytest.mark.parametrize(
    ("tl", "range_in", "mod"),
    [
        (2, 8, 0),  # 004 TL2 chart: 8" bands
        (2, 16, 1),
        (2, 24, 2),
        (2, 25, 3),  # then +1 for each further 8"
        (2, 32, 3),
        (2, 33, 4),
        (1, 16, 3),  # TL1 as 001: 5" bands, +1 each further 5"
    ],
)
def test_the_range_chart_of_the_firers_tech_level(tl, range_in, mod):
    assert DATA.range_chart("wwii-47", tl).modifier(range_in) == mod


def test_a_tl2_pershing_fires_on_the_move_then_moves_half():
    """004 steps 2, 4, 6: a Pershing declared in the movement posture fires (TL2 chart: 18"
    is the 24" band, +2) and then may move only 5" of its 10."""
    b = battle47(
        [("A1", "A", PERSHING, 10, 12, 0), ("B1", "B", TIGER2, 28, 12, 180)],
        [10, 6, 6, 3, 4, 3, 4, 5],
        movers=(("A1",),),
    )
    fs = b.fire_setup("A1", "B1")
    assert fs.legal and ("range", 2) in fs.combat_mods
    b.apply(ChooseFirst("A", "A"))
    b.apply(Fire("A", "B1", ("A1",), ("cannon",)))
    b.apply(Pass("B"))
    b.apply(Pass("A"))
    assert b.state.phase == "movement"
    b.apply(ChooseFirst("A", "A"))
    b.apply(MoveAttempt("A", "M1", True))
    walk = b.preview_move("A1", ((10, 12), (10, 4)))
    assert walk.mp_spent == pytest.approx(5.0) and walk.points[-1] == pytest.approx((10, 7))


def test_a_second_standard_attack_on_one_target_in_one_fire_phase_is_refused():
    """004 step 4: a stand is the target of one standard attack per fire phase."""
    b = battle47(
        [
            ("A1", "A", SHERMAN, 10, 12, 0),
            ("A2", "A", SHERMAN, 10, 14, 0),
            ("B1", "B", SHERMAN, 20, 13, 180),
        ],
        [20],
    )
    b.apply(ChooseFirst("A", "A"))
    b.apply(Fire("A", "B1", ("A1",), ("cannon",)))  # A1 rolls 20: no shot, but attacked
    b.apply(Pass("B"))
    assert "already been attacked in this fire phase" in b.fire_setup("A2", "B1").reason
    with pytest.raises(IllegalAction):
        b.apply(Fire("A", "B1", ("A2",), ("cannon",)))


# ------------------------------------------------------------------ close assault (004 8.7)


def _assault(extra=(), dice=(6, 6), before=None, unit="US Combat Engineers", target=None):
    """US Combat Engineers (movement posture) move into base contact with the front of a
    Tiger II (firing posture), which lets the move pass; they close-assault it. The
    Tiger rolls 20 and fails (no reply); the engineers roll 5 and attack: AP 10 against
    armour 13 at 50% = 7 whatever the aspect: +3; 2D6 ``dice`` - 3 (assault) - 3
    (engineer) - 1 (the 0" range: the 1" band of the TL1 chart)."""
    b = battle47(
        [
            ("A1", "A", unit, 10, 12, 0),
            ("B1", "B", target or TIGER2, 12.5, 12, 180),
            *extra,
        ],
        [3, 4, 3, 4, 5, 20, 5, *dice],
        movers=(("A1",),),
    )
    to_movement(b)
    b.apply(MoveAttempt("A", "M1", True))
    b.apply(Move("A", "A1", ((10, 12), (11.5, 12)), 0.0))
    if b.decision().kind == "opportunity_fire":
        b.apply(LetPass("B"))
    assert b.decision().kind == "close_assault"
    if before is not None:
        before(b)
    b.apply(CloseAssault("A", "B1"))
    (line,) = events(b, "close_assault")
    return b, line


@pytest.mark.parametrize(
    ("extra", "room"), [((), True), ((("B2", "B", TIGER2, 14.2, 12, 180),), False)]
)
def test_the_close_assault_odds_say_whether_the_defender_can_fall_back(extra, room):
    """004 step 5 before the assault: the odds tell whether a defender left disorganized has
    room to fall back 1" (else it is eliminated), as the assault then plays it."""
    seen = {}
    b, line = _assault(extra=extra, before=lambda b: seen.update(b.close_assault_odds("B1")))
    assert seen["retreat_room"] is room
    assert (len(line["retreat"]) == 2) is room


def test_engineers_close_assault_a_tiger_ii_at_half_armour_and_it_falls_back():
    """2D6 6 + 6 - 7 = 5: row 5, column +3 = D; the Tiger II, disorganized, moves 1"
    directly away from the engineers (004 close assault step 5)."""
    b, line = _assault()
    (attack,) = line["assaulter_attacks"]
    assert [m["why"] for m in attack["combat"]["mods"]] == ["close_assault", "engineer", "range"]
    assert (attack["defense_base"], attack["defense"], attack["differential"]) == (13, 7, 3)
    assert (attack["combat"]["total"], attack["crt"], attack["result"]) == (5, "D", "D")
    assert line["defender_attack"] is None and line["retreat"] == [[12.5, 12], [13.5, 12]]
    t = b.state.stands["B1"]
    assert t.D and not t.eliminated and (t.x, t.y) == (13.5, 12)
    assert [p for i, ev in enumerate(b.log.events) for p in check_log_line(ev, i)] == []


def test_a_disorganized_defender_that_cannot_fall_back_is_eliminated():
    """004 step 5: a stand right behind the Tiger leaves it no room: eliminated."""
    b, line = _assault(extra=[("B2", "B", TIGER2, 14.2, 12, 180)])
    assert line["retreat"] == [[12.5, 12]]
    assert b.state.stands["B1"].eliminated


@pytest.mark.parametrize(
    ("unit", "target", "mods", "differential", "total", "result"),
    [
        # HE 6 doubled (cavalry, against a defender that is not armoured) - defence 4 = +8;
        # 12 - 3 - 1 = 8: row 8, column +8 = E
        ("Cossack Cavalry", "Panzergrenadiers", ["close_assault", "range"], 8, 8, "E"),
        # against armour not doubled: AP 4 - 13 at 50% (7) = -3; row 8, column -3 = "-"
        ("Cossack Cavalry", TIGER2, ["close_assault", "range"], -3, 8, "none"),
        # type S: a further -3 as engineers (002 8.7; house reading for 004): AP 8 - 7 = +1;
        # 12 - 3 - 3 - 1 = 5: row 5, column +1 = D
        ("Fallschirmjaeger", TIGER2, ["close_assault", "engineer", "range"], 1, 5, "D"),
    ],
)
def test_cavalry_and_type_s_infantry_close_assault(unit, target, mods, differential, total, result):
    """004 close assault notes with the house rows of wwii_support.csv: cavalry's firepower
    doubles except against armour (and no -3 for it, unlike 002), type S infantry take the
    engineers' further -3. The defender in the firing posture rolls 20 and fails; the
    assaulter rolls 5 and attacks with 2D6 6 + 6."""
    b, line = _assault(unit=unit, target=target)
    (attack,) = line["assaulter_attacks"]
    assert [m["why"] for m in attack["combat"]["mods"]] == mods
    assert attack["differential"] == differential
    assert (attack["combat"]["total"], attack["result"]) == (total, result)
