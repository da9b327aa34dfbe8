"""The fire procedure through the engine, with fixed dice (000 07.00-07.08)."""

from __future__ import annotations

import pytest

from game.rules.actions import ChooseFirst, Fire, Pass
from game.rules.battle import IllegalAction
from game.rules.files.log import check_log
from tests.conftest import battle
from tests.helpers import to_fire2

M1A2, T80, T72, T62 = "M1A2 Abrams", "T-80U / AT-11", "T-72", "T-62"


def fire_line(events):
    return [e for e in events if e["event"] == "fire"]


# (case, rule, A's unit, B's unit, B at (x, y, facing), terrain, dice after initiative,
#  expected fields of the fire line)
FIRE_CASES = [
    (
        "front shot, range band 10 at TL3: +0",
        "000 07.04, 07.08.02",
        T72,
        M1A2,
        (20, 12, 180),
        [],
        [9, 3, 4],
        {
            "cohesion": (9, [], 9, True),
            "defense": 20,
            "differential": -1,
            "aspect": "front",
            "combat": ([3, 4], [("range", 0)], 7),
            "crt": "S",
            "result": "S",
        },
    ),
    (
        "flank shot halves armour, rounded up",
        "000 07.08.01",
        T72,
        M1A2,
        (20, 12, 90),
        [],
        [9, 3, 4],
        {"defense": 10, "differential": 9, "aspect": "flank", "crt": "E", "result": "E"},
    ),
    (
        "rear shot is flank too",
        "000 07.08.01",
        T72,
        M1A2,
        (20, 12, 0),
        [],
        [9, 2, 2],
        {"defense": 10, "differential": 9, "combat": ([2, 2], [("range", 0)], 4), "crt": "E"},
    ),
    (
        "range 21 at TL3 is +2",
        "000 Range Effect Chart",
        T72,
        T72,
        (31, 12, 180),
        [],
        [5, 4, 4],
        {
            "range_band_in": 21,
            "differential": 4,
            "combat": ([4, 4], [("range", 2)], 10),
            "crt": "(S)",
            "result": "S",
        },
    ),
    (
        "range 11 at TL3 is +1",
        "000 Range Effect Chart",
        T72,
        T72,
        (20.5, 12, 180),
        [],
        [5, 2, 3],
        {"range_band_in": 11, "combat": ([2, 3], [("range", 1)], 6), "crt": "D", "result": "D"},
    ),
    (
        "target in woods: +2 to cohesion and combat",
        "000 07.01.03, 002 chart",
        T72,
        T72,
        (20, 12, 180),
        [("woods", (19.6, 10, 24, 14))],
        [13, 3, 3],
        {
            "cohesion": (13, [("terrain:woods", 2)], 15, True),
            "combat": ([3, 3], [("range", 0), ("terrain:woods", 2)], 8),
            "crt": "D",
        },
    ),
    (
        "failed cohesion: no combat roll",
        "000 04.00",
        T72,
        T72,
        (20, 12, 180),
        [("woods", (19.6, 10, 24, 14))],
        [14],
        {"cohesion": (14, [("terrain:woods", 2)], 16, False)},
    ),
    (
        "natural 1 always passes",
        "002 card: natural 1",
        T72,
        T72,
        (20, 12, 180),
        [("heavy_buildings", (19.6, 10, 24, 14))],
        [1, 1, 1],
        {"cohesion": (1, [("terrain:heavy_buildings", 4)], 5, True)},
    ),
    (
        "natural 20 always fails",
        "002 card: natural 20",
        T72,
        T72,
        (20, 12, 180),
        [],
        [20],
        {"cohesion": (20, [], 20, False)},
    ),
    (
        "terrain adds up: grove inside woods",
        "002 chart: all effects cumulative",
        T72,
        T72,
        (20, 12, 180),
        [("woods", (19.6, 10, 24, 14)), ("grove", (19.7, 11, 21, 13))],
        [2, 3, 3],
        {"cohesion": (2, [("terrain:grove", 1), ("terrain:woods", 2)], 5, True)},
    ),
    (
        "hilltop +2 when the target stands higher",
        "002 chart hilltop, RD Hills",
        T72,
        T72,
        (20, 12, 180),
        [("hill", (17, 9, 23, 15), 1)],
        [2, 3, 3],
        {
            "cohesion": (2, [("hilltop", 2)], 4, True),
            "combat": ([3, 3], [("range", 0), ("hilltop", 2)], 8),
        },
    ),
    (
        "modified roll clamped to 19",
        "000 CRT: modified rolls never exceed 19",
        T72,
        T72,
        (20, 12, 180),
        [("heavy_buildings", (19.6, 10, 24, 14))] * 4,
        [1, 6, 6],
        {"combat": ([6, 6], [("range", 0)] + [("terrain:heavy_buildings", 4)] * 4, 19)},
    ),
]


@pytest.mark.parametrize(
    ("a_unit", "b_unit", "b_pos", "terrain", "dice", "want"),
    [c[2:] for c in FIRE_CASES],
    ids=[f"{c[1]}: {c[0]}" for c in FIRE_CASES],
)
def test_standard_fire(a_unit, b_unit, b_pos, terrain, dice, want):
    b = to_fire2(
        battle([("A1", "A", a_unit, 10, 12, 0), ("B1", "B", b_unit, *b_pos)], dice, terrain)
    )
    events = b.apply(Fire("A", "B1", ("A1",), ("cannon",)))
    (ev,) = fire_line(events)
    assert b.dice.left == 0  # exactly the dice the rules call for
    for key, value in want.items():
        if key == "cohesion":
            roll, mods, total, passed = value
            assert ev["cohesion"] == {
                "roll": roll,
                "mods": [{"why": w, "value": v} for w, v in mods],
                "total": total,
                "level": 15,
                "passed": passed,
            }
        elif key == "combat":
            d, mods, total = value
            assert ev["combat"] == {
                "dice": d,
                "mods": [{"why": w, "value": v} for w, v in mods],
                "total": total,
            }
        else:
            assert ev[key] == value, key
    assert (
        check_log(
            b.log.events
            + [
                {
                    "seq": len(b.log.events),
                    "event": "end",
                    "turn": 1,
                    "phase": "end",
                    "winner": None,
                    "reason": "",
                    "losses": {},
                }
            ]
        )
        == []
    )


# --- results (000 07.05-07.06) -------------------------------------------------------------


def _shoot(b, dice_note=""):
    return fire_line(b.apply(Fire("A", "B1", ("A1",), ("cannon",))))[0]


@pytest.mark.parametrize(
    ("before", "dice", "crt", "after"),
    [
        ((False, False), [5, 6, 6], "S", {"S": True, "D": False, "eliminated": False}),
        ((True, False), [5, 6, 6], "S", {"S": True, "D": False, "eliminated": False}),
        ((False, False), [5, 5, 5], "(S)", {"S": True, "D": False, "eliminated": False}),
        ((True, False), [5, 5, 5], "(S)", {"S": True, "D": True, "eliminated": False}),
        ((True, True), [5, 5, 5], "(S)", {"S": True, "D": True, "eliminated": True}),
        ((False, False), [5, 3, 4], "D", {"S": False, "D": True, "eliminated": False}),
        ((False, True), [5, 3, 4], "D", {"S": False, "D": True, "eliminated": True}),
        ((False, False), [5, 1, 1], "E", {"S": False, "D": False, "eliminated": True}),
    ],
    ids=[
        "S",
        "S on S stays S",
        "(S) is S",
        "(S) on S is D",
        "(S) on S+D eliminates",
        "D",
        "D on D eliminates",
        "E",
    ],
)
def test_combat_results(before, dice, crt, after):
    """000 07.05, 07.06.01-04 (differential +4 at range band 10: T-72 19 vs T-72 15; in that
    column 12 is S, 10-11 (S), 6-9 D, 5 or less E)."""
    b = to_fire2(battle([("A1", "A", T72, 10, 12, 0), ("B1", "B", T72, 20, 12, 180)], dice))
    b.stand("B1").S, b.stand("B1").D = before
    ev = _shoot(b)
    assert ev["crt"] == crt
    assert ev["target_markers_after"] == after
    if after["eliminated"]:
        assert [w.stand for w in b.state.wrecks] == ["B1"]  # a wreck stays (000 09.01)


def test_differential_above_9_always_eliminates_modern():
    """000 CRT: attacks greater than +9 eliminate (M1A2 25 vs T-62 flank 7 = +18)."""
    b = battle([("A1", "A", M1A2, 10, 12, 0), ("B1", "B", T62, 20, 12, 90)], [5, 6, 6])
    b.apply(ChooseFirst("A", "A"))
    ev = fire_line(b.apply(Fire("A", "B1", ("A1",), ("cannon",))))[0]
    assert ev["differential"] == 18 and ev["combat"]["total"] == 12 and ev["crt"] == "E"


def test_attack_below_minus_3_is_refused():
    """RD: below -3 a direct-fire attack is not allowed (T-62 17 vs M1A2 front 20 is -3: ok;
    PT-76 9 vs 20 is -11: refused)."""
    b = to_fire2(
        battle(
            [
                ("A1", "A", "PT-76", 10, 12, 0),
                ("A2", "A", T62, 10, 14, 0),
                ("B1", "B", M1A2, 20, 12, 180),
            ],
            [5, 3, 3],
        )
    )
    with pytest.raises(IllegalAction, match="below -3"):
        b.apply(Fire("A", "B1", ("A1",), ("cannon",)))
    ev = fire_line(b.apply(Fire("A", "B1", ("A2",), ("cannon",))))[0]
    assert ev["differential"] == -3


# --- who may fire, and when (000 05.00, 07.02.03) ------------------------------------------


def test_first_fire_phase_is_tl4_only():
    b = battle(
        [("A1", "A", T72, 10, 12, 0), ("A2", "A", M1A2, 10, 14, 0), ("B1", "B", T72, 20, 12, 180)],
        [5, 3, 3],
    )
    b.apply(ChooseFirst("A", "A"))
    with pytest.raises(IllegalAction, match="may not fire in this phase"):
        b.apply(Fire("A", "B1", ("A1",), ("cannon",)))
    b.apply(Fire("A", "B1", ("A2",), ("cannon",)))


def test_tl4_fires_in_both_phases_tl3_once():
    b = battle(
        [
            ("A1", "A", T72, 10, 12, 0),
            ("A2", "A", M1A2, 10, 14, 0),
            ("B1", "B", T72, 20, 12, 180),
            ("B2", "B", T72, 20, 16, 180),
        ],
        [20, 20, 20],
    )  # every shot fails its cohesion: nothing changes but the markers
    b.apply(ChooseFirst("A", "A"))
    b.apply(Fire("A", "B1", ("A2",), ("cannon",)))  # TL4 in fire 1
    b.apply(Pass("B"))
    b.apply(Pass("A"))
    b.apply(ChooseFirst("A", "A"))
    b.apply(Fire("A", "B2", ("A1", "A2"), ("cannon", "cannon")))  # both in fire 2
    assert b.stand("A2").fire_attempts == 2 and b.stand("A1").fire_attempts == 1
    assert not b.rules.fire.may_fire_in(b.stand("A1"), "fire2")
    # what the AI plans with: as many shots a turn as the stands just took
    assert b.rules.fire.shots_per_turn(b.stand("A2")) == 2
    assert b.rules.fire.shots_per_turn(b.stand("A1")) == 1


def test_a_stand_is_attacked_once_per_fire_phase():
    b = to_fire2(
        battle(
            [
                ("A1", "A", T72, 10, 12, 0),
                ("A2", "A", T72, 10, 14, 0),
                ("B1", "B", T72, 20, 12, 180),
            ],
            [20],
        )
    )
    b.apply(Fire("A", "B1", ("A1",), ("cannon",)))
    b.apply(Pass("B"))
    with pytest.raises(IllegalAction, match="already been attacked in this phase"):
        b.apply(Fire("A", "B1", ("A2",), ("cannon",)))


def test_sides_alternate_and_the_initiative_side_chooses():
    b = battle([("A1", "A", M1A2, 10, 12, 0), ("B1", "B", M1A2, 20, 12, 180)], [20, 20])
    with pytest.raises(IllegalAction, match="turn to act"):
        b.apply(ChooseFirst("B", "B"))
    b.apply(ChooseFirst("A", "B"))  # A has the initiative and lets B go first
    assert b.to_act == "B"
    b.apply(Fire("B", "A1", ("B1",), ("cannon",)))
    assert b.to_act == "A"
    with pytest.raises(IllegalAction, match="turn to act"):
        b.apply(Pass("B"))


def test_no_line_of_sight_through_woods_no_attack():
    b = to_fire2(
        battle(
            [("A1", "A", T72, 10, 12, 0), ("B1", "B", T72, 20, 12, 180)],
            [],
            [("woods", (14, 8, 16, 16))],
        )
    )
    with pytest.raises(IllegalAction, match="no line of sight"):
        b.apply(Fire("A", "B1", ("A1",), ("cannon",)))


def test_maximum_range():
    """000 07.08.05: T-72 cannon 25"; 25.0 is in range, 25.1 (band 26) is not."""
    b = to_fire2(
        battle(
            [
                ("A1", "A", T72, 10, 12, 0),
                ("B1", "B", T72, 35.1, 12, 180),
                ("B2", "B", T72, 35, 16, 180),
                ("A2", "A", T72, 10, 16, 0),
            ],
            [5, 3, 3],
        )
    )
    with pytest.raises(IllegalAction, match="beyond"):
        b.apply(Fire("A", "B1", ("A1",), ("cannon",)))
    b.apply(Fire("A", "B2", ("A2",), ("cannon",)))


def test_engaged_stands_fire_only_at_their_enemy():
    """000 07.08.04: A1 is nose to nose with B1, so it may not fire at B2."""
    b = to_fire2(
        battle(
            [
                ("A1", "A", T72, 10, 12, 0),
                ("B1", "B", T72, 11, 12, 180),
                ("B2", "B", T72, 15, 16, 180),
            ],
            [5, 3, 3],
        )
    )
    assert b.engaged_with("A1") == {"B1"}
    with pytest.raises(IllegalAction, match="engaged"):
        b.apply(Fire("A", "B2", ("A1",), ("cannon",)))
    ev = fire_line(b.apply(Fire("A", "B1", ("A1",), ("cannon",))))[0]
    assert ev["range_band_in"] == 1 and ev["combat"]["mods"] == [{"why": "range", "value": -1}]


def _b1_in_woods_has_fired():
    """A1 and B1 (M1A2) 10" apart on the flat, B1 just inside a wood; B1 fires first (and
    misses), then it is A's turn to attack."""
    b = battle(
        [("A1", "A", M1A2, 10, 12, 0), ("B1", "B", M1A2, 20, 12, 180)],
        [20, 9, 3, 3],
        [("woods", (19.6, 10, 24, 14))],
    )
    b.apply(ChooseFirst("A", "B"))
    b.apply(Fire("B", "A1", ("B1",), ("cannon",)))  # B1 fires (and misses)
    return b


def test_cohesion_ignores_the_terrain_of_a_target_that_has_fired():
    """000 07.01.03: B1 in woods fires first; then A's cohesion roll loses the woods, the
    combat roll keeps it."""
    b = _b1_in_woods_has_fired()
    ev = fire_line(b.apply(Fire("A", "B1", ("A1",), ("cannon",))))[0]
    assert ev["cohesion"]["mods"] == []
    assert {"why": "terrain:woods", "value": 2} in ev["combat"]["mods"]


@pytest.mark.parametrize(
    ("kind", "next_turn", "cohesion_mods"),
    [
        ("standard", False, []),  # this turn: B1 has fired, its woods are lost (000 07.01.03)
        ("planning", False, []),
        ("planning", True, [("terrain:woods", 2)]),  # next turn its fired marker is off (07.07)
    ],
)
def test_a_shot_planned_for_next_turn_counts_the_cover_of_a_target_that_fired_now(
    kind, next_turn, cohesion_mods
):
    """000 07.01.03 and 07.07: a target that has tried to fire loses its terrain for the
    firing cohesion roll only until marker removal; a planning setup for the next turn keeps
    it. The combat roll keeps the woods throughout."""
    b = _b1_in_woods_has_fired()
    fs = b.fire_setup("A1", "B1", "cannon", kind, next_turn=next_turn)
    assert fs.legal
    assert list(fs.cohesion_mods) == cohesion_mods
    assert ("terrain:woods", 2) in fs.combat_mods


def test_only_a_planning_setup_may_look_at_the_next_turn():
    """A real shot is always of this turn: ``next_turn`` on one is a programming error."""
    b = battle([("A1", "A", M1A2, 10, 12, 0), ("B1", "B", M1A2, 20, 12, 180)], [20, 9])
    with pytest.raises(ValueError, match="planning only"):
        b.fire_setup("A1", "B1", "cannon", "standard", next_turn=True)


def test_attackers_fire_one_by_one_and_stop_when_the_target_is_gone():
    """000 07.02.01: each stand fires on its own; once the target is eliminated the rest of
    the attack holds its fire (and keeps its shot)."""
    b = to_fire2(
        battle(
            [
                ("A1", "A", T72, 10, 12, 0),
                ("A2", "A", T72, 10, 14, 0),
                ("A3", "A", T72, 10, 16, 0),
                ("B1", "B", T72, 20, 14, 180),
            ],
            [5, 3, 4, 5, 1, 1],
        )
    )
    evs = fire_line(b.apply(Fire("A", "B1", ("A1", "A2", "A3"), ("cannon",) * 3)))
    assert [e["attacker"] for e in evs] == ["A1", "A2"]
    assert len({e["attack"] for e in evs}) == 1
    assert evs[-1]["result"] == "E"
    assert b.stand("A3").fire_attempts == 0


# --- ATGMs (000 07.03) ----------------------------------------------------------------------


def test_atgm_penalty_no_range_effect_and_depletion():
    """T-80U / AT-11 is TL3: +2 to cohesion; no range modifier; natural 2D6 of 3 or less
    depletes it (depletion number 3)."""
    b = to_fire2(battle([("A1", "A", T80, 10, 12, 0), ("B1", "B", T72, 35, 12, 180)], [10, 1, 2]))
    ev = fire_line(b.apply(Fire("A", "B1", ("A1",), ("atgm",))))[0]
    assert ev["cohesion"]["mods"] == [{"why": "atgm", "value": 2}]
    assert ev["combat"]["mods"] == [] and ev["firepower"] == 20
    assert ev["depleted"] is True and b.stand("A1").depleted


def test_atgm_not_depleted_above_its_number():
    b = to_fire2(battle([("A1", "A", T80, 10, 12, 0), ("B1", "B", T72, 35, 12, 180)], [10, 2, 2]))
    ev = fire_line(b.apply(Fire("A", "B1", ("A1",), ("atgm",))))[0]
    assert ev["depleted"] is False and not b.stand("A1").depleted


def test_atgm_minimum_range_and_depleted_stands():
    b = to_fire2(battle([("A1", "A", T80, 10, 12, 0), ("B1", "B", T72, 13, 12, 180)], []))
    with pytest.raises(IllegalAction, match="minimum range"):
        b.apply(Fire("A", "B1", ("A1",), ("atgm",)))
    b.stand("A1").depleted = True
    with pytest.raises(IllegalAction, match="used up"):
        b.apply(Fire("A", "B1", ("A1",), ("atgm",)))


def test_atgm_reaches_beyond_the_cannon():
    b = to_fire2(
        battle(
            [("A1", "A", T80, 5, 12, 0), ("B1", "B", T72, 40, 12, 180)],
            [5, 3, 3],
            width=60,
            sighting=50,
        )
    )
    with pytest.raises(IllegalAction, match="beyond"):
        b.apply(Fire("A", "B1", ("A1",), ("cannon",)))
    b.apply(Fire("A", "B1", ("A1",), ("atgm",)))


# --- odds (before rolling) -------------------------------------------------------------------


def test_odds_match_hand_calculation():
    """T-72 at T-72, band 10, differential +4, cohesion 15, no modifiers: fires on 1-15 (75%);
    then column +4 gives E on 2-5 (10 ways in 36), D on 6-9 (20), (S) on 10-11 (5), S on 12."""
    b = to_fire2(battle([("A1", "A", T72, 10, 12, 0), ("B1", "B", T72, 20, 12, 180)], []))
    odds = b.odds(["A1"], "B1")
    (shot,) = odds["shots"]
    assert shot["p_fire"] == pytest.approx(15 / 20)
    crt = b.crt
    ways = {}
    for a in range(1, 7):
        for c in range(1, 7):
            ways[crt.lookup(4, a + c)] = ways.get(crt.lookup(4, a + c), 0) + 1
    assert ways == {"E": 10, "D": 20, "(S)": 5, "S": 1}
    assert shot["E"] == pytest.approx(0.75 * 10 / 36)
    assert shot["D"] == pytest.approx(0.75 * 20 / 36)
    assert shot["S"] == pytest.approx(0.75 * 6 / 36)  # (S) on an unsuppressed stand is S
    assert shot["none"] == pytest.approx(0.25)
    assert sum(odds["final"].values()) == pytest.approx(1.0)
    assert odds["p_eliminated"] == pytest.approx(shot["E"])


def test_odds_of_two_shots_chain_the_markers():
    b = to_fire2(
        battle(
            [
                ("A1", "A", T72, 10, 12, 0),
                ("A2", "A", T72, 10, 14, 0),
                ("B1", "B", T72, 20, 13, 180),
            ],
            [],
        )
    )
    one = b.odds(["A1"], "B1")["p_eliminated"]
    two = b.odds(["A1", "A2"], "B1")
    assert two["p_eliminated"] > one
    assert sum(two["final"].values()) == pytest.approx(1.0)
    assert [s["attacker"] for s in two["shots"]] == ["A1", "A2"]


@pytest.mark.parametrize(
    ("tx", "ty", "on_wreck"),
    [
        (20.0, 12.0, True),  # centre on the wreck's centre
        (20.45, 12.45, True),  # inside the footprint, near its corner
        (20.55, 12.0, False),  # just past its edge
        (20.4, 12.6, False),  # past the edge, though within the footprint's reach
        (30.0, 12.0, False),
    ],
)
def test_a_target_whose_centre_is_on_a_wreck_gets_plus_one(tx, ty, on_wreck):
    """Wreck +1 to the combat roll when the target's centre is on a wreck's footprint
    (000 09.01; docs/rules.md, Fire)."""
    from game.rules.state import Wreck
    from game.rules.table.geometry import StandPose

    b = battle([("A1", "A", "T-72", 5, 12, 0), ("B1", "B", "T-72", 35, 12, 180)], [])
    b.state.wrecks.append(Wreck("X9", 20.0, 12.0, 0.0))
    mods = b.target_terrain_mods(b.stand("A1").pose(), StandPose("B1", "B", tx, ty, 180.0))
    assert (("wreck", 1) in mods) == on_wreck
