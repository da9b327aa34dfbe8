"""The battle screen's modes before the fighting and at the start of a phase: set-up (regroup
stands before turn 1) and the initiative's choice of who acts first."""

from __future__ import annotations

import html

import pygame

from game import ChooseFirst, Pass, Regroup
from game.ui.battle.drawing import outline_group
from game.ui.logtext import PHASE_NAMES
from game.ui.modes import Mode, is_click


def ghq_purpose(battle) -> str:
    """What a GHQ stand is for, in a sentence ending with its rule: the side's movement
    orders are rolled with it, and none are given once it is eliminated (000 08.02.01-02;
    001 8.2.1-2). For the set-up panel and the GHQ's unit card."""
    rule = "001 8.2.2" if battle.rules.postures else "000 08.02.02"
    return f"GHQ: without it the side gets no movement orders ({rule})."


class SetupMode(Mode):
    """Before turn 1: regroup stands (click a stand, press 1-9), then Ready."""

    def __init__(self):
        self.selected: str | None = None

    def enter(self, screen):
        """The set-up's instructions first, where the player looks (they sat under a
        long briefing, out of sight), then the scenario's briefing."""
        side = screen.battle.to_act
        spec = screen.battle.scenario.spec
        brief = ""
        if spec.description.strip():  # the scenario's briefing, written in the map editor
            brief = (
                f"<br><br><b>{html.escape(spec.title)}</b><br>{html.escape(spec.description)}"
                "<br><i>B shows the briefing and how to win.</i>"
            )
        ghq = [sid for sid, st in screen.battle.state.stands.items() if st.side == side and st.ghq]
        command = (
            f"<br>Your GHQ is <b>{html.escape(screen.names[ghq[0]])}</b>: keep it safe. Each "
            "movement phase your orders are rolled with it; once it is eliminated your side "
            f"gets no movement orders, only one independent try per group "
            f"({'001 8.2.2' if screen.battle.rules.postures else '000 08.02.02'})."
            if ghq
            else ""
        )
        screen.set_panel(
            f"<b>Set-up: {html.escape(screen.side_name(side))}</b><br>Press <b>Ready</b> to "
            "start with the battle groups as they are. To change one, click one of your "
            "stands and press a digit 1-9 to put it in that group. Battle groups may change "
            f"now and never again (000 08.01.01).{command}{brief}",
            [("Ready", lambda: screen.act(Pass(side)))],
        )

    def on_event(self, screen, ev):
        b = screen.battle
        if is_click(ev):
            s = screen.stand_under(ev.pos, include_off_table=True)
            if s and s.side == b.to_act:
                self.selected = s.id
                group = screen.group_label(s.side, s.group)
                screen.message = f"{screen.names[s.id]} is in {group}: press 1-9 to change"
        elif ev.type == pygame.KEYDOWN and self.selected and pygame.K_1 <= ev.key <= pygame.K_9:
            screen.act(Regroup(b.to_act, self.selected, str(ev.key - pygame.K_0)), keep_mode=True)
        return None

    def draw(self, screen, surface):
        if self.selected:
            outline_group(surface, screen.tv, screen.battle, self.selected)


class ChooseFirstMode(Mode):
    """The side with the initiative picks who acts first in this phase; P (pass) lets the
    enemy act first (the screen's ``pass_turn``)."""

    def enter(self, screen):
        b = screen.battle
        me = b.to_act
        phase = PHASE_NAMES.get(b.state.phase, b.state.phase)
        enemy = screen.side_name(b.other(me))
        rule = "000 08.02.04" if b.phase.kind == "movement" else "000 07.02.04"
        rule = "001 5.0, 7.1.1, 8.2.4" if b.rules.postures else rule
        # asked in a fire phase only when both sides can fire (not in a battle before it)
        both = (
            "Both sides have stands that can fire. "
            if b.auto_pass and b.phase.kind == "fire"
            else ""
        )
        screen.set_panel(
            f"<b>{screen.side_name(me)} has the initiative.</b><br>{both}Who acts first in the "
            f"{phase}? Press P to pass: {enemy} acts first. "
            f"({rule})",
            [
                (f"{screen.short_name(s)} first", lambda s=s: screen.act(ChooseFirst(me, s)))
                for s in b.sides
            ],
        )
