"""What the battle screen tells a player besides the decision at hand: the scenario's
briefing and how to win (B), a unit card for a stand (right-click), the terrain legend (T),
and the victory tracker in the banner. Every number comes from the engine or the data tables:
the kills needed and losses allowed from ``Battle``, a unit's values from its data row."""

from __future__ import annotations

from typing import Protocol

import pygame

from game import StandPose
from game.ui.battle.layout import BANNER_H, PANEL_W
from game.ui.battle.setup import ghq_purpose
from game.ui.logtext import stand_name
from game.ui.logview import FONT_FILE as LOG_FONT_FILE
from game.ui.paint.legend import swatch
from game.ui.paint.models import hq_level, kind_of, paint_stand
from game.ui.render import (
    HILL_COLOURS,
    INK,
    ROAD_STYLE,
    SIDE_COLOURS,
    TERRAIN_COLOURS,
    View,
    draw_stand,
    table_style,
    unit_symbol,
    wrap_text,
)
from game.ui.table_view import UI

CARD_BG = (250, 248, 240)


def _box(surface, lines, at, font, title_font=None, width=None, centre=None) -> pygame.Rect:
    """Lines of text in a framed box with its top-left at ``at`` (or centred on ``centre``);
    the first line in ``title_font``. Returns the box."""
    title_font = title_font or font
    imgs = [title_font.render(lines[0], True, INK)] + [font.render(t, True, INK) for t in lines[1:]]
    w = width or max(i.get_width() for i in imgs) + 24
    h = sum(i.get_height() + 3 for i in imgs) + 18
    box = pygame.Rect(at[0], at[1], w, h)
    if centre is not None:
        box.center = centre
    pygame.draw.rect(surface, CARD_BG, box)
    pygame.draw.rect(surface, INK, box, 2)
    y = box.y + 9
    for img in imgs:
        surface.blit(img, (box.x + 12, y))
        y += img.get_height() + 3
    return box


class InfoScreen(Protocol):
    """What :class:`Info` reads of the battle screen: its app (the window's size), battle,
    table view and log panel (resized when the legend comes or goes), and how it names
    sides and battle groups."""

    app: object
    battle: object
    tv: object
    log_view: object

    def side_name(self, side: str | None) -> str:
        """A side's name."""

    def short_name(self, side: str | None) -> str:
        """A side's name without its bracketed part."""

    def group_label(self, side: str, group: str) -> str:
        """A battle group's name on the screen."""

    def group_words(self, s) -> str:
        """A stand's group for the status line."""


class Info:
    """The battle screen's briefing (B), unit cards (right-click), terrain legend (T) and
    victory tracker (its ``info``). ``show_briefing``: the briefing is open; ``card``: the
    stand whose card is shown, or None; ``card_box``: where the card was last drawn."""

    def __init__(self, screen: InfoScreen):
        self.screen = screen
        self.show_briefing = False
        self.card: str | None = None
        self.card_box: pygame.Rect | None = None
        self._fonts: dict[int, pygame.font.Font] = {}
        self._legend_font_obj: pygame.font.Font | None = None
        self._legend_kept: tuple | None = None

    @property
    def battle(self):
        """The screen's battle."""
        return self.screen.battle

    @property
    def show_legend(self) -> bool:
        """Whether the terrain legend is shown (T): yes until the player hides it; kept in
        the battle's ``meta`` so that a save or the autosave brings the choice back."""
        return self.battle.meta.get("show_legend", True) is not False

    @show_legend.setter
    def show_legend(self, on: bool) -> None:
        self.battle.meta["show_legend"] = bool(on)

    def victory_text(self) -> str:
        """The banner's tracker: each side's kills against the kills it needs to win."""
        b = self.battle
        losses = b.state.losses(b.sides)
        parts = [
            f"{self.screen.short_name(s)} {losses[b.other(s)]}/{b.kills_needed(s)}" for s in b.sides
        ]
        return "   kills: " + ", ".join(parts)

    def briefing_lines(self) -> list[str]:
        """The briefing: title, description, how to win, turns and sighting."""
        b = self.battle
        spec = b.scenario.spec
        v = spec.victory
        lines = [spec.title]
        if spec.description.strip():
            lines += ["", spec.description, ""]
        for s in b.sides:
            lines.append(
                f"{self.screen.side_name(s)} wins by destroying {b.kills_needed(s)} of the enemy's "
                f"{b.totals[b.other(s)]} stands ({v.destroy_at_least_pct:g}% or more) while "
                f"losing at most {b.losses_allowed(s)} of its {b.totals[s]}."
            )
        lines.append(
            f"Victory is checked at the end of each turn; after turn {spec.turns} with no winner "
            f'the battle is a draw. Sighting distance {spec.max_sighting_in:g}".'
        )
        return lines

    def unit_card_lines(self, stand_id: str) -> list[str]:
        """A stand's card: its data row and what it has done this turn."""
        b = self.battle
        s = b.stand(stand_id)
        u = s.unit
        lines = [f"{stand_name(s.unit_name, s.id)} ({self.screen.side_name(s.side)})"]
        tl = f"tech level {u.tech_level}, " if u.tech_level else ""
        lines.append(f"{tl}{u.points} points, speed {u.speed:g} MP ({u.movement_class})")
        if hasattr(u, "fire_against"):  # full games' columns (rules-decisions "Units beyond tanks")
            lines += self._full_rules_card_lines(s)
        elif hasattr(u, "cannon_attack"):
            lines.append(f'cannon: attack {u.cannon_attack}, range {u.cannon_range}"')
        else:
            lines.append(
                f'gun: AP {u.ap_firepower} to {u.ap_range}", HE {u.he_firepower} to {u.he_range}"'
                + (", front arc only" if u.facing_restricted else "")
            )
        if u.atgm is not None:
            a = u.atgm
            lines.append(
                f'ATGM: attack {a.attack}, range {a.min_range}-{a.range}", depletes on {a.depletion}'
                + (" (used up)" if s.depleted else "")
            )
        flank = -(-u.defense // 2)
        if u.defense_class == "personnel":
            lines.append(f"defence: {u.defense}, {flank} while moving (no facing)")
        else:
            lines.append(f"defence: front {u.defense}, flank or rear {flank}")
        return lines + self._card_state_lines(s)

    def _full_rules_card_lines(self, s) -> list[str]:
        """A full game's stand's card lines from its data row (rules-decisions "Units beyond
        tanks"): its defence class and guns (attack to range, inches), its flags and carrier,
        its indirect fire's reach (inches), who rides in it or what it rides in, and whether
        its values are this game's own."""
        b, u = self.battle, s.unit
        lines = []
        guns = [
            f'{kind} {v} to {r}"'
            for kind, v, r in (("AP", u.ap_attack, u.ap_range), ("HE", u.he_attack, u.he_range))
            if v is not None
        ]
        lines.append(f"{u.defense_class}; gun: " + (", ".join(guns) or "none"))
        extra = sorted(u.flags) + ([f"carries {u.carrier}"] if u.carrier else [])
        if extra:
            lines.append(", ".join(extra).replace("_", " "))
        reach = b.indirect_reach(s.id)
        if reach:
            lines.append(f'indirect fire: {reach[0]}-{reach[1]}" (plotted a turn ahead)')
        aboard = [r.id for r in b.state.stands.values() if r.carried_by == s.id]
        if aboard:
            lines.append("aboard: " + ", ".join(aboard))
        if s.carried_by:
            lines.append(f"riding in {s.carried_by}")
        if u.house:
            lines.append("values set by this game (the printed rules give none): see docs/rules.md")
        return lines

    def _card_state_lines(self, s) -> list[str]:
        """A stand's card lines on its state: its markers (suppressed, disorganized, moved),
        its group and headquarters (and what a GHQ is for), what it has done this turn, and
        its movement points this phase (or that it is eliminated)."""
        b = self.battle
        lines = []
        marks = [m for m, on in (("suppressed", s.S), ("disorganized", s.D)) if on]
        if s.movement_marker:
            marks.append("moved this turn")
        lines.append("markers: " + (", ".join(marks) if marks else "none"))
        g = self.screen.group_words(s)
        group = g if g == "no group" else self.screen.group_label(s.side, g.removeprefix("group "))
        lines.append(group + (", GHQ" if s.ghq else ", HQ" if s.hq else ""))
        if s.ghq:  # what it is for
            lines.append(ghq_purpose(b))
        done = []
        if s.fire_attempts:
            done.append(f"fired {s.fire_attempts}x")
        if s.attacked_in:
            done.append("attacked")
        if s.mp_spent:
            done.append(f"moved ({s.mp_spent:.1f} MP)")
        lines.append("this turn: " + (", ".join(done) if done else "nothing yet"))
        if not s.eliminated:
            lines.append(f"movement points this phase: {b.movement_points(s.id):.1f}")
        else:
            lines.append("eliminated")
        return lines

    def legend_entries(self) -> list[tuple[tuple | pygame.Surface, str]]:
        """(swatch, name in words) of the terrain on this table: areas, roads, hills; the
        swatch a colour (plain style) or a painted square (painted style)."""
        b = self.battle
        names = {k: t.name for k, t in b.data.terrain.items()}
        painted = table_style() == "painted"
        ground = b.table.ground
        out = []
        for kind in sorted({f.kind for f in b.table.areas}):
            look = (
                swatch(kind, ground=ground)
                if painted
                else TERRAIN_COLOURS.get(kind, (150, 150, 150))
            )
            out.append((look, names.get(kind, kind)))
        for kind in sorted({f.kind for f in b.table.roads}):
            look = (
                swatch(kind, ground=ground)
                if painted
                else ROAD_STYLE.get(kind, ((120, 100, 80), 0))[0]
            )
            out.append((look, names.get(kind, kind)))
        for level in sorted({h.level for h in b.table.hills}):
            colour = HILL_COLOURS[min(level - 1, len(HILL_COLOURS) - 1)]
            look = swatch("hill", level=level, ground=ground) if painted else colour
            out.append((look, f'Hill, level {level} (1" slope, lighter crest)'))
        return out

    def font(self, size: int) -> pygame.font.Font:
        """pygame's default font at ``size`` pixels times the interface's scale, made once."""
        cache = self._fonts
        size = int(size * UI["scale"])
        if size not in cache:
            cache[size] = pygame.font.Font(None, size)
        return cache[size]

    LEGEND_FONT_PX = 13  # the panel's text size (theme.json's text box)
    LEGEND_STEP_PX = 19  # one row of swatches
    LOG_LEAST_PX = 100  # the log keeps at least this height: a shorter window hides the key

    def _legend_font(self) -> pygame.font.Font:
        if self._legend_font_obj is None:
            self._legend_font_obj = pygame.font.Font(str(LOG_FONT_FILE), self.LEGEND_FONT_PX)
        return self._legend_font_obj

    def _legend_card(self, width: int) -> pygame.Surface | None:
        """The legend drawn once, ``width`` pixels wide: a swatch and the terrain's name in
        words for each kind of ground on this table, in rows, a row full when the next name
        would run past its end; None for a table with no terrain. Kept until the width or
        the table's features change."""
        t = self.battle.table
        key = (width, id(t), len(t.areas), len(t.roads), len(t.hills), table_style())
        kept = self._legend_kept
        if kept is not None and kept[0] == key:
            return kept[1]
        font = self._legend_font()
        rows: list[list] = [[]]
        x = 0
        for colour, name in self.legend_entries():
            img = font.render(name, True, INK)
            need = 18 + img.get_width()
            if rows[-1] and x + need > width - 16:
                rows.append([])
                x = 0
            rows[-1].append((colour, img, x))
            x += need + 14
        rows = [r for r in rows if r]
        card = None
        if rows:
            step = self.LEGEND_STEP_PX
            card = pygame.Surface((width, 10 + step * len(rows)))
            card.fill(CARD_BG)
            pygame.draw.rect(card, (154, 154, 138), card.get_rect(), 1)
            for k, row in enumerate(rows):
                y = 5 + k * step
                for colour, img, x in row:
                    swatch = pygame.Rect(8 + x, y + (step - 12) // 2, 12, 12)
                    if isinstance(colour, pygame.Surface):  # painted
                        card.blit(colour, swatch)
                    else:
                        pygame.draw.rect(card, colour, swatch)
                    pygame.draw.rect(card, INK, swatch, 1)
                    card.blit(img, (swatch.right + 6, y + (step - img.get_height()) // 2))
        self._legend_kept = (key, card)
        return card

    def legend_rect(self, size=None) -> pygame.Rect | None:
        """Where the terrain legend sits (pixels): in the side panel, under the panel's
        buttons and above the battle log, never over the table (it covered a corner of
        it); None when it is hidden (T), the table has no terrain, or the window is too short
        to keep :attr:`LOG_LEAST_PX` of log under it."""
        w, h = size or self.screen.app.size
        if not self.show_legend:
            return None
        card = self._legend_card(PANEL_W - 12)
        if card is None:
            return None
        rect = pygame.Rect((w - PANEL_W + 6, BANNER_H + 392), card.get_size())
        if h - 6 - (rect.bottom + 6) < self.LOG_LEAST_PX:
            return None
        return rect

    def log_rect(self, size=None) -> pygame.Rect:
        """Where the battle log sits (pixels): the rest of the side panel under the terrain
        legend (under the buttons when the legend is hidden)."""
        w, h = size or self.screen.app.size
        legend = self.legend_rect((w, h))
        top = legend.bottom + 6 if legend is not None else BANNER_H + 392
        return pygame.Rect(w - PANEL_W + 6, top, PANEL_W - 12, h - 6 - top)

    def toggle_legend(self) -> None:
        """Show or hide the terrain legend (T); the log takes or gives back its room. The
        choice is kept in the battle's saves (``meta["show_legend"]``), so a resumed battle
        shows the legend as the player left it."""
        self.show_legend = not self.show_legend
        self.screen.log_view.resize(self.log_rect())

    def draw_legend(self, surface) -> None:
        """The terrain legend in the side panel (:meth:`legend_rect`)."""
        rect = self.legend_rect()
        if rect is not None:
            surface.blit(self._legend_card(rect.w), rect.topleft)

    def draw(self, surface) -> None:
        """The unit card and the briefing, over the table (the legend is in the panel)."""
        rect = self.screen.tv.rect
        font = self.font(20)
        if self.card and self.card in self.battle.state.stands:
            lines = self.unit_card_lines(self.card)
            wide = max([self.font(22).size(lines[0])[0]] + [font.size(t)[0] for t in lines[1:]])
            box = _box(surface, lines, (rect.x + 10, rect.y + 10), font, self.font(22), wide + 90)
            self._card_pictures(surface, box, self.card)
            self.card_box = box  # where the card is (pixels)
        if self.show_briefing:
            width = min(640, rect.w - 40)
            lines = []
            for k, text in enumerate(self.briefing_lines()):
                lines += wrap_text(self.font(24 if k == 0 else 21), text, width - 30) or [""]
            lines.append("")
            lines.append("B closes the briefing.")
            _box(surface, lines, (0, 0), self.font(21), self.font(26), width, rect.center)

    def _card_pictures(self, surface, box: pygame.Rect, stand_id: str) -> None:
        """On the unit card's right: the stand's NATO symbol on its flat token, and
        its painted model under it, both facing up the card, 40 px an inch."""
        st = self.battle.stand(stand_id)
        colour = SIDE_COLOURS[self.battle.sides.index(st.side) % 2]
        pose = StandPose(st.id, st.side, 0.0, 0.0, 90.0)
        x = box.right - 40
        draw_stand(
            surface, View(40, (x, box.y + 40), 0.0), pose, colour, None, None, unit_symbol(st.unit)
        )
        if box.h >= 130:
            view = View(40, (x, box.y + 100), 0.0)
            paint_stand(surface, view, pose, colour, kind_of(st.unit, st.unit_name), hq_level(st))
