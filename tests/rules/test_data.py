"""The rules data files against a second reading of the seed tables.

The tables below were typed again from the seed texts, in a different layout from the data files
(tuples here, CSV/TOML there), so that a slip in either shows as a failure.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.rules.charts.data import DataError, load_rules_data
from tests.helpers import _copy_data

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
DATA = load_rules_data()

# 000 tank data table: points, TL, cannon attack, cannon range, defence, speed, ATGM
# (attack, range, min range, depletion) or None.
MODERN = {
    "PT-76": (98, 2, 9, 20, 4, 12, None),
    "T55A": (151, 2, 15, 20, 14, 12, None),
    "T55M": (268, 3, 17, 30, 15, 12, None),
    "T55M / AT-10": (335, 3, 17, 30, 15, 12, (20, 40, 4, 4)),
    "T-62": (149, 2, 17, 20, 14, 16, None),
    "T-62M / AT-10": (336, 3, 18, 20, 14, 16, (20, 40, 4, 3)),
    "T-72": (274, 3, 19, 25, 15, 20, None),
    "T-72B / AT-11": (415, 3, 19, 25, 15, 20, (20, 50, 4, 3)),
    "T-74": (308, 3, 20, 30, 15, 20, None),
    "T-80 / AT-8": (408, 3, 20, 30, 16, 18, (20, 50, 5, 3)),
    "T-80 (Reactive) / AT-8": (411, 3, 20, 30, 17, 18, (20, 50, 5, 3)),
    "T-80U / AT-8": (414, 3, 20, 30, 18, 18, (20, 50, 5, 3)),
    "T-80U / AT-11": (427, 3, 20, 30, 18, 18, (20, 50, 4, 3)),
    "T-90 / AT-12": (563, 4, 23, 40, 20, 16, (21, 50, 4, 3)),
    "Type 59": (149, 2, 15, 20, 13, 12, None),
    "Type 69": (253, 3, 16, 30, 13, 12, None),
    "Type 69I": (259, 3, 16, 30, 15, 12, None),
    "Type 98": (439, 4, 21, 35, 18, 16, None),
    "Chieftain Mk5": (317, 3, 18, 35, 16, 12, None),
    "Challenger": (354, 3, 20, 35, 18, 14, None),
    "Challenger MkII": (552, 4, 25, 40, 20, 14, None),
    "Leopard-I": (223, 2, 17, 30, 14, 16, None),
    "Leopard-II": (331, 3, 22, 30, 18, 16, None),
    "Leopard-IIA6": (548, 4, 25, 40, 18, 18, None),
    "AMX-30/B2": (279, 3, 18, 30, 15, 18, None),
    "Le Clerc": (552, 4, 25, 40, 19, 18, None),
    "Centurion Mk13": (229, 2, 18, 30, 15, 10, None),
    "Panturion": (279, 3, 18, 30, 16, 12, None),
    "Merkava": (279, 3, 18, 30, 16, 12, None),
    "M48A5": (271, 3, 18, 30, 13, 12, None),
    "M60A1": (230, 2, 18, 30, 15, 12, None),
    "M60A3": (279, 3, 18, 30, 16, 12, None),
    "M60A3/Reactive": (282, 3, 18, 30, 17, 12, None),
    "M1 Abrams": (291, 3, 18, 30, 18, 20, None),
    "M1A1 Abrams": (314, 3, 20, 30, 20, 20, None),
    "M1A2 Abrams": (557, 4, 25, 40, 20, 20, None),
    "M551A1 / Shillelah": (191, 3, 10, 20, 8, 18, (20, 25, 3, 7)),
}

# 001 tank data table: points, AP, HE, AP range, HE range, defence, speed, § restricted.
WWII = {
    "Char B1 (bis)": (48, 6, 5, 15, 15, 5, 5, True),
    "H-40": (29, 4, 3, 10, 5, 4, 10, False),
    "R-35": (20, 2, 3, 8, 5, 4, 6, False),
    "R-40": (28, 4, 3, 10, 5, 4, 9, False),
    "S-35": (35, 5, 3, 12, 5, 4, 12, False),
    "Pz IIF": (21, 2, 4, 5, 5, 2, 11, False),
    "Pz 38T (Czech)": (31, 5, 4, 10, 5, 3, 11, False),
    "Pz IIID-F": (29, 4, 4, 8, 5, 4, 11, False),
    "Pz IIIG-H": (43, 5, 4, 12, 12, 5, 11, False),
    "Pz IIIJ-M": (53, 6, 4, 15, 15, 6, 11, False),
    "Pz IVF2-H": (80, 9, 5, 20, 20, 7, 10, False),
    "Pz V": (112, 11, 5, 25, 25, 10, 12, False),
    "Pz VIA": (111, 10, 6, 25, 25, 11, 9, False),
    "Pz VIB": (129, 11, 8, 25, 25, 13, 8, False),
    "Maus (128mm Gun)": (163, 12, 7, 30, 30, 20, 8, False),
    "E-100": (156, 12, 7, 30, 30, 16, 10, False),
    "M11/39": (23, 3, 4, 8, 5, 3, 8, True),
    "M13/40": (28, 4, 4, 10, 5, 4, 8, False),
    "M15/42": (47, 6, 5, 15, 15, 6, 8, False),
    "Type 95": (20, 3, 4, 8, 5, 1, 11, False),
    'Type 97 "Shinhoto Chi Ha"': (33, 6, 4, 10, 5, 3, 11, False),
    "MkVI": (23, 1, 4, 5, 5, 1, 16, False),
    "A-9": (27, 5, 3, 10, 5, 3, 8, False),
    "A-10": (29, 5, 3, 10, 5, 4, 8, False),
    "A-12 (Matilda II)": (35, 5, 3, 10, 5, 8, 6, False),
    "A-13": (28, 5, 3, 10, 5, 2, 11, False),
    'M3 "Honey"': (41, 5, 4, 10, 10, 4, 15, False),
    "Valentine II": (33, 5, 3, 10, 5, 6, 8, False),
    "Valentine XI": (68, 7, 5, 20, 20, 6, 8, False),
    "Churchill II": (58, 6, 4, 15, 15, 11, 6, False),
    "Churchill VII": (56, 7, 5, 20, 20, 11, 6, False),
    "Crusader I & II": (33, 5, 3, 10, 5, 4, 12, False),
    "Crusader III": (41, 6, 3, 15, 5, 4, 12, False),
    "Cromwell": (75, 7, 5, 20, 20, 6, 15, False),
    "Comet": (87, 10, 5, 20, 20, 6, 15, False),
    "Challenger": (110, 11, 5, 25, 25, 8, 10, False),
    'Sherman "Firefly"': (106, 11, 5, 25, 25, 8, 10, False),
    'M3 "Stuart"': (41, 5, 4, 10, 10, 4, 15, False),
    'M5 "Stuart"': (43, 5, 4, 10, 10, 5, 15, False),
    'M24 "Chaffee"': (77, 7, 5, 20, 20, 7, 15, False),
    'M3 "Lee/Grant"': (70, 7, 5, 20, 20, 6, 10, True),
    'M4 "Sherman"': (72, 7, 5, 20, 20, 7, 10, False),
    'M4A1 "Sherman 76"': (76, 8, 5, 20, 20, 7, 10, False),
    'M4A3E8 "Sherman Easy-Eight"': (82, 9, 5, 20, 20, 8, 10, False),
    'M26 "Pershing"': (104, 11, 7, 20, 20, 11, 10, False),
    "T-26 (Model 37)": (24, 5, 3, 10, 5, 2, 8, False),
    "BT-5-8": (30, 5, 3, 10, 5, 1, 15, False),
    "T-60": (29, 2, 3, 5, 5, 3, 15, False),
    "T-70": (36, 5, 3, 10, 5, 4, 16, False),
    "T-34A": (57, 7, 5, 12, 12, 8, 12, False),
    "T-34C": (70, 8, 5, 16, 16, 8, 12, False),
    "T-34/85": (94, 10, 6, 20, 20, 9, 12, False),
    "KV-1A": (59, 7, 5, 12, 12, 10, 10, False),
    "KV-1C": (70, 8, 5, 16, 16, 10, 10, False),
    "KV1s": (74, 8, 5, 16, 16, 9, 11, False),
    "KV-85": (94, 10, 6, 20, 20, 10, 10, False),
    "JS-II": (105, 11, 7, 20, 20, 12, 9, False),
    'JS-III "Pike"': (114, 11, 8, 20, 20, 12, 10, False),
}

# CRTs, one string per 2D6 total, one letter per differential -3..+9:
# n = no effect, S, s = (S), D, E.
MODERN_CRT = {
    19: "SSSSSSSSSSSSS",
    18: "SSSSSSSSSSSSS",
    17: "SSSSSSSSSSSSs",
    16: "SSSSSSSSSSSss",
    15: "SSSSSSSSSSssD",
    14: "SSSSSSSSSssDD",
    13: "SSSSSSSSssDDD",
    12: "SSSSSSSSsDDDD",
    11: "SSSSSSSsDDDDE",
    10: "SSSSSSssDDDEE",
    9: "SSSSSssDDDEEE",
    8: "SSSSssDDDEEEE",
    7: "SSSSsDDDEEEEE",
    6: "SSSsDDDDEEEEE",
    5: "SSssDDDEEEEEE",
    4: "SssDDDEEEEEEE",
    3: "ssDDDEEEEEEEE",
    2: "sDDDEEEEEEEEE",
    1: "DDDDEEEEEEEEE",
    0: "DDDEEEEEEEEEE",
}
WWII_CRT = {
    19: "nnnnnnnnnnnnS",
    18: "nnnnnnnnnnnSS",
    17: "nnnnnnnnnnSSs",
    16: "nnnnnnnnnSSss",
    15: "nnnnnnnnSSssD",
    14: "nnnnnnnnSssDD",
    13: "nnnnnnnSssDDD",
    12: "nnnnnnSSsDDDD",
    11: "nnnnnSSsDDDDE",
    10: "nnnnSSssDDDEE",
    9: "nnnnSssDDDEEE",
    8: "nnnSssDDDEEEE",
    7: "nnSSsDDDEEEEE",
    6: "nSSsDDDDEEEEE",
    5: "SSssDDDEEEEEE",
    4: "SssDDDEEEEEEE",
    3: "ssDDDEEEEEEEE",
    2: "sDDDEEEEEEEEE",
    1: "DDDDEEEEEEEEE",
    0: "DDDEEEEEEEEEE",
}
LETTER = {"n": "-", "S": "S", "s": "(S)", "D": "D", "E": "E"}


def test_modern_tank_table_has_every_row_of_000():
    assert set(DATA.modern_tanks) == set(MODERN)
    assert len(DATA.modern_tanks) == 37


@pytest.mark.parametrize("name", sorted(MODERN))
def test_modern_tank_row(name):
    t = DATA.modern_tanks[name]
    pts, tl, atk, rng, dfn, spd, atgm = MODERN[name]
    assert (t.points, t.tech_level, t.cannon_attack, t.cannon_range, t.defense, t.speed) == (
        pts,
        tl,
        atk,
        rng,
        dfn,
        spd,
    )
    assert t.movement_class == "T"  # 08.03.04: every tank is tracked
    if atgm is None:
        assert t.atgm is None
    else:
        assert (t.atgm.attack, t.atgm.range, t.atgm.min_range, t.atgm.depletion) == atgm


def test_pt76_is_amphibious():
    assert DATA.modern_tanks["PT-76"].amphibious_speed == 2


def test_wwii_tank_table_has_every_row_of_001():
    assert set(DATA.wwii_tanks) == set(WWII)
    assert len(DATA.wwii_tanks) == 58


@pytest.mark.parametrize("name", sorted(WWII))
def test_wwii_tank_row(name):
    t = DATA.wwii_tanks[name]
    assert (
        t.points,
        t.ap_firepower,
        t.he_firepower,
        t.ap_range,
        t.he_range,
        t.defense,
        t.speed,
        t.facing_restricted,
    ) == WWII[name]


@pytest.mark.parametrize(("key", "table"), [("modern", MODERN_CRT), ("wwii", WWII_CRT)])
def test_crt_matches_second_reading(key, table):
    crt = DATA.crts[key]
    for total, letters in table.items():
        assert [crt.lookup(d, total) for d in range(-3, 10)] == [LETTER[c] for c in letters], total


@pytest.mark.parametrize(
    ("key", "differential", "total", "cell"),
    [
        ("modern", 10, 19, "E"),  # 000 CRT: above +9 always eliminates
        ("modern", 15, 0, "E"),
        ("wwii", 12, 19, "S"),  # 001 CRT: above +9 is read as +9
        ("wwii", 12, 11, "E"),
        ("modern", 0, 25, "S"),  # modified rolls above 19 read as 19
        ("wwii", 0, -4, "E"),  # and below 0 as 0
    ],
)
def test_crt_edges(key, differential, total, cell):
    assert DATA.crts[key].lookup(differential, total) == cell


def test_crt_refuses_differential_below_minus_3():
    with pytest.raises(ValueError, match="below -3"):
        DATA.crts["modern"].lookup(-4, 7)


# Range effect chart (000/002 by tech level; 001 for WWII): (band inches, modifier).
@pytest.mark.parametrize(
    ("ruleset", "tl", "cases"),
    [
        (
            "modern",
            1,
            [(1, -1), (2, 0), (5, 0), (6, 1), (10, 1), (11, 2), (15, 2), (16, 3), (21, 3), (22, 4)],
        ),
        (
            "modern",
            2,
            [(1, -1), (8, 0), (9, 1), (16, 1), (17, 2), (24, 2), (25, 3), (33, 3), (34, 4)],
        ),
        (
            "modern",
            3,
            [
                (1, -1),
                (10, 0),
                (11, 1),
                (20, 1),
                (21, 2),
                (30, 2),
                (31, 3),
                (41, 3),
                (42, 4),
                (50, 4),
            ],
        ),
        (
            "modern",
            4,
            [(1, -1), (12, 0), (13, 1), (24, 1), (25, 2), (36, 2), (37, 3), (49, 3), (50, 4)],
        ),
        (
            "wwii",
            None,
            [
                (1, -1),
                (2, 0),
                (5, 0),
                (6, 1),
                (10, 1),
                (11, 2),
                (15, 2),
                (16, 3),
                (20, 3),
                (21, 4),
                (25, 4),
                (26, 5),
            ],
        ),
    ],
)
def test_range_charts(ruleset, tl, cases):
    chart = DATA.range_chart(ruleset, tl)
    assert [(b, chart.modifier(b)) for b, _ in cases] == cases


def test_wwii47_tl2_range_chart_from_004():
    chart = DATA.range_charts["wwii-47"][2]
    assert [chart.modifier(b) for b in (1, 8, 9, 16, 17, 24, 25, 32, 33)] == [
        -1,
        0,
        1,
        1,
        2,
        2,
        3,
        3,
        4,
    ]


# Command efficiency (002 for Modern, 001 for WWII): total -> orders.
@pytest.mark.parametrize(
    ("key", "cases"),
    [
        (
            "modern",
            {
                2: 0,
                3: 0,
                4: 1,
                5: 1,
                6: 1,
                7: 2,
                8: 2,
                9: 3,
                10: 3,
                11: 4,
                12: 4,
                13: 5,
                14: 6,
                15: 6,
                16: 7,
                19: 7,
            },
        ),
        ("wwii", {3: 0, 4: 1, 6: 1, 7: 2, 8: 2, 9: 3, 10: 3, 11: 4, 12: 4, 13: 5, 16: 5}),
    ],
)
def test_command_efficiency(key, cases):
    table = DATA.command_tables[key]
    assert {t: table.orders(t) for t in cases} == cases


def test_generation_modifiers_002():
    assert DATA.generation_modifiers == {"I": -1, "II": 0, "III": 1, "IV": 2}


# Terrain effects chart (002): tracked, wheeled, foot, vehicle effect, personnel effect, LOS.
TERRAIN = {
    "clear": (1, 2, 1, 0, 0, "no"),
    "smoke": (1, 2, 1, 3, 3, "yes"),
    "light_buildings": (1, 2, 1, 2, 4, "yes"),
    "heavy_buildings": (1, 2, 1, 4, 6, "yes"),
    "woods": (3, 4, 1, 2, 4, "yes"),
    "grove": (2, 3, 1, 1, 2, "yes"),
    "good_road": (0.5, 0.5, 1, 0, 0, "no"),
    "poor_road": (1, 1, 1, 0, 0, "no"),
    "track": (1, 1.5, 1, 0, 0, "no"),
    "marsh": (4, 8, 3, -1, -1, "no"),
    "rough_1": (1, 3, 1, 1, 2, "personnel"),
    "rough_2": (2, 5, 1.5, 2, 4, "personnel"),
    "rough_3": (3, 7, 3, 4, 6, "yes"),
    "slope": (1, 2, 1, 0, 0, "yes"),
    "hilltop": (1, 3, 1, 2, 2, "yes"),
    "light_improved_position": (2, 3, 1, 1, 4, "no"),
    "medium_improved_position": (2, 4, 1, 2, 5, "no"),
    "heavy_improved_position": (3, None, 2, 3, 7, "no"),
    "barbed_wire": (3, None, 2, -1, -1, "no"),
    "wreck": (0, 1, 0, 1, 1, "no"),
    "minefield": (1, 1, 1, -2, -2, "no"),  # RD: 004's sign in both (002's +2 is movement's)
}


@pytest.mark.parametrize("key", sorted(TERRAIN))
def test_terrain_chart_row(key):
    t = DATA.terrain[key]
    row = (
        t.move_cost("T"),
        t.move_cost("W"),
        t.move_cost("F"),
        t.combat_effect("modern"),
        t.combat_effect("modern", personnel=True),
        t.los_blocked,
    )
    assert row == TERRAIN[key]


def test_terrain_additive_rows_and_marks():
    additive = {k for k, t in DATA.terrain.items() if t.additive}
    assert additive == {"smoke", "slope", "hilltop", "barbed_wire", "wreck", "minefield"}
    concealing = {k for k, t in DATA.terrain.items() if t.concealing}
    assert concealing == {
        "light_buildings",
        "heavy_buildings",
        "woods",
        "grove",
        "rough_3",
        "light_improved_position",
        "medium_improved_position",
        "heavy_improved_position",
    }
    assert {k for k, t in DATA.terrain.items() if t.road} == {"good_road", "poor_road", "track"}


def test_minefield_is_minus_2_in_both_rulesets():
    """RD "Terrain of the full games": 004 prints -2 for a target in a minefield; 002's "+2" is
    the sign of the movement reversal (a stand in it attempting to move adds +2)."""
    assert DATA.terrain["minefield"].combat_effect("modern-full") == -2
    assert DATA.terrain["minefield"].combat_effect("wwii") == -2


# --- the loader refuses broken data with file, field and problem --------------------------


@pytest.mark.parametrize(
    ("file", "old", "new", "message"),
    [
        ("terrain.toml", 'name = "Woods"', 'name = "Woods"\nshade = 3', "woods.shade: Unexpected"),
        (
            "terrain.toml",
            "move_tracked = 3\nmove_wheeled = 4",
            "move_wheeled = 4",
            "woods.move_tracked: Field required",
        ),
        ("rulesets.toml", 'crt = "wwii"', 'crt = "wwi"', "wwii.crt: no table 'wwi'"),
        ("modern_tanks.csv", "M1A2 Abrams,557,4", "M1A2 Abrams,557,9", "tech_level"),
        (
            "modern_tanks.csv",
            "T-90 / AT-12,563,4,23,40,20,16,T,,21,50,4,3",
            "T-90 / AT-12,563,4,23,40,20,16,T,,21,50,4,",
            "ATGM columns",
        ),
        (
            "crt.toml",
            'rows.7  = "S S S S (S) D D D E E E E E"',
            'rows.7  = "S S S S (S) D D D E E E E"',
            "modern.rows.7: 12 cells",
        ),
        ("wwii_tanks.csv", "Pz V,112", "Pz V,lots", "points"),
    ],
)
def test_loader_refuses_broken_data(tmp_path, file, old, new, message):
    d = _copy_data(tmp_path)
    text = (d / file).read_text(encoding="utf-8")
    assert old in text
    (d / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    load_rules_data.cache_clear()
    try:
        with pytest.raises(DataError) as err:
            load_rules_data(d)
    finally:
        load_rules_data.cache_clear()
    assert file in str(err.value)
    assert message in str(err.value)


# --- the seed text itself, where the tables survived copying cleanly ------------------------


@pytest.mark.skipif(not SEEDS.is_dir(), reason="../shared/seeds is not beside this checkout")
def test_modern_table_matches_seed_text():
    text = next(SEEDS.glob("000_*.txt")).read_text(encoding="utf-8")
    rows = re.findall(
        r"^(.+?) (\d+) ([1-5]) (\d+) (\d+) \[(\d+)\] (\d+) T(?: \(A \d\))? "
        r"(?:- - - -|(\d+) (\d+) (\d+) \[ (\d+) \])$",
        text,
        flags=re.M,
    )
    assert len(rows) == 37
    for name, pts, tl, atk, rng, dfn, spd, *atgm in rows:
        t = DATA.modern_tanks[name.strip()]
        assert (
            t.points,
            t.tech_level,
            t.cannon_attack,
            t.cannon_range,
            t.defense,
            t.speed,
        ) == tuple(map(int, (pts, tl, atk, rng, dfn, spd)))
        assert (t.atgm is None) == (atgm[0] == "")
