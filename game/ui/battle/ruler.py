"""The battle screen's ruler and line-of-sight tool (M): a distance, its range band and
whether a stand at one end sees the other, as the engine reckons them."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from game.ui.battle.info import CARD_BG
from game.ui.render import INK


class Ruler:
    """The ruler and line-of-sight tool (M), over whatever the battle waits for (the battle
    screen's ``ruler``): drag from a stand or a point to another point for the distance in
    inches and metres (1" = 100 m), the range band and the line of sight, all from the
    engine (``Battle.line_of_sight``, the fire check's own rules). M or Esc puts it away.
    ``tv`` is the screen's :class:`~game.ui.table_view.TableView`; ``stand_under(pos)`` the
    stand under a pixel, or None. ``on``: the ruler is out; ``reading``: the measure being
    taken (``a`` and ``b`` table points in inches, the ``observer`` stand, the ``sight``)."""

    def __init__(self, battle, tv, stand_under: Callable):
        self.battle = battle
        self.tv = tv
        self.stand_under = stand_under
        self.on = False
        self.reading: dict | None = None

    def toggle(self) -> None:
        """M: take the ruler out, or put it away."""
        self.on, self.reading = not self.on, None

    def put_away(self) -> None:
        """Esc: put the ruler away."""
        self.on, self.reading = False, None

    def event(self, ev) -> bool:
        """Take a mouse event for the ruler when it is out; True when it used it."""
        if not self.on:
            return False
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            s = self.stand_under(ev.pos)
            a = (s.x, s.y) if s is not None else self.tv.to_table(ev.pos)
            self.reading = {"a": a, "b": a, "observer": s.id if s else None, "sight": None}
            return True
        if ev.type == pygame.MOUSEMOTION and self.reading is not None and ev.buttons[0]:
            self._measure(self.tv.to_table(ev.pos))
            return True
        if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1 and self.reading is not None:
            s = self.stand_under(ev.pos)
            self._measure((s.x, s.y) if s is not None else self.tv.to_table(ev.pos))
            return True
        return False

    def _measure(self, b: tuple[float, float]) -> None:
        r = self.reading
        r["b"] = b
        (x0, y0), (x1, y1) = r["a"], b
        if (x0, y0) != (x1, y1):
            r["sight"] = self.battle.line_of_sight(x0, y0, x1, y1, r["observer"])

    def text(self) -> str:
        """The ruler's reading: distance, metres, range band, and whether a stand at the
        start would see one at the end (and what blocks it)."""
        r = self.reading
        if not r or r["sight"] is None:
            return "Ruler (M): drag from a stand or a point to measure and check the line of sight."
        sight = r["sight"]
        d = sight.range_in
        text = f'{d:.1f}" ({d * 100:.0f} m), range band {sight.range_band_in}"'
        if sight.clear:
            return text + ": in sight"
        why = []
        for b in sight.blocked_by:
            if b[0] == "terrain":
                why.append(self.battle.data.terrain[b[1]].name.lower())
            elif b[0] == "hill":
                why.append(f"a level-{b[1]} hill")
            elif b[0] == "stand":
                why.append(f"stand {b[1]}")
            elif b[0] == "distance":
                why.append(f'beyond the {sight.max_sight_in:g}" sighting distance')
        return text + ": no line of sight (" + ", ".join(why or ["blocked"]) + ")"

    def draw(self, surface, font: pygame.font.Font, right: int) -> None:
        """The line measured (green in sight, red not) and the reading in a bar along the
        table's top, in ``font``, stopping at pixel column ``right`` (short of the mini-map)."""
        if not self.on:
            return
        r = self.reading
        if r and r["sight"] is not None:
            colour = (40, 170, 60) if r["sight"].clear else (215, 45, 45)
            a, b = self.tv.to_px(*r["a"]), self.tv.to_px(*r["b"])
            pygame.draw.line(surface, colour, a, b, 3)
            pygame.draw.circle(surface, colour, a, 5)
            pygame.draw.circle(surface, colour, b, 5)
        img = font.render(self.text(), True, INK)
        bar = pygame.Rect(self.tv.rect.x, self.tv.rect.y, max(0, right - self.tv.rect.x), 28)
        pygame.draw.rect(surface, CARD_BG, bar)
        surface.blit(img, (bar.x + 8, bar.y + 6), pygame.Rect(0, 0, bar.w - 12, img.get_height()))
