"""Hostile disks (issue #30): ``hulldown simulate`` on a full disk stops with the error and a
non-zero exit instead of printing "logs in ..." over empty logs (before the mend: exit 0, 196
of 200 logs empty). The disk fills after a given number of bytes: the battle log's file
object raises OSError(ENOSPC) as a full tmpfs does."""

from __future__ import annotations

import errno
import io
import json
from pathlib import Path

import pytest

import game.rules.files.log as log_module
from game.cli import main
from game.rules.files.log import check_log

ROOT = Path(__file__).resolve().parents[2]
SKIRMISH = str(ROOT / "maps" / "modern-skirmish.json")


class _Disk:
    """A disk that holds ``room`` bytes of battle logs in all, then raises ENOSPC."""

    def __init__(self, room: int):
        self.room = room

    def open(self, path, mode="r", *args, **kwargs):
        fh = io.FileIO(path, mode.replace("b", "") or "r")
        if "w" not in mode:
            return fh
        disk = self

        class Full(io.FileIO):
            def write(self, data):
                if len(data) > disk.room:
                    raise OSError(errno.ENOSPC, "No space left on device")
                disk.room -= len(data)
                return super().write(data)

        fh.close()
        return Full(path, "w")


def _log_sizes(tmp_path, monkeypatch, games: int) -> list[int]:
    """The bytes of each of ``games`` simulated battles' logs, written with room enough."""
    logs = tmp_path / "measured"
    monkeypatch.setattr(log_module, "open", _Disk(10**9).open, raising=False)
    assert (
        main(["simulate", SKIRMISH, "--games", str(games), "--log-dir", str(logs), "--quiet"]) == 0
    )
    return [p.stat().st_size for p in sorted(logs.iterdir())]


@pytest.mark.parametrize(
    "games, done",
    [(3, 0), (3, 1), (5, 2)],
    ids=["full from the start", "full in the second battle", "full in the third battle"],
)
def test_simulate_on_a_full_disk_fails_with_the_error(tmp_path, monkeypatch, capsys, games, done):
    # the disk fills halfway through battle done + 1, whatever length the battles have
    sizes = _log_sizes(tmp_path, monkeypatch, done + 1) if done else [0]
    room = sum(sizes[:done]) + sizes[done] // 2
    capsys.readouterr()
    monkeypatch.setattr(log_module, "open", _Disk(room).open, raising=False)
    logs = tmp_path / "logs"
    code = main(["simulate", SKIRMISH, "--games", str(games), "--log-dir", str(logs), "--quiet"])
    out, err = capsys.readouterr()
    assert code == 1
    assert "logs in" not in out and "battles of" not in out
    bad = logs / f"battle-{done + 1:04d}-seed-{done + 1}.jsonl"
    assert err.splitlines() == [
        f"hulldown simulate: {bad}: the battle log could not be written (No space left on "
        f"device); stopped after {done} of {games} battles (their logs are whole)"
    ]
    for k in range(done):  # the battles before it: whole logs, start to end
        lines = (logs / f"battle-{k + 1:04d}-seed-{k + 1}.jsonl").read_text().splitlines()
        assert check_log([json.loads(x) for x in lines]) == []
    text = bad.read_bytes()
    assert text == b"" or text.endswith(b"\n")  # cut back to its last whole line
    assert not (logs / f"battle-{done + 2:04d}-seed-{done + 2}.jsonl").exists()


def test_simulate_with_room_enough_still_says_where_the_logs_are(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(log_module, "open", _Disk(10**9).open, raising=False)
    logs = tmp_path / "logs"
    assert main(["simulate", SKIRMISH, "--games", "2", "--log-dir", str(logs), "--quiet"]) == 0
    assert f"logs in {logs}/" in capsys.readouterr().out
    assert len(list(logs.iterdir())) == 2


# ---------------------------------------------------------------- the data folder (#30)
# A file where the data folder or its logs/saves/scenarios should be, or a folder that
# cannot be made: before the mend the menu, play, edit and replay all raised
# FileExistsError or NotADirectoryError. Now each says what is wrong, once, and plays on
# without saving (as on a full disk). A read-only folder is the same case as a folder that
# cannot be made (tried by hand on a read-only tmpfs: "cannot write there (Read-only file
# system)"); root ignores permissions, so the test makes the folder impossible instead.


def _file_as_data_folder(tmp):
    (tmp / "data").write_text("x")
    return tmp / "data", "the data folder {d}: it is a file, not a folder"


def _under_a_file(tmp):
    (tmp / "f").write_text("x")
    return tmp / "f" / "data", "the data folder {d}: cannot write there (Not a directory)"


def _file_as(name):
    def make(tmp):
        (tmp / "data").mkdir()
        (tmp / "data" / name).write_text("x")
        return (
            tmp / "data",
            f"the data folder's {name} folder {{d}}/{name}: it is a file, not a folder",
        )

    return make


BROKEN_FOLDERS = {
    "a file as the data folder": _file_as_data_folder,
    "the data folder under a file": _under_a_file,
    "a file as logs": _file_as("logs"),
    "a file as saves": _file_as("saves"),
    "a file as scenarios": _file_as("scenarios"),
}
COMMANDS = {
    "menu": ["menu"],
    "play": ["play", SKIRMISH],
    "edit": ["edit"],
    "replay": ["replay", "{log}"],
}


@pytest.fixture(scope="module")
def a_log(tmp_path_factory) -> str:
    folder = tmp_path_factory.mktemp("log")
    assert main(["simulate", SKIRMISH, "--log-dir", str(folder), "--quiet"]) == 0
    return str(next(folder.iterdir()))


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("broken", BROKEN_FOLDERS)
def test_a_broken_data_folder_is_said_and_play_goes_on(
    tmp_path, monkeypatch, capsys, a_log, broken, command
):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    folder, problem = BROKEN_FOLDERS[broken](tmp_path)
    monkeypatch.setenv("HULLDOWN_DATA_DIR", str(folder))
    argv = [a.format(log=a_log) for a in COMMANDS[command]]
    assert main([*argv, "--frames", "3"]) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err
    line = problem.format(d=folder)
    said = f"{line[0].upper()}{line[1:]}. Play goes on without saving there."
    assert f"hulldown: {said}" in err


@pytest.mark.parametrize("broken", BROKEN_FOLDERS)
def test_a_battle_with_a_broken_data_folder_is_played_in_memory(tmp_path, monkeypatch, broken):
    from game.ui.battles import new_battle

    folder, _ = BROKEN_FOLDERS[broken](tmp_path)
    monkeypatch.setenv("HULLDOWN_DATA_DIR", str(folder))
    battle = new_battle(SKIRMISH, 3)
    for _ in range(6):
        battle.apply(battle.legal_actions()[0])
    assert len(battle.actions) == 6 and len(battle.log.events) > 4
    if broken in ("a file as logs", "the data folder under a file", "a file as the data folder"):
        assert battle.log.error and "could not be written" in battle.log.error
    if broken in ("the data folder under a file", "a file as the data folder"):
        assert battle.autosave_error and "could not be written" in battle.autosave_error


def test_the_menu_keeps_the_data_folders_problem_under_its_buttons(tmp_path, monkeypatch):
    import pygame

    from game.ui.app import App
    from game.ui.menu import MenuScreen

    folder, problem = _file_as("logs")(tmp_path)
    monkeypatch.setenv("HULLDOWN_DATA_DIR", str(folder))
    app = App(size=(1280, 800))
    try:
        menu = MenuScreen(app)
        app.show(menu)
        line = problem.format(d=folder)
        assert menu.message == f"{line[0].upper()}{line[1:]}. Play goes on without saving there."
        assert app.toast[0] == menu.message
    finally:
        pygame.quit()


def test_stale_temporary_files_are_removed_at_start(tmp_path, monkeypatch):
    """Writes killed half way leave ``.NAME.*.tmp``; the next start removes those older than
    a minute in the data folder and its own folders, and leaves new ones and other files."""
    import os
    import time

    from game.ui.app import data_folder_check

    monkeypatch.setenv("HULLDOWN_DATA_DIR", str(tmp_path))
    old, new, kept = [], [], []
    for sub in ("", "logs", "saves", "scenarios"):
        (tmp_path / sub).mkdir(exist_ok=True)
        stale = tmp_path / sub / ".autosave.json.k2j3.tmp"
        fresh = tmp_path / sub / ".battle.jsonl.x9.tmp"
        other = tmp_path / sub / "notes.tmp"
        for p in (stale, fresh, other):
            p.write_text("half")
        hour_ago = time.time() - 3600
        os.utime(stale, (hour_ago, hour_ago))
        os.utime(other, (hour_ago, hour_ago))
        old.append(stale)
        new.append(fresh)
        kept.append(other)
    assert data_folder_check() == ""
    assert not any(p.exists() for p in old)
    assert all(p.exists() for p in new + kept)
