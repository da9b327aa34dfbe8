"""Hostile input (issue #26): files and arguments a careless or malicious user could hand the
program, each with the one line it must answer, within LIMIT_S seconds, never a traceback or a
hang. Scenario-like files are in tests/fixtures/hostile/ (each run through ``hulldown check``,
``load_scenario`` and ``Battle.load``); folders, FIFOs, devices, oversized files and saves
are made here, the saves from a fresh battle of modern-skirmish."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from game import Battle, SaveError, ScenarioError, load_scenario
from game.ai.levels import load_battle
from game.cli import AI_SPEED_RANGE, build_parser, main
from game.rules.files import savefile
from game.rules.files.jsonfile import MAX_BYTES, JsonFileError, read_json_file
from tests.helpers import answered, check_says

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "fixtures" / "hostile"
SKIRMISH = ROOT / "maps" / "modern-skirmish.json"

DEEP = "nested deeper than 64 levels (arrays and objects inside one another {} deep)"

# fixture -> the line (after "file: ") every reader gives: the JSON reader refuses these
REFUSED_BY_THE_READER = {
    "nested-5000.json": DEEP.format(5000),
    "nested-65.json": DEEP.format(65),
    "coordinates-nested-900.json": DEEP.format(905),
    "int-5000-digits.json": "$.turns: an integer of 5000 digits (at most 20)",
    "int-21-digits.json": "$.turns: an integer of 21 digits (at most 20)",
    "duplicate-turns.json": "$.turns: duplicate key",
    "duplicate-in-feature.json": "$.terrain.features[1].properties.terrain: duplicate key",
    "utf16.json": "cannot be read (UTF-16 text; save it as UTF-8)",
    "utf16le-no-bom.json": "cannot be read (UTF-16 text; save it as UTF-8)",
    "utf32.json": "cannot be read (UTF-32 text; save it as UTF-8)",
    "latin1.json": "cannot be read (not UTF-8 text: byte 0xe0 at byte 63)",
    "nul-byte.json": "cannot be read (a NUL byte at byte 53: not text)",
    "empty.json": "not valid JSON (the file is empty)",
    "blank.json": "not valid JSON (the file is empty)",
}

# fixture -> (the line of check and load_scenario, the line of Battle.load): the reader lets
# these through to the scenario's checks, which report them with the file's other problems;
# a save's reader refuses non-finite numbers itself
REFUSED_BY_THE_CHECKS = {
    "nan.json": (
        "$.max_sighting_in: Input should be a finite number",
        "$.max_sighting_in: NaN is not a finite number (JSON has no NaN)",
    ),
    "infinity.json": (
        "$.max_sighting_in: Input should be a finite number",
        "$.max_sighting_in: Infinity is not a finite number (JSON has no Infinity)",
    ),
    "1e400.json": (
        "$.max_sighting_in: Input should be a finite number",
        "$.max_sighting_in: 1e400 is not a finite number (too large)",
    ),
    "int-20-digits.json": (
        "$.turns: Input should be less than or equal to 100",
        "$.format: not a hulldown save (hulldown-save/2 or /1, or the autosave)",
    ),
    "nested-64.json": (
        "$: a scenario must be a JSON object",
        "$.format: not a hulldown save (hulldown-save/2 or /1, or the autosave)",
    ),
}

ACCEPTED = ["bom.json", "strings-of-brackets.json"]


def refused_everywhere(path, line: str, capsys) -> None:
    """``check``, ``load_scenario`` and ``Battle.load`` all answer ``path: line``."""
    want = f"{path}: {line}"
    assert check_says(path, capsys) == [want]
    with pytest.raises(ScenarioError) as err:
        answered(load_scenario, path)
    assert err.value.problems == [want]
    with pytest.raises(SaveError) as err:
        answered(Battle.load, path)
    assert str(err.value) == want


# ------------------------------------------------------------------ scenario-like files


@pytest.mark.parametrize("name", sorted(REFUSED_BY_THE_READER))
def test_a_hostile_file_gets_its_one_line_everywhere(name, capsys):
    refused_everywhere(HOSTILE / name, REFUSED_BY_THE_READER[name], capsys)


@pytest.mark.parametrize("name", sorted(REFUSED_BY_THE_CHECKS))
def test_a_file_the_reader_passes_is_refused_by_the_checks(name, capsys):
    path = HOSTILE / name
    scenario_line, save_line = REFUSED_BY_THE_CHECKS[name]
    assert check_says(path, capsys) == [f"{path}: {scenario_line}"]
    with pytest.raises(ScenarioError) as err:
        answered(load_scenario, path)
    assert err.value.problems == [f"{path}: {scenario_line}"]
    with pytest.raises(SaveError) as err:
        answered(Battle.load, path)
    assert str(err.value) == f"{path}: {save_line}"


@pytest.mark.parametrize("name", ACCEPTED)
def test_a_bom_and_brackets_inside_strings_are_accepted(name, capsys):
    path = HOSTILE / name
    assert answered(main, ["check", str(path)]) == 0
    assert capsys.readouterr().out.startswith(f"{path}: ok (modern, ")
    assert answered(load_scenario, path).spec.title.startswith(("Modern skirmish", "[{[{"))


def test_the_fixtures_are_the_table():
    named = set(REFUSED_BY_THE_READER) | set(REFUSED_BY_THE_CHECKS) | set(ACCEPTED)
    assert {p.name for p in HOSTILE.iterdir()} == named


# ------------------------------------------------------------------ not regular files


def test_a_folder(tmp_path, capsys):
    folder = tmp_path / "a-folder.json"
    folder.mkdir()
    refused_everywhere(folder, "cannot be read (it is a folder, not a regular file)", capsys)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_answers_at_once(tmp_path, capsys):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    refused_everywhere(fifo, "cannot be read (it is a FIFO, not a regular file)", capsys)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "/dev/urandom"])
def test_a_device_is_never_read(device, capsys):
    if not os.path.exists(device):
        pytest.skip(f"no {device} here")
    refused_everywhere(device, "cannot be read (it is a device, not a regular file)", capsys)


def test_a_file_over_16_mb(tmp_path, capsys):
    big = tmp_path / "big.json"
    with open(big, "wb") as fh:
        fh.truncate(17 * 1024 * 1024)  # sparse: refused on its size, never read
    refused_everywhere(big, "cannot be read (17.0 MB, larger than the limit of 16 MB)", capsys)


def test_a_file_of_exactly_16_mb_is_read(tmp_path):
    edge = tmp_path / "edge.json"
    edge.write_bytes(b"[1]" + b" " * (MAX_BYTES - 3))
    assert answered(read_json_file, edge) == [1]


def test_missing_files_and_odd_paths(tmp_path, capsys):
    missing = tmp_path / "nope.json"
    refused_everywhere(missing, "no such file", capsys)
    through = SKIRMISH / "x.json"
    refused_everywhere(through, "no such file (a part of the path is not a folder)", capsys)
    assert check_says("", capsys) == ["(empty path): no file name given"]
    with pytest.raises(SaveError, match=r"^\(empty path\): no file name given$"):
        Battle.load("")


def test_check_goes_on_to_the_next_file_after_any_problem(tmp_path, capsys):
    files = [HOSTILE / "nested-5000.json", tmp_path, HOSTILE / "utf16.json", SKIRMISH]
    assert answered(main, ["check", *map(str, files)]) == 1
    captured = capsys.readouterr()
    assert len(captured.err.splitlines()) == 3
    assert captured.out.startswith(f"{SKIRMISH}: ok (")


def test_duplicate_keys_are_named_by_their_json_path(tmp_path):
    path = tmp_path / "dup.json"
    path.write_text('{"a": [1, {"b c": {"x": 1, "y": 2, "x": 3}}]}')
    with pytest.raises(JsonFileError, match=r': \$\.a\[1\]\["b c"\]\.x: duplicate key$'):
        read_json_file(path)


# ------------------------------------------------------------------ saves


@pytest.fixture(scope="module")
def save_doc(tmp_path_factory) -> dict:
    """A real save of modern-skirmish, one action in, as its dict."""
    battle = Battle(load_scenario(SKIRMISH), 7)
    battle.apply(battle.legal_actions()[0])
    path = tmp_path_factory.mktemp("save") / "base.json"
    battle.save(path)
    return json.loads(path.read_text(encoding="utf-8"))


def _changed(doc: dict, change: dict) -> dict:
    out = json.loads(json.dumps(doc))
    for key, value in change.items():
        if key.startswith("meta."):
            out.setdefault("meta", {})[key[5:]] = value
        else:
            out[key] = value
    return out


# name -> (change of the save's fields, or text replacing '"seed":7', the line it gets)
SAVE_CASES = {
    "seed null": ({"seed": None}, "$.seed: must be a whole number, not null"),
    "seed abc": ({"seed": "abc"}, '$.seed: must be a whole number, not "abc"'),
    "seed a list": ({"seed": [7]}, "$.seed: must be a whole number, not a list"),
    "seed an object": ({"seed": {}}, "$.seed: must be a whole number, not an object"),
    "seed 7.5": ({"seed": 7.5}, "$.seed: must be a whole number, not 7.5"),
    "seed 7.0": ({"seed": 7.0}, "$.seed: must be a whole number, not 7.0"),
    "seed true": ({"seed": True}, "$.seed: must be a whole number, not true"),
    "seed NaN": ('"seed":NaN', "$.seed: NaN is not a finite number (JSON has no NaN)"),
    "seed 1e400": ('"seed":1e400', "$.seed: 1e400 is not a finite number (too large)"),
    "seed of 5000 digits": (
        '"seed":' + "9" * 5000,
        "$.seed: an integer of 5000 digits (at most 20)",
    ),
    "seed twice": ('"seed":7,"seed":8', "$.seed: duplicate key"),
    "actions not a list": ({"actions": {}}, "$.actions: must be a list of actions, not an object"),
    "actions a string": ({"actions": "pass"}, '$.actions: must be a list of actions, not "pass"'),
    "an action not an object": (
        {"actions": [5]},
        "$.actions[0]: must be an action (an object), not 5",
    ),
    "state_hash a number": ({"state_hash": 5}, "$.state_hash: must be text, not 5"),
    "scenario_path a number": ({"scenario_path": 5}, "$.scenario_path: must be text, not 5"),
    "meta a string": ({"meta": "x"}, '$.meta: must be an object, not "x"'),
    "meta.ai a string": (
        {"meta.ai": "B"},
        '$.meta.ai: must be an object of side: level, not "B"',
    ),
    "meta.ai an unknown level": (
        {"meta.ai": {"B": "god"}},
        '$.meta.ai.B: must be one of elite, veteran, recruit, veteran-43, not "god"',
    ),
    "meta.ai a level of null": (
        {"meta.ai": {"B": None}},
        "$.meta.ai.B: must be an AI level's name (small letters, digits and dashes), not null",
    ),
    "meta.ai an unknown side": (
        {"meta.ai": {"C": "veteran"}},
        '$.meta.ai: no side "C" (the sides are A, B)',
    ),
    "ai_speed fast": (
        {"meta.ai_speed": "fast"},
        '$.meta.ai_speed: must be a number of inches a second, not "fast"',
    ),
    "ai_speed true": (
        {"meta.ai_speed": True},
        "$.meta.ai_speed: must be a number of inches a second, not true",
    ),
    "ai_speed 1e-300": (
        {"meta.ai_speed": 1e-300},
        "$.meta.ai_speed: must be 0 (moves not shown) or from 1 to 1000 inches a second, "
        "not 1e-300",
    ),
    "ai_speed -1": (
        {"meta.ai_speed": -1},
        "$.meta.ai_speed: must be 0 (moves not shown) or from 1 to 1000 inches a second, not -1",
    ),
    "ai_speed 1001": (
        {"meta.ai_speed": 1001},
        "$.meta.ai_speed: must be 0 (moves not shown) or from 1 to 1000 inches a second, not 1001",
    ),
    "ai_speed NaN": (
        {"meta.ai_speed": float("nan")},
        "$.meta.ai_speed: NaN is not a finite number (JSON has no NaN)",
    ),
}


def _write_save(tmp_path, save_doc, change) -> Path:
    path = tmp_path / "hostile.save.json"
    if isinstance(change, str):
        text = json.dumps(save_doc, separators=(",", ":"))
        assert '"seed":7,' in text
        path.write_text(text.replace('"seed":7', change, 1), encoding="utf-8")
    else:
        path.write_text(json.dumps(_changed(save_doc, change)), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", sorted(SAVE_CASES))
def test_a_hostile_save_gets_its_one_line(name, tmp_path, save_doc):
    change, line = SAVE_CASES[name]
    path = _write_save(tmp_path, save_doc, change)
    with pytest.raises(SaveError) as err:
        answered(load_battle, path)  # as the menu and ``play --load`` load a save
    assert str(err.value) == f"{path}: {line}"


@pytest.mark.parametrize("command", [["play", "--load"], ["replay"]])
@pytest.mark.parametrize("name", ["meta.ai a string", "ai_speed fast", "seed null"])
def test_play_load_and_replay_say_the_line_and_open_no_window(
    command, name, tmp_path, save_doc, capsys
):
    change, line = SAVE_CASES[name]
    path = _write_save(tmp_path, save_doc, change)
    assert answered(main, [*command, str(path)]) == 1
    assert capsys.readouterr().err.splitlines() == [f"{path}: {line}"]


@pytest.mark.parametrize(
    "meta",
    [
        {},
        {"ai": {}, "ai_speed": 12.0, "test_play": True},
        {"ai": {"B": "recruit"}, "ai_speed": 0},
        {"ai": {"A": "veteran", "B": "recruit"}, "ai_speed": 1000},
    ],
)
def test_a_sound_save_loads_with_its_meta_as_it_was(meta, tmp_path, save_doc):
    path = tmp_path / "ok.save.json"
    path.write_text(json.dumps({**save_doc, "meta": meta}), encoding="utf-8")
    battle = answered(Battle.load, path)
    assert battle.meta == meta
    assert battle.state_hash() == save_doc["state_hash"]


def test_a_save_with_a_bom_loads(tmp_path, save_doc):
    path = tmp_path / "bom.save.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(save_doc).encode())
    assert answered(Battle.load, path).state_hash() == save_doc["state_hash"]


def test_the_save_checks_know_the_ai_levels_and_speeds():
    from game.ai.levels import LEVELS

    assert all(savefile.AI_LEVEL_NAME.fullmatch(name) for name in LEVELS)
    assert AI_SPEED_RANGE == (savefile.AI_SPEED_MIN, savefile.AI_SPEED_MAX)


# ------------------------------------------------------------------ the command line

S = str(SKIRMISH)
BEFORE = {
    "render": ["render", S, "--out", "x.png"],
    "play": ["play", S],
    "simulate": ["simulate", S],
}
BOUNDS = {
    "--scale": "give a number from 1 to 200, not ",
    "--ai-speed": "give 0 or a number from 1 to 1000, not ",
    "--games": "give a whole number from 1 to 100,000, not ",
    "--seed": "give a whole number of at most 18 digits, not ",
}
# (command, option, value, the error when it is not the option's bounds and the value)
CLI_CASES = [
    ("render", "--scale", "inf", None),
    ("render", "--scale", "nan", None),
    ("render", "--scale", "1e400", None),
    ("render", "--scale", "0", None),
    ("render", "--scale", "201", None),
    ("render", "--scale", "-20", None),
    ("render", "--scale", "big", "'big' is not a number"),
    ("play", "--ai-speed", "nan", None),
    ("play", "--ai-speed", "inf", None),
    ("play", "--ai-speed", "1e-300", None),
    ("play", "--ai-speed", "0.5", None),
    ("play", "--ai-speed", "-1", None),
    ("play", "--ai-speed", "1001", None),
    ("play", "--ai-speed", "fast", "'fast' is not a number"),
    ("play", "--seed", "abc", None),
    ("play", "--seed", "1" + "0" * 18, None),
    ("simulate", "--games", "0", None),
    ("simulate", "--games", "-3", None),
    ("simulate", "--games", "100001", None),
    ("simulate", "--games", "1.5", None),
    ("simulate", "--games", "many", None),
    ("simulate", "--seed", "1e3", None),
    ("simulate", "--seed", "9" * 5000, BOUNDS["--seed"] + "9" * 24 + "... (5000 characters)"),
]


@pytest.mark.parametrize(
    "command, option, value, why", CLI_CASES, ids=[f"{c[1]} {c[2][:20]}" for c in CLI_CASES]
)
def test_a_bad_argument_is_one_line_and_exit_2(command, option, value, why, capsys):
    with pytest.raises(SystemExit) as exit_:
        answered(main, [*BEFORE[command], option, value])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    why = why or BOUNDS[option] + value
    assert err.splitlines()[-1] == f"hulldown {command}: error: argument {option}: {why}"


@pytest.mark.parametrize(
    "argv, name, value",
    [
        (["render", S, "--out", "x.png", "--scale", "1"], "scale", 1.0),
        (["render", S, "--out", "x.png", "--scale", "200"], "scale", 200.0),
        (["play", S, "--ai-speed", "0"], "ai_speed", 0.0),
        (["play", S, "--ai-speed", "1"], "ai_speed", 1.0),
        (["play", S, "--ai-speed", "1000"], "ai_speed", 1000.0),
        (["play", S, "--seed", "-" + "9" * 18], "seed", -(10**18 - 1)),
        (["simulate", S, "--games", "1"], "games", 1),
        (["simulate", S, "--games", "100000"], "games", 100_000),
        (["simulate", S, "--seed", "9" * 18], "seed", 10**18 - 1),
    ],
)
def test_the_bounds_themselves_are_accepted(argv, name, value):
    assert getattr(build_parser().parse_args(argv), name) == value


def test_a_log_dir_that_is_a_file(tmp_path, capsys):
    assert answered(main, ["simulate", S, "--log-dir", S, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [f"hulldown simulate: --log-dir {S}: it is a file, not a folder"]


def test_a_log_dir_under_a_file(capsys):
    under = os.path.join(S, "logs")
    assert answered(main, ["simulate", S, "--log-dir", under, "--quiet"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"hulldown simulate: --log-dir {under}: cannot write there (")


@pytest.mark.skipif(
    sys.platform == "win32" or os.geteuid() == 0, reason="needs POSIX permissions and no root"
)
def test_a_log_dir_that_cannot_be_written(tmp_path, capsys):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        assert answered(main, ["simulate", S, "--log-dir", str(locked), "--quiet"]) == 2
    finally:
        locked.chmod(0o700)
    lines = capsys.readouterr().err.splitlines()
    assert lines == [
        f"hulldown simulate: --log-dir {locked}: cannot write there (Permission denied)"
    ]
