"""Every field of a log line that the replay or its sentence reads is checked for its type
before use (game/rules/files/logfields.py): each case here is a real log with one field
spoiled as tools/checks/mutate_logs.py found it raising before it was checked, each through
``hulldown replay FILE --check``, which must refuse it in one line naming the field."""

from __future__ import annotations

import json

import pytest

from game.cli import main
from tests.helpers import base_log


def _aa_hit(events) -> dict:
    """The first AA fire with a CRT cell (an AA stand that hit the aircraft)."""
    strike = next(
        e for e in events if e["event"] == "air_strike" and any(a.get("crt") for a in e["aa"])
    )
    return next(a for a in strike["aa"] if a.get("crt"))


def _drop(key):
    def spoil(events):
        del _aa_hit(events)[key]

    return spoil


def _give(key, value):
    def spoil(events):
        _aa_hit(events)[key] = value

    return spoil


CASES = {
    # the AA fire's sentence writes "fires at +4: D" once the shot has a CRT cell
    "aa hit without its differential": (_drop("differential"), ".differential: is missing"),
    "aa hit without its result": (_drop("result"), ".result: is missing"),
    "aa hit, differential as text": (_give("differential", "4"), "must be a whole number"),
    "aa hit, differential in a list": (_give("differential", [4]), "must be a whole number"),
}


@pytest.mark.parametrize("name", CASES)
def test_a_spoiled_field_is_refused_in_one_line(tmp_path, capsys, name):
    spoil, words = CASES[name]
    events = base_log()
    spoil(events)
    path = tmp_path / "spoiled.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    assert main(["replay", str(path), "--check"]) == 1
    [said] = capsys.readouterr().err.splitlines()
    assert said.startswith(f"{path}: line ") and "air_strike.aa[" in said and words in said, said
    assert "bug in hulldown" not in said
