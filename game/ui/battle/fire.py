"""The battle screen's fire mode: pick a target, then the attackers and their weapons, with
the engine's odds in the panel, and fire."""

from __future__ import annotations

import html

import pygame
import pygame_gui

from game import Fire, Pass
from game.ui.battle.drawing import outline_blocker
from game.ui.battle.layout import PAL
from game.ui.logtext import PHASE_NAMES, stand_name
from game.ui.modes import Mode, is_click


class FireMode(Mode):
    """Fire phases: click an enemy stand to target it, then click your stands to add or drop
    attackers; W switches the last one's weapon; Enter fires."""

    def __init__(self, target: str | None = None, attackers: dict[str, str] | None = None):
        self.target = target
        self.attackers: list[str] = []
        self.weapons: dict[str, str] = {}
        self.preset = dict(attackers or {})  # attacker -> weapon, from a line of the panel
        self.options: dict[str, list[str]] = {}  # attacker -> legal weapons
        self.reasons: dict[str, str] = {}
        self.sights = {}
        self.shots: dict | None = (
            None  # the engine's legal shots by target, worked out off the frame
        )

    def enter(self, screen):
        b = screen.battle
        self.options, self.reasons, self.sights = {}, {}, {}
        if self.target:
            for s in b.state.stands.values():
                if s.active and s.side == b.to_act:
                    legal = []
                    for w in ("cannon", "atgm") if s.unit.atgm else ("cannon",):
                        fs = b.fire_setup(s.id, self.target, w)
                        if fs.legal:
                            legal.append(w)
                        else:
                            self.reasons.setdefault(s.id, fs.reason)
                    if legal:
                        self.options[s.id] = legal
                    self.sights[s.id] = b.sight(s.id, self.target)
            for a, w in self.preset.items():  # a line of the panel picked them
                if a in self.options and a not in self.attackers:
                    self.attackers.append(a)
                    self.weapons[a] = w if w in self.options[a] else self.options[a][0]
            self.preset = {}
        elif self.shots is None:
            # every legal shot is a whole sight matrix: not in the frame where an action lands
            screen.work.off_frame(
                screen.work.ask_twin("fire_options"), lambda shots: self._counted(screen, shots)
            )
        self.refresh(screen)

    def _counted(self, screen, shots) -> None:
        if shots is not None and screen.mode is self:
            self.shots = shots
            self.refresh(screen)

    def refresh(self, screen):
        b = screen.battle
        side = b.to_act
        phase = PHASE_NAMES[b.state.phase]
        buttons = [("Pass (P)", lambda: screen.act(Pass(side)))]
        if not self.target:
            shots = self.shots
            firers = {fs.attacker for setups in (shots or {}).values() for fs in setups}
            if shots is None:
                what = "Working out which of your stands can fire... Click an enemy stand to make it the target, or pass."
            elif firers:
                what = (
                    f"{len(firers)} of your stands can fire at {len(shots)} enemy "
                    f"stand{'s' if len(shots) > 1 else ''} (outlined: yours "
                    f"{PAL.word('clear')}, theirs {PAL.word('blocked')}). Click a line to aim "
                    "them, or click an enemy stand to make it the target; or pass.<br>"
                    + self.shot_lines(screen, shots)
                )
            else:
                what = "None of your stands can fire at an enemy stand now: pass (P)."
            screen.set_panel(
                f"<b>{phase}: {screen.side_name(side)} to attack</b><br>{what}", buttons
            )
            return
        lines = [f"<b>Target: {screen.names[self.target]}</b>"]
        if self.attackers:
            odds = b.odds(self.attackers, self.target, [self.weapons[a] for a in self.attackers])
            for fs, shot in zip(odds["setups"], odds["shots"], strict=False):
                lines.append(screen.describe_setup(fs, shot))
            lines.append(
                f"<b>Chance to eliminate: {odds['p_eliminated']:.0%}</b> "
                f"(no effect {odds['final']['unchanged']:.0%})"
            )
            buttons.insert(0, ("Fire (Enter)", lambda: screen.set_mode(self.confirm(screen))))
        else:
            lines.append("Click your stands to add them to the attack.")
        lines.append(
            f"<i>Outlined: your attackers {PAL.word('clear')}, the target "
            f"{PAL.word('blocked')}; lines: {PAL.word('clear')} may fire, {PAL.word('sees')} "
            f"sees but may not, {PAL.word('blocked')} no sight; crossed "
            f"{PAL.word('blocked')}: a stand in the way.</i>"
        )
        free = [a for a in self.options if a not in self.attackers]
        if free:
            lines.append("May also fire: " + ", ".join(free))
        if self.reasons:
            lines.append(
                "<i>"
                + "<br>".join(
                    html.escape(v if v.startswith(f"{k} ") else f"{k}: {v}")
                    for k, v in sorted(self.reasons.items())
                    if k not in self.options
                )
                + "</i>"
            )
        buttons.append(("Cancel (Esc)", lambda: screen.set_mode(FireMode())))
        screen.set_panel("<br>".join(lines), buttons)

    SHOWN = 6  # lines of shots in the panel; the rest are counted

    def shot_lines(self, screen, shots) -> str:
        """One line per enemy stand that can be fired at, naming it and your stands that
        can fire at it; each line is a link that aims them."""
        lines = []
        b = screen.battle
        for target, setups in sorted(shots.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            by_unit: dict[str, list[str]] = {}  # "Leopard-IIA6 A1, A2" rather than the name twice
            for fs in setups:
                by_unit.setdefault(b.stand(fs.attacker).unit_name, []).append(fs.attacker)
            who = "; ".join(stand_name(u, ", ".join(ids)) for u, ids in by_unit.items())
            lines.append(
                f"<a href='{target}'>{html.escape(screen.names[target])}: by {html.escape(who)}</a>"
            )
        more = len(lines) - self.SHOWN
        if more > 0:
            lines = lines[: self.SHOWN] + [f"and {more} more enemy stands"]
        return "<br>".join(lines)

    def on_event(self, screen, ev):
        b = screen.battle
        if ev.type == pygame_gui.UI_TEXT_BOX_LINK_CLICKED and not self.target:
            setups = (self.shots or {}).get(ev.link_target)
            if setups:  # a line of the panel: its target and every stand that can fire at it
                screen.message = ""
                return FireMode(ev.link_target, {fs.attacker: fs.weapon for fs in setups})
            return None
        if is_click(ev):
            s = screen.stand_under(ev.pos)
            if s is None:
                return None
            if s.side != b.to_act:
                screen.message = ""
                return FireMode(s.id)
            if not self.target:
                screen.message = (
                    f"Pick a target first: click an enemy stand, or a line above that names "
                    f"{screen.names[s.id]}"
                )
                self.refresh(screen)
                return None
            if self.target and s.id in self.options:
                if s.id in self.attackers:
                    self.attackers.remove(s.id)
                else:
                    self.attackers.append(s.id)
                    self.weapons[s.id] = self.options[s.id][0]
                self.refresh(screen)
            elif self.target:
                screen.message = self.reasons.get(s.id, f"{s.id} may not fire at the target")
        elif ev.type == pygame.KEYDOWN:
            if ev.key == pygame.K_ESCAPE:
                screen.message = ""
                return FireMode()
            if ev.key == pygame.K_w and self.attackers:
                last = self.attackers[-1]
                opts = self.options[last]
                if len(opts) < 2:
                    screen.message = f"{screen.names[last]} has no other weapon to switch to"
                self.weapons[last] = opts[(opts.index(self.weapons[last]) + 1) % len(opts)]
                self.refresh(screen)
        return None

    def confirm(self, screen):
        if not self.target or not self.attackers:
            return None
        b = screen.battle
        screen.act(
            Fire(
                b.to_act,
                self.target,
                tuple(self.attackers),
                tuple(self.weapons[a] for a in self.attackers),
            )
        )
        return None

    def draw(self, screen, surface):
        if not self.target:
            # the stands of the panel's lines: yours that can fire, theirs that can be hit
            tv, b = screen.tv, screen.battle
            for target, setups in (self.shots or {}).items():
                t = b.stand(target)
                tv.footprint_outline(surface, t.x, t.y, t.facing_deg, PAL.blocked, 3)
                for fs in setups:
                    s = b.stand(fs.attacker)
                    tv.footprint_outline(surface, s.x, s.y, s.facing_deg, PAL.clear, 3)
            return
        t = screen.battle.stand(self.target)
        tv = screen.tv
        for sid, sight in self.sights.items():
            s = screen.battle.stand(sid)
            colour = (
                PAL.clear if sid in self.options else (PAL.sees if sight.clear else PAL.blocked)
            )
            width = 3 if sid in self.attackers else 1
            pygame.draw.line(surface, colour, tv.to_px(s.x, s.y), tv.to_px(t.x, t.y), width)
            if sid in self.attackers or not sight.clear:
                for why in sight.blocked_by:  # a stand in the way is crossed, not outlined
                    outline_blocker(surface, screen.tv, screen.battle, why)
        for sid in self.attackers:  # yours, as the legend says, even when one is in the way
            s = screen.battle.stand(sid)
            tv.footprint_outline(surface, s.x, s.y, s.facing_deg, PAL.clear, 3)
        tv.footprint_outline(surface, t.x, t.y, t.facing_deg, PAL.blocked, 3)
