"""The seed sheets' points and balancing moves (000/001 "Create your own Tank Scenario"; #34
part 1): ``game.editor.points`` and ``hulldown points``."""

from __future__ import annotations

import pytest

from game import cli
from game.editor.points import balancing_moves, forces, ratio
from game.rules.charts.data import load_rules_data
from tests.conftest import scenario_dict

DATA = load_rules_data()


def sheet(ruleset, a_unit, a_n, a_coh, b_unit, b_n, b_coh) -> dict:
    stands = [(f"A{i}", "A", a_unit, 5, 2 + 1.5 * i, 0) for i in range(a_n)]
    stands += [(f"B{i}", "B", b_unit, 40, 2 + 1.5 * i, 180) for i in range(b_n)]
    raw = scenario_dict(stands, cohesion=(a_coh, b_coh), depth=36, ruleset=ruleset)
    if ruleset == "wwii":
        for s in raw["sides"]:
            s["generation"] = None
    return raw


@pytest.mark.parametrize(
    ("ruleset", "unit", "cohesion", "want"),
    [
        ("modern", "T-80U / AT-11", 15, 6405),  # 000 sheet: 10 x 427 x 1.5
        ("wwii", "Pz IIIJ-M", 15, 795),  # 001 sheet: 10 x 53 x 1.5
        ("wwii", 'M4 "Sherman"', 14, 1008),  # 001 sheet: 10 x 72 x 1.4
    ],
)
def test_the_sheets_worked_examples(ruleset, unit, cohesion, want):
    raw = sheet(ruleset, unit, 10, cohesion, unit, 1, cohesion)
    assert forces(raw, DATA)[0].value == pytest.approx(want)


def test_the_sheets_balancing_move_comes_first():
    """000 sheet: 10 M1A2 at cohesion 16 (8912) against 10 T-80U at 15 (6405); the sheet's
    own move, three M1A2 fewer, is 6238.4 (ratio 1.027); four more T-80U come nearer."""
    raw = sheet("modern", "T-80U / AT-11", 10, 15, "M1A2 Abrams", 10, 16)
    fs = forces(raw, DATA)
    assert (fs[0].value, fs[1].value) == pytest.approx((6405, 8912))
    moves = balancing_moves(raw, DATA, most=99)
    # the nearest even: four more T-80U (14 x 427 x 1.5 = 8967 against 8912)
    assert moves[0].what == "add 4 T-80U / AT-11 to Blue"
    assert moves[0].ratio == pytest.approx(8967 / 8912)
    sheet_move = next(m for m in moves if m.what == "remove 3 M1A2 Abrams from Orange")
    assert sheet_move.values == pytest.approx((6405, 6238.4))
    assert sheet_move.ratio == pytest.approx(6405 / 6238.4)
    assert all(m.ratio <= n.ratio for m, n in zip(moves, moves[1:], strict=False))
    assert all(m.ratio < ratio(6405, 8912) for m in moves)


def test_an_hq_counts_twice_in_the_full_game_and_is_never_removed_at_its_weight():
    raw = sheet("modern-full", "BMP-2", 3, 15, "BMP-2", 3, 15)
    raw["stands"][0]["ghq"] = True
    f = forces(raw, DATA)[0]
    assert f.value == pytest.approx(4 * 230 * 1.5)
    assert not any(m.what == "remove 3 BMP-2 from Blue" for m in balancing_moves(raw, DATA, 99))


def test_hulldown_points_prints_forces_ratio_and_moves(capsys):
    status = cli.main(
        ["points", "maps/modern-meeting.json", "tests/fixtures/full-close-quarters.json"]
    )
    out = capsys.readouterr().out
    assert status == 0
    assert "10 T-80U / AT-11 x 427, x cohesion 15 / 10 = 6405" in out
    assert "ratio 1.027" in out
    assert "nearest even first" in out  # the close-quarters map is not balanced


def test_hulldown_points_names_a_file_it_cannot_read(tmp_path, capsys):
    bad = tmp_path / "nope.json"
    bad.write_text("[1, 2]", encoding="utf-8")
    assert cli.main(["points", str(bad), str(tmp_path / "missing.json")]) == 1
    err = capsys.readouterr().err
    assert "nope.json: not a scenario" in err and "missing.json" in err


@pytest.mark.parametrize(
    "spoil",
    [
        {"sides": 5},
        {"stands": {"A1": 1}},
        {"sides": [1, {"id": "A", "cohesion": "high"}], "stands": [None, {"side": "A"}]},
        {"sides": [{"id": "A", "cohesion": float("nan")}, {"id": "B", "cohesion": True}]},
    ],
)
def test_a_broken_file_is_costed_as_far_as_it_goes(spoil, capsys, tmp_path):
    """The editor's statistics and hulldown points read files not yet checked."""
    import json

    raw = {**sheet("modern", "T-72", 2, 15, "T-72", 2, 15), **spoil}
    fs = forces(raw, DATA)
    assert all(f.value == 0 or f.value > 0 for f in fs)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    assert cli.main(["points", str(path)]) == 0


# --- the moves as edits (apply_change), which hulldown balance --suggest plays ---------------

from game import ScenarioError, parse_scenario  # noqa: E402
from game.editor.points import Change, apply_change  # noqa: E402
from game.rules.files.jsonfile import read_json_file  # noqa: E402


def _meeting() -> dict:
    return read_json_file("maps/modern-meeting.json")


def test_removing_stands_takes_the_last_plain_ones_and_the_file_still_loads():
    raw = _meeting()
    out = apply_change(raw, Change("remove", "B", "M1A2 Abrams", 3))
    b = [s for s in out["stands"] if s["side"] == "B"]
    assert len(b) == 4 and any(s["ghq"] for s in b)
    assert forces(out, DATA)[1].value == pytest.approx(4 * 557 * 1.6)
    parse_scenario(out, "moved")
    assert len([s for s in raw["stands"] if s["side"] == "B"]) == 7  # the input is untouched


def test_added_entering_stands_land_on_the_entry_edge_clear_of_the_others():
    out = apply_change(_meeting(), Change("add", "A", "T-80U / AT-11", 3))
    a = [s for s in out["stands"] if s["side"] == "A"]
    assert len(a) == 13 and sum(s["ghq"] for s in a) == 1
    new = a[-3:]
    assert [s["id"] for s in new] == ["A11", "A12", "A13"]
    assert all(s["x"] == 0 and s["on_table"] is False for s in new)
    ys = sorted(s["y"] for s in a)
    assert min(b - a for a, b in zip(ys, ys[1:], strict=False)) >= 1.5
    parse_scenario(out, "moved")


def test_added_placed_stands_go_beside_their_model_without_overlap():
    raw = read_json_file("maps/modern-skirmish.json")
    out = apply_change(raw, Change("add", "B", "T-90 / AT-12", 2))
    assert len(out["stands"]) == 8
    parse_scenario(out, "moved")  # no overlap, on the table, not on impassable ground


def test_cohesion_moves_set_the_level_and_bad_moves_say_why():
    out = apply_change(_meeting(), Change("cohesion", "A", "", 18))
    assert out["sides"][0]["cohesion"] == 18
    with pytest.raises(ValueError, match="only"):
        apply_change(_meeting(), Change("remove", "B", "M1A2 Abrams", 7))  # the GHQ stays
    with pytest.raises(ValueError, match="no side"):
        apply_change(_meeting(), Change("cohesion", "C", "", 3))
    with pytest.raises(ScenarioError):
        parse_scenario(apply_change(_meeting(), Change("cohesion", "A", "", 0)), "moved")


def test_every_listed_move_carries_the_change_that_makes_it():
    raw = _meeting()
    for m in balancing_moves(raw, DATA, 20):
        fs = forces(apply_change(raw, m.change), DATA)
        assert (fs[0].value, fs[1].value) == pytest.approx(m.values)


def test_a_broken_file_refuses_an_added_stand_with_a_value_error():
    raw = _meeting()
    raw["table"] = "wide"
    with pytest.raises(ValueError, match="not a number"):
        apply_change(raw, Change("add", "A", "T-80U / AT-11", 1))
