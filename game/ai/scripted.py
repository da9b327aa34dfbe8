"""A scripted opponent that plays like a sensible tank commander, for any side of any ruleset
the engine plays.

It sees the battle only through the engine (``legal_actions``, ``fire_options``, ``fire_setup``,
``opportunity_setups``, ``preview_move``, the table's sight matrices) and answers with the same
actions a player's clicks make. Every choice is a list of scored options; the best is taken
(a recruit adds noise and sometimes takes the second or third), and the top three of the last
decision are kept in ``last`` (its turn and phase in ``last_when``) for the explain overlay.

Values are in "stands": eliminating an enemy stand is worth about 1 (more for a GHQ or a hard
hitter), a D about 0.45 of that, an S 0.15.
"""

from __future__ import annotations

import dataclasses
import random

from game import Action, Battle, Pass
from game.ai import player_seed
from game.ai.elite import LookaheadChooser
from game.ai.fire import FireChooser
from game.ai.full import FullGameChooser
from game.ai.guns import GunsMixin
from game.ai.initiative import InitiativeChooser
from game.ai.levels import DEFAULT_LEVEL, LEVELS, LOOKAHEAD_BASE
from game.ai.movement import MovementChooser
from game.ai.opportunity import OpportunityChooser
from game.ai.outcome import OutcomeMixin
from game.ai.paths import PathsMixin
from game.ai.positions import PositionsMixin
from game.ai.posture import PostureChooser
from game.ai.situation import SituationMixin
from game.ai.support import FireSupportChooser
from game.ai.values import Option


def ai_players(battle: Battle, levels: dict[str, str], thinking: str = "normal") -> dict:
    """The AI players of ``battle``'s sides named in ``levels`` (side -> level), each seeded by
    :func:`game.ai.player_seed` as ``hulldown simulate`` seeds them (the same seed, the same
    AI), with the setting "AI thinking time" (``thinking``: quick, normal or long; only the
    elite looks ahead). Sides the battle does not have are left out. Raises ValueError for an
    unknown level."""
    return {
        side: ScriptedAI(player_seed(battle.seed, battle.sides.index(side)), level, thinking)
        for side, level in sorted(levels.items())
        if side in battle.sides
    }


def veteran_fire(seed: int) -> ScriptedAI:
    """The fire of the elite's continuations: a scripted AI of the level the look-ahead builds
    on (:data:`game.ai.levels.LOOKAHEAD_BASE`) with its own stream of ``seed``."""
    return ScriptedAI(seed, LOOKAHEAD_BASE)


class ScriptedAI(
    LookaheadChooser,
    FullGameChooser,
    FireSupportChooser,
    InitiativeChooser,
    FireChooser,
    OpportunityChooser,
    PostureChooser,
    MovementChooser,
    PathsMixin,
    PositionsMixin,
    SituationMixin,
    OutcomeMixin,
    GunsMixin,
):
    """The scripted opponent. ``choose(battle)`` returns one legal action for the side to act;
    deterministic for a seed (its own random stream; the battle's dice are never touched), the
    elite as long as its thinking budget does not cut its rounds short (game.ai.elite).
    ``thinking``: the setting "AI thinking time" (quick, normal, long)."""

    base_policy = staticmethod(veteran_fire)

    def __init__(self, seed: int = 0, level: str = DEFAULT_LEVEL, thinking: str = "normal"):
        if level not in LEVELS:
            raise ValueError(f"unknown AI level {level!r} (known: {', '.join(LEVELS)})")
        self.level = LEVELS[level]
        self.thinking = thinking  # "AI thinking time" (the elite's look-ahead budget)
        self.name = f"ai:{level}"
        self.rng = random.Random(seed)
        self.last: list[Option] = []
        self.last_when: tuple[int, str] | None = None  # (turn, phase) of the last decision
        self._stay: set = set()  # stands that chose to stay in a movement action
        self._waiting: set = set()  # stands kept from going into sight with too little company
        self._plans: dict = {}  # (movement action, stand) -> (the table then, its plan)
        self._exposed: list[bool] = []  # per pose last scored: in an enemy's sight
        self._plan_exposed = False  # the last planned move ends in an enemy's sight
        self._stay_exposed = False  # the last planned stand is in an enemy's sight now
        self._plan_hidden: Option | None = None  # its best move out of every enemy's sight
        self._settled: set = set()  # (turn, side, group) with nothing worth moving
        self._snap: dict[int, dict] = {}  # turn -> {stand id: (x, y, side)} when it began
        self._pace: dict[tuple, float] = {}  # (turn, side, turns seen) -> _approach's answer
        self._hidden_at: dict[tuple, bool] = {}  # (x, y) -> ``_hidden``
        self._offense: dict[str, float] = {}  # stand -> its best shot where it stands
        self._moved_better: dict[tuple, float] = {}  # (turn, stand) -> ``_better_moved``
        self._outlooks: dict[tuple, object] = {}  # (turn, side, kills, losses) -> ``_outlook``
        self._alternatives: dict[str, tuple] = {}  # stand -> (staying's score, its best moves)
        self._spent: dict[tuple, float] = {}  # (turn, side) -> seconds of look-ahead spent
        self.looked: dict[str, list[int]] = {}  # kind -> [searched, changed, rounds]
        # a network battle's own hidden plots, by commitment ({"plot": action dict, ...}),
        # which the engine holds only as commitments: set by the side's session
        self.known_plots: dict[str, dict] = {}

    # ---------------------------------------------------------------- choosing

    def choose(self, battle: Battle) -> Action:
        """One legal action for the side to act. Raises ValueError when the battle is over."""
        if battle.finished:
            raise ValueError("the battle is over")
        if battle.state.turn not in self._snap:
            self._snap[battle.state.turn] = {
                st.id: (st.x, st.y, st.side)
                for st in battle.state.stands.values()
                if st.active and st.on_table
            }
        if battle.rules.postures and self.level.caution != self.level.posture_caution:
            # an enemy stand fires at most once a turn, and not at all while it moves
            self.level = dataclasses.replace(self.level, caution=self.level.posture_caution)
        self.thought = None  # (set again by a decision the look-ahead takes)
        options = self.options(battle)
        if self.level.lookahead:
            picked = self._look_ahead(battle, battle.decision(), options)
            if picked is not None:
                self.last_when = (battle.state.turn, battle.state.phase)
                return picked
        if self.level.noise:
            options = [
                Option(o.label, o.score + self.rng.gauss(0, self.level.noise), o.action)
                for o in options
            ]
        options.sort(key=lambda o: -o.score)
        self.last = options[:3]
        self.last_when = (battle.state.turn, battle.state.phase)
        k = min(self.level.pick_from, len(options))
        return options[self.rng.randrange(k)].action if k > 1 else options[0].action

    @staticmethod
    def _reveal() -> list[Option]:
        """A network battle's hidden plot landing now is revealed by the network session
        that holds it (``game.net``), never chosen: raises ValueError."""
        raise ValueError("a hidden plot is revealed by the network session that holds it")

    def options(self, battle: Battle) -> list[Option]:
        """Every option the AI weighs for the decision at hand, scored: the one place where
        what the battle waits for (``battle.decision()``) picks the chooser."""
        decision = battle.decision()
        side = decision.side
        chooser = {
            "choose_first": lambda: self._choose_first(battle, side, battle.phase.kind),
            "covering_fire": lambda: self._covering(battle, side),
            "opportunity_fire": lambda: self._opportunity(battle, side),
            "posture": lambda: self._posture(battle, side),
            "fire": lambda: self._fire(battle, side),
            "plot_move": lambda: self._move(battle, side),
            "move_attempt": lambda: self._attempt(battle, side),
            "close_assault": lambda: self._close_assault(battle, side),
            "assault_reply": lambda: self._assault_reply(battle, side),
            "artillery": lambda: self._artillery(battle, side),
            "plot": lambda: self._plot(battle, side),
            "reveal": lambda: self._reveal(),
        }.get(decision.kind)
        if chooser is not None:
            return chooser()
        if decision.kind == "setup":
            return [Option("keep the battle groups", 0.0, Pass(side))]
        return [Option("pass", 0.0, a) for a in decision.options[:1]]
