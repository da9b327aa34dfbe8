"""The painted table (#46, items 1, 4, 5 and 6): terrain painted procedurally and seeded per
feature (the same map looks the same every time), every kind of the terrain chart with a look
of its own, the plain style kept pixel for pixel as it was, both styles as settings, the
editor and the replay drawing what the battle screen draws, and ``hulldown render --style``.
Dummy video driver."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pygame
import pytest
import shapely

from game import load_scenario
from game.cli import main
from game.rules.table.geometry import TerrainFeature
from game.rules.table.table import Table
from game.settings import Settings
from game.ui.colours import UI
from game.ui.paint.decor import decorate
from game.ui.paint.terrain import FLOOR, LOOKS
from game.ui.render import View, draw_table, render_png
from game.ui.table_view import TableView

ROOT = Path(__file__).resolve().parents[2]
MEETING = ROOT / "maps" / "modern-meeting.json"
PLAIN_SHA = {
    # sha256 of the pixels of `hulldown render MAP` before #46 (the flat drawing), which
    # `--style plain` must still give; MAP as it was then (tests/fixtures/plain-drawing/, the
    # shipped maps' woods being natural outlines since)
    "modern-meeting": "0b18f135655ccced06f0601db099fe70023a2812576e928562b0b9c6c7e93d3d",
    "wwii-47-breakthrough": "31aa0d00282adfa88b9dd0b7d05044df2aa86f44aeda08c1f25302a430c38d6e",
}
AREA_KINDS = [
    "woods",
    "grove",
    "light_buildings",
    "heavy_buildings",
    "marsh",
    "rough_1",
    "rough_2",
    "rough_3",
    "light_improved_position",
    "medium_improved_position",
    "heavy_improved_position",
    "barbed_wire",
    "minefield",
    "impassable",
    "clear",
]


@pytest.fixture(autouse=True)
def _style():
    """Each test leaves the settings' styles as it found them."""
    pygame.font.init()
    kept = dict(UI)
    yield
    UI.clear()
    UI.update(kept)


def _pixels(path) -> np.ndarray:
    return pygame.surfarray.array3d(pygame.image.load(str(path)))


@pytest.mark.parametrize("name", sorted(PLAIN_SHA))
def test_the_plain_style_is_the_old_drawing_pixel_for_pixel(tmp_path, name):
    out = tmp_path / "plain.png"
    then = ROOT / "tests" / "fixtures" / "plain-drawing" / f"{name}.json"
    args = ["render", str(then), "--out", str(out), "--style", "plain"]
    assert main(args) == 0
    assert hashlib.sha256(_pixels(out).tobytes()).hexdigest() == PLAIN_SHA[name]


def test_render_is_painted_by_default_and_woods_differ_from_plain(tmp_path):
    painted, plain = tmp_path / "painted.png", tmp_path / "plain.png"
    assert main(["render", str(MEETING), "--out", str(painted)]) == 0
    assert main(["render", str(MEETING), "--out", str(plain), "--style", "plain"]) == 0
    a, b = _pixels(painted).astype(int), _pixels(plain).astype(int)
    sc = load_scenario(MEETING)
    view = View(20, (40, 50), sc.table.depth)  # render_png's layout
    wood = next(f for f in sc.table.areas if f.kind == "woods").geometry
    x0, y0, x1, y1 = wood.bounds
    (px0, py0), (px1, py1) = view.to_px(x0, y1), view.to_px(x1, y0)
    box = (slice(int(px0) + 2, int(px1) - 2), slice(int(py0) + 2, int(py1) - 2))
    inside = shapely.contains_xy(
        wood,
        *view.to_table(
            *np.meshgrid(
                np.arange(box[0].start, box[0].stop),
                np.arange(box[1].start, box[1].stop),
                indexing="ij",
            )
        ),
    )
    differ = np.abs(a[box] - b[box]).sum(axis=2) > 30
    assert differ[inside].mean() > 0.6  # the woods are painted, not flat
    # tree crowns: many shades of green inside the woods, where plain has one colour
    assert len({tuple(p) for p in a[box][inside]}) > 200
    assert len({tuple(p) for p in b[box][inside]}) < 12


def test_an_unknown_style_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as err:
        main(["render", str(MEETING), "--out", str(tmp_path / "x.png"), "--style", "oil"])
    assert err.value.code == 2
    assert not (tmp_path / "x.png").exists()
    with pytest.raises(ValueError):
        render_png(load_scenario(MEETING), str(tmp_path / "y.png"), style="oil")


def test_the_same_map_paints_the_same_every_time(tmp_path):
    """Seeded per feature from the map, never from the battle's dice or module-level random:
    two renders of freshly loaded copies are byte-identical, whatever random was doing."""
    import random

    outs = []
    for k in range(2):
        random.seed(k)  # the module-level random is not what paints
        np.random.seed(k)
        out = tmp_path / f"m{k}.png"
        render_png(load_scenario(MEETING), str(out))
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]


def test_a_features_look_is_its_own_whatever_else_is_on_the_map():
    wood = shapely.Polygon([(2, 2), (8, 2.5), (7, 7), (2.5, 6)])
    alone = decorate("woods", wood)
    again = decorate("woods", shapely.Polygon(list(wood.exterior.coords)))
    assert np.array_equal(alone.items["trees"], again.items["trees"])
    moved = decorate("woods", shapely.affinity.translate(wood, 0.5, 0))
    assert not np.array_equal(alone.items["trees"][:, 1], moved.items["trees"][:, 1]) or (
        len(alone.items["trees"]) != len(moved.items["trees"])
    )
    # the crowns stand inside the edge the rules draw sight lines at
    trees = alone.items["trees"]
    assert len(trees) > 20
    assert shapely.contains_xy(wood, trees[:, 0], trees[:, 1]).all()


def _all_kinds_table(scale: float = 30.0, ground: str = "grass"):
    terr = load_scenario(MEETING).data.terrain
    feats, places = [], {}
    for i, k in enumerate(AREA_KINDS):
        cx, cy = 4 + (i % 4) * 7, 4 + (i // 4) * 6
        g = shapely.Polygon(
            [(cx - 2.5, cy - 2), (cx + 2, cy - 2.4), (cx + 2.6, cy + 1.8), (cx - 1.5, cy + 2.3)]
        )
        feats.append(TerrainFeature(k, g, 0, i))
        places[k] = g
    table = Table(30, 26, feats, terr, ground)
    view = View(scale, (0, 0), 26)
    return table, view, places


def _paint(table, view, style) -> np.ndarray:
    surface = pygame.Surface((int(table.width * view.scale), int(table.depth * view.scale)))
    draw_table(surface, table, view, style=style)
    return pygame.surfarray.array3d(surface).astype(int)


def _inside(geom, view, shape, inset: float = 0.3) -> np.ndarray:
    xs, ys = np.meshgrid(np.arange(shape[0]) + 0.5, np.arange(shape[1]) + 0.5, indexing="ij")
    tx, ty = view.to_table(xs, ys)
    return shapely.contains_xy(shapely.buffer(geom, -inset), tx, ty)


@pytest.mark.parametrize("ground", ["grass", "sand"])
def test_every_area_kind_of_the_chart_has_a_painted_look_of_its_own(ground):
    """Every area kind of assets/data/terrain.toml (less those the rules derive: slope,
    hilltop, wreck, and smoke, which the fire support draws) is painted, on either ground:
    not the plain picture, not bare ground, and no two kinds alike (their pixels' colour
    histograms)."""
    data = load_scenario(MEETING).data.terrain
    chart = {k for k, t in data.items() if t.geometry == "area"} - {"smoke"}
    assert chart <= set(FLOOR) and chart <= set(AREA_KINDS)
    table, view, places = _all_kinds_table(ground=ground)
    painted, plain = _paint(table, view, "painted"), _paint(table, view, "plain")
    hists = {}
    for k, g in places.items():
        m = _inside(g, view, painted.shape)
        assert (np.abs(painted[m] - plain[m]).sum(axis=1) > 0).mean() > 0.5, k
        assert len({tuple(p) for p in painted[m]}) > 40, k  # textured, not flat
        q = painted[m] // 32
        codes = q[:, 0] * 64 + q[:, 1] * 8 + q[:, 2]
        hists[k] = np.bincount(codes, minlength=512) / len(codes)
    for a in hists:
        for b in hists:
            if a < b:
                assert np.abs(hists[a] - hists[b]).sum() > 0.3, (a, b)


def test_light_and_heavy_buildings_are_told_apart_by_their_roofs():
    table, view, places = _all_kinds_table()
    painted = _paint(table, view, "painted")
    light = painted[_inside(places["light_buildings"], view, painted.shape)]
    heavy = painted[_inside(places["heavy_buildings"], view, painted.shape)]
    red = lambda px: ((px[:, 0] > px[:, 2] + 60) & (px[:, 0] > px[:, 1] + 40)).mean()  # noqa: E731
    grey = lambda px: (np.ptp(px, axis=1) < 25).mean()  # noqa: E731
    assert red(light) > 0.2 and red(heavy) < 0.02  # red tiled roofs
    assert grey(heavy) > 0.5 and grey(light) < 0.2  # slate, concrete and paving


@pytest.mark.parametrize("ground", ["grass", "sand"])
def test_the_hilltop_band_and_the_levels_show(ground):
    terr = load_scenario(MEETING).data.terrain
    hills = [
        TerrainFeature("hill", shapely.box(2, 2, 18, 14), 1, 0),
        TerrainFeature("hill", shapely.box(6, 5, 14, 11), 2, 1),
    ]
    table = Table(20, 16, hills, terr, ground)
    view = View(30, (0, 0), 16)
    img = _paint(table, view, "painted")

    def at(x, y):  # the mean colour of a patch 0.3" across (the grain averaged out)
        px, py = (int(v) for v in view.to_px(x, y))
        return img[px - 4 : px + 5, py - 4 : py + 5].reshape(-1, 3).mean(axis=0)

    ground, slope1, top1, top2 = at(1, 1), at(2.5, 12), at(4, 12.5), at(8, 6.5)
    assert np.abs(slope1 - ground).sum() > 25  # a hill is not the ground around it
    assert top1.sum() > slope1.sum() + 20  # the crest band is lighter than the slope
    assert top2.sum() > top1.sum() + 20  # level 2 lighter than level 1


def test_a_desert_table_is_sand_and_its_rough_ground_dry():
    """A table whose ground is sand (the scenario's ``table.ground``, as Sinai, 1967's) paints
    its open ground in the sand look's colour, not the green flock, and its rough ground's
    tufts as dry scrub; the battle's table carries the scenario's ground."""
    terr = load_scenario(MEETING).data.terrain
    rough = shapely.box(8, 2, 14, 8)
    view = View(30, (0, 0), 10)
    mean = {}
    for ground in ("grass", "sand"):
        table = Table(16, 10, [TerrainFeature("rough_1", rough, 0, 0)], terr, ground)
        img = _paint(table, view, "painted")
        mean[ground] = img[: int(6 * 30), : int(9 * 30)].reshape(-1, 3).mean(axis=0)
        tufts = {tuple(p) for p in img[_inside(rough, view, img.shape)]}
        green = {t for t in tufts if t[1] > t[0] + 10}  # the grass look's tufts are green
        assert (len(green) > 20) == (ground == "grass"), ground
    assert np.abs(mean["sand"] - LOOKS["sand"].ground).max() < 12
    assert np.abs(mean["grass"] - LOOKS["grass"].ground).max() < 12
    sinai = load_scenario(ROOT / "maps" / "modern-sinai-1967.json")
    assert sinai.table.ground == "sand" and load_scenario(MEETING).table.ground == "grass"


def test_a_panned_painted_layer_is_the_full_redraw():
    """The painted layer scrolls on a pan and paints only the strips it uncovers; the grain
    and the decoration are tied to the table, so the strips join (as the plain style's)."""
    pygame.display.init()
    UI["table_style"] = "painted"
    table = load_scenario(MEETING).table
    rect = pygame.Rect(0, 44, 920, 756)
    panned = TableView(table, rect)
    panned.zoom_at(3.0, rect.center)
    surface = pygame.Surface((1280, 800))

    def picture(tv):
        tv.draw_terrain(surface)
        return pygame.surfarray.array3d(surface.subsurface(tv.rect)).astype(int)

    picture(panned)
    kept = panned._cache  # noqa: SLF001
    for dx, dy in [(7, 0), (0, -5), (13, 9), (-40, 3)]:
        panned.pan(dx, dy)
        got = picture(panned)
        assert panned._cache is kept  # noqa: SLF001 - scrolled, not painted again
        fresh = TableView(table, rect)
        fresh.view = panned.view
        differ = np.abs(got - picture(fresh)).sum(axis=2) > 0
        assert differ.mean() <= 0.002, (dx, dy, differ.sum())
    UI["table_style"] = "plain"  # a change of style paints the layer again
    picture(panned)
    assert panned._cache is not kept  # noqa: SLF001


def test_the_settings_carry_both_styles():
    s = Settings()
    assert (s.table_style, s.stand_style) == ("painted", "models")
    assert Settings(table_style="plain", stand_style="symbols").table_style == "plain"
    with pytest.raises(ValueError):
        Settings(table_style="oil")
    with pytest.raises(ValueError):
        Settings(stand_style="flags")


FIRE_SUPPORT = ROOT / "maps" / "modern-fire-support.json"


def _screens_same_view(app, scale: float = 24.0):
    """The battle screen, the replay and the editor of modern-fire-support, each with its
    camera at ``scale`` pixels an inch and the table's corner on a whole pixel (the same
    tiles), drawn once; with the table points to compare (inside woods and on open ground,
    2" or more from any stand) and, per screen, its view and its battle's stands."""
    from game import Battle
    from game.editor.document import Document
    from game.rules.files.replay import Replay
    from game.ui.battle import BattleScreen
    from game.ui.editor import editor_screen
    from game.ui.replay import ReplayScreen

    save = ROOT / "tests" / "corpus" / "modern-fire-support-s1-random-random.save.json"
    battle = BattleScreen(app, Battle(load_scenario(FIRE_SUPPORT), 1))
    replay = ReplayScreen(app, Replay.from_save(save), on_back=lambda: None)
    editor = editor_screen(app, Document.open(FIRE_SUPPORT))
    pictures = {}
    for name, s in (("battle", battle), ("replay", replay), ("editor", editor)):
        app.show(s)
        s.update(0.016)
        s.tv.view = View(scale, (s.tv.rect.x - 200, s.tv.rect.y - 100), s.tv.view.depth)
        s.update(0.016)
        s.draw(app.surface)
        pictures[name] = (app.surface.copy(), s.tv.view, s.tv.rect)
    return pictures


def test_the_editor_and_the_replay_draw_the_table_the_battle_screen_draws(app, data_dir):
    """Item 5: the three screens come to the same drawing (``draw_table`` with the settings'
    style): at the same scale, every sampled point of the table shows the same pixel on
    all three, painted (not the plain flat colours), and the plain style on all three when
    the setting says plain."""
    sc = load_scenario(FIRE_SUPPORT)
    stands = np.array([(st.x, st.y) for st in sc.spec.stands])
    rng = np.random.default_rng(46)
    pts = rng.uniform((1, 1), (sc.table.width - 1, sc.table.depth - 1), (4000, 2))
    far = np.min(np.hypot(*(pts[:, None, :] - stands[None, :, :]).transpose(2, 0, 1)), axis=1)
    pts = pts[far > 2.0]
    for style in ("painted", "plain"):
        UI["table_style"] = style
        pics = _screens_same_view(app)
        seen = {}
        for name, (surface, view, rect) in pics.items():
            px = [view.to_px(x, y) for x, y in pts]
            keep = [rect.inflate(-4, -4).collidepoint(p) for p in px]
            seen[name] = {
                i: tuple(surface.get_at((int(p[0]), int(p[1]))))
                for i, (p, k) in enumerate(zip(px, keep, strict=True))
                if k
            }
        common = set(seen["battle"]) & set(seen["replay"]) & set(seen["editor"])
        assert len(common) > 300
        same = [seen["battle"][i] == seen["replay"][i] == seen["editor"][i] for i in common]
        assert np.mean(same) > 0.97, style
        colours = {seen["battle"][i] for i in common}
        if style == "painted":
            assert len(colours) > 200  # grain, crowns, roofs: painted
        else:
            assert len(colours) < 40  # flat colours
        app.manager.clear_and_reset()


def test_smoke_and_impacts_are_puffs_and_fire_when_painted():
    """Support markers (game/ui/battle/support_draw.py): painted, an impact is a crater with
    flames (yellow and orange pixels at its heart) and a smoke area puffs of grey-white
    filling most of its circle; plain, the old rings and disc, unchanged."""
    import types

    from game.ui.battle.support_draw import draw_markers

    table = load_scenario(MEETING).table
    tv = TableView(table, pygame.Rect(0, 0, 600, 400))
    tv.view = View(40, (0, 0), table.depth)
    smoke = types.SimpleNamespace(id="m2.1", x=4.0, y=table.depth - 4.0)
    impact = types.SimpleNamespace(id="m1.1", mission="m1", side="A", x=10.0, y=table.depth - 4.0)
    b = types.SimpleNamespace(
        state=types.SimpleNamespace(smoke=[smoke], impacts=[impact]), sides=["A", "B"]
    )
    out = {}
    for style in ("painted", "plain"):
        UI["table_style"] = style
        surface = pygame.Surface((600, 400))
        surface.fill((116, 136, 76))
        draw_markers(surface, tv, b)
        out[style] = pygame.surfarray.array3d(surface).astype(int)
    fire = out["painted"][400 - 12 : 400 + 12, 160 - 12 : 160 + 12].reshape(-1, 3)
    flame = (fire[:, 0] > 200) & (fire[:, 1] > 50) & (fire[:, 2] < 120)
    assert flame.mean() > 0.15
    plain_fire = out["plain"][400 - 12 : 400 + 12, 160 - 12 : 160 + 12].reshape(-1, 3)
    assert not ((plain_fire[:, 0] > 240) & (plain_fire[:, 1] > 180)).any()  # no yellow flame
    disc = out["painted"][160 - 30 : 160 + 30, 160 - 30 : 160 + 30].reshape(-1, 3)
    assert (disc.min(axis=1) > 170).mean() > 0.4  # grey-white smoke over the grass
    assert len({tuple(p) for p in disc}) > 50  # puffs, not a flat disc
    plain_disc = out["plain"][160 - 30 : 160 + 30, 160 - 30 : 160 + 30].reshape(-1, 3)
    assert len({tuple(p) for p in plain_disc}) < 10


def test_the_settings_screen_offers_both_styles_and_applies_them(app, data_dir):
    import pygame_gui

    from game.settings import load_settings
    from game.ui.settings_screen import SettingsScreen

    s = SettingsScreen(app, on_back=lambda: None)
    app.show(s)
    keys = {key: w for w, (key, _) in s.menus.items()}
    assert {"table_style", "stand_style"} <= set(keys)
    for key, text in (("table_style", "plain (flat colours)"), ("stand_style", "NATO symbols")):
        s.handle(
            pygame.event.Event(
                pygame_gui.UI_DROP_DOWN_MENU_CHANGED, ui_element=keys[key], text=text
            )
        )
    s.draw(app.surface)
    s.save()
    assert (UI["table_style"], UI["stand_style"]) == ("plain", "symbols")
    saved, problem = load_settings()
    assert (saved.table_style, saved.stand_style, problem) == ("plain", "symbols", "")
    for w in (keys["table_style"], keys["stand_style"]):  # on screen, not off its bottom
        assert w.get_abs_rect().bottom <= app.size[1]


def test_a_render_makes_room_for_every_line_of_its_legend(tmp_path):
    """A map of every kind of terrain needs three lines of legend: the picture grows by one
    line's 20 px so the third is not cut off at the bottom (#46: it was)."""
    import json

    doc = json.loads(MEETING.read_text())
    kinds = AREA_KINDS[:-1]  # every area kind but clear
    doc["terrain"]["features"] += [
        {
            "type": "Feature",
            "properties": {"terrain": kind},
            "geometry": {
                "type": "Polygon",
                "coordinates": [
                    [[2 + 3 * i, 30], [4 + 3 * i, 30], [4 + 3 * i, 32], [2 + 3 * i, 30]]
                ],
            },
        }
        for i, kind in enumerate(kinds)
    ]
    path = tmp_path / "every-kind.json"
    path.write_text(json.dumps(doc))
    out = tmp_path / "every-kind.png"
    assert main(["render", str(path), "--out", str(out), "--scale", "20"]) == 0
    sc = load_scenario(path)
    from game.ui.render import legend

    lines = legend(None, sc, (300, 0), "painted", int(sc.table.width * 20 + 80))
    assert lines >= 3
    height = pygame.image.load(str(out)).get_height()
    assert height == int(sc.table.depth * 20 + 80 + 40 + 20 * (lines - 2))
    bottom = _pixels(out)[:, -6:, :]  # below the last line: only the page's colour
    assert (bottom == np.array([245, 243, 235])).all()


@pytest.mark.parametrize("kind", ["impassable", "marsh", "heavy_buildings", "woods"])
def test_a_strip_narrower_than_its_decorations_inset_still_paints(kind):
    """A strip of water 0.5" wide (a river on a table imported from a map) shrinks to nothing
    inside the ripples' 0.3" inset: it is painted without its ripples, not a crash."""
    strip = shapely.box(2, 2, 10, 2.5)
    decor = decorate(kind, strip)
    assert decor is decorate(kind, shapely.box(2, 2, 10, 2.5))  # the same look again
