"""What the battle facade's parts share: :class:`BattleParts` names, with their types, the
attributes :class:`game.rules.battle.Battle` sets and the methods it has that its query
classes (sight, fire support, full games, refusals, network play) read. It holds nothing
itself; it is the written contract between those classes, which a type checker holds them to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import os

    from game.rules.actions import Action
    from game.rules.charts.data import RulesData, RulesetTables
    from game.rules.context import BattleContext
    from game.rules.dice import Dice
    from game.rules.files.log import LogWriter
    from game.rules.files.scenario import Scenario
    from game.rules.rulesets.base import Ruleset
    from game.rules.state import BattleState, StandState
    from game.rules.table.geometry import StandPose
    from game.rules.table.table import Table


class BattleParts:
    """The parts of a battle its query classes use (set by ``Battle.__init__``): the context
    ``ctx`` and the pieces of it the screens read, and the facade's own ``actions`` and
    ``meta``."""

    ctx: BattleContext
    scenario: Scenario
    seed: int
    auto_pass: bool
    dice: Dice
    rules: Ruleset
    data: RulesData
    ruleset_data: RulesetTables
    sides: list[str]
    side_spec: dict
    sighting_in: float
    totals: dict[str, int]
    state: BattleState
    log: LogWriter
    actions: list[Action]
    autosave: str | os.PathLike | None
    meta: dict

    if TYPE_CHECKING:  # the facade's own methods, as its query classes call them

        @property
        def table(self) -> Table: ...

        def stand(self, stand_id: str) -> StandState: ...

        def other(self, side: str) -> str: ...

        def poses(self, exclude: str | None = None) -> list[StandPose]: ...

        def apply(self, action: Action, elements: dict[str, str] | None = None) -> list[dict]: ...
