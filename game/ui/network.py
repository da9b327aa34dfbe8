"""The screen a network battle opens on: while the two machines find each other it says
what to do (the host: the address to give the other player, or through a relay the battle
code in large type; the joiner: where it connects), how long it has waited and what the
connection is doing, with a Cancel back to the menu. The session is polled on every frame;
once both hellos are in and the battle exists, the battle screen takes over in network mode.
"""

from __future__ import annotations

import socket
import time
from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UITextBox

from game.ui.battle import BattleScreen
from game.ui.battle.netplay import duration_words
from game.ui.colours import INK
from game.ui.kit import paint_backdrop
from game.ui.navigation import show


def lan_address() -> str:
    """This machine's address on its local network, as the other player types it: the
    address a UDP socket would send from towards a public address (nothing is sent), or the
    host name when there is no route (no network, or a sandbox)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: never answered, never sent to
            ip = s.getsockname()[0]
        if ip and not ip.startswith("0."):
            return ip
    except OSError:
        pass
    return socket.gethostname() or "localhost"


def where(uri: str | None) -> str:
    """Where a joiner connects, in words: "192.168.1.20:8765", or "the relay at
    relay.example.org:8765 with the code K7QX" (a relay's ``/join/CODE`` address)."""
    if not uri:
        return "the host"
    rest = uri.split("://", 1)[-1]
    address, _, path = rest.partition("/")
    parts = path.split("/")
    if len(parts) == 2 and parts[0] == "join":
        return f"the relay at {address} with the battle code {parts[1]}"
    return address


def network_battle_screen(app, session, log: Path | None):
    """The battle screen of a session's battle in network mode, its Menu button back to the
    main menu."""
    return BattleScreen(
        app,
        session.battle,
        log_path=log,
        on_menu=lambda: show(app, "menu"),
        net=session,
    )


class NetworkWaitScreen:
    """Waiting for the other player. ``session`` is the :class:`NetSession` (host or
    join), ``log`` the battle log's path (shown, and given to the battle screen). A host
    through a relay shows its battle code once the relay gives it; a direct host shows
    :func:`lan_address` and its port."""

    def __init__(self, app, session, log: Path | None = None):
        self.app = app
        self.session = session
        self.log = log
        self.began = time.monotonic()
        self.address = lan_address() if session.role == "host" else ""
        self._text: tuple | None = None
        self.left = False

    # ---------------------------------------------------------------- what it says

    def big_line(self) -> str:
        """The line in large type: the address, the battle code, or where we connect."""
        s = self.session
        if s.role == "host":
            if s.code:
                return f"Battle code: {s.code}"
            if s.link.port is not None:
                return f"{self.address}:{s.link.port}"
            return "Asking the relay for a battle code..."
        return "Connecting..."

    def lines(self) -> list[str]:
        """The sentences under it: what to do, how long we have waited, the status."""
        s = self.session
        waited = duration_words(time.monotonic() - self.began)
        if s.role == "host" and s.code:
            what = (
                "Waiting for the other player. Give them this battle code: they choose "
                "Join a network battle, and type the relay's address and the code."
            )
        elif s.role == "host" and s.link.port is not None:
            what = (
                "Waiting for the other player. Give them this address: they choose Join a "
                f"network battle and type {self.address}:{s.link.port}."
            )
        elif s.role == "host":
            what = "Waiting for the relay to give this battle a code."
        else:
            what = f"Connecting to {where(getattr(s.link, 'uri', None))}."
        out = [what, f"Waited so far: {waited}.", f"Connection: {s.status}."]
        if s.battle is not None:  # --resume LOG
            out.insert(1, f"The battle resumes at action {len(s.battle.actions) + 1}.")
        if s.fault:
            out.append(f"It stopped: {s.fault}")
        if self.log is not None:
            out.append(f"The battle's log will be {self.log}")
        return out

    # ---------------------------------------------------------------- screen protocol

    def open(self) -> None:
        """Lay out the widgets."""
        m = self.app.manager
        w, h = self.app.size
        x, y = w // 2 - 330, max(40, h // 2 - 230)
        role = "Host" if self.session.role == "host" else "Join"
        self.title = UILabel(
            pygame.Rect(x, y, 660, 60), f"{role} a network battle", m, object_id="#title"
        )
        self.text = UITextBox("", pygame.Rect(x, y + 190, 660, 150), m)
        self.cancel_button = UIButton(pygame.Rect(x + 220, y + 356, 220, 44), "Cancel", m)
        self._big = pygame.Rect(x, y + 80, 660, 90)
        self._text = None
        self._show()

    def _show(self) -> None:
        text = "<br>".join(self.lines())
        if text != self._text:
            self._text = text
            self.text.set_text(text)

    def close(self) -> None:
        """Leaving the screen: nothing to release (the session goes on in the battle)."""

    def resized(self, size) -> None:
        """Lay out again."""
        self.app.manager.clear_and_reset()
        self.open()

    def cancel(self) -> None:
        """Cancel: leave the session and go back to the main menu."""
        self.left = True
        self.session.leave("the other player cancelled")
        show(self.app, "menu", "The network battle was cancelled.")

    def handle(self, ev) -> None:
        """Widget events; Esc cancels."""
        self.app.manager.process_events(ev)
        pressed = ev.type == pygame_gui.UI_BUTTON_PRESSED and ev.ui_element is self.cancel_button
        if pressed or (ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE):
            self.cancel()

    def update(self, dt: float) -> None:
        """Poll the session (never waiting); once the battle exists and the other side is on
        the line (a resumed battle exists from the start), show it."""
        s = self.session
        if not self.left:
            s.poll(0)
            if s.battle is not None and s.connected and not s.fault:  # a resumed one: met
                self.app.show(network_battle_screen(self.app, s, self.log))
                return
        self._show()
        self.app.manager.update(dt)

    def busy(self) -> bool:
        """Frames come at the idle rate: the clock moves once a second."""
        return False

    def draw(self, surface) -> None:
        """Backdrop, the large line, the widgets."""
        paint_backdrop(surface, "hulldown: a network battle. Esc or Cancel goes back.")
        font = pygame.font.Font(None, 64)
        img = font.render(self.big_line(), True, INK)
        surface.blit(img, img.get_rect(center=self._big.center))
        self.app.manager.draw_ui(surface)
