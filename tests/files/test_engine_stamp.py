"""Saves, autosaves and battle logs record the engine that wrote them (its version and a
digest of its rules tables); one whose replay parts from what it records says which engine
wrote it, and Resume offers to go on from the last action that still agrees, never
silently."""

from __future__ import annotations

import json
import re

import pytest

from game import Battle, SaveDiverged, engine_stamp
from game.rules.files.journal import read_journal
from tests.helpers import _random_battle

OLD = {"version": "0.0.9", "rules": "0123456789ab"}
AT = 7  # the journal line whose state hash is the first not reached


def _journal_of_another_engine(path, stamp=OLD, at=AT):
    """A 40-action autosave whose header names ``stamp`` (or none) and whose recorded state
    hashes differ from this engine's from line ``at`` (the action after the header's) on:
    what the rules changing between two engines does to an autosave."""
    _random_battle(4, 40, path)
    lines = path.read_text().splitlines()
    head = json.loads(lines[0])
    if stamp is None:
        head.pop("engine")
    else:
        head["engine"] = stamp
    lines[0] = json.dumps(head, separators=(",", ":"))
    for n in range(at, len(lines)):
        line = json.loads(lines[n])
        line["state_hash"] = "f" * len(line["state_hash"])
        lines[n] = json.dumps(line)
    path.write_text("\n".join(lines) + "\n")
    return len(head["actions"]), len(head["actions"]) + len(lines) - 1


def test_the_stamp_is_the_version_and_a_digest_of_the_rules_tables():
    stamp = engine_stamp()
    assert stamp["version"] == "0.1.0"  # pyproject.toml's
    assert re.fullmatch(r"[0-9a-f]{12}", stamp["rules"])


def test_saves_autosaves_and_logs_record_the_engine(tmp_path):
    auto = tmp_path / "auto.json"
    b = _random_battle(4, 20, auto)
    b.save(tmp_path / "save.json")
    assert json.loads((tmp_path / "save.json").read_text())["engine"] == engine_stamp()
    assert read_journal(auto)[0]["engine"] == engine_stamp()
    assert b.log.events[0]["engine"] == engine_stamp()


@pytest.mark.parametrize(
    ("stamp", "written_by"),
    [
        (OLD, "written by hulldown 0.0.9 (rules tables 0123456789ab); this is hulldown 0.1.0"),
        (None, "written by an earlier hulldown (before files recorded their engine)"),
    ],
    ids=["another version", "before the stamp"],
)
def test_an_autosave_that_parts_says_who_wrote_it_and_where(tmp_path, stamp, written_by):
    path = tmp_path / "auto.json"
    header, total = _journal_of_another_engine(path, stamp)
    agreed = header + AT - 1  # the header's actions, then lines 1 .. AT-1
    with pytest.raises(SaveDiverged) as err:
        Battle.load(path)
    said = str(err.value)
    assert (err.value.agreed, err.value.total) == (agreed, total)
    assert f"$.actions[{agreed}]: the replay reached another state" in said
    assert f"(action {agreed + 1} of {total})" in said and written_by in said
    assert f"the first {agreed} actions agree: the battle may go on from action {agreed}" in said
    assert "\n" not in said


def test_going_on_from_the_last_action_that_agrees(tmp_path):
    path = tmp_path / "auto.json"
    header, total = _journal_of_another_engine(path)
    agreed = header + AT - 1
    b = Battle.load(path, upto=agreed)
    assert len(b.actions) == agreed
    assert b.load_note == (
        f"Went on from action {agreed} of {total}: the {total - agreed} after it were played "
        "otherwise by hulldown 0.0.9 (rules tables 0123456789ab) and are dropped"
    )
    with pytest.raises(SaveDiverged):
        Battle.load(path, upto=agreed + 1)  # the first that does not agree is refused still


def test_play_resume_says_how_to_go_on(tmp_path, data_dir, capsys):
    from game.cli import main
    from game.saves import autosave_path

    path = autosave_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    header, total = _journal_of_another_engine(path)
    agreed = header + AT - 1
    assert main(["play", "--resume", "--frames", "1"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == (
        f"To go on from action {agreed} (the {total - agreed} after it are dropped): "
        f"hulldown play --resume --go-on-from {agreed}"
    )
    assert main(["play", "--resume", "--go-on-from", str(agreed), "--frames", "1"]) == 0
    assert "Went on from action" in capsys.readouterr().err
    assert len(read_journal(path)[0]["actions"]) == agreed  # the autosave goes on from there


def test_the_menus_resume_offers_to_go_on_and_does(app, data_dir):
    import pygame
    import pygame_gui

    from game.saves import autosave_path
    from game.ui.battle.screen import BattleScreen
    from game.ui.menu import MenuScreen

    path = autosave_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    header, total = _journal_of_another_engine(path)
    agreed = header + AT - 1
    menu = MenuScreen(app)
    app.show(menu)
    menu.handle(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=menu.resume_button))
    assert app.screen is menu  # not opened silently
    dialog = menu.go_on_dialog
    text = dialog.confirmation_text.html_text
    assert "hulldown 0.0.9" in text and f"first <b>{agreed}</b> of {total}" in text
    assert dialog.confirm_button.text == f"Go on from action {agreed}"
    menu.handle(pygame.event.Event(pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED, ui_element=dialog))
    assert isinstance(app.screen, BattleScreen) and len(app.screen.battle.actions) == agreed
