"""hulldown: GHQ's Micro Armour: The Game (Modern and WWII) on a real table in inches.

The public engine, used alike by the window, the AI, the tests and scripts:

    import game
    scenario = game.load_scenario("maps/modern-meeting.json")   # game.ScenarioError on bad input
    battle = game.Battle(scenario, seed=7)                      # state + rules + dice + log
    battle.legal_actions(); battle.apply(action)                # game.IllegalAction if not allowed
    battle.sight("A1", "B3"); battle.odds(["A1", "A2"], "B3")
    battle.save(path); game.Battle.load(path)

``game.rules`` holds the rules (never pygame); ``game.ui`` draws; ``game.ai`` plays.
"""

from game.rules.battle import Battle, IllegalAction, SaveError
from game.rules.data import DataError, load_rules_data
from game.rules.geometry import Sight, SightMatrix, StandPose, Table
from game.rules.scenario import Scenario, ScenarioError, load_scenario, write_scenario

__all__ = [
    "Battle",
    "IllegalAction",
    "SaveError",
    "DataError",
    "Scenario",
    "ScenarioError",
    "Sight",
    "SightMatrix",
    "StandPose",
    "Table",
    "load_rules_data",
    "load_scenario",
    "write_scenario",
]
