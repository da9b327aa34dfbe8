"""The battle screen's close assaults (full games, 002 8.7): once a movement action is over,
the moving side picks which enemy stands in base contact to assault, with the engine's odds;
a close-assaulted stand whose roll passed picks the assaulter it strikes back at."""

from __future__ import annotations

import pygame

from game import AssaultReply, CloseAssault, EndCloseAssaults
from game.ui.battle.layout import PAL, SELECT
from game.ui.modes import Mode, is_click


def _pct(p: float) -> str:
    return f"{p:.0%}"


class CloseAssaultMode(Mode):
    """Pick an enemy stand to close-assault (click it, or its button), or end the assaults
    (Enter). Each choice shows the engine's odds: the chance of eliminating the defender, and
    of losing an assaulter to its answer."""

    def enter(self, screen):
        b = screen.battle
        side = b.to_act
        lines = [
            f"<b>Close assault: {screen.side_name(side)}</b>",
            "Your stands ended their move in base contact with the enemy. Each stand they "
            "touch may be close-assaulted once this phase by all of them together (002 8.7).",
        ]
        buttons = []
        for a in b.legal_actions():
            if not isinstance(a, CloseAssault):
                continue
            odds = b.close_assault_odds(a.defender)
            who = ", ".join(screen.names[i] for i in odds["assaulters"])
            answer = max((r["p_eliminated"] for r in odds["replies"].values()), default=0.0)
            lines.append(
                f"{screen.names[a.defender]} by {who}: {_pct(odds['assault']['p_eliminated'])} "
                f"to eliminate it; its answer, {_pct(odds['p_defender_fires'])} to strike back "
                f"and up to {_pct(answer)} to eliminate one of yours."
            )
            room = odds.get("retreat_room")
            if room is not None:  # 004: a disorganized defender falls back 1", or is lost
                final = odds["assault"]["final"]
                p_d = final["D"] + final["SD"]
                lines.append(
                    f'Left disorganized ({_pct(p_d)}), it falls back 1".'
                    if room
                    else f'Left disorganized ({_pct(p_d)}), it has no room to fall back 1" '
                    "and is eliminated: in all, "
                    f"{_pct(odds['assault']['p_eliminated'] + p_d)} to eliminate it."
                )
            buttons.append(
                (f"Assault {a.defender}", lambda a=a: screen.act(a)),
            )
        buttons.append(("No more assaults (Enter)", lambda: screen.act(EndCloseAssaults(side))))
        screen.set_panel("<br>".join(lines), buttons)

    def on_event(self, screen, ev):
        b = screen.battle
        if is_click(ev):
            s = screen.stand_under(ev.pos)
            if s is not None and s.side != b.to_act:  # refused: the engine's reason
                screen.act(CloseAssault(b.to_act, s.id))
        elif ev.type == pygame.KEYDOWN and ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            screen.act(EndCloseAssaults(b.to_act))
        return None

    def draw(self, screen, surface):
        b = screen.battle
        group = b.state.assault_open
        if group is None:
            return
        for a in b.legal_actions():
            if isinstance(a, CloseAssault):
                d = b.stand(a.defender)
                screen.tv.footprint_outline(surface, d.x, d.y, d.facing_deg, PAL.blocked, 3)
        for i in group.stands:
            s = b.stand(i)
            if s.active:
                screen.tv.footprint_outline(surface, s.x, s.y, s.facing_deg, SELECT, 2)


class AssaultReplyMode(Mode):
    """Our close-assaulted stand passed its roll: click the assaulter it strikes back at (or
    its button), with the engine's odds of each result."""

    def enter(self, screen):
        b = screen.battle
        ca = b.state.assault
        side = b.to_act
        lines = [
            f"<b>Close assault on {screen.names[ca.defender]}: {screen.side_name(side)}</b>",
            "It kept its nerve and strikes back at one assaulting stand, at -3 on the die "
            "(002 8.7). Pick which.",
        ]
        buttons = []
        for a in b.legal_actions():
            odds = b.reply_odds(a.target)
            lines.append(
                f"{screen.names[a.target]}: eliminated {_pct(odds['E'])}, disorganized "
                f"{_pct(odds['D'])}, suppressed {_pct(odds['S'])}"
            )
            buttons.append((f"Strike {a.target}", lambda a=a: screen.act(a)))
        screen.set_panel("<br>".join(lines), buttons)

    def on_event(self, screen, ev):
        b = screen.battle
        if is_click(ev):
            s = screen.stand_under(ev.pos)
            if s is not None and s.side != b.to_act:  # refused: the engine's reason
                screen.act(AssaultReply(b.to_act, s.id))
        return None

    def draw(self, screen, surface):
        b = screen.battle
        ca = b.state.assault
        if ca is None:
            return
        for i in ca.assaulters:
            s = b.stand(i)
            if s.active:
                screen.tv.footprint_outline(surface, s.x, s.y, s.facing_deg, PAL.blocked, 3)
