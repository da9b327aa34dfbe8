"""The first hour at the main menu and the quick battle (#43): the menu remembers the last
battle's choices across restarts, lists scenarios by title, names the sides in the players'
choice; the quick battle says when the balance check and the points disagree. Driven on the
real screens (dummy video driver)."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pygame_gui
import pytest

from game.settings import load_settings, settings_path
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.menu import MenuScreen

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("data_dir")


def frame(screen):
    screen.update(0.016)
    screen.draw(screen.app.surface)


def choose(menu, drop_down, text):
    """Pick the option whose words are ``text`` in a drop-down, as a click on it does."""
    option = next(o for o in drop_down.options_list if o[0] == text)
    drop_down.selected_option = option
    menu.handle(
        pygame.event.Event(
            pygame_gui.UI_DROP_DOWN_MENU_CHANGED,
            ui_element=drop_down,
            text=option[0],
            selected_option_id=option[1],
        )
    )
    frame(menu)


def press(screen, button):
    screen.handle(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=button))


def restart() -> App:
    """Close the window and start the program again (the settings read anew)."""
    pygame.quit()
    return App(size=(1280, 800))


def opened(app) -> MenuScreen:
    menu = MenuScreen(app)
    app.show(menu)
    frame(menu)
    return menu


def words(drop_down) -> str:
    return drop_down.selected_option[0]


# ------------------------------------------------------------------ 1. the menu remembers


def test_the_menu_remembers_the_last_battles_choices_across_a_restart(app):
    """(#43) Scenario, players (which side against the AI), AI level and AI speed were back to
    the first map, hotseat, veteran after every start."""
    menu = opened(app)
    choose(menu, menu.scenario_menu, "Combined arms (Modern, full game)")
    choose(menu, menu.players, "Against the AI: you command Russia")
    choose(menu, menu.level, "AI level: recruit")
    choose(menu, menu.speed, "AI moves shown slowly")
    press(menu, menu.new_button)
    assert isinstance(app.screen, BattleScreen)
    assert app.screen.battle.meta == {"ai": {"A": "recruit"}, "ai_speed": 5.0}  # US is A
    kept = json.loads(settings_path().read_text())
    assert kept["menu"]["you_command"] == "second" and kept["ai_speed"] == 5.0

    app = restart()
    menu = opened(app)
    assert menu.chosen == ROOT / "maps" / "modern-combined-arms.json"
    assert words(menu.scenario_menu) == "Combined arms (Modern, full game)"
    assert words(menu.players) == "Against the AI: you command Russia"
    assert words(menu.level) == "AI level: recruit"
    assert words(menu.speed) == "AI moves shown slowly"
    assert not menu.message  # nothing to say


def test_choices_stay_when_the_menu_opens_again_and_the_settings_screen_keeps_them(app):
    """Going to Settings and back (or any screen) keeps the menu's choices of this session;
    saving the settings does not forget them."""
    from game.ui.settings_screen import SettingsScreen

    menu = opened(app)
    choose(menu, menu.scenario_menu, "Modern skirmish (Modern, introductory)")
    choose(menu, menu.players, "Against the AI: you command Blue (Leopard)")
    press(menu, menu.settings_button)
    s = app.screen
    assert isinstance(s, SettingsScreen)
    s.save()
    menu = app.screen
    assert isinstance(menu, MenuScreen) and menu.chosen.name == "modern-skirmish.json"
    assert words(menu.players) == "Against the AI: you command Blue (Leopard)"
    assert load_settings()[0].menu.you_command == "first"


@pytest.mark.parametrize(
    "content, note",
    [
        ('{"ui_scale": 1.5, "menu": {', "not valid JSON"),
        ('{"ui_scale": 1.5, "menu": {"you_command": "side B"}}', "$.menu.you_command: Input"),
        ('{"ui_scale": 1.5, "menu": {"scenario": 7}}', "$.menu.scenario: Input should be"),
    ],
)
def test_a_broken_or_outdated_settings_file_is_said_in_one_line_and_never_stops_the_menu(
    content, note
):
    """A settings file cut short, or with menu choices an older or newer version wrote: the
    menu opens with its first choices and one line saying why; the rest of a file whose menu
    choices alone are outdated is kept."""
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content)
    app = restart()
    menu = opened(app)
    assert note in menu.message and "\n" not in menu.message
    assert menu.message.startswith("The settings file was not used as it is: ")
    assert words(menu.players).startswith("Hotseat")
    assert menu.chosen.name == "modern-meeting.json"
    if "menu" in note:
        assert app.settings.ui_scale == 1.5 and "last choices are forgotten" in menu.message
    press(menu, menu.settings_button)
    app.screen.on_back()
    assert not app.screen.message  # said once, not every time the menu opens


def test_a_remembered_scenario_that_is_gone_is_said_and_the_first_map_chosen(data_dir):
    gone = data_dir / "scenarios" / "mine.json"
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"menu": {"scenario": str(gone), "ai_level": "recruit"}}))
    menu = opened(restart())
    assert menu.message == "The scenario of your last battle, mine.json, is no longer there."
    assert menu.chosen.name == "modern-meeting.json"
    assert words(menu.level) == "AI level: recruit"


# ------------------------------------------------------------------ 2. titles, not file names


def test_the_scenario_list_shows_titles_with_the_ruleset_and_the_file_under_it(app, data_dir):
    """(#43) The list showed "modern-skirmish.json"; a file that cannot be read is listed with
    a mark, and choosing it says why instead of crashing."""
    mine = data_dir / "scenarios"
    mine.mkdir(parents=True, exist_ok=True)
    (mine / "half-written.json").write_text('{"title": "Mine", "sides": [')
    menu = opened(app)
    items = [o[0] for o in menu.scenario_menu.options_list]
    assert "Modern skirmish (Modern, introductory)" in items
    assert "Breakthrough, 1947 (Wehrmacht '47, full game)" in items
    assert "half-written.json (cannot be read)" in items
    assert not any(i.endswith(".json") for i in items)
    choose(menu, menu.scenario_menu, "Modern skirmish (Modern, introductory)")
    assert menu.file_line.text == "File: modern-skirmish.json (shipped with the game)"
    choose(menu, menu.scenario_menu, "half-written.json (cannot be read)")
    assert menu.file_line.text.startswith("half-written.json cannot be read: ")
    assert "not valid JSON" in menu.file_line.text and menu.points.text == ""
    assert words(menu.players) == "Hotseat: two players, one screen"
    press(menu, menu.new_button)
    assert app.screen is menu and "half-written.json" in menu.message


# ------------------------------------------------------------------ 3. the sides by name


def test_the_players_choice_names_the_scenarios_sides_and_follows_the_scenario(app):
    """(#43) "you command the first force" named no side; now the chosen scenario's sides,
    changing with the scenario, the side chosen kept."""
    menu = opened(app)
    choose(menu, menu.scenario_menu, "Modern skirmish (Modern, introductory)")
    assert [o[0] for o in menu.players.options_list] == [
        "Hotseat: two players, one screen",
        "Against the AI: you command Blue (Leopard)",
        "Against the AI: you command Orange (T-90)",
    ]
    choose(menu, menu.players, "Against the AI: you command Orange (T-90)")
    choose(menu, menu.scenario_menu, "Breakthrough, 1947 (Wehrmacht '47, full game)")
    assert words(menu.players) == "Against the AI: you command Allies"
    press(menu, menu.new_button)
    assert app.screen.battle.meta["ai"] == {"A": "veteran"}  # Germany, the first force


# ------------------------------------------------------------------ 4. points against the check


class FinishedCheck:
    """A balance check already played, as the real one reported T-90s against M2A2
    Bradleys in the full Modern game: 40 battles, every one won by the T-90s."""

    made: list = []

    def __init__(self, raw, games=40, **_kw):
        from game.check.balance import BalanceReport, SideResult

        self.raw, self.games, self.done, self.error, self.running = raw, games, games, "", False
        a, b = (s["name"] for s in raw["sides"])
        self.report = BalanceReport(
            games,
            (
                SideResult("A", a, games, 1.0, (0.91, 1.0), 1.2),
                SideResult("B", b, 0, 0.0, (0.0, 0.09), 17.5),
            ),
            0,
            4.1,
            f"favours {a}",
        )
        FinishedCheck.made.append(self)

    def stop(self):
        pass

    def summary(self):
        from game.ui.balance_job import BalanceJob

        return BalanceJob.summary(self)


def t90_against_bradleys(app):
    """The quick battle screen from the menu: full Modern game, T-90s against Bradleys."""
    from game.ui.quick_battle import ERAS, QuickBattleScreen

    menu = opened(app)
    press(menu, menu.quick_button)
    s = app.screen
    era = next(k for k, v in ERAS.items() if v == "modern-full")
    s.handle(pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, ui_element=s.era, text=era))
    s = app.screen
    assert isinstance(s, QuickBattleScreen)
    for k, unit in enumerate(("T-90 / AT-12", "M2A2 Bradley")):
        s.handle(
            pygame.event.Event(
                pygame_gui.UI_SELECTION_LIST_NEW_SELECTION,
                ui_element=s.lists[k],
                text=s._label(unit),
            )
        )
    frame(s)
    assert "Ratio <b>1.03 : 1</b>" in s.summary.html_text
    return s


def test_the_quick_battle_says_when_the_check_and_the_points_disagree_and_offers_the_move(
    app, monkeypatch, data_dir
):
    """(#43) The points said 1.03 : 1 while the check gave the T-90s every win, and nothing
    on the screen put the two together; now it says they disagree (the house values in
    words), offers the balancing move the check points to, makes it with a click and plays
    the check again; the table played carries the move."""
    import game.ui.quick_battle as qb

    FinishedCheck.made = []
    monkeypatch.setattr(qb, "BalanceJob", FinishedCheck)
    s = t90_against_bradleys(app)
    press(s, s.check_button)
    frame(s)
    text = s.summary.html_text
    assert text.startswith("<b>The points and the check disagree:</b> the points call this even")
    assert "T-90 / AT-12 won 100% of the battles either side won" in text
    assert "points within 10% of even or leaning the other way, yet one side winning" in text
    assert "more than 65% of the battles either side won" in text
    move = s.suggested
    assert move is not None and move.values[1] > move.values[0]  # weakens the T-90s' lead
    assert f"The check suggests: <a href='move'>{move.what.replace(chr(39), '&#x27;')}</a>" in text
    assert "M2A2 Bradley leads on points" in text
    before = list(s.raw["stands"]), [x["cohesion"] for x in s.raw["sides"]]
    s.handle(
        pygame.event.Event(
            pygame_gui.UI_TEXT_BOX_LINK_CLICKED, ui_element=s.summary, link_target="move"
        )
    )
    frame(s)
    after = list(s.raw["stands"]), [x["cohesion"] for x in s.raw["sides"]]
    assert after != before and len(FinishedCheck.made) == 2  # made, and checked again
    assert FinishedCheck.made[1].raw is s.raw
    assert f"after the moves: {move.what}".replace("'", "&#x27;") in s.summary.html_text
    # checked again, the T-90s still win every battle: the points now favour the Bradleys
    # and disagree all the more, and the next move goes on from the table as it now is
    assert "the points give M2A2 Bradley the lead" in s.summary.html_text
    assert s.suggested is not None and s.suggested.ratio > move.ratio
    press(s, s.play_button)
    played = app.screen.battle.scenario.spec
    assert [x.cohesion for x in played.sides] == after[1]
    assert len(played.stands) == len(after[0])


def test_points_and_a_check_that_agree_say_nothing_more(app, monkeypatch):
    """An even check (20 wins each) of forces the points call even: no warning, no move."""
    import game.ui.quick_battle as qb

    class EvenCheck(FinishedCheck):
        def __init__(self, raw, games=40, **kw):
            super().__init__(raw, games, **kw)
            a, b = self.report.sides
            self.report = type(self.report)(
                games,
                (
                    a.__class__(a.side, a.name, 20, 0.5, (0.35, 0.65), 5.0),
                    b.__class__(b.side, b.name, 20, 0.5, (0.35, 0.65), 5.0),
                ),
                0,
                6.0,
                "balanced",
            )

    monkeypatch.setattr(qb, "BalanceJob", EvenCheck)
    s = t90_against_bradleys(app)
    press(s, s.check_button)
    frame(s)
    assert "disagree" not in s.summary.html_text and s.suggested is None
    assert "40 AI battles won" in s.summary.html_text


def test_the_check_runs_in_the_background_with_its_progress_shown(app, monkeypatch):
    """The check plays AI battles for a minute or more: the screen answers meanwhile and
    says how many are played; Stop the check ends it."""
    import functools
    import time

    import game.ui.quick_battle as qb
    from game.ui.balance_job import BalanceJob

    monkeypatch.setattr(qb, "BalanceJob", functools.partial(BalanceJob, games=2, jobs=1))
    s = t90_against_bradleys(app)
    press(s, s.check_button)
    t0 = time.monotonic()
    frame(s)
    assert time.monotonic() - t0 < 1.0  # a frame, not a battle
    assert "Balance check: 0 of 2 AI battles played..." in s.summary.html_text
    assert s.check_button.text == "Stop the check"
    job = s.job
    press(s, s.check_button)
    job.join(120)
    frame(s)
    assert not job.running and s.check_button.text == "Check balance"
    assert "disagree" not in s.summary.html_text


def test_a_remembered_shipped_map_is_found_after_the_game_moved():
    """The game installed in another folder: the shipped map of that name is chosen."""
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    old = "/old/install/maps/modern-skirmish.json"
    path.write_text(json.dumps({"menu": {"scenario": old, "you_command": "second"}}))
    menu = opened(restart())
    assert menu.chosen == ROOT / "maps" / "modern-skirmish.json" and not menu.message
    assert words(menu.players) == "Against the AI: you command Orange (T-90)"
