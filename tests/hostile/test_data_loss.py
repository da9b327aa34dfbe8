"""Data lost or a battle made unplayable (issue #42): each case opened through the command a
user would run (the main menu, ``hulldown play --resume``, ``render``, ``generate``, a load),
with the one line it must give."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.cli import main

ROOT = Path(__file__).resolve().parents[2]
SKIRMISH = ROOT / "maps" / "modern-skirmish.json"
FIXTURES = ROOT / "tests" / "fixtures" / "hostile42" / "loss"
pytestmark = pytest.mark.usefixtures("data_dir")  # saves, logs, the autosave: a temporary folder
GEN = ["--a", "T-72", "--b", "M1A1 Abrams", "--seed", "7"]


# ---------------------------------------------------------------- 1. a long seed in the menu


def test_a_30_digit_seed_typed_in_the_menu_is_refused(app):
    """Before: the battle started, and its autosave and saves held a 30-digit integer that
    the save reader refuses (at most 20 digits): it could never be resumed or loaded."""
    from game.ui.menu import MenuScreen

    menu = MenuScreen(app)
    app.show(menu)
    menu.chosen = SKIRMISH
    menu.seed.set_text("1" * 30)
    menu.start_new()
    assert menu.message == "The seed must be a whole number of at most 18 digits."
    assert app.screen is menu


def test_the_longest_seed_the_menu_takes_is_resumed(app, capsys):
    """18 nines, the longest seed the menu, Quick battle and ``--seed`` take: its autosave
    resumes with ``hulldown play --resume``."""
    from game.ui.battle import BattleScreen
    from game.ui.menu import MenuScreen

    menu = MenuScreen(app)
    app.show(menu)
    menu.chosen = SKIRMISH
    menu.seed.set_text("9" * 18)
    menu.start_new()
    assert isinstance(app.screen, BattleScreen)
    assert app.screen.battle.seed == 10**18 - 1
    assert main(["play", "--resume", "--frames", "1"]) == 0
    assert "Traceback" not in capsys.readouterr().err


# ---------------------------------------------------------------- 4. a full disk: render, F12

FULL_DISK = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[1]), resource.RLIM_INFINITY))
from game.cli import main
sys.exit(main(sys.argv[2:]))
"""


def _run(*args: str, env_extra: dict | None = None, timeout: float = 60.0):
    """``python -m game ARGS`` (or ``python -c`` when the first argument is ``-c``) in a
    subprocess, headless; returns the CompletedProcess."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env.update(env_extra or {})
    cmd = [sys.executable, *args] if args[0] == "-c" else [sys.executable, "-m", "game", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=ROOT)


def test_render_on_a_full_disk_says_so_and_keeps_the_old_picture(tmp_path):
    """The disk holds 1,000 bytes more (RLIMIT_FSIZE: pygame's C writer fails as on a full
    disk). Before: ``wrote out.png (800x600 px)``, exit 0, a PNG cut at 1,000 bytes."""
    out = tmp_path / "out.png"
    out.write_bytes(b"the old picture")
    r = _run("-c", FULL_DISK, "1000", "render", str(SKIRMISH), "--out", str(out))
    assert r.returncode == 1, r.stdout
    assert r.stderr.splitlines() == [
        f"{out}: cannot write the picture (File too large); nothing written"
    ]
    assert "wrote" not in r.stdout
    assert out.read_bytes() == b"the old picture"
    assert [p.name for p in tmp_path.iterdir()] == ["out.png"]  # no temporary file left


def test_render_with_a_writer_that_raises_enospc(tmp_path, monkeypatch, capsys):
    """A file object whose write raises ENOSPC, as a full tmpfs does (tests/files/test_save_faults.py)."""
    import errno
    import io

    import game.rules.files.jsonfile as jsonfile

    real_fdopen = jsonfile.os.fdopen

    class Full(io.BufferedWriter):
        def write(self, data):
            raise OSError(errno.ENOSPC, "No space left on device")

    def fdopen(fd, mode="r", *a, **kw):
        if "w" in mode:
            return Full(io.FileIO(fd, "w"))
        return real_fdopen(fd, mode, *a, **kw)

    monkeypatch.setattr(jsonfile.os, "fdopen", fdopen)
    out = tmp_path / "out.png"
    assert main(["render", str(SKIRMISH), "--out", str(out)]) == 1
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        f"{out}: cannot write the picture (No space left on device); nothing written"
    ]
    assert "wrote" not in captured.out
    assert list(tmp_path.iterdir()) == []


def test_f12_on_a_full_disk_says_not_saved_and_leaves_no_empty_file(app, tmp_path, monkeypatch):
    """F12 with 100 bytes left (RLIMIT_FSIZE in this process, put back after). Before: the
    toast said "Screenshot saved" over a file cut at 100 bytes."""
    import resource
    import signal

    import platformdirs
    import pygame

    pictures = tmp_path / "Pictures"
    monkeypatch.setattr(platformdirs, "user_pictures_dir", lambda: str(pictures))
    pictures.mkdir()
    old_handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    limits = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (100, limits[1]))
    try:
        app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F12, mod=0, unicode=""))
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, limits)
        signal.signal(signal.SIGXFSZ, old_handler)
    assert app.toast[0].startswith("Screenshot not saved: ")
    assert app.toast[0].endswith(": File too large")
    assert list(pictures.iterdir()) == []


# ---------------------------------------------------------------- 5. a link or a FIFO at --out


def test_generate_out_through_a_symlink_replaces_its_target_and_keeps_the_link(tmp_path, capsys):
    """Before: the link was replaced by a regular file; the file it led to was left as it
    was."""
    target = tmp_path / "real" / "quick.json"
    target.parent.mkdir()
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    assert main(["generate", *GEN, "--out", str(link)]) == 0
    assert link.is_symlink() and link.resolve() == target
    assert json.loads(target.read_text())["format"] == "hulldown-scenario/1"
    assert main(["check", str(link)]) == 0


def test_generate_out_through_a_dangling_symlink_makes_its_target(tmp_path):
    target = tmp_path / "quick.json"
    link = tmp_path / "link.json"
    link.symlink_to(target)
    assert main(["generate", *GEN, "--out", str(link)]) == 0
    assert link.is_symlink() and json.loads(target.read_text())["stands"]


def test_generate_out_on_a_fifo_is_refused_with_one_line(tmp_path, capsys):
    """Before: the FIFO was replaced by a regular file."""
    import os
    import stat

    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    assert main(["generate", *GEN, "--out", str(fifo)]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"hulldown generate: {fifo}: it is a FIFO, not a regular file; nothing was written there"
    ]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["pipe.json"]


def test_render_out_on_a_fifo_is_refused_with_one_line(tmp_path):
    """In a subprocess: before the mend, pygame opened the FIFO for writing and waited for a
    reader for good (or replaced it)."""
    import os
    import stat

    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    r = _run("render", str(SKIRMISH), "--out", str(fifo), timeout=30)
    assert r.returncode == 1
    assert r.stderr.splitlines() == [
        f"hulldown render: {fifo}: it is a FIFO, not a regular file; nothing was written there"
    ]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_save_through_a_symlink_keeps_the_link(tmp_path):
    """Every writer goes through write_atomic: a save (Ctrl+S, the autosave's header) too."""
    from game import Battle, load_scenario

    target = tmp_path / "saves" / "s.json"
    target.parent.mkdir()
    link = tmp_path / "s.json"
    link.symlink_to(target)
    b = Battle(load_scenario(SKIRMISH), 3)
    b.save(link)
    assert link.is_symlink() and Battle.load(link).state_hash() == b.state_hash()


# ---------------------------------------------------------------- 6. a /1 save, digests deleted


def _old_save(tmp_path, edit) -> Path:
    """A save of a skirmish 4 actions in, made ``hulldown-save/1`` with both digests deleted
    and ``edit`` applied to its document."""
    from game import Battle, Pass, load_scenario

    b = Battle(load_scenario(SKIRMISH), 3)
    b.apply(Pass(b.to_act))
    path = tmp_path / "old.json"
    b.save(path)
    doc = json.loads(path.read_text())
    doc["format"] = "hulldown-save/1"
    del doc["scenario_hash"], doc["actions_hash"]
    edit(doc)
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d["scenario"].update(turns=100),
        lambda d: d["scenario"]["sides"][0].update(cohesion=40),
        lambda d: None,
    ],
    ids=["100 turns", "cohesion 40", "not edited"],
)
def test_an_old_save_without_its_scenario_hash_is_refused(tmp_path, capsys, edit):
    """Before: ``play --load`` opened the battle with 100 turns (or any other edit of the
    scenario the save carries) as if it were the one saved. A /1 save without its
    ``scenario_hash`` cannot be told from an edited one, so it is refused, edited or not."""
    path = _old_save(tmp_path, edit)
    assert main(["play", "--load", str(path), "--frames", "1"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"{path}: $.scenario_hash: required field is missing (a hulldown-save/1 file without "
        "it cannot be told from one whose scenario was edited; start the battle again from "
        "its scenario)"
    ]


def test_an_old_save_with_its_scenario_hash_is_checked(tmp_path, capsys):
    """A /1 save of #26-#30 (a scenario_hash, no actions_hash): loads; edited, refused."""

    def keep_hash(doc):
        from game.rules.files.savefile import scenario_hash

        doc["scenario_hash"] = scenario_hash(doc["scenario"], doc["seed"])

    good = _old_save(tmp_path, keep_hash)
    assert main(["play", "--load", str(good), "--frames", "1"]) == 0

    def edit_after(doc):
        keep_hash(doc)
        doc["scenario"]["turns"] = 100

    bad = _old_save(tmp_path, edit_after)
    assert main(["play", "--load", str(bad), "--frames", "1"]) == 1
    assert "no longer match $.scenario_hash" in capsys.readouterr().err


# ---------------------------------------------------------------- 2. a journal's zeroed tail


def _journal_of(actions: int) -> tuple[Path, list[int]]:
    """The autosave journal of a skirmish (random against random, seed 5) ``actions`` in;
    returns its path and the byte offset where each line ends."""
    from game import Battle, load_scenario
    from game.check.sim import make_players
    from game.saves import autosave_path

    b = Battle(load_scenario(SKIRMISH), 5, autosave=autosave_path())
    players = make_players(b, ("random", "random"))
    while len(b.actions) < actions:
        b.apply(players[b.to_act].choose(b))
    b._journal.close()
    data = autosave_path().read_bytes()
    ends = [i + 1 for i, c in enumerate(data) if c == ord("\n")]
    return autosave_path(), ends


@pytest.mark.parametrize(
    "zeros",
    ["over the last 3 lines", "appended, 4096 bytes", "from the middle of a line"],
)
def test_a_journal_whose_tail_is_zeros_resumes_every_intact_line(capsys, zeros):
    """A power cut: the journal's length reached the disk, its last block did not. Before:
    ``play --resume`` refused it whole (``line 38: ... control character``), every action
    lost. Now: the actions before the zeros resume, and one line says how many were dropped."""
    path, ends = _journal_of(40)
    data = path.read_bytes()
    lines = len(ends)  # the header and one line per action since it
    if zeros == "over the last 3 lines":
        keep_lines = lines - 3
        data = data[: ends[keep_lines - 1]] + b"\0" * (len(data) - ends[keep_lines - 1])
    elif zeros == "appended, 4096 bytes":
        keep_lines = lines
        data += b"\0" * 4096
    else:
        keep_lines = lines - 2
        middle = (ends[keep_lines - 1] + ends[keep_lines]) // 2
        data = data[:middle] + b"\0" * (len(data) - middle)
    path.write_bytes(data)
    header_actions = len(json.loads(data[: ends[0]])["actions"])
    kept = header_actions + keep_lines - 1
    assert main(["play", "--resume", "--frames", "1"]) == 0
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"hulldown play: {path}: its last ")
    assert f"resumed from the {kept} actions before them; about " in line
    from game import Battle

    assert len(Battle.load(path).actions) == kept  # the journal was written anew, whole
    assert b"\0" not in path.read_bytes()


def test_the_battle_screen_says_what_the_zeros_took(app):
    """Resume the autosave from the main menu: the battle screen says it too."""
    from game.ui.battle import BattleScreen
    from game.ui.menu import MenuScreen

    path, ends = _journal_of(30)
    data = path.read_bytes()
    path.write_bytes(data[: ends[-3]] + b"\0" * (len(data) - ends[-3]))
    menu = MenuScreen(app)
    app.show(menu)
    menu.load(path)
    assert isinstance(app.screen, BattleScreen)
    assert "were zeros or a line cut short (a power cut?): resumed from the" in (app.screen.message)


def test_a_journal_whose_header_is_zeroed_is_refused_with_one_line(capsys):
    """Nothing to resume from when the zeros begin in the header (the scenario and seed)."""
    path, ends = _journal_of(3)
    data = path.read_bytes()
    path.write_bytes(data[:100] + b"\0" * (len(data) - 100))
    assert main(["play", "--resume", "--frames", "1"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"{path}: not an autosave journal (zero bytes from its first line on: a power cut?)"
    ]


# ---------------------------------------------------------------- 3. kill -9 during play --resume


def _killed_resume(log: Path, when: str, delay: float) -> None:
    """Run ``hulldown play --resume`` and SIGKILL it: ``when`` "rewrite" kills it the moment
    the log shrinks or a temporary file of it appears (the rewrite under way), "after" kills
    it ``delay`` seconds after it started."""
    import os
    import signal
    import subprocess
    import sys
    import time

    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    size = log.stat().st_size
    proc = subprocess.Popen(
        [sys.executable, "-m", "game", "play", "--resume", "--frames", "100000"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    t0 = time.monotonic()
    try:
        while proc.poll() is None and time.monotonic() - t0 < 30:
            if when == "after" and time.monotonic() - t0 >= delay:
                break
            if when == "rewrite":
                try:
                    shrunk = log.stat().st_size < size
                except FileNotFoundError:
                    shrunk = True
                if shrunk or any(log.parent.glob(f".{log.name}.*.tmp")):
                    break
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()


def test_kill_9_during_play_resume_leaves_the_log_whole(data_dir):
    """The resumed battle rewrites its log from the autosave. Before: opened with "wb", the
    log was empty or cut at the kill (the "rewrite" kill saw it at 0 bytes). Now it is
    written aside and renamed: old or new, it is whole (and the same bytes)."""
    from game import Battle, load_scenario
    from game.check.sim import make_players
    from game.ui.battles import new_battle

    scenario = load_scenario(ROOT / "maps" / "modern-fire-support.json")
    dry = Battle(scenario, 11)  # how many actions the battle lasts, random against random
    players = make_players(dry, ("random", "random"))
    while not dry.finished:
        dry.apply(players[dry.to_act].choose(dry))
    b = new_battle(scenario, 11)  # the same battle, stopped one action before its end
    players = make_players(b, ("random", "random"))
    while len(b.actions) < len(dry.actions) - 1:
        b.apply(players[b.to_act].choose(b))
    b._journal.close()
    b.log.close()
    log = Path(b.log_path)
    whole = log.read_bytes()
    assert whole.count(b"\n") > 300
    for when, delay in [("rewrite", 0), ("rewrite", 0), (("after", 0.8)), ("after", 1.5)]:
        _killed_resume(log, when, delay)
        assert log.read_bytes() == whole, f"kill at {when} {delay}"
