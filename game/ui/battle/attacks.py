"""The enemy's attacks on the player's stands, shown one at a time with a Continue: fire of
every kind (standard, opportunity, covering), overruns and close assaults, in any phase, as
the artillery's missions are (``landings.MissionStepMode``): who fired at whom, the dice and
the result, read from the battle-log lines the engine wrote. Against the AI or over the
network only (in hotseat the attacker is at the screen). The settings may let them run
("The enemy's attacks": ``colours.UI["enemy_attacks"]``), when they are told under "Last
attack" only. A GHQ lost is announced as it happens, whoever lost it and however."""

from __future__ import annotations

import html

import pygame

from game.ui.colours import UI
from game.ui.logtext import possessive
from game.ui.logwords import describe
from game.ui.modes import Mode

ATTACK_LINES = ("fire", "overrun", "close_assault")
"""The log lines of the attacks a player is stopped on."""
KIND_WORDS = {
    "standard": "fires",
    "opportunity": "opportunity fire",
    "covering": "covering fire",
}
GHQ_RULE = "000 08.02.02"
"""A GHQ lost: its side issues no further movement orders (the engine takes them)."""


def viewer_sides(screen) -> set[str]:
    """The sides the player at this screen commands: not the AI's, and over the network
    only this machine's."""
    net = getattr(screen, "net", None)
    if net is not None:
        return {net.side}
    return {s for s in screen.battle.sides if s not in screen.ai}


def _attacks_of(ev: dict) -> list[dict]:
    """The attacks (attacker, target) a line holds: a fire line is one; an overrun or a
    close assault holds each side's."""
    if ev["event"] == "fire":
        return [ev]
    parts = [ev.get("attack_on_defender"), ev.get("attack_on_attacker"), ev.get("defender_attack")]
    parts += list(ev.get("assaulter_attacks") or ())
    return [a for a in parts if isinstance(a, dict)]


def enemy_attacks(screen, events: list[dict]) -> list[dict]:
    """The lines among ``events`` in which an enemy stand attacks a stand of the player's
    (none in hotseat, where both sides are at the screen)."""
    mine = viewer_sides(screen)
    stands = screen.battle.state.stands
    if not mine or mine >= set(screen.battle.sides):
        return []

    def side(sid) -> str | None:
        s = stands.get(sid) if isinstance(sid, str) else None
        return s.side if s is not None else None

    return [
        ev
        for ev in events
        if ev["event"] in ATTACK_LINES
        and any(
            side(a.get("target")) in mine and side(a.get("attacker")) not in mine
            for a in _attacks_of(ev)
        )
    ]


def ghq_losses(screen, stands_before: dict) -> list[str]:
    """Each GHQ the action eliminated, in words with its rule: "Blue's GHQ, M1A2 Abrams A1,
    is lost: Blue issues no further movement orders (000 08.02.02)."."""
    b = screen.battle
    out = []
    for sid, s0 in (stands_before or {}).items():
        now = b.state.stands.get(sid)
        if s0.ghq and not s0.eliminated and now is not None and now.eliminated:
            who = screen.side_name(s0.side)
            out.append(
                f"{possessive(who)} GHQ, {screen.names.get(sid, sid)}, is lost: {who} issues no "
                f"further movement orders ({GHQ_RULE})."
            )
    return out


def pace_attacks(screen, events: list[dict], stands_before: dict, then: Mode | None):
    """After an action: announce any GHQ it cost (``screen.announce``, kept in the panel
    for the rest of the turn and the next) and return the mode that stops on each enemy
    attack on the player's stands before ``then``, or ``then`` itself when there is none
    or the settings let them run."""
    lost = ghq_losses(screen, stands_before)
    if lost:
        turn = screen.battle.state.turn
        screen.announce = [*getattr(screen, "announce", []), *((turn, t) for t in lost)]
    if UI.get("enemy_attacks", "pause") == "run":
        return then
    lines = enemy_attacks(screen, events)
    if not lines:
        return then
    screen.news.last_result = []  # the step tells each attack itself (not twice in the panel)
    return AttackStepMode(lines, then, lost)


def ghq_news(screen) -> str:
    """The panel's lines of the GHQs lost this turn or the last (red, bold), or ""; none
    while the attack step that lost one says it itself."""
    turn = screen.battle.state.turn
    lost = [t for at, t in getattr(screen, "announce", ()) if turn <= at + 1]
    if not lost or getattr(screen.mode, "ghq_lost", None):
        return ""
    return "".join(
        f"<br><font color='#b03010'><b>{html.escape(t, quote=False)}</b></font>" for t in lost
    )


class AttackStepMode(Mode):
    """The enemy's attacks on the player's stands of one action, one at a time: the panel
    tells the attack in the log's words (the dice and the result), the table marks the
    attacker and its target with a line between them; Continue (Enter, Space) shows the
    next one, then goes on to ``then``; Esc lets the rest run. The battle has already moved
    on: nothing here changes it."""

    paced = True  # nothing is passed, and the AI waits, while they are shown

    def __init__(self, lines: list[dict], then: Mode | None, ghq_lost: list[str] | None = None):
        self.lines = lines
        self.then = then
        self.ghq_lost = ghq_lost or []
        self.k = 0
        self._notice: str | None = None

    @property
    def current(self) -> dict:
        """The attack's line being shown."""
        return self.lines[self.k]

    @property
    def banner(self) -> str:
        """Which attack of how many."""
        return f"The enemy attacks: {self.k + 1} of {len(self.lines)}"

    def enter(self, screen):
        if self._notice is None:  # "the AI has acted" belongs after the attacks
            self._notice, screen.notice = screen.notice, ""
        ev = self.current
        kind = KIND_WORDS.get(ev.get("kind"), ev["event"].replace("_", " "))
        said = describe(ev, screen.names, screen.sides) or ""
        lines = [
            f"<b>Enemy attack {self.k + 1} of {len(self.lines)}</b> ({html.escape(kind)})",
            html.escape(said, quote=False),
        ]
        if self.k + 1 == len(self.lines) and self.ghq_lost:
            lines += [f"<b>{html.escape(t, quote=False)}</b>" for t in self.ghq_lost]
        buttons = [("Continue (Enter)", lambda: screen.set_mode(self.confirm(screen)))]
        if self.k + 1 < len(self.lines):
            buttons.append(("Show the rest (Esc)", lambda: screen.set_mode(self.cancel(screen))))
        screen.set_panel("<br>".join(lines), buttons)

    def on_event(self, screen, ev):
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_SPACE, pygame.K_RETURN):
            return self.confirm(screen)
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            return self.cancel(screen)
        return None

    def confirm(self, screen):
        """Continue: the next attack, or, after the last, what the battle waits for."""
        if self.k + 1 < len(self.lines):
            self.k += 1
            return self
        return self._done(screen)

    def cancel(self, screen):
        """Let the rest run: go on at once (they are all in the log and under Last attack)."""
        return self._done(screen)

    def _done(self, screen):
        screen.notice = self._notice or screen.notice
        return self.then or screen.mode_for_state()

    def draw(self, screen, surface):
        """The attacker and its target outlined, a line from one to the other."""
        b, tv = screen.battle, screen.tv
        for a in _attacks_of(self.current):
            att, tgt = b.state.stands.get(a.get("attacker")), b.state.stands.get(a.get("target"))
            if att is None or tgt is None:
                continue
            tx, ty, th = tgt.x, tgt.y, tgt.facing_deg
            pos = a.get("target_pos")
            if isinstance(pos, list) and len(pos) >= 2:  # where it was hit (opportunity fire)
                tx, ty = pos[0], pos[1]
                th = pos[2] if len(pos) > 2 else th
            pygame.draw.line(surface, (255, 255, 255), tv.to_px(att.x, att.y), tv.to_px(tx, ty), 3)
            pygame.draw.line(surface, (200, 40, 30), tv.to_px(att.x, att.y), tv.to_px(tx, ty), 1)
            tv.footprint_outline(surface, att.x, att.y, att.facing_deg, (255, 255, 255), 2)
            tv.footprint_outline(surface, tx, ty, th, (200, 40, 30), 3)
            word = a.get("result")
            if word and word != "none":
                img = tv.label(word, (255, 255, 255))
                c = tv.to_px(tx, ty)
                box = img.get_rect(center=(int(c[0]), int(c[1] - 0.9 * tv.view.scale - 8)))
                pygame.draw.rect(surface, (40, 40, 40), box.inflate(6, 2))
                surface.blit(img, box)
