"""The battle screen's WWII posture mode (001 5.0 step 2): declaring the turn's movement
groups; every stand not declared stays in the firing posture."""

from __future__ import annotations

import pygame

from game import DeclareGroup, Pass
from game.ui.battle.layout import GROUP, SELECT
from game.ui.battle.support import PlotFireMode  # beside this module, not under it
from game.ui.modes import Mode, is_click

STANDING = ("posture", "plot")
"""The kinds of decision (``game.rules.decision``) in which a side's Done stands for the rest
of the phase: the other side declares or plots one item at a time, and each time the side that
was done would be asked again (eleven presses of Done in one WWII posture phase)."""


def done_for_the_phase(screen) -> None:
    """Done (P) in a posture or plot phase: pass, and pass again for this side whenever it is
    asked again in this phase (:func:`standing_pass`). The rules let a side that passed act
    again after the other side acts (001 5.0 step 2); a player who wants that presses Pass for
    now instead. The screen passes for the player; the engine is asked as ever."""
    b = screen.battle
    screen.done_for = (b.state.turn, b.state.phase, b.to_act)
    screen.act(Pass(b.to_act))


def standing_pass(screen) -> None:
    """Called every frame: when the side that said Done is asked again in the same phase (its
    posture or plot mode is current), pass for it. A refused pass ends the standing Done."""
    b = screen.battle
    if getattr(screen, "done_for", None) != (b.state.turn, b.state.phase, b.to_act):
        return
    if b.decision().kind not in STANDING or screen.animation.moves:
        return
    if not isinstance(screen.mode, (PostureMode, PlotFireMode)):
        return  # behind the hand-over curtain, or another question: the player's own
    if not screen.act(Pass(b.to_act)):
        screen.done_for = None


class PostureMode(Mode):
    """WWII posture phase (001 5.0 step 2): click your stands to pick a movement group (stands
    in base contact, each touching another), Enter declares it; Done leaves every stand not
    declared in the firing posture."""

    def __init__(self):
        self.picked: list[str] = []

    def enter(self, screen):
        b = screen.battle
        side = b.to_act
        declared: dict[str, list[str]] = {}
        for s in b.state.stands.values():
            if s.side == side and not s.eliminated and s.posture == "movement":
                declared.setdefault(s.group, []).append(s.id)
        if b.rules.has("tl1_postures"):  # Modern: TL1 only (002 note 1)
            lines = [
                f"<b>Posture (TL1 stands): {screen.side_name(side)}</b>",
                "Your tech level 1 stands either move or fire this turn, never both. Those "
                "you declare may move but not fire; the rest may fire but not move.",
                "Click TL1 stands to pick them, Enter to declare them moving.",
            ]
        else:
            lines = [
                f"<b>Posture: {screen.side_name(side)}</b>",
                "Stands you put in a movement group may move this turn but not fire; the "
                "rest stay in the firing posture: they may fire once this turn, in the fire "
                "phase or as opportunity fire, but not move. A group's stands touch one "
                "another. Groups of two or more come before any one-stand group.",
                "Click your stands to pick a group, Enter to declare it.",
            ]
            if b.rules.has("tl2_fire_and_move"):  # Wehrmacht '47 (004 steps 2, 6)
                lines.insert(
                    2,
                    "Tech level 2 stands may do both: in a movement group they may still fire "
                    "in the fire phase, and then move at most half their allowance.",
                )
        if declared:
            lines.append(
                "Declared: "
                + "; ".join(  # "Blue group M1": both sides have an M1
                    f"{screen.group_label(side, g)} ({', '.join(ids)})"
                    for g, ids in sorted(declared.items())
                )
            )
        if self.passed_before(b, side):  # asked again: say why (trial 7)
            lines.insert(
                1,
                f"<i>{screen.side_name(b.other(side))} declared a group after you passed, so "
                "you may declare again: pick a group, or press Done (P). The phase ends when "
                "both sides pass in a row (001 5.0).</i>",
            )
        buttons = [
            ("Done: the rest fire (P)", lambda: done_for_the_phase(screen)),
            ("Pass for now", lambda: screen.act(Pass(side))),
        ]
        if self.picked:
            lines.append(f"<b>Picked</b>: {', '.join(self.picked)}")
            buttons.insert(
                0, ("Declare group (Enter)", lambda: screen.set_mode(self.confirm(screen)))
            )
        screen.set_panel("<br>".join(lines), buttons)

    @staticmethod
    def passed_before(b, side: str) -> bool:
        """Whether ``side`` passed earlier in this turn's posture phase (the battle log), so
        that it is asked again only because the other side declared since (001 5.0 step 2:
        the sides alternate until both pass in a row)."""
        for e in reversed(b.log.events):
            if e["turn"] != b.state.turn or e["phase"] != "posture":
                return False
            if e["event"] == "pass" and e.get("side") == side:
                return True
        return False

    def on_event(self, screen, ev):
        b = screen.battle
        if is_click(ev):
            s = screen.stand_under(ev.pos)
            if s and s.side == b.to_act and s.id in {u.id for u in b.undeclared(b.to_act)}:
                if s.id in self.picked:
                    self.picked.remove(s.id)
                else:
                    self.picked.append(s.id)
                self.enter(screen)
            elif s and s.side == b.to_act:
                screen.message = (
                    f"{screen.names[s.id]} is already in {screen.group_label(s.side, s.group)}"
                )
                self.enter(screen)
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            self.picked = []
            self.enter(screen)
        return None

    def confirm(self, screen):
        if self.picked:
            screen.act(DeclareGroup(screen.battle.to_act, tuple(self.picked)))
        return None

    def draw(self, screen, surface):
        b = screen.battle
        for s in b.state.stands.values():
            if s.side == b.to_act and s.active and s.posture == "movement":
                screen.tv.footprint_outline(surface, s.x, s.y, s.facing_deg, GROUP, 2)
        for i in self.picked:
            s = b.stand(i)
            screen.tv.footprint_outline(surface, s.x, s.y, s.facing_deg, SELECT, 3)
