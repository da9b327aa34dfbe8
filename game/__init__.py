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

import importlib

# Each name the engine shows, and where it lives. The names are imported when first used
# (PEP 562), so ``hulldown --help`` and the menu's first frame do not wait for the rules,
# Shapely and numpy to load.
_EXPORTS: dict[str, tuple[str, str | None]] = {
    "Action": ("game.rules.actions", "Action"),
    "base_contact": ("game.rules.table.geometry", "base_contact"),
    "Battle": ("game.rules.battle", "Battle"),
    "Sandbox": ("game.rules.sandbox", "Sandbox"),
    "seat_view": ("game.rules.sandbox", "seat_view"),
    "check_log": ("game.rules.files.log", "check_log"),
    "ChooseFirst": ("game.rules.actions", "ChooseFirst"),
    "combat": ("game.rules.procedures.combat", None),
    "corners": ("game.rules.table.geometry", "corners"),
    "CoveringFire": ("game.rules.actions", "CoveringFire"),
    "crt_result": ("game.rules.procedures.combat", "crt_result"),
    "read_cell": ("game.rules.procedures.combat", "read_cell"),
    "DataError": ("game.rules.charts.data", "DataError"),
    "DeclareGroup": ("game.rules.actions", "DeclareGroup"),
    "edge_point": ("game.rules.table.geometry", "edge_point"),
    "EndCoveringFire": ("game.rules.actions", "EndCoveringFire"),
    "EndMoves": ("game.rules.actions", "EndMoves"),
    "Fire": ("game.rules.actions", "Fire"),
    "FireSetup": ("game.rules.procedures.combat", "FireSetup"),
    "footprint": ("game.rules.table.geometry", "footprint"),
    "footprints": ("game.rules.table.geometry", "footprints"),
    "heading_deg": ("game.rules.table.geometry", "heading_deg"),
    "IllegalAction": ("game.rules.battle", "IllegalAction"),
    "JsonFileError": ("game.rules.files.jsonfile", "JsonFileError"),
    "LENGTH_EPS_IN": ("game.rules.table.geometry", "LENGTH_EPS_IN"),
    "LetPass": ("game.rules.actions", "LetPass"),
    "load_rules_data": ("game.rules.charts.data", "load_rules_data"),
    "load_scenario": ("game.rules.files.scenario", "load_scenario"),
    "LogReplay": ("game.rules.files.logreplay", "LogReplay"),
    "LogReplayError": ("game.rules.files.logreplay", "LogReplayError"),
    "Move": ("game.rules.actions", "Move"),
    "MoveAttempt": ("game.rules.actions", "MoveAttempt"),
    "OpportunityFire": ("game.rules.actions", "OpportunityFire"),
    "OVERLAP_SQ_IN": ("game.rules.table.geometry", "OVERLAP_SQ_IN"),
    "overlaps": ("game.rules.table.geometry", "overlaps"),
    "parse_scenario": ("game.rules.files.scenario", "parse_scenario"),
    "Pass": ("game.rules.actions", "Pass"),
    "Mount": ("game.rules.actions", "Mount"),
    "Unload": ("game.rules.actions", "Unload"),
    "CloseAssault": ("game.rules.actions", "CloseAssault"),
    "ArtilleryFire": ("game.rules.actions", "ArtilleryFire"),
    "PlotMission": ("game.rules.actions", "PlotMission"),
    "PlotAirStrike": ("game.rules.actions", "PlotAirStrike"),
    "IMPACT_DIAMETER_IN": ("game.rules.charts.fire_data", "IMPACT_DIAMETER_IN"),
    "AssaultReply": ("game.rules.actions", "AssaultReply"),
    "EndCloseAssaults": ("game.rules.actions", "EndCloseAssaults"),
    "PASS_THROUGH_MOD": ("game.rules.procedures.moves", "PASS_THROUGH_MOD"),
    "phase_titles": ("game.rules.rulesets", "phase_titles"),
    "range_band": ("game.rules.table.geometry", "range_band"),
    "read_json_file": ("game.rules.files.jsonfile", "read_json_file"),
    "MAX_SEED": ("game.rules.files.jsonfile", "MAX_SEED"),
    "NotARegularFile": ("game.rules.files.jsonfile", "NotARegularFile"),
    "SEED_DIGITS": ("game.rules.files.jsonfile", "SEED_DIGITS"),
    "remove_old_files": ("game.rules.files.jsonfile", "remove_old_files"),
    "Regroup": ("game.rules.actions", "Regroup"),
    "Replay": ("game.rules.files.replay", "Replay"),
    "RulesData": ("game.rules.charts.data", "RulesData"),
    "ruleset": ("game.rules.rulesets", "ruleset"),
    "all_rulesets": ("game.rules.rulesets", "all_rulesets"),
    "RULESET_IDS": ("game.rules.rulesets", "RULESET_IDS"),
    "MAX_FEATURES": ("game.rules.files.scenario_file", "MAX_FEATURES"),
    "GeometryProblem": ("game.rules.files.shapes", "GeometryProblem"),
    "coordinates_problem": ("game.rules.files.shapes", "coordinates_problem"),
    "read_geometry": ("game.rules.files.shapes", "read_geometry"),
    "safe_shape": ("game.rules.files.shapes", "safe_shape"),
    "MAX_STANDS": ("game.rules.files.scenario_file", "MAX_STANDS"),
    "GROUNDS": ("game.rules.files.scenario_file", "GROUNDS"),
    "MAX_VERTICES": ("game.rules.files.scenario_file", "MAX_VERTICES"),
    "SaveError": ("game.rules.battle", "SaveError"),
    "SaveDiverged": ("game.rules.battle", "SaveDiverged"),
    "engine_stamp": ("game.rules.files.engine", "engine_stamp"),
    "describe_engine": ("game.rules.files.engine", "describe"),
    "Scenario": ("game.rules.files.scenario", "Scenario"),
    "ScenarioError": ("game.rules.files.scenario", "ScenarioError"),
    "shipped_dir": ("game.rules.files.shipped", "shipped_dir"),
    "Sight": ("game.rules.table.geometry", "Sight"),
    "sight_info": ("game.rules.procedures.combat", "sight_info"),
    "SightInfo": ("game.rules.procedures.combat", "SightInfo"),
    "SightMatrix": ("game.rules.table.geometry", "SightMatrix"),
    "STALE_TEMP_S": ("game.rules.files.jsonfile", "STALE_TEMP_S"),
    "STAND_SIZE_IN": ("game.rules.table.geometry", "STAND_SIZE_IN"),
    "StandPose": ("game.rules.table.geometry", "StandPose"),
    "STEP_IN": ("game.rules.table.geometry", "STEP_IN"),
    "Table": ("game.rules.table.table", "Table"),
    "TerrainFeature": ("game.rules.table.geometry", "TerrainFeature"),
    "write_atomic": ("game.rules.files.jsonfile", "write_atomic"),
    "write_scenario": ("game.rules.files.scenario", "write_scenario"),
    # network play: fair dice from hash chains, hidden plots, the log's replay
    "HashChain": ("game.rules.fair", "HashChain"),
    "fair": ("game.rules.fair", None),
    "conceal": ("game.rules.phases.hidden", "conceal"),
    "reveal_of": ("game.rules.phases.hidden", "reveal"),
    "hidden_due": ("game.rules.phases.hidden", "hidden_due"),
    "NetworkLogError": ("game.rules.battle_network", "NetworkLogError"),
    "first_difference": ("game.rules.battle_network", "first_difference"),
    "log_line": ("game.rules.files.log", "log_line"),
    "PlotHiddenMission": ("game.rules.actions", "PlotHiddenMission"),
    "PlotHiddenAirStrike": ("game.rules.actions", "PlotHiddenAirStrike"),
    "action_from_dict": ("game.rules.actions", "action_from_dict"),
}


def __getattr__(name: str):
    """Import an engine name on first use; AttributeError for a name the engine does not
    show."""
    try:
        module, attr = _EXPORTS[name]
    except KeyError:
        raise AttributeError(f"module 'game' has no attribute {name!r}") from None
    value = importlib.import_module(module)
    if attr is not None:
        value = getattr(value, attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


__all__ = sorted(_EXPORTS)
