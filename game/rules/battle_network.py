"""A network battle's part of the engine: fair dice drawn from both players' hash
chains, and the battle rebuilt from its log (``hulldown verify``, resuming after a crash).

A network battle starts like any other, then :meth:`NetworkPlay.start_network` records both
chains' ends (a ``network`` line, holding the scenario too, so the log alone replays the
battle). From then on each action is applied with both players' next chain elements
(``Battle.apply(action, elements)``): the engine checks each hashes to that side's element
before, seeds the action's dice from them (:func:`game.rules.fair.action_seed`), and after the
before the action's own lines writes an ``action`` line with the action and the elements.
Hotseat and AI battles never call it and keep their seeded dice, byte for byte.
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

from game.rules.actions import PlotAirStrike, PlotMission, action_from_dict
from game.rules.battle_parts import BattleParts
from game.rules.context import IllegalAction
from game.rules.fair import CHAIN_LENGTH, action_seed, follows, is_hex_digest
from game.rules.files.jsonfile import JsonFileError, iter_json_lines
from game.rules.files.log import _line
from game.rules.files.scenario import ScenarioError, parse_scenario
from game.rules.phases import plot
from game.rules.phases.hidden import conceal

NET_FORMAT = "hulldown-net/1"
"""The ``network`` line's format: the protocol of hash chains and hidden plots (docs/network.md)."""


class NetworkLogError(ValueError):
    """A network battle's log that does not replay: the message names the file, the line
    (from 1) and the problem."""


class NetworkPlay(BattleParts):
    """The network battle's methods of :class:`~game.rules.battle.Battle` (a mixin)."""

    @property
    def is_network(self) -> bool:
        """True for a network battle (chains started)."""
        return self.state.chains is not None

    def start_network(self, ends: dict[str, str], length: int = CHAIN_LENGTH) -> None:
        """Make this a network battle: ``ends`` maps each side to the end of its hash chain
        (64 hex digits), ``length`` the chains' number of elements. Writes the ``network``
        line. Raises IllegalAction once an action was applied, or for ends that are not one
        per side of 64 hex digits."""
        if self.actions or self.state.chains is not None:
            raise IllegalAction("a battle becomes a network battle before its first action")
        if set(ends) != set(self.sides) or not all(is_hex_digest(v) for v in ends.values()):
            raise IllegalAction("a network battle needs each side's chain end, 64 hex digits")
        if not isinstance(length, int) or not 1 <= length <= 1_000_000:
            raise IllegalAction("a hash chain has 1 to 1,000,000 elements")
        self.network_length = length
        self.state.chains = {s: ends[s] for s in self.sides}
        self.ctx.event(
            "network",
            format=NET_FORMAT,
            chains=dict(self.state.chains),
            length=length,
            seed=self.seed,
            auto_pass=self.auto_pass,
            scenario_path=self.scenario.path,
            scenario_file=self.scenario.raw,
        )

    def hide_plot(self, plot_action, salt: str):
        """The hidden form of a plot the side to act makes now (:func:`conceal`), after the
        whole plot passed the plot phase's checks (002 7.11, 7.13; 004 7.8): what a network
        battle's plotting machine sends and applies, keeping the plot and ``salt`` to reveal
        it as it lands. Raises IllegalAction as the plot would be refused, or when this
        is not a network battle."""
        if self.state.chains is None:
            raise IllegalAction("plots are hidden only in a network battle")
        if isinstance(plot_action, PlotMission):
            plot.check_plot(self.ctx, plot_action)
        elif isinstance(plot_action, PlotAirStrike):
            plot.check_air(self.ctx, plot_action)
        else:
            raise IllegalAction(f"{plot_action.kind} is not a plot")
        return conceal(plot_action, salt)

    def refusal(self, action) -> str | None:
        """Why the rules would refuse ``action`` now, or None: it is applied to a copy of this
        battle's state in a probe battle of the same scenario (built on first use and kept),
        with throwaway dice; nothing of this battle changes. A network battle's acting side
        asks before it sends an action, so the other side can never refuse one the rules
        allow without it being a fault (a side that could refuse an action whose dice it
        has seen could choose its luck)."""
        probe = getattr(self, "_probe", None)
        if probe is None:
            probe = type(self)(self.scenario, self.seed, auto_pass=self.auto_pass)
            probe._probing = True
            self._probe = probe
        probe.state = probe.ctx.state = copy.deepcopy(self.state)
        probe.actions = list(self.actions)
        probe.log.events.clear()
        try:
            probe.apply(action)
        except IllegalAction as err:
            return str(err)
        return None

    def _network_dice(self, action, elements) -> dict[str, str] | None:
        """Check ``elements`` for the next action, seed its dice and write its ``action``
        line (before the lines the action makes; taken back if the rules refuse it); the
        elements, or None in a battle that is not a network battle. Raises IllegalAction for missing elements or
        one that does not hash to its side's element before."""
        chains = self.state.chains
        if getattr(self, "_probing", False):  # refusal(): any dice will do, no line written
            self.dice.reseed(len(self.actions))
            return None
        if chains is None:
            if elements is not None:
                raise IllegalAction("chain elements belong to network battles only")
            return None
        index = len(self.actions)
        if not isinstance(elements, dict) or set(elements) != set(chains):
            raise IllegalAction(f"action {index} needs each side's chain element")
        if index >= getattr(self, "network_length", CHAIN_LENGTH):
            raise IllegalAction("the hash chains are used up: the battle has too many actions")
        for side, element in elements.items():
            if not follows(element, chains[side]):
                raise IllegalAction(
                    f"{side}'s chain element for action {index} does not hash to its element "
                    "before: the dice would not be fair"
                )
        other = self.other(action.side)
        self.dice.reseed(action_seed(elements[action.side], elements[other], index))
        elements = {s: elements[s] for s in self.sides}
        self.ctx.event(
            "action", index=index, side=action.side, action=action.to_dict(), elements=elements
        )
        return elements

    @classmethod
    def from_network_log(
        cls, path: str | os.PathLike, log_path: str | os.PathLike | None = None
    ) -> tuple:
        """Replay a network battle's log: its ``network`` line's scenario, seed and chain
        ends, then every ``action`` line's action with its elements. Returns ``(battle,
        lines)``: the battle as the log leaves it (writing its own log to ``log_path``) and
        the file's lines as read (dicts). The caller compares the lines (``game.net.verify``).

        Raises NetworkLogError naming the file and line: unreadable JSON, no ``network``
        line, a scenario that does not parse, an action the engine refuses (a chain element
        that does not follow, a plot that does not match its commitment).
        """
        where = str(path)
        try:
            read = list(iter_json_lines(path))
        except (JsonFileError, OSError) as err:
            raise NetworkLogError(str(err)) from None
        lines = [value for _, value in read]
        texts = [text for text, _ in read]
        net = next(
            (
                (i, ln)
                for i, ln in enumerate(lines)
                if isinstance(ln, dict) and ln.get("event") == "network"
            ),
            None,
        )
        if net is None:
            raise NetworkLogError(f"{where}: no network line: not the log of a network battle")
        at, head = net
        try:
            scenario = parse_scenario(head["scenario_file"], head.get("scenario_path", where))
            battle = cls(
                scenario,
                int(head["seed"]),
                log_path=log_path,
                auto_pass=bool(head.get("auto_pass", True)),
            )
            battle.start_network(dict(head["chains"]), int(head["length"]))
        except (ScenarioError, KeyError, TypeError, ValueError) as err:
            raise NetworkLogError(f"{where}:{at + 1}: the network line: {err}") from None
        for i, ln in enumerate(lines):
            if not isinstance(ln, dict) or ln.get("event") != "action":
                continue
            try:
                action = action_from_dict(ln["action"])
                battle.apply(action, elements=ln["elements"])
            except (KeyError, TypeError, ValueError) as err:
                raise NetworkLogError(f"{where}:{i + 1}: action {ln.get('index')}: {err}") from None
        return battle, texts


def first_difference(path: str | os.PathLike, texts: list[bytes], events: list[dict]) -> str | None:
    """Where a network battle's log differs from its replay's events: ``"FILE:LINE: ..."``
    naming the first line whose bytes differ (a die, an element, a revealed plot changed)
    and its fields that differ, or a line missing or left over; None when every line is the
    same, byte for byte."""
    where = str(Path(path))
    for i in range(max(len(texts), len(events))):
        if i >= len(texts):
            return (
                f"{where}:{i + 1}: the file ends where the replay has a {events[i]['event']} line"
            )
        if i >= len(events):
            return f"{where}:{i + 1}: the file goes on past the battle's last line"
        mine = _line(events[i]).rstrip(b"\n")
        if texts[i] != mine:
            theirs = json.loads(texts[i])
            keys = sorted(set(theirs) | set(events[i])) if isinstance(theirs, dict) else []
            bad = [k for k in keys if theirs.get(k) != events[i].get(k)]
            what = ", ".join(bad[:4]) or "its text"
            return (
                f"{where}:{i + 1}: the {events[i]['event']} line differs from the replay in {what}"
            )
    return None
