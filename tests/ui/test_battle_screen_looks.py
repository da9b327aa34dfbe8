"""How the battle screen looks and reads in a new player's first hour (issue #43), each stop
seen on the real screen (dummy video driver, 1280x800 unless said) and mended: the terrain
legend over the table, the set-up instructions out of sight, small stands, click
instructions with no air strike left, two groups called M1, jargon and rule codes in the
middle of sentences, and text under 11 pixels."""

from __future__ import annotations

import re
from pathlib import Path

import pygame
import pytest

from game import Battle, ChooseFirst, DeclareGroup, Pass, load_scenario, parse_scenario
from game.ai.random_player import RandomPlayer
from game.ui.battle import BattleScreen
from game.ui.battle.support import PlotFireMode
from game.ui.battles import battle_screen, new_battle
from game.ui.menu import MenuScreen, autosave_path
from game.ui.render import View
from tests.conftest import scenario_dict
from tests.helpers import editor_click as click
from tests.helpers import editor_frame as frame
from tests.helpers import editor_key as key

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ["modern-skirmish", "modern-combined-arms", "wwii-47-breakthrough"]

pytestmark = pytest.mark.usefixtures("data_dir")


def opened(app, name: str, seed: int = 3, ai=None) -> BattleScreen:
    """A scenario's battle as the menu starts one (new_battle, battle_screen), on screen."""
    s = battle_screen(app, new_battle(ROOT / "maps" / f"{name}.json", seed, ai))
    app.show(s)
    frame(s)
    return s


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_terrain_legend_never_covers_the_table(app, name):
    """(#43) The legend sat over the table's bottom-right corner: now it is in the side
    panel, so every pixel of the table is the same with the legend shown or hidden (T)."""
    s = opened(app, name)
    assert s.info.show_legend
    shown = app.surface.subsurface(s.tv.rect).copy()
    key(s, pygame.K_t)
    assert not s.info.show_legend
    hidden = app.surface.subsurface(s.tv.rect).copy()
    assert pygame.image.tobytes(shown, "RGB") == pygame.image.tobytes(hidden, "RGB")
    key(s, pygame.K_t)
    assert s.info.show_legend
    legend = s.info.legend_rect()
    assert not legend.colliderect(s.tv.rect) and not legend.colliderect(s.log_view.rect)
    assert not any(legend.colliderect(b.rect) for b, _ in s._buttons)
    assert legend.bottom <= app.size[1]


def test_hiding_the_legend_is_kept_across_a_resume(app, data_dir):
    """(#43) The legend came back after a resume: T hides it, the choice goes into the
    autosave with the next action, and Resume the autosave opens with it hidden (the log
    taking its room)."""
    s = opened(app, "modern-combined-arms")
    top_with_legend = s.log_view.rect.top
    key(s, pygame.K_t)
    assert s.log_view.rect.top < top_with_legend  # the log takes the legend's room
    s.act(Pass(s.battle.to_act))  # Ready: an action, written to the autosave
    s.close()
    MenuScreen(app).load(autosave_path())
    resumed = app.screen
    assert isinstance(resumed, BattleScreen) and resumed is not s
    frame(resumed)
    assert not resumed.info.show_legend and resumed.info.legend_rect() is None
    assert resumed.log_view.rect.top < top_with_legend


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_setup_instructions_are_where_the_player_looks(app, name):
    """(#43) The set-up instructions sat under the briefing, below the panel's fold: now
    they come first and are in view without scrolling."""
    s = opened(app, name)
    assert s.battle.decision().kind == "setup"
    layout = s.panel.text_box_layout
    seen = layout.view_rect.h
    rows = {
        "".join(getattr(i, "text", "") or "" for i in row.items): row for row in layout.layout_rows
    }
    for words in ("Ready", "press a digit 1-9"):
        row = next(r for text, r in rows.items() if words in text)
        assert row.y + row.height <= seen, f"{words!r} is below the panel's fold"
    assert s._panel_text.startswith("<b>Set-up: ")


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_opening_view_shows_stands_20_pixels_wide(app, name):
    """(#43) At 1280x800 the fitted table showed 14-18 px stands: the battle opens zoomed
    so a 1" stand is at least 20 px, on the stands of the side to act, all of them in view;
    F still fits the whole table."""
    s = opened(app, name)
    b = s.battle
    assert s.tv.view.scale >= 20
    a, c = s.tv.to_px(0, 0), s.tv.to_px(1, 0)
    assert c[0] - a[0] >= 20  # a stand's side, in pixels
    for st in b.state.stands.values():
        if st.side == b.to_act and st.carried_by is None:
            assert s.tv.rect.collidepoint(s.tv.to_px(st.x, st.y)), st.id
    key(s, pygame.K_f)
    assert s.tv.view == View.fit(b.table.width, b.table.depth, s.tv.rect)


def test_against_the_ai_the_view_opens_on_the_players_stands(app):
    """(#43) Against the AI the view opens on the side the player commands, even when the
    AI's side acts first."""
    b = new_battle(ROOT / "maps" / "modern-combined-arms.json", 3, {"A": "veteran"})
    s = battle_screen(app, b)  # not shown: the AI would start thinking
    assert b.to_act == "A" and s.tv.view.scale >= 20
    for st in b.state.stands.values():
        if st.carried_by is None:
            inside = s.tv.rect.collidepoint(s.tv.to_px(st.x, st.y))
            assert inside == (st.side == "B"), st.id  # the human's, not the AI's far edge


@pytest.mark.parametrize("name", SCENARIOS)
def test_at_1920x1080_the_whole_table_is_in_view_at_20_pixels(name):
    """(#43) A larger window fits the whole table, with stands still at least 20 px."""
    from game.ui.app import App

    app = App(size=(1920, 1080))
    try:
        s = opened(app, name)
        b = s.battle
        assert s.tv.view.scale >= 20
        # the whole table (zoomed out a little more where the stands waiting to enter on
        # its edges would be cut: test_first_hour_checks.py, trial 22)
        fit = View.fit(b.table.width, b.table.depth, s.tv.rect)
        assert s.tv.view.scale <= fit.scale
        corners = [s.tv.to_px(0, 0), s.tv.to_px(b.table.width, b.table.depth)]
        assert all(s.tv.rect.collidepoint(p) for p in corners)
        assert not s.info.legend_rect().colliderect(s.tv.rect)
    finally:
        pygame.quit()


def _plot_phase(app, stands) -> BattleScreen:
    raw = scenario_dict(stands, ruleset="modern-full", turns=5)
    b = Battle(parse_scenario(raw, "test.json"), 5)
    while b.state.phase != "plot":
        d = b.decision()
        b.apply(ChooseFirst(d.side, d.side) if d.kind == "choose_first" else Pass(d.side))
    s = BattleScreen(app, b)
    app.show(s)
    return s


def test_no_air_strikes_left_asks_for_no_click(app):
    """(#43) The air-strike panel said "You have no air strikes left" and then how to click
    the point of attack: with none left it says what is left to do instead."""
    s = _plot_phase(
        app,
        [
            ("A1", "A", "M109A6 Paladin", 12, 12, 0),
            ("B1", "B", "2S1 Gvozdika", 44, 20, 180),
        ],
    )
    assert not s.battle.sorties_left(s.battle.to_act)
    key(s, pygame.K_a)
    assert isinstance(s.mode, PlotFireMode) and s.mode.air
    text = s._panel_text
    assert "no air strikes left" in text
    assert "Click" not in text and "(E to change)" not in text
    assert "artillery (A)" in text


def _both_sides_in_m1() -> Battle:
    """The WWII meeting played (seeded random players, every posture declared) until both
    sides have a movement group M1."""
    b = Battle(load_scenario(ROOT / "maps" / "wwii-meeting.json"), 1)
    players = {s: RandomPlayer(i) for i, s in enumerate(b.sides)}
    while len({s.side for s in b.state.stands.values() if s.group == "M1"}) < 2:
        declare = [a for a in b.legal_actions() if isinstance(a, DeclareGroup)]
        b.apply(declare[0] if declare else players[b.to_act].choose(b))
    return b


def test_the_two_sides_groups_called_m1_are_told_apart(app):
    """(#43) Both sides' first WWII movement group is M1, and the screen said "group M1"
    for each: the unit card and the movement panel name the side with the group. The
    battle log keeps the engine's group ids."""
    b = _both_sides_in_m1()
    s = BattleScreen(app, b)
    app.show(s)
    frame(s)
    cards = {}
    for side in b.sides:
        st = next(x for x in b.state.stands.values() if x.side == side and x.group == "M1")
        (line,) = [t for t in s.info.unit_card_lines(st.id) if "M1" in t]
        cards[side] = line
        assert s.short_name(side) in line
    assert cards["A"] != cards["B"]
    while b.state.phase != "movement" or b.decision().kind == "choose_first":
        d = b.decision()
        s.act(ChooseFirst(d.side, d.side) if d.kind == "choose_first" else Pass(d.side))
    me = b.to_act
    st = next(x for x in b.state.stands.values() if x.side == me and x.group == "M1")
    click(s, st.x, st.y)  # the movement panel names the picked group with its side
    assert f"<b>{s.short_name(me)} group M1</b>" in s._panel_text
    assert {e["group"] for e in b.log.events if e["event"] == "posture" and "group" in e} >= {"M1"}


RULE_CODE = re.compile(r"\(\s*0\d\d\b[^)]*\)")


def _code_mid_sentence(text: str) -> str | None:
    """The first rule code in ``text`` that more words follow within its sentence."""
    plain = re.sub(r"<[^>]+>", " ", re.sub(r"<br\s*/?>", "\n", text))
    for m in RULE_CODE.finditer(plain):
        rest = plain[m.end() :].lstrip(" ")  # a line break ends the sentence
        if rest and rest[0].isalnum():
            return plain[max(0, m.start() - 40) : m.end() + 30]
        inside = m.group(0)[1:].lstrip()
        if re.match(r"0\d\d\s*:", inside):  # "(004: only AA ...)": the code first
            return inside
    return None


def test_no_rule_code_in_the_middle_of_a_sentence(app):
    """(#43) Rule codes in the middle of sentences ("(004: only AA in ..."): on the battle
    screen a rule number goes at the end of its sentence, in brackets. Every panel and log
    sentence of three scenarios' first turns (played through the screen), the set-up,
    initiative, air-strike and unit-card texts are read."""
    texts = []
    for name, seed in (("wwii-47-breakthrough", 3), ("modern-combined-arms", 3)):
        s = opened(app, name, seed)
        b = s.battle
        players = {side: RandomPlayer(i) for i, side in enumerate(b.sides)}
        while b.state.turn < 3 and not b.finished:
            texts.append(s._panel_text)
            if b.state.phase == "plot" and b.decision().kind == "plot":
                key(s, pygame.K_a)  # the air strike's panel, a point of attack clicked
                at = s.tv.rect.center
                s.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=at, button=1))
                s.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=at, button=1))
                texts.append(s._panel_text)
                s.set_mode(s.mode_for_state())
            s.act(players[b.to_act].choose(b))
        texts += s.log_lines
        texts += [" ".join(s.info.unit_card_lines(i)) for i in b.state.stands]
    bad = [t for t in texts if _code_mid_sentence(t or "")]
    assert not bad, [_code_mid_sentence(t) for t in bad[:5]]


def test_jargon_is_gone_from_the_log_and_the_unit_card(app):
    """(#43) "walked back to fit" in the log panel and "house values (not GHQ's)" on the
    unit card: plain words instead."""
    from game.ui.logwords import sentence

    ev = {
        "event": "move",
        "stand": "A1",
        "path": [[10.0, 10.0], [14.0, 10.0]],
        "mp_spent": 4.0,
        "mp_allowed": 18,
        "stopped_by": "overlap",
        "entered": False,
    }
    line = sentence(ev, {"A1": "Leopard-IIA6 A1"}, {})
    assert "walked back" not in line and "stopping short" in line
    s = opened(app, "modern-combined-arms")
    house = [st.id for st in s.battle.state.stands.values() if st.unit.house]
    assert house
    card = " ".join(s.info.unit_card_lines(house[0]))
    assert "GHQ" not in card and "house values" not in card
    assert "the printed rules give none" in card


class _Recorded(pygame.font.Font):
    """pygame's font, noting the letter size (points = pixels) of every text drawn."""

    seen: list[tuple[int, str]] = []

    def render(self, text, *args, **kw):
        if str(text).strip():
            _Recorded.seen.append((self.point_size, str(text)))
        return super().render(text, *args, **kw)


@pytest.mark.parametrize("ui_scale", [1.0, 1.25])
def test_no_text_under_11_pixels_on_the_battle_screen(app, monkeypatch, ui_scale):
    """(#43) Stand ids, marker badges, hill levels and the scale bar were drawn in 7-9 px
    letters at 1280x800: every text the battle screen draws (table labels at the opening
    zoom and fitted, legend, card, briefing, help, ruler, hover) is 11 px or more, at the
    settings' smallest label size and at the default one."""
    import game.ui.render as render
    from game.ui.colours import UI

    monkeypatch.setattr(pygame.font, "Font", _Recorded)
    monkeypatch.setattr(render, "_FONTS", {})
    monkeypatch.setitem(UI, "scale", ui_scale)
    _Recorded.seen = []
    s = opened(app, "modern-combined-arms")
    a1 = s.battle.stand("A1")
    s.info.card = "A1"
    frame(s)
    s.info.card = None
    for k in (pygame.K_b, pygame.K_b, pygame.K_F1, pygame.K_F1, pygame.K_m, pygame.K_f):
        key(s, k)
    s.mouse = tuple(int(v) for v in s.tv.to_px(a1.x, a1.y))
    frame(s)
    small = sorted({(size, text) for size, text in _Recorded.seen if size < 11})
    assert not small, small[:10]
    assert any(text == "A1" for _, text in _Recorded.seen)  # the stands' ids were drawn


@pytest.mark.parametrize(
    "px_per_inch, width, words",
    [(20.0, 800, '6" = 600 m'), (30.0, 800, '3" = 300 m'), (90.0, 800, '1" = 100 m')],
)
def test_the_scale_card_takes_the_longest_bar_that_fits_a_sixth_of_the_view(
    px_per_inch, width, words
):
    """The scale bar sits on a card in the view's bottom right corner, its bar 6", 3" or 1"
    (whichever is longest within a sixth of the width), worded at the rules' 1" = 100 m."""
    import game.ui.render as render

    drawn: list[str] = []

    class Font:
        def render(self, text, *a, **k):
            drawn.append(text)
            return pygame.Surface((60, 14))

    surface = pygame.Surface((width + 100, 500))
    surface.fill((0, 0, 0))
    area = pygame.Rect(100, 0, width, 400)
    render.draw_scale_card(surface, area, px_per_inch, Font(), lift=30)
    assert drawn == [words]
    assert surface.get_at((area.right - 12, area.bottom - 30 - 22))[:3] == render.SCALE_CARD_BG
    assert surface.get_at((area.right - 10, area.bottom - 10))[:3] == (0, 0, 0)  # the lift
    assert surface.get_at((area.x + 5, area.bottom - 40))[:3] == (0, 0, 0)  # only the corner


def test_the_battle_screen_draws_its_scale_bar_over_the_stands_not_under_them(app, monkeypatch):
    """Stands wait along the table's edges, where the bar under the table's corner was
    hidden by them (and, at 1280x800, by the hover line): the screen draws it last, on its
    card, above the hover line."""
    import game.ui.render as render

    calls: list[tuple] = []
    real = render.draw_scale_card
    monkeypatch.setattr(
        "game.ui.table_view.draw_scale_card",
        lambda *a, **k: calls.append(a) or real(*a, **k),
    )
    s = opened(app, "modern-helsinki")
    frame(s)
    assert calls, "no scale bar drawn"
    surface, area, px_per_inch, _font, lift = calls[-1]
    assert area == s.tv.rect and px_per_inch == s.tv.view.scale
    assert lift == s.overlays.hover_height() > 10
