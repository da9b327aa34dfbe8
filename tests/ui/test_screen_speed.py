"""The battle screen's work per frame (issue 25): while a path is plotted under the mouse the
panel's text is laid out at most every PANEL_EVERY_S, its newest text always shown in the
end, and its buttons are kept rather than made again."""

from __future__ import annotations

import pygame

from game import Battle, ChooseFirst, MoveAttempt, Pass, load_scenario
from game.ui.app import App
from game.ui.battle import BattleScreen, PlotMode
from game.ui.battle import screen as screen_module
from game.ui.render import SIDE_COLOURS


def _moving_battle() -> Battle:
    sc = load_scenario("maps/modern-skirmish.json")
    for seed in range(50):
        b = Battle(sc, seed)
        b.apply(Pass("A"))
        b.apply(Pass("B"))
        ini = b.state.initiative
        for _ in range(2):
            b.apply(ChooseFirst(ini, ini))
            b.apply(Pass(ini))
            b.apply(Pass(b.other(ini)))
        b.apply(ChooseFirst(ini, ini))
        group = next(s.group for s in b.state.stands.values() if s.side == ini and s.on_table)
        ev = b.apply(MoveAttempt(ini, group, True))
        if any(p["passed"] for p in ev[0]["per_stand"].values()):
            return b
    raise AssertionError("no seed moved")


def test_a_plotted_path_lays_the_panel_out_at_a_capped_rate(tmp_path, monkeypatch):
    monkeypatch.setenv("HULLDOWN_DATA_DIR", str(tmp_path))
    clock = [1000.0]
    monkeypatch.setattr(screen_module.time, "monotonic", lambda: clock[0])
    app = App(size=(1280, 800))
    try:
        b = _moving_battle()
        s = BattleScreen(app, b)
        app.show(s)
        stand = b.stand(b.state.moving.stands[0])
        mode = PlotMode(stand.id)
        s.set_mode(mode)
        mode.points.append((stand.x + 1, stand.y))
        laid_out = []
        real = s.panel.set_text
        monkeypatch.setattr(s.panel, "set_text", lambda t: (laid_out.append(t), real(t)))
        buttons = [b_ for b_, _ in s._buttons]
        for i in range(30):  # 30 motions within 30 ms
            clock[0] += 0.001
            px = s.tv.to_px(stand.x + 1 + 0.1 * i, stand.y + 1)
            s.handle(
                pygame.event.Event(
                    pygame.MOUSEMOTION, pos=(int(px[0]), int(px[1])), rel=(1, 0), buttons=(0, 0, 0)
                )
            )
            s.update(0.001)
        assert len(laid_out) <= 1 and s._panel_dirty and s.busy()
        assert [b_ for b_, _ in s._buttons] == buttons  # kept, not made again
        clock[0] += screen_module.PANEL_EVERY_S
        s.update(0.1)
        assert laid_out[-1] == s._panel_text and not s._panel_dirty
    finally:
        pygame.quit()


def test_the_table_layer_is_kept_until_an_action_lands(tmp_path, monkeypatch):
    """Terrain and stands are one kept picture: a moving mouse reuses it; a move that lands
    draws it again, with the stand where it went."""
    monkeypatch.setenv("HULLDOWN_DATA_DIR", str(tmp_path))
    app = App(size=(1280, 800))
    try:
        b = _moving_battle()
        s = BattleScreen(app, b)
        app.show(s)
        s.draw(app.surface)
        kept = s._layer_key
        for i in range(5):
            s.handle(
                pygame.event.Event(
                    pygame.MOUSEMOTION, pos=(300 + i, 300), rel=(1, 0), buttons=(0, 0, 0)
                )
            )
            s.draw(app.surface)
        assert s._layer_key == kept
        stand = b.stand(b.state.moving.stands[0])
        move = next(
            a
            for a in b.legal_actions()
            if getattr(a, "stand", None) == stand.id and len(a.path) > 1
        )
        assert s.act(move)
        s.draw(app.surface)
        assert s._layer_key != kept
        moved = b.stand(stand.id)
        px, py = s.tv.to_px(moved.x, moved.y)
        side_colour = SIDE_COLOURS[b.sides.index(moved.side) % 2]
        r = max(2, int(s.tv.view.scale * 0.3))
        around = [
            s._layer.get_at((int(px) + dx, int(py) + dy))[:3]
            for dx in range(-r, r + 1)
            for dy in range(-r, r + 1)
        ]
        assert around.count(side_colour) > len(around) // 4  # the stand is drawn where it went
    finally:
        pygame.quit()


def test_a_path_that_stops_short_says_why_in_words(tmp_path, monkeypatch):
    """ "Stops early: mp" was the engine's code; the panel says it in words."""
    monkeypatch.setenv("HULLDOWN_DATA_DIR", str(tmp_path))
    app = App(size=(1280, 800))
    try:
        b = _moving_battle()
        s = BattleScreen(app, b)
        app.show(s)
        stand = b.stand(b.state.moving.stands[0])
        mode = PlotMode(stand.id)
        s.set_mode(mode)
        far = (stand.x + 40, stand.y) if stand.x < b.table.width / 2 else (stand.x - 40, stand.y)
        mode.points.append(far)
        mode.refresh(s)
        assert "Stops early: out of movement points." in s._panel_text
        assert "Stops early: mp" not in s._panel_text
    finally:
        pygame.quit()


def test_a_path_is_cut_at_its_separators_and_home_is_written_tilde(monkeypatch):
    """Paths in the panel were broken inside names with hyphens that are not in them."""
    from game.ui.logtext import path_html

    monkeypatch.setenv("HOME", "/home/ann")
    long = "/home/ann/.local/share/hulldown/logs/modern-skirmish-seed1.jsonl"
    lines = path_html(long, width_chars=24).split("<br>")
    assert "".join(lines) == "~/.local/share/hulldown/logs/modern-skirmish-seed1.jsonl"
    assert all(line.endswith("/") for line in lines[:-1]) and len(lines) >= 2
    assert path_html("/tmp/a&b") == "/tmp/a&amp;b"  # escaped for the text box
    assert path_html("/home/annex/x") == "/home/annex/x"  # only the home folder itself
