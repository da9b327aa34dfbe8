"""The pieces the battle log's sentences (:mod:`game.ui.logwords`) are made of: stand names,
modifiers, markers, CRT cells, movement points and inches. A sentence reads e.g.

    T-80U A3 fires at M1A2 B2: cohesion roll 9 + 2 (woods) = 11, needs 15 or less; 2D6 7 + 2 (range) = 9 at +2
    -> (S): suppressed

Made only from the log event and the battle's stand names, so the panel says exactly what the
log records.
"""

from __future__ import annotations

import html
import os
import re

from game import phase_titles

PHASE_NAMES = phase_titles()  # from the rulesets' phases
RESULT_WORDS = {"none": "no effect", "S": "suppressed", "D": "disorganized", "E": "eliminated"}

NAME_GAP = "\u2002"
"""Between a unit's name and its stand id on screen: an en space. The screens' font (Noto
Sans at 13-14 px) draws a plain space 3 px wide, and "Leopard-IIA6 A3" read as
"Leopard-IIA6A3"; the en space is wider and never breaks the line there."""


def possessive(name: str) -> str:
    """A name with its possessive: "Blue's", but "Allies'" (a name ending in s)."""
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


def stand_name(unit_name: str, stand_id: str) -> str:
    """A stand as the screens name it: its unit's name, an en space, its id
    ("Leopard-IIA6\u2002A3")."""
    return f"{unit_name}{NAME_GAP}{stand_id}"


MAX_SENTENCE_CHARS = 2000
"""Characters of one sentence the panel shows; the rest is cut and counted (a log text of
200,000 letters made a surface 87,000 pixels tall)."""
MAX_WORD_CHARS = 100
"""Characters of a word (no space) the panel shows whole, as a scenario's description allows
(game.rules.files.scenario_file); a longer word is cut and counted. The font wraps a word
wider than the box one letter at a time, in time that grows with the square of its length
(a 200,000-letter word froze the window 47-65 s)."""
_UNSHOWABLE = re.compile(r"[\x00\ud800-\udfff]")
_LONG_WORD = re.compile(rf"\S{{{MAX_WORD_CHARS + 1},}}")


def panel_text(text: str) -> str:
    """``text`` as the log panel shows it: a NUL or a lone surrogate (which the font cannot
    render: it raised ValueError or UnicodeEncodeError) becomes U+FFFD; a word over
    MAX_WORD_CHARS keeps its first MAX_WORD_CHARS characters and says how long it was; a text
    over MAX_SENTENCE_CHARS is cut within it likewise. Linear in the length of ``text``, and
    what it returns it returns unchanged (the replay's sentences come made, the battle
    screen's not)."""
    text = _UNSHOWABLE.sub("\ufffd", text)
    text = _LONG_WORD.sub(
        lambda m: f"{m.group()[:MAX_WORD_CHARS]} [... {len(m.group()):,} letters in all]", text
    )
    if len(text) > MAX_SENTENCE_CHARS:  # cut short of the limit: the note fits within it
        text = f"{text[: MAX_SENTENCE_CHARS - 40]} [... {len(text):,} characters in all]"
    return text


def path_html(path, width_chars: int = 34) -> str:
    """A file path for a text box, as HTML: the home folder written ``~``, and the path cut
    into lines at its separators (each at most ``width_chars`` where a folder name allows), so
    the box never breaks a name with a hyphen that is not in it."""
    text = str(path)
    home = os.path.expanduser("~")
    if home not in ("", "/", "~") and (text == home or text.startswith(home + os.sep)):
        text = "~" + text[len(home) :]
    parts = text.split(os.sep)
    lines, line = [], ""
    for k, part in enumerate(parts):
        piece = part + (os.sep if k < len(parts) - 1 else "")
        if line and len(line) + len(piece) > width_chars:
            lines.append(line)
            line = ""
        line += piece
    lines.append(line)
    return "<br>".join(html.escape(x) for x in lines)


def mp_text(mp: float) -> str:
    """Movement points as the screens write them: to 0.1 MP, no trailing zeros ("14.1",
    "11", "0.2"), or to 0.01 MP under 0.05 so a spent sliver is never "0" ("0.04"); the
    log file keeps them exact (000 09.00). One decimal like the distances beside them
    ("12.0"" for 12.01 of 15 MP")."""
    mp = float(mp)
    return f"{round(mp, 1 if abs(mp) >= 0.05 or mp == 0 else 2):g}"


def inches_text(inches: float) -> str:
    """A distance moved as the log panel writes it: to 0.1", or to 0.01" under 0.05" so a
    short step is never "0.0"" beside the movement points it cost ("moves 0.0" for
    0.01 MP")."""
    return f"{inches:.1f}" if abs(inches) >= 0.05 else f"{inches:.2f}"


def _spent_text(mp: float, inches: float) -> str:
    """The movement points a move spent, written to the distance's own precision (0.1, or
    0.01 for a step under 0.05"), so "12.0"" stands beside "12.0", never "12.01"."""
    return f"{mp:.1f}" if abs(inches) >= 0.05 and abs(mp) >= 0.05 else f"{mp:.2f}"


def _mods(mods: list[dict]) -> str:
    out = ""
    for m in mods:
        why = m["why"].removeprefix("terrain:").replace("_", " ")
        sign = "+" if m["value"] >= 0 else "-"
        out += f" {sign} {abs(m['value'])} ({why})"
    return out


def _markers(m: dict) -> str:
    if m.get("eliminated"):
        return "eliminated"
    on = [k for k in ("S", "D") if m.get(k)]
    return "+".join(on) if on else "no markers"


def need_text(need: int) -> str:
    """What a D20 cohesion roll needed, in words: "15 or less"; a natural 1 always passes
    and a natural 20 always fails (000 04.00)."""
    if need >= 20:
        return "anything but a 20"
    if need <= 1:
        return "a 1"
    return f"{need} or less"


def _whole(v) -> bool:
    """Whether ``v`` is a whole number (not a bool): a log field read for arithmetic."""
    return isinstance(v, int) and not isinstance(v, bool)


def attempt_needs(ev: dict) -> str:
    """What a ``move_attempt`` line's one D20 needed: its cohesion level less the
    modifiers, read from the line's own ``level`` and each stand's ``total`` (000 08.02):
    "15 or less", or, where stands' markers make them differ, "15 or less (A3: 13 or
    less)"; "" for a line without its level (the log's fields are only read)."""
    level, roll, per_stand = ev.get("level"), ev.get("roll"), ev.get("per_stand")
    if not (_whole(level) and _whole(roll) and isinstance(per_stand, dict) and per_stand):
        return ""  # a line without them, or a spoiled one a replay let through
    if not all(isinstance(p, dict) and _whole(p.get("total")) for p in per_stand.values()):
        return ""
    by: dict[int, list[str]] = {}
    for sid, p in per_stand.items():
        by.setdefault(level - (p["total"] - roll), []).append(sid)
    first, *rest = sorted(by, key=lambda k: -len(by[k]))
    extra = "; ".join(f"{', '.join(by[k])}: {need_text(k)}" for k in rest)
    return need_text(first) + (f" ({extra})" if extra else "")


def _crt(cell: str, result: str) -> str:
    """The CRT cell an attack rolled, and why it did more than the cell says when the
    target's markers made it so: a D on a stand already
    disorganized eliminates it, an (S) on one already suppressed disorganizes it (and
    eliminates it when it was disorganized too)
    (:func:`game.crt_result`, 000 07.06)."""
    if cell == "D" and result == "E":
        return "CRT D on a stand already disorganized"
    if cell == "(S)" and result == "D":
        return "CRT (S) on a stand already suppressed"
    if cell == "(S)" and result == "E":
        return "CRT (S) on a stand already suppressed and disorganized"
    return f"CRT {cell}"


def _aspect(ev: dict) -> str:
    """How the target's defence was taken: its aspect, or (full games) personnel, who have
    no facing."""
    return "personnel" if ev.get("defense_class") == "personnel" else str(ev["aspect"])


def _roll(r: dict | None) -> str:
    """A cohesion roll in words: "rolls 9 + 3 (tracked) = 12, needs 15 or less: passes"."""
    if r is None:
        return "no roll"
    return f"rolls {_total(r)}: {'passes' if r['passed'] else 'fails'}"


def _total(r: dict) -> str:
    """A roll against a level in plain words ("6 = 6 <= 15" read as code): "6, needs
    15 or less", or with modifiers "9 + 3 (tracked) = 12, needs 15 or less"."""
    mods = r.get("mods") or []
    total = f"{r['roll']}{_mods(mods)} = {r['total']}" if mods else f"{r['total']}"
    return f"{total}, needs {r['level']} or less"


DIRECTIONS = ("up", "up-right", "right", "down-right", "down", "down-left", "left", "up-left")
"""The deviation die's eight directions on screen (1 towards the top edge, then clockwise)."""
