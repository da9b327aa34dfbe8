"""Drawing the map statistics and the balance views of :mod:`game.editor.analysis`."""

from __future__ import annotations


def stats_html(stats, raw) -> str:
    """The statistics as the panel's text."""
    return str(stats)


def overlay_surface(name, result, tv, size):
    """The balance view as a translucent surface over the table."""
    raise NotImplementedError
