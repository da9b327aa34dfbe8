"""hulldown: GHQ's Micro Armour: The Game (Modern and WWII) on a real table in inches.

This module is the engine's public face, and the one import path of the AI, the screens, the
map editor, the checks and the tools (``from game import Battle, Move, StandPose``): what they
may use of the rules is named here, so the rules' insides can move without them noticing.

    import game
    scenario = game.load_scenario("maps/modern-meeting.json")   # game.ScenarioError on bad input
    battle = game.Battle(scenario, seed=7)                      # state + rules + dice + log
    battle.legal_actions(); battle.apply(action)                # game.IllegalAction if not allowed
    battle.sight("A1", "B3"); battle.odds(["A1", "A2"], "B3")
    battle.save(path); game.Battle.load(path)

``game.rules`` holds the rules (never pygame, never anything above it); ``game.ui`` draws;
``game.ai`` plays; ``game.editor`` edits maps; ``game.check`` plays whole battles to check them.
"""

from game.rules import combat
from game.rules.actions import (
    Action,
    ChooseFirst,
    CoveringFire,
    DeclareGroup,
    EndCoveringFire,
    EndMoves,
    Fire,
    LetPass,
    Move,
    MoveAttempt,
    OpportunityFire,
    Pass,
    Regroup,
)
from game.rules.battle import (
    PASS_THROUGH_MOD,
    Battle,
    IllegalAction,
    SaveError,
    SightInfo,
    sight_info,
)
from game.rules.combat import FireSetup, crt_result
from game.rules.data import DataError, RulesData, load_rules_data
from game.rules.geometry import (
    LENGTH_EPS_IN,
    OVERLAP_SQ_IN,
    STAND_SIZE_IN,
    STEP_IN,
    Sight,
    SightMatrix,
    StandPose,
    TerrainFeature,
    base_contact,
    corners,
    edge_point,
    footprint,
    footprints,
    heading_deg,
    overlaps,
    range_band,
)
from game.rules.jsonfile import JsonFileError, read_json_file, write_atomic
from game.rules.log import check_log
from game.rules.logreplay import LogReplay, LogReplayError
from game.rules.replay import Replay
from game.rules.rulesets import RULESETS, phase_titles
from game.rules.scenario import (
    Scenario,
    ScenarioError,
    load_scenario,
    parse_scenario,
    write_scenario,
)
from game.rules.table import Table

__all__ = [
    "Action",
    "Battle",
    "ChooseFirst",
    "CoveringFire",
    "DataError",
    "DeclareGroup",
    "EndCoveringFire",
    "EndMoves",
    "Fire",
    "FireSetup",
    "IllegalAction",
    "JsonFileError",
    "LENGTH_EPS_IN",
    "LetPass",
    "OVERLAP_SQ_IN",
    "Move",
    "MoveAttempt",
    "OpportunityFire",
    "PASS_THROUGH_MOD",
    "Pass",
    "Regroup",
    "LogReplay",
    "LogReplayError",
    "Replay",
    "RulesData",
    "STAND_SIZE_IN",
    "STEP_IN",
    "SaveError",
    "Scenario",
    "ScenarioError",
    "Sight",
    "SightInfo",
    "SightMatrix",
    "StandPose",
    "Table",
    "TerrainFeature",
    "base_contact",
    "check_log",
    "combat",
    "corners",
    "crt_result",
    "edge_point",
    "footprint",
    "footprints",
    "heading_deg",
    "load_rules_data",
    "load_scenario",
    "overlaps",
    "parse_scenario",
    "range_band",
    "phase_titles",
    "read_json_file",
    "RULESETS",
    "sight_info",
    "write_atomic",
    "write_scenario",
]
