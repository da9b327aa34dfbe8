"""Faults of issue #42 met through the map editor, the menu and ``points``: a broken editor
autosave restored and undone, test play with a logs folder that cannot be written, a NUL in a
side's name in the scenarios folder, a lone surrogate in a title, a data folder path over
4,096 characters, and a scenario over the stand cap.

Each case opens the file the way a user would (Restore in the editor's New dialog, F5, the
menu's scenario list, ``hulldown points``, ``hulldown menu``/``edit``/``play`` in a process
of its own) and asserts what the user sees; each failed before the mend (a traceback)."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pygame
import pygame_gui
import pytest

from game.cli import main
from game.editor.document import Document, read_session, write_session
from game.ui.battle import BattleScreen
from game.ui.editor import editor_screen
from game.ui.menu import MenuScreen
from tests.helpers import editor_frame as frame
from tests.helpers import editor_key as key
from tests.helpers import editor_press as press

ROOT = Path(__file__).resolve().parents[2]
SKIRMISH = ROOT / "maps" / "modern-skirmish.json"

pytestmark = pytest.mark.usefixtures("data_dir")


def _session_with_history(app, data_dir: Path) -> dict:
    """An editor autosave as the editor writes it, with three entries of undo history
    (two nudges of everything and a delete)."""
    s = editor_screen(app, Document.open(SKIRMISH))
    app.show(s)
    frame(s)
    key(s, pygame.K_a, pygame.KMOD_CTRL)
    key(s, pygame.K_RIGHT)
    key(s, pygame.K_RIGHT)
    key(s, pygame.K_DELETE)
    assert [e.label for e in s.doc.history.entries] == ["nudge", "nudge", "delete"]
    data_dir.mkdir(parents=True, exist_ok=True)
    f = data_dir / "written.json"
    write_session(f, s.doc)
    return json.loads(f.read_text())


def _set(doc: dict, path: tuple, value) -> dict:
    doc = copy.deepcopy(doc)
    obj = doc
    for k in path[:-1]:
        obj = obj[k]
    if value is KeyError:
        del obj[path[-1]]
    else:
        obj[path[-1]] = value
    return doc


E0 = ("history", "entries", 0)
# case -> (the field made wrong, its value, whether the undo history is kept, a note's words)
AUTOSAVES = {
    "a missing redo": ((*E0, "redo"), KeyError, False, "$.history: not a history command"),
    "a NUL in the path": (("path",), "/tmp/a\x00b.json", True, "$.path: not a file name"),
    "a lone surrogate in the path": (("path",), "/tmp/\ud800.json", True, "$.path"),
    "a path over 4,096 characters": (("path",), "/" + "a" * 5000, True, "$.path"),
    "a NUL in a label": ((*E0, "label"), "nu\x00dge", True, None),
    "a lone surrogate in a label": ((*E0, "label"), "\ud800", True, None),
    "a lone surrogate in a command's label": ((*E0, "redo", "label"), "\udfff", True, None),
    "an undo to a null feature": (
        (*E0, "undo", "commands", 0, "item"),
        None,
        False,
        "gives a map the editor cannot show",
    ),
    "a redo to a null feature": (
        (*E0, "redo", "commands", 0, "item"),
        None,
        False,
        "gives a map the editor cannot show",
    ),
    "an undo to no terrain at all": (
        (*E0, "undo"),
        {"op": "set", "path": ["terrain"], "value": None, "label": "x", "position": None},
        False,
        "$.history",
    ),
}


@pytest.mark.parametrize("case", list(AUTOSAVES))
def test_a_broken_editor_autosave_is_restored_undone_and_redone_without_a_traceback(
    app, data_dir, case
):
    """(#42) Restore, five Ctrl+Z, five Ctrl+Y and F5 on the real editor screen: before the
    mend each of these raised (KeyError, an AttributeError in the drawing, a NUL or a
    surrogate handed to the font or to the autosave's writer)."""
    path, value, kept, words = AUTOSAVES[case]
    base = _session_with_history(app, data_dir)
    (data_dir / "editor-autosave.json").write_text(
        json.dumps(_set(base, path, value), ensure_ascii=True)
    )
    s = editor_screen(app, None)
    app.show(s)
    frame(s)
    press(s, "Restore the unsaved map")
    assert bool(s.doc.history.entries) is kept
    assert ("undo history was broken" in s.message[0]) is (not kept)
    if words:
        assert any(words in p.text for p in s.doc.problems()), [p.text for p in s.doc.problems()]
    for _ in range(5):
        key(s, pygame.K_z, pygame.KMOD_CTRL)
    for _ in range(5):
        key(s, pygame.K_y, pygame.KMOD_CTRL)
    key(s, pygame.K_F5)
    # the session is autosaved again, whole: every label is text any file can hold
    assert s.doc.history.entries == [] or all(
        "\x00" not in e.label and "\ud800" not in e.label for e in s.doc.history.entries
    )
    write_session(data_dir / "again.json", s.doc)
    assert read_session(data_dir / "again.json").raw == s.doc.raw


def test_an_autosave_whose_history_undoes_to_a_null_feature_keeps_the_map(data_dir):
    """(#42) The map the autosave holds is restored whole; only the history is dropped."""
    data_dir.mkdir(parents=True, exist_ok=True)
    raw = json.loads(SKIRMISH.read_text())
    feature = raw["terrain"]["features"][0]
    history = {
        "entries": [
            {
                "label": "draw",
                "redo": {"op": "insert", "kind": "feature", "index": 0, "item": feature},
                "undo": {"op": "replace", "kind": "feature", "index": 0, "item": None},
            }
        ]
    }
    f = data_dir / "a.json"
    f.write_text(
        json.dumps({"format": "hulldown-editor-autosave/1", "scenario": raw, "history": history})
    )
    doc = read_session(f)
    assert doc.history.entries == [] and doc.raw["terrain"]["features"][0] == feature
    assert any("$.history" in p.text for p in doc.problems())


def test_test_play_with_the_logs_folder_a_file_plays_on_and_says_why(app, data_dir):
    """(#42) F5 with ``logs`` a file in the data folder raised FileExistsError; now the
    battle starts, unlogged, and its screen says why."""
    data_dir.mkdir(parents=True, exist_ok=True)
    if (data_dir / "logs").is_dir():
        (data_dir / "logs").rmdir()
    (data_dir / "logs").write_text("not a folder")
    s = editor_screen(app, Document.open(SKIRMISH))
    app.show(s)
    frame(s)
    key(s, pygame.K_F5)
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    assert "it is a file, not a folder" in screen.battle.log.error
    screen.update(0.016)
    screen.draw(app.surface)


def test_test_play_with_a_read_only_logs_folder_plays_on_and_says_why(app, monkeypatch):
    """(#42) A read-only data folder (root ignores permissions here, so the log's opening
    is made to fail as a read-only disk fails it)."""
    import errno

    from game.rules.files.log import LogWriter

    def refuse(self, path):
        raise OSError(errno.EROFS, "Read-only file system", str(path))

    monkeypatch.setattr(LogWriter, "open_file", refuse)
    s = editor_screen(app, Document.open(SKIRMISH))
    app.show(s)
    frame(s)
    key(s, pygame.K_F5)
    assert isinstance(app.screen, BattleScreen)
    assert "Read-only file system" in app.screen.battle.log.error


def test_a_nul_side_name_in_the_scenarios_folder_is_listed_and_refused_in_words(app, data_dir):
    """(#42) The menu's points line handed a NUL to the font (ValueError); now it shows
    U+FFFD and New battle names the field."""
    raw = json.loads(SKIRMISH.read_text())
    raw["sides"][0]["name"] = "Bl\x00ue"
    (data_dir / "scenarios").mkdir(parents=True, exist_ok=True)
    mine = data_dir / "scenarios" / "mine.json"
    mine.write_text(json.dumps(raw))
    m = MenuScreen(app)
    app.show(m)
    m.update(0.016)
    m.draw(app.surface)
    m.handle(
        pygame.event.Event(
            pygame_gui.UI_DROP_DOWN_MENU_CHANGED, ui_element=m.scenario_menu, text="mine.json"
        )
    )
    m.update(0.016)
    m.draw(app.surface)
    assert m.chosen == mine and "Bl\ufffdue" in m.points.text
    m.start_new()
    assert app.screen is m and "$.sides[0].name: a control character (U+0000)" in m.message


def test_points_of_a_title_with_a_lone_surrogate_prints_it_as_a_replacement(tmp_path, capsys):
    """(#42) ``hulldown points`` raised UnicodeEncodeError printing the title."""
    raw = json.loads(SKIRMISH.read_text())
    raw["title"] = "bad \ud800 title"
    raw["sides"][1]["name"] = "Or\udfffange"
    f = tmp_path / "s.json"
    f.write_text(json.dumps(raw))
    assert main(["points", str(f)]) == 0
    out = capsys.readouterr().out
    out.encode("utf-8")  # printable as it is
    assert "bad \ufffd title (modern)" in out and "Or\ufffdange" in out


LONG_DATA_DIR = "/tmp/" + "/".join(["d" * 200] * 25)  # 5,029 characters


@pytest.mark.parametrize(
    "argv",
    [["menu"], ["edit"], ["play", str(SKIRMISH)]],
    ids=["menu", "edit", "play"],
)
def test_a_data_folder_path_over_4096_characters_starts_and_says_so(argv):
    """(#42) Start-up raised OSError (File name too long) reading the settings; now every
    screen opens, with one line naming the folder, shortened, and the problem."""
    env = {
        **os.environ,
        "HULLDOWN_DATA_DIR": LONG_DATA_DIR,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
    }
    run = subprocess.run(
        [sys.executable, "-m", "game", *argv, "--frames", "3"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "Traceback" not in run.stderr
    lines = [ln for ln in run.stderr.splitlines() if ln.startswith("hulldown:")]
    assert len(lines) == 1 and "(a path of 5029 characters)" in lines[0]
    assert "File name too long" in lines[0] and len(lines[0]) < 400


def test_the_editor_does_not_open_a_scenario_over_the_stand_cap(tmp_path, capsys):
    """(#42) 100,000 stands on one point opened in the editor at 2-3 s a frame; the editor
    now refuses it, as ``check`` does, with one line, and leaves the file as it was."""
    raw = json.loads(SKIRMISH.read_text())
    raw["stands"] = [dict(raw["stands"][0], id=f"x{i}") for i in range(100_000)]
    f = tmp_path / "many.json"
    f.write_text(json.dumps(raw))
    before = f.read_bytes()
    assert main(["edit", str(f), "--frames", "1"]) == 1
    err = capsys.readouterr().err
    assert "$.stands: 100000 stands; a scenario holds at most 400" in err
    assert f.read_bytes() == before


def test_leaving_the_editor_while_a_view_is_computed_waits_for_its_thread(app):
    """(#42) The program could end while a sight view's thread was inside Shapely, which
    aborted it (rc -6, "terminate called without an active exception": seen by the geometry
    tests' editor script, 2 runs in 4). Closing the screen (as the window's end does) now
    cancels the view and waits for its thread, so nothing runs on into the interpreter's
    end."""
    s = editor_screen(app, Document.open(ROOT / "maps" / "wwii-47-breakthrough.json"))
    app.show(s)
    frame(s)
    s.views.show_view("sight A")
    job = s.views._overlay_job
    assert job is not None and job["thread"].is_alive()
    s.close()
    assert job["cancel"] and not job["thread"].is_alive()
