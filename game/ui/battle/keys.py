"""The battle screen's keys (:func:`press`, a function of the screen: help, panels and
overlays, saving, fitting and panning the table, passing and confirming; F1 lists them) and
its camera drag (:class:`CameraDrag`)."""

from __future__ import annotations

import pygame

from game.ui.battle.movement import PlotMode
from game.ui.battle.opportunity import CoveringMode, OpportunityMode
from game.ui.battle.turns import CurtainMode


def press(screen, ev) -> bool:
    """A key pressed on the battle screen (a KEYDOWN event): True when it was one of the
    screen's keys. It toggles the screen's parts (``overlays``, ``info``, ``ruler``), saves
    (``saving``), moves the camera (``tv``), shows or hides the log (``log_view``), passes
    (``pass_turn``) or confirms the current mode (``set_mode``)."""
    k = ev.key
    over, info, ruler = screen.overlays, screen.info, screen.ruler
    if k == pygame.K_F1 or ev.unicode == "?":
        over.help = not over.help
    elif k == pygame.K_x:
        over.show_explain = not over.show_explain
    elif k == pygame.K_b:
        info.show_briefing = not info.show_briefing
    elif k == pygame.K_t:
        info.toggle_legend()
    elif k == pygame.K_m:
        ruler.toggle()
    elif k == pygame.K_n:  # the mini-map shown or hidden
        over.show_minimap = not over.show_minimap
    elif k == pygame.K_ESCAPE and ruler.on:
        ruler.put_away()
    elif k == pygame.K_ESCAPE and (info.show_briefing or info.card):
        info.show_briefing, info.card = False, None
    elif over.help and k == pygame.K_ESCAPE:
        over.help = False
    elif k == pygame.K_s and ev.mod & pygame.KMOD_CTRL:
        screen.saving.ask_save_name()
    elif k == pygame.K_f:
        screen.tv.fit()
    elif k in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
        step = 60
        dx = {pygame.K_LEFT: step, pygame.K_RIGHT: -step}.get(k, 0)
        dy = {pygame.K_UP: step, pygame.K_DOWN: -step}.get(k, 0)
        screen.tv.pan(dx, dy)
    elif k == pygame.K_l and not isinstance(screen.mode, (OpportunityMode, CoveringMode)):
        screen.show_log = not screen.show_log
        screen.log_view.visible = screen.show_log
    elif k == pygame.K_p and not isinstance(screen.mode, CurtainMode):
        screen.pass_turn()
    elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
        screen.set_mode(screen.mode.confirm(screen))
    else:
        return False
    return True


class CameraDrag:
    """The battle screen's camera drag (its ``drag``): pan ``tv`` (a
    :class:`~game.ui.table_view.TableView`) with the middle button, or a left drag in modes
    that do not plot. ``start``: the pixel the drag is at, while one is under way."""

    def __init__(self, tv):
        self.tv = tv
        self.start: tuple[int, int] | None = None
        self._dragged = False

    def event(self, ev, mode) -> bool:
        """Take a mouse event for the camera in ``mode`` (the screen's current one); True
        when it moved the camera or ended a drag that did."""
        plotting = isinstance(mode, PlotMode) or mode.drags
        if ev.type == pygame.MOUSEBUTTONDOWN and (
            ev.button == 2 or (ev.button == 1 and not plotting)
        ):
            self.start = ev.pos
            self._dragged = False
            return ev.button == 2
        if ev.type == pygame.MOUSEMOTION and self.start is not None:
            dx, dy = ev.pos[0] - self.start[0], ev.pos[1] - self.start[1]
            if self._dragged or abs(dx) + abs(dy) > 6:
                self._dragged = True
                self.tv.pan(dx, dy)
                self.start = ev.pos
                return True
            return False
        if ev.type == pygame.MOUSEBUTTONUP and self.start is not None and ev.button in (1, 2):
            dragged = self._dragged
            self.start = None
            self._dragged = False
            return dragged or ev.button == 2
        return False
