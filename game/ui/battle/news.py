"""What the battle screen's panel tells of the actions before the decision at hand:
each movement attempt's roll, what it needed and its outcome, and the attacks made on a side
since it last acted (the enemy's fire while it was passed for automatically, too), so nothing
that happened while a player was not asked is told only by the log or an X on the table."""

from __future__ import annotations

import html
from collections.abc import Callable

from game.ui.logtext import attempt_needs
from game.ui.logwords import describe

ATTACKS = ("fire", "artillery", "impact", "air_strike")
"""The log lines told under "Last attack"."""
MOST_ATTACKS = 6  # lines under "Last attack"; older ones are in the log panel
MOD_WORDS = {"hq": "an HQ in the group", "independent": "independent"}
"""A movement attempt's modifiers in words (000 08.02.03, 08.02.08)."""
KEEP = 60  # news kept for the sides that have not acted for a while


class News:
    """The battle screen's news (its ``news``): ``record_news`` after each action, then
    ``last_result`` (the attacks) and ``last_orders`` (the movement attempts) hold what the
    side to act is told: what happened since it last acted, and what its own last action
    did. ``names`` (stand id -> name) and ``sides`` (side -> name) word the log lines as the
    log panel does; ``group_label(side, group)`` names a battle group on the screen."""

    def __init__(self, battle, names: dict, sides: dict, group_label: Callable[[str, str], str]):
        self.battle = battle
        self.names = names
        self.sides = sides
        self.group_label = group_label
        self.last_result: list[str] = []
        self.last_orders: list[str] = []
        self._news: list[tuple[int, str, tuple, str]] = []  # (action no., kind, phase, html)
        self._acted: dict[str, int] = {}  # side -> the number of its last action

    def record_news(self, action, events: list[dict]) -> None:
        """Note what ``action`` (just applied) wrote in the battle log, then choose what the
        side now to act is told."""
        b = self.battle
        n = len(b.actions)
        when = (b.state.turn, b.state.phase)
        for e in events:
            if e["event"] in ATTACKS:
                self._news.append((n, "attack", when, html.escape(self.describe_news(e))))
            elif e["event"] == "move_attempt":
                self._news.append((n, "order", when, self.attempt_html(e)))
        side = getattr(action, "side", None)
        if side is not None:
            self._acted[side] = n
        del self._news[:-KEEP]
        since = self._acted.get(b.to_act, -1)
        now = (b.state.turn, b.state.phase)
        told = [
            (kind, text)
            for k, kind, at, text in self._news
            # since the side to act last acted; that action's own news in the same phase;
            # and whatever the action just taken did
            if k > since or (k == since and at == now) or k == n
        ]
        self.last_result = [t for kind, t in told if kind == "attack"][-MOST_ATTACKS:]
        self.last_orders = [t for kind, t in told if kind == "order"][-3:]

    def describe_news(self, ev: dict) -> str:
        """A log line as the log panel writes it."""
        return describe(ev, self.names, self.sides) or ""

    def attempt_html(self, ev: dict) -> str:
        """A movement attempt for the panel: who, its outcome, the roll, what it needed and
        the rule: "<b>Blue group 2 fails its order</b>: rolled 20, needed 15 or less
        (cohesion 15) (000 08.02.05)"."""
        b = self.battle
        ok = [s for s, p in ev["per_stand"].items() if p["passed"]]
        left = [s for s in ev["per_stand"] if s not in ok]
        who = self.group_label(ev["side"], ev["group"])
        if ev["ordered"]:
            verb = "moves on its order" if ok else "fails its order"
        else:
            verb = "moves independently" if ok else "fails to move independently"
        first = next(iter(ev["per_stand"].values()), {"mods": []})
        mods = "".join(
            f", {MOD_WORDS.get(m['why'], m['why'].removeprefix('terrain:').replace('_', ' '))} "
            f"{m['value']:+d}"
            for m in first["mods"]
        )
        if b.rules.postures:
            rule = "001 8.2.5" if ev["ordered"] else "001 8.2.6"
        else:
            rule = "000 08.02.05" if ev["ordered"] else "000 08.02.08"
        needs = attempt_needs(ev)
        text = (
            f"<b>{html.escape(who)} {verb}</b>: rolled {ev['roll']}"
            + (f", needed {needs}" if needs else "")
            + f" (cohesion {ev.get('level', '?')}{html.escape(mods)})"
        )
        if ok and left:
            stray = "001 8.2.7" if b.rules.postures else "000 08.02.09"
            text += f"; {', '.join(left)} stay behind ({stray})"
        return f"{text} ({rule})"
