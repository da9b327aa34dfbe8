"""The main menu's "Host a network battle" and "Join a network battle": one small form
each. The host's asks the port (default 8765) and, optionally, a relay's address; the
joiner's asks the host's address, or a relay's address and the battle code. Starting opens
the connection (``game.net.transport``) and a :class:`~game.net.session.NetSession` whose
battle log goes to the saves folder's ``network`` folder, then the waiting screen
(:class:`~game.ui.network.NetworkWaitScreen`)."""

from __future__ import annotations

import secrets
import time
from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UITextBox, UITextEntryLine

import game
from game.editor.mend import showable
from game.net import PORT, transport
from game.net.session import NetSession
from game.saves import data_dir
from game.ui.kit import paint_backdrop
from game.ui.navigation import show
from game.ui.scenario_list import scenario_entry


def network_log_path(role: str) -> Path:
    """A new network battle's log: ``network/ROLE-YYYYmmdd-HHMMSS.jsonl`` in the data folder
    (as ``hulldown host/join`` name it)."""
    return data_dir() / "network" / f"{role}-{time.strftime('%Y%m%d-%H%M%S')}.jsonl"


def split_address(text: str, default_port: int = PORT) -> tuple[str, int]:
    """``HOST[:PORT]`` as (host, port). Raises ValueError with a sentence for the player."""
    text = text.strip()
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = text, str(default_port)
    if not host:
        raise ValueError("Type the host's address, like 192.168.1.20 or 192.168.1.20:8765.")
    try:
        n = int(port)
    except ValueError:
        raise ValueError(f"{text}: the port after the colon must be a number.") from None
    if not 0 < n <= 65535:
        raise ValueError(f"{text}: the port must be from 1 to 65535.")
    return host, n


def host_port(text: str) -> int:
    """The port a host listens on, as typed (empty: :data:`PORT`; 0: any free port, shown
    on the waiting screen). Raises ValueError with a sentence for the player."""
    text = text.strip() or str(PORT)
    if not text.isdigit() or int(text) > 65535:
        raise ValueError(f"{text}: the port must be a whole number from 0 to 65535.")
    return int(text)


def start_host(scenario: Path, side_index: int, seed: int, port: int, relay: str = ""):
    """Open a host's connection (listening on ``port``, or at the ``relay``) and its session
    for ``scenario``, this machine playing side ``side_index`` (0 or 1). Returns (session,
    log path). Raises ScenarioError, OSError or ValueError."""
    sc = game.load_scenario(scenario)
    sides = [s.id for s in sc.spec.sides]
    me, other = sides[side_index % 2], sides[(side_index + 1) % 2]
    if relay:
        split_address(relay)  # a mistyped relay is said at once
        reached = {"relay": relay.strip(), "code": None, "key": secrets.token_hex(32)}
        link = transport.join(
            f"ws://{relay.strip()}/host", first_word=True, key=reached["key"], persist=True
        )
    else:
        link = transport.host(port)
        reached = {"port": link.port}
    log = network_log_path("host")
    sides_of = {"host": me, "join": other}
    session = NetSession(
        link,
        "host",
        me,
        scenario=sc,
        seed=seed,
        sides=sides_of,
        log_path=log,
        reached=reached,
    )
    return session, log


def start_join(address: str = "", relay: str = "", code: str = ""):
    """Open a joiner's connection (to ``address``, or through ``relay`` with the battle
    ``code``) and its session. Returns (session, log path). Raises ValueError or OSError."""
    if relay.strip() or code.strip():
        split_address(relay)
        if not code.strip().isalnum():
            raise ValueError("Type the battle code the host was given (letters and digits).")
        code = code.strip().upper()
        link = transport.join(f"ws://{relay.strip()}/join/{code}", first_word=True)
        reached = {"relay": relay.strip(), "code": code}
    else:
        host, port = split_address(address)
        link = transport.join(f"ws://{host}:{port}")
        reached = {"address": f"{host}:{port}"}
    log = network_log_path("join")
    return NetSession(link, "join", "?", log_path=log, reached=reached), log


class NetworkSetupScreen:
    """The form before a network battle: ``role`` "host" or "join"; a host plays
    ``scenario`` (the menu's choice) as side ``side_index`` with ``seed``; ``back`` returns
    to the menu."""

    def __init__(self, app, role: str, back, scenario: Path | None = None, side_index=0, seed=1):
        self.app, self.role, self.back = app, role, back
        self.scenario, self.side_index, self.seed = scenario, side_index, seed
        self.message = ""

    def open(self) -> None:
        """Lay out the form."""
        m = self.app.manager
        w, h = self.app.size
        x, y = w // 2 - 300, max(40, h // 2 - 260)
        title = "Host a network battle" if self.role == "host" else "Join a network battle"
        UILabel(pygame.Rect(x, y, 600, 56), title, m, object_id="#title")
        y += 70
        self.entries: dict[str, UITextEntryLine] = {}

        def field(name: str, label: str, text: str = "") -> None:
            nonlocal y
            UILabel(pygame.Rect(x, y, 600, 24), label, m)
            entry = UITextEntryLine(pygame.Rect(x, y + 26, 600, 34), m)
            entry.set_text(text)
            self.entries[name] = entry
            y += 72

        if self.role == "host":
            UILabel(pygame.Rect(x - 60, y, 720, 24), self.scenario_line(), m)
            y += 34
            field("port", "Port the other player connects to (default 8765)", str(PORT))
            field("relay", "Or meet through a relay: its address, HOST:PORT (may stay empty)")
            start = "Host"
        else:
            field("address", "The host's address, HOST or HOST:PORT")
            field("relay", "Or through a relay: its address, HOST:PORT")
            field("code", "and the battle code the host was given")
            start = "Join"
        self.start_button = UIButton(pygame.Rect(x, y + 4, 290, 44), start, m)
        self.back_button = UIButton(pygame.Rect(x + 310, y + 4, 290, 44), "Back", m)
        self.status = UITextBox(self.message, pygame.Rect(x, y + 60, 600, 80), m)
        if not self.message:
            self.status.hide()

    def scenario_line(self) -> str:
        """What the host offers: the scenario's title, the side this machine commands (the
        menu's Players choice) and the seed."""
        if self.scenario is None:
            return "Choose a scenario in the menu first."
        e = scenario_entry(self.scenario)
        if e.problem or len(e.sides) != 2:
            return f"Scenario: {self.scenario.name}"
        you = e.sides[self.side_index % 2]
        return showable(f"{e.title or self.scenario.name}: you command {you}, seed {self.seed}")

    def say(self, text: str) -> None:
        """Show why the battle could not start."""
        self.message = text
        self.status.set_text(text)
        self.status.show()

    def value(self, name: str) -> str:
        """A field's text, stripped ("" when there is no such field)."""
        entry = self.entries.get(name)
        return entry.get_text().strip() if entry is not None else ""

    def start(self) -> None:
        """Open the connection and go to the waiting screen; a mistake is said here."""
        try:
            if self.role == "host":
                if self.scenario is None:
                    raise ValueError("Choose a scenario in the menu first.")
                port = host_port(self.value("port"))
                session, log = start_host(
                    self.scenario, self.side_index, self.seed, port, self.value("relay")
                )
            else:
                if not (self.value("address") or self.value("relay")):
                    raise ValueError("Type the host's address, or a relay's and the code.")
                session, log = start_join(
                    self.value("address"), self.value("relay"), self.value("code")
                )
        except (ValueError, OSError, game.ScenarioError) as err:
            self.say(str(err))
            return
        show(self.app, "network_wait", session, log)

    def close(self) -> None:
        """Nothing to release."""

    def resized(self, size) -> None:
        """Lay out again."""
        self.app.manager.clear_and_reset()
        self.open()

    def handle(self, ev) -> None:
        """Widget events; Enter starts, Esc goes back."""
        self.app.manager.process_events(ev)
        if ev.type == pygame_gui.UI_BUTTON_PRESSED:
            if ev.ui_element is self.start_button:
                self.start()
            elif ev.ui_element is self.back_button:
                self.back()
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            self.back()
        elif ev.type == pygame.KEYDOWN and ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.start()

    def update(self, dt: float) -> None:
        """Advance the GUI."""
        self.app.manager.update(dt)

    def draw(self, surface) -> None:
        """Backdrop and widgets."""
        paint_backdrop(surface, "Both players need hulldown; Esc goes back to the menu.")
        self.app.manager.draw_ui(surface)
