"""The battle screen in a network battle: only this machine's side takes input; while
the other side thinks (or the line is down, or our action waits for its answer) a waiting
mode says so and how long; the actions the session applied are shown as the screen shows
its own; a fault or a side that left stops the battle. The session is polled on every frame
and never waited on: the connection runs in its own thread (``game.net.transport``).

The UI computes no rule: the session's protocol and the engine decide everything; this
module only asks them and shows the answers."""

from __future__ import annotations

import copy
import dataclasses
import html
import time

from game import IllegalAction, action_from_dict
from game.ui.logtext import path_html
from game.ui.modes import Mode

SILENT_LEAVE_S = 300.0
"""Seconds without a word from the other side (no action, no answer, no reconnection) after
which the screen offers to declare that they have left (the battle stays in its log). A
house value (docs/formats.md, "Network battles")."""


def duration_words(seconds: float) -> str:
    """A time in whole seconds, minutes and hours, as the screen says it: "45 s", "1 min
    20 s", "2 h 5 min"."""
    s = max(0, int(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s" if s % 60 else f"{s // 60} min"
    return f"{s // 3600} h {(s % 3600) // 60} min"


def own_missions(session, battle) -> list:
    """This machine's plotted missions (not yet landed), its hidden ones filled in from the
    plots kept in the session's secrets (in the engine their sheaf, ammunition and path are
    empty until revealed); the other side's are never in the list."""
    st, kept = battle.state, session.fair.secrets.plots
    out = []
    for m in st.missions:
        if m.side != session.side:
            continue
        plot = kept.get(st.hidden.get(m.id, ""), {}).get("plot")
        if plot is not None:
            try:
                a = action_from_dict(plot)
            except ValueError:
                a = None
            if a is not None and m.kind == "air":
                m = dataclasses.replace(m, path=tuple(a.path))
            elif a is not None:
                m = dataclasses.replace(m, sheaf=tuple(a.sheaf), ammo=a.ammo)
        out.append(m)
    return out


class NetWaitMode(Mode):
    """The other side's turn (or this side's action on its way, or the connection down): the
    panel says who is thinking and for how long, and the connection's state; after
    :data:`SILENT_LEAVE_S` without a word it offers "Declare they have left". Nothing on the
    table takes input; the camera still moves."""

    idle = True  # nothing to pass here

    def __init__(self, answer: bool = False):
        self.answer = answer  # our own action sent, its answer awaited
        self._shown: tuple | None = None

    def text(self, screen) -> str:
        """The panel's words now."""
        net, b = screen.net, screen.battle
        other = html.escape(screen.side_name(b.other(net.side)))
        if not net.connected:
            head = "<b>Connection lost: waiting for the other side to return</b>"
            tail = "Play goes on by itself when they are back."
        elif self.answer:
            head = f"<b>Your action is on its way to {other}</b>"
            tail = "It is shown as soon as their machine answers."
        else:
            thinking = duration_words(net.fair.thinking_s())
            head = f"<b>{other} is thinking: {thinking}</b>"
            tail = "Their moves are shown here as they make them."
        text = f"{head}<br>{tail}<br>Connection: {html.escape(net.status)}."
        silent = screen.netplay.silent_s()
        if silent >= SILENT_LEAVE_S:
            text += (
                f"<br>Nothing heard from {other} for {duration_words(silent)}. You may "
                "declare that they have left: the battle is kept in its log and either of "
                "you can resume it later."
            )
        return text

    def enter(self, screen):
        self._shown = None
        self.refresh(screen)

    def refresh(self, screen) -> None:
        """Show the panel again when its words changed (the clock: once a second)."""
        text = self.text(screen)
        silent = screen.netplay.silent_s() >= SILENT_LEAVE_S
        if (text, silent) == self._shown:
            return
        self._shown = (text, silent)
        buttons = [("Declare they have left", screen.netplay.declare_left)] if silent else []
        screen.set_panel(text, buttons)


class RevealMode(Mode):
    """Decision ``reveal``: hidden missions land now and their owner's machine reveals
    them (the session sends the reveal by itself). In a battle that is not a network battle
    it never happens."""

    idle = True

    def enter(self, screen):
        screen.set_panel(
            "<b>Revealing the missions that land now...</b><br>Each side's machine shows "
            "where its hidden missions were aimed; they land as soon as both agree.",
            [],
        )


class NetStoppedMode(Mode):
    """The battle cannot go on here: a fault (the two machines' battles differ, or the other
    side broke the protocol), the other side left, or this side declared them gone. Input is
    off; the panel says why and where the battle's log is."""

    idle = True

    def __init__(self, why: str):
        self.why = why

    def enter(self, screen):
        text = f"<b>The battle has stopped</b><br>{html.escape(self.why)}"
        if screen.log_path:
            text += (
                "<br>The battle is kept in its log; <i>hulldown host --resume LOG</i> (or "
                f"<i>join --resume LOG</i>) continues it:<br>{path_html(screen.log_path)}"
            )
        screen.set_panel(text, [("Main menu", screen.saving.to_menu)])


def _answer(mode) -> bool | None:
    """Whether a waiting mode awaits the answer to our own action (None: not a wait)."""
    return mode.answer if isinstance(mode, NetWaitMode) else None


class NetPlay:
    """The battle screen's network side (its ``netplay``, in a network battle only):
    ``net`` is the :class:`~game.net.session.NetSession`. It reads and drives much of the
    screen, which it is given: the battle, the current mode and ``set_mode``,
    ``mode_for_state``, ``show_applied`` (an action the session applied is shown as the
    screen shows its own), ``side_name``, ``message`` and ``notice``, the work off the frame
    (``work.settle_work``) and the moves being shown (``animation.moves``)."""

    def __init__(self, screen, net):
        self.screen = screen
        self.net = net
        self._net_heard = time.monotonic()
        self._net_before: tuple[int, dict] | None = None  # stands before the next action
        self._net_pending: list[tuple] = []
        self.declared_left = False

    def silent_s(self) -> float:
        """Seconds since the other side's machine last said anything."""
        return time.monotonic() - self._net_heard

    def mode(self, decision) -> Mode | None:
        """The mode a network battle puts before the decision's own (None: the decision's,
        this side's to take)."""
        net = self.net
        if decision.kind == "end":
            return None
        if net.fault or net.left or self.declared_left:
            return NetStoppedMode(self.stop_reason())
        if decision.kind == "reveal":
            return RevealMode()
        if decision.side != net.side or net.fair.sent is not None:
            return NetWaitMode(answer=net.fair.sent is not None)
        return None

    def stop_reason(self) -> str:
        """Why the battle stopped, in a sentence."""
        net = self.net
        if net.fault:
            return f"It had to stop: {net.fault}."
        if self.declared_left:
            return "You declared that the other side has left."
        return f"The other side left: {net.left}."

    def banner(self) -> str:
        """The banner's words while the network needs saying (else "")."""
        net = self.net
        if net.fault:
            return "The battle has stopped: see the panel"
        if net.left or self.declared_left:
            return "The other side has left: the battle is kept in its log"
        if not net.connected and not self.screen.battle.finished:
            return "Connection lost: waiting for the other side to return"
        return ""

    def act(self, action) -> bool:
        """Send a local action through the session: True when it went (it is applied and
        shown when the other side answers); an action the session refuses only shows why."""
        screen = self.screen
        if self.net.stopped or self.declared_left:
            screen.message = "The battle has stopped: nothing more can be played."
            screen.mode.enter(screen)
            return False
        try:
            self.net.act(action)
        except IllegalAction as err:
            screen.message = str(err)
            screen.mode.enter(screen)
            return False
        screen.message = ""
        screen.set_mode(NetWaitMode(answer=True))
        return True

    def declare_left(self) -> None:
        """ "Declare they have left": leave the session (the battle stays in its log)."""
        self.declared_left = True
        self.net.leave("not answered in time: declared to have left")
        self.screen.set_mode(self.screen.mode_for_state())

    def poll(self) -> None:
        """Called every frame: take in what the connection brought, show each action applied
        as the screen shows its own (the other side's animated), and change to the mode the
        battle now waits for (a fault, such as the other side refusing an action the rules
        allow, stops the battle: :class:`NetStoppedMode`)."""
        net, screen = self.net, self.screen
        b = screen.battle
        if self._net_before is None or self._net_before[0] != len(b.actions):
            self._net_before = (
                len(b.actions),
                {s.id: copy.copy(s) for s in b.state.stands.values()},
            )
        before_to_act = b.to_act if not b.finished else None
        if not net.link.inbox.empty():  # the battle may change: no worker may be reading it
            screen.work.settle_work(landing=True)
        if net.poll(0):
            self._net_heard = time.monotonic()
        self._net_pending += net.take_applied()
        paced = screen.mode.paced
        theirs = False
        while self._net_pending and not paced:
            action, events = self._net_pending.pop(0)
            stands = self._net_before[1] if self._net_before else None
            self._net_before = None
            screen.show_applied(
                action, events, before_to_act, stands, animate=action.side != net.side
            )
            paced = screen.mode.paced
            theirs = action.side != net.side
        waiting = (NetWaitMode, RevealMode, NetStoppedMode)
        if theirs and not paced and net.fair.my_turn() and not isinstance(screen.mode, waiting):
            other = html.escape(screen.side_name(action.side))
            screen.notice = f"{other} has acted: your turn."  # as after the AI's turn
            screen.mode.enter(screen)
        if paced or screen.animation.moves:
            return
        mode = screen.mode
        if isinstance(mode, (NetWaitMode, RevealMode, NetStoppedMode)):
            want = screen.mode_for_state()
            if type(want) is not type(mode) or _answer(want) != _answer(mode):
                screen.set_mode(want)
            elif isinstance(mode, NetWaitMode):
                mode.refresh(screen)
        elif net.stopped and not b.finished:
            screen.set_mode(screen.mode_for_state())
