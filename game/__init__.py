"""hulldown: GHQ's Micro Armour: The Game (Modern and WWII) on a real table in inches.

The public engine, used alike by the window, the AI, the tests and scripts:

    import game
    scenario = game.load_scenario("maps/modern-meeting.json")   # game.ScenarioError on bad input
    scenario.table.sight(firer, target, stands, scenario.spec.max_sighting_in, rules)

``game.rules`` holds the rules (never pygame); ``game.ui`` draws; ``game.ai`` plays.
"""

from game.rules.data import DataError, load_rules_data
from game.rules.geometry import Sight, SightMatrix, StandPose, Table
from game.rules.scenario import Scenario, ScenarioError, load_scenario, write_scenario

__all__ = [
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
