"""The editor panels' fields: typed text turned into a scenario file's values (a bad value
gets a sentence saying what is wanted, and is not written), and problem lines put in words."""

from __future__ import annotations

import math

from game.editor.document import MENDED
from game.ui.editor import views


def whole_number(lo: int, hi: int):
    """A parser of a whole number from ``lo`` to ``hi``; ValueError names the range."""

    def parse(text: str) -> int:
        try:
            v = int(text.strip())
        except ValueError:
            raise ValueError(f"type a whole number from {lo} to {hi}") from None
        if not lo <= v <= hi:
            raise ValueError(f"a whole number from {lo} to {hi}")
        return v

    return parse


def number(lo: float, hi: float):
    """A parser of a finite number from ``lo`` to ``hi`` (inches, percent: the field's unit),
    returned as an int when whole; ValueError saying "type a number from LO to HI" for text
    that is not such a number (nothing out of bounds is ever written)."""
    wanted = f"a number from {lo:g} to {hi:g}"

    def parse(text: str) -> float:
        v = _number(text, wanted)
        if not lo <= v <= hi:
            raise ValueError(f"type {wanted}")
        return int(v) if v.is_integer() else v

    return parse


def facing(text: str) -> float:
    """A facing in degrees, brought into 0..360 (counter-clockwise from +x); ValueError
    unless it is a finite number."""
    v = _number(text, "a facing in degrees, e.g. 90") % 360
    return int(v) if v.is_integer() else round(v, 2)


def _number(text: str, wanted: str) -> float:
    """A finite number typed in a field; ValueError saying ``wanted`` otherwise."""
    try:
        v = float(text)
    except ValueError:
        raise ValueError(f"type {wanted}") from None
    if not math.isfinite(v):
        raise ValueError(f"type {wanted}")
    return v


def counted(n: int, noun: str) -> str:
    """``n`` things in words: "1 problem", "3 problems" (a noun made plural with an s)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def to_mend(problems) -> list:
    """The problems that stop the scenario being played: all but the lines saying what was
    mended on opening."""
    return [p for p in problems if not p.text.endswith(MENDED)]


def not_empty(text: str) -> str:
    """The text itself; ValueError when it is only blanks."""
    if not text.strip():
        raise ValueError("it cannot be empty")
    return text


def pair(text: str) -> tuple[float, float]:
    """Two numbers "x, y" (inches, each within 1000 of 0); ValueError, saying what is
    wanted, unless there are exactly two such numbers."""
    parts = text.replace(",", " ").split()
    if len(parts) != 2:
        raise ValueError('type two numbers, x and y in inches, e.g. "12.5, 30"')
    try:
        x, y = float(parts[0]), float(parts[1])
    except ValueError:
        raise ValueError('x and y must be numbers (inches), e.g. "12.5, 30"') from None
    if not (math.isfinite(x) and math.isfinite(y) and abs(x) <= 1000 and abs(y) <= 1000):
        raise ValueError("x and y are inches from -1000 to 1000")
    return x, y


def without_file(text: str) -> str:
    """A problem line without the file name in front."""
    return text.split(": ", 1)[1] if ": " in text else text


def stats_html(stats, raw) -> str:
    """The Map panel's statistics as text (``game.ui.editor.views.stats_html``)."""
    return views.stats_html(stats, raw)
