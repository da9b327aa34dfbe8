"""The battle screen's keys and its camera drag (a mixin of
:class:`game.ui.battle.screen.BattleScreen`): help, panels and overlays, saving, fitting and
panning the table, passing and confirming (F1 lists them)."""

from __future__ import annotations

import pygame

from game.ui.battle.movement import PlotMode
from game.ui.battle.opportunity import CoveringMode, OpportunityMode
from game.ui.battle.turns import CurtainMode


class KeysMixin:
    """The battle screen's keys (``_key``) and camera drag (``_camera_drag``)."""

    def _key(self, ev) -> bool:
        k = ev.key
        if k == pygame.K_F1 or ev.unicode == "?":
            self.help = not self.help
            return True
        if k == pygame.K_x:
            self.show_explain = not self.show_explain
            return True
        if k == pygame.K_b:
            self.show_briefing = not self.show_briefing
            return True
        if k == pygame.K_t:
            self.toggle_legend()
            return True
        if k == pygame.K_m:
            self.ruler_on, self.ruler = not self.ruler_on, None
            return True
        if k == pygame.K_n:  # the mini-map shown or hidden
            self.show_minimap = not self.show_minimap
            return True
        if k == pygame.K_ESCAPE and self.ruler_on:
            self.ruler_on, self.ruler = False, None
            return True
        if k == pygame.K_ESCAPE and (self.show_briefing or self.card):
            self.show_briefing, self.card = False, None
            return True
        if self.help and k == pygame.K_ESCAPE:
            self.help = False
            return True
        if k == pygame.K_s and ev.mod & pygame.KMOD_CTRL:
            self.ask_save_name()
            return True
        if k == pygame.K_f:
            self.tv.fit()
            return True
        if k in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
            step = 60
            dx = {pygame.K_LEFT: step, pygame.K_RIGHT: -step}.get(k, 0)
            dy = {pygame.K_UP: step, pygame.K_DOWN: -step}.get(k, 0)
            self.tv.pan(dx, dy)
            return True
        if k == pygame.K_l and not isinstance(self.mode, (OpportunityMode, CoveringMode)):
            self.show_log = not self.show_log
            self.log_view.visible = self.show_log
            return True
        if k == pygame.K_p and not isinstance(self.mode, CurtainMode):
            self._pass()
            return True
        if k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.set_mode(self.mode.confirm(self))
            return True
        return False

    def _camera_drag(self, ev) -> bool:
        """Pan with the middle button, or a left drag in modes that do not plot."""
        plotting = isinstance(self.mode, PlotMode) or self.mode.drags
        if ev.type == pygame.MOUSEBUTTONDOWN and (
            ev.button == 2 or (ev.button == 1 and not plotting)
        ):
            self._drag_from = ev.pos
            self._dragged = False
            return ev.button == 2
        if ev.type == pygame.MOUSEMOTION and self._drag_from is not None:
            dx, dy = ev.pos[0] - self._drag_from[0], ev.pos[1] - self._drag_from[1]
            if self._dragged or abs(dx) + abs(dy) > 6:
                self._dragged = True
                self.tv.pan(dx, dy)
                self._drag_from = ev.pos
                return True
            return False
        if ev.type == pygame.MOUSEBUTTONUP and self._drag_from is not None and ev.button in (1, 2):
            dragged = self._dragged
            self._drag_from = None
            self._dragged = False
            return dragged or ev.button == 2
        return False
