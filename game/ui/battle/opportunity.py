"""The battle screen's answers to an enemy move: opportunity fire at a point of its path, and
WWII covering fire (001 7.5) at the stands that just opportunity-fired."""

from __future__ import annotations

import math

import pygame

from game import CoveringFire, EndCoveringFire, LetPass, OpportunityFire
from game.ui.battle.layout import PAL
from game.ui.modes import Mode, is_click

POINT_MIN_PX = 6  # a point offered for opportunity fire: 12 px across at any zoom


class OpportunityMode(Mode):
    """The enemy has declared a move: pick a point along its path and the stands that fire
    there, or let it pass."""

    def __init__(self):
        self.step: int | None = None
        self.firers: list[str] = []
        self.weapons: dict[str, str] = {}

    def enter(self, screen):
        self.refresh(screen)

    def refresh(self, screen):
        b = screen.battle
        pm = b.state.pending
        side = b.to_act
        lines = [
            f"<b>Opportunity fire: {screen.side_name(side)}</b>",
            f"{screen.names[pm.stand]} is moving. Click a marked point of its path to "
            "stop it there, pick who fires, and fire; or let it pass.",
        ]
        buttons = [("Let it pass (L)", lambda: screen.act(LetPass(side)))]
        if self.step is not None and self.firers:
            odds = b.odds(
                self.firers, pm.stand, [self.weapons[f] for f in self.firers], step=self.step
            )
            for fs, shot in zip(odds["setups"], odds["shots"], strict=False):
                lines.append(screen.describe_setup(fs, shot))
            lines.append(f"<b>Chance to eliminate: {odds['p_eliminated']:.0%}</b>")
            buttons.insert(0, ("Fire (Enter)", lambda: screen.set_mode(self.confirm(screen))))
        elif self.step is not None:
            lines.append("Click the stands that fire.")
        screen.set_panel("<br>".join(lines), buttons)

    def on_event(self, screen, ev):
        b = screen.battle
        pm = b.state.pending
        if is_click(ev):
            s = screen.stand_under(ev.pos)
            if s and s.side == b.to_act:
                if self.step is None:
                    screen.message = "Click a marked point of its path first"
                    self.refresh(screen)
                    return None
                allowed = dict(pm.offer[self.step])
                if s.id in allowed:
                    screen.message = ""
                    if s.id in self.firers:
                        self.firers.remove(s.id)
                    else:
                        self.firers.append(s.id)
                        self.weapons[s.id] = allowed[s.id]
                else:  # the engine's reason, with its rule
                    fs = b.odds([s.id], pm.stand, step=self.step)["setups"][0]
                    why = fs.reason or "it is not offered a shot there"
                    screen.message = f"{screen.names[s.id]} may not fire there: {why}"
                self.refresh(screen)
                return None
            best = self.point_under(screen, ev.pos)
            if best is not None:
                screen.message = ""
                self.step = best
                self.firers = [f for f, _ in pm.offer[best]]
                self.weapons = dict(pm.offer[best])
                self.refresh(screen)
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_l:
            screen.act(LetPass(b.to_act))
        return None

    @staticmethod
    def point_radius(screen, firers: int) -> int:
        """The radius (px) a point of the path offered for opportunity fire is drawn with:
        at least 6 (a 12 px target at any zoom), larger where more stands may fire."""
        return max(POINT_MIN_PX, 2 + firers)

    def point_under(self, screen, pos) -> int | None:
        """The step of the offered point nearest a pixel, if the pixel is within 0.75" of it
        or on its drawn dot (at least 6 px, whatever the zoom)."""
        pm = screen.battle.state.pending
        tv = screen.tv
        best = min(pm.offer, key=lambda k: math.dist(tv.to_px(*pm.points[k]), pos), default=None)
        if best is None:
            return None
        reach = max(0.75 * tv.view.scale, self.point_radius(screen, len(pm.offer[best])))
        return best if math.dist(tv.to_px(*pm.points[best]), pos) <= reach else None

    def confirm(self, screen):
        if self.step is None or not self.firers:
            return None
        b = screen.battle
        screen.act(
            OpportunityFire(
                b.to_act, self.step, tuple(self.firers), tuple(self.weapons[f] for f in self.firers)
            )
        )
        return None

    def draw(self, screen, surface):
        b = screen.battle
        pm = b.state.pending
        if pm is None:
            return
        tv = screen.tv
        tv.polyline(surface, pm.points, PAL.sees, 3)
        for k, firers in pm.offer.items():
            x, y = pm.points[k]
            r = self.point_radius(screen, len(firers))
            colour = PAL.blocked if k == self.step else PAL.sees
            centre = [int(v) for v in tv.to_px(x, y)]
            pygame.draw.circle(surface, colour, centre, r)
            pygame.draw.circle(surface, (40, 40, 40), centre, r, 1)  # apart where they crowd
        if self.step is not None:
            x, y = pm.points[self.step]
            tv.footprint_outline(surface, x, y, pm.headings[self.step], PAL.blocked, 3)
            for f in self.firers:
                s = b.stand(f)
                pygame.draw.line(surface, PAL.clear, tv.to_px(s.x, s.y), tv.to_px(x, y), 3)


class CoveringMode(Mode):
    """WWII covering fire (001 7.5): the enemy has just opportunity-fired at our moving stand;
    answer each stand that fired with the stands of ours that may, at +3, or go on."""

    def enter(self, screen):
        b = screen.battle
        side = b.to_act
        acts = [a for a in b.legal_actions() if isinstance(a, CoveringFire)]
        lines = [
            f"<b>Covering fire: {screen.side_name(side)}</b>",
            "The enemy stands that just fired at your moving stand may be answered, each once, "
            "by your stands in the firing posture that have not fired this turn (cohesion +3).",
        ]
        buttons = []
        for a in acts:
            odds = b.odds(list(a.attackers), a.target, list(a.weapons), kind="covering")
            effect = 1.0 - odds["final"]["unchanged"]
            who = f"{a.target} <- {', '.join(a.attackers)}"
            lines.append(
                f"<b>{who}</b>: {effect:.0%} chance of any effect, "
                f"{odds['p_eliminated']:.0%} to eliminate."
            )
            buttons.append((f"{who}: {effect:.0%}", lambda a=a: screen.act(a)))
        buttons.append(("No covering fire (L)", lambda: screen.act(EndCoveringFire(side))))
        screen.set_panel("<br>".join(lines), buttons)

    def on_event(self, screen, ev):
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_l:
            screen.act(EndCoveringFire(screen.battle.to_act))
        return None

    def draw(self, screen, surface):
        b = screen.battle
        cw = b.state.covering
        if cw is None:
            return
        for t in cw.targets:
            s = b.stand(t)
            screen.tv.footprint_outline(surface, s.x, s.y, s.facing_deg, PAL.blocked, 3)
