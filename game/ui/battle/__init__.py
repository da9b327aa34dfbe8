"""A battle on screen: the table, a phase banner, a side panel for the decision at hand, and the
battle log. Input works as a machine of small modes (python-tcod style): each mode reads events
and returns the next mode; every rule question goes to the engine (``Battle``).

Modes: set-up, choose who goes first, fire (pick a target, then attackers), movement attempt
(pick a group), move (pick a stand, plot its path), the curtain between players, opportunity
fire, and the end of the battle.

The screen is ``screen.py``; its modes, each under the one protocol of ``game.ui.modes``, are
in ``setup.py`` (set-up, who goes first), ``posture.py``, ``fire.py``, ``movement.py``
(attempt, pick a stand, plot), ``opportunity.py`` (opportunity and covering fire) and
``turns.py`` (curtain, AI, end); shared sizes and colours in ``layout.py``.
"""

from game.ui.battle.fire import FireMode
from game.ui.battle.movement import AttemptMode, PickMoverMode, PlotMode
from game.ui.battle.opportunity import CoveringMode, OpportunityMode
from game.ui.battle.posture import PostureMode
from game.ui.battle.screen import BattleScreen
from game.ui.battle.setup import ChooseFirstMode, SetupMode
from game.ui.battle.turns import AIMode, CurtainMode, EndMode

__all__ = [
    "AIMode",
    "AttemptMode",
    "BattleScreen",
    "ChooseFirstMode",
    "CoveringMode",
    "CurtainMode",
    "EndMode",
    "FireMode",
    "OpportunityMode",
    "PickMoverMode",
    "PlotMode",
    "PostureMode",
    "SetupMode",
]
