"""The joint artillery fire phase shown one mission at a time: the engine resolves the
missions that land (and the AI's direct artillery) in one step; the battle screen paces what
it shows of them from the battle-log lines they wrote, as a player at the table would
resolve them: each mission's firers' rolls, where it landed (the deviation arrow, with the
direction and distance dice in words), the markers it put down, and each stand's roll, with
a Continue between missions. Air strikes fly their tracks in their turn."""

from __future__ import annotations

import dataclasses
import html

import pygame

from game import ArtilleryFire
from game.ui.battle.attacks import ghq_news as ghq_news  # the screen's, beside pace_missions
from game.ui.battle.attacks import pace_attacks
from game.ui.battle.support_draw import (
    RADIUS_IN,
    draw_landing,
    mission_groups,
    side_colour,
)
from game.ui.logtext import DIRECTIONS, PHASE_NAMES, RESULT_WORDS, possessive
from game.ui.logwords import describe
from game.ui.modes import Mode
from game.ui.render import INK

WAY_WORDS = {
    "up": "towards the top edge",
    "up-right": "up and to the right",
    "right": "to the right",
    "down-right": "down and to the right",
    "down": "towards the bottom edge",
    "down-left": "down and to the left",
    "left": "to the left",
    "up-left": "up and to the left",
}
"""The deviation die's directions (``logtext.DIRECTIONS``) in a sentence."""


def roll_words(r: dict | None) -> str:
    """A cohesion roll in plain words: "rolled 9 + 3 (woods) = 12, needs 15 or less"."""
    if not r:
        return "no roll"
    mods = "".join(
        f" {'+' if m['value'] >= 0 else '-'} {abs(m['value'])} "
        f"({m['why'].removeprefix('terrain:').replace('aa:', 'flak ').replace('_', ' ')})"
        for m in r.get("mods") or ()
    )
    total = f" = {r['total']}" if mods else ""
    return f"rolled {r['roll']}{mods}{total}, needs {r['level']} or less"


def deviation_words(ev: dict) -> str:
    """Where a mission landed, in words, from its line's deviation roll (002 7.10-7.13; 004
    7.8, 12.8): on the aim, or how far off and which way, with the dice that said so."""
    dev = ev.get("deviation")
    if dev is None:
        return "It lands on the aim (direct fire: no deviation roll)."
    if dev.get("passed"):
        return f"On the aim: the deviation roll passed ({roll_words(dev)})."
    d, die = dev.get("direction_die"), dev.get("distance_die")
    if d is None or die is None:
        return f"Off the aim: the deviation roll failed ({roll_words(dev)})."
    way = WAY_WORDS[DIRECTIONS[(d - 1) % 8]]
    dist = dev["distance_in"]
    halved = ev["event"] == "artillery"
    how = f'{die}, halved and rounded up: {dist:g}"' if halved else f'{die}: {dist:g}"'
    return (
        f'{dist:g}" off the aim, {way}: the deviation roll failed ({roll_words(dev)}); '
        f"direction die {d} (1 is towards the top edge, then clockwise), distance die {how}."
    )


def attack_words(a: dict, screen) -> str:
    """An impact's or air strike's attack on a stand in words: 'M1 Abrams A2: 9 against 4
    (+5), 2D6 7 + 2 (woods) = 9: CRT E, eliminated'."""
    cb = a.get("combat")
    roll = "below the table" if cb is None else f"2D6 {sum(cb['dice'])}"
    if cb and cb.get("mods"):
        roll += "".join(
            f" {'+' if m['value'] >= 0 else '-'} {abs(m['value'])} "
            f"({m['why'].removeprefix('terrain:').replace('_', ' ')})"
            for m in cb["mods"]
        )
        roll += f" = {cb['total']}"
    effect = RESULT_WORDS.get(a.get("result"), a.get("result"))
    name = screen.names.get(a["target"], a["target"])
    return (
        f"{name}: {a['firepower']} against {a['defense']} ({a['differential']:+d}), {roll}: "
        f"CRT {a['crt']}, {effect}"
    )


def edge_name(table, p) -> str:
    """The table edge a point (inches) lies on: "left", "right", "bottom", "top" ("" when
    it is on none)."""
    x, y = p[0], p[1]
    for name, on in (
        ("left", x <= 1e-6),
        ("right", x >= table.width - 1e-6),
        ("bottom", y <= 1e-6),
        ("top", y >= table.depth - 1e-6),
    ):
        if on:
            return name
    return ""


class MissionStepMode(Mode):
    """The missions that just landed or fired, shown one at a time with a Continue.
    ``groups`` are :func:`~game.ui.battle.support_draw.mission_groups` of the lines the
    engine wrote; ``then`` is the mode for what the battle waits for next (None: the
    screen's ``mode_for_state``). The table shows the missions up to the current one (the
    later ones' markers and arrows wait, ``unshown``), the current one's aim, arrow, markers
    and the stands it attacked marked; an air strike's aircraft flies its track. The battle
    itself has already moved on: nothing here changes it."""

    paced = True  # the battle screen passes nothing while the missions are being shown

    def __init__(
        self,
        groups: list[dict],
        then: Mode | None,
        held: list[int] | None = None,
        events: list[dict] | None = None,
        before: dict | None = None,
    ):
        self.groups = groups
        self.then = then
        self.held = held or [0] * len(groups)  # log sentences after each mission's lines
        self.events = events or []  # the action's log lines that ``groups`` index
        self.before = before or {}  # stand id -> a copy of the stand before the action
        self.k = 0
        self._flown = -1
        self._notice: str | None = None
        self.drawn: list[tuple] = []  # what the last frame drew of the current mission

    @property
    def current(self) -> dict:
        """The mission being shown: its line and its impact lines."""
        return self.groups[self.k]

    @property
    def banner(self) -> str:
        """The banner's words while the missions are shown: which one of how many."""
        return f"{PHASE_NAMES['artillery']}: mission {self.k + 1} of {len(self.groups)}"

    @property
    def unshown(self) -> set[str]:
        """The missions still to be shown (their markers and arrows wait)."""
        return {g["line"]["mission"] for g in self.groups[self.k + 1 :]}

    @property
    def table_key(self) -> int:
        """Which mission is shown: the table's stands are drawn again when it changes."""
        return self.k

    def stands_as_shown(self, state) -> tuple[list, list]:
        """The stands and wrecks of ``state`` as they stood when the current mission had
        landed: a stand that a later mission (or anything after it in the same action)
        attacks is drawn with the markers of its last log line up to this mission's, or as
        it was before the action when it has none, and without its wreck while it is not
        eliminated. Display only: the battle's state is not touched."""
        cut = self.groups[self.k]["last"]
        later: set[str] = set()
        marks: dict[str, dict] = {}  # stand id -> its markers after its last line up to cut
        for i, ev in enumerate(self.events):
            for who, field in (("target", "target_markers_after"), ("stand", "markers_after")):
                sid, after = ev.get(who), ev.get(field)
                if isinstance(sid, str) and isinstance(after, dict):
                    if i > cut:
                        later.add(sid)
                    else:
                        marks[sid] = after
        stands = []
        for s in state.stands.values():
            if s.id in later and s.id in marks:
                m = marks[s.id]
                s = dataclasses.replace(s, S=m["S"], D=m["D"], eliminated=m["eliminated"])
            elif s.id in later and s.id in self.before:
                s = self.before[s.id]
            stands.append(s)
        alive = {s.id for s in stands if not s.eliminated}
        return stands, [w for w in state.wrecks if w.stand not in alive]

    def enter(self, screen):
        if self._notice is None:  # "the AI has acted" belongs after the missions
            self._notice, screen.notice = screen.notice, ""
        ev = self.current["line"]
        if self._flown != self.k:  # an air strike flies its track when its turn comes
            self._flown = self.k
            screen.support.flights.clear()
            if ev["event"] == "air_strike" and ev.get("path"):
                screen.support.queue_flight(ev)
        screen.log_view.held = self.held[self.k]  # the later missions' sentences wait
        side = html.escape(screen.side_name(ev.get("side")))
        rule = f" ({ev['rule']})" if ev.get("rule") else ""
        if ev["event"] == "air_strike":
            what = f"air strike by {html.escape(ev['aircraft'])}"
            path = ev.get("path") or ()
            if len(path) == 3:
                t = screen.battle.table
                came, went = (edge_name(t, p) or "table" for p in (path[0], path[2]))
                what += (
                    f", in and out by the {came} edge"
                    if came == went
                    else f", in from the {came} edge, out by the {went} edge"
                )
        else:
            how = "indirect fire" if ev.get("kind") == "indirect" else "direct artillery"
            what = f"{how}, {'smoke' if ev.get('ammo') == 'smoke' else 'HE'}"
        lines = [
            f"<b>Mission {self.k + 1} of {len(self.groups)}: {side} {what}</b>{rule}",
            *self._lines(screen, ev),
        ]
        last = self.k + 1 == len(self.groups)
        buttons = [("Continue (Enter)", lambda: screen.set_mode(self.confirm(screen)))]
        if not last:
            buttons.append(("Show the rest (Esc)", lambda: screen.set_mode(self.cancel(screen))))
        screen.set_panel("<br>".join(lines), buttons)

    def _lines(self, screen, ev: dict) -> list[str]:
        """The panel's sentences of one mission: who fired, where it landed, what it put
        down, and each stand's roll."""
        if ev["event"] == "air_strike":
            return self._air_lines(screen, ev)
        names = screen.names
        out: list[str] = []
        for sid, r in (ev.get("cohesion") or {}).items():
            fires = "Fires" if r.get("passed") else "Does not fire"
            out.append(f"{fires}: {html.escape(names.get(sid, sid))} ({roll_words(r)}).")
        for sid, why in (ev.get("not_fired") or {}).items():
            out.append(f"Does not fire: {html.escape(names.get(sid, sid))} ({html.escape(why)}).")
        k = len(ev.get("markers") or ())
        if not k:
            out.append("Nothing lands: no gun passed its cohesion roll.")
            return out
        out.append(html.escape(deviation_words(ev)))
        if ev.get("ammo") == "smoke":
            out.append(
                f"{k} smoke area{'s' if k > 1 else ''} (grey) block{'' if k > 1 else 's'} sight "
                "until the end of the "
                "next turn."
            )
            return out
        rings = (
            f"ring{'s' if k > 1 else ''} in {possessive(screen.side_name(ev.get('side')))} colour"
        )
        out.append(
            f"{k} HE impact marker{'s' if k > 1 else ''} down ({html.escape(rings, quote=False)})."
        )
        impacts = self.current["impacts"]
        if not impacts:
            out.append("No stand is under the markers.")
        for imp in impacts:
            out.append(f"Under {imp['marker']}: {html.escape(attack_words(imp, screen))}.")
        return out

    def _air_lines(self, screen, ev: dict) -> list[str]:
        """An air strike's sentences: the flak spoiling its arrival (004), its arrival, the
        AA on its way in, where it attacked and what it did, the AA on its way out (002)."""
        names = screen.names

        def who(sid):
            return html.escape(names.get(sid, sid))

        aa = ev.get("aa") or ()
        out = [
            f"AA {who(a['stand'])}, before it arrives: {roll_words(a.get('cohesion'))}"
            + (f", +{a['arrival_mod']} to the arrival roll." if a["arrival_mod"] else ".")
            for a in aa
            if "arrival_mod" in a
        ]
        arrival = ev.get("arrival") or {}
        arrives = arrival.get("passed")
        out.append(
            f"Arrival: {roll_words(arrival)}: {'it arrives' if arrives else 'it does not come'}."
        )
        for leg, way in (("in", "flying in"), ("out", "flying out")):
            for a in (a for a in aa if a.get("leg") == leg):
                r = a.get("cohesion") or {}
                effect = RESULT_WORDS.get(a.get("result"), "no effect")
                fires = f"fires: {effect}" if r.get("passed") else "does not fire"
                out.append(f"AA {who(a['stand'])}, {way}: {roll_words(r)}: {fires}.")
            if leg == "in" and arrives:
                if ev.get("deviation") is None:
                    out.append("It is shot down before it attacks.")
                    return out
                out.append(html.escape(deviation_words(ev)))
                if ev.get("target") is not None:
                    attack = html.escape(attack_words(ev, screen))
                    out.append(f"It attacks the nearest stand, {attack}.")
        if (ev.get("aircraft_after") or {}).get("eliminated"):
            out.append("The aircraft is shot down.")
        return out

    def on_event(self, screen, ev):
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_SPACE:
            return self.confirm(screen)
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            return self.cancel(screen)
        return None

    def confirm(self, screen):
        """Continue: the next mission, or, after the last, what the battle waits for."""
        if self.k + 1 < len(self.groups):
            self.k += 1
            return self
        return self._done(screen)

    def cancel(self, screen):
        """Show the rest at once: every mission's markers and arrows, and go on."""
        return self._done(screen)

    def _done(self, screen):
        screen.support.flights.clear()
        screen.log_view.held = 0
        screen.notice = self._notice or screen.notice
        return self.then or screen.mode_for_state()

    def draw(self, screen, surface):
        b, tv = screen.battle, screen.tv
        ev = self.current["line"]
        self.drawn = draw_landing(surface, tv, b.sides, ev, strong=True)
        r_px = max(4, int(RADIUS_IN * tv.view.scale))
        for x, y in ev.get("markers") or ():
            pygame.draw.circle(surface, (255, 255, 255), tv.to_px(x, y), r_px + 3, 2)
        own = side_colour(b.sides, ev.get("side"))
        hits = [*self.current["impacts"]]
        if ev["event"] == "air_strike" and ev.get("target") is not None:
            hits.append(ev)
        for imp in hits:
            t = b.stand(imp["target"])
            tv.footprint_outline(surface, t.x, t.y, t.facing_deg, own, 3)
            word = imp.get("result")
            c = tv.to_px(t.x, t.y)
            if word and word != "none":
                img = tv.label(word, (255, 255, 255))
                box = img.get_rect(center=(int(c[0]), int(c[1] - 0.9 * tv.view.scale - 8)))
                pygame.draw.rect(surface, INK, box.inflate(6, 2))
                surface.blit(img, box)


def pace_missions(
    screen, action, events, then: Mode | None, before: dict | None = None
) -> Mode | None:
    """The mode that shows the missions among an action's new log lines one at a time
    before ``then``, or ``then`` itself when there are none to show: the missions a
    player just aimed and fired himself (direct artillery) are told in the panel at once.
    ``before``: copies of the stands as they were before the action (id -> stand), so that
    the table shows each mission's results only when its turn comes. The enemy's attacks on
    the player's stands are shown after the missions (``attacks.pace_attacks``)."""
    then = pace_attacks(screen, events, before or {}, then)
    net = getattr(screen, "net", None)  # over the network the other side's are paced
    mine = action.side not in screen.ai and (net is None or action.side == net.side)
    if isinstance(action, ArtilleryFire) and mine:
        return then
    groups = mission_groups(events)
    if not groups:
        return then
    screen.news.last_result = []  # each mission tells its own rolls in turn
    told = [bool(describe(e, screen.names, screen.sides)) for e in events]
    held = [sum(told[g["last"] + 1 :]) for g in groups]
    return MissionStepMode(groups, then, held, list(events), before)
