"""#46 items 2 and 3: stands drawn as their painted models (the model picked from the unit's
row, the gun along the facing, the front edge plain, wrecks burnt, kept sprites the same
every time), the "symbols" style drawing today's tokens, markers as tokens, ids on demand
(hover, Alt), the opening view's 20 px stands and the mini-map that moves the camera."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

import game
from game import StandPose
from game.ui.colours import UI
from game.ui.paint import models
from game.ui.paint.models import FRONT, KINDS, WRECK, kind_of, stand_sprite
from game.ui.render import draw_stand, unit_symbol
from tests.helpers import BLUE, _Stand, _table_view, _units

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _fonts():
    pygame.font.init()
    yield


@pytest.mark.parametrize(
    ("ruleset", "name", "kind"),
    [
        ("modern-full", "M1A2 Abrams", "tank"),
        ("modern-full", "M2A2 Bradley", "ifv"),
        ("modern-full", "BMP-2", "ifv"),
        ("modern-full", "M3A2 Bradley CFV", "ifv"),
        ("modern-full", "M113A3", "apc"),
        ("modern-full", "BTR-80", "wheeled_apc"),
        ("modern-full", "BRDM-2 Scout", "scout_car"),
        ("modern-full", "BTR-152", "truck"),
        ("modern-full", "M109A6 Paladin", "sp_gun"),
        ("modern-full", "2S6 Tunguska", "spaa"),
        ("modern-full", "M1097 Avenger", "spaa_wheeled"),
        ("modern-full", "US Mech Infantry", "infantry"),
        ("modern-full", "US Engineers", "engineers"),
        ("modern-full", "US TOW Team", "atgm_team"),
        ("modern-full", "M252 81 mm Mortar", "mortar"),
        ("modern-full", "Northern Alliance Cavalry", "cavalry"),
        ("wwii-47", "Cossack Cavalry", "cavalry"),
        ("wwii-47", "SdKfz 251 Halftrack", "halftrack"),
        ("wwii-47", "M16 MGMC (.50 quad)", "spaa_halftrack"),
        ("wwii-47", "Pak 40 (75 mm)", "at_gun"),
        ("wwii-47", "le FH 18 (105 mm)", "howitzer"),
        ("wwii-47", "Flak 38 (20 mm)", "aa_gun"),
        ("wwii-47", "Flak 36 (88 mm)", "aa_gun_heavy"),
        ("wwii-47", "Pz VIB", "tank"),
        ("wwii", 'M3 "Lee/Grant"', "casemate"),
        ("modern", "T-80U / AT-11", "tank"),
    ],
)
def test_the_model_is_picked_from_the_units_row(ruleset, name, kind):
    """Every class a scenario fields has its own model, read from its row's data."""
    assert kind_of(_units(ruleset)[name], name) == kind


def test_horsed_cavalry_carries_the_diagonal_of_nato_cavalry():
    """Mounted cavalry's symbol is cavalry's (reconnaissance's) diagonal, not the foot's cross."""
    for ruleset, name in (
        ("modern-full", "Northern Alliance Cavalry"),
        ("wwii-47", "Cossack Cavalry"),
    ):
        assert unit_symbol(_units(ruleset)[name]) == "recon"
    assert unit_symbol(_units("modern-full")["US Mech Infantry"]) == "infantry"


def test_every_model_looks_different_and_the_same_every_time():
    """No two models share a picture; a model painted again (its kept sprites dropped) is
    byte for byte the one painted before: seeded by the model, not by any dice."""
    pics = {k: pygame.image.tobytes(stand_sprite(k, BLUE, 40, 30), "RGBA") for k in KINDS}
    assert len(set(pics.values())) == len(KINDS)
    models._BASE.clear()
    models._TURNED.clear()
    again = {k: pygame.image.tobytes(stand_sprite(k, BLUE, 40, 30), "RGBA") for k in KINDS}
    assert again == pics


def _opaque(sprite, box) -> int:
    x0, y0, x1, y1 = box
    return sum(sprite.get_at((x, y))[3] > 0 for x in range(x0, x1) for y in range(y0, y1))


def test_the_gun_points_along_the_facing_and_the_front_edge_shows():
    """A tank at facing 0 has its gun past its base's right edge, at facing 90 past its top
    (the table's +y is up the screen), never behind; the base's front edge is the light
    band, its back edge the side's colour."""
    scale = 40
    east = stand_sprite("tank", BLUE, scale, 0)
    c = east.get_width() // 2
    past = int(0.55 * scale)
    assert _opaque(east, (c + past, c - 3, east.get_width(), c + 3)) > 6  # the barrel
    assert _opaque(east, (0, c - 3, c - past, c + 3)) == 0
    north = stand_sprite("tank", BLUE, scale, 90)
    c = north.get_width() // 2
    assert _opaque(north, (c - 3, 0, c + 3, c - past)) > 6
    assert _opaque(north, (c - 3, c + past, c + 3, north.get_height())) == 0
    c = east.get_width() // 2
    edge = int(0.47 * scale)
    assert tuple(east.get_at((c + edge, c + 10)))[:3] == FRONT
    assert tuple(east.get_at((c - edge, c + int(0.4 * scale))))[:3] == BLUE


def test_a_wreck_is_burnt_grey_and_a_live_stand_is_not():
    live = stand_sprite("tank", BLUE, 30, 0)
    wreck = stand_sprite("tank", WRECK, 30, 0, wreck=True)

    def grey(s):
        w, h = s.get_size()
        return sum(tuple(s.get_at((x, y)))[:3] == WRECK for x in range(w) for y in range(h))

    assert grey(live) == 0 and grey(wreck) > 0.3 * 30 * 30


def _at(tv, x, y) -> tuple[int, int]:
    return tuple(int(v) for v in tv.to_px(x, y))


def test_symbols_draw_todays_stands_exactly():
    """ "symbols" (#46) is the flat token with its NATO symbol and its id, pixel for pixel as
    render.draw_stand and the id label under the symbol draw it (TableView.token_label: the
    label font, smaller if the settings' label size would not fit); "models" draws something
    else."""
    unit = _units("modern-full")["M2A2 Bradley"]
    tv = _table_view("symbols")
    st = _Stand("A1", unit, 3.0, 4.0, 30.0)
    got = pygame.Surface((400, 300))
    tv.draw_stands(got, [st], ["A"])
    want = pygame.Surface((400, 300))
    draw_stand(want, tv.view, StandPose("A1", "A", 3.0, 4.0, 30.0), BLUE, symbol=unit_symbol(unit))
    px, py = tv.to_px(3.0, 4.0)
    lab = tv.token_label("A1")
    want.blit(lab, lab.get_rect(center=(px, py + tv.view.scale * 0.22)))
    assert tuple(got.get_at(_at(tv, 3.0, 3.8)))[:3] != (0, 0, 0)  # drawn, in view
    assert pygame.image.tobytes(got, "RGB") == pygame.image.tobytes(want, "RGB")
    painted = pygame.Surface((400, 300))
    _table_view("models").draw_stands(painted, [st], ["A"])
    assert pygame.image.tobytes(painted, "RGB") != pygame.image.tobytes(got, "RGB")


def test_the_markers_are_tokens_beside_the_base_with_letters_of_11_px():
    """S and a fired F are tokens in a row from the base's top right corner, their letters
    in pygame's font of 16 or more (11-point letters) whatever the zoom."""
    unit = _units("modern-full")["M1A2 Abrams"]
    for scale in (8.0, 20.0, 60.0):
        tv = _table_view("models", scale)
        st = _Stand("A1", unit, 4.0, 4.0, S=True, fire_attempts=1)
        surf = pygame.Surface((400, 300))
        tv.draw_stands(surf, [st], ["A"])
        (x, y, r, s_), (fx, fy, fr, f_) = tv.badges_drawn["A1"]
        assert (s_, f_, r, fr) == ("S", "F", tv.badge_radius(), tv.badge_radius())
        assert tuple(surf.get_at((round(x) - r + 2, round(y))))[:3] == (235, 200, 40)
        assert tuple(surf.get_at((round(fx) - r + 2, round(fy))))[:3] == (220, 30, 30)
        assert fy == y and abs(fx - x) == 2 * r + 2  # a row, across the base's top edge
        assert tv.font().point_size >= 11


def test_ids_show_on_hover_and_with_alt_not_always(app, monkeypatch):
    """The painted models carry no ids: the battle screen shows the hovered stand's id on a
    dark tag, and every stand's while Alt is held."""
    from game.ui.battle import BattleScreen

    monkeypatch.setitem(UI, "stand_style", "models")
    b = game.Battle(game.load_scenario(ROOT / "maps" / "modern-fire-support.json"), 3)
    s = BattleScreen(app, b)
    app.show(s)
    on = [
        t
        for t in b.state.stands.values()
        if t.on_table and s.tv.rect.collidepoint(s.tv.to_px(t.x, t.y))
    ]
    a, other = on[0], on[1]

    def tag(t) -> bool:  # the id's dark tag under the stand
        x, y = s.tv.to_px(t.x, t.y)
        y += s.tv.view.scale * 0.55 + 1
        row = [tuple(app.surface.get_at((int(x) + d, int(y))))[:3] for d in range(-4, 5)]
        return (30, 32, 30) in row

    s.mouse = (5, 790)
    s.update(0)
    s.draw(app.surface)
    assert not tag(a) and not tag(other)
    s.mouse = _at(s.tv, a.x, a.y)
    s.draw(app.surface)
    assert tag(a) and not tag(other)
    monkeypatch.setattr(pygame.key, "get_mods", lambda: pygame.KMOD_LALT)
    s.mouse = (5, 790)
    s.draw(app.surface)
    assert tag(a) and tag(other)


@pytest.mark.parametrize("name", ["modern-meeting", "modern-fire-support", "wwii-47-breakthrough"])
def test_the_opening_view_shows_stands_20_px_or_more(app, name):
    from game.ui.battle import BattleScreen

    b = game.Battle(game.load_scenario(ROOT / "maps" / f"{name}.json"), 3)
    s = BattleScreen(app, b)
    app.show(s)
    assert s.tv.view.scale >= 20


def test_a_click_on_the_mini_map_moves_the_camera_there(app):
    """The mini-map shows the whole table in the view's corner; a click on it centres the
    camera (same zoom) on the table point under the click."""
    from game.ui.battle import BattleScreen

    b = game.Battle(game.load_scenario(ROOT / "maps" / "modern-fire-support.json"), 3)
    s = BattleScreen(app, b)
    app.show(s)
    s.update(0)
    s.draw(app.surface)
    mm = s.overlays.minimap()
    r = mm.rect(s.tv)
    assert s.tv.rect.contains(r) and r.w < s.tv.rect.w / 4
    scale = s.tv.view.scale
    target = (30.0, 18.0)
    pos = tuple(int(round(v)) for v in mm.view(s.tv).to_px(*target))
    assert r.collidepoint(pos)
    mode = s.mode
    s.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    s.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    x, y = s.tv.to_table(s.tv.rect.center)
    assert abs(x - target[0]) < 0.6 and abs(y - target[1]) < 0.6
    assert s.tv.view.scale == scale and s.mode is mode  # only the camera moved
    corner = tuple(int(round(v)) for v in mm.view(s.tv).to_px(59.0, 1.0))
    s.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=corner, button=1))
    s.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=corner, button=1))
    right, _ = s.tv.to_px(60.0, 0.0)  # the table's right edge: no further in than the fit's
    assert s.tv.rect.right - 24 - 1 <= right <= s.tv.rect.right


def test_the_unit_card_keeps_the_nato_symbol_beside_the_painted_model(app):
    """The NATO symbol stays on the unit card (#46): the stand's flat token with its symbol
    in white, and its painted model under it."""
    from game.ui.battle import BattleScreen

    b = game.Battle(game.load_scenario(ROOT / "maps" / "modern-fire-support.json"), 3)
    s = BattleScreen(app, b)
    app.show(s)
    s.info.card = "A15"  # an M109A6 Paladin (US, blue)
    s.update(0)
    s.draw(app.surface)
    box = s.info.card_box
    token = {
        tuple(app.surface.get_at((x, y)))[:3]
        for x in range(box.right - 58, box.right - 22)
        for y in range(box.y + 24, box.y + 56)
    }
    assert BLUE in token and (255, 255, 255) in token
    model = {
        tuple(app.surface.get_at((x, y)))[:3]
        for x in range(box.right - 58, box.right - 22)
        for y in range(box.y + 82, box.y + 118)
    }
    assert BLUE in model and models.FRONT in model


def test_the_aircraft_flies_nose_first_with_its_shadow():
    """An air strike's aircraft is painted from above, its nose along its heading (the
    table's +y up the screen), its shadow a translucent copy."""
    cockpit = models.shade(BLUE, 0.5)

    def cockpit_at(sprite):  # the mean pixel of the dark cockpit, near the nose
        w, h = sprite.get_size()
        pts = [
            (x, y)
            for x in range(w)
            for y in range(h)
            if tuple(sprite.get_at((x, y)))[:3] == cockpit
        ]
        return sum(p[0] for p in pts) / len(pts) - w / 2, sum(p[1] for p in pts) / len(pts) - h / 2

    east = models.aircraft_sprite(BLUE, 60, 0)
    c = east.get_width() // 2
    dx, dy = cockpit_at(east)
    assert dx > 5 and abs(dy) < 2
    dx, dy = cockpit_at(models.aircraft_sprite(BLUE, 60, 90))
    assert dy < -5 and abs(dx) < 2
    shadow = models.aircraft_sprite(BLUE, 60, 0, shadow=True)
    assert 0 < shadow.get_at((c, c))[3] < 255 and tuple(east.get_at((c, c)))[:3] != (0, 0, 0)


def test_n_hides_the_mini_map_and_its_clicks(app):
    from game.ui.battle import BattleScreen

    b = game.Battle(game.load_scenario(ROOT / "maps" / "modern-fire-support.json"), 3)
    s = BattleScreen(app, b)
    app.show(s)
    s.update(0)
    s.draw(app.surface)
    r = s.overlays.minimap().rect(s.tv)
    shown = app.surface.subsurface(r).copy()
    s.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_n, mod=0, unicode="n"))
    s.draw(app.surface)
    hidden = app.surface.subsurface(r).copy()
    assert pygame.image.tobytes(shown, "RGB") != pygame.image.tobytes(hidden, "RGB")
    origin = s.tv.view.origin
    pos = r.center
    s.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    s.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    assert s.tv.view.origin == origin  # the click went to the table, not the hidden map
