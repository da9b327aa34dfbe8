"""Broken editor autosaves restored and undone on the real editor screen (#42 figures).

Builds an editor autosave as the editor writes it (modern-skirmish, everything selected,
nudged twice and deleted: three entries of undo history), then makes one field of it wrong
at a time: every field of ``path`` and the history (down to each command's fields, not into
the scenario items) set to null, text, a list, an object, -1, 10**9, a NUL, a lone
surrogate, 1.5, true, or deleted. Each is put in a fresh data folder and opened the way a
player meets it: the editor's New dialog, Restore, five Ctrl+Z, five Ctrl+Y, F5 (dummy video
driver). Prints each new kind of exception once and a summary; exits 1 on any exception.

Usage: python tools/checks/hostile_editor_autosave.py [--limit N]
"""

from __future__ import annotations

import argparse
import collections
import copy
import json
import os
import sys
import tempfile
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VALUES = [None, "x", [], {}, -1, 10**9, "\x00", "\ud800", 1.5, True, KeyError]


def _paths(obj, at=()):
    """Every path into ``obj`` (two items of each list, not into a command's item)."""
    yield at
    if "item" in at or len(at) > 7:
        return
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, (*at, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:2]):
            yield from _paths(v, (*at, i))


def _set(obj, at, value) -> None:
    for k in at[:-1]:
        obj = obj[k]
    if value is KeyError:
        del obj[at[-1]]
    else:
        obj[at[-1]] = value


def main() -> int:
    """Run the cases; 0 when none raised."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=0, help="run only the first N cases")
    args = ap.parse_args()
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    data = Path(tempfile.mkdtemp()) / "data"
    os.environ["HULLDOWN_DATA_DIR"] = str(data)
    sys.path.insert(0, str(ROOT))
    import pygame

    from game.ui.app import App
    from game.ui.editor import editor_screen
    from tests.editor.test_editor_ui import frame, key, press
    from tests.hostile.test_hostile_editor_files import _session_with_history

    app = App(size=(1280, 800))
    base = _session_with_history(app, data)
    cases = [
        (at, v)
        for at in _paths({k: base[k] for k in ("path", "history", "format")})
        if at
        for v in VALUES
    ]
    if args.limit:
        cases = cases[: args.limit]
    errors: collections.Counter = collections.Counter()
    for n, (at, value) in enumerate(cases, 1):
        doc = copy.deepcopy(base)
        _set(doc, at, value)
        data.mkdir(parents=True, exist_ok=True)
        (data / "editor-autosave.json").write_text(json.dumps(doc, ensure_ascii=True))
        try:
            s = editor_screen(app, None)
            app.show(s)
            frame(s)
            press(s, "Restore the unsaved map")
            for _ in range(5):
                key(s, pygame.K_z, pygame.KMOD_CTRL)
            for _ in range(5):
                key(s, pygame.K_y, pygame.KMOD_CTRL)
            key(s, pygame.K_F5)
        except Exception as err:  # the figure counted: any exception is a finding
            last = traceback.extract_tb(err.__traceback__)[-1]
            kind = (type(err).__name__, Path(last.filename).name, last.lineno)
            if not errors[kind]:
                print(f"{'.'.join(map(str, at))} = {value!r:.30}: {kind} {err}", flush=True)
            errors[kind] += 1
        for f in data.rglob("*"):
            if f.is_file():
                f.unlink()
        if n % 100 == 0:
            print(f"... {n} of {len(cases)}", file=sys.stderr, flush=True)
    print(f"{len(cases)} broken autosaves: {sum(errors.values())} exceptions")
    for kind, count in errors.most_common():
        print(f"  {count} {kind}")
    pygame.quit()
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
