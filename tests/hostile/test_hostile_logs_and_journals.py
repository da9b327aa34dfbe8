"""Battle logs and autosave journals a user hands the program (#42), each opened through the
command a user would run: ``hulldown replay FILE --check`` (new), ``hulldown replay FILE``
(the window, headless) and ``hulldown play --load``.

The fixtures (tests/fixtures/hostile42/logs/) are the first 75 lines of a corpus battle of
the full Modern game with fire support, one thing spoiled in each; :func:`write_fixtures`
makes them again (a test holds the committed files to it).
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.cli import main
from tests.helpers import BASE_SAVE, base_log

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "hostile42" / "logs"
# the corpus battle as recorded before #43 (its log, the fixtures' base, unchanged since)
HEADLESS = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}


def _first(events, name, pick=lambda e: True) -> dict:
    return next(e for e in events if e["event"] == name and pick(e))


def _plot_in_turn_2(events) -> dict:
    return _first(events, "plot", lambda e: e["turn"] == 2)


def _failed_deviation(e) -> bool:
    return isinstance(e.get("deviation"), dict) and e["deviation"].get("direction_die")


def _set(pick, key, value):
    def spoil(events):
        pick(events)[key] = value

    return spoil


def _drop_distance(events):
    del _first(events, "artillery", _failed_deviation)["deviation"]["distance_in"]


def _drop_strike_result(events):
    del _first(events, "air_strike", lambda e: e.get("target"))["result"]


def _unknown_key(lists: int):
    def spoil(events):
        _first(events, "pass")["junk"] = [[] for _ in range(lists)]

    return spoil


def _long_path(points: int):
    def spoil(events):
        move = _first(events, "move")
        x, y = move["path"][-1]
        move["path"] = [[x, y]] * points

    return spoil


FIRST_PLOT = lambda events: _first(events, "plot")  # noqa: E731
ARTILLERY = lambda events: _first(events, "artillery")  # noqa: E731
STRIKE = lambda events: _first(events, "air_strike", lambda e: e.get("target"))  # noqa: E731

CASES = {
    # plot.lands_turn: a later turn of the battle, as the engine allows (plot.turn_problem)
    "lands-turn-0": (_set(FIRST_PLOT, "lands_turn", 0), "plot.lands_turn: must be a later turn"),
    "lands-turn-minus-1": (_set(FIRST_PLOT, "lands_turn", -1), "(2 to 12), not -1"),
    "lands-turn-past": (_set(_plot_in_turn_2, "lands_turn", 1), "(3 to 12), not 1"),
    "lands-turn-now": (_set(_plot_in_turn_2, "lands_turn", 2), "(3 to 12), not 2"),
    "lands-turn-past-the-last": (_set(FIRST_PLOT, "lands_turn", 13), "(2 to 12), not 13"),
    "lands-turn-1e9": (_set(FIRST_PLOT, "lands_turn", 10**9), "(2 to 12), not 1000000000"),
    # fields a sentence reads, missing
    "no-distance-in": (_drop_distance, "artillery.deviation.distance_in: is missing"),
    "no-result-air-strike": (_drop_strike_result, "air_strike.result: is missing"),
    # text the font cannot render
    "nul-in-mission": (
        _set(ARTILLERY, "mission", "M\x001"),
        "artillery.mission: must be text without a NUL or a lone surrogate, not U+0000",
    ),
    "surrogate-in-mission": (
        _set(FIRST_PLOT, "mission", "M\ud8001"),
        "plot.mission: must be text without a NUL or a lone surrogate, not U+D800",
    ),
    "surrogate-in-aircraft": (
        _set(STRIKE, "aircraft", "\udfff"),
        "air_strike.aircraft: must be text without a NUL or a lone surrogate, not U+DFFF",
    ),
    # memory caps: what an unknown key may hold, a path's points as in saves
    "unknown-key-20001-lists": (
        _unknown_key(20_001),
        "$.junk: 20,002 arrays and objects in it (20,003 in the line, at most 10,000)",
    ),
    "path-1001-points": (
        _long_path(1001),
        "move.path: must have at most 1,000 items, not 1,001",
    ),
    "path-10001-points": (
        _long_path(10_001),
        "$.path: 10,002 arrays and objects in it (10,003 in the line, at most 10,000)",
    ),
}
"""Fixture name: (how the base log is spoiled, what ``replay --check`` says of it)."""
ACCEPTED = {"long-word-200000": _set(STRIKE, "aircraft", "w" * 200_000)}
"""Fixtures the replay shows (the panel cuts the word)."""


def write_fixtures(folder: Path) -> list[Path]:
    """Write every fixture of CASES and ACCEPTED, and the base log, to ``folder``; JSON as
    any writer would give it (a lone surrogate as its escape)."""
    folder.mkdir(parents=True, exist_ok=True)
    base = base_log()
    paths = []
    spoils = {"base": lambda ev: None, **{k: v[0] for k, v in CASES.items()}, **ACCEPTED}
    for name, spoil in spoils.items():
        events = copy.deepcopy(base)
        spoil(events)
        path = folder / f"{name}.jsonl"
        path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
        paths.append(path)
    return paths


def test_the_fixtures_are_those_write_fixtures_makes(tmp_path):
    for made in write_fixtures(tmp_path):
        assert (FIXTURES / made.name).read_bytes() == made.read_bytes(), made.name


# ---------------------------------------------------------------- replay --check


def test_check_says_ok_in_one_line(capsys):
    path = FIXTURES / "base.jsonl"
    assert main(["replay", str(path), "--check"]) == 0
    out = capsys.readouterr()
    assert out.err == ""
    assert out.out == (
        f"{path}: ok (modern-full, 75 lines replayed and put into words, 2 turns; but the "
        "log ends before the battle does: its last line is in turn 2 (movement) and no end line "
        "follows)\n"
    )


def test_check_of_a_whole_log_and_of_a_save(tmp_path, capsys):
    from game import Battle

    events = Battle.load(BASE_SAVE).log.events
    path = tmp_path / "whole.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    assert main(["replay", str(path), "--check"]) == 0
    assert capsys.readouterr().out.endswith("12 turns; a draw)\n")
    assert main(["replay", str(BASE_SAVE), "--check"]) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"{BASE_SAVE}: ok (modern-full, ") and "actions replayed" in said


def test_check_is_in_the_help_and_the_readme(capsys):
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    assert "--check" in capsys.readouterr().out
    assert "hulldown replay FILE --check" in (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", CASES)
def test_a_spoiled_log_is_refused_in_one_line(capsys, name):
    """``replay --check`` and the replay window refuse it with the same line: the file, the
    line and the field (before #42 the lands_turn cases replayed silently, the others raised
    KeyError or ValueError or UnicodeEncodeError from the panel, or took memory)."""
    path = FIXTURES / f"{name}.jsonl"
    words = CASES[name][1]
    assert main(["replay", str(path), "--check"]) == 1
    out = capsys.readouterr()
    assert out.out == ""
    [said] = out.err.splitlines()
    assert said.startswith(f"{path}: line ") and words in said, said
    assert main(["replay", str(path), "--frames", "1"]) == 1
    assert capsys.readouterr().err.splitlines() == [said]


def test_a_200000_letter_word_is_cut_in_the_panel(capsys):
    """The replay shows it at once (it froze the window 47 s, 65 s here, to wrap it a
    letter at a time); the panel says how long the word was."""
    from game import LogReplay
    from game.ui.replay import Sentences

    path = FIXTURES / "long-word-200000.jsonl"
    t0 = time.perf_counter()
    assert main(["replay", str(path), "--check"]) == 0
    assert main(["replay", str(path), "--frames", "3"]) == 0
    r = LogReplay.from_file(path)
    shown = [t for t in Sentences(r.all_events, r.length, {}, {}) if "w" * 50 in t]
    assert len(shown) == 1 and "(" + "w" * 99 + " [... 200,003 letters in all]" in shown[0]
    assert time.perf_counter() - t0 < 10


def test_the_panel_draws_nul_surrogates_and_a_long_word():
    """The log panel (the battle screen's and the replay's) never hands the font a NUL, a
    lone surrogate or a word it wraps in quadratic time."""
    import pygame

    from game.ui.logview import LogView

    pygame.init()
    view = LogView(pygame.Rect(0, 0, 348, 600))
    view.lines = ["a\x00b", "c\ud800d", "e\udfff", "w" * 200_000 + ".", "ok"]
    t0 = time.perf_counter()
    view.draw(pygame.Surface((348, 600)))
    assert time.perf_counter() - t0 < 1.0
    assert all(view._line(i).get_height() < 200 for i in range(len(view.lines)))


# ---------------------------------------------------------------- the mutations


def test_mutations_of_real_logs_raise_nothing_and_refuse_every_bad_lands_turn():
    """tools/checks/mutate_logs.py's mutations (wrong types, start-line shapes, missing fields,
    NUL, lone surrogates and long words, bad lands_turn), each through ``replay --check``:
    none raises, none with a bad lands_turn is accepted (before: 38 exceptions in 6,500,
    185 lands_turn accepted)."""
    sys.path.insert(0, str(ROOT))
    from tools.checks.mutate_logs import KINDS, run

    counts = run(250, seed=42)
    assert sum(v for (_, o), v in counts.items() if o == "bug") == 0, counts
    assert counts["lands_turn", "ok"] == 0 and counts["lands_turn", "refused"] > 20
    assert all(counts[k, "refused"] > 10 for k in KINDS), counts


# ---------------------------------------------------------------- memory caps


_PEAK = """
import atexit, runpy, sys
def peak():  # the process's own high-water mark, in kB (reset by exec, unlike ru_maxrss)
    with open("/proc/self/status") as fh:
        kb = next(ln.split()[1] for ln in fh if ln.startswith("VmHWM:"))
    sys.stderr.write("\\nPEAK_KB " + kb + "\\n")
atexit.register(peak)
sys.argv = ["hulldown", *sys.argv[1:]]
runpy.run_module("game", run_name="__main__", alter_sys=True)
"""


def _peak_mb(argv: list[str]) -> tuple[int, str, float]:
    """Run ``hulldown ARGV`` in its own process: (exit status, stderr, peak memory MB). The
    peak is the process's own VmHWM, read as it exits: the ru_maxrss of os.wait4 keeps the
    high-water mark of the process it was forked from (a pytest worker of 2 GB, under
    xdist), so it measured the test runner, not the command."""
    proc = subprocess.run(
        [sys.executable, "-c", _PEAK, *argv],
        cwd=ROOT,
        env=HEADLESS,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        check=False,
    )
    err = proc.stderr.decode("utf-8", "replace")
    err, _, kb = err.rpartition("\nPEAK_KB ")
    return proc.returncode, err.rstrip("\n"), int(kb) / 1024


def test_twenty_million_empty_lists_under_an_unknown_key_are_refused_before_parsing(tmp_path):
    """A 60 MB line whose unknown key holds 20,000,000 empty lists: refused by its count of
    arrays, naming the key, in a bounded footprint (1.7 GB accepted before #42)."""
    events = base_log()
    i = next(k for k, e in enumerate(events) if e["event"] == "pass")
    path = tmp_path / "junk.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        for k, e in enumerate(events):
            line = json.dumps(e, separators=(",", ":"))
            if k == i:
                line = line[:-1] + ',"junk":[' + ",".join(["[]"] * 20_000_000) + "]}"
            fh.write(line + "\n")
    code, err, mb = _peak_mb(["replay", str(path), "--check"])
    assert code == 1 and "Traceback" not in err
    assert err.splitlines()[-1:] == [  # after the progress bar of a file over 1 MB
        f"{path}: line {i + 1}: $.junk: 20,000,001 arrays and objects in it (20,000,002 in "
        "the line, at most 10,000)"
    ]
    assert mb < 400, mb


def test_a_million_point_path_is_refused_in_a_log_as_in_a_save(tmp_path, capsys):
    events = base_log()
    _long_path(1_000_000)(events)
    path = tmp_path / "path.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    assert main(["replay", str(path), "--check"]) == 1
    said = capsys.readouterr().err.splitlines()[-1]  # after the progress bar (10 MB)
    assert said.endswith(
        ": $.path: 1,000,001 arrays and objects in it (1,000,002 in the line, at most 10,000)"
    )


# ---------------------------------------------------------------- the autosave journal


def legal_journal(path: Path, lines: int) -> None:
    """A legal autosave journal of ``lines`` action lines: a stand of the meeting map put
    into another battle group and back, over and over, before turn 1 (the engine allows
    it without end; the state after each is one of two)."""
    from game import Battle, Regroup, load_scenario

    b = Battle(load_scenario(ROOT / "maps" / "modern-meeting.json"), 1, autosave=path)
    a = next(x for x in b.legal_actions() if isinstance(x, Regroup))
    back = Regroup(a.side, a.stand, b.state.stands[a.stand].group)
    for x in (a, back, a):
        b.apply(x)
    b.close_autosave()
    header, there, again = path.read_bytes().split(b"\n")[:3]
    with path.open("wb") as fh:
        fh.write(header + b"\n" + (there + b"\n" + again + b"\n") * (lines // 2))


def test_a_long_journal_is_loaded_with_progress_bars(tmp_path, capsys):
    """``play --load`` of a 3 MB autosave shows the bytes read and the actions replayed
    (a 62 MB one took 84-95 s with nothing shown before #42)."""
    path = tmp_path / "autosave.json"
    legal_journal(path, 30_000)
    assert path.stat().st_size > 2**20
    assert main(["play", "--load", str(path), "--frames", "1"]) == 0
    err = capsys.readouterr().err
    assert "reading the autosave: 100%" in err and "replaying it: 100%" in err
    assert "30.0k/30.0k" in err and "Traceback" not in err


def test_a_long_journal_is_read_in_memory_in_proportion_to_its_actions(tmp_path):
    """The journal is read a line at a time, each action's JSON replaced by its object:
    the reading's peak is a small multiple of the file (17 times it before #42, the whole
    text, its lines and their objects held at once)."""
    import gc
    import tracemalloc

    from game.rules.files.savefile import read_save

    path = tmp_path / "autosave.json"
    legal_journal(path, 30_000)
    size = path.stat().st_size
    gc.collect()
    tracemalloc.start()
    doc, checks, _scenario, actions = read_save(path)
    kept, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert len(actions) == 30_001 and len(checks) == 30_001
    assert peak < 1.5 * kept and peak < 8 * size, (peak / size, kept / size)


def test_an_unknown_key_in_a_journal_line_is_capped(tmp_path, capsys):
    path = tmp_path / "autosave.json"
    legal_journal(path, 10)
    lines = path.read_bytes().split(b"\n")
    lines[3] = lines[3][:-1] + b',"junk":[' + b",".join([b"[]"] * 20_000) + b"]}"
    path.write_bytes(b"\n".join(lines))
    assert main(["play", "--load", str(path), "--frames", "1"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"{path}: line 4: $.junk: 20,001 arrays and objects in it (20,003 in the line, at most "
        "10,000)"
    ]


def test_the_menus_resume_shows_the_progress_of_a_long_autosave(app, data_dir, monkeypatch):
    """The main menu's Resume on a 3 MB autosave draws a bar in the window as it reads and
    replays (nothing was shown before #42), and the battle opens."""
    import pygame
    import pygame_gui

    from game.saves import autosave_path
    from game.ui.battle.screen import BattleScreen
    from game.ui.menu import MenuScreen

    path = autosave_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    legal_journal(path, 30_000)
    flips = []
    flip = pygame.display.flip
    monkeypatch.setattr(pygame.display, "flip", lambda: flips.append(1) or flip())
    menu = MenuScreen(app)
    app.show(menu)
    menu.handle(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=menu.resume_button))
    assert isinstance(app.screen, BattleScreen) and len(app.screen.battle.actions) == 30_001
    assert len(flips) >= 2  # at least the end of the reading and of the replay
